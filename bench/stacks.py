"""The contact-model set of issue #19 in one table: straight and leaning stacks of loose Kozo
cubes, the resting ``kozo-tower``, a dropped cube and the display cost, under the profiles as
shipped or with settings overridden (``--set field=value``, any :class:`tablesim.sim.config.Profile`
field or PyBullet engine parameter, applied to both profiles; e.g. ``--set warm_starting=0.1
--set contact_slop=1e-5 --set contact_stiffness=None`` is PyBullet's defaults).

Run ``python bench/stacks.py`` (``--json`` for one JSON object on the last line). Figures, not
pass/fail: movements in mm, CPU seconds from ``time.process_time`` with the load average.

* ``straight``: N cubes built touching, 5 s: the top cube's largest movement from where it was
  built and the deepest penetration at the end, per profile;
* ``leaning``: replica 0 of a leaning stack whose worst margin is given (formula in
  ``sim/crosscheck/cases.py``), 2 s at the verdict step: stands or topples;
* ``tower``: ``kozo-tower`` from release, largest movement of any piece, 5 s verdict, 10 s
  display;
* ``drop``: a cube dropped 5 mm on the table, verdict profile: rebound speed over impact speed;
* ``display_cost``: ms of CPU per 1/60 s of simulated time for the tower, awake (its first
  second) and at rest (after 4 s, once it sleeps), and the resting real-time factor; the awake
  figure again with PyBullet's 2 cm contact breaking threshold, as a ratio.
* ``direct_display`` (also alone: ``--direct-display``): the escalated display
  (``display-exact``, the direct solver) against the display as shipped, CPU ms per 1/60 s in
  the first half second (awake), for leaning stacks at +0.1 edge and the shipped scenes, with
  the contact points the statics counts (what :data:`tablesim.sim.escalation.LIVE_DIRECT_MAX_POINTS`
  bounds), and whether the live view would escalate each.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tablesim.sim.config import (  # noqa: E402
    DISPLAY,
    PYBULLET_CONTACT_BREAKING_THRESHOLD,
    VERDICT,
    PhysicsConfig,
    Profile,
)
from tablesim.sim.crosscheck.cases import leaning_for_margin, leaning_stack  # noqa: E402
from tablesim.sim.model import Scene, ScenePiece  # noqa: E402
from tablesim.sim.scene import load_scene, shipped_scene_path  # noqa: E402
from tablesim.sim.world import World  # noqa: E402

FIELDS = {f.name: f for f in fields(Profile)}


def _value(text: str) -> Any:
    if text == "None":
        return None
    if text in ("True", "False"):
        return text == "True"
    try:
        return int(text)
    except ValueError:
        return float(text)


def profiles(settings: list[str]) -> dict[str, Profile]:
    """Both profiles with ``field=value`` settings applied (unknown names go to ``extra``, the
    PyBullet engine parameters)."""
    out = {}
    for base in (VERDICT, DISPLAY):
        kw: dict[str, Any] = {}
        extra = dict(base.extra)
        for item in settings:
            key, _, text = item.partition("=")
            if not text:
                raise SystemExit(f"--set {item!r}: expected field=value")
            (kw if key in FIELDS else extra)[key] = _value(text)
        out[base.name] = replace(base, extra=extra, **kw)
    return out


def straight(prof: Profile, n: int, seconds: float = 5.0) -> dict[str, float]:
    """Top cube's largest movement (mm) and the deepest penetration at the end (mm)."""
    with World(leaning_stack(n, 0.0).scene, prof) as w:
        com0 = w.com_positions().copy()
        every = max(1, round(0.01 / w.time_step))
        worst = 0.0
        for _ in range(round(seconds / (every * w.time_step))):
            w.step(every)
            worst = max(worst, float(np.linalg.norm(w.com_positions()[-1] - com0[-1])))
        return {"top_mm": worst * 1e3, "pen_mm": w.contacts.max_penetration() * 1e3}


def leaning(prof: Profile, n: int, margin_mm: float, seconds: float = 2.0) -> str:
    """ "stands" or "topples" (a cube drops more than half an edge) for replica 0."""
    scene = leaning_for_margin(n, margin_mm).scene
    a = scene.physics.kozo_cube
    with World(scene, prof) as w:
        z0 = w.com_positions()[:, 2].copy()
        every = max(1, round(0.01 / w.time_step))
        for _ in range(round(seconds / (every * w.time_step))):
            w.step(every)
            if (z0 - w.com_positions()[:, 2]).max() > a / 2:
                return "topples"
    return "stands"


def tower(prof: Profile, seconds: float) -> float:
    """Largest movement (mm) of any piece of ``kozo-tower`` from release over ``seconds``."""
    with World(load_scene(shipped_scene_path("kozo-tower")), prof) as w:
        com0 = w.com_positions().copy()
        worst = 0.0
        every = max(1, round(0.05 / w.time_step))
        for _ in range(round(seconds / (every * w.time_step))):
            w.step(every)
            worst = max(worst, float(np.linalg.norm(w.com_positions() - com0, axis=1).max()))
        return worst * 1e3


def drop(prof: Profile, height: float = 5e-3) -> float:
    """Rebound speed / impact speed of a cube dropped ``height`` (m) onto the table."""
    scene = Scene("drop", (ScenePiece("c", ((0, 0, 0),), "kozo", (0.0, 0.0, height)),))
    with World(scene, prof) as w:
        up = 0.0
        for _ in range(round(0.2 / w.time_step)):
            w.step(1)
            up = max(up, float(w.velocities()[0][0, 2]))
    return up / (2 * scene.physics.gravity * height) ** 0.5


