"""Katoiz options: the game type, the level preset and one switch per level rule.

A level is a set of rules, not a number: ``level`` picks a preset (:data:`PRESETS`) and every
level rule is its own option, so a user can combine them the way the rulebook allows. Options
given explicitly override the preset; rules the rulebook does not let combine raise a
ConfigError naming both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tablesim.games._config import check_choice
from tablesim.games.core import ConfigError, Option
from tablesim.games.katoiz.components import COLOUR_LETTERS, check_bool, check_int

GAME = "katoiz"
TYPES: tuple[str, ...] = ("stapeltoren", "3-set", "stapeltje")
SET_RULES: tuple[str, ...] = ("common", "pairwise")
POSITIONS: tuple[str, ...] = ("8", "4")

# Level presets: the options each level switches on (levels that modify earlier levels
# include the level they modify; see docs/rules/katoiz.md).
PRESETS: dict[str, dict[int, dict[str, Any]]] = {
    "stapeltoren": {
        1: {},
        2: {"two_matches": True},
        3: {"colour_die": True},
        4: {"colour_die": True, "two_matches": True},
        5: {"colour_die": True, "picture_die": True},
    },
    "3-set": {
        1: {},
        2: {"stack_score": True},
        3: {"category_score": True},
        4: {"category_score": True, "remove_disc": True, "reroll": True},
    },
    "stapeltje": {
        1: {},
        2: {"height": 5},
        3: {"highest_stack": True},
        4: {"clock": True},
        5: {"clock": True, "colour_ladder": True},
    },
}

# Which options belong to which game type (``type``, ``level`` belong to all).
TYPE_OPTIONS: dict[str, tuple[str, ...]] = {
    "stapeltoren": ("two_matches", "colour_die", "picture_die", "supply"),
    "3-set": (
        "stack_score",
        "stack_matches",
        "category_score",
        "remove_disc",
        "reroll",
        "set_rule",
        "move_needs_dice",
        "diagonal_next",
        "max_turns",
    ),
    "stapeltje": (
        "height",
        "highest_stack",
        "clock",
        "colour_ladder",
        "ladder",
        "position",
        "farthest",
        "time_limit",
        "clock_seconds",
        "max_turns",
    ),
}

DEFAULT_MAX_TURNS = {"3-set": 200, "stapeltje": 300}
CLOCK_BY_HEIGHT = {4: 120, 5: 300, 6: 600, 7: 1200}
SOLO_CLOCK = 300
THINK_SECONDS = 5  # simulated time of every turn (a blocked turn too)
STEP_SECONDS = 2  # plus this per king step between a moved tile's start and end cell

OPTIONS: tuple[Option, ...] = (
    Option("type", "str", "stapeltoren", "game type", TYPES),
    Option("level", "int", 1, "level preset (stapeltoren 1-5, 3-set 1-4, stapeltje 1-5)"),
    # Stapeltoren
    Option("two_matches", "bool", False, "stapeltoren levels 2/4: a tile needs two matches"),
    Option("colour_die", "bool", False, "stapeltoren level 3: colour die, new stacks, winner"),
    Option("picture_die", "bool", False, "stapeltoren level 5: add the picture die"),
    Option("supply", "int", 0, "stapeltoren: picture tiles laid out (0 = 20, or 40 with dice)"),
    # 3-set
    Option("stack_score", "bool", False, "3-set level 2: highest stack of own tiles wins"),
    Option("stack_matches", "int", 1, "3-set level 2: matches needed in that stack (1 or 2)"),
    Option("category_score", "bool", False, "3-set level 3: colour/shape/size points"),
    Option("remove_disc", "bool", False, "3-set level 4: remove an opponent's disc"),
    Option("reroll", "bool", False, "3-set level 4: roll again after placing next to own disc"),
    Option(
        "set_rule",
        "str",
        "common",
        "3-set: one property shared by all three, or pairwise",
        SET_RULES,
    ),
    Option("move_needs_dice", "bool", True, "3-set: a moved disc must also fit the dice"),
    Option("diagonal_next", "bool", False, "3-set level 4: diagonal tiles count as next to"),
    Option("max_turns", "int", 0, "turn cap (0 = 200 for 3-set, 300 for stapeltje)"),
    # Stapeltje-four
    Option("height", "int", 0, "stapeltje: home stack target 4-7 (0 = 4; level 2 = 5)"),
    Option("highest_stack", "bool", False, "stapeltje level 3: highest home stack wins"),
    Option(
        "clock",
        "bool",
        False,
        "stapeltje level 4: clocks (a person's real seconds at the terminal; solo possible)",
    ),
    Option("colour_ladder", "bool", False, "stapeltje level 5: colour ladder instead of dice"),
    Option("ladder", "str", COLOUR_LETTERS, "stapeltje level 5: ladder colours, bottom first"),
    Option(
        "position", "str", "8", "stapeltje: own position = corner + 8 or 4 neighbours", POSITIONS
    ),
    Option("farthest", "bool", True, "stapeltje: a tile must go as far as it can"),
    Option(
        "time_limit",
        "int",
        0,
        "stapeltje level 3: playing time in s (0 = none; a person's real seconds at the terminal)",
    ),
    Option("clock_seconds", "int", 0, "stapeltje level 4: clock per player in s (0 = by height)"),
)


@dataclass(frozen=True)
class KatoizConfig:
    """A validated Katoiz configuration (build it with ``GAME.make_config``).

    Options that do not belong to ``type`` keep their defaults and are not used.
    """

    players: int
    type: str = "stapeltoren"
    level: int = 1
    two_matches: bool = False
    colour_die: bool = False
    picture_die: bool = False
    supply: int = 20
    stack_score: bool = False
    stack_matches: int = 1
    category_score: bool = False
    remove_disc: bool = False
    reroll: bool = False
    set_rule: str = "common"
    move_needs_dice: bool = True
    diagonal_next: bool = False
    max_turns: int = 0
    height: int = 4
    highest_stack: bool = False
    clock: bool = False
    colour_ladder: bool = False
    ladder: str = COLOUR_LETTERS
    position: str = "8"
    farthest: bool = True
    time_limit: int = 0
    clock_seconds: int = 0

    @property
    def ladder_colours(self) -> tuple[int, ...]:
        """The colour ladder as colour indices, bottom first."""
        return tuple(COLOUR_LETTERS.index(ch) for ch in self.ladder)

    def option_values(self) -> dict[str, Any]:
        """Every option of this config's type, resolved (what ``config_to_json`` stores)."""
        out: dict[str, Any] = {"type": self.type, "level": self.level}
        for key in TYPE_OPTIONS[self.type]:
            out[key] = getattr(self, key)
        return out


