"""The PyBullet world: one private DIRECT client holding a scene's pieces on the table.

A :class:`World` is built from a :class:`tablesim.sim.model.Scene` and a solver :class:`tablesim.sim.config.Profile`
(``"verdict"`` for rule decisions, ``"display"`` for watching). It owns one PyBullet client, never
the global one, so many worlds can live in one process; ``close()`` (or leaving a ``with`` block)
disconnects it.

How a piece becomes a body (the measured reasons: docs/architecture.md, "Physics"):

* one rigid body per piece, ``useMaximalCoordinates=True`` (3x faster than the multibody path;
  the ``exact`` profile builds single-link multibodies, :class:`tablesim.sim.config.Profile`);
* its collision shape is a compound of ``GEOM_BOX`` children, the piece's merged boxes
  (:meth:`tablesim.sim.model.ScenePiece.local_boxes`); boxes are exact and keep their margin inside;
* the body frame is the **principal frame**: origin at the exact centre of mass, axes along the
  principal axes of inertia, so the inertia is diagonal and no inertial-frame rotation is needed
  (on maximal-coordinate bodies PyBullet reports that rotation wrongly); the children are
  rotated into it. Mass and principal moments are set with one ``changeDynamics`` call (``mass=``
  together with ``localInertiaDiagonal`` -- without it such a body turns NaN on its first step);
  PyBullet's own compound inertia would be the inertia of the bounding box;
* clearance: every child box of a dynamic piece is made ``clearance`` smaller (``clearance/2`` off
  each face) along its axes that are horizontal at build time (static supports keep their exact
  size), so pieces placed face to face on the grid have a
  gap of ``clearance`` and cannot jam by friction, while stacks still start exactly touching;
* contacts: every body gets the profile's contact spring-damper, and loose boxes are
  :data:`CONTACT_SKIN` taller so stacks start in contact (why: :class:`tablesim.sim.config.Profile`);
* friction and restitution: Bullet combines two touching bodies' coefficients by **multiplying**
  them (measured: two bodies at 0.45 slide like mu = 0.2). Each body therefore gets the square
  root of its coefficient, so two pieces at mu meet at mu, a piece meets the table at mu, and two
  different pieces meet at the geometric mean of theirs.

Two PyBullet 3.2.7 behaviours found while building this (both measured, see the tests):

* after ``changeDynamics(localInertiaDiagonal=...)`` the first step still uses the bounding-box
  inertia (the world-frame inverse inertia is refreshed only when a body is integrated); the
  world therefore takes one silent setup step with gravity off and restores the built poses;
* a body in free flight has no gyroscopic term: its angular velocity stays constant instead of
  precessing (presumably Bullet's solver skips islands without contacts). Only the tumbling of a piece in the air
  is affected, never whether a tower stands, so it is left as is.

Callers never see the principal frame: every pose this module returns is the pose of the piece
frame of :mod:`tablesim.sim.model` (``world point = position + R @ p_local``), quaternions (x, y, z, w).

Everything is deterministic on one machine and one PyBullet wheel: the same scene and profile give
bit-identical poses in any process, because the world is always built fresh in the same order and
``deterministicOverlappingPairs`` is on. Never use ``saveState``/``restoreState`` to replay.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tablesim.games.quat import quat_conj, quat_mul
from tablesim.sim.config import (
    PYBULLET_CONTACT_BREAKING_THRESHOLD,
    PhysicsConfig,
    Profile,
    get_profile,
)
from tablesim.sim.guard import (  # noqa: F401 - MAX_*, PhysicsBlowUpError re-exported (moved to tablesim.sim.guard)
    FLOOR_DEPTH_M,
    MAX_ANGULAR_SPEED,
    MAX_SPEED,
    ROOM_HALF_M,
    PhysicsBlowUpError,
    check_body,
    suspects,
)
from tablesim.sim.model import Scene, ScenePiece, matrix_to_quat, quat_to_matrix
from tablesim.sim.world_contacts import (  # noqa: F401 - re-exported (the contact reads live there)
    BOX_MARGIN,
    CONTACT_TOLERANCE,
    CULL_SLACK,
    NEAR_MARGIN,
    ContactCheck,
    ContactQueries,
)
from tablesim.sim.world_layout import (  # noqa: F401 - re-exported (the bodies' layout lives there)
    CONTACT_SKIN,
    Body,
    Boxes,
    PieceLayout,
    exact_matmul,
    piece_boxes,
    piece_layout,
    piece_mass_properties,
    shrunk_half_extents,
)

TABLE = "table"
"""Name of the table top in :meth:`World.contacts_with_static`."""
FLOOR = "floor"
"""Name of the room's floor in :meth:`World.contacts_with_static` (once it is laid)."""
FLOOR_LEAD_M = 0.5
"""The floor is laid at the first blow-up check (:data:`CHECK_EVERY`) that finds a piece's centre
of mass this close (m) to the table's edge, or below the table top: 0.5 m is what a piece at the
guard's top speed covers in half a check period, and a piece leaving the edge then needs 0.39 s
to fall the :data:`tablesim.sim.guard.FLOOR_DEPTH_M` to the floor, four check periods. Laid only then, so
a world whose pieces stay on the table holds exactly the bodies it always held (the same bits)."""

CHECK_EVERY = 100
"""Blow-up check period in steps (plus once at the end of every :meth:`World.run`)."""
TIP_BAND = 1e-9
"""Pieces whose ``sin^2(tip / 2)`` lies this close to the limit's are decided by the scalar
formula (:meth:`World.tipped`): the vectorised value is off by a few units in the last place
(1e-16), and 1e-9 is 2e-9 rad or more of tip, where the scalar formula is exact to 1e-15."""


