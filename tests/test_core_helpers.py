"""The shared state-JSON readers of games/core.py and the option checks of games/_config.py.

Expected values are written by hand from the helpers' contracts (docstrings), not copied from
their output.
"""

from __future__ import annotations

import math

import pytest

from tablesim.games._config import (
    check_choice,
    check_option_kinds,
    check_ranges,
    merged_options,
    options_to_json,
)
from tablesim.games._stacking import (
    Outcome,
    check_outcome,
    items_from_json,
    items_to_json,
    num_text,
    q4,
)
from tablesim.games.catego import GAME as CATEGO
from tablesim.games.core import (
    ConfigError,
    IllegalMoveError,
    Option,
    StateFormatError,
    check_state_header,
    json_floats,
    json_int,
    json_ints,
    json_opt_int,
    state_config,
    state_head,
    state_rng,
)
from tablesim.games.rng import Rng


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


# ---- games/_config.py ----------------------------------------------------------------------

OPTIONS = (
    Option("rounds", "int", 3, "h"),
    Option("risk", "float", 0.5, "h"),
    Option("solo", "bool", False, "h"),
    Option("table", "str", "physics", "h", ("physics", "stand-in")),
)


def test_option_kinds_accept_and_convert() -> None:
    merged = {"rounds": 2, "risk": 1, "solo": True, "table": "stand-in"}
    check_option_kinds("g", OPTIONS, merged)
    assert merged == {"rounds": 2, "risk": 1.0, "solo": True, "table": "stand-in"}
    assert type(merged["risk"]) is float


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("rounds", True, "g: option 'rounds' must be an integer, got True"),
        ("rounds", 2.0, "g: option 'rounds' must be an integer, got 2.0"),
        ("risk", "0.5", "g: option 'risk' must be a number, got '0.5'"),
        ("risk", float("inf"), "g: option 'risk' must be a number, got inf"),
        ("risk", False, "g: option 'risk' must be a number, got False"),
        ("solo", 1, "g: option 'solo' must be true or false, got 1"),
        ("table", "felt", "g: option 'table': 'felt' (allowed: physics, stand-in)"),
    ],
)
def test_option_kinds_refuse(key: str, value: object, message: str) -> None:
    merged = {"rounds": 3, "risk": 0.5, "solo": False, "table": "physics", key: value}
    with pytest.raises(ConfigError) as info:
        check_option_kinds("g", OPTIONS, merged)
    assert str(info.value) == message


def test_check_ranges_reports_the_first_failure() -> None:
    merged = {"a": 0, "b": 7, "c": 9}
    check_ranges("g", merged, [("a", True, "any")])
    with pytest.raises(ConfigError) as info:
        check_ranges("g", merged, [("a", True, "x"), ("b", False, "1..5"), ("c", False, "0..1")])
    assert str(info.value) == "g: option 'b' = 7 (allowed: 1..5)"


def test_merged_options_and_json() -> None:
    # Catego options: players, columns, tie rule... (read from its option table)
    defaults = {o.name: o.default for o in CATEGO.options}
    first = CATEGO.options[0]
    assert merged_options(CATEGO, None, 2) == defaults
    assert merged_options(CATEGO, {first.name: "x"}, 3)[first.name] == "x"
    with pytest.raises(ConfigError, match="catego: unknown option 'nope'"):
        merged_options(CATEGO, {"nope": 1}, 2)
    with pytest.raises(ConfigError, match="catego: players must be an integer, got True"):
        merged_options(CATEGO, {}, True)
    cfg = CATEGO.make_config({}, players=3)
    out = options_to_json(CATEGO, cfg)
    assert list(out) == ["players", *(o.name for o in CATEGO.options)]
    assert out["players"] == 3


def test_kozo_and_kataboom_states_name_the_bad_key() -> None:
    from tablesim.games.kataboom import GAME as KATABOOM
    from tablesim.games.kozo import GAME as KOZO

    kozo = KOZO.state_to_json(KOZO.new_game(KOZO.make_config({"table": "stand-in"}, players=2), 1))
    kozo["turn"] = "3"
    with pytest.raises(StateFormatError, match=r"^kozo state: 'turn' must be an integer, got '3'$"):
        KOZO.state_from_json(kozo)
    kozo["turn"], kozo["rng"] = 0, "zz"
    with pytest.raises(StateFormatError, match="kozo state: 'rng' must be 16 lowercase hex"):
        KOZO.state_from_json(kozo)
    cfg = KATABOOM.make_config({"table": "stand-in"}, players=2)
    boom = KATABOOM.state_to_json(KATABOOM.new_game(cfg, 1))
    boom["structure"][0]["pose"] = [0, 0, 0, 0, 0, 0]
    with pytest.raises(StateFormatError, match=r"^kataboom state: structure\[0\]\.pose must be a "):
        KATABOOM.state_from_json(boom)


