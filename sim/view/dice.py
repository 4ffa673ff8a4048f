"""Dice that tumble on the table in PyBullet and land on the faces the game state drew.

The game state decides, the animation shows it. A throw is a real rigid-body simulation (a
cube of :data:`~sim.view.drawings.common.DIE_EDGE` thrown from a seeded height, velocity and
spin onto the table, walls of a low tray around the throwing area). Which body face ends up
on top is whatever the physics gives; the die's *labels* are then turned so that face carries
the drawn value: the standard trick of film dice. The turn is one of the 24 rotations of the
cube, so the relabelled die is still a proper die (opposite faces stay opposite, the
handedness of a pip die is kept): nobody looking at the film can tell.

A throw whose die does not come to rest flat (leaning on the other die or a wall) is thrown
again from the next seed of the same stream, so every throw ends with a face squarely up.

Everything is seeded (:class:`tablesim.games.rng.Rng`): the same values and seed give the same film,
bit for bit, in every process (PyBullet's DIRECT client with a fixed step is deterministic).

>>> roll = throw_dice([pip_die("die1"), pip_die("die2")], [3, 5], seed=7)
>>> roll.up_labels()
(3, 5)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from tablesim.games.quat import quat_to_matrix
from tablesim.games.rng import Rng
from tablesim.sim.view.drawings.common import DIE_EDGE, die_faces
from tablesim.sim.view.layout import Item, LayoutError, Pose, box_item

__all__ = [
    "FACE_AXES",
    "DiceRoll",
    "DieSpec",
    "Throw",
    "catego_dice",
    "cube_rotations",
    "katoiz_dice",
    "pip_die",
    "relabel",
    "simulate_throw",
    "throw_dice",
    "up_face",
]

FACE_AXES: dict[str, tuple[int, int, int]] = {
    "+x": (1, 0, 0),
    "-x": (-1, 0, 0),
    "+y": (0, 1, 0),
    "-y": (0, -1, 0),
    "+z": (0, 0, 1),
    "-z": (0, 0, -1),
}
"""The six faces of a die's body frame and their outward normals."""
STEP = 1.0 / 240.0
"""Physics step (s) of a throw."""
FPS = 60
"""Frames per second recorded (every 4th step)."""
MAX_SECONDS = 4.0
"""A throw is cut here if the dice have not come to rest (never seen in practice)."""
FLAT = 0.995
"""A die lies flat when its up face's normal has at least this z component (about 5.7 deg)."""
TRAY = 0.09
"""Half-size (m) of the square tray the dice are thrown into (low invisible walls)."""
MAX_ATTEMPTS = 32


@dataclass(frozen=True)
class DieSpec:
    """A die: its item ``id`` and the labels on its body faces (keys of :data:`FACE_AXES`).

    ``paint(label)`` draws a label as an (H, W, 3) uint8 picture for the table view."""

    id: str
    labels: Mapping[str, Hashable]
    paint: Callable[[Hashable], np.ndarray]


def pip_die(item_id: str) -> DieSpec:
    """A standard right-handed pip die (opposite faces add up to 7)."""
    from tablesim.sim.view.art import dice_face

    return DieSpec(item_id, die_faces(1), dice_face)  # type: ignore[arg-type]


def _face_die(item_id: str, faces: Sequence[str], paint: Callable) -> DieSpec:
    """A die with six named ``faces``, opposite pairs (0, 5), (1, 4), (2, 3) as in Katoiz."""
    keys = ("+z", "+x", "+y", "-y", "-x", "-z")
    return DieSpec(item_id, dict(zip(keys, faces, strict=True)), paint)


def cube_rotations() -> tuple[np.ndarray, ...]:
    """The 24 proper rotations of the cube as integer 3x3 matrices (determinant +1)."""
    out = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = np.zeros((3, 3), dtype=int)
            for row, (col, s) in enumerate(zip(perm, signs, strict=True)):
                m[row, col] = s
            if round(np.linalg.det(m)) == 1:
                out.append(m)
    return tuple(out)


_ROTATIONS = cube_rotations()
_KEY_OF = {v: k for k, v in FACE_AXES.items()}


