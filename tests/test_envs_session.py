"""The environments play through :class:`tablesim.games.session.Session`, the one move loop: every
step is measured, applied and recorded with its digest, so an environment's game is a log
that ``replay_log`` reproduces move for move."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo")

from tablesim.envs.core import Match  # noqa: E402
from tablesim.games.log import parse_log  # noqa: E402
from tablesim.games.session import replay_log  # noqa: E402


@pytest.mark.parametrize("game", ["catego", "kaito", "katoiz"])
def test_an_environment_game_is_a_log_that_replays(game: str) -> None:
    m = Match(game, {})
    m.reset(seed=11)
    pick = random.Random(5)
    steps = 0
    while not m.terminal() and steps < 40:
        m.play(pick.choice(m.legal_actions))
        steps += 1
    assert m.session is not None and m.session.turns == steps
    assert [p.n for p in m.session.played] == list(range(1, steps + 1))
    report = replay_log(parse_log(m.session.log_lines("test")))
    assert report.ok, report.message
    assert report.moves_checked == steps
    m.close_referee()
