"""The shared state-JSON readers of games/core.py and the option checks of games/_config.py.

Expected values are written by hand from the helpers' contracts (docstrings), not copied from
their output.
"""

from __future__ import annotations

import pytest

from games.catego import GAME as CATEGO
from games.core import (
    ConfigError,
    StateFormatError,
    check_state_header,
    json_floats,
    json_int,
    json_ints,
    json_opt_int,
    state_config,
    state_rng,
)


def test_header_accepts_the_right_game_and_version() -> None:
    check_state_header({"game": "kozo", "version": 1, "x": 0}, "kozo", 1)


@pytest.mark.parametrize(
    ("obj", "part"),
    [
        ([1, 2], "kozo state: must be a JSON object"),
        ("text", "kozo state: must be a JSON object"),
        ({"game": "kaito", "version": 1}, "expected game 'kozo' version 1, got 'kaito' version 1"),
        ({"game": "kozo", "version": 2}, "expected game 'kozo' version 1, got 'kozo' version 2"),
        ({"version": 1}, "got None version 1"),
    ],
)
def test_header_refuses(obj: object, part: str) -> None:
    with pytest.raises(StateFormatError, match=part.replace("(", r"\(")):
        check_state_header(obj, "kozo", 1)


def test_state_config_rebuilds_and_refuses() -> None:
    cfg = state_config(CATEGO, {"config": {"players": 3}})
    assert cfg.players == 3
    with pytest.raises(StateFormatError, match="catego state: 'config' must be an object"):
        state_config(CATEGO, {"config": [3]})
    with pytest.raises(StateFormatError, match="catego state: 'config' must be an object"):
        state_config(CATEGO, {})
    with pytest.raises(StateFormatError, match="catego state: bad config: "):
        state_config(CATEGO, {"config": {"players": 99}})


def test_state_rng() -> None:
    assert state_rng("kozo", "00000000000000ff").state == 255
    assert state_rng("kozo", "8000000000000000").state == 2**63
    for bad in ("00000000000000FF", "ff", "0x000000000000ff", 255, None):
        with pytest.raises(StateFormatError, match="kozo state: 'rng' must be 16 lowercase hex"):
            state_rng("kozo", bad)


def test_json_int() -> None:
    assert json_int(7, "w") == 7
    assert json_int(-3, "w") == -3
    assert json_int(5, "w", 0, 5) == 5
    assert json_int(0, "w", 0, 5) == 0
    with pytest.raises(StateFormatError, match=r"^s: a\.b must be an integer, got True$"):
        json_int(True, "s: a.b")
    with pytest.raises(StateFormatError, match=r"must be an integer, got 1\.0$"):
        json_int(1.0, "w")
    with pytest.raises(StateFormatError, match=r"^w must be an integer in 0\.\.5, got 6$"):
        json_int(6, "w", 0, 5)
    with pytest.raises(StateFormatError, match=r"in 0\.\.5, got -1$"):
        json_int(-1, "w", 0, 5)
    assert json_opt_int(None, "w") is None
    assert json_opt_int(4, "w") == 4
    with pytest.raises(StateFormatError, match="w must be an integer, got '4'"):
        json_opt_int("4", "w")


def test_json_ints_names_the_element() -> None:
    assert json_ints([1, 2, 3], "w") == (1, 2, 3)
    assert json_ints([], "w") == ()
    assert json_ints([0, 5], "w", 2, 0, 5) == (0, 5)
    with pytest.raises(StateFormatError, match=r"^w must be a list of length 2, got \[1\]$"):
        json_ints([1], "w", 2)
    with pytest.raises(StateFormatError, match=r"^w must be a list, got \(1, 2\)$"):
        json_ints((1, 2), "w")
    with pytest.raises(StateFormatError, match=r"^w\[1\] must be an integer in 0\.\.5, got 9$"):
        json_ints([1, 9], "w", None, 0, 5)
    with pytest.raises(StateFormatError, match=r"^w\[2\] must be an integer, got 'x'$"):
        json_ints([1, 2, "x"], "w")


def test_json_floats() -> None:
    got = json_floats([1, 2.5, -0.25], "w", 3)
    assert got == (1.0, 2.5, -0.25)
    assert all(type(v) is float for v in got)
    with pytest.raises(StateFormatError, match=r"^w must be a list of 3 numbers, got \[1, 2\]$"):
        json_floats([1, 2], "w", 3)
    with pytest.raises(StateFormatError, match=r"^w\[0\] must be a number, got False$"):
        json_floats([False, 1, 2], "w", 3)
    with pytest.raises(StateFormatError, match=r"^w\[1\] must be a number, got '2'$"):
        json_floats([1, "2", 3], "w", 3)


def test_errors_are_value_errors() -> None:
    # callers that catch ValueError (the generic "malformed field" handlers) still catch them
    assert issubclass(StateFormatError, ValueError)
    assert issubclass(ConfigError, ValueError)
