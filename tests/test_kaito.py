"""Kaito rules: the set, the opening, movement, captures, the Mons trade, the three endings,
the rulebook's worked example, perft counts, text and JSON forms, and seeded playouts.

Every expected number is worked out by hand in the comments (grids drawn with row 6 on top);
positions are built with ``make_position``, never copied from the code's output.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence

import pytest

from tablesim.games.core import (
    ConfigError,
    GameError,
    IllegalMoveError,
    MoveParseError,
    StateFormatError,
)
from tablesim.games.kaito import (
    GAME,
    KaitoConfig,
    KaitoState,
    Move,
    make_position,
    minimal_payments,
)
from tablesim.games.kaito.rules import FULL_SET, cell_name, parse_cell
from tablesim.games.rng import Rng


def cfg(**options: str) -> KaitoConfig:
    return GAME.make_config(options, players=2)


def grid(rows: Sequence[str]) -> dict[str, str]:
    """Tiles from six row strings, row 6 first, cells separated by spaces, ``..`` a gap."""
    assert len(rows) == 6
    out: dict[str, str] = {}
    for i, line in enumerate(rows):
        for col, tile in zip("abcdef", line.split(), strict=True):
            if tile != "..":
                out[f"{col}{6 - i}"] = tile
    return out


def pos(tiles: dict[str, str], kaito: str | None, player: int = 0, held=((), ()), **options):
    return make_position(tiles, kaito, player, held, config=cfg(**options), turn=10)


def play(state: KaitoState, *texts: str) -> KaitoState:
    for text in texts:
        state = GAME.apply(state, GAME.parse_move(state, text))
    return state


def targets(state: KaitoState) -> list[str]:
    return [cell_name(c) for c in state.targets]


def perft(state: KaitoState, depth: int) -> int:
    """Leaf count at ``depth`` plies (a finished game before that counts 0)."""
    if depth == 0:
        return 1
    return sum(perft(GAME.apply(state, m), depth - 1) for m in GAME.legal_moves(state))


# Kings of the side lines: each side keeps a Katana and a Kabuto on cells no line in these
# small positions touches (d6, e6 for red is not used: see each test).
GUARDS = {"f6": "BH", "e6": "BS"}


# ---- the set and the shuffle --------------------------------------------------------------


def test_the_set_has_36_tiles_as_the_rulebook_lists() -> None:
    # "17 tiles in each color ..., each color with 7 Katana tiles, 3 Kabuto tiles and 7 Mon
    # tiles (2 valued 3, 2 valued 2, 3 valued 1)" + "2 opening tiles" = 2 * 17 + 2 = 36.
    counts = Counter(FULL_SET)
    assert len(FULL_SET) == 36
    for c in "RB":
        assert counts[c + "S"] == 7 and counts[c + "H"] == 3
        assert (counts[c + "3"], counts[c + "2"], counts[c + "1"]) == (2, 2, 3)
        # Mons of one colour are worth 2*3 + 2*2 + 3*1 = 13.
        assert sum(int(v) * counts[c + v] for v in "123") == 13
    assert counts["O"] == 2


def test_new_game_is_a_seeded_shuffle_of_the_whole_set() -> None:
    state = GAME.new_game(cfg(), 7)
    assert sorted(t for t in state.board if t is not None) == sorted(FULL_SET)
    assert None not in state.board and state.kaito is None
    assert GAME.new_game(cfg(), 7) == state
    boards = {GAME.new_game(cfg(), s).board for s in range(20)}
    assert len(boards) == 20


def test_shuffle_is_the_same_in_another_process() -> None:
    code = (
        "from tablesim.games.kaito import GAME; "
        "print(GAME.state_digest(GAME.new_game(GAME.make_config({}, players=2), 123)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == GAME.state_digest(GAME.new_game(cfg(), 123))


# ---- the opening --------------------------------------------------------------------------


def test_opening_black_removes_the_opening_tiles_then_places_the_kaito() -> None:
    state = GAME.new_game(cfg(), 3)
    opening = [c for c, t in enumerate(state.board) if t == "O"]
    assert len(opening) == 2
    # "The second player will remove from play the two opening tiles": black (seat 1) moves
    # first, and removing both opening tiles is the only move.
    assert GAME.current_player(state) == 1
    assert state.phase == "remove"
    assert GAME.legal_moves(state) == (Move("remove", tuple(opening)),)
    text = "remove " + " ".join(cell_name(c) for c in opening)
    assert GAME.format_move(state, GAME.legal_moves(state)[0]) == text
    state = play(state, text)
    assert [state.board[c] for c in opening] == [None, None]
    assert state.out_of_play == ("O", "O")
    # "... and then he will place the Kaito piece on one of the open spots".
    assert state.phase == "place" and GAME.current_player(state) == 1
    assert GAME.legal_moves(state) == tuple(Move("place", (c,)) for c in opening)
    state = play(state, f"kaito {cell_name(opening[1])}")
    # "The first player will start his turn by moving the Kaito."
    assert state.kaito == opening[1]
    assert GAME.current_player(state) == 0 and state.phase == "play"
    assert GAME.turn_number(state) == 2


def test_opening_refuses_anything_else() -> None:
    state = GAME.new_game(cfg(), 3)
    opening = [c for c, t in enumerate(state.board) if t == "O"]
    other = next(c for c in range(36) if c not in opening)
    with pytest.raises(IllegalMoveError, match="opening tiles"):
        GAME.apply(state, Move("remove", (opening[0], other)))
    with pytest.raises(IllegalMoveError, match="not allowed now"):
        GAME.apply(state, Move("place", (opening[0],)))
    state = GAME.apply(state, GAME.legal_moves(state)[0])
    with pytest.raises(IllegalMoveError, match="gap"):
        GAME.apply(state, Move("place", (other,)))
    with pytest.raises(IllegalMoveError, match="not allowed now"):
        GAME.apply(state, Move("move", (other,)))
    # In the placing phase a bare cell means "put the Kaito there".
    assert GAME.parse_move(state, cell_name(opening[0])) == Move("place", (opening[0],))
    assert GAME.parse_move(state, f"place {cell_name(opening[0])}") == Move("place", (opening[0],))


# ---- movement and capture -----------------------------------------------------------------

# Row 4 seen from the Kaito on c4:  a4 R1, b4 gap, c4 Kaito, d4 B2, e4 gap, f4 R3.
# Column c:  c6 B1, c5 gap, c4 Kaito, c3 R2, c2 gap, c1 BS.
LINES = {
    "a4": "R1",
    "d4": "B2",
    "f4": "R3",
    "c6": "B1",
    "c3": "R2",
    "c1": "BS",
    "a1": "RS",
    "b2": "RH",
    **GUARDS,
}


def test_pass_movement_reaches_every_tile_in_row_and_column() -> None:
    state = pos(LINES, "c4")
    # Pass-over (default): a4, d4, f4 in the row; c6, c3, c1 in the column; not the gaps,
    # not a1/b2/e6/f6 (off the lines).
    assert targets(state) == ["c1", "c3", "a4", "d4", "f4", "c6"]
    assert len(GAME.legal_moves(state)) == 6  # nobody holds anything: no trades


def test_first_tile_movement_stops_at_the_nearest_tile_and_jumps_gaps() -> None:
    state = pos(LINES, "c4", movement="first-tile")
    # Left: b4 gap, a4 -> a4. Right: d4 (f4 is behind it). Down: c3 (c1 behind it).
    # Up: c5 gap, c6 -> c6.
    assert targets(state) == ["c3", "a4", "d4", "c6"]
    with pytest.raises(IllegalMoveError, match="first tile"):
        play(state, "c4-f4")


def test_capture_own_tile_goes_out_of_play_opponent_tile_is_kept() -> None:
    state = pos(LINES, "c4")
    after = play(state, "c4-a4")  # red takes its own 1-Mon
    assert after.board[parse_cell("a4")] is None and after.kaito == parse_cell("a4")
    assert after.held == ((), ())
    assert after.out_of_play.count("R1") == 3  # a4's and the two never on this grid
    assert GAME.current_player(after) == 1
    after = play(state, "c4-d4")  # red takes a black 2-Mon
    assert after.held == (("B2",), ())
    # The set has two black 2-Mons: one held by red now, the other never on this grid.
    assert after.out_of_play.count("B2") == 1


def test_the_kaito_cannot_stay_or_leave_its_lines() -> None:
    state = pos(LINES, "c4")
    with pytest.raises(IllegalMoveError, match="cannot land on b2.*a4, d4, f4"):
        play(state, "c4-b2")
    with pytest.raises(IllegalMoveError, match="cannot land on b4"):
        play(state, "c4-b4")  # a gap


# ---- the Mons trade -----------------------------------------------------------------------


def test_minimal_payments_by_hand() -> None:
    # Katana (price 4) from 3, 2, 1, 1, 1: {3,1} = 4, {2,1,1} = 4, {3,2} = 5 (dropping either
    # Mon falls below 4); {3,1,1} = 5 is not minimal (drop a 1: still 4). No {2,2}: one 2.
    assert minimal_payments([3, 2, 1, 1, 1], 4) == [(2, 1, 1), (3, 1), (3, 2)]
    # Kabuto (price 5): {3,2}, {3,1,1}, {2,1,1,1}; {3,2,1} = 6 is not minimal.
    assert minimal_payments([3, 2, 1, 1, 1], 5) == [(2, 1, 1, 1), (3, 1, 1), (3, 2)]
    # "If you trade a tile for 2 Mons valued 3 (sum of 6), you will not receive any change."
    assert minimal_payments([3, 3], 4) == [(3, 3)]
    assert minimal_payments([3, 3], 5) == [(3, 3)]
    # Too little: 2 + 1 = 3 < 4; 3 + 1 = 4 < 5.
    assert minimal_payments([2, 1], 4) == []
    assert minimal_payments([3, 1], 5) == []


# Red on a1, to move. Row 1: b1 B1. Column a: a3 RS (red's last Katana on the grid), b4 R1 and
# d3 B2 give black somewhere to go afterwards; e5 RH is red's only Kabuto, f2 BS / f6 BH black's
# guards. Red holds black Mons 3, 2, 1, 1; black holds a red Katana and a red Kabuto.
TRADE_TILES = {"b1": "B1", "a3": "RS", "b4": "R1", "d3": "B2", "e5": "RH", "f2": "BS", "f6": "BH"}
TRADE_HELD = (("B1", "B1", "B2", "B3"), ("RH", "RS"))


def test_trade_moves_listed_with_every_minimal_payment() -> None:
    state = pos(TRADE_TILES, "a1", 0, TRADE_HELD)
    texts = [GAME.format_move(state, m) for m in GAME.legal_moves(state)]
    # Capturing b1 adds a black 1-Mon: 3, 2, 1, 1, 1 pays a Katana 3 ways and a Kabuto 3 ways.
    # Capturing a3 (own) leaves 3, 2, 1, 1: Katana 3 ways ({3,1}, {2,1,1}, {3,2}), Kabuto
    # 2 ways ({3,2}, {3,1,1}; {2,1,1,1} needs three 1s).
    assert sorted(texts) == sorted(
        [
            "a1-b1",
            "a1-b1 buy katana 2+1+1",
            "a1-b1 buy katana 3+1",
            "a1-b1 buy katana 3+2",
            "a1-b1 buy kabuto 2+1+1+1",
            "a1-b1 buy kabuto 3+1+1",
            "a1-b1 buy kabuto 3+2",
            "a1-a3",
            "a1-a3 buy katana 2+1+1",
            "a1-a3 buy katana 3+1",
            "a1-a3 buy katana 3+2",
            "a1-a3 buy kabuto 3+1+1",
            "a1-a3 buy kabuto 3+2",
        ]
    )


def test_trade_pays_mons_out_of_play_and_puts_the_tile_under_the_kaito() -> None:
    state = pos(TRADE_TILES, "a1", 0, TRADE_HELD)
    after = play(state, "a1-b1 buy kabuto 3+2")
    # Red captured B1 (kept), paid B3 + B2 (out of play), got its Kabuto back on b1 under the
    # Kaito: red holds B1 x3, black holds only the red Katana.
    assert after.kaito == parse_cell("b1") and after.board[parse_cell("b1")] == "RH"
    assert after.held == (("B1", "B1", "B1"), ("RS",))
    assert Counter(after.out_of_play) >= Counter(["B3", "B2"])
    assert after.on_board(0, "H") == 2
    # The tile under the Kaito is not a target for black, who must leave b1 (to b4).
    assert targets(after) == ["b4"]
    # No change: paying 3+3 for a Katana leaves nothing behind.
    rich = pos(TRADE_TILES, "a1", 0, (("B3", "B3"), ("RS",)))
    after = play(rich, "a1-a3 buy katana 3+3")
    assert after.held == ((), ()) and after.board[parse_cell("a3")] == "RS"
    assert after.out_of_play.count("B3") == 2


def test_the_just_captured_mon_can_pay() -> None:
    # Red holds only a black 3-Mon; capturing the black 1-Mon on b1 makes 4: a Katana.
    state = pos(TRADE_TILES, "a1", 0, (("B3",), ("RS",)))
    texts = [GAME.format_move(state, m) for m in GAME.legal_moves(state)]
    assert "a1-b1 buy katana 3+1" in texts
    assert not any(t.startswith("a1-a3 buy") for t in texts)  # 3 < 4 after an own capture


def test_bad_trades_say_why() -> None:
    state = pos(TRADE_TILES, "a1", 0, TRADE_HELD)
    with pytest.raises(IllegalMoveError, match="no superfluous Mon"):
        play(state, "a1-b1 buy katana 3+1+1")  # drop a 1 and 4 is still paid
    with pytest.raises(IllegalMoveError, match="payments allowed: 2\\+1\\+1, 3\\+1, 3\\+2"):
        play(state, "a1-a3 buy katana 2+1")  # 3 < 4
    nothing_held = pos(TRADE_TILES, "a1", 0, (("B1", "B1", "B2", "B3"), ("RS",)))
    with pytest.raises(IllegalMoveError, match="holds no red Kabuto"):
        play(nothing_held, "a1-b1 buy kabuto 3+2")
    # One trade per turn: a second "buy" is not a move at all.
    with pytest.raises(MoveParseError, match="not a move"):
        GAME.parse_move(state, "a1-b1 buy katana 3+1 buy kabuto 2+1+1")


def test_no_trade_offered_when_the_opponent_holds_nothing_of_yours() -> None:
    state = pos(TRADE_TILES, "a1", 0, (("B1", "B1", "B2", "B3"), ()))
    assert all(not m.buy for m in GAME.legal_moves(state))


# ---- endings ------------------------------------------------------------------------------


def test_capturing_the_opponents_last_kabuto_wins() -> None:
    # Red on a1; black's only Kabuto on a5 in column a. Red's guards e2 RS, e3 RH; black's
    # Katana on f6; d1 B1 is another target.
    state = pos({"a5": "BH", "d1": "B1", "e2": "RS", "e3": "RH", "f6": "BS"}, "a1")
    after = play(state, "a1-a5")
    assert GAME.is_terminal(after) and GAME.current_player(after) is None
    assert GAME.legal_moves(after) == ()
    result = GAME.result(after)
    assert result.winners == (0,) and result.scores == (1.0, 0.0)
    assert result.detail["reason"] == "no-kabuto" and result.detail["kabuto_on_board"] == [1, 0]
    with pytest.raises(IllegalMoveError, match="over"):
        GAME.apply(after, Move("move", (parse_cell("d1"),)))


def test_capturing_your_own_last_katana_loses() -> None:
    # "you will win if all of your opponent's 7 Swords or 3 Helmets are removed from play
    # regardless by which player": red takes its own last Katana on a5 and loses.
    state = pos({"a5": "RS", "d1": "B1", "e3": "RH", "f6": "BS", "f5": "BH"}, "a1")
    result = GAME.result(play(state, "a1-a5"))
    assert result.winners == (1,) and result.detail["reason"] == "no-katana"


def test_a_player_who_cannot_move_loses_at_the_start_of_the_turn() -> None:
    # Red takes d1; from d1 black sees row 1 (a1 now empty) and column d (d2..d6 empty).
    state = pos({"d1": "B1", "e3": "RH", "e2": "RS", "f6": "BS", "f5": "BH"}, "a1")
    after = play(state, "a1-d1")
    assert GAME.is_terminal(after)
    assert after.outcome == (0, "no-move")
    assert "Black cannot move the Kaito" in GAME.describe(after)


def test_material_is_checked_before_mobility() -> None:
    # Red takes its own last Katana on a3; black, on a3, would then have no tile in row 3 or
    # column a. The turn's material check comes first: red has lost, black need not move.
    state = pos({"a3": "RS", "d1": "B1", "e2": "RH", "f6": "BS", "f5": "BH"}, "a1")
    assert GAME.result(play(state, "a1-a3")).detail["reason"] == "no-katana"
    assert GAME.result(play(state, "a1-a3")).winners == (1,)


# Red takes its own last Kabuto (a3) and buys one back in the same turn.
OWN_LAST = {"a3": "RH", "d3": "B1", "e2": "RS", "f6": "BS", "f5": "BH"}


def test_turn_end_check_lets_a_trade_save_your_last_kabuto() -> None:
    state = pos(OWN_LAST, "a1", 0, (("B2", "B3"), ("RH",)))
    after = play(state, "a1-a3 buy kabuto 3+2")
    # The check happens at the end of the turn, after the trade: the bought Kabuto lies on a3
    # under the Kaito, so red still has one and black (on a3, sees d3) moves on.
    assert not GAME.is_terminal(after)
    assert after.on_board(0, "H") == 1 and targets(after) == ["d3"]
    # Without the trade red loses.
    assert GAME.result(play(state, "a1-a3")).winners == (1,)


def test_capture_check_ends_the_game_before_the_trade() -> None:
    state = pos(OWN_LAST, "a1", 0, (("B2", "B3"), ("RH",)), end_check="capture")
    texts = [GAME.format_move(state, m) for m in GAME.legal_moves(state)]
    # a3 ends the game at once, so only the plain capture is listed there; d3 is not in line.
    assert texts == ["a1-a3"]
    with pytest.raises(IllegalMoveError, match="ends the game at once"):
        play(state, "a1-a3 buy kabuto 3+2")
    assert GAME.result(play(state, "a1-a3")).detail["reason"] == "no-kabuto"


# ---- the rulebook's worked example --------------------------------------------------------

# Red to move, Kaito on c6 (row 6 on top):
#      a    b    c    d    e    f
#  6   ..   ..  [  ]  ..   ..   ..
#  5   ..   ..   ..   ..   RS   ..
#  4   R1   ..   RS   ..   ..   BH      <- black's last Kabuto on f4
#  3   ..   ..   ..   ..   ..   ..
#  2   ..   BS   ..   ..   RH   ..
#  1   ..   ..   B1   ..   ..   ..
# Red holds black Mons 3 + 2; black holds a red Kabuto.
EXAMPLE = {"c4": "RS", "f4": "BH", "a4": "R1", "c1": "B1", "e2": "RH", "e5": "RS", "b2": "BS"}
EXAMPLE_HELD = (("B2", "B3"), ("RH",))


def test_rulebook_worked_example_red_buys_back_a_helmet_and_wins() -> None:
    state = pos(EXAMPLE, "c6", 0, EXAMPLE_HELD)
    # "The red player moves the Kaito to capture the red sword ... he chooses to pay 5 Mons to
    # return a red helmet and to place it beneath the Kaito."
    state = play(state, "c6-c4 buy kabuto 3+2")
    assert state.board[parse_cell("c4")] == "RH" and state.held == ((), ())
    # Black on c4 may land on a4, f4 (row 4) or c1 (column c).
    assert targets(state) == ["c1", "a4", "f4"]
    # f4 takes black's own last Kabuto: black loses at once.
    assert GAME.result(play(state, "c4-f4")).winners == (0,)
    # a4 ("moving in a horizontal manner") leaves red on a4 with f4 in its row: red takes it.
    assert GAME.result(play(state, "c4-a4", "a4-f4")).detail["reason"] == "no-kabuto"
    # "... and will be forced to move the Kaito down to capture the black mon."
    state = play(state, "c4-c1")
    # "The red player can then move back up, capturing his own helmet": from c1 only c4 is in
    # reach (row 1 is empty), and it is the helmet red bought back.
    assert targets(state) == ["c4"]
    state = play(state, "c1-c4")
    assert state.on_board(0, "H") == 1  # e2 is left
    # "... to force the black player to stay on the horizontal line": column c is empty now.
    assert targets(state) == ["a4", "f4"]
    state = play(state, "c4-a4")
    # "... and then capture the black last helmet and win the game."
    assert targets(state) == ["f4"]
    state = play(state, "a4-f4")
    result = GAME.result(state)
    assert result.winners == (0,) and result.detail["reason"] == "no-kabuto"
    assert result.detail["turns"] == 10 + 5


def test_rulebook_worked_example_without_the_trade_red_is_stuck() -> None:
    # Without the helmet under the Kaito, c4 is empty when black has gone down to c1: red on
    # c1 has no tile in row 1 or column c and loses.
    state = play(pos(EXAMPLE, "c6", 0, EXAMPLE_HELD), "c6-c4", "c4-c1")
    assert state.outcome == (1, "no-move")


# ---- perft --------------------------------------------------------------------------------


def test_perft_sparse_position_with_trades() -> None:
    state = pos(TRADE_TILES, "a1", 0, TRADE_HELD)
    # Depth 1: 7 moves to b1 + 6 to a3 (listed in test_trade_moves_listed_...) = 13.
    # Depth 2: after b1 (any trade or none) black, on b1, reaches only b4 (row 1 is empty,
    # column b holds b4): 7 x 1. After a3 without a Katana bought back red has no Katana and
    # has lost (a3 plain, a3 + Kabuto x2: 0). After a3 + Katana (x3) black, on a3, reaches only
    # d3 (column a is empty): 3 x 1. Total 7 + 3 = 10.
    # Depth 3: after b1 plain + b4, red on b4 finds b1 empty and column b and row 4 empty: 0.
    # After b1 + a trade (6 ways) + b4, red reaches b1 (its bought tile) and nothing else, and
    # can trade no more (at most 3 + 1 = 4 left with only a Kabuto to buy, or a Katana with
    # 3 left): 6 x 1. After a3 + Katana + d3, red on d3 reaches a3 only, with at most 3 left:
    # 3 x 1. Total 6 + 3 = 9.
    assert [perft(state, d) for d in (1, 2, 3)] == [13, 10, 9]


def test_perft_sparse_position_capture_check() -> None:
    state = pos(TRADE_TILES, "a1", 0, TRADE_HELD, end_check="capture")
    # a3 takes red's last Katana: the game ends at once, no trade there. Depth 1: 7 + 1 = 8;
    # depth 2: the 7 b1 moves each answered by b4, a3 is over: 7; depth 3: 0 + 6 (as above).
    assert [perft(state, d) for d in (1, 2, 3)] == [8, 7, 6]


# The full grid: all 34 coloured tiles, gaps on a1 (the Kaito) and f6. No black Mon lies in
# row 1 or column a, so red's first capture is never a Mon of black's and red cannot hold the
# 4 it needs for a trade within three plies; black holds at most one tile by ply 2.
FULL = grid(
    [
        "BS BH BH BH RS ..",
        "BS BS BS BS BS BS",
        "RH R2 R1 R1 R1 RS",
        "RH B1 B1 R3 R3 R2",
        "RH B3 B3 B2 B2 B1",
        ".. RS RS RS RS RS",
    ]
)


def test_full_grid_is_the_whole_set() -> None:
    assert sorted(FULL.values()) == sorted(t for t in FULL_SET if t != "O")


def test_perft_full_grid_pass_movement() -> None:
    state = pos(FULL, "a1")
    # Depth 1: row 1 b1..f1 (5) + column a a2..a6 (5) = 10.
    # Depth 2: from t1 in row 1, x1 with x in b..e: rest of row 1 minus a1 (4) + column x
    # (5) = 9; from f1: 4 + column f minus the gap f6 (4) = 8. Row 1: 4 x 9 + 8 = 44; column
    # a by symmetry (a6 shares row 6 with f6) 44. Total 88.
    # Depth 3: from t2 the Kaito sees 10 cells minus t1 (always in line) minus a1 if t2 is in
    # row 1 or column a, minus f6 if t2 is in row 6 or column f: 9 - A - F.
    #   t1 = x1 (x = b..e): t2 in row 1 (4 cells, A = 1): three give 8 and f1 (F = 1) 7 = 31;
    #     t2 in column x: x2..x5 give 9, x6 (F = 1) 8 = 44; per t1 75, four of them 300.
    #   t1 = f1: t2 = b1..e1 give 8 each (32); f2..f5 (F = 1) give 8 each (32): 64.
    #   Column a is the mirror image: 300 + 64. Total 2 x 364 = 728.
    assert [perft(state, d) for d in (1, 2, 3)] == [10, 88, 728]


def test_perft_full_grid_first_tile_movement() -> None:
    state = pos(FULL, "a1", movement="first-tile")
    # Depth 1: right b1, up a2 = 2.
    # Depth 2: from b1: right c1, up b2 (left is the gap a1, then the edge) = 2; from a2: up
    # a3, right b2 = 2. Total 4.
    # Depth 3: b1-c1: d1, c2 (2); b1-b2: a2, c2, b3 (down is b1, a gap) (3); a2-a3: a4, b3
    # (2); a2-b2: c2, b3, b1 (left is a2, a gap) (3). Total 10.
    assert [perft(state, d) for d in (1, 2, 3)] == [2, 4, 10]


# ---- text forms ---------------------------------------------------------------------------


def test_move_text_spellings() -> None:
    state = pos(TRADE_TILES, "a1", 0, TRADE_HELD)
    want = Move("move", (parse_cell("b1"),), "kabuto", (3, 2))
    for text in (
        "a1-b1 buy kabuto 3+2",
        "A1-B1 BUY KABUTO 3+2",
        "a1 - b1 buy helmet 3 2",
        "b1 buy kabuto 2+3",
        "a1 to b1, buy kabuto with 3,2",
        "a1xb1 trade helmet 3+2",
    ):
        assert GAME.parse_move(state, text) == want, text
    assert GAME.parse_move(state, "a1-b1 buy sword 3+1") == Move(
        "move", (parse_cell("b1"),), "katana", (3, 1)
    )
    assert GAME.parse_move(state, "b1") == Move("move", (parse_cell("b1"),))
    assert GAME.format_move(state, want) == "a1-b1 buy kabuto 3+2"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("banana", "not a move"),
        ("g7", "not a move"),
        ("c2-b1", "the Kaito is on a1"),
        ("a1-b1 buy castle 3+2", "not a move"),
        ("a1-b1 buy kabuto 4+1", "not a move"),
        ("", "not a move"),
    ],
)
def test_move_parse_errors_give_a_hint(text: str, fragment: str) -> None:
    state = pos(TRADE_TILES, "a1", 0, TRADE_HELD)
    with pytest.raises(MoveParseError, match=fragment) as exc:
        GAME.parse_move(state, text)
    assert "<from>-<to>" in str(exc.value) or "not a cell" in str(exc.value)


def test_describe_draws_the_grid_and_the_holdings() -> None:
    state = pos(EXAMPLE, "c6", 0, EXAMPLE_HELD)
    text = GAME.describe(state)
    lines = text.splitlines()
    row6 = next(line for line in lines if line.startswith(" 6 "))
    row4 = next(line for line in lines if line.startswith(" 4 "))
    assert row6.split() == ["6", "..", "..", "[", "]", "..", "..", ".."]
    assert row4.split() == ["4", "R1", "..", "RS", "..", "..", "BH"]
    assert "Red:   on the grid Katana 2/7, Kabuto 1/3; holds B2 B3 (Mons worth 5)" in text
    assert "Red to move the Kaito from c6: may land on c1, c4 (2 moves with a Mons trade)" in text
    assert GAME.describe_move(state, GAME.parse_move(state, "c6-c4 buy kabuto 3+2")) == (
        "Red moves the Kaito c6-c4, captures own Katana (out of play); pays Mons 3+2 for a "
        "red Kabuto, placed under the Kaito"
    )
    state = play(state, "c6-c4 buy kabuto 3+2")
    assert "[RH]" in GAME.describe(state)
    assert GAME.describe_move(state, GAME.parse_move(state, "c4-f4")).endswith(
        "Black has no Kabuto left on the grid: Red wins"
    )


# ---- configuration and JSON ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "players", "fragment"),
    [
        ({"movement": "jump"}, 2, "movement"),
        ({"end_check": "never"}, 2, "turn-end, capture"),
        ({"speed": 1}, 2, "unknown option 'speed'"),
        ({}, 3, "2 to 2"),
    ],
)
def test_config_errors(options: dict[str, object], players: int, fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment):
        GAME.make_config(options, players=players)


def test_config_json_round_trip() -> None:
    c = cfg(movement="first-tile", end_check="capture")
    assert GAME.config_from_json(json.loads(json.dumps(GAME.config_to_json(c)))) == c


def _json(state: KaitoState) -> dict:
    return json.loads(json.dumps(GAME.state_to_json(state)))


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda o: o.update(board=o["board"][:-1]), "36 cells"),
        (lambda o: o["board"].__setitem__(5, "RX"), "board cell f1 holds 'RX'"),
        (lambda o: o.update(kaito="z9"), "'kaito' must be null or a cell"),
        (lambda o: o.update(player=2), "'player' must be 0 or 1"),
        (lambda o: o.update(turn=-1), "'turn'"),
        (lambda o: o.update(held=[["RS"], []]), "holds only the opponent's tiles"),
        (lambda o: o.update(held=[["BH", "BH", "BH"], []]), "4 x BH"),
        (lambda o: o["board"].__setitem__(0, "O"), "opening tiles on the grid"),
        (lambda o: o.update(rng="xyz"), "'rng'"),
        (lambda o: o.update(version=9), "version"),
        (lambda o: o["config"].update(movement="fly"), "bad config"),
    ],
)
def test_state_json_errors_say_what(change, fragment: str) -> None:
    obj = _json(pos(EXAMPLE, "c6", 0, EXAMPLE_HELD))
    change(obj)
    with pytest.raises(StateFormatError, match=fragment):
        GAME.state_from_json(obj)


def test_position_where_both_sides_have_lost_is_refused() -> None:
    with pytest.raises(StateFormatError, match="both sides"):
        pos({"a3": "RS", "d3": "BS"}, "a1")  # neither side has a Kabuto


def test_result_before_the_end_is_an_error() -> None:
    with pytest.raises(GameError, match="not over"):
        GAME.result(GAME.new_game(cfg(), 0))


# ---- seeded playouts ----------------------------------------------------------------------


def random_playout(seed: int, options: dict[str, str]) -> KaitoState:
    """A seeded random game with every round trip checked at every step."""
    state = GAME.new_game(cfg(**options), seed)
    rng = Rng.from_seed(seed, "test-kaito-playout")
    while True:
        text = GAME.state_to_text(state)
        assert GAME.state_from_text(text) == state
        if GAME.is_terminal(state):
            return state
        moves = GAME.legal_moves(state)
        move, rng = rng.choice(moves)
        mtext = GAME.format_move(state, move)
        assert GAME.parse_move(state, mtext) == move
        after = GAME.apply(state, move)
        # Conservation: every tile of the set is on the grid, held or out of play.
        tiles = [t for t in after.board if t is not None]
        tiles += list(after.held[0]) + list(after.held[1]) + list(after.out_of_play)
        assert sorted(tiles) == sorted(FULL_SET)
        state = after


def check_playouts(seeds: range, options: dict[str, str]) -> Counter[str]:
    reasons: Counter[str] = Counter()
    for seed in seeds:
        state = random_playout(seed, options)
        result = GAME.result(state)
        reasons[result.detail["reason"]] += 1
        # A game takes the opening (2) plus one tile per turn; the 34 tiles and at most 7 trades
        # (14 Mons, at least 2 per trade) bound it by 2 + 34 + 7 = 43 moves.
        assert 2 < state.turn <= 43
    return reasons


@pytest.mark.parametrize(
    ("seeds", "options"),
    [
        (range(0, 300), {}),
        pytest.param(range(300, 700), {}, marks=pytest.mark.slow),  # the default step's budget
        (range(700, 850), {"movement": "first-tile"}),
        (range(850, 1000), {"end_check": "capture"}),
    ],
)
def test_seeded_random_playouts(seeds: range, options: dict[str, str]) -> None:
    reasons = check_playouts(seeds, options)
    assert sum(reasons.values()) == len(seeds)
    assert set(reasons) <= {"no-katana", "no-kabuto", "no-move"}


@pytest.mark.slow
def test_seeded_random_playouts_10000() -> None:
    reasons = check_playouts(range(10_000, 18_000), {})
    reasons += check_playouts(range(18_000, 19_000), {"movement": "first-tile"})
    reasons += check_playouts(range(19_000, 20_000), {"end_check": "capture"})
    assert sum(reasons.values()) == 10_000
    # Over 10,000 games every ending occurs.
    assert set(reasons) == {"no-katana", "no-kabuto", "no-move"}
