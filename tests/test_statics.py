"""Static-equilibrium check (sim/statics.py).

Kozo cubes, edge a = 17.8 mm, friction mu = 0.45 unless a test says otherwise. A one-cell piece
at ``position`` p occupies [p, p + a]^3. Every expected number is derived by hand in the test's
docstring (support margins from centre-of-mass geometry, tilt margins from the tipping and
sliding conditions of the critical mechanism), never copied from the code's output.

Tilt margin conventions (see sim/statics.py): load s m g horizontally at every piece's centre of
mass in 8 directions (multiples of 45 degrees from +x); conservative LP with the inscribed
8-sided friction pyramid, whose edges lie along those directions for horizontal contacts, so
sliding along any tried direction starts at exactly s = mu. A rigid group tips about a support
edge when s = sum m_i (horizontal arm_i) / sum m_i (height_i above the edge).
"""

from __future__ import annotations

import json
import math
import time

import numpy as np
import pytest

from tablesim.games.polycubes import find_piece
from tablesim.sim.config import MM, PhysicsConfig
from tablesim.sim.contacts import scene_contacts
from tablesim.sim.model import Scene, ScenePiece, quat_from_euler_deg
from tablesim.sim.statics import (
    STANDS,
    TOPPLES,
    UNDECIDED,
    _bodies,
    analyse,
    assemble,
    direction_label,
    feasible,
    signed_distance,
    tilt_margin,
)

A = 17.8 * MM
MU = 0.45


def deg(s: float) -> float:
    return math.degrees(math.atan(s))


def cube(pid: str, x: float, y: float, z: float, **kw) -> ScenePiece:
    return ScenePiece(pid, ((0, 0, 0),), "kozo", (x, y, z), **kw)


def static_box(pid: str, x: float, y: float, z: float, sx: float, sy: float, sz: float):
    return ScenePiece(pid, ((0, 0, 0),), None, (x, y, z), static=True, box=(sx, sy, sz))


# ---------------------------------------------------------------------------------------
# Block on block
# ---------------------------------------------------------------------------------------
def test_block_on_block_inside():
    """Top cube shifted d = 4 mm in +x on a cube on the table.

    Top: support x in [d, a], COM x = a/2 + d -> margin = a/2 - d = 4.9 mm (the y edges are
    a/2 = 8.9 mm away). Bottom carries the top: COM x = (a/2 + a/2 + d)/2 = a/2 + d/2 on the
    support [0, a] -> margin a/2 - d/2 = 6.9 mm. Tilt: the pair tipping about the table edge
    x = a: s = (a/2 + (a/2 - d)) / (a/2 + 3a/2) = (a - d)/(2a) = 13.8/35.6 = 0.38764; every
    other mechanism is larger (top alone in +x: (a/2-d)/(a/2) = 0.55; pair in y: 0.5; sliding
    0.45) -> margin atan(0.38764) = 21.19 deg >= 8, no side contacts -> stands."""
    d = 4 * MM
    r = analyse(Scene("s", (cube("b", 0, 0, 0), cube("t", d, 0, A))))
    assert r.piece("t").margin_mm == pytest.approx(4.9, abs=1e-9)
    assert r.piece("b").margin_mm == pytest.approx(6.9, abs=1e-9)
    assert r.piece("b").carried == ("t",)
    assert r.piece("t").edge == "+x"
    assert "(with the 1 piece it carries) 6.9 mm inside its support" in r.piece("b").sentence
    assert r.tilt_margin_deg == pytest.approx(deg(13.8 / 35.6), abs=1e-6)
    assert r.tilt_direction == (1.0, 0.0)
    assert r.decision == STANDS and r.permissive_feasible and r.conservative_feasible


def test_block_on_block_outside():
    """d = 12 mm: top margin a/2 - d = 8.9 - 12 = -3.1 mm (outside, towards +x); bottom
    margin a/2 - d/2 = 2.9 mm. The top cube cannot balance: the moment of its weight about
    the support edge x = a is not compensated by any compressive force -> topples."""
    d = 12 * MM
    r = analyse(Scene("s", (cube("b", 0, 0, 0), cube("t", d, 0, A))))
    assert r.piece("t").margin_mm == pytest.approx(-3.1, abs=1e-9)
    assert r.piece("b").margin_mm == pytest.approx(2.9, abs=1e-9)
    assert "3.1 mm outside its support (beyond the edge towards +x)" in r.piece("t").sentence
    assert r.permissive_feasible is False and r.conservative_feasible is False
    assert r.decision == TOPPLES
    assert r.tilt_margin_deg is None


