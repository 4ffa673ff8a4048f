"""Contact-model set-ups of issue #19 goals 2/3, each measured on the same set of cases.

A set-up (:data:`SETUPS`, pick some with ``--only name,name``) changes how the verdict world
makes its contacts: profile fields, the PyBullet constraint solver, pieces as single-link
multibodies instead of maximal-coordinate rigid bodies, per-body stiffness scaled with the weight a
body carries, or more solver iterations during the release only. Every set-up is run on:

* ``lean``: replica 0 of the leaning stacks the ``docs/architecture.md`` table uses (9, 14, 20
  cubes at +0.5 mm, 20 at +2 mm; all stand in rigid statics) and two that must topple (9 and 20
  at -0.5 mm), 2 s: ``s`` stands, ``t`` topples (a cube drops half an edge), optionally at half
  and a quarter of the step (``--steps``);
* ``straight``: the top of a straight 20-stack, largest movement in 5 s (mm; goal 1: <= 0.5);
* ``edge``: a 3-cube bar with its centre of mass -0.2, -0.1, +0.1, +0.2 mm beyond a pedestal edge,
  2 s: tips (t, tilt > 10 deg) or stays (s); the rigid answer is ``s s t t``;
* ``tip``: time for that bar to tilt 10 deg with its centre of mass 1, 3, 6 mm beyond the edge,
  relative to the rigid-body ODE of ``tests/test_realism.py`` (simulated / theory);
* ``drift``: ``kozo-tower`` from release, largest movement of any piece in 5 s (mm; goal 4: < 0.2);
* ``collapse``: a 20-stack at -2 mm falling for 3 s: ``ok`` or the blow-up guard's complaint;
* ``drop``: a cube dropped 5 mm, rebound over impact speed (``bench/stacks.py``; plain profiles);
* ``cpu``: CPU seconds of the straight 20-stack's 5 s, and its ratio to the shipped set-up measured
  in the same process (load printed beside it).

* ``scenes`` (``--scenes``): every shipped scene judged in the set-up's profile and in the
  verdict profile (2 replicas, ``method="simulate"``): verdicts and the CPU ratio.
* ``--escalation`` (alone): the verdict profile's thin-margin escalation
  (:func:`escalation_figures`): leaning stacks and shipped scenes with and without it.

``python bench/contact_models.py [--only a,b] [--steps] [--scenes] [--escalation] [--json]``;
``--lean 20@2,20@2.5`` runs only those leaning stacks (cubes@margin in mm) at three steps. Figures, not pass/fail.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
for extra_path in (ROOT, ROOT / "tests", ROOT / "bench"):
    if str(extra_path) not in sys.path:
        sys.path.insert(0, str(extra_path))

from tablesim.sim.bullet import pybullet_module  # noqa: E402
from tablesim.sim.config import EXACT, LCP_DANTZIG, VERDICT, Profile  # noqa: E402
from tablesim.sim.crosscheck.cases import leaning_for_margin, leaning_stack  # noqa: E402
from tablesim.sim.model import Scene  # noqa: E402
from tablesim.sim.scene import load_scene, shipped_scene_path  # noqa: E402
from tablesim.sim.world import World  # noqa: E402

LEAN_CASES = ((9, 0.5), (14, 0.5), (20, 0.5), (20, 2.0), (9, -0.5), (20, -0.5))
"""(cubes, worst margin in mm): rigid statics says stands iff the margin is positive."""
EDGE_MM = (-0.2, -0.1, 0.1, 0.2)
TIP_MM = (1.0, 3.0, 6.0)


@dataclass(frozen=True)
class Setup:
    """One way of making the verdict world's contacts.

    ``profile``: :class:`tablesim.sim.config.Profile` fields replaced (``extra``: PyBullet engine
    parameters such as ``constraintSolverType``; ``maximal_coordinates`` False: pieces as
    single-link multibodies, whose contacts go through ``btMultiBodyConstraintSolver`` and its
    MLCP variant); ``load_k0``: per-body contact stiffness
    ``load_k0 * (pieces it carries, itself included)`` instead of one value; ``release``:
    (iterations, seconds) used from release until ``seconds``, then the profile's.
    """

    name: str
    note: str
    profile: dict[str, Any] = field(default_factory=dict)
    load_k0: float | None = None
    release: tuple[int, float] | None = None

    def make_profile(self, time_step: float | None = None) -> Profile:
        """The verdict profile with this set-up's fields (and optionally another step)."""
        kw = {k: v for k, v in self.profile.items() if k != "name"}
        extra = {**VERDICT.extra, **kw.pop("extra", {})}
        # The set-up itself, never escalated by simulate() (``--scenes``): that is measured
        # separately (``--escalation``).
        kw["escalate_below_deg"] = None
        prof = replace(VERDICT, extra=extra, **kw)
        return prof if time_step is None else prof.with_step(time_step)


