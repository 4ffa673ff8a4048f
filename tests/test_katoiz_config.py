"""Katoiz components and options: the tile set, dice, matches, level presets and conflicts.

Expected values come from the rulebook and the component counts and dice faces in
docs/rules/katoiz.md, worked by hand.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from tablesim.games.core import ConfigError
from tablesim.games.katoiz import GAME
from tablesim.games.katoiz.components import (
    BLANK_TILES,
    COLOUR_FACES,
    MATCH,
    PICTURE_FACES,
    TILE_CODES,
    TILES,
    fits,
    tile_name,
)
from tablesim.games.registry import get_game, make_bot
from tablesim.sim.commands._common import parse_game_options


def code(text: str) -> int:
    """The lowest tile id with this code."""
    return TILE_CODES.index(text)


# ---- components ---------------------------------------------------------------------------


def test_tile_set_counts() -> None:
    # 45 tiles: 30 unique (5 colours x 3 shapes x 2 sizes) + 10 duplicates + 5 blanks.
    assert len(TILES) == 45
    pictures = [t for t in TILES if t[1] >= 0]
    assert len(pictures) == 40
    assert len(set(pictures)) == 30
    # "one small and one large per colour" among the duplicates.
    extra = Counter(pictures) - Counter(set(pictures))
    assert sum(extra.values()) == 10
    by_colour = Counter((c, z) for (c, _, z) in extra.elements())
    assert by_colour == Counter({(c, z): 1 for c in range(5) for z in range(2)})
    # One blank per colour.
    assert sorted(TILES[t][0] for t in BLANK_TILES) == [0, 1, 2, 3, 4]
    assert tile_name(code("ROL")) == "red round large"


def test_dice_faces() -> None:
    assert COLOUR_FACES == ("yellow", "green", "white", "red", "blue", "purple")
    assert PICTURE_FACES == ("round", "square", "triangle", "large", "small", "blank")


def test_matches_count_shared_properties() -> None:
    # ROL vs ROS: colour and shape -> 2; ROL vs GTL: size -> 1; ROL vs GTS: none -> 0.
    assert MATCH[code("ROL")][code("ROS")] == 2
    assert MATCH[code("ROL")][code("GTL")] == 1
    assert MATCH[code("ROL")][code("GTS")] == 0
    assert MATCH[code("ROL")][code("ROL")] == 3
    # A blank tile only has a colour.
    assert MATCH[code("R--")][code("ROL")] == 1


@pytest.mark.parametrize(
    ("tile", "roll", "ok"),
    [
        ("ROL", (3, 0), True),  # red + round
        ("ROL", (3, 1), False),  # red + square
        ("ROL", (4, 0), False),  # blue + round
        ("ROL", (5, 0), True),  # purple = any colour
        ("ROL", (3, 5), True),  # blank = any shape
        ("ROL", (3, 3), True),  # large
        ("ROL", (3, 4), False),  # small
        ("GTS", (1, 4), True),
        ("GTS", (5, 5), True),  # purple + blank: anything
        ("GTS", (1, -1), True),  # colour die only
        ("GTS", (2, -1), False),
    ],
)
def test_fits_the_dice(tile: str, roll: tuple[int, int], ok: bool) -> None:
    assert fits(code(tile), roll) is ok


# ---- options ------------------------------------------------------------------------------


def cfg(players: int = 2, **values: object):  # noqa: ANN201
    return GAME.make_config(values, players=players)


def test_registered_with_options_and_bots() -> None:
    game = get_game("katoiz")
    assert game is GAME
    names = {o.name for o in game.options}
    assert {"type", "level", "two_matches", "colour_die", "picture_die"} <= names
    assert {"stack_score", "category_score", "remove_disc", "reroll"} <= names
    assert {"height", "highest_stack", "clock", "colour_ladder"} <= names
    assert make_bot("katoiz", "smart", 1).name == "smart"
    assert make_bot("katoiz", "random", 1).name == "random"


@pytest.mark.parametrize(
    ("kind", "level", "on"),
    [
        ("stapeltoren", 1, set()),
        ("stapeltoren", 2, {"two_matches"}),
        ("stapeltoren", 3, {"colour_die"}),
        ("stapeltoren", 4, {"colour_die", "two_matches"}),  # level 4 modifies level 3
        ("stapeltoren", 5, {"colour_die", "picture_die"}),  # level 5 modifies level 3
        ("3-set", 2, {"stack_score"}),
        ("3-set", 3, {"category_score"}),
        ("3-set", 4, {"category_score", "remove_disc", "reroll"}),
        ("stapeltje", 3, {"highest_stack"}),
        ("stapeltje", 4, {"clock"}),
        ("stapeltje", 5, {"clock", "colour_ladder"}),
    ],
)
def test_level_presets(kind: str, level: int, on: set[str]) -> None:
    c = cfg(type=kind, level=level)
    flags = {
        "two_matches",
        "colour_die",
        "picture_die",
        "stack_score",
        "category_score",
        "remove_disc",
        "reroll",
        "highest_stack",
        "clock",
        "colour_ladder",
    }
    assert {f for f in flags if getattr(c, f)} == on


def test_stapeltje_level_2_is_height_five_and_presets_take_explicit_overrides() -> None:
    assert cfg(type="stapeltje", level=2).height == 5
    assert cfg(type="stapeltje", level=2, height=7).height == 7
    assert cfg(type="stapeltje").height == 4
    # 3-set level 4 may go on level 1 or 2 instead of 3: switch level 3 off, level 2 on.
    c = cfg(type="3-set", level=4, category_score=False, stack_score=True)
    assert c.remove_disc and c.stack_score and not c.category_score
    # Stapeltje level 5 on level 3 (levels 1-4 allowed): ladder with highest stack.
    c = cfg(type="stapeltje", highest_stack=True, colour_ladder=True)
    assert c.colour_ladder and c.highest_stack
    # Default clock by height: four 2 min, five 5, six 10, seven 20; solo 5 minutes.
    assert cfg(type="stapeltje", clock=True).clock_seconds == 120
    assert cfg(type="stapeltje", clock=True, height=5).clock_seconds == 300
    assert cfg(type="stapeltje", clock=True, height=6).clock_seconds == 600
    assert cfg(type="stapeltje", clock=True, height=7).clock_seconds == 1200
    assert cfg(1, type="stapeltje", level=4).clock_seconds == 300
    # Stapeltoren supply: 20 at levels 1-2, all 40 picture tiles with the die.
    assert cfg().supply == 20
    assert cfg(level=3).supply == 40
    assert cfg(supply=30).supply == 30


@pytest.mark.parametrize(
    ("players", "values", "fragments"),
    [
        (2, {"type": "stapeltoren", "picture_die": True}, ["picture_die", "colour_die"]),
        (
            2,
            {"type": "3-set", "stack_score": True, "category_score": True},
            ["stack_score", "category_score"],
        ),
        (2, {"type": "3-set", "stack_matches": 2}, ["stack_matches", "stack_score"]),
        (
            2,
            {"type": "stapeltje", "clock": True, "highest_stack": True},
            ["clock", "highest_stack"],
        ),
        (2, {"type": "stapeltje", "level": 3, "height": 5}, ["height", "highest_stack"]),
        (4, {"type": "stapeltje", "height": 6}, ["height", "2 or 3 players"]),
        (3, {"type": "stapeltje", "height": 7}, ["height", "2 players"]),
        (2, {"type": "stapeltje", "height": 3}, ["height", "4..7"]),
        (2, {"type": "stapeltje", "height": 8}, ["height", "0..7"]),
        (1, {"type": "stapeltje"}, ["alone only with the clock"]),
        (2, {"type": "stapeltje", "time_limit": 600}, ["time_limit", "highest_stack"]),
        (2, {"type": "stapeltje", "clock_seconds": 60}, ["clock_seconds", "clock"]),
        (2, {"type": "stapeltje", "ladder": "YGWRR"}, ["ladder", "YGWRB"]),
        (2, {"type": "3-set", "colour_die": True}, ["colour_die", "stapeltoren", "not 3-set"]),
        (2, {"type": "stapeltoren", "clock": True}, ["clock", "stapeltje"]),
        (2, {"type": "3-set", "level": 5}, ["level", "1-4"]),
        (2, {"type": "stapeltoren", "level": 0}, ["level", "1-5"]),
        (2, {"type": "checkers"}, ["type", "stapeltoren, 3-set, stapeltje"]),
        (2, {"type": "3-set", "set_rule": "any"}, ["set_rule", "common, pairwise"]),
        (2, {"type": "stapeltoren", "supply": 41}, ["supply"]),
        (4, {"type": "stapeltoren", "supply": 4}, ["supply", "5 are needed"]),
        (2, {"type": "stapeltoren", "two_matches": "yes"}, ["two_matches", "true, false"]),
        (2, {"levle": 2}, ["levle", "allowed"]),
        (5, {}, ["players", "1 to 4"]),
    ],
)
def test_config_errors_name_the_problem(
    players: int, values: dict[str, object], fragments: list[str]
) -> None:
    with pytest.raises(ConfigError) as exc:
        GAME.make_config(values, players=players)
    for fragment in fragments:
        assert fragment in str(exc.value)


def test_config_json_round_trips_for_every_preset() -> None:
    for kind, top in (("stapeltoren", 5), ("3-set", 4), ("stapeltje", 5)):
        for level in range(1, top + 1):
            c = cfg(type=kind, level=level)
            obj = json.loads(json.dumps(GAME.config_to_json(c)))
            assert obj["players"] == 2 and obj["type"] == kind and obj["level"] == level
            assert GAME.config_from_json(obj) == c


def test_command_line_flags() -> None:
    values = parse_game_options(
        GAME, ["--type", "stapeltoren", "--level", "3", "--picture-die", "--two-matches"]
    )
    assert values == {"type": "stapeltoren", "level": 3, "picture_die": True, "two_matches": True}
    c = GAME.make_config(values, players=2)
    assert c.colour_die and c.picture_die and c.two_matches
    values = parse_game_options(
        GAME, ["--type", "3-set", "--remove-disc", "--set-rule", "pairwise"]
    )
    assert GAME.make_config(values, players=3).set_rule == "pairwise"


def test_every_type_is_one_registered_variant() -> None:
    """The ``type`` option's choices and the variant registry name the same types, in order,
    and each type's variant is a distinct object."""
    from tablesim.games.katoiz.config import TYPES
    from tablesim.games.katoiz.game import VARIANTS

    assert VARIANTS.names == TYPES == ("stapeltoren", "3-set", "stapeltje")
    assert len(VARIANTS.distinct()) == 3
    for name in TYPES:
        assert VARIANTS.get(name).name == name
    with pytest.raises(ConfigError, match="option --type: 'chess' is not a type"):
        VARIANTS.get("chess")
