"""A duel race's terminal prompt does not give the puzzle away (issue 33).

A race's legal moves are the placements the solver kept completable; a driver that typed the
first listed move every turn beat the smart bot 3-0 at expert. The prompt and ``moves`` now
list no placement (a ``hint`` costs 10 s), and ``help`` names the race's moves.
"""

from __future__ import annotations

import io

import pytest

from games.play import Resignation, TerminalHuman
from games.registry import get_game


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
    for p in placements:
        assert p not in text
    for word in ("rotate 3", "flip 3", "place 3 at b2", "hint", "+10 s", "undo"):
        assert word in text
    assert ("b2:3" in text) == (mode == "duel3d")