def _int3(v: np.ndarray) -> tuple[int, int, int]:
    """An integer axis vector as the key FACE_AXES uses."""
    return (int(v[0]), int(v[1]), int(v[2]))


def relabel(labels: Mapping[str, Hashable], up: str, value: Hashable) -> dict[str, Hashable]:
    """The labels of ``labels``'s die turned (a cube rotation) so face ``up`` shows ``value``.

    ``new[k] = labels[R k]`` for the first rotation R (in :func:`cube_rotations` order) that
    takes ``up`` to a face labelled ``value``: the same die, picked up and turned. LayoutError
    if no face carries ``value``."""
    if value not in labels.values():
        shown = ", ".join(str(v) for v in labels.values())
        raise LayoutError(f"die has no face {value!r} (faces: {shown})")
    if up not in FACE_AXES:
        raise LayoutError(f"face {up!r} (allowed: {', '.join(FACE_AXES)})")
    for rot in _ROTATIONS:
        turned = {k: _KEY_OF[_int3(rot @ np.array(a))] for k, a in FACE_AXES.items()}
        if labels[turned[up]] == value:
            return {k: labels[turned[k]] for k in FACE_AXES}
    raise AssertionError("unreachable: the rotations act transitively on faces")  # pragma: no cover


def up_face(quat: Sequence[float]) -> tuple[str, float]:
    """The body face (key of :data:`FACE_AXES`) pointing most nearly up for a body of
    orientation ``quat`` (x, y, z, w), and the z component of its normal (1 when flat)."""
    row = quat_to_matrix(quat)[2]  # world z of each body axis
    best, best_z = "+z", -2.0
    for key, axis in FACE_AXES.items():
        dz = float(row @ np.array(axis))
        if dz > best_z:
            best, best_z = key, dz
    return best, best_z


@dataclass(frozen=True)
class Throw:
    """A simulated throw: ``times`` (F,) s, ``positions`` (D, F, 3) m of the die centres,
    ``quats`` (D, F, 4) x, y, z, w, the face of each die that ended up (``up``), the seed the
    physics used (``seed``, after any re-throws) and how many throws it took."""

    times: np.ndarray
    positions: np.ndarray
    quats: np.ndarray
    up: tuple[str, ...]
    seed: int
    attempts: int

    @property
    def frames(self) -> int:
        """Number of recorded frames."""
        return len(self.times)