# ---------------------------------------------------------------------------------------
# Cantilever on a pedestal
# ---------------------------------------------------------------------------------------
def _cantilever(com_x: float) -> Scene:
    """I3 bar (3a long in x, centred in y) on a static 30 x 30 x 20 mm pedestal at the origin,
    placed so that its centre of mass is at x = com_x."""
    ped = static_box("ped", 0, 0, 0, 30 * MM, 30 * MM, 20 * MM)
    bar = ScenePiece(
        "bar",
        ((0, 0, 0), (1, 0, 0), (2, 0, 0)),
        "kozo",
        (com_x - 1.5 * A, (30 * MM - A) / 2, 20 * MM),
    )
    return Scene("cantilever", (ped, bar))


def test_cantilever_two_mm_inside_stands():
    """COM 2 mm inside the pedestal edge x = 30 mm: margin +2 mm (the y edges are 8.9 mm away,
    the far x edge 26.7 mm). Tipping towards +x: s = 2 / (a/2) = 2/8.9 = 0.2247 -> 12.66 deg
    (diagonals: 2 sqrt2 / 8.9 = 0.318; sliding 0.45) >= 8 -> stands."""
    r = analyse(_cantilever(28 * MM))
    assert r.piece("bar").margin_mm == pytest.approx(2.0, abs=1e-9)
    assert not r.piece("bar").marginal
    assert r.tilt_margin_deg == pytest.approx(deg(2 / 8.9), abs=1e-6)
    assert r.decision == STANDS


def test_cantilever_two_mm_outside_topples():
    """COM 2 mm beyond the pedestal edge: margin -2 mm; no equilibrium with any contact forces
    -> topples (no side contacts, nothing unsupported)."""
    r = analyse(_cantilever(32 * MM))
    assert r.piece("bar").margin_mm == pytest.approx(-2.0, abs=1e-9)
    assert r.permissive_feasible is False
    assert r.decision == TOPPLES
    assert "no equilibrium" in r.why


# ---------------------------------------------------------------------------------------
# I3 cantilever with a counterweight column (the research prototype's test)
# ---------------------------------------------------------------------------------------
def _counterweight(k: int) -> Scene:
    """Static pedestal spanning x in [-20 mm, a] under an I3 bar x in [0, 3a] at z = 20 mm,
    so only the bar's first cube is supported (edge x = a); a column of k one-cube pieces
    stands on that first cube."""
    y0 = (30 * MM - A) / 2
    ped = static_box("ped", -20 * MM, 0, 0, 20 * MM + A, 30 * MM, 20 * MM)
    bar = ScenePiece("bar", ((0, 0, 0), (1, 0, 0), (2, 0, 0)), "kozo", (0, y0, 20 * MM))
    col = [cube(f"c{j}", 0, y0, 20 * MM + A * (j + 1)) for j in range(k)]
    return Scene("counterweight", (ped, bar, *col))


def test_counterweight_below_threshold_topples():
    """Moments about the edge x = a (unit cube mass m): bar 3m at x = 1.5a overturns by
    3m * 0.5a = 1.5 m a; k cubes at x = 0.5a restore k * 0.5 m a. Balance at k = 3. For
    k = 2 the whole COM is at (4.5 + 1)/5 a = 1.1a: margin -0.1a = -1.78 mm -> topples."""
    r = analyse(_counterweight(2))
    assert r.piece("bar").margin_mm == pytest.approx(-0.1 * A / MM, abs=1e-9)
    assert r.piece("bar").carried == ("c0", "c1")
    assert r.decision == TOPPLES


def test_counterweight_borderline_three():
    """k = 3: COM exactly over the edge (margin 0, marginal). The LP must still find the
    equilibrium with all force on the edge (so never "topples"); the tilt margin is 0 -> the
    decision is undecided."""
    r = analyse(_counterweight(3))
    bar = r.piece("bar")
    assert abs(bar.margin_mm) < 1e-9 and bar.marginal
    assert "on the edge of its support" in bar.sentence
    assert r.permissive_feasible is True
    assert r.decision == UNDECIDED
    assert r.tilt_margin_deg is None or r.tilt_margin_deg == pytest.approx(0.0, abs=1e-5)