def shrink_shift(config: PhysicsConfig, tolerance: float = CONTACT_TOLERANCE) -> float:
    """How far (m) a piece must have moved before a new contact with a static body means it
    moved *to* it (the topple rule's clause 1; :meth:`World.moved_beyond`).

    The clearance (:func:`shrunk_half_extents`) takes ``clearance / 2`` off each horizontal face
    of a dynamic box, so a box corner with two horizontal axes moves up to ``clearance / sqrt 2``
    from where the scene put it, and a contact of the scene as written can open by that much (an
    I4 plank leaning 25 degrees with its foot on a step: lifted 0.1 sin 25 = 0.04 mm). Closing
    such a gap as the piece settles moves no point of the piece by more than that plus the
    contact ``tolerance``; a piece that moved further did not merely settle into a contact the
    scene already had. 0.19 mm at the default 0.2 mm clearance."""
    return config.clearance / math.sqrt(2.0) + tolerance


_TABLE_HALF = (2.0, 2.0, 0.05)
"""Half extents (m) of the static table box whose top face is z = 0.

A box rather than a ``GEOM_PLANE``: box-box contacts come from Bullet's box-box detector, which
gives a full face manifold (up to 4 points) in one step, and table contacts then take the same
code path as piece-on-piece contacts. Measured against a plane (verdict / display profiles):
resting penetration of a cube 0.0103 vs 0.0106 mm; sliding distance at 0.5 m/s 28.11 vs 28.12 mm
(theory 28.32); four pieces resting on the table 5 s (verdict) drift 0.085 vs 0.048 mm, 10 s
(display) 0.0002 mm both; 28 vs 25 contact points; tilted pieces dropped 5 cm come to rest the
same. No measurable difference, so the box wins on uniformity. 4 m square, 10 cm thick."""
_FLOOR_HALF = (ROOM_HALF_M, ROOM_HALF_M, 0.05)
"""Half extents (m) of the floor box, whose top face is ``FLOOR_DEPTH_M`` below the table top."""


@dataclass(frozen=True)
class BodyStates:
    """The dynamic pieces' body poses at one instant (:meth:`World.states`): centres of mass
    ``com`` (n, 3) m and body (principal-frame) quaternions ``quat`` (n, 4) x, y, z, w."""

    com: np.ndarray
    quat: np.ndarray


def tip_matrices(quat0: np.ndarray) -> np.ndarray:
    """Per-piece (2, 4) matrices ``M`` with ``M @ q = (x, y)`` of the relative quaternion
    ``q * conj(q0)`` (:func:`tablesim.games.quat.quat_mul`'s terms), shape (n, 2, 4), from the start
    quaternions ``quat0`` (n, 4): the tip angle depends on ``x`` and ``y`` alone (the
    rotation's vertical axis image has ``z = 1 - 2 (x^2 + y^2) / |q|^2``)."""
    bx, by, bz, bw = -quat0[:, 0], -quat0[:, 1], -quat0[:, 2], quat0[:, 3]
    rows_x = np.stack([bw, bz, -by, bx], axis=1)  # x = aw bx + ax bw + ay bz - az by
    rows_y = np.stack([-bz, bw, bx, by], axis=1)  # y = aw by - ax bz + ay bw + az bx
    return np.stack([rows_x, rows_y], axis=1)


def tip_sines(quat: np.ndarray, mats: np.ndarray, norms0: np.ndarray) -> np.ndarray:
    """``sin^2(tip / 2)`` of each piece, shape (n,): ``(x^2 + y^2) / (|q|^2 |q0|^2)`` of the
    relative quaternion (:func:`tip_matrices`; ``norms0`` = ``|q0|^2``). The tip angle
    exceeds a limit L exactly when this exceeds ``sin^2(L / 2)`` (it grows with the angle
    from 0 to 180 degrees)."""
    xy = (mats * quat[:, None, :]).sum(axis=2)
    return (xy * xy).sum(axis=1) / ((quat * quat).sum(axis=1) * norms0)


def _quat_angle(q: Sequence[float]) -> float:
    """Rotation angle (rad, in [0, pi]) of a unit quaternion; stable near 0."""
    v = math.sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2])
    return 2.0 * math.atan2(v, abs(q[3]))


