"""3-set rules: placing by the dice, moving discs, 3-sets, the four ends, the three scorings
(the printed level-3 example worked by hand) and level 4, on hand-built boards."""

from __future__ import annotations

from dataclasses import replace
from itertools import permutations

import pytest

from tablesim.games.core import IllegalMoveError, MoveParseError, StateFormatError
from tablesim.games.katoiz import GAME
from tablesim.games.katoiz.components import MATCH, TILE_CODES, Move, parse_cell
from tablesim.games.katoiz.threeset import (
    SetState,
    category_points,
    is_set,
    longest_stack,
    set_possible,
)
from tablesim.games.rng import Rng

YELLOW, GREEN, WHITE, RED, BLUE, PURPLE = range(6)
ROUND, SQUARE, TRIANGLE, LARGE, SMALL, BLANK = range(6)


def t(code: str) -> int:
    return TILE_CODES.index(code)


def c(name: str) -> int:
    return parse_cell(name, "test")


def board_state(
    tiles: dict[str, str],
    discs: dict[str, int] | None = None,
    roll: tuple[int, int] = (PURPLE, BLANK),
    players: int = 2,
    seat: int = 0,
    **options: object,
) -> SetState:
    """A position with only ``tiles`` (cell -> code) on the board and ``discs`` (cell -> seat)."""
    cfg = GAME.make_config({"type": "3-set", **options}, players=players)
    base = GAME.new_game(cfg, 0)
    board = [-1] * 36
    for cell, code in tiles.items():
        board[c(cell)] = t(code)
    disc = [-1] * 36
    for cell, s in (discs or {}).items():
        disc[c(cell)] = s
    return replace(base, board=tuple(board), discs=tuple(disc), roll=roll, seat=seat)


def test_setup() -> None:
    state = GAME.new_game(GAME.make_config({"type": "3-set"}, players=3), 4)
    assert len(state.board) == 36 and len(set(state.board)) == 36
    assert all(0 <= x < 40 for x in state.board)  # no blank tiles
    assert len(state.aside) == 4 and all(30 <= x < 40 for x in state.aside)  # duplicates
    assert state.discs == (-1,) * 36
    assert state.roll is not None and state.roll[0] >= 0 and state.roll[1] >= 0


def test_place_on_a_free_tile_that_shows_the_dice() -> None:
    tiles = {"a1": "ROL", "b1": "RSL", "c1": "BOL", "d1": "ROS", "e1": "GTS", "f1": "YTS"}
    state = board_state(tiles, {"a1": 1}, roll=(RED, ROUND))
    # Red and round: a1 (ROL, but P2's disc is on it) and d1 (ROS).
    places = [m for m in GAME.legal_moves(state) if m.kind == "place"]
    assert places == [Move("place", dst=c("d1"))]
    with pytest.raises(IllegalMoveError, match="has .or just had. a disc"):
        GAME.apply(state, Move("place", dst=c("a1")))  # one disc per tile
    with pytest.raises(IllegalMoveError, match="BOL"):
        GAME.apply(state, Move("place", dst=c("c1")))
    after = GAME.apply(state, Move("place", dst=c("d1")))
    assert after.discs[c("d1")] == 0 and after.seat == 1
    # Passing is always allowed (the player "does not want to").
    assert Move("pass") in GAME.legal_moves(state)


def test_moving_a_disc_only_with_all_three_down_and_onto_a_fitting_tile() -> None:
    tiles = {"a1": "ROL", "b1": "GSS", "c1": "BTL", "d1": "ROS", "e1": "WSS", "f1": "YTS"}
    state = board_state(tiles, {"a1": 0, "b1": 0}, roll=(RED, BLANK))
    kinds = {m.kind for m in GAME.legal_moves(state)}
    assert kinds == {"place", "pass"}  # a disc in hand: no moving yet
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, Move("move", src=c("a1"), dst=c("d1")))
    state = board_state(tiles, {"a1": 0, "b1": 0, "c1": 0}, roll=(RED, BLANK))
    moves = [m for m in GAME.legal_moves(state) if m.kind != "pass"]
    # Red, any shape: d1 only is free and red.
    assert moves == [Move("move", src=s, dst=c("d1")) for s in (c("a1"), c("b1"), c("c1"))]
    with pytest.raises(IllegalMoveError, match="fourth disc"):
        GAME.apply(state, Move("place", dst=c("d1")))
    # move_needs_dice off: any free tile.
    free = board_state(tiles, {"a1": 0, "b1": 0, "c1": 0}, roll=(RED, BLANK), move_needs_dice=False)
    dsts = {m.dst for m in GAME.legal_moves(free) if m.kind == "move"}
    assert dsts == {c("d1"), c("e1"), c("f1")}


