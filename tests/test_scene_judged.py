"""The scene file's top-level ``judged`` (issue #31): the pieces the topple rule judges.

Before it was read from files, ``Scene.judged`` was in memory only and a file naming it failed
with "unknown key 'judged'".
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tablesim.sim.experiments.corpus import landed_scene
from tablesim.sim.model import Scene
from tablesim.sim.scene import InvalidSceneError, load_scene, parse_scene

ROOT = Path(__file__).resolve().parent.parent

TWO_CUBES = """name = "cube dropped beside a cube"
unit = "mm"
{judged}
[[piece]]
id = "c0"
cells = [[0, 0, 0]]
cube = "kozo"
at = [0, 0, 0]

[[piece]]
id = "dropped"
cells = [[0, 0, 0]]
cube = "kozo"
at = [40, 0, 20]

[[piece]]
id = "ped"
box = [10, 10, 10]
static = true
at = [100, 0, 0]
"""


def _file_text(scene: Scene) -> str:
    """``scene`` written as a scene file in millimetres (cells, cube, ``at`` and quaternion per
    piece, ``repr`` floats), with its ``judged``."""
    out = [f"name = {scene.name!r}".replace("'", '"'), 'unit = "mm"']
    if scene.judged is not None:
        out.append("judged = [" + ", ".join(f'"{pid}"' for pid in scene.judged) + "]")
    for p in scene.pieces:
        assert not p.static and p.box is None
        cells = ", ".join("[" + ", ".join(str(v) for v in c) + "]" for c in p.cells)
        at = ", ".join(repr(v * 1e3) for v in p.position)
        quat = ", ".join(repr(float(v)) for v in p.orientation)
        out += [
            "",
            "[[piece]]",
            f'id = "{p.id}"',
            f"cells = [{cells}]",
            f'cube = "{p.cube}"',
            f"at = [{at}]",
            f"quaternion = [{quat}]",
        ]
    return "\n".join(out) + "\n"


def test_judged_round_trips_through_a_scene_file(tmp_path: Path) -> None:
    """A corpus drop (only the stack judged) written to a file and loaded back: the same
    judged ids, in order, and the same pieces (positions within 1e-15 m: mm and back)."""
    scene = landed_scene(5, 0.05, "domino", 12.0)
    path = tmp_path / "drop.toml"
    path.write_text(_file_text(scene))
    back = load_scene(path)
    assert back.judged == scene.judged == ("c0", "c1", "c2", "c3", "c4")
    assert [p.id for p in back.pieces] == [p.id for p in scene.pieces]
    for a, b in zip(back.pieces, scene.pieces, strict=True):
        assert a.cells == b.cells and a.cube == b.cube
        assert np.allclose(a.position, b.position, rtol=0, atol=1e-15)
    assert load_scene(tmp_path / "drop.toml").judged == back.judged
    no_key = tmp_path / "all.toml"
    no_key.write_text(_file_text(Scene(scene.name, scene.pieces, scene.physics)))
    assert load_scene(no_key).judged is None


def test_a_judged_file_leaves_the_unjudged_piece_s_fall_out() -> None:
    """A cube let go 20 mm above the table beside a resting cube: judged as a whole the scene
    topples (the loose cube drops 20 mm, more than half its 17.8 mm edge); with
    ``judged = ["c0"]`` it stands, and statics does not decide it (the loose cube hangs in
    the air as written)."""
    from tablesim.sim.verdict import simulate

    every = parse_scene(TWO_CUBES.format(judged=""))
    only = parse_scene(TWO_CUBES.format(judged='judged = ["c0"]'))
    assert only.judged == ("c0",)
    assert (
        simulate(every, method="simulate", replicas=1, seconds=0.3, workers=1).verdict == "topples"
    )
    v = simulate(only, method="auto", replicas=1, seconds=0.3, workers=1)
    assert (v.verdict, v.decided_by) == ("stands", "simulation")


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ('"c0"', "judged: expected an array of piece ids, got the string 'c0'"),
        ("[]", "judged: must name one or more pieces"),
        ('["dropd"]', "judged[0]: no dynamic piece 'dropd' (did you mean 'dropped'?"),
        ('["ped"]', "judged[0]: 'ped' is static: only a dynamic piece can fall"),
        ('["c0", "c0"]', "judged[1]: 'c0' is named twice"),
        ('["c0", 3]', "judged[1]: expected a string, got the integer 3"),
    ],
)
def test_a_bad_judged_names_the_file_line_and_key(value: str, problem: str) -> None:
    with pytest.raises(InvalidSceneError) as err:
        parse_scene(TWO_CUBES.format(judged=f"judged = {value}"), "drop.toml")
    assert f"drop.toml:3: {problem}" in str(err.value)


def test_the_command_line_refuses_a_bad_judged_with_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(TWO_CUBES.format(judged='judged = ["nope"]'))
    run = subprocess.run(
        [sys.executable, "-m", "tablesim.sim.cli", "simulate", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert run.returncode == 2, run.stderr
    assert "bad.toml:3: judged[0]: no dynamic piece 'nope'" in run.stderr