class World(ContactQueries):
    """A scene's pieces on the table in one private PyBullet DIRECT client.

    Parameters
    ----------
    scene:
        The pieces (dynamic and static), the physics constants (``scene.physics``) and whether the
        table exists (``scene.ground``; its top is z = 0).
    profile:
        A :class:`tablesim.sim.config.Profile` or its name (``"verdict"``, ``"display"``).
    time_step:
        Overrides the profile's step (s), e.g. for step-halving checks.
    client:
        An already connected PyBullet client to build in instead of a new one
        (:func:`tablesim.sim.pools.lease_client`): it is reset first (``resetSimulation``, which
        every world does) and not disconnected by :meth:`close`.

    Use as a context manager or call :meth:`close`. All arrays are in scene order of the dynamic
    pieces (:attr:`piece_ids`).
    """

    def __init__(
        self,
        scene: Scene,
        profile: Profile | str = "verdict",
        *,
        time_step: float | None = None,
        client: int | None = None,
    ) -> None:
        from tablesim.sim.bullet import (  # lazy: keep `import sim` light
            connect_direct,
            pybullet_module,
        )

        p = pybullet_module()

        self._p = p
        prof = get_profile(profile) if isinstance(profile, str) else profile
        if time_step is not None:
            if not time_step > 0:
                raise ValueError(f"time_step must be > 0, got {time_step!r}")
            prof = prof.with_step(float(time_step))
        self.scene = scene
        self.profile = prof
        self.config = scene.physics
        self._steps = 0
        self._asleep = False
        self.skip_sleeping_steps = True
        """When every dynamic piece sleeps, :meth:`step` only counts steps (see :meth:`step`)."""
        self._owns_client = client is None
        self._cid: int | None = connect_direct() if client is None else int(client)
        # caches of the queries, keyed on what they were computed from (see each method)
        self._tip_cache: (
            tuple[list[tuple[float, float, float, float]], np.ndarray, np.ndarray] | None
        ) = None
        """:meth:`_tip_basis`: (the baseline list it was built from, matrices, ``|q0|^2``)."""
        self._sines: tuple[BodyStates, np.ndarray, np.ndarray] | None = None
        """:meth:`tipped`: (the states, the matrices, the sines) of its last call."""
        self._radii_cache: tuple[tuple[int, ...], np.ndarray] | None = None
        """:meth:`_radii`: (the dynamic body ids, the radii)."""
        self._near_cache: tuple[float, list[Body], np.ndarray, list[tuple[int, int]]] | None = None
        """:meth:`_near_pairs`: (``within``, the dynamic bodies, their centres of mass, pairs)."""
        try:
            with self._own_breaking_threshold():
                self._build()
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------------ construction
    def _build(self) -> None:
        p, cid, prof, cfg = self._p, self.client, self.profile, self.config
        p.resetSimulation(physicsClientId=cid)
        p.setPhysicsEngineParameter(
            fixedTimeStep=prof.time_step,
            numSolverIterations=prof.solver_iterations,
            numSubSteps=0,
            deterministicOverlappingPairs=int(prof.deterministic_pairs),
            warmStartingFactor=prof.warm_starting,
            contactSlop=prof.contact_slop,
            solverResidualThreshold=prof.solver_residual,
            physicsClientId=cid,
        )
        if prof.extra:
            from tablesim.sim.bullet import quiet_stdout

            with quiet_stdout():  # a solver change printf()s "switched solver"
                p.setPhysicsEngineParameter(**prof.extra, physicsClientId=cid)
        p.setGravity(0.0, 0.0, -cfg.gravity, physicsClientId=cid)

        self._table: int | None = None
        self._floor: int | None = None
        self._want_floor = False
        if self.scene.ground:
            self._table = self._static_box(_TABLE_HALF, 0.0)

        self._bodies: list[Body] = []
        for piece in self.scene.pieces:  # scene order = creation order (determinism)
            self._bodies.append(self._add_piece(piece))
        self._by_id = {b.piece_id: b for b in self._bodies}
        self._by_body = {b.body: b for b in self._bodies}
        self._dynamic = [b for b in self._bodies if not b.static]
        self._static_names: dict[int, str] = {b.body: b.piece_id for b in self._bodies if b.static}
        if self._table is not None:
            self._static_names[self._table] = TABLE
        self._static_aabbs = self._static_bounds()
        self._refresh_inertia()
        self._initial_q: list[tuple[float, float, float, float]] = []
        self._initial_com = np.zeros((0, 3))
        self.rebase()

    def _refresh_inertia(self) -> None:
        """Make PyBullet use the inertia we set from the very first step.

        PyBullet 3.2.7 does not refresh a rigid body's world-frame inverse inertia after
        ``changeDynamics(localInertiaDiagonal=...)``; it is recomputed only when the body's
        transform is integrated. Measured: the first step after building used the bounding-box
        inertia (angular response 35-45 % off for an L-tromino); every later step was exact. So we
        take one step with gravity off (nothing moves: the pieces are at rest and touch at zero
        distance), then put every body back to its built pose with zero velocity. The setup step
        is not counted in :attr:`time`.
        """
        if not self._dynamic:
            return
        p, cid = self._p, self.client
        built = [self._body_pose(b) for b in self._dynamic]
        p.setGravity(0.0, 0.0, 0.0, physicsClientId=cid)
        p.stepSimulation(physicsClientId=cid)  # inside _build: this world's threshold
        for b, (pos, q) in zip(self._dynamic, built, strict=True):
            p.resetBasePositionAndOrientation(b.body, pos.tolist(), list(q), physicsClientId=cid)
            p.resetBaseVelocity(b.body, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], physicsClientId=cid)
        p.setGravity(0.0, 0.0, -self.config.gravity, physicsClientId=cid)

    def _static_bounds(self) -> tuple[list[int], list[str], np.ndarray, np.ndarray]:
        """World-axis bounding boxes of the static bodies (they never move): body ids, names
        (as in :meth:`contacts_with_static`), lower and upper corners, shapes (s, 3)."""
        bodies, names, lo, hi = [], [], [], []
        for body, name, halves, top in (
            (self._table, TABLE, _TABLE_HALF, 0.0),
            (self._floor, FLOOR, _FLOOR_HALF, -FLOOR_DEPTH_M),
        ):
            if body is None:
                continue
            half = np.asarray(halves)
            centre = np.array([0.0, 0.0, top - halves[2]])
            bodies.append(body)
            names.append(name)
            lo.append(centre - half)
            hi.append(centre + half)
        for b in self._bodies:
            if not b.static:
                continue
            com, q = self._body_pose(b)
            rot = quat_to_matrix(q)
            centres = com + b.box_centres @ rot.T
            ext = b.box_halves @ np.abs(rot @ b.axes.T).T
            bodies.append(b.body)
            names.append(b.piece_id)
            lo.append((centres - ext).min(axis=0))
            hi.append((centres + ext).max(axis=0))
        shape = (len(bodies), 3)
        return bodies, names, np.reshape(lo, shape), np.reshape(hi, shape)

    def _static_box(self, half: tuple[float, float, float], top: float) -> int:
        """A static box centred on the z axis with these half extents and its top face at
        z = ``top`` (the table, the floor), with the scene's surface; its body id."""
        p, cid = self._p, self.client
        shape = p.createCollisionShape(p.GEOM_BOX, halfExtents=list(half), physicsClientId=cid)
        body = p.createMultiBody(
            0.0, shape, -1, [0.0, 0.0, top - half[2]], [0.0, 0.0, 0.0, 1.0],
            useMaximalCoordinates=True, physicsClientId=cid,
        )  # fmt: skip
        self._set_surface(body, self.config.friction)
        return int(body)

    def _set_surface(self, body: int, friction: float) -> None:
        """Friction, restitution and anchors common to every body (square roots: Bullet
        multiplies the two bodies' coefficients)."""
        self._p.changeDynamics(
            body,
            -1,
            lateralFriction=math.sqrt(friction),
            rollingFriction=0.0,
            spinningFriction=0.0,
            restitution=math.sqrt(self.profile.restitution),
            frictionAnchor=int(self.profile.friction_anchor),
            physicsClientId=self.client,
        )
        if self.profile.contact_stiffness is not None:
            self._p.changeDynamics(
                body,
                -1,
                contactStiffness=self.profile.contact_stiffness,
                contactDamping=self.profile.contact_damping or 0.0,
                physicsClientId=self.client,
            )

    def _add_piece(self, piece: ScenePiece) -> Body:
        p, cid, cfg = self._p, self.client, self.config
        self._asleep = False
        r_piece = piece.rotation()
        lay = piece_layout(piece, cfg, r_piece)
        mass, com_local, moments, axes = lay.mass, lay.com_local, lay.moments, lay.axes
        r_body = exact_matmul(r_piece, axes)
        shape = p.createCollisionShapeArray(
            shapeTypes=[p.GEOM_BOX] * len(lay.halves),
            halfExtents=lay.halves,
            collisionFramePositions=lay.positions,
            collisionFrameOrientations=lay.orientations,
            physicsClientId=cid,
        )
        com_world = np.asarray(piece.position, dtype=float) + exact_matmul(r_piece, com_local)
        body = p.createMultiBody(
            mass,
            shape,
            -1,
            com_world.tolist(),
            list(matrix_to_quat(r_body)),
            # a single-link multibody when the profile asks (its contacts then go through
            # btMultiBodyConstraintSolver, and its MLCP variant: the "exact" profile)
            useMaximalCoordinates=piece.static or self.profile.maximal_coordinates,
            physicsClientId=cid,
        )
        friction = cfg.friction if piece.friction is None else piece.friction
        self._set_surface(body, friction)
        if not piece.static:
            prof = self.profile
            p.changeDynamics(
                body,
                -1,
                mass=mass,  # must come with localInertiaDiagonal (NaN bug otherwise)
                localInertiaDiagonal=[float(v) for v in moments],
                linearDamping=prof.linear_damping,
                angularDamping=prof.angular_damping,
                activationState=(
                    p.ACTIVATION_STATE_ENABLE_SLEEPING
                    if prof.sleeping
                    else p.ACTIVATION_STATE_DISABLE_SLEEPING
                ),
                physicsClientId=cid,
            )
        return Body(
            piece.id, body, piece.static, mass, com_local, axes, lay.q_axes, moments,
            lay.centres, lay.half_array,
        )  # fmt: skip

    # ------------------------------------------------------------------ bodies added and removed
    def add_body(self, piece: ScenePiece) -> Body:
        """Create a dynamic piece's body at its pose (built with this world's contact breaking
        threshold) and enter it last in the book-keeping: its row in every array is the last.
        The baselines (:meth:`rebase`) are not changed. ValueError for a static piece or an id
        already in the world."""
        if piece.id in self._by_id:
            raise ValueError(f"piece id {piece.id!r} is already in the world")
        if piece.static:
            raise ValueError(f"piece {piece.id!r}: only dynamic pieces can be added")
        with self._own_breaking_threshold():  # a body keeps the threshold it was made with
            body = self._add_piece(piece)
        self._bodies.append(body)
        self._by_id[piece.id] = body
        self._by_body[body.body] = body
        self._dynamic.append(body)
        return body

    def remove_body(self, piece_id: str) -> Body:
        """Take a dynamic piece's body out of the world and the book-keeping (KeyError for an
        unknown id); the baselines (:meth:`rebase`) are not changed."""
        body = self._by_id.pop(piece_id)
        self.wake()
        self._p.removeBody(body.body, physicsClientId=self.client)
        self._bodies.remove(body)
        self._dynamic.remove(body)
        del self._by_body[body.body]
        return body

    def rebase(self) -> None:
        """Make the current poses the reference of :meth:`com_displacements` and
        :meth:`tip_angles_deg` (the start of a move)."""
        self._initial_q = [self._body_pose(b)[1] for b in self._dynamic]
        self._initial_com = self.com_positions()

    def set_pose(self, piece_id: str, com: Sequence[float], quat: Sequence[float]) -> None:
        """Put a piece's body at a centre of mass (m) and body quaternion (x, y, z, w), world
        frame; its velocity is kept."""
        b = self._by_id[piece_id]
        self.wake()
        self._p.resetBasePositionAndOrientation(
            b.body, [float(v) for v in com], [float(v) for v in quat], physicsClientId=self.client
        )

    def save(self) -> tuple[int, int]:
        """A snapshot of the bodies' state (PyBullet ``saveState``) and of the clock, for
        :meth:`restore`. Restoring is not bit-identical to never having left (Bullet's contact
        caches are not all restored), so a caller that must reproduce its bits makes the same
        saves and restores in the same order every time."""
        return self._p.saveState(physicsClientId=self.client), self._steps

    def restore(self, snapshot: tuple[int, int]) -> None:
        """Go back to a snapshot of :meth:`save` (the clock too); the pieces and their
        book-keeping must be those of the snapshot (nothing added or removed since)."""
        state_id, steps = snapshot
        self._p.restoreState(stateId=state_id, physicsClientId=self.client)
        self._steps = steps
        self.wake()

    def forget(self, snapshot: tuple[int, int]) -> None:
        """Free a snapshot of :meth:`save`."""
        self._p.removeState(snapshot[0], physicsClientId=self.client)

    # ------------------------------------------------------------------ lifetime
    @property
    def client(self) -> int:
        """The PyBullet client id (RuntimeError once closed)."""
        if self._cid is None:
            raise RuntimeError("this World is closed")
        return self._cid

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run."""
        return self._cid is None

    def close(self) -> None:
        """Disconnect the PyBullet client, unless it was lent (idempotent)."""
        if self._cid is not None:
            try:
                if self._owns_client:
                    self._p.disconnect(physicsClientId=self._cid)
            finally:
                self._cid = None

    def __enter__(self) -> World:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:  # best effort; close() is the contract
        with contextlib.suppress(Exception):
            self.close()

    # ------------------------------------------------------------------ identities
    @property
    def piece_ids(self) -> list[str]:
        """Ids of the dynamic pieces, in scene order (the row order of every array)."""
        return [b.piece_id for b in self._dynamic]

    @property
    def static_ids(self) -> list[str]:
        """Ids of the static pieces, in scene order."""
        return [b.piece_id for b in self._bodies if b.static]

    def body_id(self, piece_id: str) -> int:
        """PyBullet body unique id of a piece (KeyError if unknown)."""
        return self._by_id[piece_id].body

    def piece_id(self, body: int) -> str:
        """Piece id of a PyBullet body (``"table"`` for the table; KeyError if unknown)."""
        if body == self._table:
            return TABLE
        return self._by_body[body].piece_id

    def body(self, piece_id: str) -> Body:
        """Book-keeping of one piece (body id, mass, principal frame); KeyError if unknown."""
        return self._by_id[piece_id]

    @property
    def bodies(self) -> list[Body]:
        """Every piece's book-keeping (static and dynamic), in creation order (a copy)."""
        return list(self._bodies)

    @property
    def asleep(self) -> bool:
        """Whether :meth:`step` only advances the clock now: a check found every dynamic piece
        asleep (sleeping profile, :attr:`skip_sleeping_steps` on), and nothing woke the world
        since (:meth:`wake`)."""
        return self._asleep

    @property
    def table_body(self) -> int | None:
        """Body id of the table box, or None when the scene has no ground."""
        return self._table

    @property
    def time(self) -> float:
        """Simulated time since the world was built (s)."""
        return self._steps * self.profile.time_step

    @property
    def steps(self) -> int:
        """Number of steps taken."""
        return self._steps

    @property
    def time_step(self) -> float:
        """The fixed step in use (s)."""
        return self.profile.time_step

    # ------------------------------------------------------------------ stepping
    def step(self, n: int = 1) -> None:
        """Advance ``n`` fixed steps; checks for blow-ups every :data:`CHECK_EVERY` steps.

        With a sleeping profile, once a check finds every dynamic piece asleep (Bullet zeroes a
        sleeping body's velocities, so "asleep" is read as all velocities exactly 0), steps only
        advance the clock until something wakes a piece through this class (:meth:`wake`,
        velocities, impulses, pieces added or removed). A step of a world whose bodies all sleep
        changes nothing in Bullet (no gravity, no narrow phase, no integration for inactive
        bodies), so skipping it is exact: tested bit for bit against stepping, and it is what
        makes a resting display world cheap (``bench/stacks.py``).
        """
        if self._asleep or n < 1:
            self._steps += max(0, int(n))
            return
        with self._own_breaking_threshold():
            p, cid = self._p, self.client
            if self._want_floor:  # asked for by a check made outside step()
                self._lay_floor()
            for i in range(int(n)):
                if self._asleep:
                    self._steps += int(n) - i
                    return
                p.stepSimulation(physicsClientId=cid)
                self._steps += 1
                if self._steps % CHECK_EVERY == 0:
                    still = self.check()
                    self._asleep = self.skip_sleeping_steps and self.profile.sleeping and still
                    if self._want_floor:
                        self._lay_floor()

    @contextlib.contextmanager
    def _own_breaking_threshold(self) -> Iterator[None]:
        """Step with this world's contact breaking threshold, then put PyBullet's back.

        PyBullet keeps the threshold in one process-wide variable, not per client, and reads it
        when a body is created (the body keeps it: building with another value changed a run,
        stepping with another value alone did not) and when a world steps. A display world setting it once would change every verdict world (and the
        dice) built or stepped later in the same process (measured: a verdict run's poses
        changed after a world with another threshold was built). Building and stepping inside
        this keeps every world's numbers independent of what else the process did."""
        p, cid = self._p, self.client
        thr = self.profile.contact_breaking_threshold
        p.setPhysicsEngineParameter(contactBreakingThreshold=thr, physicsClientId=cid)
        try:
            yield
        finally:
            if thr != PYBULLET_CONTACT_BREAKING_THRESHOLD and self._cid is not None:
                p.setPhysicsEngineParameter(
                    contactBreakingThreshold=PYBULLET_CONTACT_BREAKING_THRESHOLD,
                    physicsClientId=cid,
                )

    def wake(self) -> None:
        """Note that the world was changed from outside :meth:`step` (poses or velocities set,
        bodies added or removed): the next steps are simulated again."""
        self._asleep = False

    def run(
        self,
        seconds: float,
        callback: Callable[[World], Any] | None = None,
        every: int = 1,
    ) -> int:
        """Simulate ``seconds`` (rounded to whole steps) and return the number of steps taken.

        ``callback(world)`` is called after every ``every``-th step (counted from the start of
        this call). A callback returning ``True`` stops the run early (e.g. "tower fell"). The
        state is checked for blow-ups periodically and at the end (:class:`PhysicsBlowUpError`).
        """
        if every < 1:
            raise ValueError(f"every must be >= 1, got {every}")
        n = int(round(seconds / self.profile.time_step))
        taken = 0
        if callback is None:
            self.step(n)
            taken = n
        else:
            while taken < n:
                k = min(every, n - taken)
                self.step(k)
                taken += k
                if k == every and callback(self) is True:
                    break
        self.check()
        return taken

    def check(self) -> bool:
        """Raise :class:`PhysicsBlowUpError` if any piece has a non-finite pose or velocity, a
        speed above :data:`MAX_SPEED` / :data:`MAX_ANGULAR_SPEED` or left the room
        (:func:`tablesim.sim.guard.check_body`). Returns whether every dynamic piece has exactly zero
        velocity (right after a step: every piece sleeps)."""
        p, cid, dyn = self._p, self.client, self._dynamic
        if not dyn:
            return True
        rows = [
            (*p.getBasePositionAndOrientation(b.body, physicsClientId=cid),
             *p.getBaseVelocity(b.body, physicsClientId=cid))
            for b in dyn
        ]  # fmt: skip
        flat = np.array([(*c, *q, *v, *w) for c, q, v, w in rows], dtype=float)
        odd = suspects(flat[:, :3], flat[:, 3:7], flat[:, 7:10], flat[:, 10:])
        for i in np.flatnonzero(odd).tolist():  # in order: the first bad piece is raised
            check_body(dyn[i].piece_id, self.time, *rows[i])  # exact, with its message
        if (
            self._table is not None
            and self._floor is None
            and (
                float(np.abs(flat[:, :2]).max()) > _TABLE_HALF[0] - FLOOR_LEAD_M
                or float(flat[:, 2].min()) < 0.0
            )
        ):
            self._want_floor = True  # laid by step(), with this world's threshold
        return not flat[:, 7:].any()

    def _lay_floor(self) -> None:
        """Lay the room's floor, :data:`tablesim.sim.guard.FLOOR_DEPTH_M` below the table top and
        :data:`tablesim.sim.guard.ROOM_HALF_M` each way, with the table's surface (see
        :data:`FLOOR_LEAD_M` for when). Called inside :meth:`step`, so the new body takes this
        world's contact breaking threshold."""
        self._want_floor = False
        self._floor = self._static_box(_FLOOR_HALF, -FLOOR_DEPTH_M)
        self._static_names[self._floor] = FLOOR
        self._static_aabbs = self._static_bounds()
        self._near_cache = None  # its static indices are the old ones

    @property
    def floor_body(self) -> int | None:
        """Body id of the room's floor, or None while it is not laid (:data:`FLOOR_LEAD_M`)."""
        return self._floor

    # ------------------------------------------------------------------ reading state
    def _body_pose(self, b: Body) -> tuple[np.ndarray, tuple[float, float, float, float]]:
        pos, q = self._p.getBasePositionAndOrientation(b.body, physicsClientId=self.client)
        return np.asarray(pos, dtype=float), tuple(q)

    def com_positions(self) -> np.ndarray:
        """Centres of mass of the dynamic pieces, shape (n, 3), m."""
        out = np.empty((len(self._dynamic), 3))
        for i, b in enumerate(self._dynamic):
            out[i] = self._body_pose(b)[0]
        return out

    def com_displacements(self) -> np.ndarray:
        """Distance of each dynamic piece's centre of mass from where it was built, shape (n,), m."""
        return np.linalg.norm(self.com_positions() - self._initial_com, axis=1)

    def pose(self, piece_id: str) -> tuple[np.ndarray, np.ndarray]:
        """Pose of one piece's frame (static pieces too): position (3,) m, quaternion (4,) x,y,z,w."""
        b = self._by_id[piece_id]
        com, q_body = self._body_pose(b)
        q_piece = quat_mul(q_body, quat_conj(b.q_axes))
        if q_piece[3] < 0:
            q_piece = (-q_piece[0], -q_piece[1], -q_piece[2], -q_piece[3])
        r_piece = exact_matmul(quat_to_matrix(q_body), b.axes.T)
        return com - exact_matmul(r_piece, b.com_local), np.asarray(q_piece, dtype=float)

    def poses(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Pose of every dynamic piece's frame: id -> (position (3,) m, quaternion (4,) x,y,z,w).

        The quaternion is returned with w >= 0."""
        return {b.piece_id: self.pose(b.piece_id) for b in self._dynamic}

    def pose_array(self) -> np.ndarray:
        """All dynamic poses as one float64 array, shape (n, 7): position then quaternion.
        Handy for hashing (determinism checks)."""
        return np.array(
            [np.concatenate(self.pose(pid)) for pid in self.piece_ids], dtype=np.float64
        )

    def tilts_deg(self) -> np.ndarray:
        """Angle (degrees) between each dynamic piece's current and initial orientation, shape (n,)."""
        out = np.empty(len(self._dynamic))
        for i, b in enumerate(self._dynamic):
            q_now = self._body_pose(b)[1]
            out[i] = math.degrees(_quat_angle(quat_mul(q_now, quat_conj(self._initial_q[i]))))
        return out

    def tip_angles_deg(self) -> np.ndarray:
        """Angle (degrees) by which each dynamic piece has tipped, shape (n,): how far the piece's
        originally vertical direction now leans from the vertical. Unlike :meth:`tilts_deg` it
        ignores turning about the vertical (yaw), e.g. the slow resting yaw creep of an
        unanchored piece."""
        out = np.empty(len(self._dynamic))
        for i, b in enumerate(self._dynamic):
            rel = quat_mul(self._body_pose(b)[1], quat_conj(self._initial_q[i]))
            up = quat_to_matrix(rel)[:, 2]
            out[i] = math.degrees(math.atan2(math.hypot(up[0], up[1]), up[2]))
        return out

    def moved_beyond(self, i: int, com0: np.ndarray, states: BodyStates, limit: float) -> bool:
        """Whether some point of dynamic piece ``i`` may have moved more than ``limit`` (m) from
        its pose at the start (centre of mass ``com0``, the initial body quaternion): the bound
        |com - com0| + 2 sin(phi / 2) r, phi the rotation since the start, r the radius of the
        sphere about the centre of mass that holds its boxes. False means no point moved more."""
        rel = quat_mul(tuple(map(float, states.quat[i])), quat_conj(self._initial_q[i]))
        turn = 2.0 * math.sin(_quat_angle(rel) / 2.0) * float(self._radii()[i])
        return float(np.linalg.norm(states.com[i] - com0)) + turn > limit

    def velocities(self) -> tuple[np.ndarray, np.ndarray]:
        """Linear COM velocities (n, 3) m/s and angular velocities (n, 3) rad/s, world frame."""
        p, cid, n = self._p, self.client, len(self._dynamic)
        vel = [p.getBaseVelocity(b.body, physicsClientId=cid) for b in self._dynamic]
        lin = np.array([v for v, _ in vel], dtype=float).reshape(n, 3)
        ang = np.array([w for _, w in vel], dtype=float).reshape(n, 3)
        return lin, ang

    def speeds(self) -> np.ndarray:
        """Linear COM speeds of the dynamic pieces, shape (n,), m/s."""
        return np.linalg.norm(self.velocities()[0], axis=1)

    # ------------------------------------------------------------------ the topple rule's reads
    # The rule is checked every 10 ms of simulated time for every piece; done piece by piece in
    # Python these reads cost a fifth of the stepping of the tower (docs/performance.md). The
    # methods below read each body once per check and answer the rule's questions with numpy,
    # giving exactly the answers of com_positions / tip_angles_deg / contacts_with_static.
    def states(self) -> BodyStates:
        """Every dynamic piece's body pose, read once (for :meth:`tipped` and
        :meth:`check_contacts` at one instant)."""
        p, cid = self._p, self.client
        rows = [
            c + q
            for c, q in (
                p.getBasePositionAndOrientation(b.body, physicsClientId=cid) for b in self._dynamic
            )
        ]
        flat = np.array(rows, dtype=float).reshape(len(rows), 7)  # one array: views below
        return BodyStates(flat[:, :3], flat[:, 3:])

    def _tip_basis(self) -> tuple[np.ndarray, np.ndarray]:
        """:func:`tip_matrices` and ``|q0|^2`` of :attr:`_initial_q` (rebuilt when a rebase
        replaced the list)."""
        cached = self._tip_cache
        if cached is None or cached[0] is not self._initial_q:
            q0 = np.array(self._initial_q, dtype=float).reshape(len(self._initial_q), 4)
            cached = self._tip_cache = (self._initial_q, tip_matrices(q0), (q0 * q0).sum(1))
        return cached[1], cached[2]

    def tip_angle_deg(self, i: int, quat: Sequence[float] | None = None) -> float:
        """:meth:`tip_angles_deg` of dynamic piece ``i`` alone (the same formula, the same bits);
        ``quat``: its body quaternion if already read."""
        q = self._body_pose(self._dynamic[i])[1] if quat is None else tuple(map(float, quat))
        rel = quat_mul(q, quat_conj(self._initial_q[i]))
        up = quat_to_matrix(rel)[:, 2]
        return math.degrees(math.atan2(math.hypot(up[0], up[1]), up[2]))

    def tipped(self, limit_deg: float, states: BodyStates | None = None) -> np.ndarray:
        """Whether each dynamic piece has tipped more than ``limit_deg``, shape (n,) bool:
        exactly ``tip_angles_deg() > limit_deg``.

        All pieces at once with numpy, in a handful of array operations (the rule asks every
        10 ms, between steps that evict Python's data from the caches, where each operation
        costs several microseconds): :func:`tip_sines` against ``sin^2(limit / 2)``. A piece
        within :data:`TIP_BAND` of it (or not finite) is decided by :meth:`tip_angle_deg`
        itself, so the answer is the scalar formula's, bit for bit."""
        st = self.states() if states is None else states
        if not 0.0 <= limit_deg < 180.0:  # sin^2(L / 2) no longer grows with L: one by one
            return np.array([self.tip_angle_deg(i, q) > limit_deg for i, q in enumerate(st.quat)],
                            dtype=bool).reshape(len(st.quat))  # fmt: skip
        mats, norms0 = self._tip_basis()
        cached = self._sines  # the rule and the early stop ask of one state
        if cached is not None and cached[0] is st and cached[1] is mats:
            sines = cached[2]
        else:
            sines = tip_sines(st.quat, mats, norms0)
            self._sines = (st, mats, sines)
        at = math.sin(math.radians(limit_deg) / 2.0) ** 2
        out = sines > at + TIP_BAND
        for i in np.flatnonzero(~(out | (sines < at - TIP_BAND))).tolist():
            out[i] = self.tip_angle_deg(i, st.quat[i]) > limit_deg
        return out

    # ------------------------------------------------------------------ acting
    def wake_all(self) -> None:
        """Wake every dynamic piece (after an edit, with sleeping profiles). Harmless otherwise:
        with sleeping disabled the pieces stay unable to sleep.

        Note: sleeping bodies also miss changes of the world's gravity (Bullet hands the new
        gravity only to awake bodies); wake first, then change gravity."""
        p, cid = self._p, self.client
        self.wake()
        state = (
            p.ACTIVATION_STATE_WAKE_UP
            if self.profile.sleeping
            else p.ACTIVATION_STATE_DISABLE_SLEEPING
        )
        for b in self._dynamic:
            p.changeDynamics(b.body, -1, activationState=state, physicsClientId=cid)

    def set_velocity(
        self,
        piece_id: str,
        linear: Sequence[float],
        angular: Sequence[float] = (0.0, 0.0, 0.0),
    ) -> None:
        """Set a dynamic piece's COM velocity (m/s) and angular velocity (rad/s), world frame."""
        b = self._dynamic_body(piece_id)
        self.wake()
        self._p.resetBaseVelocity(
            b.body,
            [float(v) for v in linear],
            [float(v) for v in angular],
            physicsClientId=self.client,
        )

    def apply_impulse(
        self, piece_id: str, point: Sequence[float], impulse: Sequence[float]
    ) -> None:
        """Apply an instantaneous impulse (N s, world frame) at a world point (m) of a piece.

        Changes the velocities at once: dv = J / m, dw = I_world^-1 (r x J) with r from the centre
        of mass to the point. Exact and deterministic (no one-step force approximation).
        """
        b = self._dynamic_body(piece_id)
        self.wake()
        p, cid = self._p, self.client
        com, q = self._body_pose(b)
        lin, ang = p.getBaseVelocity(b.body, physicsClientId=cid)
        j = np.asarray(impulse, dtype=float)
        r = np.asarray(point, dtype=float) - com
        rot = quat_to_matrix(q)
        inv_inertia = exact_matmul(exact_matmul(rot, np.diag(1.0 / b.moments)), rot.T)
        new_lin = np.asarray(lin) + j / b.mass
        new_ang = np.asarray(ang) + exact_matmul(inv_inertia, np.cross(r, j))
        p.resetBaseVelocity(b.body, new_lin.tolist(), new_ang.tolist(), physicsClientId=cid)
        if self.profile.sleeping:
            p.changeDynamics(
                b.body, -1, activationState=p.ACTIVATION_STATE_WAKE_UP, physicsClientId=cid
            )

    def _dynamic_body(self, piece_id: str) -> Body:
        b = self._by_id[piece_id]
        if b.static:
            raise ValueError(f"piece {piece_id!r} is static")
        return b

    def dynamics_info(self, piece_id: str) -> dict[str, Any]:
        """What PyBullet holds for a piece: ``mass`` (kg), ``inertia`` (3,) principal moments,
        ``com`` (3,) world centre of mass (m), ``lateral_friction`` (the per-body square root),
        ``restitution``."""
        b = self._by_id[piece_id]
        info = self._p.getDynamicsInfo(b.body, -1, physicsClientId=self.client)
        return {
            "mass": info[0],
            "inertia": np.asarray(info[2], dtype=float),
            "com": self._body_pose(b)[0],
            "lateral_friction": info[1],
            "restitution": info[5],
        }

    def principal_axes(self, piece_id: str) -> np.ndarray:
        """Principal axes of a piece in its own frame (3x3, columns), as used for its body."""
        return self._by_id[piece_id].axes.copy()


# ---------------------------------------------------------------------- reference scene
_RING_TOWER: tuple[tuple[str, int, tuple[tuple[int, int], ...]], ...] = (
    ("5V", 0, ((0, 0), (1, 0), (2, 0), (0, 1), (0, 2))),
    ("3L", 0, ((2, 1), (2, 2), (1, 2))),
    ("5U", 1, ((0, 0), (1, 0), (0, 1), (0, 2), (1, 2))),
    ("3I", 1, ((2, 0), (2, 1), (2, 2))),
    ("4L", 2, ((0, 0), (1, 0), (2, 0), (0, 1))),
    ("2a", 2, ((2, 1), (2, 2))),
    ("2b", 2, ((0, 2), (1, 2))),
    ("4T", 3, ((0, 0), (1, 0), (2, 0), (1, 1))),
)
_RING_BALANCE: tuple[tuple[int, int, int], ...] = ((0, 2, 3), (1, 2, 3), (2, 2, 3), (1, 0, 4))


def reference_tower(config: PhysicsConfig | None = None) -> Scene:
    """A resting Kozo-like tower built in code, for tests and benchmarks.

    A static Kozo board (``config.kozo_board`` square, ``kozo_board_thickness`` thick) centred on
    the origin; on its central 3x3 grid of ``config.square`` squares, three ring layers that leave
    the centre (the chimney) empty -- 5V + 3L, 5U + 3I, 4L + 2a + 2b of ``kozo-standard`` -- then
    the T-tetromino 4T on the front row with its stem over the chimney (centre of mass 0.25 cube
    inside its support: stable, but not by much), and four balance cubes: three on the back row,
    one on the T. 12 dynamic bodies. Used when ``scenes/kozo-tower.toml`` is not available.
    """
    cfg = config or PhysicsConfig()
    a = cfg.square
    board = cfg.kozo_board
    t = cfg.kozo_board_thickness
    ox, oy = -1.5 * a, -1.5 * a
    pieces = [
        ScenePiece(
            "board",
            ((0, 0, 0),),
            None,
            (-board / 2, -board / 2, 0.0),
            static=True,
            box=(board, board, t),
            source="kozo-board",
        )
    ]
    for name, layer, cells in _RING_TOWER:
        pieces.append(
            ScenePiece(
                name,
                tuple((x, y, 0) for x, y in cells),
                "kozo",
                (ox, oy, t + layer * a),
                source=f"kozo-standard:{name}",
            )
        )
    b = cfg.balance_cube
    for i, (x, y, layer) in enumerate(_RING_BALANCE, start=1):
        pieces.append(
            ScenePiece(
                f"b{i}",
                ((0, 0, 0),),
                "balance",
                (ox + (x + 0.5) * a - b / 2, oy + (y + 0.5) * a - b / 2, t + layer * a),
                source=f"kozo-balance:b{i}",
                color="#f5e6c8",
            )
        )
    return Scene("reference-tower", tuple(pieces), cfg, description=reference_tower.__doc__ or "")
