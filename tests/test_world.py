"""The PyBullet World: mass properties, poses, statics, blow-ups, determinism, lifetime.

Expected values come from hand calculations written next to them, never from the code's output.
"""

from __future__ import annotations

import hashlib
import math
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest
from conftest import ROOT

from tablesim.sim.bullet import pybullet_module
from tablesim.sim.config import (
    DISPLAY,
    PYBULLET_CONTACT_BREAKING_THRESHOLD,
    VERDICT,
    PhysicsConfig,
    Profile,
)
from tablesim.sim.model import Scene, ScenePiece, quat_from_euler_deg, quat_to_matrix
from tablesim.sim.world import (
    CHECK_EVERY,
    PhysicsBlowUpError,
    World,
    reference_tower,
    shrunk_half_extents,
)

CFG = PhysicsConfig()
A = CFG.kozo_cube
M_CUBE = CFG.density * A**3  # one kozo cube: 700 * 0.0178^3 = 3.948 g


def _scene(*pieces: ScenePiece, ground: bool = True, config: PhysicsConfig = CFG) -> Scene:
    return Scene("test", tuple(pieces), config, ground=ground)


def _same_rotation(q1: np.ndarray, q2: tuple[float, ...], atol: float) -> bool:
    """Quaternions q and -q are the same rotation."""
    q2a = np.asarray(q2, dtype=float)
    return bool(np.allclose(q1, q2a, atol=atol) or np.allclose(q1, -q2a, atol=atol))


# ------------------------------------------------------------------ mass properties
def test_l_tromino_mass_com_and_principal_inertia_read_back() -> None:
    """L-tromino cells (0,0,0), (1,0,0), (0,1,0), edge a, cube mass m = rho a^3.

    By hand (units of a): COM = ((0.5+1.5+0.5)/3, (0.5+0.5+1.5)/3, 0.5) = (5/6, 5/6, 1/2).
    Cube offsets from the COM: (-1/3,-1/3,0), (2/3,-1/3,0), (-1/3,2/3,0), so
    sum dx^2 = sum dy^2 = 6/9 = 2/3, sum dx dy = (1 - 2 - 2)/9 = -1/3, dz = 0.
    Each cube adds m a^2/6 about its own centre:
    Ixx = 3/6 + 2/3 = 7/6, Iyy = 7/6, Izz = 3/6 + 4/3 = 11/6, Ixy = -(-1/3) = 1/3  (m a^2).
    The xy block [[7/6, 1/3], [1/3, 7/6]] has eigenvalues 7/6 +- 1/3 = 3/2 (along (1,1)) and
    5/6 (along (1,-1)). Principal moments: 5/6, 3/2, 11/6 m a^2; the smallest about (1,-1,0)/sqrt 2.
    """
    q = quat_from_euler_deg(20.0, -35.0, 70.0)
    pos = (0.01, -0.02, 0.1)
    piece = ScenePiece("L", ((0, 0, 0), (1, 0, 0), (0, 1, 0)), "kozo", pos, q)
    with World(_scene(piece, ground=False)) as w:
        info = w.dynamics_info("L")
        assert info["mass"] == pytest.approx(3 * M_CUBE, rel=1e-12)
        expected = np.array([5 / 6, 3 / 2, 11 / 6]) * M_CUBE * A**2
        np.testing.assert_allclose(np.sort(info["inertia"]), expected, rtol=1e-9)
        r = quat_to_matrix(q)
        com = np.asarray(pos) + r @ (np.array([5 / 6, 5 / 6, 1 / 2]) * A)
        np.testing.assert_allclose(info["com"], com, atol=1e-15)
        np.testing.assert_allclose(w.com_positions()[0], com, atol=1e-15)
        # The body's axis of the smallest moment is the piece's (1,-1,0)/sqrt 2 in the world.
        import pybullet as p

        _, q_body = p.getBasePositionAndOrientation(w.body_id("L"), physicsClientId=w.client)
        r_body = quat_to_matrix(q_body)
        k = int(np.argmin(info["inertia"]))
        axis = r @ np.array([1.0, -1.0, 0.0]) / math.sqrt(2)
        assert abs(abs(r_body[:, k] @ axis) - 1.0) < 1e-9