def _simulate_once(
    n: int, rng: Rng, centre: Sequence[float], edge: float, tray: float = TRAY
) -> tuple[Throw, bool]:
    """One throw of ``n`` dice from ``rng`` into a tray of half-size ``tray`` (the throw's
    start, spread and speed scaled with it: :data:`TRAY`'s throw unchanged); (the throw,
    whether every die lies flat)."""
    from tablesim.sim.bullet import connect_direct, pybullet_module

    p = pybullet_module()
    cid = connect_direct()
    try:
        p.setGravity(0, 0, -9.81, physicsClientId=cid)
        p.setTimeStep(STEP, physicsClientId=cid)
        ground = p.createCollisionShape(p.GEOM_PLANE, physicsClientId=cid)
        bodies = [p.createMultiBody(0, ground, physicsClientId=cid)]
        wall = p.createCollisionShape(
            p.GEOM_BOX, halfExtents=[tray, 0.005, 0.03], physicsClientId=cid
        )
        cx, cy = float(centre[0]), float(centre[1])
        for k in range(4):
            a = k * math.pi / 2
            pos = [cx + (tray + 0.005) * math.sin(a), cy - (tray + 0.005) * math.cos(a), 0.03]
            q = p.getQuaternionFromEuler([0, 0, a])
            bodies.append(p.createMultiBody(0, wall, -1, pos, q, physicsClientId=cid))
        box = p.createCollisionShape(p.GEOM_BOX, halfExtents=[edge / 2] * 3, physicsClientId=cid)
        dice = []
        scale = tray / TRAY  # 1.0 for the standard tray: the same numbers to the bit
        for i in range(n):
            vals = []
            for _ in range(9):
                v, rng = rng.random()
                vals.append(v)
            start = [
                cx - 0.06 * scale + 0.02 * scale * vals[0],
                cy - 0.06 * scale + (i - (n - 1) / 2) * 0.03 * scale + 0.01 * scale * vals[1],
                0.06 + 0.03 * vals[2],
            ]
            euler = [2 * math.pi * vals[3], 2 * math.pi * vals[4], 2 * math.pi * vals[5]]
            body = p.createMultiBody(
                0.004, box, -1, start, p.getQuaternionFromEuler(euler), physicsClientId=cid
            )
            speed = (0.35 + 0.3 * vals[6]) * math.sqrt(scale)
            heading = math.radians(35 + 20 * (vals[7] - 0.5))
            p.resetBaseVelocity(
                body,
                [speed * math.cos(heading), speed * math.sin(heading), 0.0],
                [30 * (vals[8] - 0.5), 25.0, 20 * (vals[6] - 0.5)],
                physicsClientId=cid,
            )
            dice.append(body)
        for b in bodies + dice:
            p.changeDynamics(
                b, -1, lateralFriction=0.5, restitution=0.4, rollingFriction=1e-5,
                linearDamping=0.05, angularDamping=0.05, physicsClientId=cid,
            )  # fmt: skip
        times, pos_rec, quat_rec = [], [], []
        still = 0
        per_frame = round(1 / (STEP * FPS))
        steps = int(MAX_SECONDS / STEP)
        for step in range(steps + 1):
            if step % per_frame == 0:
                times.append(step * STEP)
                poses = [p.getBasePositionAndOrientation(b, physicsClientId=cid) for b in dice]
                pos_rec.append([pp for pp, _ in poses])
                quat_rec.append([qq for _, qq in poses])
                speeds = [p.getBaseVelocity(b, physicsClientId=cid) for b in dice]
                moving = any(
                    np.linalg.norm(v) > 2e-3 or np.linalg.norm(w) > 5e-2 for v, w in speeds
                )
                still = 0 if moving else still + 1
                if still >= FPS // 4 and step * STEP > 0.3:
                    break
            p.stepSimulation(physicsClientId=cid)
    finally:
        p.disconnect(physicsClientId=cid)
    positions = np.transpose(np.asarray(pos_rec, dtype=float), (1, 0, 2))
    quats = np.transpose(np.asarray(quat_rec, dtype=float), (1, 0, 2))
    ups = [up_face(quats[i, -1]) for i in range(n)]
    flat = all(dz >= FLAT for _, dz in ups) and bool(
        np.all(np.abs(positions[:, -1, 2] - edge / 2) < edge * 0.05)
    )
    throw = Throw(np.asarray(times), positions, quats, tuple(k for k, _ in ups), 0, 1)
    return throw, flat