DANTZIG = {"constraintSolverType": LCP_DANTZIG, "globalCFM": 1e-6}
MB: dict[str, Any] = {"maximal_coordinates": False}

SETUPS: dict[str, Setup] = {
    s.name: s
    for s in (
        Setup("shipped", "k 1e5, c 3, warm 0.85, 50 iterations, maximal coordinates"),
        Setup("multibody", "pieces as single-link multibodies, SI solver", MB),
        Setup(
            "multibody-dantzig-nocfm", "multibodies + LCP_DANTZIG, globalCFM 0 (singular: SI "
            "fallback every step)", {**MB, "extra": {"constraintSolverType": LCP_DANTZIG}},
        ),
        Setup(
            "multibody-dantzig", "multibodies + LCP_DANTZIG, globalCFM 1e-6, 1 ms (rigid "
            "contacts: the MLCP ignores the springs' CFM, keeps their ERP)",
            {**MB, "extra": DANTZIG},
        ),
        Setup("exact", "the exact profile: multibody-dantzig at a 2 ms step", EXACT.to_json()),
        Setup(
            "maximal-dantzig", "maximal coordinates + LCP_DANTZIG, globalCFM 1e-6, 1 ms",
            {"extra": DANTZIG},
        ),
        Setup(
            "maximal-dantzig-2ms", "maximal coordinates + LCP_DANTZIG, globalCFM 1e-6, 2 ms",
            {"time_step": 2e-3, "extra": DANTZIG},
        ),
        Setup(
            "multibody-dantzig-4ms", "multibody-dantzig at a 4 ms step",
            {**MB, "time_step": 4e-3, "extra": DANTZIG},
        ),
        Setup(
            "multibody-dantzig-5ms", "multibody-dantzig at a 5 ms step",
            {**MB, "time_step": 5e-3, "extra": DANTZIG},
        ),
        Setup(
            "multibody-dantzig-10ms", "multibody-dantzig at a 10 ms step",
            {**MB, "time_step": 1e-2, "extra": DANTZIG},
        ),
        Setup(
            "multibody-dantzig-rigid", "multibodies + LCP_DANTZIG, no springs (PyBullet's ERP)",
            {**MB, "contact_stiffness": None, "contact_damping": None, "extra": DANTZIG},
        ),
        Setup("load-k1e5", "per-body k = 1e5 x pieces carried", load_k0=1e5),
        Setup("load-k3e5", "per-body k = 3e5 x pieces carried", load_k0=3e5),
        Setup(
            "load-k1e5-it200", "per-body k = 1e5 x pieces carried, 200 iterations",
            {"solver_iterations": 200}, load_k0=1e5,
        ),
        Setup(
            "wood-k2e7-it200", "k 2e7 (E a of wood across the grain), c 30, 200 iterations",
            {"contact_stiffness": 2e7, "contact_damping": 30.0, "solver_iterations": 200},
        ),
        Setup("release-it500", "500 iterations for the first 0.2 s, then 50", release=(500, 0.2)),
        Setup(
            "release-it500-k1e6", "k 1e6, 500 iterations for the first 0.2 s, then 50",
            {"contact_stiffness": 1e6}, release=(500, 0.2),
        ),
        Setup(
            "split-erp", "no springs, split impulse for every penetration (threshold 1)",
            {"contact_stiffness": None, "contact_damping": None,
             "extra": {"useSplitImpulse": 1, "splitImpulsePenetrationThreshold": 1.0}},
        ),
    )
}  # fmt: skip