def test_bar_inertia_is_the_box_formula_not_the_compound_default() -> None:
    """A 3-cube bar is one 3a x a x a box of mass 3m: I = M (b^2 + c^2) / 12 per axis, i.e.
    3m (a^2 + a^2)/12 = m a^2 / 2 about the long axis and 3m (9a^2 + a^2)/12 = 5 m a^2 / 2 about
    the two others."""
    piece = ScenePiece("I", ((0, 0, 0), (1, 0, 0), (2, 0, 0)), "kozo", (0.0, 0.0, 0.0))
    with World(_scene(piece)) as w:
        inertia = np.sort(w.dynamics_info("I")["inertia"])
    np.testing.assert_allclose(inertia, np.array([0.5, 2.5, 2.5]) * M_CUBE * A**2, rtol=1e-9)


def test_torque_response_uses_the_exact_rotated_inertia_tensor() -> None:
    """PyBullet's own dynamics see the exact tensor, in the right frame.

    L-tromino as above, rotated arbitrarily, no gravity, no table. A force F applied at the point
    COM + r for one step dt gives the torque tau = r x F and, from rest, w = I_world^-1 tau dt with
    I_world = R I_piece R^T, where (by hand, units of m a^2) I_piece = [[7/6, 1/3, 0],
    [1/3, 7/6, 0], [0, 0, 11/6]] (product of inertia -sum m dx dy = +1/3). PyBullet's default
    compound inertia (the bounding box, diagonal) would miss the product term by far.
    """
    import pybullet as p

    cfg = CFG.with_overrides(gravity=0.0)
    q = quat_from_euler_deg(-15.0, 40.0, 25.0)
    piece = ScenePiece("L", ((0, 0, 0), (1, 0, 0), (0, 1, 0)), "kozo", (0.0, 0.0, 0.3), q)
    dt = 1e-3
    with World(_scene(piece, ground=False, config=cfg)) as w:
        com = w.com_positions()[0]
        r = np.array([0.004, -0.007, 0.002])
        force = np.array([0.3, 0.5, -0.2])
        p.applyExternalForce(
            w.body_id("L"),
            -1,
            force.tolist(),
            (com + r).tolist(),
            p.WORLD_FRAME,
            physicsClientId=w.client,
        )
        w.step()
        omega = w.velocities()[1][0]
        lin = w.velocities()[0][0]
    i_piece = np.array([[7 / 6, 1 / 3, 0], [1 / 3, 7 / 6, 0], [0, 0, 11 / 6]]) * M_CUBE * A**2
    rot = quat_to_matrix(q)
    expected = np.linalg.solve(rot @ i_piece @ rot.T, np.cross(r, force) * dt)
    np.testing.assert_allclose(omega, expected, rtol=1e-9)
    np.testing.assert_allclose(lin, force * dt / (3 * M_CUBE), rtol=1e-9)


# ------------------------------------------------------------------ poses
def test_arbitrary_pose_is_reported_back_exactly_before_stepping() -> None:
    q = quat_from_euler_deg(123.0, -47.0, 211.0)
    pos = (0.031, -0.047, 0.25)
    cells = ((0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0), (0, 0, 1))  # kozo 5R, not flat
    with World(_scene(ScenePiece("R", cells, "kozo", pos, q))) as w:
        got_pos, got_q = w.poses()["R"]
        np.testing.assert_allclose(got_pos, pos, atol=1e-14)
        assert _same_rotation(got_q, q, atol=1e-14)
        assert w.baseline.tilts_deg()[0] == pytest.approx(0.0, abs=1e-6)
        assert w.time == 0.0
        assert w.piece_ids == ["R"]


def test_tilt_reports_the_rotation_since_build() -> None:
    """A cube given angular velocity w about z for t seconds (no gravity) turns w t."""
    cfg = CFG.with_overrides(gravity=0.0)
    cube = ScenePiece("c", ((0, 0, 0),), "kozo", (0.0, 0.0, 0.1))
    with World(_scene(cube, ground=False, config=cfg)) as w:
        w.set_velocity("c", (0.0, 0.0, 0.0), (0.0, 0.0, 1.0))
        w.run(0.5)
        assert w.baseline.tilts_deg()[0] == pytest.approx(math.degrees(0.5), rel=1e-6)