def make_config(values: Mapping[str, Any], players: int) -> KatoizConfig:
    """Validate ``values`` (keys already checked) for ``players`` seats."""
    kind = check_choice(GAME, "type", values.get("type", "stapeltoren"), TYPES)
    top = max(PRESETS[kind])
    level = check_int(GAME, "level", values.get("level", 1), 1, top, f"{kind} has levels 1-{top}")
    for key in values:
        if key not in ("type", "level") and key not in TYPE_OPTIONS[kind]:
            owner = [t for t, keys in TYPE_OPTIONS.items() if key in keys]
            raise ConfigError(
                f"{GAME}: option {key!r} belongs to type {' / '.join(owner)}, not {kind} "
                f"(options of {kind}: {', '.join(TYPE_OPTIONS[kind])})"
            )
    merged: dict[str, Any] = {**PRESETS[kind][level], **values}
    lo_players = 1
    if kind == "stapeltoren":
        cfg = _stapeltoren(merged, players, level)
    elif kind == "3-set":
        cfg = _threeset(merged, players, level)
    else:
        cfg = _stapeltje(merged, players, level)
        lo_players = 1 if cfg.clock else 2
    if players < lo_players:
        raise ConfigError(
            f"{GAME}: {players} player(s) given; stapeltje is played by 2 to 4, alone only "
            "with the clock (level 4: --clock)"
        )
    return cfg


def _stapeltoren(v: dict[str, Any], players: int, level: int) -> KatoizConfig:
    two = check_bool(GAME, "two_matches", v.get("two_matches", False))
    die = check_bool(GAME, "colour_die", v.get("colour_die", False))
    pic = check_bool(GAME, "picture_die", v.get("picture_die", False))
    if pic and not die:
        raise ConfigError(
            f"{GAME}: option 'picture_die' (level 5) modifies level 3 and needs 'colour_die' "
            "(level 3); add --colour-die or use --level 5"
        )
    default_supply = 40 if die else 20
    supply = (
        check_int(
            GAME,
            "supply",
            v.get("supply", 0),
            0,
            40,
            f"0 = {default_supply}; at least players + 1 tiles are needed",
        )
        or default_supply
    )
    if supply < players + 1:
        raise ConfigError(
            f"{GAME}: option 'supply': {supply} tiles for {players} players; at least "
            f"{players + 1} are needed (a starting tile each and one to take)"
        )
    return KatoizConfig(
        players,
        "stapeltoren",
        level,
        two_matches=two,
        colour_die=die,
        picture_die=pic,
        supply=supply,
    )


