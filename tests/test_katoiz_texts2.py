"""Katoiz texts (issue 33): Stapeltoren levels 1-2 name neither a winner nor a draw, a solo game
never names a winner, every move with dice says the roll it answers, help explains tile codes."""

from __future__ import annotations

import pytest

from tablesim.games.katoiz.components import COLOURS, SHAPES, SIZES, roll_text
from tablesim.games.session import Session


@pytest.mark.parametrize("level", [1, 2])
def test_stapeltoren_levels_1_2_name_no_winner_and_no_draw(level: int) -> None:
    for seed in range(4):
        with Session.new("katoiz", ["smart", "random"], seed,
                         options={"type": "stapeltoren", "level": level}) as s:  # fmt: skip
            result = s.run()
        assert result.winners == ()
        # the rulebook's words, so the terminal prints them instead of "draw"
        assert "Naming a winner is not necessary at this age" in result.detail["outcome"]


@pytest.mark.parametrize("level", [3, 5])
def test_a_solo_stapeltoren_names_no_winner(level: int) -> None:
    for seed in range(4):
        with Session.new("katoiz", ["smart"], seed,
                         options={"type": "stapeltoren", "level": level}) as s:  # fmt: skip
            result = s.run()
        assert result.winners == () and "solo" in result.detail["outcome"]


@pytest.mark.parametrize("kind", ["3-set", "stapeltje", "stapeltoren"])
def test_every_move_with_dice_says_the_roll(kind: str) -> None:
    options = {"type": kind} if kind != "stapeltoren" else {"type": kind, "level": 5}
    with Session.new("katoiz", ["smart", "random"], 7, options=options) as s:
        s.max_turns = 60
        seen = 0
        while not s.over and s.turns < 40:
            state = s.state
            move = s.bot_move()
            text = s.game.describe_move(state, move)
            roll = getattr(state, "roll", None)
            head = f"P{state.seat + 1}" + ("" if roll is None else f" rolled {roll_text(roll)}")
            assert text.startswith(head + ": " + s.game.format_move(state, move)), text
            seen += roll is not None
            s.play(move)
    assert seen > 0


def test_help_explains_every_tile_code_letter() -> None:
    with Session.new("katoiz", ["human", "random"], 1) as s:
        line = " ".join(s.game.move_help(s.state))  # type: ignore[attr-defined]
    for letter, name in [("Y", "yellow"), ("G", "green"), ("W", "white"), ("R", "red"),
                         ("B", "blue"), ("O", "round"), ("S", "square"), ("T", "triangle"),
                         ("L", "large"), ("S", "small")]:  # fmt: skip
        assert f"{letter} {name}" in line
    assert len(COLOURS) == 5 and len(SHAPES) == 3 and len(SIZES) == 2
    assert "ROL: red round large" in line
