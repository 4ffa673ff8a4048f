"""Duel bots. ``smart``: gives the piece that leaves the opponent the fewest solutions, takes
the replacement that leaves itself the most, and races by solving its puzzle with the solver
before its first piece, then laying the solution's pieces (most constrained cell first). Its
moves carry their time on the *search* clock (``tablesim.games.katamino.duel_race``): ``HANDLE`` a piece
at its seat's ``--speed``, plus the solver's nodes to its first solution at ``RATE`` nodes a
second on the move that needed the search. The generic ``random`` bot of ``tablesim.games.bots`` gives
and places at random among the legal moves; it does no search of its own (the legal list
already holds only placements after which the board can be completed), so its moves carry no
time and the rules' *level* clock, a reference player of its speed, times them.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from tablesim.games.core import Bot
from tablesim.games.katamino import Problem, Target, difficulty, solve_count, solve_one
from tablesim.games.katamino.duel import DRAFT, DUEL_GAME, KINDS, DuelMove, DuelState
from tablesim.games.katamino.duel_cards import BOX3D, board, canonical, measure, piece, score
from tablesim.games.katamino.duel_race import (
    Placement,
    all_placements,
    handle_secs,
    most_constrained,
    shape_key,
    think_seconds,
)


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


@cache
def solution_plan(spec: str, key: tuple[str, ...], covered: frozenset
                  ) -> tuple[tuple[Placement, ...], int]:  # fmt: skip
    """The solver's first completion of a board (``covered`` cells taken) by the pieces
    ``key``, as placements, and the search nodes it tried (``nodes_to_first``)."""
    target = Target.parse(spec)
    pieces = [piece(n) for n in key]
    if not covered:
        sol, nodes = solve_one(target, pieces), measure(spec, key).nodes_to_first
    else:
        problem = Problem(target, pieces, blocked=covered)
        sol, nodes = solve_one(problem), difficulty(problem).nodes_to_first
    if sol is None:
        return (), nodes
    return tuple((pp.name, tuple(sorted(pp.cells))) for pp in sol.pieces), nodes


def _on_plan(placed: tuple[Placement, ...], plan: tuple[Placement, ...]) -> bool:
    """Is every placed piece one of the plan's (same shape, same cells)?"""
    want = {(shape_key(n), cells) for n, cells in plan}
    return all((shape_key(n), tuple(sorted(cells))) in want for n, cells in placed)


def race_move(state: DuelState) -> DuelMove:
    """The smart bot's race move with its seconds on the search clock: the piece of its
    solution on the most constrained empty cell (HANDLE, plus the search's thinking when the
    solution had to be found: on an empty board, or off its plan), undo on a stuck board."""
    game = DUEL_GAME
    seat = game.current_player(state)
    assert seat is not None
    p = state.seats[seat]
    speed = state.speeds[seat]
    moves = game.legal_moves(state)
    if moves == (DuelMove(KINDS.index("undo")),):
        return replace(moves[0], secs=round(handle_secs(speed), 1))
    spec = game.target(p)
    thinking = 0
    plan, nodes = solution_plan(spec, canonical(p.pieces), frozenset())
    if not p.placed:
        thinking = nodes
    elif not _on_plan(p.placed, plan):
        plan, thinking = solution_plan(spec, canonical(game.remaining(p)), game.covered(p))
    target = Target.parse(spec)
    free = frozenset(target.cell_set - game.covered(p))
    cell = most_constrained(target, free, game.remaining(p))
    done = {(shape_key(n), tuple(sorted(c))) for n, c in p.placed}
    todo = [(n, c) for n, c in plan if (shape_key(n), c) not in done]
    name, cells = next(((n, c) for n, c in todo if cell in c), todo[0] if todo else ("", ()))
    move = next((m for m in moves if m.cells == cells and shape_key(m.piece) == shape_key(name)),
                moves[0])  # fmt: skip
    return replace(move, secs=round(handle_secs(speed) + think_seconds(thinking, speed), 1))


class SmartDuelBot(Bot[DuelState, DuelMove]):
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
        return race_move(state)


BOTS: dict[str, type[Bot[DuelState, DuelMove]]] = {"smart": SmartDuelBot}
