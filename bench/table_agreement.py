"""Does the Kozo table agree with ``simulate`` of the same tower? (issue #31)

Plays the generated towers of :mod:`tablesim.sim.experiments.table_agreement` (the leaning
column and the counterweighted beam, both sides of the stand/topple boundary in every margin
bin) and, with ``--games N``, N seeded careful-vs-greedy games (one case per turn) through the
Kozo table with hand noise 0 and the default hand (or ``--release lift``, the first tables'
hand), judges the same tower with ``simulate`` (verdict profile, 8 replicas, one process), and
prints the agreement per family and effective-margin bin (by statics; < 0.2, 0.2-0.5, 0.5-1,
1-2, > 2 mm) with the CPU per case. The goal: agreement at every margin >= 0.5 mm.

    python bench/table_agreement.py [--seed 0] [--per-bin 1] [--families column,beam]
                                    [--games 0] [--max-turns 12] [--release touch|lift]
                                    [--kataboom 0] [--models 1] [--no-escalate] [--json]

``--kataboom N`` adds N seeded games per Kataboom starting model (``--models``) through the
Kataboom table (:func:`tablesim.sim.experiments.table_agreement.kataboom_rows`: one case per
placement, margins drawn on both sides of the boundary).

A run of the defaults (20 towers) takes about a minute of CPU; a game about two.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tablesim.sim.experiments import table_agreement as ta  # noqa: E402


def _fail(msg: str) -> int:
    print(f"bench/table_agreement.py: {msg}", file=sys.stderr)
    return 2


def summary(rows: list[ta.AgreementRow]) -> dict[str, Any]:
    """Agreement per family and bin (``"k/n"``), CPU per case per family, the disagreements
    at margins >= 0.5 mm."""
    cpu: dict[str, list[float]] = {}
    for r in rows:
        cpu.setdefault(r.family, []).append(r.table_cpu_s + r.simulate_cpu_s)
    return {
        "agreement": {
            fam: {b: f"{k}/{n}" for b, (k, n) in bins.items()}
            for fam, bins in ta.bin_agreement(rows).items()
        },
        "cpu_per_case_s": {f: round(sum(v) / len(v), 2) for f, v in cpu.items()},
        "disagree_at_margin_ge_0.5": [r.to_json() for r in ta.disagreements(rows)],
    }


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring)."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--per-bin", type=int, default=1)
    ap.add_argument("--families", default="column,beam")
    ap.add_argument("--games", type=int, default=0, help="seeded careful-vs-greedy games")
    ap.add_argument("--max-turns", type=int, default=12)
    ap.add_argument(
        "--kataboom",
        type=int,
        default=0,
        help="seeded Kataboom games per model (hand noise 0, no nudges)",
    )
    ap.add_argument("--models", default="1", help="Kataboom starting models, e.g. 1,2,3")
    ap.add_argument("--release", default=None, help="the table's hand (default: the game's)")
    ap.add_argument("--no-escalate", action="store_true",
                    help="the tables as before they escalated: every window in Gauss-Seidel")  # fmt: skip
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.per_bin < 0:
        return _fail(f"--per-bin {args.per_bin}: must be 0 or more")
    if args.games < 0 or args.max_turns < 1 or args.kataboom < 0:
        return _fail("--games and --kataboom must be 0 or more and --max-turns 1 or more")
    try:
        models = [int(m) for m in args.models.split(",") if m]
    except ValueError:
        return _fail(f"--models {args.models!r}: expected numbers such as 1,2,3")
    if args.release not in (None, "touch", "lift"):
        return _fail(f"--release {args.release!r}: allowed: touch, lift")
    families = [f for f in args.families.split(",") if f]
    try:
        cases = ta.generate(args.seed, args.per_bin, families) if args.per_bin else []
    except ValueError as exc:
        return _fail(str(exc))
    t0 = time.process_time()
    esc = not args.no_escalate
    rows: list[ta.AgreementRow] = []

    def show(r: ta.AgreementRow) -> None:
        if args.json:
            return
        m = "   -   " if r.margin_mm is None else f"{r.margin_mm:7.3f}"
        mark = "ok " if r.agree else "BAD"
        print(f"{mark} {r.family:6s} {r.name:16s} margin {m} mm  table {r.table:7s}"
              f" simulate {r.simulate:7s} p={r.simulate_p:.2f}  cpu {r.table_cpu_s:.1f}"
              f"+{r.simulate_cpu_s:.1f} s", flush=True)  # fmt: skip

    for case in cases:
        rows.append(ta.run_case(case, args.release, escalate=esc))
        show(rows[-1])
    for g in range(args.games):
        for r in ta.game_rows(args.seed + g, args.release, max_turns=args.max_turns, escalate=esc):
            rows.append(r)
            show(r)
    for model in models if args.kataboom else []:
        for g in range(args.kataboom):
            for r in ta.kataboom_rows(
                args.seed + g, max_turns=args.max_turns, model=model, escalate=esc
            ):
                rows.append(r)
                show(r)
    out = {
        "seed": args.seed,
        "release": rows[0].release if rows else args.release,
        "escalate": esc,
        "cases": len(rows),
        "cpu_s": round(time.process_time() - t0, 1),
        **summary(rows),
    }
    if args.json:
        out["rows"] = [r.to_json() for r in rows]
        print(json.dumps(out, indent=1))
    else:
        print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