def test_tip_angle_ignores_yaw() -> None:
    """No gravity: a cube spun about z for 0.5 s at 1 rad/s has turned 28.6 deg (tilt) but not
    tipped; spun about x it has tipped by the same 28.6 deg."""
    cfg = CFG.with_overrides(gravity=0.0)
    cube = ScenePiece("c", ((0, 0, 0),), "kozo", (0.0, 0.0, 0.1))
    for axis, tipped in (((0.0, 0.0, 1.0), 0.0), ((1.0, 0.0, 0.0), math.degrees(0.5))):
        with World(_scene(cube, ground=False, config=cfg)) as w:
            w.set_velocity("c", (0.0, 0.0, 0.0), axis)
            w.run(0.5)
            assert w.baseline.tilts_deg()[0] == pytest.approx(math.degrees(0.5), rel=1e-6)
            assert w.baseline.tip_angles_deg()[0] == pytest.approx(tipped, abs=1e-6)


def test_resting_cube_stays_put() -> None:
    """A cube placed on the table: its centre stays at a/2 (within the 0.02 mm resting
    penetration), and it does not wander sideways or turn.

    Theory says it never moves. Without friction anchors (verdict profile) Bullet's resting
    contact creeps: measured about 4 um/s sideways and 0.008 deg/s for this cube, so the
    tolerance over 2 s is 0.02 mm and 0.05 deg -- a hundred times below any verdict threshold.
    """
    cube = ScenePiece("c", ((0, 0, 0),), "kozo", (0.0, 0.0, 0.0))
    with World(_scene(cube)) as w:
        w.run(2.0)
        com = w.com_positions()[0]
        assert abs(com[2] - A / 2) < 0.02e-3
        assert np.hypot(com[0] - A / 2, com[1] - A / 2) < 0.02e-3
        assert w.baseline.tilts_deg()[0] < 0.05
        assert w.speeds()[0] < 1e-4
        assert w.contacts.contacts_with_static() == {("c", "table")}
        assert 0.0 <= w.contacts.max_penetration() < 0.02e-3


def test_static_pieces_do_not_move_under_load() -> None:
    """A static pedestal carrying a 3-cube bar keeps its pose exactly; the bar rests on it."""
    ped = ScenePiece(
        "ped", ((0, 0, 0),), None, (0.0, 0.0, 0.0), static=True, box=(0.04, 0.04, 0.03)
    )
    bar = ScenePiece("bar", ((0, 0, 0), (1, 0, 0), (2, 0, 0)), "kozo", (-0.007, 0.011, 0.03))
    with World(_scene(ped, bar)) as w:
        before = w.pose("ped")
        w.run(1.0)
        after = w.pose("ped")
        np.testing.assert_array_equal(before[0], after[0])
        np.testing.assert_array_equal(before[1], after[1])
        assert w.piece_ids == ["bar"]
        assert w.static_ids == ["ped"]
        assert w.contacts.contacts_with_static() == {("bar", "ped")}
        assert w.baseline.com_displacements()[0] < 0.05e-3


def test_clearance_shrinks_horizontal_axes_only() -> None:
    """0.2 mm clearance: 0.1 mm off each horizontal face, nothing off the vertical ones; a box
    tilted 30 deg about y has its x axis 30 deg from horizontal (shrunk) and z 60 deg (kept)."""
    half = np.array([0.01, 0.01, 0.01])
    got = shrunk_half_extents(half, np.eye(3), 0.2e-3)
    np.testing.assert_allclose(got, [0.0099, 0.0099, 0.01], atol=1e-15)
    t = math.radians(30)
    r = np.array([[math.cos(t), 0, math.sin(t)], [0, 1, 0], [-math.sin(t), 0, math.cos(t)]])
    np.testing.assert_allclose(shrunk_half_extents(half, r, 0.2e-3), [0.0099, 0.0099, 0.01])
    # the contact skin (2 um) goes onto the vertical axis only, 1 um per face
    got = shrunk_half_extents(half, np.eye(3), 0.2e-3, 2e-6)
    np.testing.assert_allclose(got, [0.0099, 0.0099, 0.010001], atol=1e-15)


