"""The physics sanity guard: what no real table can do is an error, never an outcome.

A verdict is drawn from poses. If the simulation produced a non-finite number, a speed no piece
in the room reaches, or a piece left the room (the floor round the table) or went through its
floor, then the poses mean nothing and :class:`PhysicsBlowUpError` is raised instead of a verdict: the command
line exits 1 ("the physics blew up"), a sweep records an ``error`` row.

What can be caught before simulating is caught by scene validation (:data:`LIMITS`, applied in
:mod:`tablesim.sim.scene`: positions within the table, gravity, density, sizes); this module catches the
rest while and after simulating:

- :func:`check_body` -- one body's pose and velocity (called by :meth:`tablesim.sim.world.World.check`).
- :func:`check_positions` -- centre-of-mass positions of all pieces (called at every topple-rule
  check of :func:`tablesim.sim.verdict.run_once`, which may stop before the world's own periodic check).
- :func:`statics_failure` -- the static-equilibrium LP refusing its input (numbers out of range)
  becomes the same error.

Nothing here imports PyBullet.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = [
    "LIMITS",
    "MAX_ANGULAR_SPEED",
    "MAX_SPEED",
    "FLOOR_DEPTH_M",
    "ROOM_HALF_M",
    "TABLE_HALF_M",
    "Limit",
    "PhysicsBlowUpError",
    "check_body",
    "check_positions",
    "statics_failure",
    "suspects",
]

MAX_SPEED = 10.0
"""Linear COM speed (m/s) above which a piece counts as blown up. The longest fall in the room
is from the highest start a scene allows (:data:`MAX_HEIGHT_M` above the table) over the table's
edge to the floor (:data:`FLOOR_DEPTH_M` below its top): 2.75 m, 7.3 m/s on landing; a cube
thrown by a collapsing 30-cube stack leaves at 2-3 m/s. Nothing in the room legitimately moves
faster. (So a piece in free fall for more than 1 s -- in a scene without ground -- trips it.)"""
MAX_ANGULAR_SPEED = 2000.0
"""Angular speed (rad/s) above which a piece counts as blown up. A 10 mm cube whose corners move
at 5 m/s spins at about 700 rad/s."""
TABLE_HALF_M = 2.0
"""Half the side (m) of the square table (4 m, as :mod:`tablesim.sim.world` builds it). Scenes start on it."""
FLOOR_DEPTH_M = 0.75
"""How far (m) the room's floor lies below the table top: what a piece that leaves the table
lands on (:mod:`tablesim.sim.world` lays it when a piece nears the table's edge)."""
ROOM_HALF_M = 6.0
"""Half the side (m) of the square floor round the table; a piece beyond it has left the room."""
MAX_HEIGHT_M = 2.0
"""Highest a piece may start or get (m above the table top): ten Kozo towers' worth."""
LOWEST_M = -(FLOOR_DEPTH_M + 0.25)
"""A piece below this (m) has gone through the floor."""


class PhysicsBlowUpError(RuntimeError):
    """The simulation produced a non-finite pose, an impossible speed or a piece out of the room.

    This is an error of the simulation, never an outcome: a verdict must not be drawn from it.
    ``piece`` is the piece id, ``time`` the simulated time (s), ``quantity`` what was checked and
    ``value`` what it was.
    """

    def __init__(self, piece: str, time: float, quantity: str, value: Any) -> None:
        self.piece = piece
        self.time = time
        self.quantity = quantity
        self.value = value
        super().__init__(
            f"physics blew up: piece {piece!r} at t = {time:.4f} s has {quantity} = {value!r}"
        )

    def __reduce__(self) -> tuple[Any, ...]:
        # a worker process hands it to the pool by pickling; the default would call
        # __init__ with the message alone (TypeError, and the pool breaks)
        return (type(self), (self.piece, self.time, self.quantity, self.value))


class Limit:
    """An allowed closed range ``[low, high]`` of one scene setting, in the file's unit."""

    def __init__(self, low: float, high: float, unit: str, why: str) -> None:
        self.low, self.high, self.unit, self.why = low, high, unit, why

    def problem(self, value: float) -> str | None:
        """None if ``value`` is allowed, else the message (what is allowed, and why)."""
        if self.low <= value <= self.high:
            return None
        unit = f" {self.unit}" if self.unit else ""
        return f"must be in [{self.low:g}, {self.high:g}]{unit} ({self.why}), got {value:g}"


LIMITS: dict[str, Limit] = {
    # [physics] keys, in the file's units (documented in scenes/README.md, "Limits")
    "gravity": Limit(0.0, 100.0, "m/s^2", "up to about 10 g"),
    "density": Limit(1.0, 25_000.0, "kg/m^3", "from foam to osmium"),
    "friction": Limit(0.0, 10.0, "", "wood on wood is about 0.45"),
    "clearance_mm": Limit(0.0, 5.0, "mm", "a gap between cubes, well below a cube edge"),
    "kozo_cube_mm": Limit(1.0, 500.0, "mm", "a cube edge a hand can hold"),
    "balance_cube_mm": Limit(1.0, 500.0, "mm", "a cube edge a hand can hold"),
    "katamino_cube_mm": Limit(1.0, 500.0, "mm", "a cube edge a hand can hold"),
    "unit_cube_mm": Limit(1.0, 500.0, "mm", "a cube edge a hand can hold"),
    "kozo_board_mm": Limit(10.0, 2_000.0, "mm", "a board on the 4 m table"),
    "kozo_board_thickness_mm": Limit(1.0, 200.0, "mm", "a board, not a wall"),
    "kozo_square_mm": Limit(1.0, 600.0, "mm", "a third of a board at most"),
    # scene geometry (metres, converted by the scene loader)
    "box_m": Limit(1e-4, 2 * TABLE_HALF_M, "m", "from 0.1 mm to the 4 m table"),
    "x_m": Limit(-TABLE_HALF_M, TABLE_HALF_M, "m", "on the 4 m table, centred at 0"),
    "z_m": Limit(-0.2, MAX_HEIGHT_M, "m", "from under the table top to 2 m above it"),
}
"""Allowed ranges of scene settings (see scenes/README.md). Numbers outside them are no table
that exists, and PyBullet's answers for them are noise."""
MAX_PIECES = 2_000
"""Most pieces (dynamic and static) one scene may hold."""


def check_body(piece: str, time: float, pos: Sequence[float], quat: Sequence[float],
               lin: Sequence[float], ang: Sequence[float]) -> None:  # fmt: skip
    """Raise :class:`PhysicsBlowUpError` for a non-finite pose or velocity, a speed above
    :data:`MAX_SPEED` / :data:`MAX_ANGULAR_SPEED`, or a piece out of the room."""
    for name, val in (
        ("position", pos),
        ("orientation", quat),
        ("velocity", lin),
        ("angular velocity", ang),
    ):
        if not all(math.isfinite(v) for v in val):
            raise PhysicsBlowUpError(piece, time, name, tuple(val))
    speed = math.sqrt(sum(v * v for v in lin))
    if speed > MAX_SPEED:
        raise PhysicsBlowUpError(piece, time, "speed (m/s)", speed)
    spin = math.sqrt(sum(v * v for v in ang))
    if spin > MAX_ANGULAR_SPEED:
        raise PhysicsBlowUpError(piece, time, "angular speed (rad/s)", spin)
    _check_place(piece, time, pos)


def _check_place(piece: str, time: float, pos: Sequence[float]) -> None:
    x, y, z = (float(v) for v in pos)
    if max(abs(x), abs(y)) > ROOM_HALF_M:
        raise PhysicsBlowUpError(
            piece, time, "position off the 12 m room (m)", (round(x, 4), round(y, 4))
        )
    if not LOWEST_M <= z <= MAX_HEIGHT_M + 1.0:
        raise PhysicsBlowUpError(piece, time, "height out of the room (m)", round(z, 4))


def suspects(pos: np.ndarray, quat: np.ndarray, lin: np.ndarray, ang: np.ndarray) -> np.ndarray:
    """Which bodies :func:`check_body` might reject, shape (n,) bool, from (n, 3) positions,
    (n, 4) quaternions, (n, 3) velocities and angular velocities, in a few array operations:
    every body it rejects is among them (speeds are compared 1e-9 below the limits, so the
    sums' rounding cannot hide one; a NaN fails every comparison). Pass the suspects to
    :func:`check_body` for the exact answer and its message."""
    fast = MAX_SPEED * MAX_SPEED * (1.0 - 1e-9)
    spin = MAX_ANGULAR_SPEED * MAX_ANGULAR_SPEED * (1.0 - 1e-9)
    ok = (
        np.isfinite(quat).all(axis=1)
        & ((lin * lin).sum(axis=1) <= fast)
        & ((ang * ang).sum(axis=1) <= spin)
        & (np.abs(pos[:, :2]).max(axis=1) <= ROOM_HALF_M)
        & (pos[:, 2] >= LOWEST_M)
        & (pos[:, 2] <= MAX_HEIGHT_M + 1.0)
    )
    return ~ok


def check_positions(ids: Sequence[str], time: float, com: np.ndarray) -> None:
    """Raise :class:`PhysicsBlowUpError` if any centre of mass (``(N, 3)`` m) is non-finite or out
    of the room. Cheap enough for every topple-rule check: two reductions when all is well."""
    com = np.asarray(com, dtype=float)
    if com.size == 0:
        return
    lo, hi = com.min(axis=0).tolist(), com.max(axis=0).tolist()  # a NaN comes through both
    if (
        lo[0] >= -ROOM_HALF_M and hi[0] <= ROOM_HALF_M and lo[1] >= -ROOM_HALF_M
        and hi[1] <= ROOM_HALF_M and lo[2] >= LOWEST_M and hi[2] <= MAX_HEIGHT_M + 1.0
    ):  # fmt: skip
        return
    bad = ~np.isfinite(com).all(axis=1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise PhysicsBlowUpError(ids[i], time, "position", tuple(float(v) for v in com[i]))
    off = (
        (np.abs(com[:, :2]).max(axis=1) > ROOM_HALF_M)
        | (com[:, 2] < LOWEST_M)
        | (com[:, 2] > MAX_HEIGHT_M + 1.0)
    )
    if off.any():
        i = int(np.flatnonzero(off)[0])
        _check_place(ids[i], time, com[i])


def statics_failure(exc: BaseException) -> PhysicsBlowUpError:
    """The static-equilibrium LP refusing its numbers (``ValueError`` from ``linprog``) as a
    blow-up: the scene's numbers are beyond what the solver (and a table) can take."""
    text = " ".join(str(exc).split())
    return PhysicsBlowUpError("(statics)", 0.0, "static-equilibrium LP input", text[:200])
