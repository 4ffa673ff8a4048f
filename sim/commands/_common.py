"""Helpers shared by the game subcommands: game options from the command line, atomic writes."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tablesim.games.core import C, ConfigError, Game, M, S, counted


def add_game_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments common to ``play`` and ``balance``."""
    parser.add_argument("game", metavar="GAME", help="game name (see `tablesim list games`)")
    parser.add_argument(
        "--players", required=True, help="comma-separated roles: human or bot names"
    )
    parser.add_argument(
        "--seed",
        type=int_in(0, MAX_SEED),
        default=0,
        help="seed of every random choice (default 0)",
    )
    parser.add_argument(
        "--budget",
        type=int_in(0, MAX_BUDGET),
        default=None,
        help="bot node/playout budget (default: each bot's own)",
    )
    parser.add_argument(
        "--json", action="store_true", help="print one compact JSON object at the end"
    )
    parser.set_defaults(accepts_extra=True)


def parse_game_options(game: Game[S, M, C], extra: Sequence[str]) -> dict[str, Any]:
    """Parse ``--option value`` pairs declared by ``game.options``; ConfigError on anything else."""
    if not game.options and extra:
        raise ConfigError(f"{game.name} takes no options; got {' '.join(extra)}")
    p = argparse.ArgumentParser(prog=f"tablesim ... {game.name}", add_help=False)
    for opt in game.options:
        flag = "--" + opt.name.replace("_", "-")
        if opt.kind == "bool":
            p.add_argument(flag, dest=opt.name, nargs="?", const="true", default=None)
        else:
            p.add_argument(flag, dest=opt.name, default=None)
    ns, rest = p.parse_known_args(list(extra))
    if rest:
        allowed = ", ".join("--" + o.name.replace("_", "-") for o in game.options)
        raise ConfigError(f"{game.name}: unknown argument(s) {' '.join(rest)} (options: {allowed})")
    values: dict[str, Any] = {}
    for opt in game.options:
        raw = getattr(ns, opt.name)
        if raw is not None:
            values[opt.name] = opt.parse(raw)
    return values


def atomic_write_text(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically, mode 0644 (:func:`tablesim.games.outputs.atomic_write`)."""
    from tablesim.games.outputs import atomic_write

    atomic_write(path, text)


def format_table(verdict: Any) -> str:
    """The human-readable piece table and verdict line of a :class:`tablesim.sim.verdict.Verdict`
    (``simulate``, ``demo``)."""
    rows = [f"{'piece':<10} {'moved mm':>9} {'tilt deg':>9} {'fell p':>7} {'margin mm':>10}"]
    for p in verdict.pieces:

        def f(x: float | None, fmt: str) -> str:
            width = int(fmt.split(".")[0])
            return "-".rjust(width) if x is None else format(x, fmt)

        rows.append(
            f"{p.id:<10} {f(p.displacement_mm, '9.3f')} {f(p.tilt_deg, '9.2f')} "
            f"{f(p.fall_probability, '7.2f')} {f(p.margin_mm, '10.2f')}"
            + ("  marginal" if p.marginal else "")
        )
    rows.append("")
    rows.append(
        f"verdict: {verdict.verdict.upper()} (topple probability {verdict.topple_probability:.2f}, "
        f"{_replicas_text(verdict)}, {verdict.seconds:g} s, {verdict.profile} profile, "
        f"step {verdict.time_step * 1e3:g} ms, by {verdict.decided_by})"
    )
    rows.append(verdict.explanation)
    return "\n".join(rows)


def _replicas_text(verdict: Any) -> str:
    """``8 replicas``, or ``5 of 8 replicas`` when sequential stopping ended the ensemble."""
    asked = verdict.replicas_requested
    if verdict.replicas and asked and asked != verdict.replicas:
        return f"{verdict.replicas} of {counted(asked, 'replica')}"
    return f"{verdict.replicas} replica" + ("" if verdict.replicas == 1 else "s")


# ---------------------------------------------------------------------------------------
# Documented limits of command-line numbers (argparse types: a bad value exits 2 naming the
# option, what is allowed and what was given; README "Limits")
# ---------------------------------------------------------------------------------------
from tablesim.games.limits import MAX_BUDGET as MAX_BUDGET  # noqa: E402  (the one table of limits,
from tablesim.games.limits import MAX_GAMES as MAX_GAMES  # noqa: E402  shared with tablesim.api)
from tablesim.games.limits import MAX_REPLICAS as MAX_REPLICAS  # noqa: E402
from tablesim.games.limits import MAX_SEED as MAX_SEED  # noqa: E402
from tablesim.games.limits import MAX_WORKERS as MAX_WORKERS  # noqa: E402


def int_in(low: int, high: int | None = None) -> Any:
    """An argparse ``type``: an integer in ``[low, high]`` (no upper bound when None)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < low or (high is not None and value > high):
            allowed = f"{low}..{high}" if high is not None else f">= {low}"
            raise argparse.ArgumentTypeError(f"allowed {allowed}, got {value}")
        return value

    parse.__name__ = "integer"
    return parse


def float_in(low: float, high: float, *, low_open: bool = False) -> Any:
    """An argparse ``type``: a finite number in ``[low, high]`` (``(low, high]`` with
    ``low_open``)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
        ok = (value > low if low_open else value >= low) and value <= high
        if not ok:  # also NaN
            left = "(" if low_open else "["
            raise argparse.ArgumentTypeError(f"allowed {left}{low:g}, {high:g}], got {text}")
        return value

    parse.__name__ = "number"
    return parse


def add_force_argument(p: argparse.ArgumentParser, what: str = "the output") -> None:
    """``--force``: replace an existing output (without it, an existing file is refused)."""
    p.add_argument("--force", action="store_true", help=f"replace {what} if it exists")