def display_cost(prof: Profile) -> dict[str, float]:
    """CPU ms per 1/60 s of the tower in ``prof``: awake (first second), at rest (4 s on)."""
    with World(load_scene(shipped_scene_path("kozo-tower")), prof) as w:
        c0 = time.process_time()
        w.run(1.0)
        awake = time.process_time() - c0
        w.run(3.0)
        c1 = time.process_time()
        w.run(10.0)
        rest = time.process_time() - c1
    return {
        "awake_ms_per_frame": awake / 60 * 1e3,
        "rest_ms_per_frame": rest / 600 * 1e3,
        "rest_rtf": 10.0 / rest if rest > 0 else float("inf"),
    }


def direct_display() -> list[dict[str, Any]]:
    """Awake CPU ms per 1/60 s frame, display-exact vs display, per scene (module docstring)."""
    from tablesim.sim.config import DISPLAY_EXACT
    from tablesim.sim.escalation import LIVE_DIRECT_MAX_POINTS, live_display
    from tablesim.sim.statics import analyse

    cases: list[tuple[str, Scene]] = []
    for n in (5, 9, 14, 20, 21, 22, 25, 30):
        a = PhysicsConfig().kozo_cube
        cases.append((f"{n}-stack +0.1 edge", leaning_for_margin(n, 0.1 * a * 1e3).scene))
    for name in ("kozo-marginal", "kozo-tower"):
        cases.append((name, load_scene(shipped_scene_path(name))))
    rows = []
    for label, scene in cases:
        statics = analyse(scene, clearance=scene.physics.clearance)
        row: dict[str, Any] = {
            "scene": label,
            "points": int(statics.contacts["points"]),
            "tilt_margin_deg": statics.tilt_margin_deg,
            "live_escalates": live_display(scene).escalated,
        }
        for key, prof in (("display", DISPLAY), ("direct", DISPLAY_EXACT)):
            with World(scene, prof) as w:
                c0 = time.process_time()
                w.run(0.5)
                row[f"{key}_ms_per_frame"] = (time.process_time() - c0) / 30 * 1e3
        rows.append(row)
        print(
            f"direct display {label:22s} {row['points']:4d} points: display "
            f"{row['display_ms_per_frame']:6.2f} ms, direct {row['direct_ms_per_frame']:7.2f} ms"
            f" per 1/60 s; live view escalates: {row['live_escalates']}"
            f" (bound {LIVE_DIRECT_MAX_POINTS} points)",
            flush=True,
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    """Command line: ``--set field=value`` (repeatable), ``--json``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", action="append", default=[], help="profile field=value")
    ap.add_argument("--json", action="store_true", help="end with one JSON object line")
    ap.add_argument(
        "--direct-display",
        action="store_true",
        help="only the escalated display's cost (direct_display)",
    )
    args = ap.parse_args(argv)
    if args.direct_display:
        rows = direct_display()
        load = os.getloadavg()[0]
        print(f"load {load:.2f}")
        if args.json:
            print(json.dumps({"direct_display": rows, "load_avg_1m": load}, sort_keys=True))
        return 0
    profs = profiles(args.set)
    t0 = time.process_time()
    res: dict[str, Any] = {"settings": args.set, "straight": {}, "leaning": {}}
    for n in (5, 10, 20, 30):
        row = {name: straight(p, n) for name, p in profs.items()}
        res["straight"][n] = row
        print(
            f"straight {n:2d}: "
            + "  ".join(
                f"{k} top {v['top_mm']:7.3f} mm pen {v['pen_mm']:.4f} mm" for k, v in row.items()
            ),
            flush=True,
        )
    for n in (5, 9, 14, 20):
        lean = {f"{m:+g}": leaning(profs["verdict"], n, m) for m in (0.5, -0.5, 2.0, -2.0)}
        res["leaning"][n] = lean
        print(f"leaning  {n:2d}: " + "  ".join(f"{k} mm {v}" for k, v in lean.items()), flush=True)
    res["tower_verdict_5s_mm"] = tower(profs["verdict"], 5.0)
    res["tower_display_10s_mm"] = tower(profs["display"], 10.0)
    print(
        f"kozo-tower from release: verdict {res['tower_verdict_5s_mm']:.4f} mm / 5 s, "
        f"display {res['tower_display_10s_mm']:.4f} mm / 10 s"
    )
    res["drop_rebound_ratio"] = drop(profs["verdict"])
    print(f"cube dropped 5 mm (verdict): rebound / impact speed {res['drop_rebound_ratio']:.3f}")
    res["display_cost"] = display_cost(profs["display"])
    wide = replace(profs["display"], contact_breaking_threshold=PYBULLET_CONTACT_BREAKING_THRESHOLD)
    base = display_cost(wide)["awake_ms_per_frame"]
    dc = res["display_cost"]
    dc["awake_ms_per_frame_pybullet_threshold"] = base
    print(
        f"display cost (tower): awake {dc['awake_ms_per_frame']:.2f} ms per 1/60 s "
        f"({dc['awake_ms_per_frame'] / base:.2f}x of {base:.2f} ms with PyBullet's 2 cm contact "
        f"breaking threshold), at rest {dc['rest_ms_per_frame']:.3f} ms per 1/60 s "
        f"(RTF {dc['rest_rtf']:.0f}x)"
    )
    res["direct_display"] = direct_display()
    res["cpu_s"] = time.process_time() - t0
    res["load_avg_1m"] = os.getloadavg()[0]
    print(f"cpu {res['cpu_s']:.1f} s, load {res['load_avg_1m']:.2f}")
    if args.json:
        print(json.dumps(res, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
