"""Accuracy of the verdict on a generated corpus with known answers (issue #31).

Every case of :func:`tablesim.sim.experiments.corpus.generate` (seeded) carries the answer of a method
independent of the dynamics (rigid statics in closed form, the friction angle) and its margin.
This runs each case through :func:`tablesim.sim.verdict.simulate` in the ``verdict``, ``display`` and
``exact`` profiles (and with ``--steps`` the verdict profile at other steps) and reports the
accuracy per family and per margin bin (< 0.2, 0.2-0.5, 0.5-1, 1-2, > 2; mm or degrees as the
family's margin is; standing drops by barrier / impact energy, x10-30, x30-100, x>100), with the CPU per case (this process and its workers: ``workers=1`` runs
the replicas here).

    python bench/corpus.py [--seed 0] [--per-bin 2] [--profiles verdict,display,exact]
                           [--steps 1e-3,0.5e-3] [--json] [--quick]

``--quick``: one case per bin and side (a minute). The goal (issue #31): every verdict right at
margins >= 0.5 mm and >= 0.5 degree in every family.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tablesim.sim.experiments.corpus import Case, drop_cases, generate, margin_bin  # noqa: E402
from tablesim.sim.verdict import simulate  # noqa: E402


def run_case(case: Case, profile: str, step: float | None) -> dict[str, Any]:
    """One case in one profile: the verdict, whether it is right, the CPU seconds."""
    t0 = time.process_time()
    v = simulate(case.scene, profile=profile, time_step=step, workers=1)
    return {
        "case": case.scene.name,
        "family": case.family,
        "expected": case.expected,
        "margin": round(case.margin, 4),
        "unit": case.unit,
        "bin": margin_bin(case.margin, case.unit),
        "profile": profile if step is None else f"{profile}@{step * 1e3:g}ms",
        "verdict": v.verdict,
        "p": v.topple_probability,
        "right": v.verdict == case.expected,
        "escalated": v.escalation is not None,
        "cpu_s": round(time.process_time() - t0, 3),
    }


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Accuracy per (profile, family, bin), and the wrong cases at margins >= 0.5."""
    table: dict[str, dict[str, dict[str, list[int]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(lambda: [0, 0]))
    )
    cpu: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        cell = table[r["profile"]][r["family"]][r["bin"]]
        cell[0] += int(r["right"])
        cell[1] += 1
        cpu[r["profile"]].append(r["cpu_s"])
    wide_wrong = [
        r for r in rows if not r["right"] and r["margin"] >= (10 if r["unit"] == "ratio" else 0.5)
    ]
    return {
        "accuracy": {
            p: {
                f: {b: f"{k}/{n}" for b, (k, n) in sorted(bins.items())} for f, bins in fams.items()
            }
            for p, fams in table.items()
        },  # fmt: skip
        "cpu_per_case_s": {p: round(sum(v) / len(v), 3) for p, v in cpu.items()},
        "wrong_at_margin_ge_0.5": wide_wrong,
    }


def main(argv: list[str] | None = None) -> int:
    """Command line (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--per-bin", type=int, default=2)
    ap.add_argument("--profiles", default="verdict,display,exact")
    ap.add_argument("--steps", default="", help="extra verdict-profile steps, e.g. 0.5e-3,0.25e-3")
    ap.add_argument("--families", default="", help="only these families (comma-separated)")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.per_bin < 1:
        print(f"bench/corpus.py: --per-bin {args.per_bin}: must be 1 or more", file=sys.stderr)
        return 2
    cases = generate(args.seed, 1 if args.quick else args.per_bin)
    cases += drop_cases(args.seed, 6 if args.quick else 12 * args.per_bin)
    if args.families:
        keep = set(args.families.split(","))
        cases = [c for c in cases if c.family in keep]
    runs: list[tuple[str, float | None]] = [(p, None) for p in args.profiles.split(",") if p]
    runs += [("verdict", float(s)) for s in args.steps.split(",") if s]
    rows = []
    for case in cases:
        for profile, step in runs:
            r = run_case(case, profile, step)
            rows.append(r)
            if not args.json:
                mark = "ok " if r["right"] else "BAD"
                print(f"{mark} {r['profile']:16s} {r['family']:18s} {r['case']:44s}"
                      f" {r['margin']:7.3f} {r['unit']:3s} {r['verdict']:8s} p={r['p']:.2f}"
                      f" {r['cpu_s']:.2f}s", flush=True)  # fmt: skip
    out = {"seed": args.seed, "cases": len(cases), **summarise(rows)}
    if args.json:
        out["rows"] = rows
        print(json.dumps(out, indent=1))
    else:
        print(json.dumps({k: v for k, v in out.items() if k != "rows"}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