def simulate_throw(
    n: int,
    seed: int,
    *,
    centre: Sequence[float] = (0.0, 0.0),
    edge: float = DIE_EDGE,
    tray: float = TRAY,
) -> Throw:
    """Throw ``n`` dice (1 to 4) towards ``centre`` (x, y on the table, m) from a seeded
    stream; re-throw from the stream's next draws until every die rests flat on the table
    (at most :data:`MAX_ATTEMPTS` throws; GameError-free: a ValueError names the seed if the
    tray never lets them settle)."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= 4:
        raise ValueError(f"dice: throw 1 to 4 dice, got {n!r}")
    rng = Rng.from_seed(int(seed), "view", "dice", n)
    for attempt in range(1, MAX_ATTEMPTS + 1):
        throw, flat = _simulate_once(n, rng, centre, edge, tray)
        if flat:
            return Throw(throw.times, throw.positions, throw.quats, throw.up, seed, attempt)
        for _ in range(9 * n):
            _, rng = rng.random()
    raise ValueError(f"dice: seed {seed}: no flat landing in {MAX_ATTEMPTS} throws")


@dataclass(frozen=True)
class DiceRoll:
    """Dice thrown to show drawn ``values``: the physics (``throw``) and each die's turned
    labels (``labels[i]``: face key -> label) so that its up face carries ``values[i]``."""

    specs: tuple[DieSpec, ...]
    values: tuple[Hashable, ...]
    throw: Throw
    labels: tuple[dict[str, Hashable], ...]
    edge: float = DIE_EDGE

    def up_labels(self, frame: int = -1) -> tuple[Hashable, ...]:
        """The labels on top of each die at ``frame`` (the last by default)."""
        out = []
        for i, lab in enumerate(self.labels):
            key, _ = up_face(self.throw.quats[i, frame])
            out.append(lab[key])
        return tuple(out)

    def poses(self, frame: int) -> dict[str, Pose]:
        """Item poses (id -> (position, quat)) at ``frame`` for ``Renderer.set_poses``: the
        item frame of a die is its minimum corner, so the position is the centre minus the
        rotated half diagonal."""
        out: dict[str, Pose] = {}
        half = np.full(3, self.edge / 2)
        for i, spec in enumerate(self.specs):
            q = self.throw.quats[i, frame]
            centre = self.throw.positions[i, frame]
            out[spec.id] = (tuple(centre - quat_to_matrix(q) @ half), tuple(q))
        return out

    def items(self, frame: int = 0) -> tuple[Item, ...]:
        """The dice as layout items at ``frame``, their faces painted with the turned labels."""
        out = []
        poses = self.poses(frame)
        for spec, lab in zip(self.specs, self.labels, strict=True):
            pos, q = poses[spec.id]
            faces = {k: spec.paint(v) for k, v in lab.items()}
            out.append(
                box_item(spec.id, (self.edge,) * 3, pos, (0.96, 0.95, 0.92), quat=q, faces=faces)
            )
        return tuple(out)


def throw_dice(
    specs: Sequence[DieSpec],
    values: Sequence[Hashable],
    seed: int,
    *,
    centre: Sequence[float] = (0.0, 0.0),
    tray: float = TRAY,
) -> DiceRoll:
    """Throw ``specs`` so that die i lands showing ``values[i]`` (the state's draw): simulate
    a seeded throw, read the face that ended up, turn the die's labels to put the value
    there. LayoutError if a value is not on its die."""
    if len(specs) != len(values):
        raise LayoutError(f"dice: {len(specs)} dice but {len(values)} values")
    for spec, v in zip(specs, values, strict=True):
        if v not in spec.labels.values():
            raise LayoutError(f"dice: die {spec.id!r} has no face {v!r}")
    throw = simulate_throw(len(specs), seed, centre=centre, tray=tray)
    labels = tuple(
        relabel(spec.labels, up, v) for spec, up, v in zip(specs, throw.up, values, strict=True)
    )
    return DiceRoll(tuple(specs), tuple(values), throw, labels)


def catego_dice(
    roll: tuple[int, int],
    seed: int,
    centre: Sequence[float] = (0.0, -0.06),
    tray: float = TRAY,
) -> DiceRoll:
    """Catego's two pip dice thrown to show ``roll``."""
    return throw_dice([pip_die("die1"), pip_die("die2")], list(roll), seed, centre=centre,
                      tray=tray)  # fmt: skip


def katoiz_dice(
    roll: tuple[str, str | None], seed: int, centre: Sequence[float] = (0.2, 0.0)
) -> DiceRoll:
    """Katoiz's colour die (and the picture die unless ``roll[1]`` is None) thrown to show
    ``roll`` (face names of :data:`tablesim.sim.slices.katoiz.drawing.COLOUR_FACES` / ``PICTURE_FACES``)."""
    from tablesim.sim.slices.katoiz.drawing import (
        COLOUR_FACES,
        PICTURE_FACES,
        colour_die_face,
        picture_die_face,
    )

    specs = [_face_die("colour-die", COLOUR_FACES, colour_die_face)]
    values: list[Hashable] = [roll[0]]
    if roll[1] is not None:
        specs.append(_face_die("picture-die", PICTURE_FACES, picture_die_face))
        values.append(roll[1])
    return throw_dice(specs, values, seed, centre=centre)
