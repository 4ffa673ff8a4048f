"""Kataboom values: config, moves and their measured outcomes, the structure, the state.

All frozen. Poses are 7 floats in the grid frame of :mod:`tablesim.games.kataboom.geometry`: the
minimum corner of the piece frame (x, y, z, cube edges) and a quaternion (qx, qy, qz, qw). A
*measured* move carries an :class:`Outcome`; the outcome is not part of the move's identity
or text, so a measured move equals its intended move.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tablesim.games._stacking import Outcome as Outcome  # shared with Kozo
from tablesim.games._stacking import Pose as Pose
from tablesim.games.rng import Rng

PLACE, NUDGE = "place", "nudge"
MOVE_KINDS = (NUDGE, PLACE)
READINGS = ("anywhere", "on-previous")
TABLES = ("physics", "stand-in")
RELEASES = ("touch", "lift")
"""How the table's hand lets a piece go (``touch``: new games; ``lift``: the first tables')."""


@dataclass(frozen=True)
class KataboomConfig:
    """Validated options (see ``Kataboom.options`` for their meaning)."""

    players: int
    model: int = 1
    reading: str = "anywhere"
    table: str = "physics"
    nudges: int = 1
    stand_in_risk: float = 0.05
    hand_mm: float = 1.0
    hand_deg: float = 1.0
    lift_mm: float = 0.3
    release: str = "touch"
    refuse: bool = True
    escalate: bool = True
    window_s: float = 3.0
    settle_s: float = 1.0


@dataclass(frozen=True, order=True)
class KataboomMove:
    """``place`` piece ``piece`` in orientation ``rot`` with its minimum corner at ``pos``
    (z = the rest height of the piece lowered straight down), or ``nudge`` piece ``piece`` at
    the grid point ``pos`` with ``push`` (impulse, mN s, world axes). ``outcome`` is set by
    the table (not compared)."""

    kind: str
    piece: str
    rot: int = 0
    pos: tuple[float, float, float] = (0.0, 0.0, 0.0)
    push: tuple[float, float, float] = (0.0, 0.0, 0.0)
    outcome: Outcome | None = field(default=None, compare=False, hash=False)

    def intended(self) -> KataboomMove:
        """The same move without its measured outcome."""
        return KataboomMove(self.kind, self.piece, self.rot, self.pos, self.push)


@dataclass(frozen=True)
class Item:
    """A piece of the structure: ``name``, orientation ``rot``, ``intended`` minimum corner,
    settled ``pose``, ``seat`` who placed it (-1 for the starting model)."""

    name: str
    rot: int
    intended: tuple[float, float, float]
    pose: Pose
    seat: int


@dataclass(frozen=True)
class KataboomState:
    """Everything about a game: ``structure`` (starting model first), ``supply`` (pieces
    left), ``to_move``, ``nudged`` (nudges made this turn), ``turn`` (moves applied),
    ``history`` (move texts; ``moves`` the same as values, for the table), ``last_placer`` (seat of the last
    piece placed without a collapse), ``end`` (None while playing, else ``collapse``,
    ``supply`` or ``stuck``), ``loser`` (the seat that caused the collapse), ``fell``,
    ``rng`` (the stand-in judge's stream) and ``seed``."""

    config: KataboomConfig
    seed: int
    rng: Rng
    structure: tuple[Item, ...]
    supply: tuple[str, ...]
    to_move: int = 0
    nudged: int = 0
    turn: int = 0
    history: tuple[str, ...] = ()
    last_placer: int | None = None
    end: str | None = None
    loser: int | None = None
    fell: tuple[str, ...] = ()
    moves: tuple[KataboomMove, ...] = field(default=(), compare=False, repr=False)
    """The moves as played (intended), beside their texts in ``history``: the physics table
    rebuilds its world from these, never by parsing text."""
