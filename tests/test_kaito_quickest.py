"""The Kaito strong bot takes the quickest win (its docstring's promise; issue 33).

A forced-move extension proved a slower win at depth 1 and iterative deepening stopped there.
The winning lines are checked here by a brute-force search over the game's own rules
(``GAME.apply``), independent of the bot's search.
"""

from __future__ import annotations

from typing import Any

import pytest

from tablesim.games.kaito import GAME
from tablesim.games.kaito.strong import StrongBot

# Found by playing seeded strong-vs-strong games (seed 1264, turn 31) and checking each
# position by brute force: black to move, the kaito on a4.
POSITION = (
    '{"board":[null,null,null,null,null,null,null,null,null,null,null,null,"BH",null,null,null,'
    'null,null,"RH",null,"R1",null,null,null,null,null,null,null,"BH",null,null,null,"RS","BS",'
    '"B1","RH"],"config":{"end_check":"turn-end","movement":"pass","players":2},"game":"kaito",'
    '"held":[["BH","BS","BS","BS","BS","BS"],["R1","RH","RS","RS"]],"kaito":"a4","player":1,'
    '"rng":"80a2b7a87b1ee5f9","turn":31,"version":1}'
)


def won(state: Any, me: int) -> bool:
    return GAME.is_terminal(state) and GAME.result(state).winners == (me,)


def wins_within(state: Any, n: int, me: int) -> bool:
    """Whether ``me``, to move, wins within ``n`` of its own moves against every reply."""
    for move in GAME.legal_moves(state):
        after = GAME.apply(state, move)
        if won(after, me):
            return True
        if n > 1 and not GAME.is_terminal(after):
            replies = [GAME.apply(after, r) for r in GAME.legal_moves(after)]
            if all(
                won(r, me) or (not GAME.is_terminal(r) and wins_within(r, n - 1, me))
                for r in replies
            ):
                return True
    return False


def quickest(state: Any) -> tuple[int, set[str]]:
    me = GAME.current_player(state)
    for n in (1, 2, 3):
        good = set()
        for move in GAME.legal_moves(state):
            after = GAME.apply(state, move)
            if won(after, me):
                good.add(GAME.format_move(state, move))
            elif n > 1 and not GAME.is_terminal(after):
                replies = [GAME.apply(after, r) for r in GAME.legal_moves(after)]
                if all(
                    won(r, me) or (not GAME.is_terminal(r) and wins_within(r, n - 1, me))
                    for r in replies
                ):
                    good.add(GAME.format_move(state, move))
        if good:
            return n, good
    return 0, set()


def test_the_position_has_a_win_in_two_and_the_bots_old_move_is_slower() -> None:
    state = GAME.state_from_text(POSITION)
    n, good = quickest(state)
    assert (n, good) == (2, {"a4-c4"})


@pytest.mark.parametrize("budget", [None, 300, 3000, 30000])
@pytest.mark.parametrize("seed", range(3))
def test_strong_plays_the_quickest_win(seed: int, budget: int | None) -> None:
    # Before the fix: a4-a3 (a slower win) at every seed and budget.
    state = GAME.state_from_text(POSITION)
    move = StrongBot(GAME, seed, budget=budget).choose(state)
    assert GAME.format_move(state, move) == "a4-c4"