def test_counterweight_four_margin_and_tilt():
    """k = 4: COM at (4.5 + 2)/7 a = 13/14 a -> margin a/14 = 1.2714 mm. Tipping of the whole
    assembly about the edge x = a towards +x: sum m (a - x) = 3m(-0.5a) + 4m(0.5a) = 0.5 m a;
    sum m (height above the pedestal top) = 3m(0.5a) + m(1.5 + 2.5 + 3.5 + 4.5)a = 13.5 m a;
    s = 1/27 -> 2.121 deg (column alone: 2/8 = 0.25; sliding 0.45) -> below 8: undecided."""
    r = analyse(_counterweight(4))
    assert r.piece("bar").margin_mm == pytest.approx(A / 14 / MM, abs=1e-9)
    assert r.tilt_margin_deg == pytest.approx(deg(1 / 27), abs=1e-6)
    assert r.tilt_direction == (1.0, 0.0)
    assert r.decision == UNDECIDED and "below 8" in r.why


def test_bridge_shared_load_not_carried():
    """An I3 bar bridging two cubes at x in [0, a] and [2a, 3a] (a gap of a between them).
    The bar rests on both, so neither cube carries it alone: each cube's margin is its own
    a/2 = 8.9 mm. The bar's support hull is [0, 3a] x [0, a] with the COM at (1.5a, a/2):
    margin a/2 = 8.9 mm. (The tilt margin is not asserted: the critical mechanism tips the
    bar with one cube while it slides over the other cube's edge, so friction enters it.)"""
    bar = ScenePiece("bar", ((0, 0, 0), (1, 0, 0), (2, 0, 0)), "kozo", (0, 0, A))
    r = analyse(Scene("s", (cube("l", 0, 0, 0), cube("r", 2 * A, 0, 0), bar)))
    for pid in ("l", "r", "bar"):
        assert r.piece(pid).margin_mm == pytest.approx(8.9, abs=1e-9)
        assert r.piece(pid).carried == ()
    assert r.contacts["side"] == 0


# ---------------------------------------------------------------------------------------
# Tilt margins of simple columns
# ---------------------------------------------------------------------------------------
def test_cube_on_table_tilt_is_atan_mu():
    """A cube on the table: sliding at s = mu (a pyramid edge lies along each load direction),
    tipping at s = (a/2)/(a/2) = 1 (diagonals: sqrt2) -> margin atan(min(mu, 1)) = atan(0.45)
    = 24.23 deg; the support margin is a/2 = 8.9 mm."""
    r = analyse(Scene("s", (cube("c", 0, 0, 0),)))
    assert r.tilt_margin_deg == pytest.approx(deg(MU), abs=1e-6)
    assert r.piece("c").margin_mm == pytest.approx(8.9, abs=1e-9)
    assert r.decision == STANDS


def test_cube_high_friction_tips_at_45():
    """mu = 1.2 > 1: tipping about a bottom edge comes first, s = 1 -> 45 deg (with the cap
    raised to 60 so it does not interfere); with the default 45-degree cap the result is the
    cap, 45 deg."""
    s = Scene("s", (cube("c", 0, 0, 0),), physics=PhysicsConfig(friction=1.2))
    assert analyse(s, max_tilt_deg=60).tilt_margin_deg == pytest.approx(45.0, abs=1e-6)
    assert analyse(s).tilt_margin_deg == pytest.approx(45.0, abs=1e-6)


def test_piece_friction_override_uses_smaller_for_conservative():
    """A cube with its own friction 0.3 on the table (0.45): the conservative LP uses the
    smaller value, so it slides at s = 0.3 -> atan(0.3) = 16.70 deg."""
    r = analyse(Scene("s", (cube("c", 0, 0, 0, friction=0.3),)))
    assert r.tilt_margin_deg == pytest.approx(deg(0.3), abs=1e-6)


