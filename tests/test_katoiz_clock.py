"""Stapeltje's clock counts a person's real seconds (issue 33: "a clock is used (a chess
clock or, with more than two players, a number of identical kitchen timers)"; a person who
thought 15 s was charged 5 s plus 2 s per square, thinking time never counted)."""

from __future__ import annotations

import io

import pytest

from tablesim.games.core import IllegalMoveError
from tablesim.games.katoiz import GAME
from tablesim.games.katoiz.components import Move
from tablesim.games.terminal import TerminalHuman


def _state(level: int = 4):
    cfg = GAME.make_config({"type": "stapeltje", "level": level}, players=2)
    return GAME.new_game(cfg, 1)


def _first_move(state) -> Move:
    return next(m for m in GAME.legal_moves(state) if m.kind == "move")


def test_a_person_pays_the_seconds_they_took() -> None:
    state = _state()
    before = state.clocks[state.seat]
    stamped = GAME.stamp_seconds(state, _first_move(state), 14.6)
    assert stamped.secs == 15  # whole seconds, as the clocks count
    after = GAME.apply(state, stamped)
    assert after.clocks[state.seat] == before - 15
    assert after.clocks[1 - state.seat] == state.clocks[1 - state.seat]


def test_the_stamped_move_is_written_and_read_back_for_replay() -> None:
    state = _state()
    stamped = GAME.stamp_seconds(state, _first_move(state), 9.2)
    text = GAME.format_move(state, stamped)
    assert text.endswith(" @9")
    again = GAME.parse_move(state, text)
    assert again == stamped
    assert GAME.state_to_json(GAME.apply(state, again)) == GAME.state_to_json(
        GAME.apply(state, stamped)
    )


def test_the_terminal_stamps_the_seconds_since_the_position_was_shown() -> None:
    state = _state()
    text = GAME.format_move(state, _first_move(state))
    times = iter([100.0, 123.4])
    human = TerminalHuman(GAME, io.StringIO(text + "\n"), io.StringIO(), clock=lambda: next(times))
    move = human.choose(state)
    assert move.secs == 23
    assert GAME.apply(state, move).clocks[state.seat] == state.clocks[state.seat] - 23


def test_no_clock_no_stamp_and_passes_keep_their_simulated_cost() -> None:
    plain = _state(level=1)
    m = _first_move(plain)
    assert GAME.stamp_seconds(plain, m, 30.0) == m
    with pytest.raises(IllegalMoveError, match="@SECS"):
        GAME.apply(plain, GAME.parse_move(plain, GAME.format_move(plain, m) + " @3"))
    # a pass is played for a blocked person (forced_move): not stamped
    assert GAME.stamp_seconds(_state(), Move("pass"), 8.0) == Move("pass")
