"""Figures of result files: collapse probability against a swept parameter, bot win rates.

Sweeps (a file with a ``verdict`` column): for each value of the x parameter (binned into equal
widths when it has more than ``max_points`` distinct values, as a random sample does) and each
value of the ``by`` parameter, the probability of collapse is the pooled fraction of toppled
replicas: a simulated run adds ``replicas_toppled`` of ``replicas_simulated``; a run that statics
decided counts as one replica with its verdict; error runs are left out (and counted in the
title). The band is the Wilson 95 % interval of that fraction.

Tournaments (a file with a ``winners`` column): win rate of each entry and of each seat, with
Wilson 95 % intervals, and the rate without a seat advantage (1/seats) as a dashed line.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tablesim.games.stats import wilson_interval
from tablesim.sim.experiments.results import ResultsError, read_table
from tablesim.sim.experiments.tournament import summarize

_META = ("run", "seed", "repeat")


@dataclass(frozen=True)
class Point:
    """One plotted point: x, collapse probability, its interval, and the pooled counts."""

    x: float
    p: float
    low: float
    high: float
    toppled: int
    replicas: int
    runs: int


def parameter_columns(columns: Sequence[str]) -> list[str]:
    """The parameter columns of a sweep file: between the run/seed columns and ``verdict``."""
    if "verdict" not in columns:
        raise ResultsError("not a sweep result file (no 'verdict' column)")
    end = list(columns).index("verdict")
    return [c for c in columns[:end] if c not in _META]


def _numeric(values: Sequence[Any]) -> bool:
    return all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)


def choose_axes(
    columns: Sequence[str], rows: Sequence[Mapping[str, Any]], x: str | None, by: str | None
) -> tuple[str, str | None]:
    """The x parameter (given, or the first numeric swept one) and the grouping parameter
    (given, or the first other swept one with at most 8 values; None if there is none)."""
    params = parameter_columns(columns)
    distinct = {c: sorted({repr(r.get(c)) for r in rows}) for c in params}
    swept = [c for c in params if len(distinct[c]) > 1]
    if x is None:
        cands = [c for c in swept if _numeric([r.get(c) for r in rows])]
        if not cands:
            raise ResultsError(
                f"no numeric parameter varies in this file (parameters: {', '.join(params)})"
            )
        x = cands[0]
    elif x not in params:
        raise ResultsError(f"--x {x!r} is not a parameter of this file ({', '.join(params)})")
    elif not _numeric([r.get(x) for r in rows]):
        raise ResultsError(f"--x {x!r} is not numeric")
    if by is None:
        by = next((c for c in swept if c != x and len(distinct[c]) <= 8), None)
    elif by not in params:
        raise ResultsError(f"--by {by!r} is not a parameter of this file ({', '.join(params)})")
    elif by == x:
        raise ResultsError("--by must differ from --x")
    return x, by


def collapse_series(
    rows: Sequence[Mapping[str, Any]],
    x: str,
    by: str | None = None,
    *,
    max_points: int = 20,
    bins: int = 10,
) -> tuple[dict[Any, list[Point]], int]:
    """Points per group (see the module docstring) and the number of error runs left out."""
    good = [r for r in rows if r.get("verdict") in ("stands", "topples")]
    errors = len(rows) - len(good)
    xs = sorted({float(r[x]) for r in good})
    binned = len(xs) > max_points
    lo, hi = (xs[0], xs[-1]) if xs else (0.0, 1.0)
    width = (hi - lo) / bins if binned and hi > lo else 0.0

    def key_x(v: float) -> float:
        if not binned or width == 0:
            return float(v)
        k = min(bins - 1, int((float(v) - lo) / width))
        return lo + (k + 0.5) * width

    tally: dict[Any, dict[float, list[int]]] = {}
    for r in good:
        g = r.get(by) if by else None
        cell = tally.setdefault(g, {}).setdefault(key_x(r[x]), [0, 0, 0])
        n_sim = int(r.get("replicas_simulated") or 0)
        if n_sim > 0:
            cell[0] += int(r.get("replicas_toppled") or 0)
            cell[1] += n_sim
        else:
            cell[0] += 1 if r["verdict"] == "topples" else 0
            cell[1] += 1
        cell[2] += 1
    out: dict[Any, list[Point]] = {}
    for g in sorted(tally, key=lambda v: (v is None, repr(v) if not _numeric([v]) else v)):
        pts = []
        for xv in sorted(tally[g]):
            k, n, runs = tally[g][xv]
            low, high = wilson_interval(k, n)
            pts.append(Point(xv, k / n, low, high, k, n, runs))
        out[g] = pts
    return out, errors


def plot_sweep(
    columns: Sequence[str],
    rows: Sequence[Mapping[str, Any]],
    out: Path,
    *,
    x: str | None = None,
    by: str | None = None,
    title: str = "",
    bins: int = 10,
) -> dict[Any, list[Point]]:
    """Collapse probability against ``x`` (one line per ``by`` value) as a PNG; returns points."""
    x, by = choose_axes(columns, rows, x, by)
    series, errors = collapse_series(rows, x, by, bins=bins)
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5), dpi=100)
    for g, pts in series.items():
        xs = [p.x for p in pts]
        label = f"{by} = {g}" if by else None
        (line,) = ax.plot(xs, [p.p for p in pts], marker="o", label=label)
        ax.fill_between(
            xs, [p.low for p in pts], [p.high for p in pts], color=line.get_color(), alpha=0.2
        )
    ax.set_xlabel(x)
    ax.set_ylabel("probability of collapse")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(True, alpha=0.3)
    n = len(rows)
    extra = f", {errors} error runs left out" if errors else ""
    scenes = sorted({str(r["scene"]) for r in rows if r.get("scene") not in (None, "")})
    what = f"{', '.join(scenes[:3])}{' ...' if len(scenes) > 3 else ''}: " if scenes else ""
    ax.set_title(
        title or f"{what}collapse against {x}\n{n} runs, 95% Wilson intervals{extra}",
        fontsize=10,
    )
    if by:
        ax.legend(fontsize=8)
    _save(fig, out)
    return series


def plot_tournament(
    rows: Sequence[Mapping[str, Any]], out: Path, *, title: str = ""
) -> dict[str, Any]:
    """Win rate per entry and per seat with intervals, as a PNG; returns the summary."""
    if not rows:
        raise ResultsError("no rows to plot")
    entries: dict[int, str] = {}
    for r in rows:
        for e, role in zip(str(r["seats"]).split("|"), str(r["roles"]).split("|"), strict=True):
            entries[int(e)] = role
    players = [entries.get(i, "?") for i in range(max(entries) + 1)]
    seats = len(str(rows[0]["seats"]).split("|"))
    summary = summarize(rows, players, seats)
    plt = _pyplot()
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, 4.5), dpi=100, width_ratios=[2, 1])
    for ax, items, labels in (
        (a1, summary["players"], [f"{p['entry']}:{p['bot']}" for p in summary["players"]]),
        (
            a2,
            [_seat_rate(summary, s) for s in range(seats)],
            [f"seat {s}" for s in range(seats)],
        ),
    ):
        rates = [i["rate"] or 0.0 for i in items]
        err = [
            [r - i["low"] for r, i in zip(rates, items, strict=True)],
            [i["high"] - r for r, i in zip(rates, items, strict=True)],
        ]
        ax.bar(range(len(items)), rates, yerr=err, capsize=4, color="#4c78a8")
        ax.set_xticks(range(len(items)), labels, rotation=30 if len(items) > 4 else 0)
        ax.axhline(1 / seats, ls="--", color="#888", lw=1)
        ax.set_ylim(0, 1)
        ax.grid(True, axis="y", alpha=0.3)
    a1.set_ylabel("win rate")
    a1.set_title("by entry", fontsize=10)
    a2.set_title("by seat (dashed: no seat advantage)", fontsize=10)
    games = sorted({str(r["game"]) for r in rows if r.get("game")})
    what = f"{', '.join(games)} tournament: " if games else ""
    fig.suptitle(
        title
        or f"{what}{len(rows)} games, mean length {summary['mean_length']:.1f} moves, 95% Wilson",
        fontsize=10,
    )
    _save(fig, out)
    return summary


def _seat_rate(summary: Mapping[str, Any], seat: int) -> dict[str, Any]:
    k, n = summary["seat_wins"][seat], summary["games"]
    lo, hi = wilson_interval(k, n)
    return {"rate": k / n if n else None, "low": lo, "high": hi}


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig: Any, out: Path) -> None:
    from tablesim.sim.experiments.results import _atomic_write

    fig.tight_layout()
    try:
        _atomic_write(out, lambda tmp: fig.savefig(tmp, format="png"))
    finally:
        import matplotlib.pyplot as plt

        plt.close(fig)


def plot_file(
    results: str | Path,
    out: str | Path,
    *,
    x: str | None = None,
    by: str | None = None,
    title: str = "",
    bins: int = 10,
) -> str:
    """Plot a sweep or tournament results file to ``out`` (PNG); returns which kind it was."""
    out = Path(out)
    if out.suffix.lower() != ".png":
        raise ResultsError(f"{out}: the plot is a PNG; name it *.png")
    parent = out.parent if str(out.parent) else Path(".")
    if not parent.is_dir():
        raise ResultsError(f"{out}: folder {parent} does not exist")
    if bins < 1 or math.isnan(bins):
        raise ResultsError(f"--bins must be >= 1, got {bins}")
    columns, rows = read_table(results)
    if not rows:
        raise ResultsError(f"{results}: no rows to plot")
    if "verdict" in columns:
        plot_sweep(columns, rows, out, x=x, by=by, title=title, bins=bins)
        return "sweep"
    if "winners" in columns and "seats" in columns:
        if x or by:
            raise ResultsError("--x and --by are for sweep files")
        plot_tournament(rows, out, title=title)
        return "tournament"
    raise ResultsError(
        f"{results}: neither a sweep file (no 'verdict' column) nor a tournament file "
        "(no 'winners' column)"
    )
