"""What a :class:`tablesim.sim.world.World`'s pieces are doing: their poses and velocities now
(:class:`PoseReads`) and how far they moved and tipped since the start of a move
(:class:`Baseline`, the topple rule's reads).

Split out of :mod:`tablesim.sim.world` (which re-exports :class:`BodyStates`,
:func:`tip_matrices`, :func:`tip_sines` and :data:`TIP_BAND`). Reads only: no solver state is
changed. Every array is in the order of the world's dynamic pieces.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tablesim.games.quat import quat_conj, quat_mul
from tablesim.sim.model import quat_to_matrix
from tablesim.sim.world_bodies import BodyBook, Link
from tablesim.sim.world_layout import exact_matmul

TIP_BAND = 1e-9
"""Pieces whose ``sin^2(tip / 2)`` lies this close to the limit's are decided by the scalar
formula (:meth:`Baseline.tipped`): the vectorised value is off by a few units in the last place
(1e-16), and 1e-9 is 2e-9 rad or more of tip, where the scalar formula is exact to 1e-15."""


@dataclass(frozen=True)
class BodyStates:
    """The dynamic pieces' body poses at one instant (:meth:`PoseReads.states`): centres of mass
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


class PoseReads:
    """The pieces' poses and velocities now, read from the world's client."""

    def __init__(self, link: Link, book: BodyBook) -> None:
        self._link = link
        self._book = book

    def com_positions(self) -> np.ndarray:
        """Centres of mass of the dynamic pieces, shape (n, 3), m."""
        dyn = self._book.dynamic
        out = np.empty((len(dyn), 3))
        for i, b in enumerate(dyn):
            out[i] = self._link.body_pose(b)[0]
        return out

    def pose(self, piece_id: str) -> tuple[np.ndarray, np.ndarray]:
        """Pose of one piece's frame (static pieces too): position (3,) m, quaternion (4,) x,y,z,w."""
        b = self._book.by_id[piece_id]
        com, q_body = self._link.body_pose(b)
        q_piece = quat_mul(q_body, quat_conj(b.q_axes))
        if q_piece[3] < 0:
            q_piece = (-q_piece[0], -q_piece[1], -q_piece[2], -q_piece[3])
        r_piece = exact_matmul(quat_to_matrix(q_body), b.axes.T)
        return com - exact_matmul(r_piece, b.com_local), np.asarray(q_piece, dtype=float)

    def poses(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Pose of every dynamic piece's frame: id -> (position (3,) m, quaternion (4,) x,y,z,w).

        The quaternion is returned with w >= 0."""
        return {b.piece_id: self.pose(b.piece_id) for b in self._book.dynamic}

    def pose_array(self) -> np.ndarray:
        """All dynamic poses as one float64 array, shape (n, 7): position then quaternion.
        Handy for hashing (determinism checks)."""
        return np.array(
            [np.concatenate(self.pose(b.piece_id)) for b in self._book.dynamic], dtype=np.float64
        )

    def velocities(self) -> tuple[np.ndarray, np.ndarray]:
        """Linear COM velocities (n, 3) m/s and angular velocities (n, 3) rad/s, world frame."""
        p, cid, dyn = self._link.p, self._link.client, self._book.dynamic
        vel = [p.getBaseVelocity(b.body, physicsClientId=cid) for b in dyn]
        lin = np.array([v for v, _ in vel], dtype=float).reshape(len(dyn), 3)
        ang = np.array([w for _, w in vel], dtype=float).reshape(len(dyn), 3)
        return lin, ang

    def speeds(self) -> np.ndarray:
        """Linear COM speeds of the dynamic pieces, shape (n,), m/s."""
        return np.linalg.norm(self.velocities()[0], axis=1)

    def states(self) -> BodyStates:
        """Every dynamic piece's body pose, read once (for :meth:`Baseline.tipped` and
        :meth:`tablesim.sim.world_contacts.Contacts.check_contacts` at one instant)."""
        p, cid = self._link.p, self._link.client
        rows = [
            c + q
            for c, q in (
                p.getBasePositionAndOrientation(b.body, physicsClientId=cid)
                for b in self._book.dynamic
            )
        ]
        flat = np.array(rows, dtype=float).reshape(len(rows), 7)  # one array: views below
        return BodyStates(flat[:, :3], flat[:, 3:])


class Baseline:
    """How far each dynamic piece moved and tipped since the reference poses (:meth:`rebase`:
    the start of a move; the world takes them when it is built).

    The rule is checked every 10 ms of simulated time for every piece; done piece by piece in
    Python these reads cost a fifth of the stepping of the tower (docs/performance.md).
    :meth:`tipped` reads each body once per check and answers with numpy, giving exactly the
    answers of :meth:`tip_angles_deg`."""

    def __init__(self, reads: PoseReads, link: Link, book: BodyBook) -> None:
        self._reads = reads
        self._link = link
        self._book = book
        self.initial_q: list[tuple[float, float, float, float]] = []
        """Body quaternions at the reference (one per dynamic piece)."""
        self.initial_com = np.zeros((0, 3))
        """Centres of mass at the reference, shape (n, 3)."""
        self._tip_cache: (
            tuple[list[tuple[float, float, float, float]], np.ndarray, np.ndarray] | None
        ) = None
        """:meth:`_tip_basis`: (the baseline list it was built from, matrices, ``|q0|^2``)."""
        self._sines: tuple[BodyStates, np.ndarray, np.ndarray] | None = None
        """:meth:`tipped`: (the states, the matrices, the sines) of its last call."""

    def rebase(self) -> None:
        """Make the current poses the reference of :meth:`com_displacements` and
        :meth:`tip_angles_deg` (the start of a move)."""
        self.initial_q = [self._link.body_pose(b)[1] for b in self._book.dynamic]
        self.initial_com = self._reads.com_positions()

    def com_displacements(self) -> np.ndarray:
        """Distance of each dynamic piece's centre of mass from the reference, shape (n,), m."""
        return np.linalg.norm(self._reads.com_positions() - self.initial_com, axis=1)

    def tilts_deg(self) -> np.ndarray:
        """Angle (degrees) between each dynamic piece's current and reference orientation,
        shape (n,)."""
        dyn = self._book.dynamic
        out = np.empty(len(dyn))
        for i, b in enumerate(dyn):
            q_now = self._link.body_pose(b)[1]
            out[i] = math.degrees(_quat_angle(quat_mul(q_now, quat_conj(self.initial_q[i]))))
        return out

    def tip_angles_deg(self) -> np.ndarray:
        """Angle (degrees) by which each dynamic piece has tipped, shape (n,): how far the piece's
        originally vertical direction now leans from the vertical. Unlike :meth:`tilts_deg` it
        ignores turning about the vertical (yaw), e.g. the slow resting yaw creep of an
        unanchored piece."""
        dyn = self._book.dynamic
        out = np.empty(len(dyn))
        for i, b in enumerate(dyn):
            rel = quat_mul(self._link.body_pose(b)[1], quat_conj(self.initial_q[i]))
            up = quat_to_matrix(rel)[:, 2]
            out[i] = math.degrees(math.atan2(math.hypot(up[0], up[1]), up[2]))
        return out

    def moved_beyond(self, i: int, com0: np.ndarray, states: BodyStates, limit: float) -> bool:
        """Whether some point of dynamic piece ``i`` may have moved more than ``limit`` (m) from
        its pose at the start (centre of mass ``com0``, the reference body quaternion): the bound
        |com - com0| + 2 sin(phi / 2) r, phi the rotation since the start, r the radius of the
        sphere about the centre of mass that holds its boxes. False means no point moved more."""
        rel = quat_mul(tuple(map(float, states.quat[i])), quat_conj(self.initial_q[i]))
        turn = 2.0 * math.sin(_quat_angle(rel) / 2.0) * float(self._book.radii()[i])
        return float(np.linalg.norm(states.com[i] - com0)) + turn > limit

    def _tip_basis(self) -> tuple[np.ndarray, np.ndarray]:
        """:func:`tip_matrices` and ``|q0|^2`` of :attr:`initial_q` (rebuilt when a rebase
        replaced the list)."""
        cached = self._tip_cache
        if cached is None or cached[0] is not self.initial_q:
            q0 = np.array(self.initial_q, dtype=float).reshape(len(self.initial_q), 4)
            cached = self._tip_cache = (self.initial_q, tip_matrices(q0), (q0 * q0).sum(1))
        return cached[1], cached[2]

    def tip_angle_deg(self, i: int, quat: Sequence[float] | None = None) -> float:
        """:meth:`tip_angles_deg` of dynamic piece ``i`` alone (the same formula, the same bits);
        ``quat``: its body quaternion if already read."""
        dyn = self._book.dynamic
        q = self._link.body_pose(dyn[i])[1] if quat is None else tuple(map(float, quat))
        rel = quat_mul(q, quat_conj(self.initial_q[i]))
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
        st = self._reads.states() if states is None else states
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
