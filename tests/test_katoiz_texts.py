"""Katoiz terminal texts a family can follow (issue 33)."""

from __future__ import annotations

import pytest

from tablesim.games.core import IllegalMoveError
from tablesim.games.katoiz import GAME
from tablesim.games.katoiz.components import Move, tile_code


def test_an_illegal_stapeltoren_move_is_written_as_the_game_writes_moves() -> None:
    # Issue 33: "Move(kind='add', tile=0, src=-1, dst=0, rem=-1)" was printed.
    state = GAME.new_game(GAME.make_config({"type": "stapeltoren", "level": 1}, players=2), 0)
    with pytest.raises(IllegalMoveError) as err:
        GAME.apply(state, Move("add", 0, dst=0))
    assert "Move(" not in str(err.value)
    assert f"'{tile_code(0)} on 1'" in str(err.value)


def test_the_stapeltje_board_says_how_its_clock_works() -> None:
    cfg = GAME.make_config({"type": "stapeltje", "level": 4}, players=2)
    text = GAME.describe(GAME.new_game(cfg, 0))
    # issue 32: the window charges a person's real seconds too (docs/view-tiles.md)
    assert "a person's turn (at the terminal or in the window) costs the seconds it " in text
    assert "really takes; a bot's turn 5 s plus 2 s per square" in text


def test_a_forced_pass_is_played_for_a_person() -> None:
    # Issue 33: a blocked person typed 'pass' 113 times in one level-1 game.
    import io
    from dataclasses import replace

    from tablesim.games.terminal import TerminalHuman

    cfg = GAME.make_config({"type": "stapeltje", "level": 1}, players=2)
    state = GAME.new_game(cfg, 0)
    cells = tuple(() for _ in state.stacks)  # an empty board: nothing can move
    blocked = replace(state, stacks=cells)
    out = io.StringIO()
    move = TerminalHuman(GAME, io.StringIO(""), out).choose(blocked)  # reads no input
    assert move == Move("pass")
    assert "is played for you" in out.getvalue()
    assert GAME.forced_move(state) is None and len(GAME.legal_moves(state)) > 1


_WORDS = (
    dict(zip("YGWRB", ("yellow", "green", "white", "red", "blue"), strict=True)),
    dict(zip("OST", ("round", "square", "triangle"), strict=True)),
    dict(zip("LS", ("large", "small"), strict=True)),
)
"""The help's legend (docs/rules/katoiz.md): colour, shape, size letters in words."""


def _said_match(code: str, top: str) -> str:
    return ", ".join(_WORDS[k][a] for k, (a, b) in enumerate(zip(code, top, strict=True))
                     if a == b)  # fmt: skip


@pytest.mark.parametrize("level", [1, 3])
def test_a_stapeltoren_move_names_the_match(level: int) -> None:
    # "The player names the match between the chosen tile and the top tile of their own
    # stack" (level 1, step 3; level 3, step 4): the transcript line names it for every seat.
    state = GAME.new_game(GAME.make_config({"type": "stapeltoren", "level": level},
                                           players=2), 3)  # fmt: skip
    seen = 0
    while not GAME.is_terminal(state) and seen < 6:
        move = GAME.legal_moves(state)[0]
        text = GAME.describe_move(state, move)
        if move.kind == "add":
            top = tile_code(state.stacks[state.seat][move.dst][-1])
            code = tile_code(move.tile)
            assert text.endswith(f"{code} on {move.dst + 1} (matches {top}: "
                                 f"{_said_match(code, top)})"), text  # fmt: skip
            assert _said_match(code, top)  # at least one match
            seen += 1
        state = GAME.apply(state, move)
    assert seen == 6


@pytest.mark.parametrize(("level", "named"), [(1, False), (2, False), (3, True)])
def test_a_resignation_names_a_winner_only_where_the_game_does(level: int, named: bool) -> None:
    # "Naming a winner is not necessary at this age" (Stapeltoren levels 1-2): P1 resigning
    # printed "P2 (random) won". Level 3: "The winner is the player with the highest stack".
    import subprocess
    import sys

    from conftest import ROOT

    p = subprocess.run(
        [sys.executable, "-m", "tablesim.sim.cli", "play", "katoiz", "--type", "stapeltoren",
         "--level", str(level), "--players", "human,random", "--seed", "1", "--headless"],
        cwd=ROOT, input="quit\n", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    last = p.stdout.strip().splitlines()[-1]
    assert last.endswith("P1 (human) resigned; P2 (random) won; 0 turns") == named, last
    if not named:
        assert last.endswith("resigned; the game is stopped after 0 turns (no winner is named "
                             "in this game)"), last  # fmt: skip