def test_neighbours_on_the_grid_have_the_clearance_gap() -> None:
    """Two cubes placed face to face on the grid start 0.2 mm apart (0.1 mm off each face), so
    they do not touch; stacked cubes start in contact, 2 um into each other (the contact skin:
    1 um added to each horizontal face, so Bullet's box-box detector sees the contact from the
    first step)."""
    c1 = ScenePiece("c1", ((0, 0, 0),), "kozo", (0.0, 0.0, 0.0))
    c2 = ScenePiece("c2", ((0, 0, 0),), "kozo", (A, 0.0, 0.0))
    c3 = ScenePiece("c3", ((0, 0, 0),), "kozo", (0.0, 0.0, A))
    with World(_scene(c1, c2, c3)) as w:
        import pybullet as p

        cid = w.client
        side = p.getClosestPoints(w.body_id("c1"), w.body_id("c2"), 1e-3, physicsClientId=cid)
        top = p.getClosestPoints(w.body_id("c1"), w.body_id("c3"), 1e-3, physicsClientId=cid)
        assert min(pt[8] for pt in side) == pytest.approx(CFG.clearance, abs=1e-9)
        assert min(pt[8] for pt in top) == pytest.approx(-2e-6, abs=1e-9)


# ------------------------------------------------------------------ blow-ups
def test_huge_speed_is_a_blow_up_error() -> None:
    cube = ScenePiece("c", ((0, 0, 0),), "kozo", (0.0, 0.0, 0.0))
    with World(_scene(cube)) as w:
        w.set_velocity("c", (50.0, 0.0, 0.0))
        with pytest.raises(PhysicsBlowUpError) as err:
            w.run(0.01)
    assert err.value.piece == "c"
    assert err.value.value > 5.0
    assert "'c'" in str(err.value) and "t = 0.0100" in str(err.value)
    assert isinstance(err.value, RuntimeError)


def test_nan_is_a_blow_up_error_within_the_check_period() -> None:
    cube = ScenePiece("c", ((0, 0, 0),), "kozo", (0.0, 0.0, 0.0))
    with World(_scene(cube)) as w:
        import pybullet as p

        p.resetBaseVelocity(w.body_id("c"), [math.nan, 0, 0], [0, 0, 0], physicsClientId=w.client)
        with pytest.raises(PhysicsBlowUpError) as err:
            w.step(CHECK_EVERY)
    assert err.value.piece == "c"


# ------------------------------------------------------------------ determinism and lifetime
_HASH_SCRIPT = """
import hashlib, sys
sys.path.insert(0, {root!r})
from tablesim.sim.world import World, reference_tower
with World(reference_tower(), {profile!r}) as w:
    w.apply_impulse("4T", w.com_positions()[w.piece_ids.index("4T")] + [0, 0, 0.005], [1e-2, 4e-3, 0])
    w.run(0.6)
    print(hashlib.sha256(w.pose_array().tobytes()).hexdigest())
"""


def _hash_in_process(profile: str, queries: bool = False) -> str:
    with World(reference_tower(), profile) as w:
        i = w.piece_ids.index("4T")
        w.apply_impulse("4T", w.com_positions()[i] + [0, 0, 0.005], [1e-2, 4e-3, 0])
        if queries:  # read-only queries every 10 steps must not change the trajectory
            w.run(
                0.6,
                lambda w: (
                    w.contacts.contacts_with_static(),
                    w.contacts.max_penetration(),
                    w.poses(),
                ),
                10,
            )
        else:
            w.run(0.6)
        assert w.baseline.com_displacements().max() > 1e-3  # the push really moved something
        return hashlib.sha256(w.pose_array().tobytes()).hexdigest()


@pytest.mark.parametrize("profile", ["verdict", "display"])
def test_bit_identical_across_processes(profile: str) -> None:
    here = _hash_in_process(profile)
    script = _HASH_SCRIPT.format(root=str(ROOT), profile=profile)
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip().splitlines()[-1] == here


