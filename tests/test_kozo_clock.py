"""Kozo's time to place and the 5-second rule in the rules layer and the stand-in judge (issue 21
item 8): move texts with ``@SECS``, stamping, bots' seeded times, the table clock, who a fall is
charged to, and logs written before the field existed.

The rule (docs/rules/kozo.md, "The 5-second rule"): the mover is responsible for the tower until
5 s after their turn or until the next player lets their polycube go, whichever comes first;
a fall during a player's turn is theirs.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from conftest import run_cli

from tablesim.games.core import MoveParseError
from tablesim.games.kozo import BOTS, GAME, KozoMove
from tablesim.games.kozo.blocks import piece_orientations
from tablesim.games.kozo.bots import PLACE_SIGMA, placement_seconds
from tablesim.games.kozo.clock import round_clock
from tablesim.games.kozo.state import CUBE, PLACE, Outcome

LEGACY = Path(__file__).resolve().parent / "data" / "kozo-legacy"
I3_X = ((0, 0, 0), (1, 0, 0), (2, 0, 0))
BAR = KozoMove(PLACE, "3I", piece_orientations("kozo-standard", "3I").index(I3_X), (0.0, 0.0, 0.0))
CUBE_ON_BAR = KozoMove(CUBE, "", 0, (1.5, 0.5, 1.0))
BAR2_X = piece_orientations("kozo-standard", "2a").index(((0, 0, 0), (1, 0, 0)))


def stand_in(**options: object):
    return GAME.make_config({"table": "stand-in", **options}, players=2)


def standing(state, move: KozoMove) -> KozoMove:
    """``move`` measured as standing (a stand-in outcome with nothing fallen)."""
    poses = tuple(it.pose for it in state.tower)
    if move.kind == PLACE:
        poses += ((*move.pos, 0.0, 0.0, 0.0, 1.0),)
    elif move.kind == CUBE:
        half = state.config.balance_edge / 2
        x, y, z = move.pos
        poses += ((x - half, y - half, z, 0.0, 0.0, 0.0, 1.0),)
    return KozoMove(move.kind, move.piece, move.rot, move.pos, Outcome(poses), move.secs)


def after_p1_turn(config):
    """Seat 0 placed the 3-bar and its balance cube; both stood. Seat 1 to place."""
    s = GAME.new_game(config, 1)
    for m in (BAR, CUBE_ON_BAR):
        s = GAME.apply(s, standing(s, m))
    return s


def test_a_placement_carries_its_time_to_place_in_its_text() -> None:
    s = after_p1_turn(stand_in())
    m = GAME.parse_move(s, f"2a r{BAR2_X} at 0,2,0 @2.5")
    assert m.kind == PLACE and m.secs == 2.5 and m.pos == (0.0, 2.0, 0.0)
    assert GAME.format_move(s, m) == f"2a r{BAR2_X} at 0,2,0 @2.5"
    assert GAME.parse_move(s, GAME.format_move(s, m)).secs == 2.5
    # the time is not part of the move's identity: the stamped move is the legal one
    assert m in GAME.legal_moves(s)
    assert GAME.format_move(s, GAME.parse_move(s, f"2a r{BAR2_X} at 0,2,0")).endswith(",0")
    for bad in (
        "2a r0 at 0,2,0 @",
        "2a r0 at 0,2,0 @soon",
        "2a r0 at 0,2,0 @-1",
        "2a r0 at 0,2,0 @1e9",
        "2a r0 at 0,2,0 @nan",
        "nocube @2",
        "take 2a @1",
    ):
        with pytest.raises(MoveParseError):
            GAME.parse_move(s, bad)
    cube_phase = GAME.apply(s, standing(s, m))
    with pytest.raises(MoveParseError, match="only a placement"):
        GAME.parse_move(cube_phase, "cube at 0.5,2.5,1 @1")


def test_the_front_end_stamps_a_persons_seconds_into_placements_only() -> None:
    c = stand_in()
    first = GAME.new_game(c, 1)
    # the round's first polycube follows no turn: nothing to time
    assert GAME.stamp_seconds(first, BAR, 3.21).secs is None
    s = after_p1_turn(c)
    place = GAME.parse_move(s, f"2a r{BAR2_X} at 0,2,0")
    assert GAME.stamp_seconds(s, place, 3.26).secs == 3.3  # 0.1 s, as logs keep it
    assert GAME.stamp_seconds(s, place, -1.0).secs == 0.0
    assert GAME.stamp_seconds(s, place, 1e9).secs == 3600.0
    already = GAME.parse_move(s, f"2a r{BAR2_X} at 0,2,0 @7")
    assert GAME.stamp_seconds(s, already, 1.0).secs == 7.0
    take = GAME.parse_move(s, "take 2a")
    assert GAME.stamp_seconds(s, take, 2.0) is take


def test_the_table_clock_follows_the_move_texts() -> None:
    # hold 0.5 s, window 5 s; seat 0 starts. Turn 1 ends at 0.5 s; seat 1 places 2 s later
    # (2.5 s) and ends at 3.0 s; seat 0 places without a time (at the window's end: 8.0 s)
    # and ends at 8.5 s; seat 1 places 12 s later: 20.5 s.
    history = (
        "3I r0 at 0,0,0",
        "cube at 1.5,0.5,1",
        "take 2a",
        "2a r0 at 0,2,0 @2",
        "cube at 0.5,2.5,1",
        "2b r0 at 2,0,1",
        "nocube",
        "3L r0 at 0,0,1 @12",
    )
    clock = round_clock(history, 0, 2, 0.5, 5.0)
    assert clock.ends == ((0.5, 0), (3.0, 1), (8.5, 0))
    assert clock.placed == 20.5
    assert round_clock((), 1, 2, 0.5, 5.0).last_end is None


def test_bots_draw_a_seeded_log_normal_time_to_place() -> None:
    # log-normal, median 6 s, log-sd 0.5: over 2000 seeds the median of the draws is near 6
    # (its standard error is about 1.25 * 0.5 / sqrt(2000) in the log: 1.4 %) and the share
    # quicker than the 5 s window near Phi(ln(5/6) / 0.5) = 35.8 % (binomial sd 1.1 %).
    draws = sorted(placement_seconds(seed, "digest", 6.0, PLACE_SIGMA) for seed in range(2000))
    median = (draws[999] + draws[1000]) / 2
    assert abs(math.log(median / 6.0)) < 0.06
    quick = sum(d < 5.0 for d in draws) / len(draws)
    assert abs(quick - 0.358) < 0.04
    assert all(0.0 < d <= 30.0 and d == round(d, 1) for d in draws)
    assert placement_seconds(7, "x", 6.0, 0.5) == placement_seconds(7, "x", 6.0, 0.5)
    # every Kozo bot stamps its placements (not the round's first), and its choice is the
    # same as without a time: the time comes from a stream of its own
    s = after_p1_turn(stand_in())
    untimed = after_p1_turn(stand_in(bot_place_s=0.0))
    for name, cls in BOTS.items():
        move = cls(GAME, 11).choose(s)
        assert move.kind == PLACE and move.secs is not None, name
        bare = cls.choose.__wrapped__(cls(GAME, 11), s)  # the choice before it is timed
        assert bare.secs is None and bare == move, name
        assert cls(GAME, 11).choose(untimed).secs is None, name  # bot_place_s = 0: untimed
        first = cls(GAME, 11).choose(GAME.new_game(stand_in(), 1))
        assert first.secs is None, name


def test_a_quick_players_fall_is_theirs_in_the_stand_in_judge() -> None:
    # Seat 0's turn ended; seat 1 lets its 2-bar go 2 s later and the stand-in (risk 1:
    # every placement topples) brings the tower down at 0.5 u s after that, inside seat 0's
    # 5 s. Seat 1's turn had begun: "If the tower falls during your turn, you lose your
    # points" -- seat 1 loses the round, seat 0 keeps its 3.
    s = after_p1_turn(stand_in(stand_in_risk=1.0))
    quick = GAME.parse_move(s, f"2a r{BAR2_X} at 0,2,0 @2")
    end = GAME.apply(s, quick)
    r = end.rounds[0]
    assert (r.reason, r.toppler, r.points) == ("topple", 1, (3, 0))
    # the same fall, 4 s after the quick placement (2 s + 0.5 s hold + 3.5 s into seat 1's
    # window = 6 s after seat 0's turn): seat 1's, by either clause
    placed = GAME.apply(s, standing(s, quick))
    cube = KozoMove(CUBE, "", 0, (0.5, 2.5, 1.0))
    poses = standing(placed, cube).outcome.poses
    fell = KozoMove(CUBE, "", 0, cube.pos, Outcome(poses, ("3I", "2a"), 3.5))
    r = GAME.apply(placed, fell).rounds[0]
    assert (r.toppler, r.points) == (1, (3, 0))


def test_the_stand_in_gives_a_fall_a_time_within_the_watched_span() -> None:
    from tablesim.games.kozo.judge import stand_in_outcome
    from tablesim.games.rng import Rng

    # risk 0.5: a draw u < 0.5 topples at span * u / 0.5, uniform over the span
    times = []
    for seed in range(400):
        out, _ = stand_in_outcome(Rng.from_seed(seed, "t"), (), ("a",), ("a",), 0.5, 5.0)
        if out.fell:
            times.append(out.fall_time)
    assert 150 < len(times) < 250
    assert all(0.0 <= t < 5.0 for t in times)
    assert abs(sum(times) / len(times) - 2.5) < 0.35  # the mean of U(0, 5), sd 1.44/sqrt(200)


@pytest.mark.parametrize("name", ["kozo-stand-in-5"])
def test_a_log_written_before_times_to_place_replays_and_is_played_again_byte_for_byte(
    name: str, tmp_path: Path
) -> None:
    # tests/data/kozo-legacy/*.jsonl are golden logs as main wrote them before this change:
    # no bot_place_s in the config, no @SECS in the moves.
    legacy = LEGACY / f"{name}.jsonl"
    r = run_cli("replay", str(legacy))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "reproduced" in r.stdout
    out = tmp_path / "again.jsonl"
    r = run_cli(
        "play",
        "kozo",
        "--players",
        "greedy,random",
        "--seed",
        "5",
        "--table",
        "stand-in",
        "--bot-place-s",
        "0",
        "--log",
        str(out),
    )
    assert r.returncode == 0, r.stderr
    assert out.read_bytes() == legacy.read_bytes()


@pytest.mark.slow
def test_a_physics_log_written_before_the_exact_inputs_is_refused_at_its_first_move() -> None:
    # main's golden physics game (careful vs greedy, seed 3) as written before round 7 made the
    # physics inputs exact (mass properties in integers, products without BLAS:
    # docs/architecture.md, "Across machines"). Its physics differs from the first judged move
    # on, so replay must say so at move 1 (exit 1), never pass it or fail later.
    r = run_cli("replay", str(LEGACY / "kozo-physics-3.jsonl"))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "diverged: move 1 " in r.stdout
