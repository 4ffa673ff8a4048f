"""Physics benchmark: real-time factor (RTF) and steps/s of a resting and of a collapsing tower
in the verdict and display profiles, plus resting drift and penetration.

Run ``python bench/physics.py`` (add ``--json`` for one JSON object on the last line). Figures,
not pass/fail: the machine is shared, so wall-clock rates are given next to CPU-time rates
(``time.process_time``) and the 1-minute load average, and the comparisons are printed as ratios
measured in the same process.

Each figure is one function ``figure_<name>(scene, seconds) -> dict`` registered in
:data:`FIGURES`; add new ones the same way.

Verdict figures (``verdict_workers``, ``statics_analyse``): the wall time of a whole 8-replica
``tablesim.sim.verdict.simulate`` call with ``workers=1`` and ``workers=2`` for three cases -- an
LP-settled one (``kozo-tower``, ``method="auto"``: statics decides, nothing is simulated), a
simulated one (``kozo-marginal``, ``method="auto"``: statics leaves it undecided, checked on
every run) and a collapse (``kozo-overhang``, ``method="simulate"``) -- each over its scene's
own window (5 s; ``--seconds`` does not apply), with the speed-up of 2 workers over 1 and the
LP-settled time as a ratio to the simulated one; and the time of one ``tablesim.sim.statics.analyse``
call on the tower. CPU time there includes the worker processes (``RUSAGE_CHILDREN``).

``verdict8_tower``: an 8-replica simulated verdict of the whole 24-piece tower on 2 cores (goal:
1 s in issue #4, 0.4 s wall in issue #24), with and without the verdict's early stop, with a cold
pool and with every replica (no sequential stopping) beside the default (see its docstring).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tablesim.sim.bullet import pybullet_module  # noqa: E402
from tablesim.sim.model import Scene  # noqa: E402
from tablesim.sim.pools import pool_cpu_seconds  # noqa: E402
from tablesim.sim.world import World  # noqa: E402

if TYPE_CHECKING:
    from tablesim.sim.verdict import Method


def tower_scene() -> tuple[Scene, str]:
    """The benchmark tower (the shipped ``kozo-tower`` scene) and where it came from."""
    from tablesim.sim.scene import load_scene, shipped_scene_path

    path = shipped_scene_path("kozo-tower")
    return load_scene(path), "scenes/kozo-tower.toml"


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
        out["contacts"] = len(pybullet_module().getContactPoints(physicsClientId=w.client))
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
        out["moved_mm_max"] = float(w.baseline.com_displacements().max() * 1e3)
        out["pushed"] = pid
    return out


def drift(scene: Scene, profile: str, seconds: float, settle: float) -> dict[str, float]:
    """Largest COM displacement (mm) and tilt (deg) of any piece over ``seconds`` after
    ``settle`` s, and the deepest penetration (mm) seen (sampled every ~10 ms)."""
    pen = [0.0]

    def sample(w: World) -> None:
        pen[0] = max(pen[0], w.contacts.max_penetration())

    with World(scene, profile) as w:
        w.run(settle)
        com0, tilt0 = w.com_positions(), w.baseline.tilts_deg()
        every = max(1, round(0.01 / w.time_step))
        w.run(seconds, sample, every)
        disp = ((w.com_positions() - com0) ** 2).sum(axis=1) ** 0.5
        tilt = abs(w.baseline.tilts_deg() - tilt0)
    return {
        "settle_s": settle,
        "window_s": seconds,
        "drift_mm": float(disp.max() * 1e3),
        "tilt_deg": float(tilt.max()),
        "max_penetration_mm": pen[0] * 1e3,
    }


# ---------------------------------------------------------------------- figures
def _both_profiles(measure: Any, scene: Scene, seconds: float) -> dict[str, Any]:
    """Run ``measure(scene, profile, seconds)`` in both profiles and give display/verdict."""
    v = measure(scene, "verdict", seconds)
    d = measure(scene, "display", seconds)
    return {"verdict": v, "display": d, "display_over_verdict_rtf_cpu": d["rtf_cpu"] / v["rtf_cpu"]}


def figure_rtf_rest(scene: Scene, seconds: float) -> dict[str, Any]:
    """Resting tower, both profiles, and display/verdict as a ratio."""
    return _both_profiles(rest_rtf, scene, seconds)


def figure_rtf_collapse(scene: Scene, seconds: float) -> dict[str, Any]:
    """Shoved tower (active bodies), both profiles, and display/verdict as a ratio."""
    return _both_profiles(collapse_rtf, scene, seconds)


def figure_drift(scene: Scene, seconds: float) -> dict[str, Any]:
    """Resting drift: verdict over the 5 s Kozo window from the built pose (no settling), and
    display over 10 s after 1 s of settling (targets T1-T3 of the research)."""
    return {
        "verdict_5s": drift(scene, "verdict", 5.0, settle=0.0),
        "display_10s": drift(scene, "display", 10.0, settle=1.0),
    }


# ---------------------------------------------------------------------- verdict timings
VERDICT_CASES: dict[str, tuple[str, Method]] = {
    "lp_settled": ("kozo-tower", "auto"),
    "simulated": ("kozo-marginal", "auto"),
    "collapse": ("kozo-overhang", "simulate"),
}
"""Case -> (shipped scene, method) of :func:`figure_verdict_workers`."""


def _cpu_with_children() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    warm = pool_cpu_seconds()  # the verdicts' warm pool workers are alive, not yet counted
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime + warm


def timed_verdicts(
    scene: Scene,
    method: Method,
    workers: tuple[int, ...] = (1, 2),
    replicas: int = 8,
    repeats: int = 3,
    **options: Any,
) -> dict[int, dict[str, Any]]:
    """Wall and CPU time (this process plus its workers) of ``simulate`` on ``scene`` for each
    worker count, ``repeats`` rounds interleaved (1, 2, 1, 2, ...) so that a burst of load from
    other processes hits both counts alike. Every call gives the same verdict (same seed).

    The machine is shared: ``wall_min_s`` (the least disturbed run) is the figure to compare,
    ``wall_s`` lists every run, and ``load_1m`` the load average after each. ``options`` go to
    ``simulate`` (e.g. ``early_stop=None``); ``cold=True`` stops the warm pool before each
    call (:func:`tablesim.sim.pools.close_pool`)."""
    from tablesim.sim.pools import close_pool
    from tablesim.sim.verdict import simulate

    cold = options.pop("cold", False)
    runs: dict[int, dict[str, Any]] = {
        w: {"wall_s": [], "cpu_s": [], "load_1m": []} for w in workers
    }
    for _ in range(repeats):
        for w in workers:
            if cold:
                close_pool()  # no warm pool: fork the workers and connect their clients anew
            w0, c0 = time.perf_counter(), _cpu_with_children()
            v = simulate(scene, replicas=replicas, seed=0, method=method, workers=w, **options)
            runs[w]["wall_s"].append(time.perf_counter() - w0)
            runs[w]["cpu_s"].append(_cpu_with_children() - c0)
            runs[w]["load_1m"].append(os.getloadavg()[0])
            runs[w].update(
                workers=w,
                replicas_run=v.replicas,
                method=v.method,
                verdict=v.verdict,
                topple_probability=v.topple_probability,
                simulated_s=v.simulated_s,
            )
    for r in runs.values():
        r["wall_min_s"] = min(r["wall_s"])
        r["wall_median_s"] = statistics.median(r["wall_s"])
        r["cpu_median_s"] = statistics.median(r["cpu_s"])
    return runs


def figure_verdict_workers(scene: Scene, seconds: float, repeats: int = 3) -> dict[str, Any]:
    """8-replica verdicts with 1 and 2 worker processes for the cases of
    :data:`VERDICT_CASES`, each over its own scene window; ``scene`` and ``seconds`` are unused
    (the cases name their scenes). Also records the statics decision of each case, so a
    "simulated" case that statics settles is visible (``simulated_case_is_simulated``).
    Ratios use the minimum wall time of ``repeats`` interleaved rounds (5 for the cheap
    LP-settled case)."""
    from tablesim.sim.scene import load_scene, shipped_scene_path
    from tablesim.sim.statics import analyse

    out: dict[str, Any] = {"replicas": 8, "cases": {}}
    for case, (name, method) in VERDICT_CASES.items():
        sc = load_scene(shipped_scene_path(name))
        decision = analyse(sc, clearance=sc.physics.clearance).decision
        runs = timed_verdicts(sc, method, repeats=5 if case == "lp_settled" else repeats)
        out["cases"][case] = {
            "scene": name,
            "method_requested": method,
            "statics_decision": decision,
            "window_s": sc.seconds,
            "workers_1": runs[1],
            "workers_2": runs[2],
            "speedup_2_over_1_wall": runs[1]["wall_min_s"] / runs[2]["wall_min_s"],
        }
    cases = out["cases"]
    out["simulated_case_is_simulated"] = cases["simulated"]["workers_1"]["method"] == "simulation"
    for w in ("workers_1", "workers_2"):
        out[f"lp_settled_over_simulated_wall_{w}"] = (
            cases["lp_settled"][w]["wall_min_s"] / cases["simulated"][w]["wall_min_s"]
        )
    return out


def figure_verdict8_tower(scene: Scene, seconds: float, repeats: int = 3) -> dict[str, Any]:
    """The issue-#24 goal: a simulated 8-replica verdict (``method="simulate"``, the scene's 5 s
    window) of the whole shipped tower ``scene`` under 0.4 s wall on 2 cores. Measured in the
    same process with the early stop of :class:`tablesim.sim.verdict.EarlyStop` (the default; statics
    proves the tower stands, so every replica ends once the tower has settled) and without it
    (``early_stop=None``, the whole window; one round, it is slow), with 1 and 2 workers; the
    verdicts must agree. ``seconds`` is unused. Also the CPU time of the statics check alone,
    which runs before the replicas in the calling process."""
    from tablesim.sim.statics import analyse

    with_stop = timed_verdicts(scene, "simulate", repeats=repeats)
    cold = timed_verdicts(scene, "simulate", workers=(2,), repeats=repeats, cold=True)
    all_replicas = timed_verdicts(scene, "simulate", workers=(2,), repeats=repeats, sequential=None)
    without = timed_verdicts(scene, "simulate", repeats=1, early_stop=None)
    analyse(scene, clearance=scene.physics.clearance)  # warm (imports)
    c0 = time.process_time()
    analyse(scene, clearance=scene.physics.clearance)
    statics_cpu = time.process_time() - c0
    best = with_stop[2]["wall_min_s"]
    return {
        "replicas": 8,
        "window_s": scene.seconds,
        "early_stop": {"workers_1": with_stop[1], "workers_2": with_stop[2]},
        "early_stop_cold_pool": {"workers_2": cold[2]},
        "early_stop_all_replicas": {"workers_2": all_replicas[2]},
        "whole_window": {"workers_1": without[1], "workers_2": without[2]},
        "statics_cpu_s": statics_cpu,
        "same_verdict": with_stop[2]["verdict"] == without[2]["verdict"],
        "speedup_wall_2_workers": without[2]["wall_min_s"] / best,
        "speedup_cpu_2_workers": without[2]["cpu_median_s"] / with_stop[2]["cpu_median_s"],
        "goal_wall_s": 0.4,
        "goal_met_wall": best <= 0.4,
        "cpu_per_core_2_workers_s": with_stop[2]["cpu_median_s"] / 2,
    }


def figure_statics_analyse(scene: Scene, seconds: float, repeats: int = 15) -> dict[str, Any]:
    """``tablesim.sim.statics.analyse(scene, clearance=...)`` on the tower, CPU (``time.process_time``)
    and wall, min and median of ``repeats`` calls each:

    - ``cpu_*``/``median_s``...: the same scene again (its pieces' geometry cached: a Kozo turn
      judges the same tower with candidate after candidate);
    - ``next_turn_cpu_*``: a Kozo turn's first analysis: the tower without its last piece was
      analysed before (the previous turn), the last piece is new, so its geometry is not
      cached and the tower's contacts are found once more (the contacts of the later
      candidates of the turn reuse them);
    - ``cold_cpu_*``: every cache emptied first (a scene never seen);
    - ``first_s``: the process's first call (imports).
    """
    from tablesim.sim.statics import analyse, clear_caches

    def timed(before: Callable[[], Any] | None = None) -> tuple[float, float]:
        if before is not None:
            before()
        w0, c0 = time.perf_counter(), time.process_time()
        analyse(scene, clearance=scene.physics.clearance)
        return time.process_time() - c0, time.perf_counter() - w0

    def previous_turn() -> None:
        clear_caches()
        tower = dataclasses.replace(scene, pieces=scene.pieces[:-1])
        analyse(tower, clearance=scene.physics.clearance)

    first = timed()[1]
    out: dict[str, Any] = {"first_s": first, "repeats": repeats}
    for name, before in (("", None), ("next_turn_", previous_turn), ("cold_", clear_caches)):
        runs = [timed(before) for _ in range(repeats)]
        cpu, wall = [c for c, _ in runs], [w for _, w in runs]
        out[f"{name}cpu_min_s"] = min(cpu)
        out[f"{name}cpu_median_s"] = statistics.median(cpu)
        out[f"{name}wall_min_s"] = min(wall)
        out[f"{name}wall_median_s"] = statistics.median(wall)
    out["median_s"], out["min_s"] = out["wall_median_s"], out["wall_min_s"]
    out["max_s"] = max(timed()[1] for _ in range(3))
    out["decision"] = analyse(scene, clearance=scene.physics.clearance).decision
    out["goal_s"] = 0.05
    out["goal_met_cpu"] = out["cpu_median_s"] <= 0.05
    return out


def _per_call_us(fn: Callable[[], Any], calls: int = 200, rounds: int = 7) -> dict[str, float]:
    """CPU microseconds per call of ``fn``: min and median of ``rounds`` rounds of ``calls``."""
    per = []
    for _ in range(rounds):
        c0 = time.process_time()
        for _ in range(calls):
            fn()
        per.append((time.process_time() - c0) / calls * 1e6)
    return {"min_us": min(per), "median_us": statistics.median(per)}


def figure_rule_checks(scene: Scene, seconds: float) -> dict[str, Any]:
    """CPU cost of one topple-rule check against 10 ms of stepping (10 verdict steps), on the
    settled tower and on its first 9 pieces (a careful-bot candidate's size), in one process:
    the plain per-piece reads the rule loops made before (``com_positions``, ``tip_angles_deg``,
    ``contacts_with_static``, ``max_penetration``, ``velocities``) against the fast ones
    (``states``, ``tipped``, ``check_contacts``, ``velocities``); both give the same answers
    (tests/test_world_checks.py). ``seconds`` is unused."""
    from dataclasses import replace

    out: dict[str, Any] = {}
    for label, n in (("tower_24", len(scene.pieces)), ("first_9", 10)):
        sc = replace(scene, pieces=scene.pieces[:n])
        with World(sc, "verdict") as w:
            w.step(50)
            start = w.contacts.contacts_with_static()

            def plain(w: World = w, start: set = start) -> None:
                w.com_positions()
                _ = w.baseline.tip_angles_deg() > 20.0
                _ = w.contacts.contacts_with_static() - start
                w.contacts.max_penetration()
                w.velocities()

            def fast(w: World = w, start: set = start) -> None:
                st = w.states()
                w.baseline.tipped(20.0, st)
                w.contacts.check_contacts(start, st)
                w.velocities()

            def step(w: World = w) -> None:
                w.step(10)

            row: dict[str, Any] = {
                "bodies": len(w.piece_ids),
                "step_10": _per_call_us(step, calls=20),
                "plain_reads": _per_call_us(plain),
                "fast_reads": _per_call_us(fast),
            }
        row["plain_over_fast"] = row["plain_reads"]["min_us"] / row["fast_reads"]["min_us"]
        for k in ("plain_reads", "fast_reads"):
            row[f"{k}_share_of_check"] = row[k]["min_us"] / (
                row[k]["min_us"] + row["step_10"]["min_us"]
            )
        out[label] = row
    return out


def figure_verdict_floor(scene: Scene, seconds: float, replicas: int = 5) -> dict[str, Any]:
    """What a whole-window verdict of ``scene`` cannot go below on 2 processes: for each of the
    first ``replicas`` replicas (the 5 that sequential stopping runs for a standing tower of 8),
    the CPU of Bullet's stepping alone over ``seconds`` (thread time of ``stepSimulation``, no
    rule checks) and the solver's mean iterations per step (``reportSolverAnalytics``, which
    changes no bit: checked), then the CPU of the same replica run as the verdict runs it
    (``tablesim.sim.verdict._run_replica``: world build, perturbation, rule checks every 10 ms).

    Floors: ``two_core_floor_s`` = half the stepping of all of them (no schedule on 2 cores does
    better); ``two_process_floor_s`` = the three cheapest replicas' stepping (with whole replicas
    on 2 processes one runs 3 of 5); ``index_order_s`` = the longer process of the ensemble's
    own schedule (replica 0 to the pool, 1 to the caller, each next to whichever is free first)
    with the replicas' full CPU."""
    from tablesim.sim.config import get_profile
    from tablesim.sim.verdict import Perturbation, ToppleRule, _run_replica, perturb_scene

    prof = get_profile("verdict")
    p = pybullet_module()
    _run_replica((scene, 0, 1, Perturbation(), prof, 0.02, ToppleRule(), None))  # imports
    rows = []
    for k in range(replicas):
        with World(perturb_scene(scene, 0, k, Perturbation()), prof) as world:
            cid = world.client
            p.setPhysicsEngineParameter(reportSolverAnalytics=1, physicsClientId=cid)
            n = round(seconds / prof.time_step)
            iters, cpu = 0, 0.0
            with world._own_breaking_threshold():
                for _ in range(n):
                    t0 = time.thread_time()
                    islands = p.stepSimulation(physicsClientId=cid)
                    cpu += time.thread_time() - t0
                    iters += sum(isl["numIterationsUsed"] for isl in islands or ())
        t0 = time.thread_time()
        _run_replica((scene, 0, k, Perturbation(), prof, seconds, ToppleRule(), None))
        full = time.thread_time() - t0
        rows.append({"replica": k, "step_cpu_s": cpu, "solver_iterations_mean": iters / n,
                     "replica_cpu_s": full, "rule_and_build_share": 1 - cpu / full})  # fmt: skip
    steps = sorted(r["step_cpu_s"] for r in rows)
    free = [0.0, 0.0]  # the pool's process, the caller's
    for r in rows:
        i = 0 if r["replica"] == 0 else (1 if r["replica"] == 1 else free.index(min(free)))
        free[i] += r["replica_cpu_s"]
    return {
        "seconds": seconds,
        "replicas": rows,
        "two_core_floor_s": sum(steps) / 2,
        "two_process_floor_s": sum(steps[:3]),
        "index_order_s": max(free),
        "load_1m": os.getloadavg()[0],
    }


