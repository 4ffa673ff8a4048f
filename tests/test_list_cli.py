"""``tablesim list``, the game options in ``play GAME --help``, ``solve``'s subset that fits,
``sweep example:NAME``."""

from __future__ import annotations

import json

import pytest

from tablesim.games.katamino import is_solvable
from tablesim.games.katamino.fit import fitting_subset, subsets_of_area
from tablesim.games.katamino.pieces import parse_pieces
from tablesim.games.katamino.target import Target
from tablesim.sim.cli import main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's --help
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_list_games_bots_scenes_pieces_specs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "list", "games")
    assert code == 0
    assert [ln.split()[0] for ln in out.splitlines()] == [
        "catego",
        "kaito",
        "kataboom",
        "katamino",
        "katoiz",
        "kozo",
    ]
    code, out, _ = _run(capsys, "list", "bots", "kozo")
    assert code == 0 and {ln.split()[0] for ln in out.splitlines()} == {
        "human",
        "careful",
        "greedy",
        "random",
    }
    code, out, _ = _run(capsys, "list", "scenes")
    assert "kozo-tower" in out and "kozo-overhang" in out
    code, out, _ = _run(capsys, "list", "pieces")
    assert "pentominoes" in out and "labels FILNPTUVWXYZ" in out
    code, out, _ = _run(capsys, "list", "specs")
    assert "example:friction-jitter" in out
    code, out, _ = _run(capsys, "list", "--json")
    assert json.loads(out)["games"][0] == "catego"


def test_list_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "list", "bots")
    assert code == 2 and "needs a game" in err
    code, _, err = _run(capsys, "list", "colours")
    assert code == 2 and "unknown topic 'colours'" in err and "games, bots" in err
    code, _, err = _run(capsys, "list", "options", "chess")
    assert code == 2 and "unknown game 'chess'" in err


def test_play_game_help_lists_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "play", "catego", "--help")
    assert code == 0
    assert "Catego options" in out and "--columns LIST" in out and "--tie-rule STR" in out
    assert "players (--players" in out and "strong" in out
    code, out, _ = _run(capsys, "play", "--help")
    assert code == 0 and "tablesim list games" in out
    code, out, _ = _run(capsys, "list", "games")  # what play --help points to works
    assert code == 0


def test_subsets_of_area_by_hand() -> None:
    pieces = parse_pieces("tetrominoes:IL+pentominoes:FI")  # sizes 4, 4, 5, 5
    assert list(subsets_of_area(pieces, 9)) == [(0, 2), (0, 3), (1, 2), (1, 3)]
    assert list(subsets_of_area(pieces, 8)) == [(0, 1)]
    assert list(subsets_of_area(pieces, 7)) == []


def test_solve_says_which_subset_fits(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, out = _run(capsys, "solve", "--board", "5x8", "--pieces", "pentominoes")
    assert code == 2 and "the pieces cover 60 cells, the board has 40" in out  # bad input
    spec = out.split("--pieces ")[-1].split()[0]
    assert "(solvable)" in out
    # the suggestion is 8 pentominoes that really tile 5 x 8
    chosen = parse_pieces(spec)
    assert len(chosen) == 8 and is_solvable(Target.parse("5x8"), chosen)
    code, out, _ = _run(capsys, "solve", "--board", "5x8", "--pieces", spec, "--count")
    assert code == 0


def test_fitting_subset_none_and_too_few() -> None:
    assert fitting_subset(Target.parse("3x3"), parse_pieces("pentominoes:LN")) is None


def test_sweep_example_spec(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    code, out, _ = _run(
        capsys,
        "sweep",
        "example:cantilever-cube-size",
        "--out",
        str(tmp_path / "r.csv"),
        "--dry-run",
    )
    assert code == 0 and "50 runs (grid)" in out  # 2 scenes x 5 cube edges x 5 frictions
    code, _, err = _run(capsys, "sweep", "example:nope", "--out", str(tmp_path / "r.csv"))
    assert code == 2 and "shipped: cantilever-cube-size" in err