def test_queries_do_not_disturb_the_simulation() -> None:
    assert _hash_in_process("verdict", queries=True) == _hash_in_process("verdict")


def test_world_is_closed_after_with() -> None:
    import pybullet as p

    with World(reference_tower(), "display") as w:
        cid = w.client
        assert p.isConnected(physicsClientId=cid)
    assert w.closed
    assert not p.isConnected(physicsClientId=cid)
    with pytest.raises(RuntimeError):
        w.step()
    w.close()  # idempotent


def test_worlds_are_independent() -> None:
    """Two worlds in one process do not share bodies: stepping one leaves the other alone."""
    cube = ScenePiece("c", ((0, 0, 0),), "kozo", (0.0, 0.0, 0.05))
    with World(_scene(cube)) as w1, World(_scene(cube)) as w2:
        w1.run(0.2)
        assert w1.baseline.com_displacements()[0] > 0.01  # fell 5 cm onto the table
        assert w2.baseline.com_displacements()[0] == 0.0
        assert w1.client != w2.client


def test_profile_and_time_step_are_applied() -> None:
    import pybullet as p

    with World(reference_tower(), "verdict", time_step=5e-4) as w:
        params = p.getPhysicsEngineParameters(physicsClientId=w.client)
        assert params["fixedTimeStep"] == 5e-4
        assert params["numSolverIterations"] == 50
        assert params["gravityAccelerationZ"] == -CFG.gravity
        w.step(10)
        assert w.time == pytest.approx(5e-3)
    with pytest.raises(ValueError):
        World(reference_tower(), "nonsense")


def test_wake_all_wakes_sleeping_pieces() -> None:
    """Display profile: a resting cube falls asleep (Bullet: after 2 s at rest), and a sleeping
    body ignores a sideways tilt of gravity (5 m/s^2 > mu g = 4.4 m/s^2, enough to slide); after
    ``wake_all`` it slides. (Bullet hands a new world gravity only to awake bodies, hence the
    second ``setGravity``.)"""
    import pybullet as p

    cube = ScenePiece("c", ((0, 0, 0),), "kozo", (0.0, 0.0, 0.0))
    with World(_scene(cube), "display") as w:
        w.run(3.0)
        p.setGravity(5.0, 0.0, -CFG.gravity, physicsClientId=w.client)
        x0 = w.com_positions()[0, 0]
        w.run(0.2)
        assert w.com_positions()[0, 0] == x0
        w.wake_all()
        p.setGravity(5.0, 0.0, -CFG.gravity, physicsClientId=w.client)
        w.run(0.2)
        assert w.com_positions()[0, 0] - x0 > 5e-3


def test_apply_impulse_changes_velocity_by_j_over_m() -> None:
    """An impulse J through the centre of mass changes v by J/m and leaves w alone."""
    cfg = CFG.with_overrides(gravity=0.0)
    cube = ScenePiece("c", ((0, 0, 0),), "kozo", (0.0, 0.0, 0.1))
    with World(_scene(cube, ground=False, config=cfg)) as w:
        com = w.com_positions()[0]
        w.apply_impulse("c", com, (M_CUBE * 0.2, 0.0, 0.0))
        lin, ang = w.velocities()
        np.testing.assert_allclose(lin[0], [0.2, 0.0, 0.0], atol=1e-12)
        np.testing.assert_allclose(ang[0], 0.0, atol=1e-12)
        # Off-centre by r = a/2 in y, J along x: dw_z = -(r J)/I = -(a/2)(m v)/(m a^2/6) = -3 v / a.
        w.apply_impulse("c", com + [0.0, A / 2, 0.0], (M_CUBE * 0.2, 0.0, 0.0))
        lin, ang = w.velocities()
        np.testing.assert_allclose(lin[0], [0.4, 0.0, 0.0], atol=1e-12)
        np.testing.assert_allclose(ang[0], [0.0, 0.0, -3 * 0.2 / A], rtol=1e-9)