# ---- games/_stacking.py -----------------------------------------------------------------------


def test_q4_and_num_text() -> None:
    assert q4(1.23456) == 1.2346
    assert math.copysign(1.0, q4(-0.00001)) == 1.0  # no negative zero
    assert num_text(3.0) == "3"
    assert num_text(2.5) == "2.5"
    assert num_text(-1.23456) == "-1.2346"
    assert num_text(-0.00004) == "0"
    assert num_text(0.10004) == "0.1"


def test_check_outcome() -> None:
    pose = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
    check_outcome("g", Outcome((pose, pose), ("b",)), ("a", "b"), "items")
    bad = [
        ("not an outcome", "g: a move's outcome must be an Outcome, got 'not an outcome'"),
        (Outcome((pose,)), "g: the outcome has 1 poses for 2 items"),
        (Outcome((pose, pose[:6])), "is not 7 finite numbers"),
        (Outcome((pose, (*pose[:6], math.nan))), "is not 7 finite numbers"),
        (Outcome((pose, pose), ("c", "a")), "g: outcome names unknown items ['c']"),
    ]
    for outcome, part in bad:
        with pytest.raises(IllegalMoveError) as info:
            check_outcome("g", outcome, ("a", "b"), "items")
        assert part in str(info.value)


def test_items_json_round_trip() -> None:
    from tablesim.games.kozo.state import Item

    items = (Item("L4", 3, (1.0, 2.0, 0.0), (1.0, 2.0, 0.0, 0.0, 0.0, 0.0, 1.0), 0),)
    obj = items_to_json(items)
    assert obj == [
        {"name": "L4", "rot": 3, "intended": [1, 2, 0], "pose": [1, 2, 0, 0, 0, 0, 1], "seat": 0}
    ]
    assert items_from_json(obj, "w", Item) == items
    obj[0]["seat"] = None
    with pytest.raises(StateFormatError, match=r"^w\[0\]\.seat must be an integer, got None$"):
        items_from_json(obj, "w", Item)
    with pytest.raises(StateFormatError, match=r"^w must be a list, got \{\}$"):
        items_from_json({}, "w", Item)


def test_check_choice() -> None:
    assert check_choice("g", "k", "b", ("a", "b")) == "b"
    for bad in ("c", 1, None, "A"):
        with pytest.raises(ConfigError) as info:
            check_choice("g", "k", bad, ("a", "b"))
        assert str(info.value) == f"g: option 'k': {bad!r} (allowed: a, b)"


def test_table_bot_candidates_and_no_referee() -> None:
    from tablesim.games._stacking import StackingBot
    from tablesim.games.kozo import GAME as KOZO

    class Probe(StackingBot):
        name = "probe"
        stream = "probe"
        default_candidates = 5

        def choose(self, state: object) -> object:
            raise NotImplementedError

    assert Probe(KOZO, 3).candidates == 5
    assert Probe(KOZO, 3, budget=2).candidates == 2
    state = KOZO.new_game(KOZO.make_config({"table": "stand-in"}, players=2), 1)
    # rules-only play: no referee, so no judged risk (the caller falls back to its own)
    assert Probe(KOZO, 3).table_risk(KOZO, state, KOZO.legal_moves(state)[0]) is None


def test_state_head_is_read_back() -> None:
    cfg = CATEGO.make_config({}, players=2)
    head = state_head(CATEGO, 7, cfg, Rng(255))
    assert list(head) == ["game", "version", "config", "rng"]
    assert head["game"] == "catego" and head["version"] == 7
    assert head["rng"] == "00000000000000ff"
    check_state_header(head, "catego", 7)
    assert state_config(CATEGO, head) == cfg
    assert state_rng("catego", head["rng"]) == Rng(255)