def _carried(world: World) -> list[int]:
    """Per dynamic piece: 1 + the dynamic pieces above it whose centre of mass lies over its
    horizontal extent (grown by a cube edge), i.e. what it carries in a stack or a tower."""
    p, cid = pybullet_module(), world.client
    out = []
    coms = world.com_positions()
    boxes = [p.getAABB(world.body_id(pid), -1, physicsClientId=cid) for pid in world.piece_ids]
    grow = world.config.kozo_cube
    for i, (lo, hi) in enumerate(boxes):
        above = 0
        for j, c in enumerate(coms):
            over = lo[0] - grow <= c[0] <= hi[0] + grow and lo[1] - grow <= c[1] <= hi[1] + grow
            if j != i and c[2] > coms[i][2] + 1e-4 and over:
                above += 1
        out.append(1 + above)
    return out


@contextlib.contextmanager
def built(setup: Setup, scene: Scene, time_step: float | None = None) -> Iterator[World]:
    """A world of ``scene`` made the way ``setup`` says."""
    w = World(scene, setup.make_profile(time_step))
    try:
        if setup.load_k0 is not None:
            for pid, n in zip(w.piece_ids, _carried(w), strict=True):
                pybullet_module().changeDynamics(
                    w.body_id(pid), -1, contactStiffness=setup.load_k0 * n,
                    contactDamping=w.profile.contact_damping or 0.0, physicsClientId=w.client,
                )  # fmt: skip
        yield w
    finally:
        w.close()


def advance(setup: Setup, w: World, seconds: float, stop: Callable[[World], bool]) -> bool:
    """Run ``seconds`` in 10 ms chunks (the release phase first); True if ``stop`` fired."""
    every = max(1, round(0.01 / w.time_step))
    chunks = round(seconds / (every * w.time_step))
    release_chunks = 0
    if setup.release is not None:
        iters, span = setup.release
        release_chunks = round(span / (every * w.time_step))
        pybullet_module().setPhysicsEngineParameter(
            numSolverIterations=iters, physicsClientId=w.client
        )
    for k in range(chunks):
        if setup.release is not None and k == release_chunks:
            pybullet_module().setPhysicsEngineParameter(
                numSolverIterations=w.profile.solver_iterations, physicsClientId=w.client
            )
        w.step(every)
        if stop(w):
            return True
    return False


def lean(setup: Setup, n: int, margin_mm: float, time_step: float | None = None) -> str:
    """'s' or 't' for replica 0 of the leaning stack, 2 s."""
    scene = leaning_for_margin(n, margin_mm).scene
    half = scene.physics.kozo_cube / 2
    with built(setup, scene, time_step) as w:
        z0 = w.com_positions()[:, 2].copy()
        fell = advance(setup, w, 2.0, lambda w: bool((z0 - w.com_positions()[:, 2]).max() > half))
    return "t" if fell else "s"


def straight(setup: Setup, n: int = 20, seconds: float = 5.0) -> tuple[float, float]:
    """(top cube's largest movement in mm, CPU seconds)."""
    with built(setup, leaning_stack(n, 0.0).scene) as w:
        com0 = w.com_positions()[-1].copy()
        worst = [0.0]

        def watch(w: World) -> bool:
            worst[0] = max(worst[0], float(np.linalg.norm(w.com_positions()[-1] - com0)))
            return False

        c0 = time.process_time()
        advance(setup, w, seconds, watch)
        return worst[0] * 1e3, time.process_time() - c0


