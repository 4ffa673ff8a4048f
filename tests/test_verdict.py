"""The verdict API and `tablesim simulate` contract (fast cases; physics agreement lives in
tests/test_verdict_physics.py)."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim.model import Scene, ScenePiece
from sim.scene import load_scene, shipped_scene_path
from sim.verdict import Perturbation, perturb_scene, simulate

JSON_KEYS = {
    "verdict",
    "topple_probability",
    "replicas",
    "seconds",
    "perturbation",
    "first_fall_s",
    "explanation",
    "pieces",
}
PIECE_KEYS = {"id", "displacement_mm", "tilt_deg", "fall_probability", "margin_mm"}


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sim.cli", *args], capture_output=True, text=True)


def test_replica_zero_is_the_scene_and_others_move_only_horizontally() -> None:
    scene = load_scene(shipped_scene_path("kozo-tower"))
    assert perturb_scene(scene, 5, 0, Perturbation()) == scene
    moved = perturb_scene(scene, 5, 1, Perturbation())
    dx = []
    for a, b in zip(scene.pieces, moved.pieces, strict=True):
        if a.static:
            assert a == b
            continue
        _, ca = a.mass_and_com(scene.physics)
        _, cb = b.mass_and_com(scene.physics)
        assert cb[2] == pytest.approx(ca[2], abs=1e-12)  # no vertical offset
        # The piece only turned about the world vertical (R' = Rz R), so the world z axis
        # expressed in the piece frame (the bottom row of R) is unchanged.
        assert np.allclose(a.rotation()[2, :], b.rotation()[2, :], atol=1e-12)
        dx.extend((cb - ca)[:2])
    # 24 pieces x 2 axes of N(0, 0.05 mm) noise (plus a tiny yaw about the COM: none, since we
    # rotate about the COM): the sample sd should be near 0.05 mm; allow 0.03..0.07.
    sd = float(np.std(dx)) * 1e3
    assert 0.03 < sd < 0.07
    assert perturb_scene(scene, 5, 1, Perturbation()) == moved  # seeded
    assert perturb_scene(scene, 6, 1, Perturbation()) != moved


def test_yaw_noise_has_the_requested_size() -> None:
    scene = load_scene(shipped_scene_path("kozo-tower"))
    angles = []
    for k in range(1, 9):
        moved = perturb_scene(scene, 0, k, Perturbation(sigma_mm=0.0, sigma_deg=0.1))
        for a, b in zip(scene.dynamic, moved.dynamic, strict=True):
            rel = b.rotation() @ a.rotation().T
            angles.append(math.degrees(math.atan2(rel[1, 0], rel[0, 0])))
    # 192 draws of N(0, 0.1 deg): sample sd within 0.08..0.12.
    assert 0.08 < float(np.std(angles)) < 0.12


def test_statics_settles_the_safe_cantilever_without_simulating() -> None:
    v = simulate(load_scene(shipped_scene_path("cantilever-safe")))
    assert v.verdict == "stands" and v.method == "statics" and v.topple_probability == 0.0
    # The scene's bar has its centre of mass 2 mm inside the pedestal edge (by construction).
    assert v.pieces[0].margin_mm == pytest.approx(2.0, abs=0.01)
    assert "Decided by statics" in v.explanation
    obj = v.to_json()
    assert obj.keys() >= JSON_KEYS
    assert obj["pieces"][0].keys() >= PIECE_KEYS


def test_tipping_cantilever_simulated_topples_with_a_first_fall_time() -> None:
    v = simulate(
        load_scene(shipped_scene_path("cantilever-tips")),
        method="simulate",
        replicas=2,
        seconds=1.0,
        workers=1,
    )
    assert v.verdict == "topples" and v.method == "simulation"
    assert v.topple_probability == 1.0
    assert v.first_fall_s is not None and 0 < v.first_fall_s < 1.0
    assert v.pieces[0].fall_probability == 1.0
    assert v.pieces[0].margin_mm == pytest.approx(-2.0, abs=0.01)


def test_a_free_cube_on_the_table_stands() -> None:
    cube = ScenePiece("c", ((0, 0, 0),), "kozo", (0.0, 0.0, 0.0))
    v = simulate(Scene("one", (cube,)), method="simulate", replicas=1, seconds=0.5)
    assert v.verdict == "stands"
    assert v.pieces[0].displacement_mm is not None and v.pieces[0].displacement_mm < 0.05


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"replicas": 0}, "replicas"),
        ({"method": "guess"}, "method"),
        ({"seconds": -1.0}, "seconds"),
        ({"time_step": 0.5}, "time_step"),
        ({"profile": "fast"}, "profile"),
    ],
)
def test_bad_arguments_raise_value_errors(kwargs: dict, match: str) -> None:
    scene = load_scene(shipped_scene_path("cantilever-safe"))
    with pytest.raises(ValueError, match=match):
        simulate(scene, **kwargs)


def test_simulate_cli_json_and_table() -> None:
    p = run_cli("simulate", "cantilever-safe", "--json")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.strip().splitlines()
    assert len(lines) == 1
    obj = json.loads(lines[0])
    assert obj["verdict"] == "stands"
    t = run_cli(
        "simulate", "cantilever-tips", "--method", "simulate", "--replicas", "2", "--seconds", "1"
    )
    assert t.returncode == 0, t.stderr  # either verdict exits 0
    assert "verdict: TOPPLES" in t.stdout
    assert "bar" in t.stdout


def test_simulate_cli_bad_input_exits_2(tmp_path: Path) -> None:
    missing = run_cli("simulate", "no-such-scene")
    assert missing.returncode == 2 and "no shipped scene" in missing.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\n[[piece]]\npiece = "kozo-standard:9Z"\nat = [0, 0]\n')
    p = run_cli("simulate", str(bad))
    assert p.returncode == 2
    # Both problems are reported at once, with their key paths.
    assert "piece[0].piece" in p.stderr and "piece[0].at" in p.stderr
    r = run_cli("simulate", "cantilever-safe", "--replicas", "0")
    assert r.returncode == 2 and "--replicas" in r.stderr


def test_a_bar_resting_on_its_end_edge_has_fallen() -> None:
    """Issue #8: a bar that tipped off a cube and rests at 19.5 deg on the cube's edge and the
    table (as in tests/test_world.py: 5-cube bar, overhang 3a, sin theta = 1/3, tilt under 20 deg, centre of mass 0.195a
    lower, under half an edge) has fallen by the new table contact alone. The rule is checked
    only at 0.5 s and 1 s, when the bar lies still, so the impact (deeper penetration) cannot
    be what catches it."""
    from sim.config import PhysicsConfig, get_profile
    from sim.verdict import ToppleRule, run_once

    a = PhysicsConfig().kozo_cube
    cube = ScenePiece("cube", ((0, 0, 0),), "kozo", (0.0, 0.0, 0.0))  # x in [0, a]
    bar = ScenePiece("bar", tuple((i, 0, 0) for i in range(5)), "kozo", (-a, 0.0, a))  # [-a, 4a]
    scene = Scene("bar-off-a-cube", (cube, bar))
    out = run_once(scene, get_profile("verdict"), 1.0, ToppleRule(check_every=0.5))
    assert out.fell == [False, True]
    assert out.reasons[1] == "touched table"
    assert out.first_fall_s == pytest.approx(0.5)
    assert out.tilt_deg[1] < 20.0
