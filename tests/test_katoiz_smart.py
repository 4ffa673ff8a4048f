"""The Katoiz smart bot in 3-set never throws a turn away (issue 21: 158 voluntary passes in
60 games, a game over after 7 turns with no 3-set)."""

from __future__ import annotations

from tablesim.games.bots import RandomBot
from tablesim.games.katoiz import GAME
from tablesim.games.katoiz.bots import SmartBot


def test_smart_never_passes_while_it_can_place_or_move() -> None:
    for level in (1, 2):
        cfg = GAME.make_config({"type": "3-set", "level": level}, players=2)
        for seed in range(8):
            me = seed % 2
            bots = {me: SmartBot(GAME, seed), 1 - me: RandomBot(GAME, seed + 100)}
            state = GAME.new_game(cfg, seed)
            while not GAME.is_terminal(state):
                move = bots[state.seat].choose(state)
                if state.seat == me:
                    acting = [m for m in GAME.legal_moves(state) if m.kind != "pass"]
                    assert move.kind != "pass" or not acting, (level, seed, state.turn)
                state = GAME.apply(state, move)