def test_two_cube_column_tilt():
    """Two cubes stacked, mu = 0.6: the column tips about a base edge at s = (a/2)/a = 0.5
    (COM height a); the top cube alone at (a/2)/(a/2) = 1; sliding at 0.6; diagonals
    (a/sqrt2)/a = 0.71 -> atan(0.5) = 26.57 deg."""
    s = Scene("s", (cube("b", 0, 0, 0), cube("t", 0, 0, A)), physics=PhysicsConfig(friction=0.6))
    r = analyse(s)
    assert r.tilt_margin_deg == pytest.approx(deg(0.5), abs=1e-6)
    assert r.decision == STANDS


def test_standing_i3_tilt():
    """An I3 standing upright (one piece, 3a tall): tipping at s = (a/2)/(1.5a) = 1/3 < mu
    -> atan(1/3) = 18.43 deg."""
    i3 = ScenePiece("i3", ((0, 0, 0), (0, 0, 1), (0, 0, 2)), "kozo", (0, 0, 0))
    r = analyse(Scene("s", (i3,)))
    assert r.tilt_margin_deg == pytest.approx(deg(1 / 3), abs=1e-6)


# ---------------------------------------------------------------------------------------
# Side contacts, line contacts, unsupported kinds, errors
# ---------------------------------------------------------------------------------------
def test_side_friction_between_walls_is_undecided():
    """A cube hanging between two static walls that touch its +-x faces (no floor): friction
    mu fn per wall can carry m g for a large enough squeeze, so the permissive LP is feasible;
    with stacking contacts only there is no support -> undecided (jamming)."""
    wall = 10 * MM
    walls = (
        static_box("w1", -wall, -5 * MM, 0, wall, A + 10 * MM, 40 * MM),
        static_box("w2", A, -5 * MM, 0, wall, A + 10 * MM, 40 * MM),
    )
    r = analyse(Scene("s", (*walls, cube("c", 0, 0, 10 * MM))))
    assert r.permissive_feasible is True and r.conservative_feasible is False
    assert r.decision == UNDECIDED and "side contacts" in r.why
    assert r.piece("c").margin_mm is None
    assert "no stacking support (held only by side" in r.piece("c").sentence


def test_side_by_side_cubes_undecided_unless_clearance():
    """Two cubes touching side by side on the table: each stands alone (conservative margin
    atan(0.45)) but the side contact makes the rule refuse "stands". With the simulation's
    0.2 mm clearance they no longer touch: stands (tipping s = 8.8/8.9 > mu, so still
    atan(0.45))."""
    s = Scene("s", (cube("a", 0, 0, 0), cube("b", A, 0, 0)))
    r = analyse(s)
    assert r.decision == UNDECIDED and "side contacts" in r.why
    assert r.tilt_margin_deg == pytest.approx(deg(MU), abs=1e-6)
    r = analyse(s, clearance=0.2 * MM)
    assert r.decision == STANDS
    assert r.tilt_margin_deg == pytest.approx(deg(MU), abs=1e-6)


def test_knife_edges_count_only_in_permissive():
    """A cube bridging two cubes placed a apart (x in [0, a] and [2a, 3a]): it rests on their
    edges x = a and x = 2a only (line contacts, no area; each edge is found twice, as
    top/bottom faces and as side faces meeting along the same segment, so 4 line contacts).
    Permissive: two knife edges either
    side of the COM (x = 1.5a) hold it -> feasible. Conservative: no area support ->
    infeasible -> undecided. One knife edge alone (cube on [a, 2a] over a single cube [0, a])
    has the COM 0.5a beyond it -> topples."""
    s = Scene("s", (cube("l", 0, 0, 0), cube("r", 2 * A, 0, 0), cube("t", A, 0, A)))
    r = analyse(s)
    assert r.contacts["line_or_point"] == 4
    assert r.permissive_feasible is True and r.conservative_feasible is False
    assert r.decision == UNDECIDED
    r = analyse(Scene("s", (cube("l", 0, 0, 0), cube("t", A, 0, A))))
    assert r.decision == TOPPLES


def test_unsupported_contact_is_undecided():
    """A cube standing on one edge on the table (turned 30 degrees about y, position
    z = a sin30 = a/2): the only contact is an edge, which the LP does not model, so it must
    not claim "topples" even though no face carries the cube."""
    q = quat_from_euler_deg(0, 30, 0)
    r = analyse(Scene("s", (cube("t", 0, 0, A / 2, orientation=q),)))
    assert r.decision == UNDECIDED
    assert "edge" in r.why and r.contacts["unsupported"]
    assert r.permissive_feasible is False


