"""Duel bots. ``smart``: gives the piece that leaves the opponent the fewest solutions, takes
the replacement that leaves itself the most, and solves by the sensible placements (its
speed is its seat's ``--speed`` level, as for every player). The generic ``random`` bot of
``games.bots`` gives and places at random among the legal moves.
"""

from __future__ import annotations

from functools import cache

from games.core import Bot
from games.katamino import Target, solve_count
from games.katamino.duel import DRAFT, DUEL_GAME, DuelMove, DuelState
from games.katamino.duel_cards import BOX3D, board, canonical, piece, score
from games.katamino.duel_race import all_placements


@cache
def solutions(target: str, key: tuple[str, ...]) -> int:
    """Number of solutions of a puzzle (cached by piece shapes)."""
    return solve_count(target, [piece(n) for n in key]).count


@cache
def box_placements(name: str) -> int:
    """Placements of a piece in the empty 2x3x5 box: few placements, an awkward piece."""
    t = Target.parse(BOX3D)
    return len(all_placements(t, frozenset(t.cell_set), name))


def gift_key(state: DuelState, move: DuelMove) -> tuple:
    """How good a gift is for the giver: smaller is better (fewest solutions for the
    receiver, then the highest difficulty score, then the name)."""
    giver = DUEL_GAME.current_player(state)
    assert giver is not None
    receiver = state.seats[1 - giver]
    pieces = (*receiver.pieces, move.piece)
    if state.phase == "give":
        target = board(receiver.size + 1)
    else:
        k = len(state.gifts)
        later = [i for i in range(k + 1, len(DRAFT)) if (i % 2 == 0) == (giver == state.first)]
        if later:  # the receiver's set is not complete yet: give the most awkward piece
            return (box_placements(move.piece), move.piece)
        card = DUEL_GAME.card_of(state)
        minis = card.challenges[state.duel][0 if 1 - giver == state.first else 1]  # type: ignore[union-attr]
        pieces = (*pieces, *minis)
        target = BOX3D
    key = canonical(pieces)
    s = score(target, key)
    return (solutions(target, key), -(s or 0.0), move.piece)


class SmartDuelBot(Bot):
    """Fewest solutions for the opponent when giving; most for itself when replacing."""

    name = "smart"

    def choose(self, state: DuelState) -> DuelMove:
        moves = DUEL_GAME.legal_moves(state)
        if state.phase in ("give", "draft"):
            return min(moves, key=lambda m: gift_key(state, m))
        if state.phase == "replace":
            me = state.seats[state.weaker]

            def mine(m: DuelMove) -> tuple:
                old, _, new = m.arg.partition("=")
                pieces = [n for n in me.pieces if n != old] + new.split("+")
                return (-solutions(board(me.size), canonical(pieces)), m.arg)

            return min(moves, key=mine)
        return moves[0]


BOTS: dict[str, type[Bot]] = {"smart": SmartDuelBot}
