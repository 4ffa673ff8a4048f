"""Kataboom bots. ``random`` is the generic one; ``careful`` plays placements that stand and
leave the next player few safe ones.

``careful`` never reads the table's noise stream. It ranks the legal placements by the pure
support margin (how far the piece's centre of mass sits inside its contact patches), keeps the
``2 * budget`` best (default budget 3) among the safe ones (margin at least :data:`SAFE`),
counts for each how many safe placements the next player would have on the structure it
leaves, and judges the ``budget`` with the fewest with an assessor: at a physics table the
referee's ``assess`` (a seeded ensemble of :data:`ASSESS_REPLICAS` runs of
:data:`ASSESS_SECONDS` s on the intended pose, replicas perturbed), with the stand-in judge its
exact probability. It plays the lowest judged collapse probability, then the fewest safe
replies, then the largest margin (stopping at the first candidate judged safe for sure).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tablesim.games._stacking import StackingBot
from tablesim.games.core import Bot, Game, GameError
from tablesim.games.kataboom.rules import UNSUPPORTED_RISK, Kataboom, count_safe
from tablesim.games.kataboom.state import Item, KataboomMove, KataboomState
from tablesim.games.rng import Rng

DEFAULT_CANDIDATES = 3
SAFE = 0.3
"""Support margin (edges, 5.7 mm) from which the bots call a placement safe."""
ASSESS_REPLICAS = 2
ASSESS_SECONDS = 1.0


def _game(game: Game[KataboomState, KataboomMove, Any]) -> Kataboom:
    if not isinstance(game, Kataboom):
        raise GameError("kataboom bots play Kataboom only")
    return game


def after_intended(state: KataboomState, move: KataboomMove) -> KataboomState:
    """The state after ``move`` if every piece stayed at its intended pose (for planning)."""
    pose = (*move.pos, 0.0, 0.0, 0.0, 1.0)
    item = Item(move.piece, move.rot, move.pos, pose, state.to_move)
    return replace(
        state,
        structure=state.structure + (item,),
        supply=tuple(p for p in state.supply if p != move.piece),
        last_placer=state.to_move,
        to_move=(state.to_move + 1) % state.config.players,
    )


def safe_count(state: KataboomState) -> int:
    """How many candidate placements of ``state`` have a support margin of at least SAFE."""
    return count_safe(state, SAFE)


class CarefulBot(StackingBot[KataboomState, KataboomMove]):
    """Placements that stand, leaving the opponent few safe ones (see the module doc).

    ``candidates``: how many placements are judged per decision."""

    name = "careful"
    stream = "kataboom-careful"
    default_candidates = DEFAULT_CANDIDATES
    assess_replicas = ASSESS_REPLICAS
    assess_seconds = ASSESS_SECONDS

    def risk(self, state: KataboomState, move: KataboomMove, margin: float) -> float:
        """Judged collapse probability of ``move`` (intended pose, no hand noise)."""
        judged = self.table_risk(_game(self.game), state, move)
        if judged is None:
            return UNSUPPORTED_RISK if margin < 0 else state.config.stand_in_risk
        return judged

    def choose(self, state: KataboomState) -> KataboomMove:
        game = _game(self.game)
        margins = game.placement_margins(state)
        if self.avoid:  # placements the table refused here (Bot.choose_avoiding)
            margins = {m: g for m, g in margins.items() if m not in self.avoid}
        if not margins or state.end is not None:
            raise GameError("careful bot asked to move in a finished game")
        rng = Rng.from_seed(self.seed, "kataboom-careful-order", game.state_digest(state))
        # A seeded shuffle breaks ties between equal margins without always the same piece.
        keys = {}
        for m in sorted(margins):
            u, rng = rng.random()
            keys[m] = u
        ranked = sorted(margins, key=lambda m: (-min(margins[m], 1.0), keys[m]))
        safe = [m for m in ranked if margins[m] >= SAFE] or ranked
        pool = safe[: 2 * self.candidates]
        replies = {m: safe_count(after_intended(state, m)) for m in pool}
        pool.sort(key=lambda m: (replies[m], -margins[m], keys[m]))
        best, best_key = pool[0], None
        for m in pool[: self.candidates]:
            key = (self.risk(state, m, margins[m]), replies[m], -margins[m], keys[m])
            if best_key is None or key < best_key:
                best, best_key = m, key
            if key[0] == 0.0:
                break
        return best


BOTS: dict[str, type[Bot[KataboomState, KataboomMove]]] = {"careful": CarefulBot}
