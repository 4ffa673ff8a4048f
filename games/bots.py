"""Generic bots that work for every registered game."""

from __future__ import annotations

from typing import Any

from tablesim.games.core import Bot, GameError, M, S
from tablesim.games.rng import Rng


class RandomBot(Bot[S, M]):
    """Uniformly random legal move; the draw depends on the bot seed and the state digest."""

    name = "random"

    def choose(self, state: S) -> M:
        moves = self.game.legal_moves(state)
        if self.avoid:  # moves the table refused here (Bot.choose_avoiding)
            moves = tuple(m for m in moves if m not in self.avoid)
        if not moves:
            raise GameError("random bot asked to move in a state with no legal moves")
        rng = Rng.from_seed(self.seed, "random-bot", self.game.state_digest(state))
        move, _ = rng.choice(moves)
        return move


GENERIC_BOTS: dict[str, type[Bot[Any, Any]]] = {"random": RandomBot}
"""Bots for any game: their state and move types are the game's, unknown here."""
