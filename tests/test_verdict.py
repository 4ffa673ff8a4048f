"""The verdict API and `tablesim simulate` contract (fast cases; physics agreement lives in
tests/test_verdict_physics.py)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli

from tablesim.sim.model import Scene, ScenePiece
from tablesim.sim.scene import load_scene, shipped_scene_path
from tablesim.sim.statics import StaticReport
from tablesim.sim.verdict import Perturbation, perturb_scene, simulate

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
    # The method asked for and the way it was decided are kept apart; the report is typed.
    assert (v.requested_method, v.decided_by) == ("auto", "statics")
    assert isinstance(v.statics, StaticReport) and v.statics.decision == "stands"
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
    from tablesim.sim.config import PhysicsConfig, get_profile
    from tablesim.sim.verdict import ToppleRule, run_once

    a = PhysicsConfig().kozo_cube
    cube = ScenePiece("cube", ((0, 0, 0),), "kozo", (0.0, 0.0, 0.0))  # x in [0, a]
    bar = ScenePiece("bar", tuple((i, 0, 0) for i in range(5)), "kozo", (-a, 0.0, a))  # [-a, 4a]
    scene = Scene("bar-off-a-cube", (cube, bar))
    out = run_once(scene, get_profile("verdict"), 1.0, ToppleRule(check_every=0.5))
    assert out.fell == [False, True]
    assert out.reasons[1] == "touched table"
    assert out.first_fall_s == pytest.approx(0.5)
    assert out.tilt_deg[1] < 20.0


# ---------------------------------------------------------------------------------------
# Early stop (issue #4): only where statics proves "stands", only once the scene is quiet
# ---------------------------------------------------------------------------------------
def test_early_stop_ends_a_settled_proven_scene_and_keeps_the_verdict() -> None:
    """cantilever-safe: statics decides "stands" (the bar's centre of mass 2 mm inside the
    pedestal, tilt margin over 8 deg), so the simulated replicas may stop once quiet. The bar
    starts at rest on the pedestal, so it is quiet from the first checks on and every replica
    ends after the 0.2 s window, well before 0.3 s; the whole 5 s window gives the same
    answer."""
    scene = load_scene(shipped_scene_path("cantilever-safe"))
    quick = simulate(scene, method="simulate", replicas=2, workers=1)
    full = simulate(scene, method="simulate", replicas=2, workers=1, early_stop=None)
    assert quick.early_stop is not None and full.early_stop is None
    assert quick.simulated_s is not None and 0.2 - 1e-9 <= quick.simulated_s <= 0.3
    assert full.simulated_s == pytest.approx(5.0)
    assert quick.verdict == full.verdict == "stands"
    assert quick.replica_toppled == full.replica_toppled == (False, False)
    assert "came to rest" in quick.explanation and "came to rest" not in full.explanation
    assert quick.to_json()["early_stop"]["window_s"] == 0.2


def test_early_stop_is_not_used_where_statics_does_not_prove_stands() -> None:
    """kozo-marginal is left undecided by statics (tilt margin 6.2 deg < 8): its replicas run
    the whole window even though the tower stands still."""
    scene = load_scene(shipped_scene_path("kozo-marginal"))
    v = simulate(scene, method="simulate", replicas=1, seconds=0.5, workers=1)
    assert v.statics is not None and v.statics.decision == "undecided"
    assert v.early_stop is None
    assert v.simulated_s == pytest.approx(0.5)


@pytest.mark.parametrize(("lift_mm", "settles"), [(0.3, True), (2.0, False)])
def test_early_stop_waits_for_rest_near_the_start(lift_mm: float, settles: bool) -> None:
    """A cube let go ``lift_mm`` above another cube resting on the table (a new contact between
    two loose pieces is not a fall), run with the early stop forced on. 0.3 mm:
    it lands after sqrt(2 h / g) = 7.8 ms and rests 0.3 mm below where it started (under the
    0.5 mm bound), so the run ends after the 0.2 s quiet window, by 0.25 s. 2 mm: it lands
    after 20 ms, 2 mm from its start -- beyond the bound, so it is never "where statics proved
    equilibrium" and the run goes the whole 1 s (a 2 mm drop is under half an edge: no fall)."""
    from tablesim.sim.config import PhysicsConfig, get_profile
    from tablesim.sim.verdict import EarlyStop, ToppleRule, run_once

    a = PhysicsConfig().kozo_cube
    base = ScenePiece("base", ((0, 0, 0),), "kozo", (0.0, 0.0, 0.0))
    cube = ScenePiece("c", ((0, 0, 0),), "kozo", (0.0, 0.0, a + lift_mm * 1e-3))
    scene = Scene("drop", (base, cube))
    out = run_once(scene, get_profile("verdict"), 1.0, ToppleRule(), EarlyStop())
    assert out.fell == [False, False]
    assert out.settled is settles
    if settles:
        assert 0.2 - 1e-9 <= out.simulated_s <= 0.25
    else:
        assert out.simulated_s == pytest.approx(1.0)


def test_speculative_early_stop_never_changes_the_result() -> None:
    """With 2 workers and ``method="simulate"`` the replicas start (with the early stop) while
    statics runs. kozo-marginal stands still, so its replicas settle, but statics leaves it
    undecided: they must be redone over the whole window, giving the very bytes of the
    1-worker path, which never speculates."""
    scene = load_scene(shipped_scene_path("kozo-marginal"))
    one, two = (
        simulate(scene, method="simulate", replicas=2, seconds=0.5, workers=w) for w in (1, 2)
    )
    assert two.simulated_s == pytest.approx(0.5) and two.early_stop is None
    assert json.dumps(one.to_json(), sort_keys=True) == json.dumps(two.to_json(), sort_keys=True)


def test_the_quiet_checks_largest_norm_has_numpys_bits() -> None:
    """``_max_norm`` (the early stop's speed and drift test) against
    ``np.linalg.norm(rows, axis=1).max()``, bit for bit, on seeded rows of every scale the
    quiet check sees (um to m), and through NaN."""
    import numpy as np

    from tablesim.sim.verdict import _max_norm

    rng = np.random.default_rng(7)
    for scale in (1e-6, 1e-3, 0.37, 1.0, 3e2):
        for n in (1, 3, 24, 40):
            rows = rng.normal(size=(n, 3)) * scale
            assert _max_norm(rows) == float(np.linalg.norm(rows, axis=1).max())
    rows[5, 1] = np.nan
    assert math.isnan(_max_norm(rows)) and math.isnan(np.linalg.norm(rows, axis=1).max())
