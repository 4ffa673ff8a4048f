"""The sandbox's save (``s``) writes through the one output path (issue 37: outputs are
never a device, a FIFO or a folder; a file is written whole or not at all)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tablesim.sim.scene import load_scene, resolve_scene
from tablesim.sim.view.sandbox import SandboxApp

SIZE = (320, 180)


def test_save_writes_a_scene_that_loads_and_replaces_an_earlier_save(tmp_path: Path) -> None:
    target = tmp_path / "mine.toml"
    target.write_text("an earlier save\n")
    with SandboxApp(resolve_scene("kozo-tower"), size=SIZE, replicas=1) as app:
        app.save(target)
        assert app.verdict.startswith("saved ")
    scene = load_scene(target)  # a real scene: the shipped tower's 24 pieces
    assert len(scene.pieces) == len(resolve_scene("kozo-tower").pieces)
    assert [p.name for p in tmp_path.iterdir()] == ["mine.toml"]  # no temporary left


def test_save_never_replaces_a_fifo_or_a_folder(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    folder = tmp_path / "dir.toml"
    folder.mkdir()
    with SandboxApp(resolve_scene("kozo-tower"), size=SIZE, replicas=1) as app:
        for target in (fifo, folder):
            app.save(target)
            assert app.verdict.startswith("not saved: "), app.verdict
    assert stat.S_ISFIFO(fifo.stat().st_mode) and folder.is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir.toml", "pipe.toml"]
