"""``tablesim record SCENE -o fall.glb``: an animated glTF whose keyframes are the World's poses."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli

pygltflib = pytest.importorskip("pygltflib")

FPS, SECONDS = 10.0, 0.5


def _accessor(gltf, blob: bytes, index: int) -> np.ndarray:
    acc = gltf.accessors[index]
    view = gltf.bufferViews[acc.bufferView]
    width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[acc.type]
    dtype = {5126: np.float32, 5125: np.uint32}[acc.componentType]
    start = view.byteOffset + (acc.byteOffset or 0)
    data = np.frombuffer(blob, dtype=dtype, count=acc.count * width, offset=start)
    return data.reshape(acc.count, width)


@pytest.fixture(scope="module")
def film(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    tmp = tmp_path_factory.mktemp("glb")
    p = run_cli(
        "record",
        "cantilever-tips",
        "-o",
        "tips.glb",
        "--seconds",
        str(SECONDS),
        "--fps",
        str(FPS),
        cwd=tmp,
    )
    assert p.returncode == 0, p.stderr
    return tmp / "tips.glb", p.stdout


def test_keyframes_are_the_worlds_poses(film: tuple[Path, str]) -> None:
    from tablesim.sim.scene import load_scene, shipped_scene_path
    from tablesim.sim.world import World

    path, out = film
    gltf = pygltflib.GLTF2().load(str(path))
    blob = gltf.binary_blob()
    scene = load_scene(shipped_scene_path("cantilever-tips"))
    n = int(round(SECONDS * FPS)) + 1  # one frame at t = 0 and one per 1/fps after it
    assert f"{n} keyframes" in out
    # the same run, stepped here: frame k shows the World at k / fps (speed 1)
    expected: dict[str, list[np.ndarray]] = {}
    with World(scene, "verdict") as world:
        for k in range(n):
            target = int(round(k / FPS / world.time_step))
            world.step(target - world.steps)
            for pid, (pos, q) in world.poses().items():
                expected.setdefault(pid, []).append(np.concatenate([pos, q]))
    names = {i: node.name for i, node in enumerate(gltf.nodes)}
    assert sorted(n for n in names.values() if n != "table") == sorted(p.id for p in scene.pieces)
    (anim,) = gltf.animations
    seen = set()
    for ch in anim.channels:
        sampler = anim.samplers[ch.sampler]
        times = _accessor(gltf, blob, sampler.input)[:, 0]
        assert times == pytest.approx(np.arange(n) / FPS, abs=1e-6)
        values = _accessor(gltf, blob, sampler.output)
        want = np.array(expected[names[ch.target.node]])
        cols = slice(0, 3) if ch.target.path == "translation" else slice(3, 7)
        want = want[:, cols]
        if ch.target.path == "rotation":  # q and -q are one rotation; keys keep one hemisphere
            want = want * np.where(np.sum(want * values, axis=1) < 0, -1.0, 1.0)[:, None]
            assert (np.sum(values[1:] * values[:-1], axis=1) >= 0).all()
        assert values == pytest.approx(want, abs=2e-7)  # float32 of metres
        seen.add((names[ch.target.node], ch.target.path))
    assert seen == {(pid, p) for pid in expected for p in ("translation", "rotation")}
    # the bar tips: its last keyframe is not its first
    bar = np.array(expected["bar"])
    assert np.abs(bar[-1, :3] - bar[0, :3]).max() > 1e-3


def test_the_root_turns_z_up_into_y_up(film: tuple[Path, str]) -> None:
    gltf = pygltflib.GLTF2().load(str(film[0]))
    root = gltf.nodes[gltf.scenes[0].nodes[0]]
    x, y, z, w = root.rotation
    # rotate the table's up (0, 0, 1) by the root quaternion: it must be glTF's up (0, 1, 0)
    up = np.array([2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)])
    assert up == pytest.approx([0, 1, 0], abs=1e-12)


def test_trimesh_reads_it_upright(film: tuple[Path, str]) -> None:
    import trimesh

    scene = trimesh.load(film[0])
    lo, hi = scene.bounds
    assert lo[1] >= -1e-6 and hi[1] > 0.01  # everything above the table, along y


def test_glb_needs_physics(tmp_path: Path) -> None:
    p = run_cli("record", "example:kaito", "-o", "k.glb", cwd=tmp_path)
    assert p.returncode == 2 and "needs physics" in p.stderr
    assert not list(tmp_path.iterdir())


def test_rotation_keys_keep_one_hemisphere() -> None:
    """Generated tracks: slowly turning rotations whose keys come with random signs (as
    PyBullet returns either): after :func:`one_hemisphere` every consecutive dot product is
    >= 0 and every key is still the same rotation (+-q of the input)."""
    from tablesim.sim.view.gltf_anim import one_hemisphere

    rng = np.random.default_rng(7)
    for _ in range(50):
        axis = rng.normal(size=3)
        axis /= np.linalg.norm(axis)
        angles = np.cumsum(rng.uniform(0.0, 0.3, size=40))
        q = np.concatenate([np.sin(angles / 2)[:, None] * axis, np.cos(angles / 2)[:, None]], 1)
        signs = rng.choice([-1.0, 1.0], size=(40, 1))
        flipped = q * signs
        out = one_hemisphere(flipped)
        assert (np.sum(out[1:] * out[:-1], axis=1) >= 0).all()
        ratio = np.sum(out * flipped, axis=1)
        assert np.allclose(np.abs(ratio), 1.0)


def test_meshes_export_help_says_y_up_force_and_the_urdf_flag() -> None:
    p = run_cli("meshes", "export", "--help")
    text = " ".join(p.stdout.split())
    assert p.returncode == 0
    assert "GLB: the display mesh in metres, y up" in text
    assert "refused unless --force" in text
    assert "URDF_USE_INERTIA_FROM_FILE" in text


def test_stl_units_mm_scale_the_mesh_by_1000_and_only_stl_takes_them(tmp_path: Path) -> None:
    """The same piece in metres and in millimetres: every vertex 1000 times as far from the
    origin (read back by trimesh); ``--units mm`` with GLB is a usage error (exit 2)."""
    trimesh = pytest.importorskip("trimesh")
    for units in ("m", "mm"):
        p = run_cli(
            "meshes",
            "export",
            "--set",
            "soma",
            "--format",
            "stl",
            "--units",
            units,
            "-o",
            str(tmp_path / units),
            "-q",
        )
        assert p.returncode == 0, p.stderr
    names = sorted(x.name for x in (tmp_path / "m").glob("*.stl"))
    assert names and names == sorted(x.name for x in (tmp_path / "mm").glob("*.stl"))
    for name in names:
        m = trimesh.load(tmp_path / "m" / name)
        mm = trimesh.load(tmp_path / "mm" / name)
        assert np.allclose(mm.vertices, m.vertices * 1000.0, rtol=1e-6, atol=1e-9)
    bad = run_cli(
        "meshes",
        "export",
        "--set",
        "soma",
        "--format",
        "glb",
        "--units",
        "mm",
        "-o",
        str(tmp_path / "g"),
    )
    assert bad.returncode == 2 and "STL only" in bad.stderr