def test_reference_tower_is_a_valid_resting_scene() -> None:
    scene = reference_tower()
    with World(scene) as w:
        assert len(w.piece_ids) == 12
        assert w.contacts.contacts_with_static() == {("5V", "board"), ("3L", "board")}


def test_contact_pairs_name_the_touching_pieces() -> None:
    """Two cubes stacked on the table, a third alone beside them (3 edges away): after a few
    steps the solver's touching pairs are the stack, and each bottom cube on the table."""
    a = 17.8e-3
    pieces = (
        ScenePiece("low", ((0, 0, 0),), "kozo", (0.0, 0.0, 0.0)),
        ScenePiece("high", ((0, 0, 0),), "kozo", (0.0, 0.0, a)),
        ScenePiece("alone", ((0, 0, 0),), "kozo", (3 * a, 0.0, 0.0)),
    )
    with World(Scene("pairs", pieces), "verdict") as w:
        w.step(5)
        pairs = w.contacts.contact_pairs()
    assert pairs == {("high", "low"), ("low", "table"), ("alone", "table")}


# ------------------------------------------------------------------ edge contacts (issue #8)
BAR5 = tuple((i, 0, 0) for i in range(5))
CUBE_CELLS = ((0, 0, 0),)


def bar_off_a_cube() -> Scene:
    """A 5-cube bar (L = 5a) across a cube on the table: cube x in [0, a], bar x in [-a, 4a].

    The bar overhangs the cube's edge x = a by s = 3a (clearance moves both the bar's end and
    the cube's edge in by 0.1 mm, so s stays 3a); its centre of mass (x = 1.5a) is 0.5a beyond
    the edge, so it turns about that edge until its end's lower edge, a below the pivot line,
    reaches the table: sin theta = a / s = 1/3, theta = 19.47 deg -- under the 20-degree tilt
    of the topple rule. Its centre of mass then sits 0.5a sin theta + (a/2)(1 - cos theta) =
    0.195a lower, under the rule's half edge: only the new table contact says it fell."""
    cube = ScenePiece("cube", ((0, 0, 0),), "kozo", (0.0, 0.0, 0.0))
    bar = ScenePiece("bar", BAR5, "kozo", (-A, 0.0, A))
    return _scene(cube, bar)


def test_bar_resting_on_an_edge_and_the_table_touches_the_table() -> None:
    """The bar of :func:`bar_off_a_cube` comes to rest at asin(1/3) = 19.47 deg with its end's
    edge on the table. The closest-point query sees that edge rounded by the 1 mm box margin,
    r (sin theta + cos theta - 1) = 0.276 mm away; the contact set must still name the table."""
    theta = math.asin(1 / 3)
    with World(bar_off_a_cube()) as w:
        assert w.contacts.contacts_with_static() == {
            ("cube", "table")
        }  # the bar starts on the cube
        w.run(1.0)
        tilt = w.baseline.tip_angles_deg()[w.piece_ids.index("bar")]
        assert tilt == pytest.approx(math.degrees(theta), abs=0.4)
        assert tilt < 20.0
        pts = pybullet_module().getClosestPoints(
            w.body_id("bar"), w.table_body, 1e-3, physicsClientId=w.client
        )
        rounded = 1e-3 * (math.sin(theta) + math.cos(theta) - 1)  # 0.276 mm
        assert min(pt[8] for pt in pts) == pytest.approx(rounded, abs=0.03e-3)
        assert ("bar", "table") in w.contacts.contacts_with_static()


def test_a_face_near_but_not_on_a_static_body_is_not_a_contact() -> None:
    """A cube standing 0.03 mm and 0.15 mm beside a static box (gap below / above the 0.05 mm
    tolerance, as built, no step taken): only the first counts as touching."""
    wall = ScenePiece("wall", CUBE_CELLS, None, (A, 0.0, 0.0), static=True, box=(A, A, A))
    for gap, expected in ((0.03e-3, True), (0.15e-3, False)):
        # clearance takes 0.1 mm off each horizontal face of the cube, so place it accordingly
        cube = ScenePiece("c", CUBE_CELLS, "kozo", (-gap + 0.1e-3, 0.0, 0.0))
        with World(_scene(wall, cube)) as w:
            assert (("c", "wall") in w.contacts.contacts_with_static()) is expected


