"""The topple rule's fast reads (:meth:`tablesim.sim.world.World.states`, ``baseline.tipped``, ``contacts.check_contacts``)
give exactly the answers of the plain per-piece reads (``com_positions``, ``tip_angles_deg``,
``contacts_with_static``, ``max_penetration``) they replace in the rule loops (issue #24)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from tablesim.sim.bullet import pybullet_module
from tablesim.sim.config import PhysicsConfig
from tablesim.sim.model import Scene, ScenePiece
from tablesim.sim.scene import load_scene, shipped_scene_path
from tablesim.sim.world import CONTACT_TOLERANCE, World


def _compare_at(world: World, known: set[tuple[str, str]]) -> tuple[int, int]:
    """Assert the fast reads equal the plain ones now; return (new contacts, pieces tipped)."""
    st = world.states()
    assert np.array_equal(st.com, world.com_positions())  # the same doubles
    tips = world.baseline.tip_angles_deg()
    for i in range(len(tips)):
        assert world.baseline.tip_angle_deg(i) == tips[i]
    for limit in (1.0, 20.0, 45.0):
        assert np.array_equal(world.baseline.tipped(limit, st), tips > limit)
    for k in (set(), known):
        got = world.contacts.check_contacts(k, st)
        assert got.new == world.contacts.contacts_with_static() - k
        assert got.max_penetration == world.contacts.max_penetration()
    # The bounds that let check_contacts skip closest-point queries never exceed a distance.
    bounds = world.contacts.static_distance_bounds(st)
    bodies = world.contacts.static_bodies
    for i, pid in enumerate(world.piece_ids):
        for j, sbody in enumerate(bodies):
            pts = pybullet_module().getClosestPoints(
                world.body_id(pid), sbody, 1.0, physicsClientId=world.client
            )
            assert bounds[i, j] <= min(pt[8] for pt in pts) + 1e-9, (pid, j)
    return len(world.contacts.check_contacts(known, st).new), int((tips > 20.0).sum())


@pytest.mark.parametrize(
    ("name", "seconds"), [("kozo-overhang", 1.2), ("cantilever-tips", 1.2)]
)  # fmt: skip
def test_fast_reads_equal_the_plain_reads_through_a_collapse(name: str, seconds: float) -> None:
    """Every 10 ms of two collapses (a tower piece tipping onto the tower, then the table; a
    bar tipping off a static pedestal), the fast reads give the plain reads' answers, bit for
    bit. The runs must really reach new contacts and tipped pieces, or nothing was compared."""
    scene = load_scene(shipped_scene_path(name))
    with World(scene, "verdict") as world:
        known = world.contacts.contacts_with_static()
        seen_contacts = seen_tipped = 0
        for _ in range(round(seconds / 0.01)):
            world.step(10)
            new, tipped = _compare_at(world, known)
            seen_contacts += new
            seen_tipped += tipped
    assert seen_contacts > 0 and seen_tipped > 0


def test_tipped_at_its_limit_is_decided_by_the_exact_angle() -> None:
    """``tipped(limit)`` is ``angle > limit``: False when the limit is the piece's angle itself,
    True one unit in the last place below it (the vectorised angle alone could be off by that)."""
    scene = load_scene(shipped_scene_path("kozo-overhang"))
    with World(scene, "verdict") as world:
        world.step(60)  # the 4L is tipping
        tips = world.baseline.tip_angles_deg()
        i = int(np.argmax(tips))
        assert tips[i] > 1.0
        below = math.nextafter(float(tips[i]), -math.inf)
        assert not world.baseline.tipped(float(tips[i]))[i]
        assert world.baseline.tipped(below)[i]


def _cube_at(height: float) -> Scene:
    """One Kozo cube whose bottom face is ``height`` (m) above the table (no other piece)."""
    cube = ScenePiece("c", ((0, 0, 0),), "kozo", (0.0, 0.0, height))
    return Scene("cube", (cube,), PhysicsConfig())


@pytest.mark.parametrize(
    ("gap_mm", "touches"), [(0.03, True), (0.045, True), (0.06, False), (2.0, False)]
)  # fmt: skip
def test_a_cube_near_the_table_touches_within_the_tolerance(gap_mm: float, touches: bool) -> None:
    """A cube held (unstepped) above the table counts as touching it exactly when the gap is
    within the 0.05 mm tolerance. There is no manifold point at a gap, so the answer comes from
    the closest-point query, which the fast read must not prune away."""
    assert math.isclose(CONTACT_TOLERANCE, 0.05e-3)
    # The cube is built with the contact skin (1 um lower face), so aim the face at the gap.
    with World(_cube_at(gap_mm * 1e-3 + 1e-6), "verdict") as world:
        expected = {("c", "table")} if touches else set()
        assert world.contacts.check_contacts().new == expected
        assert world.contacts.contacts_with_static() == expected


def _would_reject(row: np.ndarray) -> bool:
    """The guard's rule written out (sim/guard.py's docstrings): any non-finite number, a speed
    over 10 m/s or a spin over 2000 rad/s, |x| or |y| over 6 m (the room round the 4 m table), z
    under -1 m (a quarter metre through the floor, 0.75 m below the table top) or over 3 m."""
    pos, quat, lin, ang = row[:3], row[3:7], row[7:10], row[10:]
    if not np.isfinite(row).all():
        return True
    speed = math.sqrt(sum(float(v) ** 2 for v in lin))
    spin = math.sqrt(sum(float(v) ** 2 for v in ang))
    x, y, z = (float(v) for v in pos)
    del quat
    return speed > 10.0 or spin > 2000.0 or max(abs(x), abs(y)) > 6.0 or not -1.0 <= z <= 3.0


def test_the_guards_array_filter_keeps_every_body_the_guard_rejects() -> None:
    """``suspects`` (World.check's array test) and ``check_positions``' fast path against the
    guard's rule written out, on 1200 seeded rows at and around every limit (speeds a unit in
    the last place either side of 10 m/s, NaN and inf in every column): every rejected body is
    a suspect, and check_body raises exactly for the rows the rule rejects."""
    from tablesim.sim.guard import PhysicsBlowUpError, check_body, check_positions, suspects

    rng = np.random.default_rng(24)
    edges = [10.0, math.nextafter(10.0, 0.0), math.nextafter(10.0, 19.0)]
    rows = []
    for _ in range(1200):
        row = np.concatenate(
            [rng.uniform([-6.1, -6.1, -1.1], [6.1, 6.1, 3.1]), rng.normal(size=4),
             rng.normal(size=3), rng.normal(size=3) * 500]
        )  # fmt: skip
        kind = rng.integers(6)
        if kind == 0:
            row[7:10] = rng.permutation([rng.choice(edges), 0.0, 0.0])
        elif kind == 1:
            row[rng.integers(13)] = rng.choice([np.nan, np.inf, -np.inf])
        elif kind == 2:
            row[rng.integers(3)] = rng.choice([6.0, -6.0, 3.0, -1.0, math.nextafter(6.0, 7.0)])
        rows.append(row)
    flat = np.array(rows)
    odd = suspects(flat[:, :3], flat[:, 3:7], flat[:, 7:10], flat[:, 10:])
    rejected = 0
    for i, row in enumerate(rows):
        bad = _would_reject(row)
        rejected += bad
        assert odd[i] or not bad, row
        try:
            check_body("p", 0.0, row[:3], row[3:7], row[7:10], row[10:])
        except PhysicsBlowUpError:
            assert bad, row
        else:
            assert not bad, row
        off = not np.isfinite(row[:3]).all() or _would_reject(np.r_[row[:3], np.zeros(10)])
        try:
            check_positions(["p"], 0.0, row[None, :3])
        except PhysicsBlowUpError:
            assert off, row
        else:
            assert not off, row
    assert 150 < rejected < 1050  # both kinds of rows were tried


def test_world_check_raises_for_the_first_bad_piece_in_scene_order() -> None:
    """Two pieces of the tower given impossible speeds: the error names the earlier one in
    scene order (as the piece-by-piece check did); 10 m/s exactly is allowed."""
    from tablesim.sim.guard import PhysicsBlowUpError

    scene = load_scene(shipped_scene_path("kozo-tower"))
    with World(scene, "verdict") as world:
        ids = world.piece_ids
        world.set_velocity(ids[3], (0.0, 10.0, 0.0))
        assert world.check() is False
        world.set_velocity(ids[7], (0.0, 0.0, 0.0), (0.0, 0.0, 2100.0))
        world.set_velocity(ids[5], (11.0, 0.0, 0.0))
        with pytest.raises(PhysicsBlowUpError) as err:
            world.check()
        assert (err.value.piece, err.value.quantity) == (ids[5], "speed (m/s)")


def test_tipped_with_limits_outside_half_a_turn() -> None:
    """No piece tips 180 degrees or more, every piece 'tips' more than -1 degree."""
    scene = load_scene(shipped_scene_path("kozo-overhang"))
    with World(scene, "verdict") as world:
        world.step(60)
        n = len(world.piece_ids)
        assert not world.baseline.tipped(180.0).any() and not world.baseline.tipped(200.0).any()
        assert world.baseline.tipped(-1.0).all() and world.baseline.tipped(-1.0).shape == (n,)


def test_deepest_penetration_reads_the_depth_and_the_way_out() -> None:
    """A cube held 12 mm above the table penetrates nothing (depth 0, normal zeros); pushed
    0.5 mm into the table (its face 1 um lower still: the skin) its deepest penetration is
    0.501 mm with the normal straight up, the way out, and ``penetration`` says the same depth."""
    a = PhysicsConfig().kozo_cube
    with World(_cube_at(12e-3), "verdict") as world:
        depth, normal = world.contacts.deepest_penetration("c")
        assert depth == 0.0 and normal.tolist() == [0.0, 0.0, 0.0]
        world.set_pose("c", (a / 2, a / 2, a / 2 - 0.5e-3), (0, 0, 0, 1))
        depth, normal = world.contacts.deepest_penetration("c")
        assert depth == pytest.approx(0.5e-3 + 1e-6, abs=1e-9)
        assert np.allclose(normal, (0.0, 0.0, 1.0), atol=1e-9)
        assert world.contacts.penetration("c") == depth


def test_near_pairs_kept_between_checks_still_find_a_piece_that_creeps_in() -> None:
    """A cube lowered onto the table 0.4 mm at a time (each move under the 1 mm /sqrt 3 that
    lets ``check_contacts`` keep its near pairs, but 12 mm in all) is found touching exactly
    when the plain read finds it (the pairs must be recomputed as it comes; kept for ever, the
    far start would hide the contact)."""
    a = PhysicsConfig().kozo_cube
    with World(_cube_at(12e-3), "verdict") as world:
        touched = 0
        for k in range(31):
            gap = max(0.03e-3, 12e-3 - 0.4e-3 * k)  # the last moves end 0.03 mm above
            com = (a / 2, a / 2, gap + a / 2 + 1e-6)  # the skin: the face is 1 um lower
            world.set_pose("c", com, (0, 0, 0, 1))
            got = world.contacts.check_contacts(set(), world.states()).new
            assert got == world.contacts.contacts_with_static(), gap
            touched += bool(got)
        assert touched == 1


def test_piece_boxes_are_the_pieces_local_boxes_kept_read_only() -> None:
    """``piece_boxes`` gives ``local_boxes``' numbers, the same object for the same geometry
    (also of another piece with it), arrays that cannot be written."""
    from tablesim.sim.world import piece_boxes

    cfg = PhysicsConfig()
    scene = load_scene(shipped_scene_path("kozo-tower"))
    for piece in scene.pieces:
        got = piece_boxes(piece, cfg)
        want = piece.local_boxes(cfg)
        assert len(got) == len(want)
        for (c, h), (wc, wh) in zip(got, want, strict=True):
            assert np.array_equal(c, wc) and np.array_equal(h, wh)
            assert not c.flags.writeable and not h.flags.writeable
        moved = dataclasses.replace(piece, position=(0.1, 0.2, 0.3), id="other")
        assert piece_boxes(moved, cfg) is got


def test_a_pieces_layout_shrinks_its_horizontal_axes_and_is_kept_per_tilt_class() -> None:
    """``piece_layout``: every child box of a loose piece loses ``clearance / 2`` per face
    along the piece axes that lie horizontal and gains ``CONTACT_SKIN / 2`` along the vertical
    one (stood on its side, another axis is the vertical one); a static piece keeps its size.
    A piece turned about the vertical, or moved, shares the layout of its geometry; stood up,
    it gets another."""
    from tablesim.sim.world import CONTACT_SKIN, piece_boxes, piece_layout

    cfg = PhysicsConfig()
    c, s = cfg.clearance, CONTACT_SKIN
    scene = load_scene(shipped_scene_path("kozo-tower"))
    piece = next(p for p in scene.pieces if len(p.cells) > 1 and not p.static)
    flat = np.eye(3)
    yaw = np.array([[0.6, -0.8, 0.0], [0.8, 0.6, 0.0], [0.0, 0.0, 1.0]])
    side = np.array([[1.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]])  # y axis vertical
    boxes = piece_boxes(piece, cfg)
    for rot, grow in ((flat, (-c, -c, s)), (side, (-c, s, -c))):
        lay = piece_layout(piece, cfg, rot)
        want = [[float(h[k]) + grow[k] / 2 for k in range(3)] for _, h in boxes]
        assert lay.halves == want
        assert np.array_equal(lay.half_array, np.array(want))
        assert not lay.half_array.flags.writeable and not lay.centres.flags.writeable
    assert piece_layout(piece, cfg, yaw) is piece_layout(piece, cfg, flat)
    moved = dataclasses.replace(piece, position=(0.1, 0.2, 0.3), id="other")
    assert piece_layout(moved, cfg, flat) is piece_layout(piece, cfg, flat)
    assert piece_layout(piece, cfg, side) is not piece_layout(piece, cfg, flat)
    fixed = dataclasses.replace(piece, static=True)
    assert piece_layout(fixed, cfg, flat).halves == [[float(v) for v in h] for _, h in boxes]


def test_a_world_built_from_kept_layouts_steps_to_the_bits_of_one_built_afresh() -> None:
    """The kept layouts change no number: a perturbed tower built with an empty layout cache and
    one built again from the kept layouts are at the same poses and velocities, to the bit,
    after 50 steps."""
    from tablesim.sim import world_layout as world_module  # the kept layouts live there
    from tablesim.sim.verdict import Perturbation, perturb_scene

    scene = perturb_scene(load_scene(shipped_scene_path("kozo-tower")), 0, 2, Perturbation())

    def after_50() -> bytes:
        with World(scene, "verdict") as w:
            w.step(50)
            lin, ang = w.velocities()
            return w.pose_array().tobytes() + lin.tobytes() + ang.tobytes()

    world_module._LAYOUTS.clear()
    fresh = after_50()
    assert world_module._LAYOUTS  # the build kept them
    assert after_50() == fresh
