"""The command-line contract for games: play, replay, balance, exit codes, byte-stable output."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_cli

from tablesim.sim.cli import main


def test_version() -> None:
    p = run_cli("--version")
    assert p.returncode == 0
    assert p.stdout.startswith("tablesim ")


def test_play_json_is_one_compact_line_and_byte_stable_across_processes() -> None:
    a = run_cli(
        "play", "catego", "--players", "strong,random", "--seed", "5", "--headless", "--json"
    )
    b = run_cli(
        "play", "catego", "--players", "strong,random", "--seed", "5", "--headless", "--json"
    )
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    lines = a.stdout.strip().splitlines()
    assert len(lines) == 1
    obj = json.loads(lines[0])
    assert {"winner", "scores", "turns"} <= obj.keys()
    # Catego: every player fills every column once -> 2 players x 11 columns = 22 turns.
    assert obj["turns"] == 22
    # compact: no space outside the strings (an end reason is words, with spaces)
    assert lines[0] == json.dumps(obj, separators=(",", ":"), sort_keys=True)


def test_headless_play_prints_turns_and_a_result_line() -> None:
    p = run_cli(
        "play",
        "catego",
        "--players",
        "random,random",
        "--seed",
        "1",
        "--headless",
        "--columns",
        "1..10",
    )
    assert p.returncode == 0, p.stderr
    lines = p.stdout.strip().splitlines()
    assert sum(line.startswith("turn ") for line in lines) == 20  # 2 players x 10 columns
    assert any(line.startswith("result: ") for line in lines)


def test_log_replays_and_tampering_is_named(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    assert (
        main(
            [
                "play",
                "catego",
                "--players",
                "strong,random",
                "--seed",
                "3",
                "--log",
                str(log),
                "--json",
            ]
        )
        == 0
    )
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["type"] == "header" and header["game"] == "catego" and header["seed"] == 3
    assert "version" in header and header["players"][0]["role"] == "strong"
    assert main(["replay", str(log)]) == 0
    # Change move 4 to another column: replay must fail at move 4 (exit 1).
    moves = [json.loads(x) for x in lines[1:-1]]
    m4 = moves[3]
    other = next(m["move"] for m in moves if m["seat"] == m4["seat"] and m["move"] != m4["move"])
    m4["move"] = other
    bad = [lines[0], *[json.dumps(m) for m in moves], lines[-1]]
    tampered = tmp_path / "t.jsonl"
    tampered.write_text("\n".join(bad) + "\n")
    p = run_cli("replay", str(tampered))
    assert p.returncode == 1
    assert "move 4" in p.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("play", "chess", "--players", "random,random"), "unknown game 'chess'"),
        (("play", "catego", "--players", "random,wizard"), "unknown bot 'wizard'"),
        (("play", "catego", "--players", "random,random", "--tie-rule", "coin"), "tie_rule"),
        (("play", "catego", "--players", "random,random", "--colour", "red"), "--colour"),
        (("play", "catego", "--players", "random"), "players"),
        (("replay", "/nonexistent/log.jsonl"), "no such file"),
        (("balance", "catego", "--players", "random,random", "--games", "0"), "--games"),
    ],
)
def test_bad_input_exits_2_with_a_message(args: tuple[str, ...], needle: str) -> None:
    p = run_cli(*args)
    assert p.returncode == 2, (p.stdout, p.stderr)
    assert needle in p.stderr


def test_replay_of_garbage_names_the_line(tmp_path: Path) -> None:
    f = tmp_path / "bad.jsonl"
    f.write_text(
        '{"type": "header", "format": "tablesim-log/1", "game": "catego", "config": {"players": 2}, '
        '"seed": 0, "players": [{"role": "human"}, {"role": "human"}], "version": "0"}\nnot json\n'
    )
    p = run_cli("replay", str(f))
    assert p.returncode == 2
    assert "bad.jsonl:2" in p.stderr


def test_balance_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "balance",
                "catego",
                "--players",
                "random,random",
                "--games",
                "6",
                "--seed",
                "2",
                "--json",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    rep = json.loads(out[0])
    assert rep["games"] == 6
    assert {"wins", "draws", "first_player_win_rate", "mean_length"} <= rep.keys()
    # Every game has a winner seat or is a draw: wins by seat + draws = games (2 individuals).
    assert sum(rep["wins_by_seat"]) + rep["draws"] == 6
    assert sum(rep["wins"]) == sum(rep["wins_by_seat"])
    assert rep["mean_length"] == 22  # every Catego game with 11 columns has 22 moves


def test_human_seat_is_reprompted_after_a_bad_move() -> None:
    # Seat 0 is human and moves first, so the first-entry rule blocks nothing. The first line
    # is not a column, the second is a column that does not exist (labels are 2..12); both
    # must be refused with a message. Then the human fills columns 2, 3, ..., 12 in order.
    labels = [str(c) for c in range(2, 13)]
    inputs = ["banana", "13"] + labels  # 11 legal entries for the 11 human turns (in order)
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "tablesim.sim.cli",
            "play",
            "catego",
            "--players",
            "human,random",
            "--seed",
            "4",
        ],
        input="\n".join(inputs) + "\n",
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.count("not accepted") >= 2
    assert "result: " in p.stdout
