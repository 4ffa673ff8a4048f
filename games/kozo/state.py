"""Kozo values: config, moves and their measured outcomes, placed items, the state.

All are frozen; poses are tuples of floats in the grid frame of :mod:`tablesim.games.kozo.blocks`
(cube edges). A *measured* move carries an :class:`Outcome`: what the table (physics, or the
seeded stand-in judge) saw while the move was made. Two moves that differ only in their outcome
are equal (the outcome is not part of the move's identity or its text), so a measured move is
found in ``legal_moves`` and formats to the same text as the intended move.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tablesim.games._stacking import Outcome as Outcome  # shared with Kataboom
from tablesim.games._stacking import Pose as Pose
from tablesim.games.polycubes import BALANCE_CUBE_MM, KOZO_CUBE_MM
from tablesim.games.rng import Rng

TAKE, PLACE, CUBE, NOCUBE = "take", "place", "cube", "nocube"
MOVE_KINDS = (CUBE, NOCUBE, PLACE, TAKE)


@dataclass(frozen=True)
class KozoConfig:
    """Validated options (see ``Kozo.options`` for their meaning)."""

    players: int
    rounds: int = 3
    catalogue: str = "kozo-standard"
    table: str = "physics"
    tolerance: float = 0.1
    cover: float = 0.0
    balance_fall: str = "topple"
    tie: str = "later"
    face_down: bool = False
    solo: bool = False
    coop: bool = False
    stand_in_risk: float = 0.03
    cube_mm: float = KOZO_CUBE_MM
    balance_mm: float = BALANCE_CUBE_MM
    hand_mm: float = 1.0
    hand_deg: float = 1.0
    lift_mm: float = 0.3
    release: str = "touch"
    refuse: bool = True
    escalate: bool = True
    hold_s: float = 0.5
    window_s: float = 5.0
    bot_place_s: float = 6.0

    @property
    def balance_edge(self) -> float:
        """Balance cube edge in Kozo cube edges (10.2 / 17.8 = 0.573 by default)."""
        return self.balance_mm / self.cube_mm

    @property
    def team(self) -> bool:
        """True when everyone plays together against the tower (solo or cooperative)."""
        return self.solo or self.coop


@dataclass(frozen=True, order=True)
class KozoMove:
    """One move: ``take`` a piece (touch-move), ``place`` a polycube (``piece``, rotation index
    ``rot``, minimum corner ``pos``), put the balance ``cube`` (bottom-face centre ``pos``), or
    ``nocube`` when no spot is legal. ``outcome`` is set by the table (not compared).

    ``secs`` (place moves only, not compared): the player's time to place, seconds from the end
    of the previous turn to letting the polycube go (a person's real seconds stamped by the
    front end, a bot's seeded draw); None, as in logs written before it existed, is the old
    default: the placement starts the moment the previous turn's window ends (``window_s``)."""

    kind: str
    piece: str = ""
    rot: int = 0
    pos: tuple[float, float, float] = (0.0, 0.0, 0.0)
    outcome: Outcome | None = field(default=None, compare=False, hash=False)
    secs: float | None = field(default=None, compare=False, hash=False)

    def intended(self) -> KozoMove:
        """The same move without its measured outcome (its time to place kept: the player's)."""
        return KozoMove(self.kind, self.piece, self.rot, self.pos, secs=self.secs)


@dataclass(frozen=True)
class Item:
    """A piece on the tower: ``name`` (a polycube of the catalogue, or ``b1``.. for balance
    cubes), ``rot`` (orientation index; -1 for a balance cube), ``intended`` pose position
    (minimum corner of a polycube, bottom centre of a balance cube), ``pose`` as settled,
    ``seat`` who placed it."""

    name: str
    rot: int
    intended: tuple[float, float, float]
    pose: Pose
    seat: int

    @property
    def is_balance(self) -> bool:
        """True for a balance cube."""
        return self.rot < 0


@dataclass(frozen=True)
class RoundRecord:
    """How a finished round went: ``points`` per seat as scored (the toppler's set to 0),
    ``earned`` per seat before any loss, ``reason`` (``topple``, ``supply``, ``stuck``),
    ``toppler`` (seat, or None), ``fell`` (names)."""

    points: tuple[int, ...]
    earned: tuple[int, ...]
    reason: str
    toppler: int | None = None
    fell: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        """The record as JSON (the state's ``rounds`` and the result's per-round account)."""
        return {
            "points": list(self.points),
            "earned": list(self.earned),
            "reason": self.reason,
            "toppler": self.toppler,
            "fell": list(self.fell),
        }


@dataclass(frozen=True)
class KozoState:
    """Everything about a game of Kozo.

    ``round`` (1-based) and ``start`` (its start player); ``to_move``; ``phase`` (``place`` or
    ``cube``); ``touched`` (the piece taken but not placed yet); ``supply`` (piece names left
    this round); ``tower`` (items in placement order); ``earned`` (tile points taken this round
    per seat); ``rounds`` (finished rounds); ``turn`` (moves applied in the game); ``history``
    (move texts of this round; ``moves`` the same moves as values, for the table);
    ``next_size`` (face-down variant: the size the turned tile demands); ``last`` (seat of the last mover of the game, for ties);
    ``rng`` (the stand-in judge's and the tiles' stream); ``seed`` (the game seed).
    """

    config: KozoConfig
    seed: int
    rng: Rng
    round: int
    start: int
    to_move: int
    phase: str
    supply: tuple[str, ...]
    tower: tuple[Item, ...] = ()
    earned: tuple[int, ...] = ()
    rounds: tuple[RoundRecord, ...] = ()
    touched: str | None = None
    turn: int = 0
    history: tuple[str, ...] = ()
    next_size: int | None = None
    last_move_turn: tuple[int, ...] = ()
    over: bool = False
    moves: tuple[KozoMove, ...] = field(default=(), compare=False, repr=False)
    """The round's moves as played (intended, each with its time to place), beside their
    texts in ``history``: the physics table rebuilds its world from these, never by parsing
    text (``history`` stays the logged, digested form)."""
