"""Physics benchmark: real-time factor (RTF) and steps/s of a resting and of a collapsing tower
in the verdict and display profiles, plus resting drift and penetration.

Run ``python bench/physics.py`` (add ``--json`` for one JSON object on the last line). Figures,
not pass/fail: the machine is shared, so wall-clock rates are given next to CPU-time rates
(``time.process_time``) and the 1-minute load average, and the comparisons are printed as ratios
measured in the same process.

Each figure is one function ``figure_<name>(scene, seconds) -> dict`` registered in
:data:`FIGURES`; add new ones (e.g. 8-replica verdict timings) the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from sim.model import Scene  # noqa: E402
from sim.world import World, reference_tower  # noqa: E402


def tower_scene() -> tuple[Scene, str]:
    """The benchmark tower and where it came from: ``scenes/kozo-tower.toml`` when the loader
    and the file exist, else :func:`sim.world.reference_tower`."""
    path = ROOT / "scenes" / "kozo-tower.toml"
    if path.exists():
        try:
            from sim.scene import load_scene
        except ImportError:
            pass
        else:
            return load_scene(path), str(path.relative_to(ROOT))
    return reference_tower(), "sim.world.reference_tower()"


def _timed_run(
    world: World, seconds: float, callback: Callable[[World], Any] | None = None, every: int = 1
) -> dict[str, float]:
    """Run ``seconds`` of simulated time and return steps, wall/CPU time, steps/s and RTF."""
    w0, c0 = time.perf_counter(), time.process_time()
    steps = world.run(seconds, callback, every)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    sim_s = steps * world.time_step
    return {
        "sim_s": sim_s,
        "steps": steps,
        "wall_s": wall,
        "cpu_s": cpu,
        "steps_per_s_wall": steps / wall,
        "steps_per_s_cpu": steps / cpu if cpu > 0 else float("inf"),
        "rtf_wall": sim_s / wall,
        "rtf_cpu": sim_s / cpu if cpu > 0 else float("inf"),
    }


def rest_rtf(scene: Scene, profile: str, seconds: float, settle: float = 1.0) -> dict[str, Any]:
    """RTF of the tower standing still, after ``settle`` s (display pieces fall asleep)."""
    with World(scene, profile) as w:
        w.run(settle)
        out: dict[str, Any] = _timed_run(w, seconds)
        out["contacts"] = len(w._p.getContactPoints(physicsClientId=w.client))
        out["bodies"] = len(w.piece_ids)
    return out


def collapse_rtf(scene: Scene, profile: str, seconds: float, speed: float = 0.5) -> dict[str, Any]:
    """RTF while the tower is active: the topmost polycube gets a sideways impulse a little above
    its centre of mass worth ``speed`` (m/s) at t = 0, and knocks into what is around it."""
    with World(scene, profile) as w:
        com = w.com_positions()
        poly = [i for i, pid in enumerate(w.piece_ids) if len(scene.piece(pid).cells) > 1]
        i = max(poly or range(len(com)), key=lambda k: com[k, 2])
        pid = w.piece_ids[i]
        mass = w.dynamics_info(pid)["mass"]
        w.apply_impulse(pid, com[i] + [0.0, 0.0, 0.005], [mass * speed, 0.2 * mass * speed, 0.0])
        out: dict[str, Any] = _timed_run(w, seconds)
        out["moved_mm_max"] = float(w.com_displacements().max() * 1e3)
        out["pushed"] = pid
    return out


def drift(scene: Scene, profile: str, seconds: float, settle: float) -> dict[str, float]:
    """Largest COM displacement (mm) and tilt (deg) of any piece over ``seconds`` after
    ``settle`` s, and the deepest penetration (mm) seen (sampled every ~10 ms)."""
    pen = [0.0]

    def sample(w: World) -> None:
        pen[0] = max(pen[0], w.max_penetration())

    with World(scene, profile) as w:
        w.run(settle)
        com0, tilt0 = w.com_positions(), w.tilts_deg()
        every = max(1, round(0.01 / w.time_step))
        w.run(seconds, sample, every)
        disp = ((w.com_positions() - com0) ** 2).sum(axis=1) ** 0.5
        tilt = abs(w.tilts_deg() - tilt0)
    return {
        "settle_s": settle,
        "window_s": seconds,
        "drift_mm": float(disp.max() * 1e3),
        "tilt_deg": float(tilt.max()),
        "max_penetration_mm": pen[0] * 1e3,
    }


# ---------------------------------------------------------------------- figures
def figure_rtf_rest(scene: Scene, seconds: float) -> dict[str, Any]:
    """Resting tower, both profiles, and display/verdict as a ratio."""
    v = rest_rtf(scene, "verdict", seconds)
    d = rest_rtf(scene, "display", seconds)
    return {
        "verdict": v,
        "display": d,
        "display_over_verdict_rtf_cpu": d["rtf_cpu"] / v["rtf_cpu"],
    }


def figure_rtf_collapse(scene: Scene, seconds: float) -> dict[str, Any]:
    """Shoved tower (active bodies), both profiles, and display/verdict as a ratio."""
    v = collapse_rtf(scene, "verdict", seconds)
    d = collapse_rtf(scene, "display", seconds)
    return {
        "verdict": v,
        "display": d,
        "display_over_verdict_rtf_cpu": d["rtf_cpu"] / v["rtf_cpu"],
    }


def figure_drift(scene: Scene, seconds: float) -> dict[str, Any]:
    """Resting drift: verdict over the 5 s Kozo window from the built pose (no settling), and
    display over 10 s after 1 s of settling (targets T1-T3 of the research)."""
    return {
        "verdict_5s": drift(scene, "verdict", 5.0, settle=0.0),
        "display_10s": drift(scene, "display", 10.0, settle=1.0),
    }


FIGURES: dict[str, Callable[[Scene, float], dict[str, Any]]] = {
    "rtf_rest": figure_rtf_rest,
    "rtf_collapse": figure_rtf_collapse,
    "drift": figure_drift,
}
"""Figure name -> function(scene, seconds). Add new figures here."""


def _print_summary(res: dict[str, Any]) -> None:
    print(
        f"scene: {res['scene']} ({res['bodies']} dynamic bodies), load avg {res['load_avg_1m']:.2f}"
    )
    figs = res["figures"]
    for key in ("rtf_rest", "rtf_collapse"):
        if key in figs:
            f = figs[key]
            for prof in ("verdict", "display"):
                r = f[prof]
                print(
                    f"{key:13s} {prof:8s} RTF {r['rtf_cpu']:7.2f} (cpu) {r['rtf_wall']:7.2f} (wall)"
                    f"  steps/s {r['steps_per_s_cpu']:8.0f} (cpu)"
                )
            print(f"{key:13s} display RTF / verdict RTF = {f['display_over_verdict_rtf_cpu']:.2f}")
    if "drift" in figs:
        for k, r in figs["drift"].items():
            print(
                f"drift {k:12s} {r['drift_mm']:.4f} mm, {r['tilt_deg']:.3f} deg,"
                f" max penetration {r['max_penetration_mm']:.4f} mm"
            )


def main(argv: list[str] | None = None) -> int:
    """Command line: ``--json``, ``--seconds S`` (window of the RTF figures), ``--only NAME``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="end with one JSON object line")
    ap.add_argument("--seconds", type=float, default=5.0, help="simulated seconds per RTF run")
    ap.add_argument("--only", choices=sorted(FIGURES), action="append", help="figure(s) to run")
    args = ap.parse_args(argv)
    scene, source = tower_scene()
    names = args.only or list(FIGURES)
    res: dict[str, Any] = {
        "scene": source,
        "bodies": len(scene.dynamic),
        "load_avg_1m": os.getloadavg()[0],
        "figures": {name: FIGURES[name](scene, args.seconds) for name in names},
    }
    _print_summary(res)
    if args.json:
        print(json.dumps(res, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
