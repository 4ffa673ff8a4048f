"""Kataboom rules (pure): setup, every placement rule, readings, nudges, ends and winners,
text and JSON forms, the candidate set, the careful bot on the stand-in judge."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from tablesim.games.core import ConfigError, IllegalMoveError, MoveParseError, StateFormatError
from tablesim.games.kataboom import (
    GAME,
    MODELS,
    CarefulBot,
    KataboomMove,
    Outcome,
    RefereeRequiredError,
)
from tablesim.games.kataboom.bots import SAFE
from tablesim.games.kataboom.geometry import (
    FloatingError,
    NothingBelowError,
    NotOnPreviousError,
    OffTableError,
    OverlapError,
    orientations,
)
from tablesim.games.kataboom.rules import count_safe
from tablesim.games.kataboom.state import NUDGE, PLACE, Item
from tablesim.games.rng import Rng

ALL16 = {"2", "3", "4", "5", "6", "7", "8", "A", "B", "C", "D", "E", "W1", "W2", "X", "Y"}


def rot(piece: str, cells) -> int:
    return orientations(piece).index(tuple(sorted(cells)))


C_FLAT = rot("C", [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)])
A_X = rot("A", [(i, 0, 0) for i in range(4)])
W_X = rot("W1", [(0, 0, 0), (1, 0, 0)])
L_UP = rot("Y", [(0, 0, 0), (0, 0, 1), (1, 0, 1)])  # foot down, arm over the next cell


def square_state(players: int = 2, supply: tuple[str, ...] | None = None, **options):
    """A game whose structure is only the O-tetromino C lying flat on [0,2] x [0,2]."""
    cfg = GAME.make_config({"table": "stand-in", **options}, players=players)
    state = GAME.new_game(cfg, 7)
    c = Item("C", C_FLAT, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0), -1)
    left = tuple(sorted(ALL16 - {"C"})) if supply is None else supply
    return replace(state, structure=(c,), supply=left)


def place(piece: str, r: int, x: float, y: float, z: float) -> KataboomMove:
    return KataboomMove(PLACE, piece, r, (x, y, z))


def standing(state, move: KataboomMove) -> KataboomMove:
    """The move with an outcome in which nothing moved and nothing fell."""
    poses = [it.pose for it in state.structure]
    if move.kind == PLACE:
        poses.append((*move.pos, 0.0, 0.0, 0.0, 1.0))
    return replace(move, outcome=Outcome(tuple(poses)))


def falling(state, move: KataboomMove) -> KataboomMove:
    out = standing(state, move).outcome
    return replace(move, outcome=replace(out, fell=(move.piece,), fall_time=0.4))


# ---------------------------------------------------------------------------------------
# Setup and config
# ---------------------------------------------------------------------------------------
def test_setup_sets_the_two_v_aside_and_builds_the_model() -> None:
    for m in (MODELS[0], MODELS[17]):
        state = GAME.new_game(GAME.make_config({"model": m.number}, players=2), 1)
        names = [it.name for it in state.structure]
        assert names == [p.name for p in m.pieces]
        assert set(state.supply) | set(names) == ALL16
        assert not set(state.supply) & set(names)
        assert "V1" not in state.supply and "V2" not in state.supply
        assert all(it.seat == -1 for it in state.structure)
        assert GAME.current_player(state) == 0


def test_models_have_two_or_three_pieces_each_once() -> None:
    assert len(MODELS) == 18
    for m in MODELS:
        names = [p.name for p in m.pieces]
        assert 2 <= len(names) <= 3 and len(set(names)) == len(names)
        assert set(names) <= ALL16


@pytest.mark.parametrize(
    ("values", "players", "fragment"),
    [
        ({"model": 0}, 2, "model"),
        ({"model": 19}, 2, "model"),
        ({"reading": "on-top"}, 2, "anywhere, on-previous"),
        ({"nudges": -1}, 2, "nudges"),
        ({"window_s": 0.0}, 2, "window_s"),
        ({"colour": 1}, 2, "unknown option"),
        ({}, 1, "2 to 6"),
        ({}, 7, "2 to 6"),
    ],
)
def test_bad_config_says_what_is_allowed(values, players, fragment) -> None:
    with pytest.raises(ConfigError, match=fragment):
        GAME.make_config(values, players=players)


def test_config_round_trips_through_json() -> None:
    cfg = GAME.make_config({"model": 7, "reading": "on-previous", "nudges": 2}, players=3)
    assert GAME.config_from_json(GAME.config_to_json(cfg)) == cfg
    assert GAME.referee_name(cfg) == "kataboom-physics"
    assert GAME.referee_name(replace(cfg, table="stand-in")) is None


# ---------------------------------------------------------------------------------------
# Placement rules (the square C lies flat on [0,2] x [0,2], top at z = 1)
# ---------------------------------------------------------------------------------------
def test_a_piece_is_lowered_until_it_rests() -> None:
    s = square_state()
    assert GAME.parse_move(s, f"A r{A_X} at 0,0").pos == (0.0, 0.0, 1.0)
    # Half over the square: still rests on its top.
    assert GAME.parse_move(s, f"A r{A_X} at -2,1").pos == (-2.0, 1.0, 1.0)


def test_support_margins_by_hand() -> None:
    s = square_state()
    # A along x from -1: centre of mass x = 1, contact patch [0,2] x [0,1] -> 0.5 each way.
    assert GAME.check_move(s, place("A", A_X, -1, 0, 1)) == pytest.approx(0.5)
    # From 0: centre of mass over the square's edge x = 2 -> margin 0.
    assert GAME.check_move(s, place("A", A_X, 0, 0, 1)) == pytest.approx(0.0)
    # From 1.5: centre of mass x = 3.5, patch [1.5, 2] -> 1.5 outside.
    assert GAME.check_move(s, place("A", A_X, 1.5, 0, 1)) == pytest.approx(-1.5)


@pytest.mark.parametrize(
    ("move", "error", "fragment"),
    [
        (place("A", A_X, 0, 0, 0.5), OverlapError, "inside 'C'"),
        (place("A", A_X, 0, 0, 1.5), FloatingError, "rests, here at z = 1"),
        (place("A", A_X, 200, 0, 0), OffTableError, "off the table"),
        (place("A", A_X, 5, 5, 0), NothingBelowError, "nothing of the structure"),
        (place("Y", L_UP, -1, 0, 0), NothingBelowError, "touch the table"),
        (place("C", C_FLAT, 0, 0, 1), IllegalMoveError, "already in the structure"),
        (place("V1", 0, 0, 0, 1), IllegalMoveError, "set aside"),
        (place("A", 99, 0, 0, 1), IllegalMoveError, "rotations r0..r"),
    ],
)
def test_bad_placements_get_clear_errors(move, error, fragment) -> None:
    s = square_state()
    with pytest.raises(error, match=fragment):
        GAME.check_move(s, move)
    with pytest.raises(error):
        GAME.apply(s, move)


def test_reading_on_previous_needs_the_last_piece_below() -> None:
    s = square_state(reading="on-previous")
    first = place("A", A_X, -1, 0, 1)  # rests on the model: allowed as the first placement
    s = GAME.apply(s, standing(s, first))
    beside = place("W1", W_X, 0, 1, 1)  # on the square only, next to A
    with pytest.raises(NotOnPreviousError, match="'A', the piece placed last"):
        GAME.check_move(s, beside)
    assert GAME.check_move(s, place("W1", W_X, 0, 0, 2)) is not None
    # The default reading accepts both.
    s2 = square_state()
    s2 = GAME.apply(s2, standing(s2, first))
    GAME.check_move(s2, beside)
    # Every candidate has a cube sitting on A's top (z = 2 over x in [-1, 3], y in [0, 1]).
    moves = GAME.legal_moves(s)
    assert moves and len(moves) < len(GAME.legal_moves(s2))
    for m in moves:
        cells = orientations(m.piece)[m.rot]
        cubes = [(m.pos[0] + x, m.pos[1] + y, m.pos[2] + z) for x, y, z in cells]
        assert any(z == 2.0 and -1 < x + 0.5 < 3 and 0 < y + 0.5 < 1 for x, y, z in cubes), (
            GAME.format_move(s, m)
        )


def test_candidate_set_of_a_domino_on_the_square_by_hand() -> None:
    # Along x: corners x in {-1,0,1}, y in {0,1}; along y likewise; upright: 2 x 2 -> 16.
    s = square_state(supply=("W1",))
    moves = GAME.legal_moves(s)
    assert len(moves) == 16
    assert all(m.pos[2] == 1.0 for m in moves)
    # Safe (margin >= 0.3): the centred flat ones (2 + 2) and the four upright ones.
    assert count_safe(s, SAFE) == 8
    assert sum(1 for v in GAME.placement_margins(s).values() if v >= SAFE) == 8
    for m in moves:
        GAME.check_move(s, m)


def test_candidates_pass_the_rules_on_every_model() -> None:
    for model in MODELS:
        s = GAME.new_game(GAME.make_config({"model": model.number}, players=2), 0)
        moves = GAME.legal_moves(s)
        assert moves and list(moves) == sorted(moves)
        for m in moves[:: max(1, len(moves) // 12)]:
            GAME.check_move(s, m)


# ---------------------------------------------------------------------------------------
# Turns, ends and winners
# ---------------------------------------------------------------------------------------
def test_collapse_makes_the_last_placer_win() -> None:
    s = square_state(players=3)
    s = GAME.apply(s, standing(s, place("A", A_X, -1, 0, 1)))  # seat 0
    s = GAME.apply(
        s, standing(s, place("X", rot("X", [(0, 0, 0), (1, 0, 0), (2, 0, 0)]), 0, 1, 1))
    )  # (seat 1)
    assert GAME.current_player(s) == 2 and s.last_placer == 1
    s = GAME.apply(s, falling(s, place("B", 0, *GAME.legal_moves(s)[0].pos)))
    assert GAME.is_terminal(s) and GAME.current_player(s) is None
    res = GAME.result(s)
    assert res.winners == (1,) and res.scores == (0.0, 1.0, 0.0)
    assert res.detail["end"] == "collapse" and res.detail["loser"] == 2
    assert GAME.legal_moves(s) == ()


def test_collapse_at_the_first_placement_gives_the_win_to_everyone_else() -> None:
    s = square_state(players=3)
    s = GAME.apply(s, falling(s, place("A", A_X, 1.5, 0, 1)))
    assert GAME.result(s).winners == (1, 2)


def test_running_out_of_pieces_makes_the_last_placer_win() -> None:
    s = square_state(supply=("A", "W1"))
    s = GAME.apply(s, standing(s, place("A", A_X, -1, 0, 1)))
    s = GAME.apply(s, standing(s, place("W1", W_X, 0, 1, 1)))
    res = GAME.result(s)
    assert res.detail["end"] == "supply" and res.winners == (1,)


def test_a_physics_game_needs_measured_moves() -> None:
    s = replace(square_state(), config=GAME.make_config({}, players=2))
    with pytest.raises(RefereeRequiredError, match="table=stand-in"):
        GAME.apply(s, place("A", A_X, -1, 0, 1))


def test_outcomes_are_checked() -> None:
    s = square_state()
    m = place("A", A_X, -1, 0, 1)
    with pytest.raises(IllegalMoveError, match="poses for 2 pieces"):
        GAME.apply(s, replace(m, outcome=Outcome(((0.0,) * 7,))))
    bad = replace(standing(s, m).outcome, fell=("Z9",))
    with pytest.raises(IllegalMoveError, match="unknown pieces"):
        GAME.apply(s, replace(m, outcome=bad))


def test_nudges() -> None:
    s = square_state()
    nudge = GAME.parse_move(s, "nudge C at 2,1,0.5 push -1,0,0")
    assert nudge == KataboomMove(NUDGE, "C", 0, (2.0, 1.0, 0.5), (-1.0, 0.0, 0.0))
    after = GAME.apply(s, standing(s, nudge))
    assert GAME.current_player(after) == 0 and after.nudged == 1  # the turn goes on
    with pytest.raises(IllegalMoveError, match="1 per turn"):
        GAME.check_move(after, nudge)
    placed = GAME.apply(after, standing(after, place("A", A_X, -1, 0, 1)))
    assert placed.nudged == 0 and GAME.current_player(placed) == 1
    with pytest.raises(IllegalMoveError, match="between 0 and 5 mN s"):
        GAME.check_move(s, replace(nudge, push=(6.0, 0.0, 0.0)))
    with pytest.raises(IllegalMoveError, match="edges from piece C"):
        GAME.check_move(s, replace(nudge, pos=(4.0, 1.0, 0.5)))
    with pytest.raises(IllegalMoveError, match="cannot nudge 'A'"):
        GAME.check_move(s, replace(nudge, piece="A"))
    lost = GAME.apply(s, falling(s, nudge))
    assert GAME.result(lost).winners == (1,) and lost.loser == 0


# ---------------------------------------------------------------------------------------
# Text and JSON
# ---------------------------------------------------------------------------------------
def test_move_text_round_trips() -> None:
    s = square_state()
    for text in (f"A r{A_X} at -1,0,1", "nudge C at 2,1,0.5 push -1,0,0.25"):
        m = GAME.parse_move(s, text)
        assert GAME.format_move(s, m) == text
        assert GAME.parse_move(s, GAME.format_move(s, m)) == m


@pytest.mark.parametrize(
    "text",
    [
        "",
        "A at 0,0",
        "A r2 at 0",
        "A r2 at a,b",
        "Q r0 at 0,0",
        "A r99 at 0,0",
        "nudge C at 1,1 push 1,0,0",
    ],
)
def test_bad_move_text(text: str) -> None:
    with pytest.raises(MoveParseError):
        GAME.parse_move(square_state(), text)


def test_state_json_round_trips_and_rejects_bad_input() -> None:
    s = square_state()
    s = GAME.apply(s, GAME.legal_moves(s)[5])
    obj = json.loads(json.dumps(GAME.state_to_json(s)))
    assert GAME.state_from_json(obj) == s
    for key, value in (("rng", "xyz"), ("end", "boom"), ("supply", ["Q"]), ("to_move", 5)):
        with pytest.raises(StateFormatError):
            GAME.state_from_json({**obj, key: value})
    with pytest.raises(StateFormatError, match="expected game 'kataboom'"):
        GAME.state_from_json({**obj, "game": "kozo"})


# ---------------------------------------------------------------------------------------
# Stand-in playouts and the careful bot
# ---------------------------------------------------------------------------------------
def test_stand_in_playouts_keep_the_invariants() -> None:
    for seed in range(5):
        players = 2 + seed % 3
        cfg = GAME.make_config({"table": "stand-in", "model": 1 + seed % 18}, players=players)
        s = GAME.new_game(cfg, seed)
        rng = Rng.from_seed(seed, "test-kataboom")
        while not GAME.is_terminal(s):
            m, rng = rng.choice(GAME.legal_moves(s))
            before = len(s.supply)
            s = GAME.apply(s, m)
            assert len(s.supply) in (before, before - 1)
            assert len(s.structure) + len(s.supply) == 16
        res = GAME.result(s)
        if s.end == "collapse":
            assert s.loser not in res.winners and res.winners
        else:
            assert res.winners == (s.last_placer,)


def test_careful_bot_plays_safe_and_is_seeded() -> None:
    cfg = GAME.make_config({"table": "stand-in", "model": 5}, players=2)
    s = GAME.new_game(cfg, 3)
    margins = GAME.placement_margins(s)
    a = CarefulBot(GAME, 11).choose(s)
    assert margins[a] >= SAFE
    assert CarefulBot(GAME, 11).choose(s) == a


@pytest.mark.slow
def test_careful_beats_random_on_the_stand_in() -> None:
    from tablesim.games.session import make_seats, play_game

    wins = 0
    for seed in range(18):
        cfg = GAME.make_config({"table": "stand-in", "model": 1 + seed}, players=2)
        roles = ["careful", "random"] if seed % 2 == 0 else ["random", "careful"]
        rec = play_game(GAME, cfg, make_seats("kataboom", roles, seed), seed)
        wins += rec.result.winner == roles.index("careful")
    assert wins >= 15
