"""Assembly orders (pure) and Katamino constructions built in physics."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tablesim.games.katamino import PlacedPiece, Solution, Target, solve_one
from tablesim.games.katamino.assembly import (
    find_assembly,
    inside_margin,
    path_clear,
)
from tablesim.sim.assembly import DEFAULT_PIECES, TALL, build, free_standing
from tablesim.sim.cli import main
from tablesim.sim.scene import load_scene


def pp(name: str, *cells: tuple[int, int, int]) -> PlacedPiece:
    return PlacedPiece(name, name[0], tuple(sorted(cells)))


BAR_ON_ONE = Solution((pp("V1", (0, 0, 0)), pp("A", *[(i, 0, 1) for i in range(4)])))
BAR_ON_TWO = Solution(
    (pp("V1", (0, 0, 0)), pp("V2", (3, 0, 0)), pp("A", *[(i, 0, 1) for i in range(4)]))
)
# The U on its side (opening +x) holds the monomino between its arms.
CLAMP = Solution(
    (
        pp("6", (0, 0, 0), (1, 0, 0), (0, 0, 1), (0, 0, 2), (1, 0, 2)),
        pp("V1", (1, 0, 1)),
    )
)


def test_path_clear_by_hand() -> None:
    low, high = pp("V1", (0, 0, 0)), pp("V2", (0, 0, 3))
    assert path_clear(low, set(), 3)
    assert not path_clear(low, {(0, 0, 3)}, 3)  # V2 is above it
    assert path_clear(high, {(0, 0, 0)}, 3)
    assert path_clear(low, {(1, 0, 3)}, 3)  # another column


def test_inside_margin_by_hand() -> None:
    square = np.array([(0.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)])
    assert inside_margin((1.0, 1.0), square) == pytest.approx(1.0)
    assert inside_margin((0.5, 1.0), square) == pytest.approx(0.5)
    assert inside_margin((3.0, 1.0), square) == pytest.approx(-1.0)


def test_a_column_goes_bottom_up() -> None:
    sol = Solution((pp("V2", (0, 0, 1)), pp("V1", (0, 0, 0))))
    plan = find_assembly(sol)
    assert plan.found and [p.name for p in plan.order] == ["V1", "V2"]
    assert plan.steps[0].rests_on == ("table",) and plan.steps[1].rests_on == ("V1",)


def test_an_overhang_has_no_order_and_says_why() -> None:
    plan = find_assembly(BAR_ON_ONE)
    assert not plan.found and plan.steps == ()
    assert "centre of mass is -1.00 edges" in plan.reason  # x = 2 against the square [0, 1]


def test_two_supports_hold_the_bar() -> None:
    plan = find_assembly(BAR_ON_TWO)
    assert plan.found and plan.order[-1].name == "A"
    # Hull of the squares [0,1] and [3,4] by [0,1]; the bar's centre (2, 0.5): 0.5 inside.
    assert plan.steps[-1].margin == pytest.approx(0.5)
    assert plan.steps[-1].rests_on == ("V1", "V2")


def test_interlocked_pieces_have_no_order() -> None:
    plan = find_assembly(CLAMP)
    assert not plan.found
    # U first: its upper arm is over V1's place; V1 first: it would rest on nothing.
    assert plan.blocked["V1"] == "a placed piece is above it" and "V1" in plan.reason


def test_the_judge_is_asked_and_obeyed() -> None:
    calls = []

    def no_v1_alone(placed) -> bool:
        calls.append([p.name for p in placed])
        return [p.name for p in placed] != ["V1"]

    plan = find_assembly(BAR_ON_TWO, judge=no_v1_alone)
    assert plan.found and [p.name for p in plan.order] == ["V2", "V1", "A"]
    assert ["V1"] in calls and plan.judged == len(calls)
    never = find_assembly(BAR_ON_TWO, judge=lambda placed: False)
    assert not never.found and "judge" in never.reason


def verify(plan, target: Target) -> None:
    """Check an order independently: the cells tile the target, each piece rests on the
    table or an earlier cube, and no earlier cube lies above it."""
    cells = [c for p in plan.order for c in p.cells]
    assert sorted(cells) == sorted(target.cells)
    below: set = set()
    for p in plan.order:
        for x, y, z in p.cells:
            assert not any((x, y, w) in below for w in range(z + 1, 40))
        assert any(z == 0 or (x, y, z - 1) in below for x, y, z in p.cells)
        below |= set(p.cells)


@pytest.mark.parametrize("board", sorted(DEFAULT_PIECES))
def test_default_piece_sets_tile_their_boxes(board: str) -> None:
    assert solve_one(board, DEFAULT_PIECES[board]) is not None


def test_a_build_notices_a_fall() -> None:
    # The bar on a post two cubes high, its centre of mass one edge beyond the post.
    post = (pp("V1", (0, 0, 0)), pp("V2", (0, 0, 1)), pp("A", *[(i, 0, 2) for i in range(4)]))
    report = build(post, window_s=2.0)
    assert not report.stood
    assert report.steps[1]["fell"] == [] and "A" in report.steps[2]["fell"]
    assert report.final is None


def test_an_assembled_3x3x4_box_stands() -> None:
    from tablesim.sim.assembly import assemble

    report = assemble("3x3x4", DEFAULT_PIECES["3x3x4"], seed=0)
    assert report.ok and report.plan is not None and report.plan.found
    verify(report.plan, Target.box(3, 3, 4))
    assert len(report.build.steps) == 9 and all(s["fell"] == [] for s in report.build.steps)
    assert report.build.final is not None and report.build.final.verdict == "stands"
    assert report.judge_calls >= 9


def test_cli_assemble_and_stand(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    out = tmp_path / "box.toml"
    assert (
        main(
            [
                "katamino",
                "assemble",
                "--board",
                "1x2x2",
                "--pieces",
                "katamino-duo:W,W",
                "--json",
                "--scene-out",
                str(out),
            ]
        )
        == 0
    )
    obj = json.loads(capsys.readouterr().out)
    assert obj["ok"] and obj["plan"]["found"] and len(obj["plan"]["order"]) == 2
    assert obj["build"]["final"]["verdict"] == "stands"
    # The scene file holds the box: 4 cubes of 19 mm filling x 0..2, y 0..1, z 0..2 edges.
    scene = load_scene(out)
    centres = sorted(
        tuple(
            round(float(v) / 0.019 - 0.5, 6)
            for v in np.asarray(p.position) + 0.019 * (np.asarray(c) + 0.5)
        )
        for p in scene.pieces
        for c in p.cells
    )
    assert centres == sorted((x, 0.0, z) for x in (0.0, 1.0) for z in (0.0, 1.0))
    assert main(["katamino", "stand", "--board", "2x2x7", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["verdict"]["verdict"] == "stands"
    for bad, msg in (
        (["--board", "3x3"], "3D box"),
        (["--board", "3x3x5"], "--pieces is required"),
        (["--board", "3x3x4", "--pieces", "katamino-duo:2,3"], "has 10 cubes"),
        (["--board", "3x3x4", "--pieces", "nope:1"], "nope"),
        (["--board", "1x2x2", "--pieces", "katamino-duo:W,W", "--limit", "0"], "--limit"),
    ):
        assert main(["katamino", "assemble", *bad]) == 2
        assert msg in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("board", TALL)
def test_tall_constructions_get_a_free_standing_verdict(board: str) -> None:
    v = free_standing(board, DEFAULT_PIECES[board], replicas=6, seconds=5.0)
    assert v is not None and v.verdict == "stands", v.explanation


def test_assemble_json_is_the_same_bytes_in_another_process(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import subprocess
    import sys

    args = ["katamino", "assemble", "--board", "1x2x2", "--pieces", "katamino-duo:W,W", "--json"]
    assert main(args) == 0
    here = capsys.readouterr().out
    there = subprocess.run(
        [sys.executable, "-m", "tablesim.sim.cli", *args],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert here == there and json.loads(here)["ok"]