def _threeset(v: dict[str, Any], players: int, level: int) -> KatoizConfig:
    stack = check_bool(GAME, "stack_score", v.get("stack_score", False))
    cat = check_bool(GAME, "category_score", v.get("category_score", False))
    if stack and cat:
        raise ConfigError(
            f"{GAME}: options 'stack_score' (level 2) and 'category_score' (level 3) both "
            "decide the winner; choose one"
        )
    sm = check_int(GAME, "stack_matches", v.get("stack_matches", 1), 1, 2)
    if sm != 1 and not stack:
        raise ConfigError(
            f"{GAME}: option 'stack_matches' only applies with 'stack_score' (level 2)"
        )
    cap = check_int(GAME, "max_turns", v.get("max_turns", 0), 0, 100_000, "0 = 200")
    return KatoizConfig(
        players,
        "3-set",
        level,
        stack_score=stack,
        stack_matches=sm,
        category_score=cat,
        remove_disc=check_bool(GAME, "remove_disc", v.get("remove_disc", False)),
        reroll=check_bool(GAME, "reroll", v.get("reroll", False)),
        set_rule=check_choice(GAME, "set_rule", v.get("set_rule", "common"), SET_RULES),
        move_needs_dice=check_bool(GAME, "move_needs_dice", v.get("move_needs_dice", True)),
        diagonal_next=check_bool(GAME, "diagonal_next", v.get("diagonal_next", False)),
        max_turns=cap or DEFAULT_MAX_TURNS["3-set"],
    )


def _stapeltje(v: dict[str, Any], players: int, level: int) -> KatoizConfig:
    highest = check_bool(GAME, "highest_stack", v.get("highest_stack", False))
    clock = check_bool(GAME, "clock", v.get("clock", False))
    if highest and clock:
        raise ConfigError(
            f"{GAME}: option 'clock' (level 4) modifies levels 1-2 only, not "
            "'highest_stack' (level 3, which has its own 'time_limit')"
        )
    height = check_int(GAME, "height", v.get("height", 0), 0, 7, "0 = 4, else 4..7")
    if height and height < 4:
        raise ConfigError(f"{GAME}: option 'height': {height}; allowed 4..7 (0 = 4)")
    if height and highest:
        raise ConfigError(
            f"{GAME}: option 'height' is the target of levels 1, 2 and 4; 'highest_stack' "
            "(level 3) has no target height"
        )
    height = 0 if highest else height or 4
    if height == 6 and players > 3:
        raise ConfigError(f"{GAME}: option 'height' 6 is for 2 or 3 players, got {players}")
    if height == 7 and players > 2:
        raise ConfigError(f"{GAME}: option 'height' 7 is for 2 players only, got {players}")
    ladder = v.get("ladder", COLOUR_LETTERS)
    if not isinstance(ladder, str) or sorted(ladder.upper()) != sorted(COLOUR_LETTERS):
        raise ConfigError(
            f"{GAME}: option 'ladder': {ladder!r}; give the five colour letters "
            f"{COLOUR_LETTERS} in ladder order, bottom first, each once"
        )
    time_limit = check_int(GAME, "time_limit", v.get("time_limit", 0), 0, 10**7)
    if time_limit and not highest:
        raise ConfigError(
            f"{GAME}: option 'time_limit' is level 3's agreed playing time; it needs "
            "'highest_stack' (levels 4-5 use 'clock')"
        )
    clock_s = check_int(GAME, "clock_seconds", v.get("clock_seconds", 0), 0, 10**7)
    if clock_s and not clock:
        raise ConfigError(f"{GAME}: option 'clock_seconds' needs 'clock' (level 4)")
    if clock and not clock_s:
        clock_s = SOLO_CLOCK if players == 1 else CLOCK_BY_HEIGHT[height]
    cap = check_int(GAME, "max_turns", v.get("max_turns", 0), 0, 100_000, "0 = 300")
    return KatoizConfig(
        players,
        "stapeltje",
        level,
        height=height,
        highest_stack=highest,
        clock=clock,
        colour_ladder=check_bool(GAME, "colour_ladder", v.get("colour_ladder", False)),
        ladder=ladder.upper(),
        position=check_choice(GAME, "position", v.get("position", "8"), POSITIONS),
        farthest=check_bool(GAME, "farthest", v.get("farthest", True)),
        time_limit=time_limit,
        clock_seconds=clock_s,
        max_turns=cap or DEFAULT_MAX_TURNS["stapeltje"],
    )
