"""Meshes of polycube pieces and their export (GLB, OBJ, STL, URDF), and ``tablesim meshes``.

Expected values come from theory, not from the code under test: volume n a^3, face counts
from exposed unit squares (6 n minus 2 per face-adjacent pair), Euler characteristic 2,
mass properties from the independent analytic sum over cubes
(``tablesim.games.polycubes.mass_properties``), and PyBullet's own reading of the URDF files.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
import trimesh

from tablesim.games.polycubes import (
    CATALOGUES,
    Catalogue,
    Piece,
    PieceError,
    as_cells,
    catalogue_names,
    mass_properties,
)
from tablesim.meshes import FORMATS
from tablesim.meshes import export as export_mod
from tablesim.meshes.export import ExportError, export_catalogue
from tablesim.meshes.polycube import piece_mesh, polycube_mesh
from tablesim.sim.cli import main
from tablesim.sim.config import PhysicsConfig

CONFIG = PhysicsConfig()
ALL_PIECES = [(c, p) for c in CATALOGUES.values() for p in c.pieces]
PIECE_IDS = [f"{c.name}:{p.name}" for c, p in ALL_PIECES]
REPO = Path(__file__).resolve().parents[1]


def _edge(cat: Catalogue) -> float:
    return CONFIG.cube_edge(cat.cube)


def _adjacent_pairs(cells) -> int:
    """Face-adjacent cell pairs, counted directly (each pair once, along +x, +y, +z)."""
    cs = set(cells)
    return sum(
        (x + dx, y + dy, z + dz) in cs for x, y, z in cs for dx, dy, dz in np.eye(3, dtype=int)
    )


def _rgba(hex_colour: str) -> list[int]:
    h = hex_colour.lstrip("#")
    return [int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16), 255]


def _rel(actual: np.ndarray, expected: np.ndarray) -> float:
    return float(np.abs(np.asarray(actual) - expected).max() / np.abs(expected).max())


# ---------------------------------------------------------------------------------------
# polycube_mesh / piece_mesh
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("cat", "piece"), ALL_PIECES, ids=PIECE_IDS)
def test_every_piece_is_an_exact_closed_volume(cat: Catalogue, piece: Piece) -> None:
    a = _edge(cat)
    n = piece.size
    mesh = piece_mesh(piece)
    assert mesh.is_watertight
    assert mesh.is_winding_consistent
    assert mesh.is_volume
    assert mesh.euler_number == 2  # genus 0: no shipped piece has a hole
    assert mesh.volume == pytest.approx(n * a**3, rel=1e-12)
    assert mesh.mass == pytest.approx(CONFIG.density * n * a**3, rel=1e-12)
    # 6 squares per cube, minus the two hidden ones of each face-adjacent pair; 2 triangles each
    assert len(mesh.faces) == 2 * (6 * n - 2 * _adjacent_pairs(piece.cells))

    ref = mass_properties(piece.cells, a, CONFIG.density)
    assert np.abs(mesh.center_mass - ref.com).max() <= 1e-12 * a
    assert _rel(mesh.moment_inertia, ref.inertia) <= 1e-12
    assert _rel(np.sort(mesh.principal_inertia_components), ref.principal_moments) <= 1e-12

    # piece frame: cell (i, j, k) spans [i, i+1] x [j, j+1] x [k, k+1] times the edge
    cells = np.array(piece.cells)
    np.testing.assert_allclose(
        mesh.bounds, [cells.min(axis=0) * a, (cells.max(axis=0) + 1) * a], rtol=0, atol=1e-15
    )
    assert mesh.visual.vertex_colors.tolist() == [_rgba(piece.color)] * len(mesh.vertices)


@pytest.mark.parametrize(("cat", "piece"), ALL_PIECES, ids=PIECE_IDS)
def test_every_triangle_faces_out_of_its_cube(cat: Catalogue, piece: Piece) -> None:
    # Unit edge: a point just outside each triangle's centroid along its normal lies in an
    # empty cell, a point just inside lies in a cell of the piece.
    mesh = polycube_mesh(piece.cells, 1.0)
    cells = set(piece.cells)
    centroids = mesh.triangles_center
    normals = mesh.face_normals
    np.testing.assert_allclose(np.abs(normals).max(axis=1), 1.0)  # axis-aligned unit normals
    for c, nrm in zip(centroids, normals, strict=True):
        outside = tuple(int(v) for v in np.floor(c + 0.25 * nrm))
        inside = tuple(int(v) for v in np.floor(c - 0.25 * nrm))
        assert outside not in cells and inside in cells


@pytest.mark.parametrize(
    ("cells", "triangles", "vertices"),
    [
        # one cube: 6 squares, 8 corners
        ([(0, 0, 0)], 12, 8),
        # 1x1x2 bar: 12 - 2 squares; three 4-corner rings at x = 0, 1, 2: 12 corners
        ([(0, 0, 0), (1, 0, 0)], 20, 12),
        # X pentomino: 30 - 2*4 = 22 squares; top: 4 centre corners + 2 per arm = 12, same below
        ([(1, 0), (0, 1), (1, 1), (2, 1), (1, 2)], 44, 24),
        # O tetromino (2x2x1): 24 - 2*4 = 16 squares; a 3x3 grid of corners top and bottom
        ([(0, 0), (1, 0), (0, 1), (1, 1)], 32, 18),
        # Soma tripod: 24 - 2*3 = 18 squares
        ([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)], 36, None),
    ],
    ids=["cube", "bar", "X", "O", "tripod"],
)
def test_face_and_vertex_counts_by_hand(cells, triangles: int, vertices: int | None) -> None:
    mesh = polycube_mesh(cells, 0.02)
    assert len(mesh.faces) == triangles
    if vertices is not None:
        assert len(mesh.vertices) == vertices
    assert mesh.is_volume
    assert mesh.euler_number == 2


def test_cells_keep_their_position_and_edge_scales() -> None:
    mesh = polycube_mesh([(2, -1, 3)], 0.5)
    np.testing.assert_array_equal(mesh.bounds, [[1.0, -0.5, 1.5], [1.5, 0.0, 2.0]])
    assert mesh.volume == pytest.approx(0.125, rel=1e-15)


def test_edge_only_contact_is_closed_and_exact_though_not_manifold() -> None:
    # (0,0,0) and (1,1,0) meet along the edge x = y = 1 with both other quadrants empty:
    # four triangles share that edge. Volume and inertia stay exact (see the docstring).
    cells = [(0, 0, 0), (0, 0, 1), (1, 0, 1), (1, 1, 1), (1, 1, 0)]
    mesh = polycube_mesh(cells, 1.0)
    mesh.density = 1.0
    ref = mass_properties(cells, 1.0, 1.0)
    assert mesh.volume == pytest.approx(5.0, rel=1e-12)
    assert _rel(mesh.moment_inertia, ref.inertia) <= 1e-12
    assert not mesh.is_watertight


@pytest.mark.parametrize("edge", [0, -0.01, float("nan"), float("inf"), "x", None])
def test_bad_edge_is_rejected(edge) -> None:
    with pytest.raises(ValueError, match="edge"):
        polycube_mesh([(0, 0, 0)], edge)


@pytest.mark.parametrize("cells", [[], [(0, 0, 0), (2, 0, 0)], [(0, 0, 0), (0, 0, 0)]])
def test_bad_cells_are_rejected(cells) -> None:
    with pytest.raises(PieceError):
        polycube_mesh(cells, 0.02)


def test_piece_mesh_cube_kind_density_and_references() -> None:
    cat = CATALOGUES["kozo-standard"]
    four_l = cat.piece("4L")
    by_ref = piece_mesh("kozo-standard:4L")
    assert by_ref.metadata["edge"] == pytest.approx(0.0178)
    assert by_ref.volume == pytest.approx(4 * 0.0178**3, rel=1e-12)
    assert piece_mesh(four_l).volume == pytest.approx(by_ref.volume, rel=1e-15)
    heavy = piece_mesh(four_l, CONFIG.with_overrides(density=900.0))
    assert heavy.mass == pytest.approx(900.0 * 4 * 0.0178**3, rel=1e-12)
    balance = piece_mesh(CATALOGUES["kozo-balance"].pieces[0])
    assert balance.volume == pytest.approx(0.0102**3, rel=1e-12)

    loose = Piece("odd", "o", as_cells([(0, 0, 0)]), 0, "#102030")
    with pytest.raises(ValueError, match="cube="):
        piece_mesh(loose)
    assert piece_mesh(loose, cube="unit").volume == pytest.approx(0.02**3, rel=1e-12)
    with pytest.raises(ValueError, match="cube kind"):
        piece_mesh(loose, cube="giant")


def test_importing_meshes_and_the_cli_stays_light() -> None:
    code = (
        "import sys, meshes, games, tablesim.sim.cli\n"
        "tablesim.sim.cli.build_parser()\n"
        "heavy = sorted(m for m in ('trimesh', 'pybullet', 'panda3d') if m in sys.modules)\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""


# ---------------------------------------------------------------------------------------
# export_catalogue
# ---------------------------------------------------------------------------------------
def _files(directory: Path) -> set[str]:
    return {p.name for p in directory.iterdir()}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", catalogue_names())
def test_export_writes_one_file_per_piece_and_nothing_else(
    tmp_path: Path, name: str, fmt: str
) -> None:
    out = tmp_path / "out"
    paths = export_catalogue(name, fmt, out)
    expected = {f"{p.name}.{fmt}" for p in CATALOGUES[name].pieces}  # shipped names are safe
    assert [p.name for p in paths] == [f"{p.name}.{fmt}" for p in CATALOGUES[name].pieces]
    assert _files(out) == expected  # no .mtl, no leftover temp dir
    assert _files(tmp_path) == {"out"}
    assert all(p.stat().st_size > 0 for p in paths)


@pytest.mark.parametrize(("fmt", "rel"), [("glb", 1e-6), ("obj", 1e-6), ("stl", 1e-6)])
def test_mesh_files_reload_watertight_with_the_right_volume(
    tmp_path: Path, fmt: str, rel: float
) -> None:
    # GLB and STL store float32, OBJ 8 decimals: about 1e-7 relative.
    for name in ("kozo-standard", "soma", "pentominoes"):
        cat = CATALOGUES[name]
        for piece, path in zip(
            cat.pieces, export_catalogue(name, fmt, tmp_path / name), strict=True
        ):
            mesh = trimesh.load(path, force="mesh")
            assert mesh.is_watertight and mesh.is_volume, path
            assert mesh.volume == pytest.approx(piece.size * _edge(cat) ** 3, rel=rel), path


def test_obj_has_colours_and_no_material(tmp_path: Path) -> None:
    (path,) = [p for p in export_catalogue("soma", "obj", tmp_path) if p.stem == "A"]
    text = path.read_text()
    assert "mtllib" not in text and "usemtl" not in text
    vertex_lines = [line.split() for line in text.splitlines() if line.startswith("v ")]
    rgb = [round(float(v) * 255) for v in vertex_lines[0][4:7]]
    assert rgb == _rgba(CATALOGUES["soma"].piece("A").color)[:3]


def test_export_replaces_same_names_and_leaves_other_files(tmp_path: Path) -> None:
    (tmp_path / "F.stl").write_bytes(b"old")
    (tmp_path / "notes.txt").write_text("keep me")
    export_catalogue("pentominoes", "stl", tmp_path)
    assert (tmp_path / "F.stl").read_bytes() != b"old"
    assert (tmp_path / "notes.txt").read_text() == "keep me"


def test_export_is_all_or_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []

    def failing(piece, cube, config):
        calls.append(piece.name)
        if len(calls) == 3:
            raise OSError("disk full (simulated)")
        return b"data"

    monkeypatch.setitem(export_mod._WRITERS, "stl", failing)
    fresh = tmp_path / "fresh"
    with pytest.raises(OSError, match="simulated"):
        export_catalogue("pentominoes", "stl", fresh)
    assert not fresh.exists()  # created for the export, removed again

    existing = tmp_path / "existing"
    existing.mkdir()
    (existing / "F.stl").write_bytes(b"old")
    calls.clear()
    with pytest.raises(OSError, match="simulated"):
        export_catalogue("pentominoes", "stl", existing)
    assert _files(existing) == {"F.stl"}
    assert (existing / "F.stl").read_bytes() == b"old"


def test_export_bad_input(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match=r"unknown piece set 'nope'.*kozo-standard.*soma"):
        export_catalogue("nope", "glb", tmp_path)
    with pytest.raises(ExportError, match=r"unknown format 'ply'.*glb, obj, stl, urdf"):
        export_catalogue("soma", "ply", tmp_path)
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    with pytest.raises(ExportError, match="not a directory"):
        export_catalogue("soma", "glb", a_file)
    with pytest.raises(ExportError, match="parent is a file"):
        export_catalogue("soma", "glb", a_file / "sub")
    (tmp_path / "d" / "X.glb").mkdir(parents=True)
    with pytest.raises(ExportError, match="cannot replace directories"):
        export_catalogue("pentominoes", "glb", tmp_path / "d")
    assert _files(tmp_path / "d") == {"X.glb"}
    assert _files(tmp_path) == {"file.txt", "d"}


def test_unsafe_piece_names_give_unique_safe_files(tmp_path: Path) -> None:
    names = ["a/b", "A/B", "..", "CON", "x y", 'q<"&>']
    cube = as_cells([(0, 0, 0)])
    cat = Catalogue("odd", "unit", "test", tuple(Piece(n, n, cube, 1, "#808080") for n in names))
    paths = export_catalogue(cat, "urdf", tmp_path)
    stems = [p.stem for p in paths]
    assert len({s.casefold() for s in stems}) == len(names)
    assert all(re.fullmatch(r"[A-Za-z0-9_-][A-Za-z0-9._-]*", s) for s in stems), stems
    assert _files(tmp_path) == {p.name for p in paths}
    assert [ET.parse(p).getroot().get("name") for p in paths] == names


# ---------------------------------------------------------------------------------------
# URDF read by PyBullet
# ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def bullet():
    import pybullet as p

    cid = p.connect(p.DIRECT)
    try:
        yield p, cid
    finally:
        p.disconnect(physicsClientId=cid)


@pytest.mark.parametrize("name", catalogue_names())
def test_urdf_mass_inertia_and_boxes_in_pybullet(bullet, tmp_path: Path, name: str) -> None:
    p, cid = bullet
    cat = CATALOGUES[name]
    for piece, path in zip(cat.pieces, export_catalogue(name, "urdf", tmp_path), strict=True):
        mesh = piece_mesh(piece)
        body = p.loadURDF(
            str(path), flags=p.URDF_USE_INERTIA_FROM_FILE, useFixedBase=False, physicsClientId=cid
        )
        assert p.getBodyInfo(body, physicsClientId=cid)[1].decode() == piece.name
        info = p.getDynamicsInfo(body, -1, physicsClientId=cid)
        mass, diagonal, inertial_pos, inertial_orn = info[0], info[2], info[3], info[4]
        assert mass == pytest.approx(mesh.mass, rel=1e-9)
        # PyBullet diagonalises the tensor: compare sorted principal moments ...
        np.testing.assert_allclose(
            np.sort(diagonal), np.sort(mesh.principal_inertia_components), rtol=1e-6
        )
        # ... and the full tensor rebuilt from its principal frame (catches sign conventions)
        rot = np.array(p.getMatrixFromQuaternion(inertial_orn, physicsClientId=cid)).reshape(3, 3)
        assert _rel(rot @ np.diag(diagonal) @ rot.T, mesh.moment_inertia) <= 1e-6
        np.testing.assert_allclose(inertial_pos, mesh.center_mass, rtol=0, atol=1e-12)

        # Collision: the union of the child boxes equals the piece's bounding box (to 10 nm:
        # PyBullet's principal-frame quaternion carries about 1e-8 relative error).
        base_pos, base_orn = p.getBasePositionAndOrientation(body, physicsClientId=cid)
        corners = []
        for child in p.getCollisionShapeData(body, -1, physicsClientId=cid):
            assert child[2] == p.GEOM_BOX
            half = np.array(child[3]) / 2
            pos, orn = p.multiplyTransforms(
                base_pos, base_orn, child[5], child[6], physicsClientId=cid
            )
            r = np.array(p.getMatrixFromQuaternion(orn, physicsClientId=cid)).reshape(3, 3)
            for signs in np.array(np.meshgrid([-1, 1], [-1, 1], [-1, 1])).T.reshape(-1, 3):
                corners.append(np.array(pos) + r @ (signs * half))
        corners = np.array(corners)
        np.testing.assert_allclose(
            [corners.min(axis=0), corners.max(axis=0)], mesh.bounds, rtol=0, atol=1e-8
        )
        # PyBullet's own AABB encloses the piece (it is loose when the principal frame is
        # rotated: the compound's local box is rotated into the world).
        lo, hi = np.array(p.getAABB(body, -1, physicsClientId=cid))
        assert (lo <= mesh.bounds[0] + 1e-8).all() and (hi >= mesh.bounds[1] - 1e-8).all()
        if np.allclose(inertial_orn, (0, 0, 0, 1), atol=1e-12) or len(piece.cells) == 1:
            np.testing.assert_allclose([lo, hi], mesh.bounds, rtol=0, atol=1e-3 + 1e-9)
        p.removeBody(body, physicsClientId=cid)


# ---------------------------------------------------------------------------------------
# tablesim meshes export
# ---------------------------------------------------------------------------------------
def _run(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse rejects bad choices itself
        return int(exc.code)


@pytest.mark.parametrize("fmt", FORMATS)
def test_cli_export(tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    out = tmp_path / "set"
    assert (
        _run(["meshes", "export", "--set", "tetrominoes", "--format", fmt, "--out", str(out)]) == 0
    )
    printed = capsys.readouterr().out.split()
    expected = {f"{n}.{fmt}" for n in "ILOST"}
    assert _files(out) == expected
    assert {os.path.basename(line) for line in printed} == expected


def test_cli_quiet_prints_a_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["meshes", "export", "--set", "soma", "--format", "stl", "--out", str(tmp_path), "-q"]
    assert _run(argv) == 0
    assert capsys.readouterr().out.startswith("7 STL files written")


def test_cli_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "o")
    assert _run(["meshes", "export", "--set", "nope", "--format", "glb", "--out", out]) == 2
    err = capsys.readouterr().err
    assert "'nope'" in err and "pentominoes" in err
    assert _run(["meshes", "export", "--set", "soma", "--format", "ply", "--out", out]) == 2
    assert "'ply'" in capsys.readouterr().err
    (tmp_path / "f").write_text("x")
    assert (
        _run(["meshes", "export", "--set", "soma", "--format", "glb", "--out", str(tmp_path / "f")])
        == 2
    )
    assert "not a directory" in capsys.readouterr().err
    assert _run(["meshes", "export", "--set", "soma", "--format", "glb"]) == 2  # --out missing
    assert _run(["meshes"]) == 2  # a group: needs a subcommand
    assert not (tmp_path / "o").exists()


def test_glb_is_y_up(tmp_path: Path) -> None:
    """glTF is y-up (glTF 2.0, 3.4): the flat 3L tricube (one cube tall along the table's z,
    two cubes along x and y) must come back one cube tall along y, its table-y depth along -z."""
    pygltflib = pytest.importorskip("pygltflib")
    cat = CATALOGUES["kozo-standard"]
    (path,) = [p for p in export_catalogue("kozo-standard", "glb", tmp_path) if p.stem == "3L"]
    gltf = pygltflib.GLTF2().load(str(path))
    (mesh,) = gltf.meshes
    acc = gltf.accessors[mesh.primitives[0].attributes.POSITION]
    lo, hi = np.array(acc.min), np.array(acc.max)
    e = _edge(cat)
    assert hi - lo == pytest.approx([2 * e, e, 2 * e], rel=1e-6)
    # the table's z (up) is glTF's y; the table's y (away from the viewer) is glTF's -z
    from tablesim.meshes.polycube import piece_mesh
    from tablesim.sim.config import PhysicsConfig

    v = piece_mesh(cat.piece("3L"), PhysicsConfig(), cube=cat.cube).vertices
    (x0, y0, z0), (x1, y1, z1) = v.min(axis=0), v.max(axis=0)
    assert lo == pytest.approx([x0, z0, -y1], abs=1e-7)
    assert hi == pytest.approx([x1, z1, -y0], abs=1e-7)