def edge(setup: Setup, d_mm: float) -> str:
    """'t' if the bar over the pedestal edge tilts past 10 deg in 2 s, else 's'."""
    from test_realism import overhang_scene  # type: ignore[import-not-found]  # tests/ on sys.path

    with built(setup, overhang_scene(d_mm * 1e-3)) as w:
        return (
            "t" if advance(setup, w, 2.0, lambda w: bool(w.baseline.tilts_deg()[0] > 10.0)) else "s"
        )


def tip_ratio(setup: Setup, d_mm: float) -> float:
    """Simulated time for the bar to tilt 10 deg over the rigid ODE's."""
    from test_realism import overhang_scene, rigid_tipping

    theory, _ = rigid_tipping(d_mm * 1e-3, 10.0)
    with built(setup, overhang_scene(d_mm * 1e-3)) as w:
        every = 1
        while w.time < 2.0:
            w.step(every)
            if w.baseline.tilts_deg()[0] >= 10.0:
                return w.time / theory
    return math.inf


def drift(setup: Setup, seconds: float = 5.0) -> float:
    """Largest movement (mm) of any ``kozo-tower`` piece from release over ``seconds``."""
    with built(setup, load_scene(shipped_scene_path("kozo-tower"))) as w:
        com0 = w.com_positions().copy()
        worst = [0.0]

        def watch(w: World) -> bool:
            worst[0] = max(worst[0], float(np.linalg.norm(w.com_positions() - com0, axis=1).max()))
            return False

        advance(setup, w, seconds, watch)
        return worst[0] * 1e3


def collapse(setup: Setup, n: int = 20, margin_mm: float = -2.0, seconds: float = 3.0) -> str:
    """A toppling 20-stack (-2 mm) over ``seconds``: ``ok`` or the blow-up guard's complaint."""
    from tablesim.sim.guard import PhysicsBlowUpError

    try:
        with built(setup, leaning_for_margin(n, margin_mm).scene) as w:
            advance(setup, w, seconds, lambda w: False)
            w.check()
    except PhysicsBlowUpError as exc:
        return f"blow-up ({exc})"
    return "ok"


def scenes(setup: Setup, replicas: int = 2) -> dict[str, Any]:
    """Every shipped scene judged (``method="simulate"``, ``replicas`` replicas, one worker) in
    the set-up's profile and in the shipped verdict profile: verdicts and CPU seconds."""
    from tablesim.sim.scene import shipped_scene_names
    from tablesim.sim.verdict import simulate

    out: dict[str, Any] = {}
    cpu = {"setup": 0.0, "verdict": 0.0}
    for name in shipped_scene_names():
        scene = load_scene(shipped_scene_path(name))
        got = {}
        for key, prof in (("setup", setup.make_profile()), ("verdict", VERDICT)):
            c0 = time.process_time()
            v = simulate(scene, method="simulate", replicas=replicas, profile=prof, workers=1)
            cpu[key] += time.process_time() - c0
            got[key] = v.verdict
        out[name] = got
    out["cpu_s"] = cpu
    return out


ESCALATION_CASES = (
    (3, 0.5), (5, 0.5), (9, 0.5), (9, 2.0), (14, 0.5), (14, 1.5), (20, 0.5), (20, 2.0),
    (20, 3.0), (30, 3.0), (30, 4.5), (9, -0.5), (20, -0.5),
)  # fmt: skip
"""(cubes, worst margin in mm) judged by ``--escalation``."""


