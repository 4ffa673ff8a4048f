"""What the ``katamino`` game asks of each of its mode families.

A *family* is a whole :class:`tablesim.games.core.Game` for a group of modes (the solo puzzles of
:mod:`tablesim.games.katamino.solo`, the duels of :mod:`tablesim.games.katamino.duel`); the registered game
(:mod:`tablesim.games.katamino.game`) keeps them in a :class:`tablesim.games.variants.VariantRegistry` by mode
and forwards every call to the family of the config's or state's ``mode``.

Contract: a family declares an ``Option("mode", "str", ..., choices=its modes)`` among its
options, gives its config and state a ``mode`` attribute (:class:`ModeConfig`,
:class:`ModeState`; its moves meet :class:`ModeMove`), writes ``"mode"`` in
``config_to_json`` and ``state_to_json``, and returns its bots (a ``smart`` one among them)
from :meth:`ModeFamily.bots`.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from typing import Generic, Protocol, TypeVar

from tablesim.games.core import Bot, Game
from tablesim.games.polycubes import Cells


class ModeConfig(Protocol):
    """What every family's config has: the mode it plays and the seats."""

    @property
    def mode(self) -> str:
        """The mode (a key of :data:`tablesim.games.katamino.game.MODES`)."""
        ...

    @property
    def players(self) -> int:
        """The number of seats."""
        ...


class ModeState(Protocol):
    """What every family's state has: its mode (which routes each rule to the family), the
    turn and the last move's note."""

    @property
    def mode(self) -> str:
        """The mode being played."""
        ...

    @property
    def turn(self) -> int:
        """Moves played so far."""
        ...

    @property
    def note(self) -> str:
        """What the last move did, in words (``""`` when nothing to say)."""
        ...


class ModeMove(Protocol):
    """What every family's move has: a kind (an index into the family's kinds, named by
    ``kind_name``), and for gifts and placements a piece and its cells."""

    @property
    def kind(self) -> int:
        """The kind's index."""
        ...

    @property
    def piece(self) -> str:
        """The piece given or placed (``""`` for other kinds)."""
        ...

    @property
    def cells(self) -> Cells:
        """A placement's cells (``()`` for other kinds)."""
        ...

    @property
    def kind_name(self) -> str:
        """The kind's name (``place``, ``undo``, ...)."""
        ...


S = TypeVar("S", bound=ModeState)
M = TypeVar("M", bound=ModeMove)
C = TypeVar("C", bound=ModeConfig)


class ModeFamily(Game[S, M, C], Generic[S, M, C]):
    """A Katamino mode family: a Game for some modes, with its bots and its timing hook; its
    state, move and config types meet :class:`ModeState`, :class:`ModeMove` and
    :class:`ModeConfig` (the registered game's own, :mod:`tablesim.games.katamino.game`)."""

    @abstractmethod
    def bots(self) -> Mapping[str, type[Bot[S, M]]]:
        """This family's own bots by name (``smart`` among them)."""

    def stamp_seconds(self, state: S, move: M, seconds: float) -> M:
        """``move`` with the seconds a front end measured for a person, in families that time
        moves (the duel races); this default, for families that do not, returns it as is."""
        return move

    def prompt_listing(self, state: S) -> str | None:
        """What a person's prompt lists instead of the legal moves (None: the legal moves)."""
        return None

    def undo_help(self, state: S) -> str:
        """What ``undo`` does here, for ``help``'s commands line: the family reads ``undo``
        as its own move, so the play loop's take-back (with the bots' moves) never runs."""
        return "take back the last piece placed"

    def help_lines(self, state: S) -> list[str]:
        """This family's own lines for the terminal's ``help`` (shown with a prompt listing)."""
        return []
