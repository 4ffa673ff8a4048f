"""Slow Kataboom games at the physics table: careful against random, and many seeded games
that replay exactly (every sixth one is replayed from its log)."""

from __future__ import annotations

import pytest

from tablesim.games.kataboom import GAME
from tablesim.games.log import log_lines, parse_log
from tablesim.games.session import log_header, make_seats, play_game, replay_log

CAREFUL_GAMES = 20
SEEDED_GAMES = 200
"""Random-vs-random physics games (most end in a collapse within a few moves: about 0.8 s a
game here)."""

pytestmark = pytest.mark.slow


def test_careful_beats_random_in_at_least_70_percent_of_20_games() -> None:
    wins = 0
    for seed in range(CAREFUL_GAMES):
        cfg = GAME.make_config({"model": 1 + seed % 18}, players=2)
        roles = ["careful", "random"] if seed % 2 == 0 else ["random", "careful"]
        rec = play_game(GAME, cfg, make_seats("kataboom", roles, seed), seed)
        assert rec.result is not None
        wins += rec.result.winner == roles.index("careful")
    assert wins >= 0.7 * CAREFUL_GAMES, wins


def test_many_seeded_physics_games_replay_exactly() -> None:
    ends = set()
    for seed in range(SEEDED_GAMES):
        cfg = GAME.make_config({"model": 1 + seed % 18}, players=2 + seed % 2)
        seats = make_seats("kataboom", ["random"] * cfg.players, seed)
        rec = play_game(GAME, cfg, seats, seed)
        assert rec.result is not None
        ends.add(rec.result.detail["end"])
        if seed % 6 == 0:
            header = log_header(GAME, cfg, seed, seats, "test")
            report = replay_log(parse_log(log_lines(header, rec)))
            assert report.ok, report.message
    assert "collapse" in ends
