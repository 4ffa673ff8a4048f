"""Tournaments: round-robin tables, seat rotation, identical rows for 1 and 2 workers, resume,
hand-checked summaries, bad input. Tested with Catego; the runner is generic over the registry."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from tablesim.games.core import ConfigError
from tablesim.sim.cli import main
from tablesim.sim.experiments.results import journal_path
from tablesim.sim.experiments.runner import run_job
from tablesim.sim.experiments.tournament import TournamentJob, summarize


def test_tables_and_rotated_seats():
    job = TournamentJob("catego", ["random", "strong", "random"], 4, seed=1, budget=10)
    # 3 entries, 2 seats: tables (0,1), (0,2), (1,2), 4 games each
    assert job.count == 12
    assert [job.seating(i) for i in range(4)] == [[0, 1], [1, 0], [0, 1], [1, 0]]
    assert [job.seating(i) for i in range(8, 12)] == [[1, 2], [2, 1], [1, 2], [2, 1]]
    four = TournamentJob("catego", ["random"] * 5, 4, seats=4)
    assert four.count == 5 * 4  # C(5, 4) tables
    # table (0, 1, 2, 3): game g seats entry (s + g) % 4 in seat s
    assert [four.seating(g) for g in range(4)] == [
        [0, 1, 2, 3],
        [1, 2, 3, 0],
        [2, 3, 0, 1],
        [3, 0, 1, 2],
    ]


def test_one_and_two_workers_write_the_same_rows(tmp_path: Path):
    job = TournamentJob("catego", ["random", "strong", "random"], 4, seed=5, budget=10)
    ref = tmp_path / "ref.csv"
    rep = run_job(job, ref, workers=1, stream=io.StringIO())
    rows = rep.rows
    assert [r["run"] for r in rows] == list(range(12))
    for r in rows:
        seats = r["seats"].split("|")
        assert r["roles"].split("|") == [job.players[int(e)] for e in seats]
        if r["winners"]:
            # the winners are the entries in the winning seats
            assert r["winners"].split("|") == sorted(
                seats[int(s)] for s in r["winner_seats"].split("|")
            )
        assert len(r["scores"].split("|")) == 2 and r["turns"] > 0
    out = tmp_path / "two.csv"
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "tablesim.sim.cli",
            "tournament",
            "catego",
            "--players",
            "random,strong,random",
            "--games",
            "4",
            "--seed",
            "5",
            "--budget",
            "10",
            "--workers",
            "2",
            "--out",
            str(out),
            "--json",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert p.returncode == 0, p.stderr
    assert out.read_bytes() == ref.read_bytes()
    summary = json.loads(p.stdout)
    assert summary["games"] == 12
    assert [pl["games"] for pl in summary["players"]] == [8, 8, 8]
    assert sum(pl["wins"] for pl in summary["players"]) + summary["draws"] >= 12


def test_summary_by_hand():
    # four games of entries 0 and 1, seats alternating: 0 wins twice (in seat 0, then in
    # seat 1), 1 wins once in seat 0, one draw
    rows = [
        {"seats": "0|1", "winners": "0", "winner_seats": "0", "turns": 10},
        {"seats": "1|0", "winners": "0", "winner_seats": "1", "turns": 20},
        {"seats": "0|1", "winners": "", "winner_seats": "", "turns": 30},
        {"seats": "1|0", "winners": "1", "winner_seats": "0", "turns": 40},
    ]
    s = summarize(rows, ["a", "b"], 2)
    p0, p1 = s["players"]
    assert (p0["wins"], p0["games"], p0["rate"]) == (2, 4, 0.5)
    # Wilson 95 % interval of 2 of 4: 0.150 to 0.850 (published tables)
    assert p0["low"] == pytest.approx(0.150, abs=5e-4)
    assert p0["high"] == pytest.approx(0.850, abs=5e-4)
    assert (p1["wins"], p1["rate"]) == (1, 0.25)
    assert s["draws"] == 1
    assert s["seat_wins"] == [2, 1]
    assert s["first_player"]["rate"] == 0.5 and s["first_player"]["no_advantage"] == 0.5
    assert s["mean_length"] == 25.0
    assert s["head_to_head"] == [{"a": 0, "b": 1, "a_wins": 2, "b_wins": 1, "draws": 1}]


def test_an_interrupted_tournament_resumes(tmp_path: Path):
    job = TournamentJob("catego", ["random", "random"], 10, seed=3)
    full = run_job(job, None, workers=1, stream=io.StringIO())
    out = tmp_path / "t.csv"
    seen: list[int] = []

    def stop_after_four(index: int, row: dict) -> None:
        seen.append(index)
        if len(seen) == 4:
            raise KeyboardInterrupt

    err = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        run_job(job, out, workers=1, stream=err, on_result=stop_after_four)
    assert "4 of 10 rows are saved" in err.getvalue()
    assert not out.exists() and journal_path(out).exists()
    again: list[int] = []
    rep = run_job(job, out, workers=2, stream=io.StringIO(), on_result=lambda i, r: again.append(i))
    assert rep.kept == 4 and sorted(again) == [4, 5, 6, 7, 8, 9]
    assert rep.rows == full.rows
    assert not journal_path(out).exists()


def test_self_play_rotates_seats_evenly():
    job = TournamentJob("catego", ["random", "random"], 6, seed=0)
    rep = run_job(job, None, workers=1, stream=io.StringIO())
    first_seat = [r["seats"].split("|")[0] for r in rep.rows]
    assert first_seat.count("0") == 3 and first_seat.count("1") == 3


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "random,nobot", "--games", "2"], "unknown bot 'nobot'"),
        (["--players", "random", "--games", "2"], "lists 1"),
        (["--players", "random,random", "--games", "0"], "--games: allowed 1..1000000, got 0"),
        (["--players", "random,random", "--games", "2", "--seats", "5"], "2 to 4"),
        (["--players", "random,random", "--games", "2", "--workers", "0"], "--workers"),
        (
            ["--players", "random,random", "--games", "2", "--overwrite"],
            "(--overwrite) needs --out",
        ),
        (["--players", "random,random", "--games", "2", "--columns", "x"], "columns"),
    ],
)
def test_bad_input_is_exit_2(args: list[str], words: str, capsys):
    assert main(["tournament", "catego", *args]) == 2
    assert words in capsys.readouterr().err


def test_human_seats_are_refused():
    with pytest.raises(ConfigError, match="no human seats"):
        TournamentJob("catego", ["human", "random"], 2)


def test_game_options_reach_the_games(tmp_path: Path):
    # Catego's 'columns' option reaches the config, and the fingerprint (so resume notices)
    job = TournamentJob("catego", ["random", "random"], 2, options={"columns": "7,8"})
    assert job.config.columns == (7, 8)
    other = TournamentJob("catego", ["random", "random"], 2)
    assert job.fingerprint() != other.fingerprint()


def test_default_seats_are_two_where_the_game_allows():
    from tablesim.games.registry import game_names, get_game

    for name in game_names():
        game = get_game(name)
        job = TournamentJob(name, ["random"] * 3, 1)
        expected = 2 if game.min_players <= 2 <= game.max_players else game.min_players
        assert job.seats == expected, name
