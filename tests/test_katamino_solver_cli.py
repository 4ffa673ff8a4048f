"""``tablesim solve``: modes, JSON keys, mask and partial files, exit codes, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tablesim.sim.cli import main


def solve(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["solve", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_count_distinct_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = solve(capsys, "--board", "6x10", "--pieces", "pentominoes", "--count",
                         "--distinct", "--json")  # fmt: skip
    assert code == 0
    obj = json.loads(out)
    assert (obj["count"], obj["distinct"], obj["group_order"]) == (9356, 2339, 4)
    assert "solutions" not in obj


def test_show_draws_exact_covers(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = solve(capsys, "--board", "3x20", "--pieces", "pentominoes", "--show", "2",
                         "--distinct", "--json")  # fmt: skip
    assert code == 0
    obj = json.loads(out)
    assert (obj["count"], obj["distinct"]) == (8, 2)
    assert len(obj["solutions"]) == 2  # the two distinct 3x20 tilings
    for s in obj["solutions"]:
        grid = s["grid"]
        assert len(grid) == 3 and all(len(r) == 20 for r in grid)
        assert sorted("".join(grid)) == sorted("FILNPTUVWXYZ" * 5)
    assert obj["solutions"][0]["grid"] != obj["solutions"][1]["grid"]
    code, text, _ = solve(capsys, "--board", "3x20", "--pieces", "pentominoes", "--color", "never")
    assert code == 0 and "8 solutions" in text and "solution 1:" in text and "\x1b" not in text
    code, text, _ = solve(capsys, "--board", "1x5", "--pieces", "pentominoes:I", "--color",
                          "always")  # fmt: skip
    assert "\x1b[" in text


def test_all_and_katamino_labels(capsys: pytest.CaptureFixture[str]) -> None:
    # 1x4 by V, V, W: the domino in 3 places (hand count).
    code, out, _ = solve(capsys, "--board", "1x4", "--pieces", "katamino-duo:V,V,W", "--all",
                         "--json")  # fmt: skip
    assert code == 0
    obj = json.loads(out)
    assert obj["count"] == 3 and obj["pieces"] == ["V1", "V2", "W1"]
    assert sorted(s["grid"][0] for s in obj["solutions"]) == ["VVWW", "VWWV", "WWVV"]


def test_no_solution_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = solve(capsys, "--board", "5x1", "--pieces", "pentominoes:I",
                         "--straight-horizontal", "--json")  # fmt: skip
    assert code == 1 and json.loads(out)["count"] == 0
    # pieces of 10 cells for a board of 15: bad input, exit 2 (as `katamino assemble`)
    code, _, err = solve(capsys, "--board", "5x3", "--pieces", "pentominoes:LP")
    assert code == 2 and "10 cells, the board has 15" in err


def test_mask_file_with_layers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mask = tmp_path / "box.txt"
    mask.write_text("###\n###\n\n###\n###\n\n###\n###\n\n###\n###\n\n###\n###\n")
    code, out, _ = solve(capsys, "--board", str(mask), "--pieces", "pentominoes:LNPUVY",
                         "--count", "--json")  # fmt: skip
    code2, out2, _ = solve(capsys, "--board", "2x3x5", "--pieces", "pentominoes:LNPUVY",
                           "--count", "--json")  # fmt: skip
    assert code == code2 == 0
    assert json.loads(out)["count"] == json.loads(out2)["count"] > 0


def test_hint_on_a_partial_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    part = tmp_path / "p.txt"
    part.write_text("IIIII\n.....\n")
    code, out, _ = solve(capsys, "--board", "2x5", "--pieces", "pentominoes:IL", "--hint",
                         "--partial", str(part), "--json")  # fmt: skip
    # 2x5 with I on top: the L cannot fill a straight row.
    assert code == 1
    obj = json.loads(out)
    assert obj["hint"]["solvable"] is False and obj["count"] == 0
    part.write_text("IIIII\n.....\n.....\n")
    # Below the I, a 2x5 to fill with two L: foot under one end, the other L turned round;
    # the two tilings are mirror images (hand count), the copies are identical.
    code, out, _ = solve(capsys, "--board", "3x5", "--pieces", "pentominoes:ILL", "--hint",
                         "--partial", str(part), "--json")  # fmt: skip
    obj = json.loads(out)
    assert code == 0 and obj["hint"]["solvable"] is True
    assert obj["hint"]["placement"]["name"] == "L"
    assert obj["count"] == obj["hint"]["completions"] == 2


def test_touching_copies_in_a_partial_are_split(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    part = tmp_path / "p.txt"
    part.write_text("VV..\n")  # the two monominoes side by side
    code, out, _ = solve(capsys, "--board", "1x4", "--pieces", "katamino-duo:V,V,W", "--hint",
                         "--partial", str(part), "--json")  # fmt: skip
    obj = json.loads(out)
    assert code == 0 and obj["hint"]["placement"]["name"] == "W1"
    assert obj["hint"]["placement"]["cells"] == [[2, 0, 0], [3, 0, 0]]


def test_difficulty_mode(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = solve(capsys, "--board", "1x5", "--pieces", "pentominoes:I", "--difficulty",
                         "--json")  # fmt: skip
    assert code == 0
    assert json.loads(out)["difficulty"]["level"] == "beginner"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--board", "5by8", "--pieces", "pentominoes"], "neither a size"),
        (["--board", "5x8", "--pieces", "pentominoes:Q"], "no piece named or labelled 'Q'"),
        (["--board", "5x8", "--pieces", "nosuch:A"], "unknown catalogue"),
        (["--board", "3x3", "--pieces", "soma:A"], "not flat"),
        (["--board", "5x8", "--pieces", "pentominoes", "--show", "0"], "at least 1"),
        (["--board", "5x8", "--pieces", "pentominoes", "--hint"], "--partial"),
        (["--board", "5x8", "--pieces", "pentominoes", "--partial", "x.txt"], "--hint"),
    ],
)
def test_bad_input_exits_2(args: list[str], message: str,
                           capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    code, out, err = solve(capsys, *args)
    assert code == 2
    assert message in err
    assert out == ""


def test_bad_files_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("##\n#?\n")
    code, _, err = solve(capsys, "--board", str(bad), "--pieces", "pentominoes:I")
    assert code == 2 and "line 2, column 2" in err
    part = tmp_path / "p.txt"
    part.write_text("....\n")
    code, _, err = solve(capsys, "--board", "1x5", "--pieces", "pentominoes:I", "--hint",
                         "--partial", str(part))  # fmt: skip
    assert code == 2 and "do not match the board" in err
    part.write_text("III..\n")
    code, _, err = solve(capsys, "--board", "1x5", "--pieces", "pentominoes:I", "--hint",
                         "--partial", str(part))  # fmt: skip
    assert code == 2 and "not a legal placement" in err


def test_json_is_byte_stable_across_processes() -> None:
    cmd = [sys.executable, "-m", "tablesim.sim.cli", "solve", "--board", "5x6", "--pieces",
           "pentominoes:LNPUVY", "--show", "3", "--distinct", "--json"]  # fmt: skip
    a = subprocess.run(cmd, capture_output=True, text=True)
    b = subprocess.run(cmd + ["--backend", "python"], capture_output=True, text=True)
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    assert len(a.stdout.strip().splitlines()) == 1
