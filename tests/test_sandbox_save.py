"""The sandbox's save (``s``) writes through the one output path (issue 37: outputs are
never a device, a FIFO or a folder; a file is written whole or not at all)."""

from __future__ import annotations

import os
import stat
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from tablesim.games.kozo.blocks import piece_orientations
from tablesim.games.polycubes import CATALOGUES
from tablesim.sim.model import Scene, ScenePiece
from tablesim.sim.scene import load_scene, parse_scene, resolve_scene, shipped_scene_path
from tablesim.sim.verdict import simulate
from tablesim.sim.view.sandbox import PALETTE_CATALOGUES, SandboxApp, scene_toml

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


# ---- round trip of generated sandbox contents (issue #31) ---------------------------------
#
# What a sandbox table can hold: the scene it was opened on (shipped scenes: the Kozo board as a
# static box, catalogue polycubes and balance cubes), palette pieces of its three catalogues
# (``source = "catalogue:name"``), and the Kozo table's own pieces (sim/slices/kozo/referee.py):
# balance cubes with the bare source ``kozo-balance`` and polycubes whose cells are already
# posed (a rotation of the catalogue cells, with the catalogue source or none). Every one must
# come back from the file as the same piece in the same place.

WRITTEN_MM = 1e-6  # the file writes millimetres to 6 decimals
POSITION_ATOL = WRITTEN_MM * 1e-3 / 2 + 1e-12  # half the last written digit (m), plus rounding
# a corner is the position plus the rotated cell offset (< 10 cm, exact rotation): within
# POSITION_ATOL of its original too; 1e-8 m leaves room for the loader's own arithmetic


def _random_quat(rng: np.random.Generator) -> tuple[float, float, float, float]:
    q = rng.normal(size=4)
    q /= np.linalg.norm(q)
    return (float(q[0]), float(q[1]), float(q[2]), float(q[3]))