def test_three_discs_on_a_3set_take_the_tiles() -> None:
    # ROL, RSS, RTL share red: placing the third disc takes all three.
    tiles = {
        "a1": "ROL",
        "b1": "RSS",
        "c1": "RTL",
        "d1": "GOS",
        "e1": "GTS",
        "f1": "WSL",
        "a2": "YOS",
        "b2": "BTL",
    }
    state = board_state(tiles, {"a1": 0, "b1": 0}, roll=(RED, TRIANGLE))
    after = GAME.apply(state, Move("place", dst=c("c1")))
    assert after.piles[0] == (t("ROL"), t("RSS"), t("RTL"))
    assert after.board[c("a1")] == after.board[c("b1")] == after.board[c("c1")] == -1
    assert after.discs.count(0) == 0  # the discs are free again


def test_set_rules() -> None:
    # ROL, RTS, GTL: every two match (colour / size / shape) but no property is shared by all.
    a, b, d = t("ROL"), t("RTS"), t("GTL")
    assert not is_set(a, b, d, "common")
    assert is_set(a, b, d, "pairwise")
    assert is_set(t("ROL"), t("GOS"), t("BOL"), "common")  # round
    assert not is_set(t("ROL"), t("GSS"), t("BTS"), "pairwise")  # ROL-GSS share nothing
    tiles = {"a1": "ROL", "b1": "RTS", "c1": "GTL", "d1": "WSL", "e1": "YSL"}
    state = board_state(tiles, {"a1": 0, "b1": 0}, roll=(GREEN, TRIANGLE))
    assert GAME.apply(state, Move("place", dst=c("c1"))).piles[0] == ()
    pair = board_state(tiles, {"a1": 0, "b1": 0}, roll=(GREEN, TRIANGLE), set_rule="pairwise")
    assert len(GAME.apply(pair, Move("place", dst=c("c1"))).piles[0]) == 3


def test_set_possible() -> None:
    assert set_possible([t("ROL"), t("GOS"), t("BOL")], "common")  # round thrice
    assert not set_possible([t("ROL"), t("GSS"), t("BTL")], "common")
    assert not set_possible([t("ROL"), t("GSS"), t("BTS"), t("YTL")], "common")
    assert set_possible([t("ROL"), t("RTS"), t("GTL")], "pairwise")
    assert not set_possible([t("ROL"), t("RTS"), t("GTL")], "common")


@pytest.mark.parametrize(
    ("tiles", "discs", "reason"),
    [
        ({}, {}, "the tiles ran out"),
        # ROL, GSS, BTL, YTS: no colour, shape or size thrice (sizes L,S,L,S).
        ({"a1": "ROL", "b1": "GSS", "c1": "BTL", "d1": "YTS"}, {}, "no 3-set"),
        ({"a1": "ROL", "b1": "RSS", "c1": "RTL"}, {"a1": 0, "b1": 1, "c1": 1}, "disc on every"),
    ],
)
def test_printed_ends(tiles: dict[str, str], discs: dict[str, int], reason: str) -> None:
    state = board_state(tiles, discs)
    assert GAME.is_terminal(state)
    assert GAME.legal_moves(state) == ()
    assert reason in GAME.result(state).detail["end"]


def test_three_forfeited_turns_in_a_row_end_the_game_and_the_cap() -> None:
    tiles = {"a1": "ROL", "b1": "RSS", "c1": "RTL", "d1": "GOS"}
    state = board_state(tiles, players=2)
    for _ in range(2):
        state = GAME.apply(state, Move("pass"))
        assert not GAME.is_terminal(state)
    state = GAME.apply(state, Move("pass"))
    assert GAME.is_terminal(state)
    assert GAME.result(state).detail["end"] == "three turns in a row were forfeited"
    capped = board_state(tiles, max_turns=1)
    capped = GAME.apply(capped, Move("place", dst=c("a1")))
    assert GAME.is_terminal(capped)
    assert "turn cap" in GAME.result(capped).detail["end"]


