"""Katoiz through the command line: ``tablesim play katoiz --type ... --level ...``."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli


@pytest.mark.parametrize(
    ("kind", "level"), [("stapeltoren", "5"), ("3-set", "4"), ("stapeltje", "5")]
)
def test_play_each_type_headless_json_byte_stable(kind: str, level: str) -> None:
    args = (
        "play",
        "katoiz",
        "--type",
        kind,
        "--level",
        level,
        "--players",
        "smart,random",
        "--seed",
        "3",
        "--headless",
        "--json",
    )
    a, b = run_cli(*args), run_cli(*args)
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    obj = json.loads(a.stdout)
    assert obj["detail"]["type"] == kind and len(obj["scores"]) == 2


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("--type", "stapeltoren", "--picture-die"), "needs 'colour_die'"),
        (("--type", "stapeltje", "--colour-die"), "belongs to type stapeltoren"),
        (("--type", "3-set", "--level", "9"), "levels 1-4"),
        (("--type", "hexagons"), "stapeltoren, 3-set, stapeltje"),
    ],
)
def test_bad_options_exit_2(args: tuple[str, ...], needle: str) -> None:
    p = run_cli("play", "katoiz", *args, "--players", "random,random", "--headless")
    assert p.returncode == 2
    assert needle in p.stderr


def test_human_sees_the_board_and_a_bad_move_is_reprompted() -> None:
    # Seat 0 is human: "ZZZ" is no tile; then the input ends. The board picture and the
    # parse error (naming the move format) must be shown.
    p = run_cli(
        "play",
        "katoiz",
        "--type",
        "stapeltoren",
        "--players",
        "human,random",
        "--headless",
        input="ZZZ\n",
    )
    out = p.stdout + p.stderr
    assert "Supply (20)" in out
    assert "type a tile code" in out
