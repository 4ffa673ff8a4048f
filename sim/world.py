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
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tablesim.sim.config import PhysicsConfig, Profile, get_profile
from tablesim.sim.guard import (  # noqa: F401 - MAX_*, PhysicsBlowUpError re-exported (moved to tablesim.sim.guard)
    MAX_ANGULAR_SPEED,
    MAX_SPEED,
    PhysicsBlowUpError,
    check_body,
    suspects,
)
from tablesim.sim.model import Scene, ScenePiece, quat_to_matrix
from tablesim.sim.world_bodies import (  # noqa: F401 - TABLE, FLOOR re-exported
    FLOOR,
    FLOOR_HALF,
    FLOOR_TOP,
    TABLE,
    TABLE_HALF,
    BodyBook,
    Link,
)
from tablesim.sim.world_build import BodyFactory
from tablesim.sim.world_contacts import (  # noqa: F401 - re-exported (the contact reads live there)
    BOX_MARGIN,
    CONTACT_TOLERANCE,
    CULL_SLACK,
    NEAR_MARGIN,
    ContactCheck,
    Contacts,
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
from tablesim.sim.world_reads import (  # noqa: F401 - re-exported (the pose reads live there)
    TIP_BAND,
    Baseline,
    BodyStates,
    PoseReads,
    tip_matrices,
    tip_sines,
)

FLOOR_LEAD_M = 0.5
"""The floor is laid at the first blow-up check (:data:`CHECK_EVERY`) that finds a piece's centre
of mass this close (m) to the table's edge, or below the table top: 0.5 m is what a piece at the
guard's top speed covers in half a check period, and a piece leaving the edge then needs 0.39 s
to fall the :data:`tablesim.sim.guard.FLOOR_DEPTH_M` to the floor, four check periods. Laid only then, so
a world whose pieces stay on the table holds exactly the bodies it always held (the same bits)."""

CHECK_EVERY = 100
"""Blow-up check period in steps (plus once at the end of every :meth:`World.run`)."""


def shrink_shift(config: PhysicsConfig, tolerance: float = CONTACT_TOLERANCE) -> float:
    """How far (m) a piece must have moved before a new contact with a static body means it
    moved *to* it (the topple rule's clause 1; :meth:`tablesim.sim.world_reads.Baseline.moved_beyond`).

    The clearance (:func:`shrunk_half_extents`) takes ``clearance / 2`` off each horizontal face
    of a dynamic box, so a box corner with two horizontal axes moves up to ``clearance / sqrt 2``
    from where the scene put it, and a contact of the scene as written can open by that much (an
    I4 plank leaning 25 degrees with its foot on a step: lifted 0.1 sin 25 = 0.04 mm). Closing
    such a gap as the piece settles moves no point of the piece by more than that plus the
    contact ``tolerance``; a piece that moved further did not merely settle into a contact the
    scene already had. 0.19 mm at the default 0.2 mm clearance."""
    return config.clearance / math.sqrt(2.0) + tolerance


class World:
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

    The world is the clock (stepping, sleeping, the blow-up checks, the floor laid when needed)
    and the facade of its collaborators: the client (:class:`tablesim.sim.world_bodies.Link`),
    the book of bodies (:class:`tablesim.sim.world_bodies.BodyBook`), the body maker
    (:class:`tablesim.sim.world_build.BodyFactory`) and the pose reads
    (:class:`tablesim.sim.world_reads.PoseReads`) behind its methods, and two it hands out:
    :attr:`contacts` (:class:`tablesim.sim.world_contacts.Contacts`: touching pairs, contacts with
    static bodies, penetrations) and :attr:`baseline` (:class:`tablesim.sim.world_reads.Baseline`:
    how far each piece moved and tipped since :meth:`rebase`).
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
        self._want_floor = False
        self._link = Link(p, connect_direct() if client is None else int(client), client is None)
        self._factory = BodyFactory(self._link, prof, self.config)
        try:
            with self._own_breaking_threshold():
                self._factory.configure()
                table = self._factory.static_box(TABLE_HALF, 0.0) if scene.ground else None
                # scene order = creation order (determinism)
                bodies = [self._factory.add_piece(piece) for piece in scene.pieces]
                self._book = BodyBook(bodies, table)
                self._reads = PoseReads(self._link, self._book)
                self.contacts = Contacts(self._link, self._book, self._reads)
                """The contact reads (:class:`tablesim.sim.world_contacts.Contacts`)."""
                self._factory.refresh_inertia(self._book.dynamic)
                self.baseline = Baseline(self._reads, self._link, self._book)
                """Moves and tips since :meth:`rebase` (:class:`tablesim.sim.world_reads.Baseline`)."""
                self.baseline.rebase()
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------------ bodies added and removed
    def add_body(self, piece: ScenePiece) -> Body:
        """Create a dynamic piece's body at its pose (built with this world's contact breaking
        threshold) and enter it last in the book-keeping: its row in every array is the last.
        The baselines (:meth:`rebase`) are not changed. ValueError for a static piece or an id
        already in the world."""
        if piece.id in self._book.by_id:
            raise ValueError(f"piece id {piece.id!r} is already in the world")
        if piece.static:
            raise ValueError(f"piece {piece.id!r}: only dynamic pieces can be added")
        with self._own_breaking_threshold():  # a body keeps the threshold it was made with
            self.wake()
            body = self._factory.add_piece(piece)
        self._book.enter(body)
        return body

    def remove_body(self, piece_id: str) -> Body:
        """Take a dynamic piece's body out of the world and the book-keeping (KeyError for an
        unknown id); the baselines (:meth:`rebase`) are not changed."""
        body = self._book.by_id.pop(piece_id)
        self.wake()
        self._link.p.removeBody(body.body, physicsClientId=self.client)
        self._book.drop(body)
        return body

    def rebase(self) -> None:
        """Make the current poses the reference of :attr:`baseline` (its
        ``com_displacements``, ``tip_angles_deg``, ``tipped``: the start of a move)."""
        self.baseline.rebase()

    def set_pose(self, piece_id: str, com: Sequence[float], quat: Sequence[float]) -> None:
        """Put a piece's body at a centre of mass (m) and body quaternion (x, y, z, w), world
        frame; its velocity is kept."""
        b = self._book.by_id[piece_id]
        self.wake()
        self._link.p.resetBasePositionAndOrientation(
            b.body, [float(v) for v in com], [float(v) for v in quat], physicsClientId=self.client
        )

    def save(self) -> tuple[int, int]:
        """A snapshot of the bodies' state (PyBullet ``saveState``) and of the clock, for
        :meth:`restore`. Restoring is not bit-identical to never having left (Bullet's contact
        caches are not all restored), so a caller that must reproduce its bits makes the same
        saves and restores in the same order every time."""
        return self._link.p.saveState(physicsClientId=self.client), self._steps

    def restore(self, snapshot: tuple[int, int]) -> None:
        """Go back to a snapshot of :meth:`save` (the clock too); the pieces and their
        book-keeping must be those of the snapshot (nothing added or removed since)."""
        state_id, steps = snapshot
        self._link.p.restoreState(stateId=state_id, physicsClientId=self.client)
        self._steps = steps
        self.wake()

    def forget(self, snapshot: tuple[int, int]) -> None:
        """Free a snapshot of :meth:`save`."""
        self._link.p.removeState(snapshot[0], physicsClientId=self.client)

    # ------------------------------------------------------------------ lifetime
    @property
    def client(self) -> int:
        """The PyBullet client id (RuntimeError once closed)."""
        return self._link.client

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run."""
        return self._link.closed

    def close(self) -> None:
        """Disconnect the PyBullet client, unless it was lent (idempotent)."""
        self._link.close()

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
        return [b.piece_id for b in self._book.dynamic]

    @property
    def static_ids(self) -> list[str]:
        """Ids of the static pieces, in scene order."""
        return [b.piece_id for b in self._book.all if b.static]

    def body_id(self, piece_id: str) -> int:
        """PyBullet body unique id of a piece (KeyError if unknown)."""
        return self._book.by_id[piece_id].body

    def piece_id(self, body: int) -> str:
        """Piece id of a PyBullet body (``"table"`` for the table; KeyError if unknown)."""
        return self._book.piece_id(body)

    def body(self, piece_id: str) -> Body:
        """Book-keeping of one piece (body id, mass, principal frame); KeyError if unknown."""
        return self._book.by_id[piece_id]

    @property
    def bodies(self) -> list[Body]:
        """Every piece's book-keeping (static and dynamic), in creation order (a copy)."""
        return list(self._book.all)

    @property
    def table_body(self) -> int | None:
        """Body id of the table box, or None when the scene has no ground."""
        return self._book.table

    @property
    def floor_body(self) -> int | None:
        """Body id of the room's floor, or None while it is not laid (:data:`FLOOR_LEAD_M`)."""
        return self._book.floor

    # ------------------------------------------------------------------ the clock
    @property
    def asleep(self) -> bool:
        """Whether :meth:`step` only advances the clock now: a check found every dynamic piece
        asleep (sleeping profile, :attr:`skip_sleeping_steps` on), and nothing woke the world
        since (:meth:`wake`)."""
        return self._asleep

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
            p, cid = self._link.p, self.client
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

    def _own_breaking_threshold(self) -> contextlib.AbstractContextManager[None]:
        """Step with this world's contact breaking threshold, then put PyBullet's back.

        PyBullet keeps the threshold in one process-wide variable, not per client, and reads it
        when a body is created (the body keeps it: building with another value changed a run,
        stepping with another value alone did not) and when a world steps. A display world setting it once would change every verdict world (and the
        dice) built or stepped later in the same process (measured: a verdict run's poses
        changed after a world with another threshold was built). Building and stepping inside
        this keeps every world's numbers independent of what else the process did."""
        return self._link.breaking_threshold(self.profile.contact_breaking_threshold)

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
        p, cid, dyn = self._link.p, self.client, self._book.dynamic
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
            self._book.table is not None
            and self._book.floor is None
            and (
                float(np.abs(flat[:, :2]).max()) > TABLE_HALF[0] - FLOOR_LEAD_M
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
        self._book.lay_floor(self._factory.static_box(FLOOR_HALF, FLOOR_TOP))
        self.contacts.statics_changed()

    # ------------------------------------------------------------------ reading state
    def com_positions(self) -> np.ndarray:
        """Centres of mass of the dynamic pieces, shape (n, 3), m."""
        return self._reads.com_positions()

    def pose(self, piece_id: str) -> tuple[np.ndarray, np.ndarray]:
        """Pose of one piece's frame (static pieces too): position (3,) m, quaternion (4,) x,y,z,w."""
        return self._reads.pose(piece_id)

    def poses(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Pose of every dynamic piece's frame: id -> (position (3,) m, quaternion (4,) x,y,z,w).

        The quaternion is returned with w >= 0."""
        return self._reads.poses()

    def pose_array(self) -> np.ndarray:
        """All dynamic poses as one float64 array, shape (n, 7): position then quaternion.
        Handy for hashing (determinism checks)."""
        return self._reads.pose_array()

    def velocities(self) -> tuple[np.ndarray, np.ndarray]:
        """Linear COM velocities (n, 3) m/s and angular velocities (n, 3) rad/s, world frame."""
        return self._reads.velocities()

    def speeds(self) -> np.ndarray:
        """Linear COM speeds of the dynamic pieces, shape (n,), m/s."""
        return self._reads.speeds()

    def states(self) -> BodyStates:
        """Every dynamic piece's body pose, read once (for ``baseline.tipped`` and
        ``contacts.check_contacts`` at one instant)."""
        return self._reads.states()

    # ------------------------------------------------------------------ acting
    def wake_all(self) -> None:
        """Wake every dynamic piece (after an edit, with sleeping profiles). Harmless otherwise:
        with sleeping disabled the pieces stay unable to sleep.

        Note: sleeping bodies also miss changes of the world's gravity (Bullet hands the new
        gravity only to awake bodies); wake first, then change gravity."""
        p, cid = self._link.p, self.client
        self.wake()
        state = (
            p.ACTIVATION_STATE_WAKE_UP
            if self.profile.sleeping
            else p.ACTIVATION_STATE_DISABLE_SLEEPING
        )
        for b in self._book.dynamic:
            p.changeDynamics(b.body, -1, activationState=state, physicsClientId=cid)

    def set_velocity(
        self,
        piece_id: str,
        linear: Sequence[float],
        angular: Sequence[float] = (0.0, 0.0, 0.0),
    ) -> None:
        """Set a dynamic piece's COM velocity (m/s) and angular velocity (rad/s), world frame."""
        b = self._book.dynamic_body(piece_id)
        self.wake()
        self._link.p.resetBaseVelocity(
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
        b = self._book.dynamic_body(piece_id)
        self.wake()
        p, cid = self._link.p, self.client
        com, q = self._link.body_pose(b)
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

    def dynamics_info(self, piece_id: str) -> dict[str, Any]:
        """What PyBullet holds for a piece: ``mass`` (kg), ``inertia`` (3,) principal moments,
        ``com`` (3,) world centre of mass (m), ``lateral_friction`` (the per-body square root),
        ``restitution``."""
        b = self._book.by_id[piece_id]
        info = self._link.p.getDynamicsInfo(b.body, -1, physicsClientId=self.client)
        return {
            "mass": info[0],
            "inertia": np.asarray(info[2], dtype=float),
            "com": self._link.body_pose(b)[0],
            "lateral_friction": info[1],
            "restitution": info[5],
        }


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