def test_level_1_most_sets_wins() -> None:
    state = board_state({})
    state = replace(state, piles=((t("ROL"), t("RSS"), t("RTL")), ()))
    res = GAME.result(state)
    assert res.scores == (1.0, 0.0) and res.winners == (0,)


def test_level_3_printed_example() -> None:
    # The printed tallies: colour 2, shape 3, size 5. Nine tiles: colours Y4 G2 W1 R1 B1
    # -> (4-2) = 2; shapes 3/3/3 -> 1+1+1 = 3; sizes 5 large, 4 small -> 3+2 = 5. Total 10.
    tiles = ["YOL", "YSL", "YTL", "YOS", "GSS", "GTL", "WOS", "RSL", "BTS"]
    assert category_points([t(x) for x in tiles]) == 2 + 3 + 5
    # A colour with fewer than two tiles scores nothing (never negative).
    assert category_points([t("ROL")]) == 0
    state = replace(
        board_state({}, category_score=True),
        piles=(tuple(t(x) for x in tiles), (t("ROL"), t("RSS"), t("RTL"))),
    )
    # P2: red 3 -> 1; shapes 1,1,1 -> 0; sizes L2 S1 -> 0: 1 point.
    assert GAME.result(state).scores == (10.0, 1.0)


def _brute_stack(tiles: list[int], need: int) -> int:
    best = 0
    for r in range(1, len(tiles) + 1):
        for perm in permutations(tiles, r):
            if all(MATCH[a][b] >= need for a, b in zip(perm, perm[1:], strict=False)):
                best = r
                break
    return best


def test_level_2_longest_stack_by_hand_and_against_brute_force() -> None:
    # One match: ROL, GSS: nothing shared; add RSS: ROL-RSS (red), RSS-GSS (square, small).
    assert longest_stack([t("ROL"), t("GSS")], 1) == 1
    assert longest_stack([t("ROL"), t("GSS"), t("RSS")], 1) == 3
    # Two matches: ROL-ROS (red round) -ROS-GOS (round small); GTL matches none twice.
    assert longest_stack([t("ROL"), t("ROS"), t("GOS"), t("GTL")], 2) == 3
    # The star: centre ROL twice, leaves BOL, RSL, ROS (pairwise one match only):
    # BOL ROL RSL ROL ROS = 5 uses the centre twice.
    star = [t("ROL"), 36, t("BOL"), t("RSL"), t("ROS")]
    assert TILE_CODES[36] == "ROL"
    assert longest_stack(star, 2) == 5
    rng = Rng.from_seed(1, "stack-test")
    for _ in range(40):
        n, rng = rng.randint(1, 6)
        tiles, rng = rng.shuffle(list(range(40)))
        pick = list(tiles[:n])
        for need in (1, 2):
            assert longest_stack(pick, need) == _brute_stack(pick, need), (pick, need)


def test_level_2_highest_stack_wins() -> None:
    state = replace(
        board_state({}, stack_score=True, stack_matches=2),
        piles=((t("ROL"), t("ROS"), t("GOS")), (t("ROL"), t("GSS"), t("BTL"))),
    )
    res = GAME.result(state)
    assert res.scores == (3.0, 1.0) and res.winners == (0,)


def test_level_4_remove_an_opponents_disc() -> None:
    tiles = {"a1": "ROL", "b1": "ROS", "c1": "GOS", "d1": "BSS", "e1": "RTL"}
    state = board_state(tiles, {"a1": 1, "c1": 1}, roll=(RED, ROUND), level=4)
    legal = GAME.legal_moves(state)
    # a1 (ROL, P2's disc) shows red+round: removable, also though b1 is free and fits.
    assert Move("place", dst=c("b1"), rem=c("a1")) in legal
    assert Move("pass", rem=c("a1")) in legal
    # c1 (GOS) is not red: its disc stays.
    with pytest.raises(IllegalMoveError, match="removes"):
        GAME.apply(state, Move("place", dst=c("b1"), rem=c("c1")))
    # The freed tile may not get one's own disc in the same turn.
    with pytest.raises(IllegalMoveError, match="just had"):
        GAME.apply(state, Move("place", dst=c("a1"), rem=c("a1")))
    after = GAME.apply(state, Move("place", dst=c("b1"), rem=c("a1")))
    assert after.discs[c("a1")] == -1 and after.discs[c("b1")] == 0
    assert after.forfeits == 0
    # A pass that removes a disc is not a forfeited turn.
    assert GAME.apply(replace(state, forfeits=2), Move("pass", rem=c("a1"))).forfeits == 0
    # Without level 4 no removal.
    plain = board_state(tiles, {"a1": 1}, roll=(RED, ROUND))
    with pytest.raises(IllegalMoveError, match="level 4"):
        GAME.apply(plain, Move("pass", rem=c("a1")))


