"""The Kataboom physics table: placement by lowering, hand noise, nudges, the collapse rule,
the graded pair (centre of mass 2 mm inside / outside), exact replay, seeded bot games, the
play and replay commands."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli
from table_helpers import measure_and_apply

from tablesim.games.core import IllegalMoveError
from tablesim.games.kataboom import GAME, KataboomMove
from tablesim.games.kataboom.geometry import orientations
from tablesim.games.kataboom.rules import kataboom_pieces
from tablesim.games.kataboom.state import NUDGE, PLACE, Item
from tablesim.games.log import log_lines, parse_log
from tablesim.games.session import log_header, make_seats, play_game, replay_log
from tablesim.sim.cli import main
from tablesim.sim.slices.kataboom.referee import KataboomReferee

EDGE_MM = 19.0
A_X = orientations("A").index(tuple((i, 0, 0) for i in range(4)))
C_FLAT = orientations("C").index(((0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 1, 0)))


def physics(model: int = 5, **options: object):
    return GAME.make_config({"model": model, **options}, players=2)


def play(table: KataboomReferee, state, *moves: KataboomMove):
    return measure_and_apply(GAME, table, state, *moves)


def test_a_placed_piece_rests_where_it_was_lowered() -> None:
    # Model 5: P flat, the square C on it (top z = 2 over [0,2] x [0,2]).
    cfg = physics(5)
    s0 = GAME.new_game(cfg, 2)
    move = GAME.parse_move(s0, f"A r{A_X} at -1,0.5")
    assert move.pos == (-1.0, 0.5, 2.0)
    with KataboomReferee(cfg, 2) as table:
        s, (m,) = play(table, s0, move)
    assert m.outcome.fell == () and m.outcome.judge == "physics"
    pose = np.asarray(s.structure[-1].pose)
    # Hand noise sigma 1 mm per axis (4 sigma bound), resting on the square's top.
    assert np.abs(pose[:2] - (-1.0, 0.5)).max() * EDGE_MM < 4.0
    assert abs(pose[2] - 2.0) * EDGE_MM < 0.5
    assert GAME.current_player(s) == 1 and s.last_placer == 0


def test_without_hand_noise_the_piece_lands_on_its_intended_pose() -> None:
    cfg = physics(5, hand_mm=0.0, hand_deg=0.0)
    s0 = GAME.new_game(cfg, 2)
    with KataboomReferee(cfg, 2) as table:
        s, _ = play(table, s0, GAME.parse_move(s0, f"A r{A_X} at -1,0.5"))
    pose = np.asarray(s.structure[-1].pose)
    assert np.abs(pose[:3] - (-1.0, 0.5, 2.0)).max() * EDGE_MM < 0.1


def test_an_overhanging_piece_collapses_and_loses() -> None:
    cfg = physics(5)
    s0 = GAME.new_game(cfg, 4)
    # Centre of mass 1.5 edges (28.5 mm) beyond the square's edge.
    move = KataboomMove(PLACE, "A", A_X, (1.5, 0.0, 2.0))
    with KataboomReferee(cfg, 4) as table:
        s, (m,) = play(table, s0, move)
    assert "A" in m.outcome.fell and m.outcome.fall_time is not None
    assert s.end == "collapse" and GAME.result(s).winners == (1,)


def graded_state(x: float):
    """The square C alone on the table and the bar A across its top, its centre of mass at
    ``x`` edges (the square's far edge is x = 2)."""
    cfg = physics(1)
    s = GAME.new_game(cfg, 0)
    c = Item("C", C_FLAT, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0), -1)
    s = replace(s, structure=(c,), supply=tuple(p for p in kataboom_pieces() if p != "C"))
    return s, KataboomMove(PLACE, "A", A_X, (x - 2.0, 0.5, 1.0))