def test_a_sleeping_world_only_counts_steps_and_stays_bit_identical() -> None:
    """Display profile: once every piece sleeps, World.step skips Bullet's step (nothing would
    move). The poses are bit for bit those of a world that steps every time, before and after
    an impulse wakes the tower."""
    from tablesim.sim.scene import load_scene, shipped_scene_path

    scene = load_scene(shipped_scene_path("kozo-tower"))

    def run(skip: bool) -> tuple[list[str], bool]:
        hashes = []
        with World(scene, "display") as w:
            w.skip_sleeping_steps = skip
            w.run(3.5)
            asleep = w.asleep
            hashes.append(hashlib.sha256(w.pose_array().tobytes()).hexdigest())
            w.run(1.0)
            hashes.append(hashlib.sha256(w.pose_array().tobytes()).hexdigest())
            top = w.piece_ids[-1]
            w.apply_impulse(top, w.com_positions()[-1], [2e-4, 0.0, 0.0])
            w.run(0.5)
            hashes.append(hashlib.sha256(w.pose_array().tobytes()).hexdigest())
            assert w.time == pytest.approx(5.0)
        return hashes, asleep

    fast, asleep = run(True)
    slow, never = run(False)
    assert asleep and not never  # the fast path was taken, and only where allowed
    assert fast == slow
    assert fast[2] != fast[1]  # the impulse moved something


# ---------------------------------------------------------------------- contact breaking threshold
def _run_digest(scene: Scene, profile: Profile | str, seconds: float) -> str:
    with World(scene, profile) as w:
        w.run(seconds)
        return hashlib.sha256(w.pose_array().tobytes()).hexdigest()


def test_a_display_world_does_not_change_a_verdict_world_built_after_it() -> None:
    """PyBullet keeps the contact breaking threshold per process, not per client, and the display
    profile sets another value than the verdict: a verdict run must give the same bits whether
    or not a display world was built and stepped before it (and a raw client the same as
    before)."""
    tower = reference_tower()
    before = _run_digest(tower, "verdict", 0.3)
    _run_digest(tower, "display", 0.3)
    assert _run_digest(tower, "verdict", 0.3) == before
    assert DISPLAY.contact_breaking_threshold != VERDICT.contact_breaking_threshold


def test_the_breaking_threshold_changes_no_resting_contact() -> None:
    """Bullet's box-box detector makes points only where boxes overlap, so a smaller breaking
    threshold only drops bookkeeping (manifold points kept after they separate): in the display
    profile a straight stack of 10 cubes ends exactly where it ends with PyBullet's 2 cm, and
    the 12-piece reference tower within 0.02 mm (its own settling from release is ~0.01 mm;
    the clearance between neighbours is 0.2 mm)."""
    stack = _scene(
        *(ScenePiece(f"c{k}", ((0, 0, 0),), "kozo", (-A / 2, -A / 2, k * A)) for k in range(10))
    )
    wide = replace(DISPLAY, contact_breaking_threshold=PYBULLET_CONTACT_BREAKING_THRESHOLD)
    for scene, tol in ((stack, 1e-9), (reference_tower(), 2e-5)):
        ends = []
        for prof in (wide, DISPLAY):
            with World(scene, prof) as w:
                w.run(1.0)
                ends.append(w.com_positions())
        assert np.abs(ends[0] - ends[1]).max() < tol, scene.name


def test_a_blow_up_error_survives_pickling() -> None:
    """Replica workers hand errors to the parent by pickling: a blow-up must arrive as itself
    (it used to break the process pool with a TypeError instead)."""
    import pickle

    err = PhysicsBlowUpError("c19", 1.6354, "position off the 12 m room (m)", (6.0047, 0.055))
    back = pickle.loads(pickle.dumps(err))
    assert type(back) is PhysicsBlowUpError
    assert (back.piece, back.time, back.quantity, back.value) == (
        "c19", 1.6354, "position off the 12 m room (m)", (6.0047, 0.055),
    )  # fmt: skip
    assert str(back) == str(err)
