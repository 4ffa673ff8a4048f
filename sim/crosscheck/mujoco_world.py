"""The same scene in MuJoCo, judged with the same topple rule as :func:`tablesim.sim.verdict.run_once`.

Modelling choices (each the MuJoCo counterpart of what :class:`tablesim.sim.world.World` does):

* one body with a free joint per dynamic piece, its geoms the piece's merged boxes
  (:meth:`tablesim.sim.model.ScenePiece.local_boxes`) with the same clearance (``clearance/2`` off each
  horizontal face; static supports exact); the body's inertial element is the exact mass, centre
  of mass and full inertia tensor of :func:`tablesim.sim.world.piece_mass_properties`;
* static pieces are geoms of the world body; the table is a box whose top is z = 0;
* friction ``mu`` on every geom: MuJoCo takes the larger of two geoms' coefficients, so a pair
  meets at ``mu`` without PyBullet's square-root trick; ``condim=3`` (sliding friction only,
  as in PyBullet with zero rolling and spinning friction), pyramidal cone, Newton solver;
* contacts are stiff: ``solref = (2 dt, 1)`` (a time constant of two steps, critically damped,
  MuJoCo's documented stiffest stable choice) and ``solimp`` 0.99..0.999, so a resting contact
  sinks micrometres; ``impratio`` 10 against MuJoCo's known sub-limit creep at 1;
* step 1 ms (the verdict step) unless told otherwise, no damping, gravity as configured.

:func:`judge` runs one scene for ``seconds`` and returns "topples" or "stands" with what fell,
using :class:`tablesim.sim.verdict.ToppleRule`'s thresholds: a piece falls when its centre of mass drops
more than ``drop_fraction`` of its cube edge, a polycube tips more than ``tilt_deg``, or it
touches a static body (or the table) it did not touch at the start after moving to it (some
point of it moved more than :func:`tablesim.sim.world.shrink_shift`, as in the PyBullet rule: a contact
the clearance opened closes as the piece settles, and all static geoms are MuJoCo's one world
body, so without this a bar released touching a slope "touched a static body" at once).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tablesim.sim.model import Scene
from tablesim.sim.verdict import ToppleRule, fall_reason
from tablesim.sim.world import piece_mass_properties, shrink_shift, shrunk_half_extents

_TABLE_HALF = (2.0, 2.0, 0.05)
TOUCH = 0.05e-3
"""Contact distance (m) under which two geoms touch (as :data:`tablesim.sim.world.CONTACT_TOLERANCE`)."""


def _mujoco() -> Any:
    try:
        import mujoco
    except ImportError as exc:  # pragma: no cover - depends on the environment
        from tablesim.games.extras import install_hint

        raise RuntimeError(
            f"the MuJoCo witness needs the 'mujoco' package; {install_hint('crosscheck')}"
        ) from exc
    return mujoco


def _wxyz(q: tuple[float, float, float, float] | np.ndarray) -> str:
    x, y, z, w = (float(v) for v in q)
    return f"{w!r} {x!r} {y!r} {z!r}"


def _vec(v: Any) -> str:
    return " ".join(repr(float(x)) for x in v)


def scene_mjcf(scene: Scene, time_step: float = 1e-3) -> str:
    """The MJCF (XML) text of ``scene``: see the module docstring for every choice."""
    cfg = scene.physics
    dt = float(time_step)
    out = [
        '<mujoco model="tablesim">',
        f'  <option timestep="{dt!r}" gravity="0 0 {-cfg.gravity!r}" solver="Newton"'
        ' cone="pyramidal" iterations="100" tolerance="1e-10" impratio="10"/>',
        f'  <default><geom condim="3" solref="{2 * dt!r} 1" solimp="0.99 0.999 0.0001"'
        ' margin="0" gap="0"/></default>',
        "  <worldbody>",
    ]
    if scene.ground:
        out.append(
            f'    <geom name="table" type="box" size="{_vec(_TABLE_HALF)}"'
            f' pos="0 0 {-_TABLE_HALF[2]!r}" friction="{cfg.friction!r} 0 0"/>'
        )
    for piece in scene.pieces:
        mu = cfg.friction if piece.friction is None else piece.friction
        r = piece.rotation()
        if piece.static:
            for k, (centre, half) in enumerate(piece.local_boxes(cfg)):
                c = np.asarray(piece.position) + r @ centre
                out.append(
                    f'    <geom name="{piece.id}#{k}" type="box" size="{_vec(half)}"'
                    f' pos="{_vec(c)}" quat="{_wxyz(piece.orientation)}"'
                    f' friction="{mu!r} 0 0"/>'
                )
            continue
        mass, com, moments, axes = piece_mass_properties(piece, cfg)
        inertia = axes @ np.diag(moments) @ axes.T
        full = (
            inertia[0, 0],
            inertia[1, 1],
            inertia[2, 2],
            inertia[0, 1],
            inertia[0, 2],
            inertia[1, 2],
        )
        out.append(
            f'    <body name="{piece.id}" pos="{_vec(piece.position)}"'
            f' quat="{_wxyz(piece.orientation)}">'
        )
        out.append("      <freejoint/>")
        out.append(
            f'      <inertial pos="{_vec(com)}" mass="{mass!r}" fullinertia="{_vec(full)}"/>'
        )
        for k, (centre, half) in enumerate(piece.local_boxes(cfg)):
            h = shrunk_half_extents(half, r, cfg.clearance)
            out.append(
                f'      <geom name="{piece.id}#{k}" type="box" size="{_vec(h)}"'
                f' pos="{_vec(centre)}" friction="{mu!r} 0 0" mass="0"/>'
            )
        out.append("    </body>")
    out += ["  </worldbody>", "</mujoco>"]
    return "\n".join(out)


@dataclass
class MujocoOutcome:
    """One MuJoCo run: ``toppled``, ``first_fall_s`` (or None), which pieces fell and why,
    the largest centre-of-mass displacement (mm) and the deepest penetration seen (mm)."""

    toppled: bool
    first_fall_s: float | None
    fell: dict[str, str] = field(default_factory=dict)
    max_displacement_mm: float = 0.0
    max_penetration_mm: float = 0.0

    @property
    def verdict(self) -> str:
        """ "topples" or "stands"."""
        return "topples" if self.toppled else "stands"


def judge(
    scene: Scene,
    seconds: float = 5.0,
    time_step: float = 1e-3,
    rule: ToppleRule | None = None,
) -> MujocoOutcome:
    """Simulate ``scene`` in MuJoCo for ``seconds`` and apply the topple rule every
    ``rule.check_every`` s (the same rule as the PyBullet verdict) to the pieces it judges
    (``scene.judged``; None: all)."""
    mj = _mujoco()
    rule = rule or ToppleRule()
    model = mj.MjModel.from_xml_string(scene_mjcf(scene, time_step))
    data = mj.MjData(model)
    mj.mj_forward(model, data)
    cfg = scene.physics
    dyn = [p for p in scene.pieces if not p.static]
    bodies = [model.body(p.id).id for p in dyn]
    edges = np.array([p.edge(cfg) for p in dyn])
    poly = np.array([len(p.cells) > 1 and p.box is None for p in dyn])
    static_body = 0  # every static geom (and the table) belongs to the world body

    def com() -> np.ndarray:
        return np.array(data.xipos[bodies])

    def ups() -> np.ndarray:
        # world up in body coordinates (the rule ignores turns about the vertical)
        return np.array([data.xmat[b].reshape(3, 3)[2, :] for b in bodies])

    def static_touches() -> set[int]:
        out = set()
        for i in range(data.ncon):
            c = data.contact[i]
            if c.dist > TOUCH:
                continue
            b1, b2 = model.geom_bodyid[c.geom1], model.geom_bodyid[c.geom2]
            for me, other in ((b1, b2), (b2, b1)):
                if other == static_body and me in bodies:
                    out.add(int(me))
        return out

    def radius(piece: Any) -> float:  # a sphere about the centre of mass holding its boxes
        com_local = piece_mass_properties(piece, cfg)[1]
        return max(
            float(np.linalg.norm(np.abs(centre - com_local) + half))
            for centre, half in piece.local_boxes(cfg)
        )

    radii = np.array([radius(p) for p in dyn])
    settle = shrink_shift(cfg, TOUCH)

    def moved(
        i: int, c: np.ndarray
    ) -> bool:  # tablesim.sim.world_reads.Baseline.moved_beyond's bound
        rel = data.xmat[bodies[i]].reshape(3, 3) @ mat0[i].T
        angle = math.acos(max(-1.0, min(1.0, (float(np.trace(rel)) - 1.0) / 2.0)))
        return float(np.linalg.norm(c[i] - com0[i])) + 2 * math.sin(angle / 2) * radii[i] > settle

    com0, up0 = com(), ups()
    mat0 = [data.xmat[b].reshape(3, 3).copy() for b in bodies]
    start = static_touches()
    out = MujocoOutcome(False, None)
    steps = max(1, round(rule.check_every / time_step))
    n_checks = max(1, math.ceil(seconds / (steps * time_step) - 1e-9))
    ids = [p.id for p in dyn]
    judged = [p.id for p in dyn if scene.judged is None or p.id in scene.judged]
    for _ in range(n_checks):
        mj.mj_step(model, data, nstep=steps)
        if not np.isfinite(data.qpos).all():
            raise RuntimeError(f"MuJoCo blew up in scene {scene.name!r} at t = {data.time:.3f} s")
        c = com()
        drop = com0[:, 2] - c[:, 2]
        cosang = np.clip(np.einsum("ij,ij->i", ups(), up0), -1.0, 1.0)
        tilt = np.degrees(np.arccos(cosang))
        touched = static_touches() - start
        for i, b in enumerate(bodies):  # a contact the clearance opened, closed by settling
            if b in touched and not moved(i, c):
                start.add(b)
                touched.discard(b)
        for i, pid in enumerate(ids):
            if pid in out.fell or pid not in judged:  # (Scene.judged: a dropped piece is not)
                continue
            why = ""
            limit = rule.drop_fraction * edges[i]
            if drop[i] > limit or (poly[i] and tilt[i] > rule.tilt_deg):
                # the larger fraction of its limit, as the PyBullet rule names it
                why = fall_reason(drop[i], limit, tilt[i] if poly[i] else 0.0, rule.tilt_deg)
            elif rule.table_contact and bodies[i] in touched:
                why = "touched a static body"
            if why:
                out.fell[pid] = why
                if out.first_fall_s is None:
                    out.first_fall_s = float(data.time)
        out.max_displacement_mm = max(
            out.max_displacement_mm, float(np.linalg.norm(c - com0, axis=1).max() * 1e3)
        )
        pen = [-data.contact[i].dist for i in range(data.ncon)]
        out.max_penetration_mm = max(out.max_penetration_mm, max(pen, default=0.0) * 1e3)
        if len(out.fell) == len(judged):
            break
    out.toppled = bool(out.fell)
    return out
