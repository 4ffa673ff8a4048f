"""Accuracy of the verdict on a generated corpus with known answers (issue #31).

Every case of :func:`tablesim.sim.experiments.corpus.generate` (seeded) carries the answer of a method
independent of the dynamics (rigid statics in closed form, the friction angle) and its margin.
This runs each case through :func:`tablesim.sim.verdict.simulate` in the ``verdict``, ``display`` and
``exact`` profiles (and with ``--steps`` the verdict profile at other steps) and reports the
accuracy per family and per margin bin (< 0.2, 0.2-0.5, 0.5-1, 1-2, > 2; mm or degrees as the
family's margin is; standing drops by barrier / impact energy, x10-30, x30-100, x>100), with the CPU per case (this process and its workers: ``workers=1`` runs
the replicas here).

    python bench/corpus.py [--seed 0] [--per-bin 2] [--profiles verdict,display,exact]
                           [--steps 1e-3,0.5e-3] [--json] [--quick] [--witness]

``--witness`` (needs the ``crosscheck`` extra): the drop family against the MuJoCo witness
instead (:mod:`tablesim.sim.experiments.drop_witness`): the issue's case, the seeded drops
the energy bound leaves undecided and some it decides; the expected answer is the bound's
where it decides, else the witness's where it does not depend on its step (0.1 and 0.05 ms);
agreement per bin of barrier / impact energy, and the bound against the witness.

The drops include the off-centre and tilted landings of
:mod:`tablesim.sim.experiments.landings` (families ``drop-edge``, ``drop-tilted``: decided by
their energy bound; with ``--witness`` the decided ones against MuJoCo too, their agreement
rows named by family and profile).

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
from tablesim.sim.experiments.landings import landing_cases  # noqa: E402
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


def witness_scenes(seed: int, undecided: int, decided: int, families: set[str]
                   ) -> list[tuple[str, str, float, str | None, Any]]:  # fmt: skip
    """``(family, bin, ratio, bound's answer, scene)`` of the drops the witness runs: the
    centred drops of ``witness_drops`` (family ``drop``) and the decided landings of
    ``landing_cases`` (``drop-edge``, ``drop-tilted``), those of ``families`` (empty: all)."""
    from tablesim.sim.experiments.drop_witness import witness_drops
    from tablesim.sim.experiments.landings import landing_cases

    out: list[tuple[str, str, float, str | None, Any]] = []
    if not families or "drop" in families:
        out += [("drop", d.bin, d.ratio, d.bound, d.scene)
                for d in witness_drops(seed, undecided, decided)]  # fmt: skip
    for c in landing_cases(seed, max(2, decided)):
        if not families or c.family in families:
            b = margin_bin(c.margin, c.unit) if c.expected == "stands" else "no equilibrium"
            out.append((c.family, b, c.margin if c.unit == "ratio" else 0.0, c.expected, c.scene))
    return out


def witness_rows(seed: int, runs: list[tuple[str, float | None]], undecided: int,
                 decided: int, echo: bool, families: set[str] | None = None,
                 ) -> list[dict[str, Any]]:  # fmt: skip
    """The drop families against the MuJoCo witness (see the module docstring): one row per
    scene and profile, with the witness's probabilities per step and its answer."""
    from tablesim.sim.experiments.drop_witness import witness

    rows = []
    for family, bin_, ratio, bound, scene in witness_scenes(
        seed, undecided, decided, families or set()
    ):
        w = witness(scene, seed)
        expected = bound or w.answer
        for profile, step in runs:
            t0 = time.process_time()
            v = simulate(scene, profile=profile, time_step=step, workers=1, seed=seed)
            r = {
                "case": scene.name,
                "family": family,
                "bin": bin_,
                "ratio": round(ratio, 5),
                "bound": bound,
                "witness": w.answer,
                "witness_p": {f"{k * 1e3:g}ms": w.p(k) for k in w.toppled},
                "witness_cpu_s": round(w.cpu_s, 3),
                "expected": expected,
                "profile": profile if step is None else f"{profile}@{step * 1e3:g}ms",
                "verdict": v.verdict,
                "p": v.topple_probability,
                "right": None if expected is None else v.verdict == expected,
                "cpu_s": round(time.process_time() - t0, 3),
            }
            rows.append(r)
            if echo:
                print(f"{r['profile']:16s} {r['case']:40s} {r['bin']:14s} bound={bound}"
                      f" witness={w.answer} {r['witness_p']} -> {v.verdict} p={v.topple_probability:.2f}",
                      flush=True)  # fmt: skip
    return rows


def summarise_witness(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Agreement with the expected answer per (profile, bin); the bound against the witness
    where both answer; how often the witness is step-independent."""
    table: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for r in rows:
        if r["right"] is not None:
            cell = table[f"{r['family']} {r['profile']}"][r["bin"]]
            cell[0] += int(r["right"])
            cell[1] += 1
    scenes = {r["case"]: r for r in rows}.values()
    both = [r for r in scenes if r["bound"] is not None and r["witness"] is not None]
    band = [r for r in scenes if r["bound"] is None]
    return {
        "agreement": {p: {b: f"{k}/{n}" for b, (k, n) in sorted(bins.items())}
                      for p, bins in table.items()},  # fmt: skip
        "bound_vs_witness": f"{sum(r['bound'] == r['witness'] for r in both)}/{len(both)}",
        "witness_step_independent_in_band": f"{sum(r['witness'] is not None for r in band)}/{len(band)}",
        "witness_cpu_per_scene_s": round(sum(r["witness_cpu_s"] for r in scenes) / max(1, len(scenes)), 2),
    }  # fmt: skip


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
    ap.add_argument("--witness", action="store_true", help="the drop family against MuJoCo")
    args = ap.parse_args(argv)
    if args.per_bin < 1:
        print(f"bench/corpus.py: --per-bin {args.per_bin}: must be 1 or more", file=sys.stderr)
        return 2
    if args.witness:
        runs_w: list[tuple[str, float | None]] = [(p, None) for p in args.profiles.split(",") if p]
        runs_w += [("verdict", float(s)) for s in args.steps.split(",") if s]
        n = 6 if args.quick else 12 * args.per_bin
        fams = {f for f in args.families.split(",") if f}
        wrows = witness_rows(args.seed, runs_w, n, n // 2, not args.json, fams)
        wout = {"seed": args.seed, **summarise_witness(wrows)}
        if args.json:
            wout["rows"] = wrows
        print(json.dumps(wout, indent=1))
        return 0
    cases = generate(args.seed, 1 if args.quick else args.per_bin)
    cases += drop_cases(args.seed, 6 if args.quick else 12 * args.per_bin)
    cases += landing_cases(args.seed, 2 if args.quick else 6 * args.per_bin)
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