def _generated_table(seed: int) -> tuple[Scene, dict[str, int]]:
    """A shipped scene plus 8-14 seeded pieces of every kind above, each on its own 8 cm
    square beside the scene (no two overlap), turned at random and lifted 1-5 mm clear of the
    table; and the count of pieces by kind, kept by hand as they are made."""
    rng = np.random.default_rng(seed)
    start = ("kozo-tower", "cantilever-safe", "kozo-marginal")[seed % 3]
    overrides = {"friction": 0.3, "density": 650.0} if seed % 2 else None
    scene = load_scene(shipped_scene_path(start), overrides=overrides)
    counts: dict[str, int] = {}
    for p in scene.pieces:
        kind = "static box" if p.box is not None else p.source.split(":")[0]
        counts[kind] = counts.get(kind, 0) + 1
    cfg = scene.physics
    extra = []
    for k in range(int(rng.integers(8, 15))):
        form = k % 4 if k < 4 else int(rng.integers(4))  # every form at least once
        if form == 0:  # a palette piece
            cat_name = PALETTE_CATALOGUES[int(rng.integers(len(PALETTE_CATALOGUES)))]
            cat = CATALOGUES[cat_name]
            pc = cat.pieces[int(rng.integers(len(cat.pieces)))]
            piece = ScenePiece(
                f"x{k}",
                pc.cells,
                cat.cube,
                (0.0, 0.0, 0.0),
                source=f"{cat_name}:{pc.name}",
                color=pc.color,
            )
            kind = cat_name
        elif form == 1:  # the Kozo table's balance cube
            piece = ScenePiece(
                f"x{k}",
                ((0, 0, 0),),
                "balance",
                (0.0, 0.0, 0.0),
                source="kozo-balance",
                color="#f5e6c8",
            )
            kind = "kozo-balance"
        else:  # the Kozo table's posed polycube: catalogue source (form 2) or none (form 3)
            pc = CATALOGUES["kozo-standard"].pieces[int(rng.integers(12))]
            rots = piece_orientations("kozo-standard", pc.name)
            cells = rots[int(rng.integers(len(rots)))]
            source = f"kozo-standard:{pc.name}" if form == 2 else "inline"
            piece = ScenePiece(f"x{k}", cells, "kozo", (0.0, 0.0, 0.0), source=source)
            kind = "kozo-standard" if form == 2 else "polycube"
        counts[kind] = counts.get(kind, 0) + 1
        piece = replace(piece, orientation=_random_quat(rng))
        lo = np.min([b.corners().min(axis=0) for b in piece.world_boxes(cfg)], axis=0)
        square = np.array([0.15 + 0.08 * (k % 4), -0.12 + 0.08 * (k // 4), 0.0])
        lift = float(rng.uniform(1e-3, 5e-3))
        pos = square - lo + np.array([0.0, 0.0, lift]) + rng.uniform(-1e-3, 1e-3, 3) * [1, 1, 0]
        extra.append(replace(piece, position=(float(pos[0]), float(pos[1]), float(pos[2]))))
    return replace(scene, pieces=(*scene.pieces, *extra)), counts


@pytest.mark.parametrize("seed", range(4))
def test_generated_sandbox_contents_round_trip_and_simulate(seed: int) -> None:
    table, counts = _generated_table(seed)
    loaded = parse_scene(scene_toml(table, name=f"built-{seed}"), source=f"seed {seed}")
    assert loaded.name == f"built-{seed}"
    n = len(table.pieces)
    assert f"from scene '{table.name}': {n} pieces (" in loaded.description
    for kind, k in counts.items():
        assert f"{k} {kind}" in loaded.description, (kind, k, loaded.description)
    for field in ("friction", "density", "gravity", "kozo_cube", "balance_cube", "clearance"):
        assert getattr(loaded.physics, field) == pytest.approx(
            getattr(table.physics, field), rel=1e-12
        )
    assert [p.id for p in loaded.pieces] == [p.id for p in table.pieces]
    cfg = table.physics
    for a, b in zip(loaded.pieces, table.pieces, strict=True):
        assert (a.static, a.cube if a.box is None else None, a.color.lower()) == (
            b.static,
            b.cube if b.box is None else None,
            b.color.lower(),
        )
        assert np.allclose(a.position, b.position, rtol=0, atol=POSITION_ATOL), a.id
        assert np.allclose(a.orientation, b.orientation, rtol=0, atol=1e-15), a.id
        # the same solid in the same place: every box of the piece, corner for corner
        ca = np.concatenate([box.corners() for box in a.world_boxes(cfg)])
        cb = np.concatenate([box.corners() for box in b.world_boxes(cfg)])
        gap = np.linalg.norm(ca[:, None, :] - cb[None, :, :], axis=2)
        assert len(ca) == len(cb) and max(gap.min(axis=0).max(), gap.min(axis=1).max()) < 1e-8
    v = simulate(loaded, replicas=1, seconds=0.2, workers=1, method="simulate")
    assert v.verdict in ("stands", "topples") and len(v.pieces) == len(loaded.dynamic)


def test_sandbox_save_of_table_balance_cubes_loads_and_names_what_it_holds(
    tmp_path: Path,
) -> None:
    """The old bug: a balance cube of the Kozo table (``source = "kozo-balance"``) was written
    as ``piece = "kozo-balance"``, which the loader refuses; and the save kept the shipped
    tower's name and its "12 polycubes and 12 balance cubes" description. kozo-tower holds the
    board, 12 polycubes and 12 balance cubes; with 3 more cubes the file holds 28 pieces."""
    start = resolve_scene("kozo-tower")
    e = start.physics.balance_cube
    cubes = [
        ScenePiece(
            f"b{20 + k}",
            ((0, 0, 0),),
            "balance",
            (0.1 + 2 * e * k, 0.1, 0.0),
            source="kozo-balance",
            color="#f5e6c8",
        )
        for k in range(3)
    ]
    with SandboxApp(start, size=SIZE, replicas=1) as app:
        app.table = replace(app.table, pieces=(*app.table.pieces, *cubes))
        app._restart()
        path = app.save(tmp_path / "my-build.toml")
        assert app.verdict.startswith("saved 28 pieces"), app.verdict
    scene = load_scene(path)
    assert scene.name == "my-build"
    assert scene.description == (
        "Built in the sandbox from scene 'kozo-tower': 28 pieces"
        " (1 static box, 12 kozo-standard, 15 kozo-balance)."
    )
    got = {p.id: p for p in scene.pieces}
    for c in cubes:
        assert got[c.id].cube == "balance" and got[c.id].cells == ((0, 0, 0),)
        assert np.allclose(got[c.id].position, c.position, atol=5e-5)  # separate(): <= 0.05 mm
    v = simulate(scene, replicas=1, seconds=0.2, workers=1, method="simulate")
    assert v.verdict in ("stands", "topples")


def test_a_judged_piece_taken_off_the_table_leaves_judged_and_comes_back(tmp_path: Path) -> None:
    # The scene format refuses a ``judged`` id that names no piece, so taking a judged piece
    # into the hand must take it out of ``judged`` (a save then loads), and putting it back
    # (or undoing the take) must judge it again.
    tower = resolve_scene("kozo-tower")
    loose = [p.id for p in tower.pieces if not p.static]
    scene = replace(tower, judged=(loose[-1], loose[0]))
    with SandboxApp(scene, size=SIZE, replicas=1) as app:
        assert app.take_from_table(loose[-1])
        assert app.table.judged == (loose[0],)
        app.save(tmp_path / "held.toml")
        assert load_scene(tmp_path / "held.toml").judged == (loose[0],)
        app.put_back()
        assert app.table.judged == (loose[-1], loose[0])
        assert app.take_from_table(loose[0]) and app.undo()
        assert app.table.judged == (loose[-1], loose[0])
    only = replace(tower, judged=(loose[0],))
    with SandboxApp(only, size=SIZE, replicas=1) as app:
        assert app.take_from_table(loose[0])
        assert app.table.judged is None  # no piece left to name: the key is left out