@pytest.mark.parametrize(("com_mm", "expected"), [(38.0 - 2.0, 0.0), (38.0 + 2.0, 1.0)])
def test_graded_pair_two_mm_inside_stands_two_mm_outside_falls(com_mm, expected) -> None:
    s, move = graded_state(com_mm / EDGE_MM)
    GAME.check_move(s, move)
    with KataboomReferee(s.config, 0) as table:
        p = table.assess(s, move, replicas=4, seconds=3.0, seed=1)
    assert p == expected


def test_nudges_are_judged_in_physics() -> None:
    cfg = physics(18)  # the needle: the bar A on end, X on end on top of it (7 cubes tall)
    s0 = GAME.new_game(cfg, 1)
    top = (0.5, 0.0, 6.5)  # the -y face of X's top cube
    gentle = KataboomMove(NUDGE, "X", 0, top, (0.0, 0.2, 0.0))
    hard = KataboomMove(NUDGE, "X", 0, top, (0.0, 5.0, 0.0))
    with KataboomReferee(cfg, 1) as table:
        s, (m,) = play(table, s0, gentle)
    assert m.outcome.fell == () and s.nudged == 1 and GAME.current_player(s) == 0
    with KataboomReferee(cfg, 1) as table:
        s, (m,) = play(table, s0, hard)
    assert m.outcome.fell and s.end == "collapse" and GAME.result(s).winners == (1,)


def test_illegal_moves_are_refused_before_the_table_runs() -> None:
    cfg = physics(5)
    s0 = GAME.new_game(cfg, 1)
    with KataboomReferee(cfg, 1) as table:
        with pytest.raises(IllegalMoveError, match="nothing of the structure"):
            table.measure(s0, KataboomMove(PLACE, "A", A_X, (9.0, 9.0, 0.0)))
        assert table.rebuilds == 0


def test_the_table_is_deterministic_and_rebuilds_bit_for_bit() -> None:
    cfg = physics(3)
    s0 = GAME.new_game(cfg, 9)
    moves = []
    s = s0
    with KataboomReferee(cfg, 9) as table:
        for _ in range(2):
            safe = [m for m, g in GAME.placement_margins(s).items() if g >= 0.4]
            m = table.measure(s, safe[len(safe) // 2])
            moves.append(m)
            s = GAME.apply(s, m)
        assert table.rebuilds == 1  # the cached world followed the game
    # A fresh table asked about the second move rebuilds the first from the log.
    with KataboomReferee(cfg, 9) as fresh:
        s1 = GAME.apply(s0, moves[0])
        again = fresh.measure(s1, moves[1].intended())
        assert fresh.rebuilds == 1
    assert again.outcome == moves[1].outcome
    # Another seed: other hand noise, other poses.
    with KataboomReferee(cfg, 10) as other:
        m = other.measure(s0, moves[0].intended())
    assert m.outcome.poses != moves[0].outcome.poses


@pytest.mark.parametrize("seed", range(5))
def test_seeded_bot_games_at_the_table_replay_exactly(seed: int) -> None:
    cfg = physics(1 + seed * 4)
    roles = ["careful", "random"] if seed == 0 else ["random", "random"]
    seats = make_seats("kataboom", roles, seed)
    rec = play_game(GAME, cfg, seats, seed)
    assert rec.result is not None
    header = log_header(GAME, cfg, seed, seats, "test")
    report = replay_log(parse_log(log_lines(header, rec)))
    assert report.ok, report.message


def test_play_and_replay_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "g.jsonl"
    p = run_cli(
        "play",
        "kataboom",
        "--players",
        "random,random",
        "--model",
        "7",
        "--seed",
        "2",
        "--headless",
        "--log",
        str(log),
        "--json",
    )
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["game"] == "kataboom" and out["detail"]["end"] in ("collapse", "supply", "stuck")
    assert main(["replay", str(log)]) == 0
    assert capsys.readouterr().out.startswith("reproduced")
    assert main(["play", "kataboom", "--players", "careful,random", "--model", "19"]) == 2
    assert "'model' = 19 (allowed: 1..18)" in capsys.readouterr().err
