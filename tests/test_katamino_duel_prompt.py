"""A duel race's terminal prompt does not give the puzzle away (issue 33).

A race's legal moves are the placements the solver kept completable; a driver that typed the
first listed move every turn beat the smart bot 3-0 at expert. The prompt and ``moves`` now
list no placement (a ``hint`` costs 10 s), and ``help`` names the race's moves.
"""

from __future__ import annotations

import io

import pytest

from tablesim.games.katamino.duel import DUEL_GAME
from tablesim.games.katamino.duel_cards import piece
from tablesim.games.katamino.solo import cell_text
from tablesim.games.registry import get_game
from tablesim.games.terminal import Resignation, TerminalHuman


@pytest.mark.parametrize(("mode", "seed"), [("duel", 4), ("duel3d", 1)])
def test_the_race_prompt_lists_no_solver_checked_placement(mode: str, seed: int) -> None:
    game = get_game("katamino")
    values = {"mode": mode, "level": "expert"} if mode == "duel" else {"mode": mode}
    state = game.new_game(game.make_config(values, players=2), seed)
    while game.legal_moves(state)[0].kind_name != "place":  # through a 3D draft, say
        state = game.apply(state, game.legal_moves(state)[0])
    placements = [game.format_move(state, m) for m in game.legal_moves(state)]
    assert placements and all(p.startswith("place ") for p in placements)
    out = io.StringIO()
    human = TerminalHuman(game, io.StringIO("help\nmoves\nquit\n"), out)
    with pytest.raises(Resignation):
        human.choose(state)
    text = out.getvalue()
    # help's example lays the first piece in hand as catalogued at the corner: the same on
    # every board, so not a hint even where it happens to be a listed placement
    n = sorted(DUEL_GAME.remaining(state.seats[game.current_player(state)]))[0]
    dims = 3 if mode == "duel3d" else 2
    shape = f"place {n} " + " ".join(cell_text(c, dims) for c in sorted(piece(n).cells))
    for p in placements:
        assert p == shape or p not in text
    # the examples name a piece in the mover's hand (issue 33: they named 3)
    for word in (f"rotate {n}", f"flip {n}", f"place {n} at b2", "hint", "+10 s", "undo"):
        assert word in text
    assert "bots' moves" not in text  # a race's undo is the game's own, timed move
    assert ("b2:3" in text) == (mode == "duel3d")


@pytest.mark.parametrize(("card", "seat"), [("normal-1A", 0), ("normal-1A~", 1)])
@pytest.mark.parametrize("mover", [0, 1])
def test_an_exact_clock_tie_goes_to_the_printed_first_half_not_to_seat_0(
    card: str, seat: int, mover: int
) -> None:
    # Issue 33: equal finishing clocks went to the seat the play order let finish first,
    # always seat 0 (smart vs smart, normal deck: 14 of 24 sides, 58.3 %, through ties on 1A
    # and 5A). Both ways round, each seat now wins one of a side's two ties.
    from dataclasses import replace

    from tablesim.games.katamino.duel import DUEL_GAME

    game = get_game("katamino")
    state = game.new_game(game.make_config({"mode": "duel", "level": "normal"}, players=2), 0)
    state = replace(state, card=card)  # the tie rule reads the side's id and the clocks
    seats = tuple(replace(p, clock=31.5, done=31.5) for p in state.seats)
    tied = replace(state, seats=seats)
    assert DUEL_GAME._race_winner(tied, mover) == seat
    # not a tie: the lower clock wins, whoever moved
    seats = (replace(seats[0], done=31.4, clock=31.4), seats[1])
    assert DUEL_GAME._race_winner(replace(state, seats=seats), mover) == 0


@pytest.mark.slow
def test_equal_smart_bots_split_the_normal_deck_evenly() -> None:
    # Exact over the deck (24 sides, each both ways round): 30 s CPU.
    from tablesim.games.katamino.duel_fairness import deck_figures

    f = deck_figures("duel", "normal")
    assert 0.45 <= f.smart <= 0.55
    assert 0.45 <= f.random <= 0.55  # and two random bots (issue 33: every mode, 45-55 %)
