"""The Kozo and Kataboom tables judge a release in the solver ``simulate`` would (issue 31).

``simulate`` runs a tower whose rigid statics has a thin tilt margin (or a heavy piece on a
light one, or a piece in the air) in the direct solver; a table that stayed in Gauss-Seidel
toppled what ``simulate`` holds. The case: the counterweighted beam of
``sim/experiments/table_agreement.py`` (an upright 3I, a 2a across it at offset c, an upright
2b on its end), whose effective margin is (c - 1/4) a - 0.1 mm by hand: 0.226 mm at
c = 0.2683 (a = 17.8 mm). Statics says it stands; so does ``simulate`` (docs/architecture.md,
"The Kozo table against simulate").
"""

from __future__ import annotations

import pytest

from tablesim.games.kataboom.rules import GAME as KATABOOM
from tablesim.games.kozo import GAME
from tablesim.sim.experiments import table_agreement as ta
from tablesim.sim.slices.kozo.referee import KozoReferee

C = 0.2683


def test_the_beam_margin_by_hand() -> None:
    assert ta.beam_margin_mm(C) == pytest.approx((C - 0.25) * 17.8 - 0.1, abs=1e-9)


def test_an_escalating_table_holds_the_thin_beam_that_gauss_seidel_drops() -> None:
    moves = ta.beam_moves(C)
    table, _, _, _, _ = ta.play_at_table(moves, ta.table_config(escalate=True))
    assert table == "stands"  # as statics and simulate say
    old, fell, _, _, _ = ta.play_at_table(moves, ta.table_config(escalate=False))
    assert old == "topples" and fell  # the table before it escalated (logs without the key)


@pytest.mark.slow
def test_the_escalated_round_is_measured_again_bit_for_bit() -> None:
    """A table asked about the last move of a logged round rebuilds the round from its moves
    (a replay) and measures that move to the same poses, bit for bit."""
    cfg = ta.table_config(escalate=True)
    *before, last = ta.beam_moves(C)
    state = GAME.new_game(cfg, 1)
    with KozoReferee(cfg, 1) as first:
        for mv in before:
            state = GAME.apply(state, first.measure(state, mv))
        made = first.measure(state, last)
        assert first.escalations >= 1
    with KozoReferee(cfg, 1) as second:
        again = second.measure(state, last)
        assert second.rebuilds == 1
    assert again.outcome == made.outcome


def test_old_logs_never_escalate_and_new_games_say_they_do() -> None:
    for game in (GAME, KATABOOM):
        new = game.make_config({}, players=2)
        assert new.escalate and game.config_to_json(new)["escalate"] is True
        touch_log = game.config_from_json({"players": 2, "release": "touch", "refuse": True})
        assert touch_log.escalate is False  # a log from before the key: Gauss-Seidel
        assert "escalate" not in game.config_to_json(touch_log)
        lift = game.make_config({"release": "lift"}, players=2)
        assert "escalate" not in game.config_to_json(lift)  # the first tables: as they were
