"""PyBullet against MuJoCo: the verdict of both engines on the shipped scenes and on generated
stacks, leaning stacks, cantilevers and bridges (``tablesim.sim.crosscheck``), and where they agree.

Run ``python bench/crosscheck.py`` (``--json`` for one JSON object on the last line, ``--quick``
for a small subset, ``--replicas N``). Needs the ``crosscheck`` extra (``mujoco``). Both engines
judge the same replicas (replica 0 as written, the others with the verdict's seeded
perturbations) with the same topple rule over ``--seconds`` (2 s: every faller in these cases is
down within 1.5 s); PyBullet in its verdict profile (1 ms), MuJoCo with stiff contacts at 0.1 ms
(its converged answer: at 0.25 ms it still lets tall leaning stacks sag; see
docs/architecture.md). Each generated case carries its hand-derived margin and the rigid-statics
answer; a row marks which engine agrees with statics where they disagree. Timings are CPU
seconds of this process and its workers, with the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tablesim.sim.crosscheck.cases import Case, generated_cases  # noqa: E402
from tablesim.sim.crosscheck.mujoco_world import judge  # noqa: E402
from tablesim.sim.scene import load_scene, shipped_scene_names, shipped_scene_path  # noqa: E402
from tablesim.sim.verdict import Perturbation, perturb_scene, simulate  # noqa: E402

SHIPPED_EXPECTED = {
    "kozo-tower": "stands",
    "kozo-overhang": "topples",
    "kozo-marginal": "stands",
    "cantilever-safe": "stands",
    "cantilever-tips": "topples",
}
"""The answer of each shipped scene's construction (as in tests/test_verdict_physics.py)."""

MUJOCO_STEP = 1e-4


def _cases(quick: bool) -> list[tuple[str, Any, str | None, float | None]]:
    rows: list[tuple[str, Any, str | None, float | None]] = []
    for name in shipped_scene_names():
        rows.append((name, load_scene(shipped_scene_path(name)), SHIPPED_EXPECTED.get(name), None))
    cases: list[Case] = generated_cases()
    if quick:
        cases = [c for c in cases if c.kind != "leaning" or len(c.scene.pieces) <= 9]
    rows += [(c.name, c.scene, c.expected, c.margin_mm) for c in cases]
    return rows


def run(replicas: int, seconds: float, quick: bool) -> dict[str, Any]:
    """Both engines over every case; one dict per case plus the agreement counts."""
    out: list[dict[str, Any]] = []
    t_pb = t_mj = 0.0
    for name, scene, expected, margin in _cases(quick):
        c0 = time.process_time()
        v = simulate(
            scene, method="simulate", replicas=replicas, seconds=seconds, workers=1,
            early_stop=None,
        )  # fmt: skip
        c1 = time.process_time()
        mj_top = []
        for k in range(replicas):
            rep = perturb_scene(scene, v.seed, k, Perturbation())
            mj_top.append(judge(rep, seconds=seconds, time_step=MUJOCO_STEP).toppled)
        t_pb += c1 - c0
        t_mj += time.process_time() - c1
        p_mj = sum(mj_top) / replicas
        row = {
            "case": name,
            "margin_mm": None if margin is None else round(margin, 3),
            "expected": expected,
            "pybullet": v.verdict,
            "pybullet_p": v.topple_probability,
            "mujoco": "topples" if p_mj >= 0.5 else "stands",
            "mujoco_p": p_mj,
        }
        row["agree"] = row["pybullet"] == row["mujoco"]
        if not row["agree"] and expected is not None:
            row["right"] = "pybullet" if row["pybullet"] == expected else "mujoco"
        out.append(row)
        print(
            f"{name:28s} margin {row['margin_mm'] if margin is not None else '':>8} "
            f"expected {expected or '?':8s} pybullet {v.verdict:8s} ({v.topple_probability:.2f}) "
            f"mujoco {row['mujoco']:8s} ({p_mj:.2f}) {'' if row['agree'] else 'DISAGREE'}"
            f"{' -> ' + str(row['right']) + ' is right' if 'right' in row else ''}",
            flush=True,
        )
    clear = [r for r in out if r["margin_mm"] is None or abs(r["margin_mm"]) >= 0.5]
    return {
        "cases": out,
        "agree": sum(r["agree"] for r in out),
        "total": len(out),
        "agree_margin_ge_0.5mm": sum(r["agree"] for r in clear),
        "total_margin_ge_0.5mm": len(clear),
        "pybullet_right": sum(r["pybullet"] == r["expected"] for r in out if r["expected"]),
        "mujoco_right": sum(r["mujoco"] == r["expected"] for r in out if r["expected"]),
        "with_expected": sum(1 for r in out if r["expected"]),
        "cpu_s": {"pybullet": t_pb, "mujoco": t_mj},
        "load_avg_1m": os.getloadavg()[0],
        "replicas": replicas,
        "seconds": seconds,
        "mujoco_step": MUJOCO_STEP,
    }


def main(argv: list[str] | None = None) -> int:
    """Command line: ``--replicas``, ``--seconds``, ``--quick``, ``--json``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replicas", type=int, default=2, help="replicas per case and engine")
    ap.add_argument("--seconds", type=float, default=2.0, help="window (s)")
    ap.add_argument("--quick", action="store_true", help="skip leaning stacks taller than 9")
    ap.add_argument("--json", action="store_true", help="end with one JSON object line")
    args = ap.parse_args(argv)
    res = run(args.replicas, args.seconds, args.quick)
    print(
        f"agreement {res['agree']}/{res['total']} "
        f"({res['agree_margin_ge_0.5mm']}/{res['total_margin_ge_0.5mm']} with margin >= 0.5 mm "
        f"or shipped); right by statics: pybullet {res['pybullet_right']}/{res['with_expected']}, "
        f"mujoco {res['mujoco_right']}/{res['with_expected']}; cpu pybullet "
        f"{res['cpu_s']['pybullet']:.1f} s, mujoco {res['cpu_s']['mujoco']:.1f} s; "
        f"load {res['load_avg_1m']:.2f}"
    )
    if args.json:
        print(json.dumps(res, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
