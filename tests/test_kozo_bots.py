"""Kozo's greedy bot is stronger than random (issue 21: it lost 5 of 20 on the stand-in table,
by placing its biggest piece anywhere, unsupported ones too)."""

from __future__ import annotations

import pytest

from tablesim.games.balance import balance
from tablesim.games.kozo.bots import GreedyBot, margins
from tablesim.games.kozo.state import PLACE, TAKE
from tablesim.games.registry import get_game

GAME = get_game("kozo")


def test_greedy_places_supported_pieces_when_it_can() -> None:
    cfg = GAME.make_config({"table": "stand-in"}, players=2)
    for seed in range(2):
        bot = GreedyBot(GAME, seed)
        state = GAME.new_game(cfg, seed)
        while not GAME.is_terminal(state):
            moves = [m for m in GAME.legal_moves(state) if m.kind != TAKE]
            move = bot.choose(state)
            if move.kind == PLACE:
                margin = margins(state, tuple(moves))
                if any(v >= 0 for v in margin.values()):
                    assert margin[move] >= 0, (seed, state.turn, move)
            state = GAME.apply(state, move)


@pytest.mark.slow
def test_greedy_beats_random_over_100_games() -> None:
    # 95 of 100 measured (seed 0, stand-in table); random wins about a third of the time
    # against the old greedy (37 of 100).
    rep = balance("kozo", ["greedy", "random"], 100, 0, options={"table": "stand-in"})
    assert rep["wins"][0] >= 75