def escalation_figures(replicas: int = 2, seconds: float = 2.0) -> dict[str, Any]:
    """Thin-margin escalation (:mod:`tablesim.sim.escalation`): each leaning stack of
    :data:`ESCALATION_CASES` and each shipped scene judged by :func:`tablesim.sim.verdict.simulate` in
    the verdict profile at its default step, half and a quarter (stacks; ``method="simulate"``,
    ``replicas`` replicas, ``seconds``, one worker), with escalation and without: the statics
    tilt margin, whether it escalated, both verdicts and the CPU ratio."""
    from tablesim.sim.scene import shipped_scene_names
    from tablesim.sim.verdict import simulate

    off = replace(VERDICT, escalate_below_deg=None)
    cases: list[tuple[str, Scene, tuple[float, ...], float]] = [
        (f"{n}@{m:+g}", leaning_for_margin(n, m).scene, (1e-3, 5e-4, 2.5e-4), seconds)
        for n, m in ESCALATION_CASES
    ]
    cases += [
        (name, load_scene(shipped_scene_path(name)), (VERDICT.time_step,), 5.0)
        for name in shipped_scene_names()
    ]
    out: dict[str, Any] = {}
    for label, scene, steps, secs in cases:
        row: dict[str, Any] = {"escalated": [], "on": "", "off": "", "cpu_s": [0.0, 0.0]}
        for dt in steps:
            for i, (key, prof) in enumerate((("on", VERDICT), ("off", off))):
                c0 = time.process_time()
                v = simulate(
                    scene, method="simulate", replicas=replicas, seconds=secs, profile=prof,
                    time_step=dt, workers=1,
                )  # fmt: skip
                row["cpu_s"][i] += time.process_time() - c0
                row[key] += v.verdict[0]
                if key == "on":
                    row["escalated"].append(v.escalation is not None)
                    row["tilt_margin_deg"] = v.statics and v.statics.tilt_margin_deg
        row["cpu_ratio"] = row["cpu_s"][0] / row["cpu_s"][1]
        row["load_avg_1m"] = os.getloadavg()[0]
        tilt = row["tilt_margin_deg"]
        print(
            f"{label:16s} tilt {'-' if tilt is None else f'{tilt:.2f}'} deg  escalated "
            f"{''.join('y' if e else 'n' for e in row['escalated'])}  with {row['on']}  "
            f"without {row['off']}  CPU {row['cpu_s'][0]:.2f} / {row['cpu_s'][1]:.2f} s "
            f"({row['cpu_ratio']:.2f}x)  load {row['load_avg_1m']:.1f}",
            flush=True,
        )
        out[label] = row
    return out


def measure(setup: Setup, steps: bool) -> dict[str, Any]:
    """Every figure of the module docstring for one set-up."""
    res: dict[str, Any] = {"note": setup.note}
    res["lean"] = "".join(lean(setup, n, m) for n, m in LEAN_CASES)
    if steps:
        base = setup.make_profile().time_step
        for div in (2, 4):
            dt = base / div
            res[f"lean_{dt * 1e3:g}ms"] = "".join(lean(setup, n, m, dt) for n, m in LEAN_CASES)
    res["straight_mm"], res["cpu_s"] = straight(setup)
    res["edge"] = "".join(edge(setup, d) for d in EDGE_MM)
    res["tip"] = [round(tip_ratio(setup, d), 3) for d in TIP_MM]
    res["drift_mm"] = drift(setup)
    res["collapse"] = collapse(setup)
    if setup.load_k0 is None and setup.release is None:
        from stacks import drop  # type: ignore[import-not-found]  # bench/ on sys.path

        res["drop_rebound"] = round(drop(setup.make_profile()), 3)
    return res