def test_interpenetration_is_undecided():
    """Top cube sunk 0.1 mm into the lower one: reported, decision undecided."""
    r = analyse(Scene("s", (cube("b", 0, 0, 0), cube("t", 0, 0, A - 0.1 * MM))))
    assert r.decision == UNDECIDED and "interpenetrate" in r.why
    assert r.contacts["penetrations"] == ["'b' and 't' overlap by 0.100 mm"]


def test_floating_piece_topples():
    """A cube 5 mm above the table touches nothing: no force can hold it -> topples."""
    r = analyse(Scene("s", (cube("c", 0, 0, 5 * MM),)))
    assert r.decision == TOPPLES
    assert r.piece("c").sentence == "piece 'c': no stacking support (touches nothing)"


def test_only_static_pieces_stand():
    """No dynamic pieces: nothing can move."""
    r = analyse(Scene("s", (static_box("p", 0, 0, 0, 0.01, 0.01, 0.01),)))
    assert r.decision == STANDS and r.pieces == ()


# ---------------------------------------------------------------------------------------
# Helpers, report form, determinism
# ---------------------------------------------------------------------------------------
def test_signed_distance_and_labels():
    """Unit square (CCW): the centre is 0.5 inside; (1.5, 0.5) is 0.5 outside towards +x;
    (2, 2) is sqrt2 from the corner (1, 1) towards +x+y. A segment support is zero-area:
    a point on it is at distance 0."""
    sq = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=float)
    assert signed_distance(np.array([0.5, 0.5]), sq)[0] == pytest.approx(0.5)
    d, v = signed_distance(np.array([1.5, 0.5]), sq)
    assert d == pytest.approx(-0.5) and direction_label(v) == "+x"
    d, v = signed_distance(np.array([2.0, 2.0]), sq)
    assert d == pytest.approx(-math.sqrt(2)) and direction_label(v) == "+x+y"
    seg = np.array([[0, 0], [1, 0]], dtype=float)
    assert signed_distance(np.array([0.5, 0.0]), seg)[0] == pytest.approx(0.0)


def test_report_json_is_deterministic():
    """The same scene analysed twice gives identical JSON (no timings stored)."""
    s = _counterweight(4)
    a, b = analyse(s).to_json(), analyse(s).to_json()
    assert a == b
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    assert set(a) >= {
        "decision", "why", "tilt_margin_deg", "permissive_feasible", "conservative_feasible",
        "pieces", "contacts",
    }  # fmt: skip


# ---------------------------------------------------------------------------------------
# The 24-body tower
# ---------------------------------------------------------------------------------------
def tower(layers: int = 8) -> Scene:
    """Jenga-style tower of kozo-standard 3I bars: 3 bars per layer on a 3a x 3a footprint,
    even layers along x (at y = 0, a, 2a), odd layers along y (at x = 0, a, 2a)."""
    _, i3 = find_piece("kozo-standard:3I")
    turn = quat_from_euler_deg(0, 0, 90)  # local x -> world y, local y -> world -x
    pieces = []
    for layer in range(layers):
        for j in range(3):
            if layer % 2 == 0:
                pieces.append(ScenePiece(f"L{layer}b{j}", i3.cells, "kozo", (0, j * A, layer * A)))
            else:
                pos = ((j + 1) * A, 0, layer * A)
                pieces.append(ScenePiece(f"L{layer}b{j}", i3.cells, "kozo", pos, turn))
    return Scene("tower", tuple(pieces))


def test_tower_tilt_margin_critical_mechanism():
    """24 bars (mass M each), load +y. Critical mechanism: everything above layer 0 plus the
    outer layer-0 bar (y in [2a, 3a]) rotates about that bar's outer bottom edge (y = 3a,
    z = 0), lifting off the two inner layer-0 bars. Arms: 21 bars at y = 1.5a -> 1.5a each,
    the outer bar 0.5a: 32 M a. Heights: layers 1..7 at (k + 0.5)a, 3 bars each:
    3 * 31.5 = 94.5, plus 0.5 -> 95 M a. s = 32/95 = 0.3368 (< whole tower 1.5/4 = 0.375,
    < sliding 0.45; the same mechanism one even layer up gives 23/53). Exact geometry has
    side contacts between neighbouring bars -> undecided."""
    r = analyse(tower())
    assert r.permissive_feasible and r.conservative_feasible
    assert r.tilt_margin_deg == pytest.approx(deg(32 / 95), abs=1e-5)
    assert r.tilt_direction in ((0.0, 1.0), (0.0, -1.0))
    assert r.decision == UNDECIDED
    assert len(r.pieces) == 24


