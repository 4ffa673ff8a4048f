"""Kozo rules (pure): every placement rule (accept one, reject one), turns, scoring, round ends,
ties, variants, text and JSON forms, and seeded rules-only playouts with the stand-in judge.

Towers are built by hand in the grid frame (cube edges; the chimney is the square 1..2 x 1..2);
the expected outcome of every case is worked out in its comment from the leaflet's rule.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tablesim.games.core import ConfigError, IllegalMoveError, MoveParseError, StateFormatError
from tablesim.games.kozo import GAME, Item, KozoMove, KozoState, Outcome, RefereeRequiredError
from tablesim.games.kozo.blocks import piece_orientations
from tablesim.games.kozo.bots import CarefulBot, GreedyBot
from tablesim.games.kozo.placement import (
    BalanceNotOnPolycubeError,
    BalanceOnBalanceError,
    BalanceOverhangError,
    BalanceUnderPolycubeError,
    ChimneyError,
    CoverError,
    OnBalanceCubeError,
    OutsideBaseError,
    OverlapError,
    TouchesBalanceCubeError,
    UnsupportedError,
)
from tablesim.games.kozo.state import CUBE, NOCUBE, PLACE, TAKE
from tablesim.games.polycubes import get_catalogue
from tablesim.games.registry import get_game, make_bot
from tablesim.games.rng import Rng, derive_seed

BAR_X = ((0, 0, 0), (1, 0, 0))  # a 1x1x2 bar lying along x
BAR_Y = ((0, 0, 0), (0, 1, 0))
BAR_UP = ((0, 0, 0), (0, 0, 1))  # standing
I3_X = ((0, 0, 0), (1, 0, 0), (2, 0, 0))
I3_Y = ((0, 0, 0), (0, 1, 0), (0, 2, 0))
B = 10.2 / 17.8  # balance cube edge in cube edges
IDQ = (0.0, 0.0, 0.0, 1.0)


def rot(piece: str, cells: tuple) -> int:
    """Rotation index of ``piece`` whose normalised cells are ``cells``."""
    return piece_orientations("kozo-standard", piece).index(tuple(sorted(cells)))


def cfg(players: int = 2, **options: object):
    return GAME.make_config({"table": "stand-in", "stand_in_risk": 0.0, **options}, players=players)


def start(players: int = 2, **options: object) -> KozoState:
    return GAME.new_game(cfg(players, **options), 0)


def with_tower(state: KozoState, *items: tuple, phase: str = PLACE) -> KozoState:
    """``items``: (name, cells or None for a balance cube, (x, y, z)). Poses are exact."""
    tower = []
    for name, cells, pos in items:
        if cells is None:
            x, y, z = pos
            tower.append(Item(name, -1, pos, (x - B / 2, y - B / 2, z, *IDQ), 0))
        else:
            tower.append(Item(name, rot(name, cells), pos, (*pos, *IDQ), 0))
    placed = {n for n, c, _ in items if c is not None}
    supply = tuple(p for p in state.supply if p not in placed)
    return replace(state, tower=tuple(tower), supply=supply, phase=phase)


def place(piece: str, cells: tuple, pos: tuple) -> KozoMove:
    return KozoMove(PLACE, piece, rot(piece, cells), tuple(float(v) for v in pos))


def cube(x: float, y: float, z: float) -> KozoMove:
    return KozoMove(CUBE, "", 0, (x, y, z))


# ---------------------------------------------------------------------------------------
# Placement rules: one accepted and one rejected placement each
# ---------------------------------------------------------------------------------------
def test_within_the_eight_squares() -> None:
    s = start()
    GAME.apply(s, place("3I", I3_X, (0, 0, 0)))  # x 0..3 on the front row: inside
    with pytest.raises(OutsideBaseError, match="within the eight squares"):
        GAME.apply(s, place("3I", I3_X, (0.5, 0, 0)))  # x 0.5..3.5: past the grid edge


def test_chimney_is_never_covered_nor_overhung() -> None:
    s = start()
    GAME.apply(s, place("3I", I3_Y, (0, 0, 0)))  # left column x 0..1: beside the chimney
    with pytest.raises(ChimneyError):
        GAME.apply(s, place("3I", I3_X, (0, 1, 0)))  # middle row: (1, 1) is the chimney
    # Higher up: a bar on the left column whose second cube hangs over the chimney.
    up = with_tower(s, ("3I", I3_Y, (0, 0, 0)))
    GAME.apply(up, place("2a", BAR_Y, (0, 0, 1)))  # along the column: fine
    with pytest.raises(ChimneyError, match="overhanging"):
        GAME.apply(up, place("2a", BAR_X, (0, 1, 1)))  # (1, 1, 1) is over the chimney


def test_polycube_may_not_pass_through_pieces() -> None:
    s = with_tower(start(), ("3I", I3_X, (0, 0, 0)))
    GAME.apply(s, place("2a", BAR_X, (0, 0, 1)))  # on top of it
    with pytest.raises(OverlapError):
        GAME.apply(s, place("2a", BAR_X, (0, 0, 0.5)))  # half inside it


def test_polycube_must_rest_on_something() -> None:
    s = with_tower(start(), ("3I", I3_X, (0, 0, 0)))
    GAME.apply(s, place("2a", BAR_Y, (0, 1, 0)))  # on the board beside it
    with pytest.raises(UnsupportedError, match="rests on nothing"):
        GAME.apply(s, place("2a", BAR_Y, (0, 1, 1)))  # in the air beside it (no cube below)


def test_polycube_not_on_a_balance_cube() -> None:
    # 3I on the front row; a balance cube on its first cube (top at 1 + 0.573).
    s = with_tower(start(), ("3I", I3_X, (0, 0, 0)), ("b1", None, (0.5, 0.5, 1.0)))
    GAME.apply(s, place("2a", BAR_X, (1, 0, 1)))  # on the 3I's other two cubes: gap 0.213
    with pytest.raises(OnBalanceCubeError, match="may not be placed on a Balance Cube"):
        GAME.apply(s, place("2a", BAR_UP, (0, 0, 1 + B)))  # standing on the balance cube


def test_polycube_may_overhang_a_balance_cube_without_touching() -> None:
    # 2a flat on A..ab, 2b standing on B (top at z 2), a balance cube on A (top at 1.573).
    s = with_tower(
        start(),
        ("2a", BAR_X, (0, 0, 0)),
        ("2b", BAR_UP, (2, 0, 0)),
        ("b1", None, (0.5, 0.5, 1.0)),
    )
    # 3I at z 2 rests on 2b and overhangs the balance cube with a gap of 2 - 1.573 = 0.427.
    GAME.apply(s, place("3I", I3_X, (0, 0, 2)))
    # A balance cube at x centre 0.7 ends 1 - (0.7 + 0.287) = 0.013 short of x = 1: a 3L
    # standing on the 2a's second cube touches it from the side.
    t = with_tower(start(), ("2a", BAR_X, (0, 0, 0)), ("b1", None, (0.7, 0.5, 1.0)))
    with pytest.raises(TouchesBalanceCubeError, match="touching"):
        GAME.apply(t, place("2b", BAR_UP, (1, 0, 1)))
    u = with_tower(start(), ("2a", BAR_X, (0, 0, 0)), ("b1", None, (0.5, 0.5, 1.0)))
    GAME.apply(u, place("2b", BAR_UP, (1, 0, 1)))  # gap 1 - 0.787 = 0.213 > 0.1: allowed


def test_cover_option_51_percent() -> None:
    # 2a standing on A (top z 2); a bar lying on it along x has 1 of its 2 bottom cubes
    # supported: 50 %. Off by default; with cover 0.51 it is refused; a bar stacked
    # exactly on a lying bar is 100 % supported.
    s = with_tower(start(), ("2a", BAR_UP, (0, 0, 0)))
    GAME.apply(s, place("2b", BAR_X, (0, 0, 2)))
    strict = with_tower(start(cover=0.51), ("2a", BAR_UP, (0, 0, 0)))
    with pytest.raises(CoverError, match="50%"):
        GAME.apply(strict, place("2b", BAR_X, (0, 0, 2)))
    flat = with_tower(start(cover=0.51), ("2a", BAR_X, (0, 0, 0)))
    GAME.apply(flat, place("2b", BAR_X, (0, 0, 1)))


def test_balance_cube_only_on_a_polycube() -> None:
    s = with_tower(start(), ("3I", I3_X, (0, 0, 0)), phase=CUBE)
    GAME.apply(s, cube(1.5, 0.5, 1.0))  # on the 3I's top
    with pytest.raises(BalanceNotOnPolycubeError):
        GAME.apply(s, cube(0.5, 2.5, 0.0))  # on the board, back row


def test_balance_cube_not_on_another_balance_cube() -> None:
    s = with_tower(start(), ("3I", I3_X, (0, 0, 0)), ("b1", None, (0.5, 0.5, 1.0)), phase=CUBE)
    GAME.apply(s, cube(2.5, 0.5, 1.0))
    with pytest.raises(BalanceOnBalanceError):
        GAME.apply(s, cube(0.5, 0.5, 1.0 + B))


def test_balance_cube_not_under_a_polycube() -> None:
    # The overhang of test_polycube_may_overhang...: 3I at z 2 over A and ab.
    s = with_tower(
        start(),
        ("2a", BAR_X, (0, 0, 0)),
        ("2b", BAR_UP, (2, 0, 0)),
        ("3I", I3_X, (0, 0, 2)),
        phase=CUBE,
    )
    GAME.apply(s, cube(0.5, 0.5, 3.0))  # on top of the 3I
    with pytest.raises(BalanceUnderPolycubeError, match="under a Polycube"):
        GAME.apply(s, cube(0.5, 0.5, 1.0))  # on the 2a, in the gap under the 3I


def test_balance_cube_may_not_extend_over_its_polycube_edges() -> None:
    s = with_tower(start(), ("3I", I3_X, (0, 0, 0)), phase=CUBE)
    # The 3I's top spans y 0..1; the cube is 0.573 wide (half 0.287).
    GAME.apply(s, cube(0.5, 0.7, 1.0))  # y 0.413..0.987: inside
    with pytest.raises(BalanceOverhangError, match="extend over the edges"):
        GAME.apply(s, cube(0.5, 0.85, 1.0))  # y ..1.137: 0.137 over the back edge (> 0.1)
    # Straddling two polycubes is extending over the edges of the one it stands on.
    t = with_tower(start(), ("2a", BAR_X, (0, 0, 0)), ("2b", BAR_Y, (0, 1, 0)), phase=CUBE)
    with pytest.raises(BalanceOverhangError, match="straddles"):
        GAME.apply(t, cube(0.5, 1.0, 1.0))


def test_every_piece_has_a_legal_placement_on_the_empty_base() -> None:
    s = start()
    pieces = {m.piece for m in GAME.legal_moves(s) if m.kind == PLACE}
    assert pieces == {p.name for p in get_catalogue("kozo-standard").pieces}


def test_candidate_count_for_the_bar_on_the_empty_base() -> None:
    # A 1x1x2 bar on the empty base, minimum corners on the half lattice.
    # Lying along x (2 x 1 footprint): x in {0, 0.5, 1} always spans the chimney's x range,
    # so y must keep [y, y + 1] off [1, 2]: y = 0 or y = 2 -> 3 x 2 = 6. Along y: 6 likewise.
    # Standing (1 x 1 footprint): x, y in {0, 0.5, 1, 1.5, 2} = 25 corners, minus the 9 with
    # both x and y in {0.5, 1, 1.5} (those overlap the chimney) = 16.  Total 6 + 6 + 16 = 28.
    s = start()
    bars = [m for m in GAME.legal_moves(s) if m.kind == PLACE and m.piece == "2a"]
    assert len(bars) == 28
    standing = [m for m in bars if m.rot == rot("2a", BAR_UP)]
    assert len(standing) == 16


# ---------------------------------------------------------------------------------------
# Turns, touch-move, scoring, round ends
# ---------------------------------------------------------------------------------------
def test_a_turn_is_place_then_cube_then_the_tile() -> None:
    s = start()
    s = GAME.apply(s, place("3I", I3_X, (0, 0, 0)))
    assert s.phase == CUBE and s.to_move == 0 and s.earned == (0, 0)
    assert all(m.kind == CUBE for m in GAME.legal_moves(s))
    with pytest.raises(IllegalMoveError, match="balance cube"):
        GAME.apply(s, place("2a", BAR_X, (0, 2, 0)))
    s = GAME.apply(s, cube(0.5, 0.5, 1.0))
    assert s.earned == (3, 0)  # the 3I tile
    assert s.to_move == 1 and s.phase == PLACE
    assert "3I" not in s.supply and len(s.supply) == 11


def test_touch_move() -> None:
    s = GAME.apply(start(), KozoMove(TAKE, "4L"))
    assert s.touched == "4L"
    assert {m.piece for m in GAME.legal_moves(s)} == {"4L"}
    with pytest.raises(IllegalMoveError, match="touch-move"):
        GAME.apply(s, place("3I", I3_X, (0, 0, 0)))
    # A rejected placement commits its player to the named piece (the terminal hook).
    bad = place("3I", I3_X, (0, 1, 0))
    assert GAME.commitment(start(), bad) == KozoMove(TAKE, "3I")


def test_topple_loses_the_round_points_and_the_next_round_rotates() -> None:
    s = start()
    s = GAME.apply(s, place("3I", I3_X, (0, 0, 0)))
    s = GAME.apply(s, cube(0.5, 0.5, 1.0))  # P1 earns 3
    # 4L on da, D, cd, C: cells (0, 1), (0, 2), (1, 2), (2, 2).
    s = GAME.apply(s, place("4L", ((0, 0, 0), (0, 1, 0), (1, 1, 0), (2, 1, 0)), (0, 1, 0)))
    s = GAME.apply(s, cube(0.5, 2.5, 1.0))  # P2 earns 4
    # P1 places a bar and the measured outcome says the tower fell.
    poses = tuple(it.pose for it in s.tower) + ((1.0, 0.0, 1.0, *IDQ),)
    fall = Outcome(poses, ("3I", "2a"), 1.25, "physics")
    move = replace(place("2a", BAR_X, (1, 0, 1)), outcome=fall)
    s = GAME.apply(s, move)
    r = s.rounds[0]
    assert (r.reason, r.toppler, r.earned, r.points) == ("topple", 0, (3, 4), (0, 4))
    assert s.round == 2 and s.to_move == 1 and s.tower == () and len(s.supply) == 12


def test_empty_supply_ends_the_round_and_everyone_keeps_points() -> None:
    s = replace(start(), supply=("3I",), earned=(10, 20))
    s = GAME.apply(s, place("3I", I3_X, (0, 0, 0)))
    s = GAME.apply(s, cube(0.5, 0.5, 1.0))
    r = s.rounds[0]
    assert (r.reason, r.toppler, r.points) == ("supply", None, (13, 20))


def test_no_legal_placement_ends_the_round_as_if_the_supply_were_empty() -> None:
    # Layer 0 covers the ring (5U on the front row and right column... as kozo-tower: 5U on
    # da A ab B bc, 3I on D cd C); a balance cube on 7 ring squares, the eighth is P1's.
    # Any polycube then either rests on a balance cube, touches one, or floats: no placement.
    u5 = piece_orientations("kozo-standard", "5U")
    cells_5u = ((0, 0, 0), (0, 1, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0))
    items = [("5U", cells_5u, (0, 0, 0)), ("3I", I3_X, (0, 2, 0))]
    spots = [(0.5, 0.5), (1.5, 0.5), (2.5, 0.5), (0.5, 1.5), (2.5, 1.5), (0.5, 2.5), (1.5, 2.5)]
    items += [(f"b{i + 1}", None, (x, y, 1.0)) for i, (x, y) in enumerate(spots)]
    assert tuple(sorted(cells_5u)) in u5
    s = with_tower(start(), *items, phase=CUBE)
    s = replace(s, supply=("2a",), earned=(5, 3))
    s = GAME.apply(s, cube(2.5, 2.5, 1.0))  # P1 ends the turn; P2 cannot place 2a
    r = s.rounds[0]
    assert r.reason == "stuck" and r.toppler is None
    assert r.points == (8, 3)  # seat 0 ends its turn with the tile of its 3I: 5 + 3
    assert s.round == 2


def test_balance_cube_falling_alone_is_a_topple_by_default_or_taken_away() -> None:
    for option, expect_round_over in (("topple", True), ("ignore", False)):
        s = with_tower(start(balance_fall=option), ("3I", I3_X, (0, 0, 0)))
        s = GAME.apply(s, place("2a", BAR_X, (0, 2, 0)))  # P1's polycube; now the cube
        poses = tuple(it.pose for it in s.tower) + ((0.2, 0.2, 0.0, *IDQ),)
        fell = Outcome(poses, ("b1",), 2.0, "physics")
        after = GAME.apply(s, replace(cube(0.5, 0.5, 1.0), outcome=fell))
        assert (len(after.rounds) == 1) is expect_round_over
        if not expect_round_over:
            assert [it.name for it in after.tower] == ["3I", "2a"]
            assert after.earned == (2, 0)


def test_three_rounds_then_the_highest_total_wins() -> None:
    s = start()
    assert s.config.rounds == 3
    s = replace(s, rounds=(), over=False)
    from tablesim.games.kozo.state import RoundRecord

    rounds = (
        RoundRecord((10, 0), (10, 4), "topple", 1),
        RoundRecord((0, 9), (5, 9), "topple", 0),
        RoundRecord((7, 7), (7, 7), "supply", None),
    )
    done = replace(s, rounds=rounds, over=True, last_move_turn=(40, 41))
    res = GAME.result(done)
    assert res.scores == (17.0, 16.0) and res.winners == (0,)


def test_tie_goes_to_the_player_who_moved_later_or_is_shared() -> None:
    from tablesim.games.kozo.state import RoundRecord

    rounds = (RoundRecord((10, 10), (10, 10), "supply", None),) * 3
    for tie, winners in (("later", (1,)), ("share", (0, 1))):
        s = replace(start(tie=tie), rounds=rounds, over=True, last_move_turn=(40, 41))
        assert GAME.result(s).winners == winners
    # Seat 0 made the last move of the game (it toppled the final round's tower): the tie
    # still goes to seat 1, later in the turn order; never to the toppler for toppling.
    s = replace(start(), rounds=rounds, over=True, last_move_turn=(45, 41))
    assert GAME.result(s).winners == (1,)
    assert GAME.result(s).detail["tie"] == "P2 is later in the turn order"
    three = (RoundRecord((10, 4, 10), (10, 4, 10), "supply", None),) * 3
    s = replace(start(players=3), rounds=three, over=True, last_move_turn=(50, 48, 49))
    assert GAME.result(s).winners == (2,)


def test_tie_text_names_the_player_as_the_terminal_does() -> None:
    """A hand-built three-player tie between the first two seats (9 + 9 + 9 = 27 points
    each, the third seat 3 + 3 + 3 = 9): the later of the two is seat 1, the second player,
    whom the terminal calls P2; a 0-based text would have said "seat 1"."""
    from tablesim.games.kozo.state import RoundRecord

    rounds = (RoundRecord((9, 9, 3), (9, 9, 3), "supply", None),) * 3
    s = replace(start(players=3), rounds=rounds, over=True, last_move_turn=(50, 51, 52))
    res = GAME.result(s)
    assert res.scores == (27.0, 27.0, 9.0) and res.winners == (1,)
    assert res.detail["tie"] == "P2 is later in the turn order"
    assert GAME.player_name(1) == "P2"
    # the tie between the last two seats goes to the third player, P3
    rounds = (RoundRecord((3, 9, 9), (3, 9, 9), "supply", None),) * 3
    s = replace(start(players=3), rounds=rounds, over=True, last_move_turn=(50, 51, 52))
    assert GAME.result(s).detail["tie"] == "P3 is later in the turn order"
    assert "seat" not in json.dumps(GAME.result(s).detail)
    # errors name the mover the same way: the first player (seat 0) must place first
    first = start()
    with pytest.raises(IllegalMoveError, match=r"kozo: P1 must first place a polycube"):
        GAME.check_move(first, KozoMove(NOCUBE))


def test_physics_table_requires_measured_moves() -> None:
    s = GAME.new_game(GAME.make_config({}, players=2), 0)
    with pytest.raises(RefereeRequiredError, match="physics table"):
        GAME.apply(s, place("3I", I3_X, (0, 0, 0)))
    assert GAME.referee_name(s.config) == "kozo-physics"
    assert GAME.referee_name(cfg()) is None


def test_nocube_only_when_no_spot() -> None:
    s = GAME.apply(start(), place("3I", I3_X, (0, 0, 0)))
    with pytest.raises(IllegalMoveError, match="nocube"):
        GAME.apply(s, KozoMove(NOCUBE))


# ---------------------------------------------------------------------------------------
# Variants
# ---------------------------------------------------------------------------------------
def test_face_down_tile_dictates_the_size() -> None:
    s = GAME.new_game(cfg(face_down=True), 3)
    size = s.next_size
    assert size in (2, 3, 4, 5)
    sizes = {get_catalogue("kozo-standard").piece(m.piece).size for m in GAME.legal_moves(s)}
    assert sizes == {size}
    other = next(p for p in s.supply if get_catalogue("kozo-standard").piece(p).size != size)
    with pytest.raises(IllegalMoveError, match="face-down"):
        GAME.apply(s, KozoMove(TAKE, other))


def test_solo_keeps_the_points_placed_before_the_fall() -> None:
    s = GAME.new_game(cfg(1, solo=True), 0)
    s = GAME.apply(s, place("3I", I3_X, (0, 0, 0)))
    s = GAME.apply(s, cube(0.5, 0.5, 1.0))
    assert s.to_move == 0
    poses = tuple(it.pose for it in s.tower) + ((0.0, 2.0, 0.0, *IDQ),)
    s = GAME.apply(s, replace(place("2a", BAR_X, (0, 2, 0)), outcome=Outcome(poses, ("2a",))))
    assert s.rounds[0].points == (3,)


def test_coop_team_score_and_win_by_beating_most_rounds() -> None:
    from tablesim.games.kozo.state import RoundRecord

    c = cfg(3, coop=True)
    rounds = (
        RoundRecord((5, 4, 3), (5, 4, 3), "supply", None),
        RoundRecord((1, 0, 0), (1, 0, 0), "topple", 1),
        RoundRecord((9, 9, 9), (9, 9, 9), "supply", None),
    )
    s = replace(GAME.new_game(c, 0), rounds=rounds, over=True)
    res = GAME.result(s)
    assert res.scores == (40.0, 40.0, 40.0)  # 12 + 1 + 27
    assert res.winners == (0, 1, 2)  # beaten 2 of 3 rounds


def test_config_errors() -> None:
    with pytest.raises(ConfigError, match="2 to 6"):
        GAME.make_config({}, players=7)
    with pytest.raises(ConfigError, match="solo"):
        GAME.make_config({"solo": True}, players=2)
    with pytest.raises(ConfigError, match="table"):
        GAME.make_config({"table": "wood"}, players=2)
    with pytest.raises(ConfigError, match="tolerance"):
        GAME.make_config({"tolerance": 0.9}, players=2)
    with pytest.raises(ConfigError, match="unknown option"):
        GAME.make_config({"colour": 1}, players=2)
    assert GAME.make_config({"solo": True}, players=1).solo


# ---------------------------------------------------------------------------------------
# Text and JSON
# ---------------------------------------------------------------------------------------
def test_move_text_round_trips_and_drops_without_z() -> None:
    s = with_tower(start(), ("3I", I3_X, (0, 0, 0)))
    m = place("2a", BAR_X, (0, 0, 1))
    text = GAME.format_move(s, m)
    assert text == f"2a r{rot('2a', BAR_X)} at 0,0,1"
    assert GAME.parse_move(s, text) == m
    assert GAME.parse_move(s, f"2a r{rot('2a', BAR_X)} at 0,0") == m  # dropped onto the 3I
    assert GAME.parse_move(s, "cube at 1.5,0.5") == cube(1.5, 0.5, 1.0)
    assert GAME.parse_move(s, "take 4L") == KozoMove(TAKE, "4L")
    for bad in ("", "4L", "4L r99 at 0,0", "cube at x,y", "ZZ r0 at 0,0"):
        with pytest.raises(MoveParseError):
            GAME.parse_move(s, bad)


def test_state_json_round_trip_and_bad_state() -> None:
    s = GAME.apply(start(), place("3I", I3_X, (0, 0, 0)))
    obj = json.loads(json.dumps(GAME.state_to_json(s)))
    assert GAME.state_from_json(obj) == s
    obj["to_move"] = 5
    with pytest.raises(StateFormatError, match="to_move"):
        GAME.state_from_json(obj)
    with pytest.raises(StateFormatError):
        GAME.state_from_json({"game": "kozo", "version": 1})


# ---------------------------------------------------------------------------------------
# Rules-only playouts with the seeded stand-in judge
# ---------------------------------------------------------------------------------------
def _check_accounts(state: KozoState) -> None:
    """Scores add up: each round's points are its earned tiles with the toppler's zeroed, the
    earned tiles never exceed the 45 points of the set, and the totals are the sums."""
    for r in state.rounds:
        assert sum(r.earned) <= 45
        for seat, (p, e) in enumerate(zip(r.points, r.earned, strict=True)):
            assert p == (0 if seat == r.toppler else e)
        assert (r.reason == "topple") == (r.toppler is not None)
    totals = GAME.totals(state)
    assert totals == tuple(sum(r.points[s] for r in state.rounds) for s in range(len(totals)))


def _playout(seed: int, roles: tuple[str, ...]) -> KozoState:
    c = GAME.make_config({"table": "stand-in"}, players=len(roles))
    s = GAME.new_game(c, seed)
    bots = [make_bot("kozo", r, derive_seed("bot", seed, i)) for i, r in enumerate(roles)]
    while not GAME.is_terminal(s):
        s = GAME.apply(s, bots[GAME.current_player(s)].choose(s))
    return s


@pytest.mark.parametrize("seed", range(50))
def test_stand_in_playouts(seed: int) -> None:
    rng = Rng.from_seed(seed, "kozo-test")
    n, rng = rng.randint(2, 6)
    roles = []
    for _ in range(n):
        r, rng = rng.choice(("random", "greedy", "careful"))
        roles.append(r)
    s = _playout(seed, tuple(roles))
    assert len(s.rounds) == 3
    _check_accounts(s)
    res = GAME.result(s)
    assert len(res.winners) == 1


@pytest.mark.slow
def test_stand_in_playouts_400() -> None:
    # 400 rather than 1000 games (360 s at 1000): the careful bot's stand-in estimates dominate,
    # and the slow step's 45 minutes are shared; seeds 0..49 also run in the default step.
    for seed in range(400):
        roles = ("random", "greedy", "careful")[: 2 + seed % 2]
        s = _playout(seed, roles)
        _check_accounts(s)


@pytest.mark.slow  # 3 s; the default step keeps its 5-minute budget
def test_careful_beats_random_with_the_stand_in() -> None:
    # Since greedy plays its best supported piece (issue #21 item 6) it is as strong as careful
    # on the stand-in table (12 of 20 for careful, seeds 1000..1019); the claim that still
    # holds, and that a broken careful bot would fail, is that it beats random: 92 of 100 in
    # `tablesim balance`; these fixed seeds give 8 of 10 (at p = 0.92, P(X < 7) is about 1 %).
    wins = 0
    for i in range(10):
        roles = ("careful", "random") if i % 2 == 0 else ("random", "careful")
        s = _playout(1000 + i, roles)
        wins += roles.index("careful") in GAME.result(s).winners
    assert wins >= 7


def test_bots_are_seeded_and_registered() -> None:
    s = GAME.new_game(cfg(), 4)
    a = GreedyBot(GAME, 1).choose(s)
    assert GreedyBot(GAME, 1).choose(s) == a
    assert isinstance(make_bot("kozo", "careful", 1), CarefulBot)
    assert get_game("kozo") is GAME


def test_a_human_is_bound_to_the_piece_named_and_may_play_off_the_candidate_set() -> None:
    import io

    from tablesim.games.terminal import TerminalHuman

    out = io.StringIO()
    # The first text names 3I over the chimney (refused, but 3I is now touched); the second
    # places it 0.05 edge off the lattice, inside the tolerance: not a candidate, still legal.
    human = TerminalHuman(GAME, io.StringIO("3I r2 at 0,1,0\n"), out)
    s = start()
    take = human.choose(s)
    assert take == KozoMove(TAKE, "3I") and "chimney" in out.getvalue()
    s = GAME.apply(s, take)
    r2 = rot("3I", I3_X)
    assert r2 == 2
    human = TerminalHuman(GAME, io.StringIO("2a r0 at 0,2\n3I r2 at 0.05,0\n"), out)
    move = human.choose(s)
    assert move == KozoMove(PLACE, "3I", 2, (0.05, 0.0, 0.0))
    assert move not in GAME.legal_moves(s)
    assert "touch-move" in out.getvalue()


def test_vectorised_candidates_equal_the_rule_checks() -> None:
    """legal_moves uses candidate_spots (all positions at once); it must agree with lowering
    each position by drop_height and asking check_polycube, on towers met in play."""
    from tablesim.games.kozo.placement import (
        PlacementError,
        candidate_spots,
        check_polycube,
        drop_height,
        footprint_positions,
    )
    from tablesim.games.kozo.rules import q4, tower_blocks

    c = cfg()
    for seed in (1,):
        s = GAME.new_game(c, seed)
        rng = Rng.from_seed(seed, "kozo-equivalence")
        while not GAME.is_terminal(s):
            blocks = tower_blocks(c, s.tower)
            for p in s.supply[::4]:
                for cells in piece_orientations("kozo-standard", p):
                    ref = []
                    for x, y in footprint_positions(cells):
                        z = q4(drop_height(cells, x, y, blocks, c.tolerance))
                        try:
                            check_polycube(cells, (x, y, z), blocks, tol=c.tolerance)
                        except PlacementError:
                            continue
                        ref.append((x, y, z))
                    assert candidate_spots(cells, blocks, c.tolerance) == ref
            move, rng = rng.choice(GAME.legal_moves(s))
            s = GAME.apply(s, move)


def test_variants_combine_in_playouts() -> None:
    # Face-down tiles with the cooperative team, 3 players; and solo with face-down tiles.
    for players, options in ((3, {"coop": True}), (1, {"solo": True})):
        c = GAME.make_config({"table": "stand-in", "face_down": True, **options}, players=players)
        s = GAME.new_game(c, 9)
        bot = make_bot("kozo", "greedy", 1)
        while not GAME.is_terminal(s):
            if s.phase == PLACE and s.touched is None:
                sizes = {get_catalogue("kozo-standard").piece(p).size for p in s.supply}
                assert s.next_size in sizes
            s = GAME.apply(s, bot.choose(s))
        res = GAME.result(s)
        assert len(set(res.scores)) == 1  # one team score
        assert res.scores[0] == sum(sum(r.points) for r in s.rounds)


def test_a_malformed_outcome_is_refused() -> None:
    s = start()
    m = place("3I", I3_X, (0, 0, 0))
    with pytest.raises(IllegalMoveError, match="poses"):
        GAME.apply(s, replace(m, outcome=Outcome(())))
    bad = Outcome(((0.0, 0.0, float("nan"), *IDQ),))
    with pytest.raises(IllegalMoveError, match="finite"):
        GAME.apply(s, replace(m, outcome=bad))
    with pytest.raises(IllegalMoveError, match="unknown items"):
        GAME.apply(s, replace(m, outcome=Outcome(((0.0, 0.0, 0.0, *IDQ),), ("4L",))))


def test_a_solo_game_says_what_happened(capsys: pytest.CaptureFixture[str]) -> None:
    # Seed 1: the random bot topples every round's tower (the detail lists three topples).
    from tablesim.sim.cli import main

    args = ["play", "kozo", "--players", "random", "--solo", "true", "--table", "stand-in"]
    assert main([*args, "--seed", "1"]) == 0
    out = capsys.readouterr().out
    result = next(line for line in out.splitlines() if line.startswith("result:"))
    assert "draw" not in result
    assert "kept the tower standing in 0 of 3 rounds: lost" in result
    assert out.count('"reason": "topple"') == 3