def test_level_4_reroll_next_to_own_disc_once() -> None:
    tiles = {"a1": "ROL", "b1": "ROS", "b2": "RSS", "c3": "RTS", "f6": "GTL", "e5": "YSL"}
    state = board_state(tiles, {"a1": 0}, roll=(RED, BLANK), reroll=True)
    after = GAME.apply(state, Move("place", dst=c("b1")))  # next to a1 (orthogonal)
    assert after.seat == 0 and after.bonus and after.roll is not None
    again = GAME.apply(replace(after, roll=(RED, BLANK)), Move("place", dst=c("b2")))
    assert again.seat == 1 and not again.bonus  # once more, no chain
    # Diagonal: b2 touches a1 only diagonally.
    diag = GAME.apply(state, Move("place", dst=c("b2")))
    assert diag.seat == 1
    state_d = board_state(tiles, {"a1": 0}, roll=(RED, BLANK), reroll=True, diagonal_next=True)
    assert GAME.apply(state_d, Move("place", dst=c("b2"))).seat == 0


def test_move_text() -> None:
    state = board_state({"a1": "ROL", "b2": "ROS"}, {"f6": 1}, level=4)
    for text, move in (
        ("c4", Move("place", dst=c("c4"))),
        ("a1-c4", Move("move", src=c("a1"), dst=c("c4"))),
        ("pass", Move("pass")),
        ("xb2 c4", Move("place", dst=c("c4"), rem=c("b2"))),
        ("xb2 a1-c4", Move("move", src=c("a1"), dst=c("c4"), rem=c("b2"))),
        ("xb2 pass", Move("pass", rem=c("b2"))),
    ):
        assert GAME.format_move(state, move) == text
        assert GAME.parse_move(state, text.upper()) == move
    assert GAME.parse_move(state, "xb2") == Move("pass", rem=c("b2"))
    for bad in ("", "g1", "a7", "a1-", "a1-pass", "x c4"):
        with pytest.raises(MoveParseError, match="a1-c4"):
            GAME.parse_move(state, bad)


def test_state_json_checks() -> None:
    state = GAME.new_game(GAME.make_config({"type": "3-set"}, players=2), 2)
    obj = GAME.state_to_json(state)
    assert GAME.state_from_json(obj) == state
    bad = dict(obj, board=[obj["board"][1], *obj["board"][1:]])  # a tile twice
    with pytest.raises(StateFormatError, match="conserved"):
        GAME.state_from_json(bad)
    bad = dict(obj, discs=[0, 0, 0, 0] + [-1] * 32)
    with pytest.raises(StateFormatError, match="more than 3"):
        GAME.state_from_json(bad)
    bad = dict(obj, roll=None)
    with pytest.raises(StateFormatError, match="roll"):
        GAME.state_from_json(bad)


def test_describe_draws_the_board() -> None:
    tiles = {"a1": "ROL", "b1": "RSL", "c1": "BSL", "f6": "GTS"}  # large thrice: not over
    state = board_state(tiles, {"a1": 1}, roll=(RED, ROUND))
    text = GAME.describe(state)
    lines = text.splitlines()
    assert lines[1].split() == ["a", "b", "c", "d", "e", "f"]
    assert lines[2].split() == ["6", "...", "...", "...", "...", "...", "GTS."]  # row 6 first
    assert lines[7].split() == ["1", "ROL2", "RSL.", "BSL.", "...", "...", "..."]  # P2 on a1
    assert "rolled red + round" in text