@pytest.mark.slow
def test_tower_lp_speed():
    """Each LP on the 24-body tower solves in well under 0.2 s (sparse assembly)."""
    s = tower()
    cs = scene_contacts(s)
    bodies = _bodies(s, s.physics)
    cons = [c for c in cs.contacts if c.stacking and c.has_area]
    a, _ = assemble(cs.contacts, bodies, permissive=True)
    assert a.shape[0] == 24 * 6
    t = time.process_time()
    assert feasible(cs.contacts, bodies, permissive=True)
    assert feasible(cons, bodies, permissive=False)
    per_lp = (time.process_time() - t) / 2
    t = time.process_time()
    tilt_margin(cons, bodies, directions=8)
    per_tilt_lp = (time.process_time() - t) / 8
    assert per_lp < 0.2 and per_tilt_lp < 0.2


def test_pooled_points_keep_only_the_hull_corners() -> None:
    """Two face contacts of one pair of bodies, with one normal and one friction: the square's
    4 corners span the wrench cone of all 9 points (a point inside the hull, or on an edge, is
    a convex combination of corners), so only the corners remain, once each."""
    from tablesim.sim.contacts import FaceContact
    from tablesim.sim.statics import _pooled_points

    n = np.array([0.0, 0.0, 1.0])
    sq = np.array([[0, 0, A], [A, 0, A], [A, A, A], [0, A, A]], dtype=float)
    inner = np.array([[A / 2, A / 2, A], [A / 2, 0, A], [0, 0, A], [A / 4, A / 3, A], [A, A, A]])
    contacts = [
        FaceContact(0, 1, 0, 0, n, sq, A * A, "face", False),
        FaceContact(0, 1, 1, 0, n, inner, 0.0, "face", False),
    ]
    bodies = _bodies(Scene("two", (cube("a", 0, 0, 0), cube("b", 0, 0, A))), PhysicsConfig())
    pools = _pooled_points(contacts, bodies, permissive=False)
    assert len(pools) == 1
    pts = pools[0][4]
    assert len(pts) == 4
    assert {tuple(np.round(p / A, 9)) for p in pts} == {tuple(p / A) for p in sq}


def test_a_conservative_equilibrium_is_a_permissive_one() -> None:
    """analyse() skips the permissive LP when the conservative one is feasible; solved anyway,
    it agrees (the permissive LP is a relaxation: more contacts, wider pyramids)."""
    for scene in (tower(), Scene("two", (cube("a", 0, 0, 0), cube("b", 0.3 * A, 0, A)))):
        cs = scene_contacts(scene, clearance=scene.physics.clearance)
        bodies = _bodies(scene, scene.physics)
        cons = [c for c in cs.contacts if c.stacking and c.has_area]
        assert feasible(cons, bodies, permissive=False)
        assert feasible(cs.contacts, bodies, permissive=True)
        assert analyse(scene, clearance=scene.physics.clearance).permissive_feasible is True


# ---------------------------------------------------------------------------------------
# Tilt directions proved without their LP (issue #24)
# ---------------------------------------------------------------------------------------
def _certificate(scene: Scene):  # noqa: ANN202 - tablesim.sim.statics._ParallelCertificate
    from tablesim.sim.statics import _ParallelCertificate, _points

    cs = scene_contacts(scene)
    bodies = _bodies(scene, scene.physics)
    cons = [c for c in cs.contacts if c.stacking and c.has_area]
    return _ParallelCertificate(_points(cons, bodies, permissive=False), bodies, 8)


