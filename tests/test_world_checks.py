"""The topple rule's fast reads (:meth:`sim.world.World.states`, ``tipped``, ``check_contacts``)
give exactly the answers of the plain per-piece reads (``com_positions``, ``tip_angles_deg``,
``contacts_with_static``, ``max_penetration``) they replace in the rule loops (issue #24)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.config import PhysicsConfig
from sim.model import Scene, ScenePiece
from sim.scene import load_scene, shipped_scene_path
from sim.world import CONTACT_TOLERANCE, World


def _compare_at(world: World, known: set[tuple[str, str]]) -> tuple[int, int]:
    """Assert the fast reads equal the plain ones now; return (new contacts, pieces tipped)."""
    st = world.states()
    assert np.array_equal(st.com, world.com_positions())  # the same doubles
    tips = world.tip_angles_deg()
    for i in range(len(tips)):
        assert world.tip_angle_deg(i) == tips[i]
    for limit in (1.0, 20.0, 45.0):
        assert np.array_equal(world.tipped(limit, st), tips > limit)
    for k in (set(), known):
        got = world.check_contacts(k, st)
        assert got.new == world.contacts_with_static() - k
        assert got.max_penetration == world.max_penetration()
    # The bounds that let check_contacts skip closest-point queries never exceed a distance.
    bounds = world.static_distance_bounds(st)
    bodies = world._static_aabbs[0]
    for i, pid in enumerate(world.piece_ids):
        for j, sbody in enumerate(bodies):
            pts = world._p.getClosestPoints(
                world.body_id(pid), sbody, 1.0, physicsClientId=world.client
            )
            assert bounds[i, j] <= min(pt[8] for pt in pts) + 1e-9, (pid, j)
    return len(world.check_contacts(known, st).new), int((tips > 20.0).sum())


@pytest.mark.parametrize(
    ("name", "seconds"), [("kozo-overhang", 1.2), ("cantilever-tips", 1.2)]
)  # fmt: skip
def test_fast_reads_equal_the_plain_reads_through_a_collapse(name: str, seconds: float) -> None:
    """Every 10 ms of two collapses (a tower piece tipping onto the tower, then the table; a
    bar tipping off a static pedestal), the fast reads give the plain reads' answers, bit for
    bit. The runs must really reach new contacts and tipped pieces, or nothing was compared."""
    scene = load_scene(shipped_scene_path(name))
    with World(scene, "verdict") as world:
        known = world.contacts_with_static()
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
        tips = world.tip_angles_deg()
        i = int(np.argmax(tips))
        assert tips[i] > 1.0
        below = math.nextafter(float(tips[i]), -math.inf)
        assert not world.tipped(float(tips[i]))[i]
        assert world.tipped(below)[i]


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
        assert world.check_contacts().new == expected
        assert world.contacts_with_static() == expected
