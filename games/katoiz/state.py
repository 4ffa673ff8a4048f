"""What every Katoiz position has, whatever its game type: the state type of the game.

Each game type keeps its own frozen position (:class:`tablesim.games.katoiz.stapeltoren.TorenState`,
:class:`tablesim.games.katoiz.threeset.SetState`, :class:`tablesim.games.katoiz.stapeltje.StapelState`);
:class:`KatoizState` is what they share, so the registered game
(:class:`tablesim.games.katoiz.game.Katoiz`) is a ``Game[KatoizState, Move, KatoizConfig]``.
A position's class always follows its config's ``type`` (the variant that made it).
"""

from __future__ import annotations

from typing import Protocol

from tablesim.games.katoiz.components import Move
from tablesim.games.katoiz.config import KatoizConfig
from tablesim.games.rng import Rng

__all__ = ["KatoizState"]


class KatoizState(Protocol):
    """A Katoiz position of any game type (read-only: positions are frozen)."""

    @property
    def config(self) -> KatoizConfig:
        """The game's config (its ``type`` names the position's class)."""
        ...

    @property
    def rng(self) -> Rng:
        """The position's random stream (the dice)."""
        ...

    @property
    def roll(self) -> tuple[int, int] | None:
        """The current dice (colour face, picture face or -1), None when none are rolled."""
        ...

    @property
    def seat(self) -> int:
        """The seat to move (also after the end)."""
        ...

    @property
    def turn(self) -> int:
        """Turns played."""
        ...

    @property
    def moves(self) -> tuple[Move, ...]:
        """The legal moves (computed once per position)."""
        ...
