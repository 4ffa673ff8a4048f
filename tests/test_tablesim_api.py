"""The ``tablesim`` package: the public names, shipped data found from any folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

import tablesim
from tablesim import data


def test_public_names_resolve() -> None:
    for name in tablesim.__all__:
        assert getattr(tablesim, name) is not None, name
    from tablesim.games.registry import get_game
    from tablesim.sim.view.table_view import TableView

    assert tablesim.get_game is get_game and tablesim.TableView is TableView


def test_import_is_light() -> None:
    code = "import sys, tablesim; print(sorted(m for m in ('pybullet', 'panda3d', 'trimesh', 'pettingzoo') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "[]", out.stderr


def test_shipped_data_are_the_repository_folders() -> None:
    scenes = sorted(p.stem for p in (ROOT / "scenes").glob("*.toml"))
    specs = sorted(p.stem for p in (ROOT / "experiments").glob("*.toml"))
    assert data.scene_names() == scenes and data.spec_names() == specs
    assert data.schema_file().read_text().startswith("{")
    with pytest.raises(ValueError, match="shipped: cantilever-cube-size"):
        data.spec_file("nope")


def test_a_foreign_scenes_folder_does_not_hide_the_shipped_scenes(tmp_path: Path) -> None:
    (tmp_path / "scenes").mkdir()
    (tmp_path / "scenes" / "__init__.py").write_text("")
    (tmp_path / "scenes" / "mine.toml").write_text("")
    code = (
        "import tablesim; from tablesim.sim.scene import shipped_scene_names; "
        "print(shipped_scene_names()); print(len(tablesim.load_scene('kozo-tower').pieces))"
    )
    p = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    assert p.returncode == 0, p.stderr
    names, pieces = p.stdout.splitlines()
    assert "mine" not in names and "kozo-tower" in names
    assert int(pieces) == 25  # 12 polycubes + 12 balance cubes + the board (scenes/kozo-tower.toml)


def test_load_scene_reads_a_file_first(tmp_path: Path) -> None:
    own = tmp_path / "kozo-tower.toml"
    own.write_text((ROOT / "scenes" / "cantilever-safe.toml").read_text())
    assert len(tablesim.load_scene(own).pieces) == 2  # pedestal and bar, not the tower
    with pytest.raises(FileNotFoundError, match="shipped: cantilever-safe"):
        tablesim.load_scene(tmp_path / "missing.toml")
    with pytest.raises(FileNotFoundError):
        tablesim.load_scene("no-such-scene")


def test_simulate_takes_a_shipped_name() -> None:
    v = tablesim.simulate("cantilever-tips", replicas=1, seconds=0.5, seed=0)
    # the bar's centre of mass is 2 mm outside the pedestal edge (scenes/cantilever-tips.toml)
    assert v.verdict == "topples"


def test_solve_lists_solutions() -> None:
    # five straight pentominoes fill 5 x 5 all lying along the rows or all along the columns
    # (a mix leaves a gap): 2 solutions, one up to the square's symmetries
    sols = tablesim.solve("5x5", "pentominoes:IIIII", limit=None)
    assert len(sols) == 2
    assert {p.label for p in sols[0].pieces} == {"I"}
    assert len(tablesim.solve("5x5", "pentominoes:IIIII", distinct=True, limit=None)) == 1
    assert tablesim.solve("5x5", "pentominoes:IIIIL") == []