def lean_only(spec: str, names: list[str]) -> int:
    """``--lean``: the given leaning stacks, per set-up, at its step, half and a quarter."""
    try:
        cases = [(int(n), float(m)) for n, m in (c.split("@") for c in spec.split(","))]
    except ValueError:
        print(f"--lean {spec!r}: give cubes@margin_mm pairs, e.g. 20@2.5,14@1", file=sys.stderr)
        return 2
    bad = sorted(set(names) - set(SETUPS))
    if bad:
        raise SystemExit(f"unknown set-up(s) {bad} (allowed: {', '.join(SETUPS)})")
    for name in names:
        setup = SETUPS[name]
        base = setup.make_profile().time_step
        for n, m in cases:
            got = "".join(lean(setup, n, m, base / div) for div in (1, 2, 4))
            print(
                f"{name:20s} {n}@{m:+g} mm: {' '.join(got)} at {base * 1e3:g} / {base * 5e2:g} / "
                f"{base * 2.5e2:g} ms  load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
    return 0


def main(argv: list[str] | None = None) -> int:
    """Command line: ``--only a,b`` (set-up names), ``--steps``, ``--json``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="comma-separated set-up names")
    ap.add_argument("--steps", action="store_true", help="lean cases at 0.5 and 0.25 ms too")
    ap.add_argument("--json", action="store_true", help="end with one JSON object line")
    ap.add_argument(
        "--scenes", action="store_true",
        help="also judge every shipped scene (set-ups that are plain profiles only)",
    )  # fmt: skip
    ap.add_argument(
        "--escalation", action="store_true",
        help="only the thin-margin escalation figures (simulate() with and without it)",
    )  # fmt: skip
    ap.add_argument(
        "--lean", default="", metavar="N@MM,...",
        help="only these leaning stacks (cubes@margin mm) for each --only set-up, replica 0, 2 s "
        "at its step, half and a quarter (e.g. the Gauss-Seidel frontier: 20@2,20@2.5)",
    )  # fmt: skip
    args = ap.parse_args(argv)
    if args.lean:
        return lean_only(args.lean, [s for s in args.only.split(",") if s] or ["shipped"])
    if args.escalation:
        print("escalation: stacks at 1/0.5/0.25 ms (s = stands, t = topples), shipped at 1 ms")
        esc = escalation_figures()
        if args.json:
            print(json.dumps({"escalation": esc}, sort_keys=True))
        return 0
    names = [s for s in args.only.split(",") if s] or list(SETUPS)
    bad = sorted(set(names) - set(SETUPS))
    if bad:
        raise SystemExit(f"unknown set-up(s) {bad} (allowed: {', '.join(SETUPS)})")
    if "shipped" not in names:
        names.insert(0, "shipped")  # the CPU baseline, in this process
    cases = " ".join(f"{n}@{m:+g}" for n, m in LEAN_CASES)
    print(f"lean cases {cases} (rigid: ssss tt); edge {EDGE_MM} mm (rigid: sstt)")
    out: dict[str, Any] = {}
    for name in names:
        r = measure(SETUPS[name], args.steps)
        r["cpu_ratio"] = r["cpu_s"] / out["shipped"]["cpu_s"] if out else 1.0
        r["load_avg_1m"] = os.getloadavg()[0]
        if args.scenes and SETUPS[name].load_k0 is None and SETUPS[name].release is None:
            r["scenes"] = sc = scenes(SETUPS[name])
            agree = sum(v["setup"] == v["verdict"] for k, v in sc.items() if k != "cpu_s")
            print(
                f"{name:26s} shipped scenes: {agree}/{len(sc) - 1} verdicts as the verdict "
                f"profile's; CPU {sc['cpu_s']['setup']:.2f} s vs {sc['cpu_s']['verdict']:.2f} s "
                f"({sc['cpu_s']['setup'] / sc['cpu_s']['verdict']:.2f}x)",
                flush=True,
            )
        out[name] = r
        more = "".join(f" {k[5:]} {v}" for k, v in r.items() if k.startswith("lean_"))
        print(
            f"{name:26s} lean {r['lean']}{more}  straight {r['straight_mm']:6.3f} mm  "
            f"edge {r['edge']}  tip {r['tip']}  drift {r['drift_mm']:.3f} mm  "
            f"cpu {r['cpu_s']:.2f} s ({r['cpu_ratio']:.2f}x)  collapse {r['collapse']}  "
            f"drop rebound {r.get('drop_rebound', '-')}  load {r['load_avg_1m']:.1f}",
            flush=True,
        )
    if args.json:
        print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