def test_parallel_force_proof_of_a_two_cube_stack() -> None:
    """Top cube shifted d = 4 mm in +x on a cube on the table; every force along u = z - s d.
    Slid along u onto the table plane, a point at height h moves by s h along d. Load +x: the
    top cube's centre (height 1.5a) lands at a/2 + d + 1.5 a s, its support (height a) spans
    [d + a s, a + a s]: held while s <= (a/2 - d)/(a/2) = 0.551; the pair's centre
    a/2 + d/2 + a s must stay on the table face [0, a]: s <= (a - d)/(2a) = 0.38764, the tilt
    LP's tipping limit (test_block_on_block_inside). Load -x: the pair holds to
    (a + d)/(2a) = 0.612, the top cube to 1, so friction decides: u leaves the inscribed
    pyramid at s = mu = 0.45."""
    d = 4 * MM
    proof = _certificate(Scene("s", (cube("b", 0, 0, 0), cube("t", d, 0, A))))
    tip = (A - d) / (2 * A)
    assert proof(tip - 1e-6, (1.0, 0.0))
    assert not proof(tip + 1e-6, (1.0, 0.0))
    assert proof(MU - 1e-6, (-1.0, 0.0))
    assert not proof(MU + 1e-6, (-1.0, 0.0))


def test_support_distance_on_plain_floats_matches_numpy_to_the_bit() -> None:
    """The per-piece margin's distance on plain floats (``_distance_to_edge_rows``): on the unit
    square (CCW) the centre is 0.5 inside (nearest edge: the first of the four at 0.5, y = 0,
    outward -y), (1.5, 0.5) is 0.5 outside towards +x, (2, 2) is sqrt 2 from the corner (1, 1)
    towards +x+y; and on random polygons and points it gives the numpy version's bits."""
    from tablesim.sim.statics import (
        _distance_to_edge_rows,
        _distance_to_edges,
        _edges,
        convex_hull_2d,
    )

    def rows(hull: np.ndarray) -> tuple:
        return tuple(tuple(r) for r in np.column_stack(list(_edges(hull))).tolist())

    sq = rows(np.array([[0, 0], [1, 0], [1, 1], [0, 1]], dtype=float))
    assert _distance_to_edge_rows(0.5, 0.5, sq) == (0.5, (0.0, -1.0))
    assert _distance_to_edge_rows(1.5, 0.5, sq) == (-0.5, (1.0, 0.0))
    d, v = _distance_to_edge_rows(2.0, 2.0, sq)
    assert d == pytest.approx(-math.sqrt(2)) and v == pytest.approx((0.5**0.5, 0.5**0.5))
    rng = np.random.default_rng(7)
    for k in range(300):
        hull = convex_hull_2d(np.round(rng.normal(size=(8, 2)), 1 + k % 3))
        if len(hull) < 3:
            continue
        for q in (rng.normal(size=2), hull[0], (hull[0] + hull[1]) / 2, hull.mean(axis=0)):
            d1, v1 = _distance_to_edges(q, _edges(hull))
            d2, v2 = _distance_to_edge_rows(float(q[0]), float(q[1]), rows(hull))
            assert (d1.hex(), [float(x).hex() for x in v1]) == (d2.hex(), [x.hex() for x in v2])


def test_a_refused_thread_count_falls_back_to_the_schedulers() -> None:
    """HiGHS sizes one thread scheduler per process at its first run. When another HiGHS user
    started it with 2 threads, the analysis (which asks for 1) must still conclude, with the
    same report to the bit as in a process where it asked first."""
    import subprocess
    import sys

    code = """
import numpy as np
from highspy import _core as hs
import tablesim.sim.statics as S
from tablesim.sim.scene import load_scene, shipped_scene_path
s = load_scene(shipped_scene_path("kozo-tower"))
def exact():
    r = S.analyse(s, clearance=s.physics.clearance)
    return r.decision, r.tilt_margin_deg.hex(), [p.margin_mm.hex() for p in r.pieces]
first = exact()
hs._Highs.resetGlobalScheduler(True)
other = hs._Highs()
other.setOptionValue("output_flag", False)
other.setOptionValue("threads", 2)
other.passModel(1, 0, 0, 1, 1, 0.0, np.ones(1), np.zeros(1), np.ones(1), np.zeros(0), np.zeros(0),
                np.zeros(1, dtype=np.int32), np.zeros(0, dtype=np.int32), np.zeros(0),
                np.zeros(1, dtype=np.int32))
assert other.run() == hs.HighsStatus.kOk
S.clear_caches()
second = exact()
print(first == second, first[0], S._THREADS)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["True", "stands", "[0]"]