FIGURES: dict[str, Callable[[Scene, float], dict[str, Any]]] = {
    "rtf_rest": figure_rtf_rest,
    "rtf_collapse": figure_rtf_collapse,
    "drift": figure_drift,
    "verdict_workers": figure_verdict_workers,
    "statics_analyse": figure_statics_analyse,
    "verdict8_tower": figure_verdict8_tower,
    "rule_checks": figure_rule_checks,
    "verdict_floor": figure_verdict_floor,
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
    if "verdict_workers" in figs:
        f = figs["verdict_workers"]
        for case, c in f["cases"].items():
            one, two = c["workers_1"], c["workers_2"]
            print(
                f"verdict x{f['replicas']} {case:10s} {c['scene']:14s} statics {c['statics_decision']:9s}"
                f" -> {one['method']:10s} {one['verdict']:7s} wall (min) 1 worker"
                f" {one['wall_min_s']:7.3f} s, 2 workers {two['wall_min_s']:7.3f} s, speed-up"
                f" {c['speedup_2_over_1_wall']:.2f} (cpu {one['cpu_median_s']:.2f} /"
                f" {two['cpu_median_s']:.2f} s)"
            )
        print(
            "verdict LP-settled / simulated wall (min) = "
            f"{f['lp_settled_over_simulated_wall_workers_1']:.4f} (1 worker), "
            f"{f['lp_settled_over_simulated_wall_workers_2']:.4f} (2 workers)"
        )
        if not f["simulated_case_is_simulated"]:
            print("WARNING: the 'simulated' case was settled by statics; pick another scene")
    if "verdict8_tower" in figs:
        f = figs["verdict8_tower"]
        modes = ("early_stop", "early_stop_cold_pool", "early_stop_all_replicas", "whole_window")
        for mode in modes:
            for w in ("workers_1", "workers_2"):
                if w not in f[mode]:
                    continue
                r = f[mode][w]
                print(
                    f"verdict8_tower {mode:23s} {w}: {r['verdict']} ({r['replicas_run']} run)"
                    f" wall (min) {r['wall_min_s']:.3f}"
                    f" s (median {r['wall_median_s']:.3f}), cpu (median, with workers)"
                    f" {r['cpu_median_s']:.3f} s, simulated {r['simulated_s']:.2f} s per replica"
                )
        print(
            f"verdict8_tower speed-up (2 workers) wall {f['speedup_wall_2_workers']:.1f}x, cpu"
            f" {f['speedup_cpu_2_workers']:.1f}x; statics {f['statics_cpu_s']:.3f} s cpu; goal"
            f" < {f['goal_wall_s']} s wall met: {f['goal_met_wall']} (cpu per core"
            f" {f['cpu_per_core_2_workers_s']:.3f} s); same verdict: {f['same_verdict']}"
        )
    if "rule_checks" in figs:
        for label, r in figs["rule_checks"].items():
            print(
                f"rule check {label:8s} ({r['bodies']} bodies): 10 steps"
                f" {r['step_10']['min_us']:.0f} us cpu; reads plain {r['plain_reads']['min_us']:.0f}"
                f" us ({r['plain_reads_share_of_check']:.1%}), fast"
                f" {r['fast_reads']['min_us']:.0f} us ({r['fast_reads_share_of_check']:.1%});"
                f" {r['plain_over_fast']:.2f}x (min of 7 rounds; medians in --json)"
            )
    if "verdict_floor" in figs:
        f = figs["verdict_floor"]
        for r in f["replicas"]:
            print(
                f"verdict floor replica {r['replica']}: stepping {r['step_cpu_s']:.3f} s cpu"
                f" ({r['solver_iterations_mean']:.1f} solver iterations a step), as run"
                f" {r['replica_cpu_s']:.3f} s ({r['rule_and_build_share']:.1%} build and checks)"
            )
        print(
            f"verdict floor over {f['seconds']:g} s: 2 cores {f['two_core_floor_s']:.2f} s, 2"
            f" processes {f['two_process_floor_s']:.2f} s, the ensemble's order"
            f" {f['index_order_s']:.2f} s (load {f['load_1m']:.1f})"
        )
    if "statics_analyse" in figs:
        r = figs["statics_analyse"]
        print(
            f"statics.analyse (tower) cpu median {r['cpu_median_s'] * 1e3:.1f} ms"
            f" (min {r['cpu_min_s'] * 1e3:.1f}; wall median {r['median_s'] * 1e3:.1f});"
            f" next turn cpu median {r['next_turn_cpu_median_s'] * 1e3:.1f} ms"
            f" (min {r['next_turn_cpu_min_s'] * 1e3:.1f}); cold cpu median"
            f" {r['cold_cpu_median_s'] * 1e3:.1f} ms (min {r['cold_cpu_min_s'] * 1e3:.1f});"
            f" first {r['first_s'] * 1e3:.1f} ms wall -> {r['decision']}; goal <= 50 ms cpu met:"
            f" {r['goal_met_cpu']}"
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
