"""A world that keeps running while pieces are added, and the topple watch over a window.

:class:`PersistentWorld` extends :class:`tablesim.sim.world.World` through its public body interface
(:meth:`~sim.world.World.add_body`, ``remove_body``, ``set_pose``, ``rebase``). Adding a piece
to a running world needs care because of the PyBullet 3.2.7 inertia quirk documented in :mod:`tablesim.sim.world` (the first step after setting a
body's inertia uses the bounding-box inertia): the new body is created far away in free flight
(a parking spot 1 m above the far corner of the table), the world takes one ordinary step (the
hand bringing the piece in: every other piece keeps moving normally), then the body is put at
its release pose with zero velocity. Its first step in contact therefore uses the exact inertia.
The sequence of operations is a function of the moves only, so a world rebuilt from the same
moves is bit-identical.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Set
from dataclasses import dataclass, field, replace

import numpy as np

from tablesim.games.rng import Rng
from tablesim.sim.config import Profile
from tablesim.sim.model import (
    Scene,
    ScenePiece,
    matrix_to_quat,
    quat4,
    quat_from_euler_deg,
    quat_to_matrix,
    vec3,
)
from tablesim.sim.verdict import ToppleRule, fall_reason
from tablesim.sim.world import World, shrink_shift

PENETRATION_OK = 0.02e-3
"""Penetration (m) a noisy pose may have into a neighbour before the hand backs off."""
PARK = (1.5, 1.5, 1.0)
"""Where a new body waits for its one free-flight step (m): inside the table's 4 m square,
1 m above it, far from any tower."""


class PersistentWorld(World):
    """A :class:`World` on which pieces can be added and removed while it runs."""

    def __init__(self, scene: Scene, profile: str | Profile = "verdict") -> None:
        super().__init__(scene, profile)
        self.pieces: dict[str, ScenePiece] = {}
        """Each dynamic piece as it was added (its shape; its pose is the world's)."""
        self.edges: dict[str, float] = {}
        """Cube edge (m) of each dynamic piece (the topple rule's drop threshold is half)."""
        self.polycube: dict[str, bool] = {}
        """Whether each dynamic piece has two or more cubes (only those can tip)."""
        for piece in scene.dynamic:
            self._note(piece)
        self.static_allowed: dict[str, set[str]] = {}
        """Static bodies each piece may touch without having fallen (e.g. the board for a piece
        placed on it)."""

    def _note(self, piece: ScenePiece) -> None:
        self.pieces[piece.id] = piece
        self.edges[piece.id] = piece.edge(self.config)
        self.polycube[piece.id] = len(piece.cells) > 1 and piece.box is None

    def add_piece(self, piece: ScenePiece) -> None:
        """Add a dynamic piece at its pose with zero velocity (one world step passes)."""
        body = self.add_body(replace(piece, position=PARK))
        self._note(piece)
        self.step(1)
        r_piece = piece.rotation()
        com = np.asarray(piece.position, dtype=float) + r_piece @ body.com_local
        self.set_pose(piece.id, com, matrix_to_quat(r_piece @ body.axes))
        self.set_velocity(piece.id, (0.0, 0.0, 0.0))
        self.rebase()

    def remove_piece(self, piece_id: str) -> None:
        """Take a dynamic piece off the table."""
        self.remove_body(piece_id)
        self.static_allowed.pop(piece_id, None)
        self.pieces.pop(piece_id, None)
        self.rebase()

    def current_scene(self) -> Scene:
        """The world as a scene: its static pieces, then its dynamic pieces (in :attr:`piece_ids`
        order) at their current poses (what :func:`tablesim.sim.verdict.simulate` would judge)."""
        moved = []
        for pid in self.piece_ids:
            pos, q = self.pose(pid)
            moved.append(replace(self.pieces[pid], position=vec3(pos), orientation=quat4(q)))
        statics = tuple(p for p in self.scene.pieces if p.static)
        return replace(self.scene, pieces=(*statics, *moved))

    def in_profile(self, profile: Profile) -> PersistentWorld:
        """A new world of the same pieces at their current poses and velocities, stepped in
        ``profile`` (e.g. the direct solver), its references rebased; the allowed static
        contacts are kept. This world is left open (the caller closes it). Built as any world
        is (:class:`tablesim.sim.world.World`), so the same poses give the same bits."""
        lin, ang = self.velocities()
        new = PersistentWorld(self.current_scene(), profile)
        new.static_allowed = {k: set(v) for k, v in self.static_allowed.items()}
        for i, pid in enumerate(new.piece_ids):
            new.set_velocity(pid, lin[i], ang[i])
        new.rebase()
        return new


def judging_world(world: PersistentWorld, own: Profile, escalate: bool) -> PersistentWorld:
    """The world a table's window is judged in: ``world`` itself, or (with ``escalate``) a
    copy of it in the profile :func:`tablesim.sim.verdict.simulate` would run the settled scene
    in (:func:`tablesim.sim.escalation.escalated_profile` of :meth:`PersistentWorld.current_scene`
    in ``own``: the direct solver on a thin tilt margin, heavy on light, or a piece in the air;
    ``own`` itself otherwise). A new world is returned only when that profile is not the
    world's; the caller then closes the old one. Deterministic: a function of the poses."""
    if not escalate:
        return world
    from tablesim.sim.escalation import escalated_profile

    target, _ = escalated_profile(world.current_scene(), own)
    if target == world.profile:
        return world
    return world.in_profile(target)


@dataclass(frozen=True)
class Hand:
    """Seeded hand noise: ``sigma_mm`` horizontal position (each of x, y), ``sigma_deg`` turn
    about the vertical through the centre of mass, ``lift_mm`` height above the rest pose at
    which the piece is let go (at rest: "placed gently")."""

    sigma_mm: float = 1.0
    sigma_deg: float = 1.0
    lift_mm: float = 0.3
    touch_mm: float | None = None
    """None: the first tables' hand (noise halved while the pose penetrates, then let go higher;
    old logs). A number: the hand of release ``touch`` (:func:`_touch`): the noisy pose is moved
    out of every neighbour along the contact normals, by at most ``touch_mm`` in all."""


def hand_place(
    world: PersistentWorld, piece: ScenePiece, rng: Rng, hand: Hand, allowed: Set[str] = frozenset()
) -> tuple[float, float]:
    """Add ``piece`` (at its intended pose) to ``world`` as a hand would, with seeded noise.

    Three normal draws from ``rng`` (dx, dy, dyaw) scale ``hand``. A hand cannot push a piece
    into another: while the noisy pose penetrates any body by more than 0.02 mm the noise is
    halved (4 times, then dropped); if the intended pose itself penetrates, the piece is let go
    0.25 mm higher at a time. ``allowed`` names static bodies the piece may touch without having
    fallen (the board under a piece placed on it). Returns the applied (noise scale, extra
    lift in m). The world's references are rebased (a move starts now).
    """
    dx, rng = rng.gauss()
    dy, rng = rng.gauss()
    dyaw, rng = rng.gauss()
    _, com = piece.mass_and_com(world.config)
    lift = hand.lift_mm * 1e-3
    world.add_piece(piece)
    if allowed:
        world.static_allowed[piece.id] = set(allowed)
    body = world.body(piece.id)
    scale, extra = 1.0, 0.0
    pos0 = np.asarray(piece.position, float)
    if hand.touch_mm is not None:
        return _touch(world, piece, com, (dx, dy, dyaw), hand)
    for attempt in range(14):
        rz = quat_to_matrix(quat_from_euler_deg(0.0, 0.0, dyaw * hand.sigma_deg * scale))
        shift = np.array([dx, dy, 0.0]) * hand.sigma_mm * 1e-3 * scale
        pos = com + rz @ (pos0 - com) + shift + np.array([0.0, 0.0, lift + extra])
        r_piece = rz @ piece.rotation()
        com_w = pos + r_piece @ body.com_local
        q_body = matrix_to_quat(r_piece @ body.axes)
        world.set_pose(piece.id, com_w, q_body)
        if world.contacts.penetration(piece.id) <= PENETRATION_OK:
            break
        if attempt < 4:
            scale /= 2
        elif scale > 0:
            scale = 0.0
        else:
            extra += 0.25e-3
    world.rebase()
    return scale, extra


class ReleaseRefused(ValueError):
    """No pose within the tolerance lets a piece go touching, not inside, its neighbours."""


TOUCH_ROUNDS = 16
"""Separation steps :func:`_touch` takes before it gives a pose up (a piece squeezed between two
neighbours that stand closer than its width never separates: each step pushes it into the
other)."""


def _set_pose(world: PersistentWorld, piece_id: str, pos: np.ndarray, r_piece: np.ndarray) -> None:
    body = world.body(piece_id)
    com_w = pos + r_piece @ body.com_local
    world.set_pose(piece_id, com_w, matrix_to_quat(r_piece @ body.axes))


def _touch(
    world: PersistentWorld,
    piece: ScenePiece,
    com: np.ndarray,
    draws: tuple[float, float, float],
    hand: Hand,
) -> tuple[float, float]:
    """Release ``touch``: the hand's noisy pose, moved out of whatever it penetrates (deepest
    contact first, along its normal, by its depth less the 2 um :data:`tablesim.sim.world.CONTACT_SKIN`
    that keeps a contact's points, as a scene's stack starts) until no penetration exceeds
    :data:`PENETRATION_OK`, the moves summing to at most ``hand.touch_mm``; then let go
    ``hand.lift_mm`` above that pose. When the full noise cannot be resolved, the noise is
    halved (4 times, then dropped); when even the intended pose cannot, the release is refused
    (:class:`ReleaseRefused`, naming the piece, the neighbour's depth and the tolerance)."""
    from tablesim.sim.world import CONTACT_SKIN  # (one import line with main's World split)

    dx, dy, dyaw = draws
    assert hand.touch_mm is not None
    limit = hand.touch_mm * 1e-3
    pos0 = np.asarray(piece.position, float)
    scale = 1.0
    depth = 0.0
    for attempt in range(6):
        rz = quat_to_matrix(quat_from_euler_deg(0.0, 0.0, dyaw * hand.sigma_deg * scale))
        shift = np.array([dx, dy, 0.0]) * hand.sigma_mm * 1e-3 * scale
        pos = com + rz @ (pos0 - com) + shift
        r_piece = rz @ piece.rotation()
        moved = np.zeros(3)
        ok = False
        for _ in range(TOUCH_ROUNDS):
            _set_pose(world, piece.id, pos + moved, r_piece)
            depth, normal = world.contacts.deepest_penetration(piece.id)
            if depth <= PENETRATION_OK:
                ok = True
                break
            moved = moved + normal * (depth - CONTACT_SKIN)  # left touching, as a stack
            if float(np.linalg.norm(moved)) > limit:
                break
        if ok:
            _set_pose(
                world, piece.id, pos + moved + np.array([0.0, 0.0, hand.lift_mm * 1e-3]), r_piece
            )
            world.rebase()
            return scale, float(moved[2])
        scale = scale / 2 if attempt < 4 else 0.0
    world.remove_piece(piece.id)
    raise ReleaseRefused(
        f"piece {piece.id!r}: no pose within {hand.touch_mm:.2f} mm of where it was put lets it "
        f"go touching, not inside, its neighbours ({depth * 1e3:.2f} mm into one)"
    )


@dataclass
class FallReport:
    """What :func:`watch` saw: ``fell`` piece ids in the order they fell, ``first`` the time of
    the first fall (s from the start of the watch), ``reasons`` per fallen piece."""

    fell: list[str] = field(default_factory=list)
    first: float | None = None
    reasons: dict[str, str] = field(default_factory=dict)


def checks(world: World, seconds: float, rule: ToppleRule | None = None) -> int:
    """How many check intervals :func:`watch` steps for ``seconds`` (at least one)."""
    per = max(1, round((rule or ToppleRule()).check_every / world.time_step))
    return max(1, math.ceil(seconds / (per * world.time_step) - 1e-9))


def watch(
    world: PersistentWorld,
    seconds: float,
    rule: ToppleRule | None = None,
    *,
    after_fall: float = 1.0,
    on_check: object = None,
    stop: Callable[[int], bool] | None = None,
) -> FallReport:
    """Run ``world`` for ``seconds`` and apply the topple rule of :mod:`tablesim.sim.verdict` at every
    check instant, against the poses at the start of the watch (call :meth:`PersistentWorld.rebase`
    first). A piece falls when it touches a static body it neither touched at the start nor is
    allowed to (``world.static_allowed``), drops more than half its cube edge, or (polycubes)
    tips more than the rule's angle. After the first fall the watch goes on ``after_fall``
    seconds (so the report names what came down with it) and stops. ``on_check(world, t)`` is
    called at every check (tests use it to knock the table). ``stop(k)``, asked before the
    ``k``-th check interval is stepped, ends the watch there when it returns True (a watch of
    unknown length: the Kozo table simulating a person's wait as it happens); stopped at
    ``k = checks(world, s)`` it reports exactly what ``watch(world, s)`` reports."""
    rule = rule or ToppleRule()
    ids = world.piece_ids
    edges = np.array([world.edges[pid] for pid in ids])
    poly = np.array([world.polycube[pid] for pid in ids], dtype=bool)
    start = world.contacts.contacts_with_static()
    for pid, allowed in world.static_allowed.items():
        start |= {(pid, s) for s in allowed}
    com0 = world.com_positions()
    settle = shrink_shift(world.config)  # a new static contact needs a piece that moved to it
    report = FallReport()
    dt = world.time_step
    per = max(1, round(rule.check_every / dt))
    n = max(1, math.ceil(seconds / (per * dt) - 1e-9))
    t0 = world.time
    stop_at: float | None = None
    index = {pid: i for i, pid in enumerate(ids)}
    fallen = np.zeros(len(ids), dtype=bool)
    for k in range(n):
        if stop is not None and stop(k):
            break
        world.step(per)
        t = world.time - t0
        if callable(on_check):
            on_check(world, t)
        states = world.states()  # each body read once (sim.world: the rule's fast reads)
        drop = com0[:, 2] - states.com[:, 2]
        tilted = poly & world.baseline.tipped(rule.tilt_deg, states)
        dropped = drop > rule.drop_fraction * edges
        now = dropped | tilted
        why = {
            int(i): fall_reason(
                float(drop[i]),
                rule.drop_fraction * float(edges[i]),
                world.baseline.tip_angle_deg(int(i), states.quat[i]) if poly[i] else 0.0,
                rule.tilt_deg,
            )
            for i in np.flatnonzero(now)
        }
        if rule.table_contact:
            for pid, sid in sorted(world.contacts.check_contacts(start, states).new):
                k = index[pid]
                if not world.baseline.moved_beyond(k, com0[k], states, settle):
                    start.add((pid, sid))  # the scene's own contact, opened by the clearance
                    continue
                now[k] = True
                why.setdefault(k, f"touched {sid}")
        for i in np.flatnonzero(now & ~fallen):
            report.fell.append(ids[i])
            report.reasons[ids[i]] = why.get(int(i), "")
        fallen |= now
        if report.first is None and now.any():
            report.first = t
            stop_at = t + after_fall
        if stop_at is not None and t >= stop_at - 1e-12:
            break
    world.check()
    return report
