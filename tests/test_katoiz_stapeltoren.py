"""Stapeltoren rules, one test per rule (accepted and refused moves), built from hand-made
positions: supplies and stacks are chosen by hand, the dice forced with ``replace``."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tablesim.games.core import GameError, IllegalMoveError, MoveParseError, StateFormatError
from tablesim.games.katoiz import GAME
from tablesim.games.katoiz.components import TILE_CODES, Move
from tablesim.games.katoiz.stapeltoren import TorenState

RED, BLUE, PURPLE = 3, 4, 5
ROUND, SQUARE, LARGE, SMALL, BLANK = 0, 1, 3, 4, 5


def t(code: str) -> int:
    return TILE_CODES.index(code)


def position(
    supply: list[str],
    stacks: list[list[list[str]]],
    roll: tuple[int, int] | None = None,
    turn: int | None = None,
    **options: object,
) -> TorenState:
    cfg = GAME.make_config({"type": "stapeltoren", "supply": 0, **options}, players=len(stacks))
    base = GAME.new_game(cfg, 0)
    sup = tuple(sorted(t(c) for c in supply))
    st = tuple(tuple(tuple(t(c) for c in s) for s in own) for own in stacks)
    return replace(
        base, supply=sup, stacks=st, roll=roll, turn=len(stacks) if turn is None else turn
    )


def test_setup_20_tiles_and_free_starting_tiles() -> None:
    cfg = GAME.make_config({}, players=2)
    state = GAME.new_game(cfg, 7)
    assert len(state.supply) == 20 and len(set(state.supply)) == 20
    assert all(tile < 40 for tile in state.supply)  # picture tiles only
    assert state.roll is None
    moves = GAME.legal_moves(state)
    # Any supply tile may start (duplicates with the same code offered once).
    assert {m.kind for m in moves} == {"start"}
    assert {TILE_CODES[m.tile] for m in moves} == {TILE_CODES[x] for x in state.supply}
    absent = next(
        x for x in range(40) if TILE_CODES[x] not in {TILE_CODES[y] for y in state.supply}
    )
    with pytest.raises(IllegalMoveError, match="not in the supply"):
        GAME.apply(state, Move("start", absent))
    after = GAME.apply(state, moves[0])
    assert after.stacks[0] == ((moves[0].tile,),)
    assert GAME.current_player(after) == 1
    assert len(after.supply) == 19


def test_level_1_one_match_with_own_top() -> None:
    # P1's top is ROL: RTS (colour), GOS (shape), BTL (size) match; GTS matches nothing.
    state = position(["RTS", "GOS", "BTL", "GTS"], [[["ROL"]], [["YSS"]]])
    codes = {TILE_CODES[m.tile] for m in GAME.legal_moves(state)}
    assert codes == {"RTS", "GOS", "BTL"}
    with pytest.raises(IllegalMoveError, match="GTS"):
        GAME.apply(state, Move("add", t("GTS"), dst=0))
    after = GAME.apply(state, Move("add", t("BTL"), dst=0))
    assert after.stacks[0] == ((t("ROL"), t("BTL")),)
    assert t("BTL") not in after.supply


def test_level_2_two_matches() -> None:
    # Top ROL: ROS (colour+shape) and RTL (colour+size) have two; RTS, BTL only one.
    state = position(["ROS", "RTL", "RTS", "BTL"], [[["ROL"]], [["YSS"]]], level=2)
    codes = {TILE_CODES[m.tile] for m in GAME.legal_moves(state)}
    assert codes == {"ROS", "RTL"}
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, Move("add", t("BTL"), dst=0))


def test_level_1_pass_and_end_when_nobody_can_take_a_tile() -> None:
    # Neither GTS nor WTS matches YOL... WTS: white/triangle/small vs YOL: none; GTS: none.
    # P2's top BSL: nothing in common with GTS? green/triangle/small vs blue/square/large: no.
    state = position(["GTS", "WTS"], [[["YOL"]], [["BSL"]]])
    assert GAME.legal_moves(state) == (Move("pass"),)
    state = GAME.apply(state, Move("pass"))
    assert not GAME.is_terminal(state)
    state = GAME.apply(state, Move("pass"))  # a full round of passes
    assert GAME.is_terminal(state)
    result = GAME.result(state)
    assert result.winners == ()  # "Naming a winner is not necessary at this age."
    assert result.scores == (1.0, 1.0)
    assert result.detail["end"] == "nobody could take a tile"


def test_game_ends_when_the_tiles_run_out() -> None:
    state = position(["ROS"], [[["ROL"]], [["YSS"]]])
    state = GAME.apply(state, Move("add", t("ROS"), dst=0))
    assert GAME.is_terminal(state)
    assert GAME.result(state).detail["end"] == "supply empty"
    with pytest.raises(IllegalMoveError, match="over"):
        GAME.apply(state, Move("pass"))


def test_level_3_colour_die_decides_the_colour() -> None:
    supply = ["RTS", "BOS", "BTL", "GSS"]
    state = position(supply, [[["ROL"]], [["YSS"]]], roll=(BLUE, -1), level=3)
    # Blue tiles only: BOS (shape) and BTL (size) both match ROL.
    assert {TILE_CODES[m.tile] for m in GAME.legal_moves(state)} == {"BOS", "BTL"}
    with pytest.raises(IllegalMoveError, match="does not show the dice"):
        GAME.apply(state, Move("add", t("RTS"), dst=0))
    # Purple: any colour.
    state = replace(state, roll=(PURPLE, -1))
    assert {TILE_CODES[m.tile] for m in GAME.legal_moves(state)} == {"RTS", "BOS", "BTL"}


def test_level_3_new_stack_only_when_nothing_matches() -> None:
    # Rolled blue; the only blue tile BTS does not match ROL -> a new stack with BTS.
    state = position(["BTS", "RSS"], [[["ROL"]], [["YSS"]]], roll=(BLUE, -1), level=3)
    assert GAME.legal_moves(state) == (Move("new", t("BTS")),)
    after = GAME.apply(state, Move("new", t("BTS")))
    assert after.stacks[0] == ((t("ROL"),), (t("BTS"),))
    # When a fitting tile matches, a new stack is refused.
    state = position(["BTS", "BOS"], [[["ROL"]], [["YSS"]]], roll=(BLUE, -1), level=3)
    with pytest.raises(IllegalMoveError, match="new stack"):
        GAME.apply(state, Move("new", t("BTS")))


def test_level_3_any_own_stack_and_highest_stack_wins() -> None:
    # P1 has stacks ROL and BTS; rolled green: GTL matches ROL (size) and BTS (shape).
    state = position(["GTL"], [[["ROL", "RSL"], ["BTS"]], [["YSS", "YOS"]]], roll=(1, -1), level=3)
    assert GAME.legal_moves(state) == (Move("add", t("GTL"), dst=0), Move("add", t("GTL"), dst=1))
    after = GAME.apply(state, Move("add", t("GTL"), dst=1))
    # Supply empty: P1's stacks are 2 and 2, P2's 2: a shared top is a draw.
    assert GAME.is_terminal(after)
    assert GAME.result(after).winners == ()
    after = GAME.apply(state, Move("add", t("GTL"), dst=0))
    res = GAME.result(after)
    assert res.scores == (3.0, 2.0) and res.winners == (0,)


def test_level_3_a_pass_is_only_a_bad_roll() -> None:
    # No yellow tile left: pass; with dice the game goes on (purple could come).
    state = position(["BOS"], [[["ROL"]], [["YSS"]]], roll=(0, -1), level=3)
    assert GAME.legal_moves(state) == (Move("pass"),)
    state = GAME.apply(state, Move("pass"))
    state = GAME.apply(replace(state, roll=(0, -1)), Move("pass"))
    assert not GAME.is_terminal(state)
    assert state.roll is not None


def test_level_4_two_matches_with_the_die() -> None:
    state = position(["BOL", "BOS"], [[["ROL"]], [["YSS"]]], roll=(BLUE, -1), level=4)
    # BOL: shape+size (2); BOS: shape only (1).
    assert GAME.legal_moves(state) == (Move("add", t("BOL"), dst=0),)


def test_level_5_picture_die() -> None:
    supply = ["BOL", "BOS", "BSL", "BTS"]
    state = position(supply, [[["ROL"]], [["YSS"]]], roll=(BLUE, LARGE), level=5)
    # Blue and large: BOL, BSL (both match ROL by size).
    assert {TILE_CODES[m.tile] for m in GAME.legal_moves(state)} == {"BOL", "BSL"}
    state = replace(state, roll=(BLUE, SQUARE))
    assert {TILE_CODES[m.tile] for m in GAME.legal_moves(state)} == {"BSL"}
    state = replace(state, roll=(BLUE, BLANK))  # any shape: every blue tile that matches
    assert {TILE_CODES[m.tile] for m in GAME.legal_moves(state)} == {"BOL", "BOS", "BSL"}
    state = replace(state, roll=(BLUE, SMALL))  # BOS matches by shape, BTS not at all
    assert {TILE_CODES[m.tile] for m in GAME.legal_moves(state)} == {"BOS"}


def test_dice_come_from_the_state_stream() -> None:
    cfg = GAME.make_config({"level": 5}, players=2)
    a = GAME.new_game(cfg, 3)
    b = GAME.new_game(cfg, 3)
    for _ in range(2):
        a = GAME.apply(a, GAME.legal_moves(a)[0])
        b = GAME.apply(b, GAME.legal_moves(b)[0])
    assert a.roll == b.roll and a.roll is not None and a.roll[1] >= 0
    assert a == b


def test_move_text() -> None:
    state = position(["BOL", "BOS"], [[["ROL"], ["RSS"]], [["YSS"]]], roll=(BLUE, -1), level=3)
    move = Move("add", t("BOS"), dst=1)
    assert GAME.format_move(state, move) == "BOS on 2"
    assert GAME.parse_move(state, "bos on 2") == move
    assert GAME.parse_move(state, "BOS 2") == move
    assert GAME.parse_move(state, "BOL") == Move("add", t("BOL"), dst=0)  # the only BOL move
    assert GAME.parse_move(state, "BOS new") == Move("new", t("BOS"))
    assert GAME.parse_move(state, " pass ") == Move("pass")
    start = GAME.new_game(GAME.make_config({}, players=2), 1)
    code = TILE_CODES[start.supply[0]]
    assert GAME.parse_move(start, code) == Move("start", start.supply[0])
    assert GAME.format_move(start, Move("start", start.supply[0])) == f"start {code}"
    for bad in ("", "ROX", "R--", "take it", "BOS on"):
        with pytest.raises(MoveParseError, match="ROL"):
            GAME.parse_move(state, bad)


def test_bad_state_json_is_refused() -> None:
    state = position(["BOL", "BOS"], [[["ROL"]], [["YSS"]]])
    obj = GAME.state_to_json(state)
    # supply=0 means 20 were laid out: 4 tiles here break conservation.
    with pytest.raises(StateFormatError, match="conserved"):
        GAME.state_from_json(obj)
    cfg = GAME.make_config({"supply": 4}, players=2)
    good = replace(state, config=cfg)
    obj = GAME.state_to_json(good)
    assert GAME.state_from_json(obj) == good
    obj["supply"] = [t("BOL"), t("BOL")]
    with pytest.raises(StateFormatError):
        GAME.state_from_json(obj)
    with pytest.raises(GameError, match="not over"):
        GAME.result(good)
