"""Geometric contact detection (sim/contacts.py).

Scenes use Kozo cubes, edge a = 17.8 mm (PhysicsConfig.kozo_cube). A one-cell piece at
``position`` p occupies [p, p + a]^3 (piece frame: cell (0,0,0) spans [0, a]^3). Every expected
value below comes from that geometry by hand.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tablesim.sim.config import MM
from tablesim.sim.contacts import (
    TABLE,
    ContactTolerances,
    clip_to_rectangle,
    obb_separation,
    polygon_area,
    polygon_width,
    scene_contacts,
)
from tablesim.sim.model import PosedBox, Scene, ScenePiece, quat_from_euler_deg, quat_to_matrix

A = 17.8 * MM


def cube(pid: str, x: float, y: float, z: float, q=(0.0, 0.0, 0.0, 1.0)) -> ScenePiece:
    return ScenePiece(pid, ((0, 0, 0),), "kozo", (x, y, z), q)


def centred_cube(pid: str, centre, q) -> ScenePiece:
    """A cube with orientation q whose centre is at ``centre`` (position = centre - R c_local)."""
    r = quat_to_matrix(q)
    pos = np.asarray(centre, dtype=float) - r @ np.full(3, A / 2)
    return cube(pid, *pos, q=q)


def pair(scene: Scene, a: str, b: str):
    ids = [p.id for p in scene.pieces]
    ia, ib = ids.index(a), ids.index(b)
    cs = scene_contacts(scene)
    return cs, [c for c in cs.contacts if {c.body_a, c.body_b} == {ia, ib}]


def as_set(points, nd: int = 6) -> set[tuple[float, ...]]:
    return {tuple(round(float(v), nd) for v in p) for p in np.asarray(points) / MM}


def test_stacked_cubes_four_corner_points():
    """Cube t on cube b, aligned: one stacking contact b -> t, normal +z, 4 points at the
    corners of the shared square z = a, x, y in {0, a}; area a^2. Plus b on the table."""
    s = Scene("s", (cube("b", 0, 0, 0), cube("t", 0, 0, A)))
    cs, cts = pair(s, "b", "t")
    assert len(cts) == 1
    c = cts[0]
    assert (c.body_a, c.body_b) == (0, 1)
    assert np.allclose(c.normal, [0, 0, 1])
    assert not c.side and c.kind == "face"
    assert as_set(c.points) == {(x, y, 17.8) for x in (0.0, 17.8) for y in (0.0, 17.8)}
    assert c.area == pytest.approx(A * A)
    table = [c for c in cs.contacts if c.body_a == TABLE]
    assert len(table) == 1 and table[0].body_b == 0
    assert as_set(table[0].points) == {(x, y, 0.0) for x in (0.0, 17.8) for y in (0.0, 17.8)}
    assert not cs.unsupported and not cs.penetrations


def test_offset_cube_overlap_rectangle():
    """Top cube shifted by (5, 3) mm: overlap x in [5, 17.8], y in [3, 17.8] at z = a, so the
    points are those four corners and the area is 12.8 * 14.8 = 189.44 mm^2."""
    s = Scene("s", (cube("b", 0, 0, 0), cube("t", 5 * MM, 3 * MM, A)))
    _, cts = pair(s, "b", "t")
    assert len(cts) == 1
    assert as_set(cts[0].points) == {(x, y, 17.8) for x in (5.0, 17.8) for y in (3.0, 17.8)}
    assert cts[0].area / MM**2 == pytest.approx(12.8 * 14.8)


def test_side_by_side_cubes_side_contact():
    """Cubes at x in [0, a] and [a, 2a] on the table: their shared face x = a is a side contact
    (normal +x, from the lower index 'b' to 't'), points y, z in {0, a}."""
    s = Scene("s", (cube("b", 0, 0, 0), cube("t", A, 0, 0)))
    cs, cts = pair(s, "b", "t")
    assert len(cts) == 1
    c = cts[0]
    assert c.side and c.kind == "face"
    assert np.allclose(c.normal, [1, 0, 0])
    assert (cs.name(c.body_a), cs.name(c.body_b)) == ("b", "t")
    assert as_set(c.points) == {(17.8, y, z) for y in (0.0, 17.8) for z in (0.0, 17.8)}
    assert cs.summary()["side"] == 1 and cs.summary()["stacking"] == 2


def test_rotated_45_degrees_octagon():
    """A cube turned 45 degrees about z, centred over a cube: the overlap of the square
    |x|, |y| <= a/2 and the square |x| + |y| <= a/sqrt(2) (about the common axis) is a regular
    octagon with vertices (+-a/2, +-(a/sqrt2 - a/2)) and (+-(a/sqrt2 - a/2), +-a/2) and area
    a^2 - 4 * (a (1 - 1/sqrt2))^2 / 2 = 2 (sqrt2 - 1) a^2."""
    q = quat_from_euler_deg(0, 0, 45)
    s = Scene("s", (cube("b", 0, 0, 0), centred_cube("t", (A / 2, A / 2, 1.5 * A), q)))
    cs, cts = pair(s, "b", "t")
    assert len(cts) == 1 and not cs.unsupported
    c = cts[0]
    assert c.kind == "face" and np.allclose(c.normal, [0, 0, 1])
    assert c.area == pytest.approx(2 * (math.sqrt(2) - 1) * A * A, rel=1e-9)
    h, k = A / 2, A / math.sqrt(2) - A / 2
    expected = []
    for sx in (1, -1):
        for sy in (1, -1):
            expected += [(h + sx * h, h + sy * k, A), (h + sx * k, h + sy * h, A)]
    assert len(c.points) == 8
    assert as_set(c.points, 5) == as_set(expected, 5)


def test_diagonal_neighbours_line_contact():
    """Cubes at [0, a]^2 and [a, 2a]^2 on the table share only the vertical edge x = y = a:
    flush faces meeting along a segment -> two "line" side contacts (normals +x and +y) with
    end points (a, a, 0) and (a, a, a); not an unsupported contact."""
    s = Scene("s", (cube("b", 0, 0, 0), cube("t", A, A, 0)))
    cs, cts = pair(s, "b", "t")
    assert not cs.unsupported
    assert sorted(tuple(np.round(c.normal, 9)) for c in cts) == [(0, 1, 0), (1, 0, 0)]
    for c in cts:
        assert c.kind == "line" and c.side and c.area == 0
        assert as_set(c.points) == {(17.8, 17.8, 0.0), (17.8, 17.8, 17.8)}


def test_tilted_cube_edge_on_cube_is_unsupported():
    """A cube turned 30 degrees about y rests on a lower cube with one edge: local corner
    (a, y, 0) maps to (a cos30, y, -a sin30) = (.., .., -a/2), the lowest edge. Placing the
    piece at (a/2 - a cos30, 0, a + a/2) puts that edge on the top face z = a at x = a/2.
    No faces are flush -> one unsupported contact, no face contact between the two."""
    q = quat_from_euler_deg(0, 30, 0)
    c30 = math.cos(math.radians(30))
    s = Scene("s", (cube("b", 0, 0, 0), cube("t", A / 2 - A * c30, 0, 1.5 * A, q)))
    cs, cts = pair(s, "b", "t")
    assert cts == []
    assert len(cs.unsupported) == 1
    u = cs.unsupported[0]
    assert {cs.name(u.body_a), cs.name(u.body_b)} == {"b", "t"}
    assert abs(u.distance) < 1e-9
    assert not cs.penetrations


def test_tilted_cube_edge_on_table_is_unsupported():
    """The same 30-degree cube standing on its edge on the table (position z = a sin30 = a/2):
    an edge on the table, reported as unsupported with that reason."""
    q = quat_from_euler_deg(0, 30, 0)
    s = Scene("s", (cube("t", 0, 0, A / 2, q),))
    cs = scene_contacts(s)
    assert cs.contacts == ()
    assert len(cs.unsupported) == 1
    assert cs.unsupported[0].body_a == TABLE and "edge" in cs.unsupported[0].reason


def test_gap_above_tolerance_no_contact():
    """Top cube 0.05 mm above the lower one (> 0.02 mm tolerance): no contact of any kind
    between them; 0.01 mm (< tolerance) is still a contact."""
    s = Scene("s", (cube("b", 0, 0, 0), cube("t", 0, 0, A + 0.05 * MM)))
    cs, cts = pair(s, "b", "t")
    assert cts == [] and not cs.unsupported and not cs.penetrations
    s = Scene("s", (cube("b", 0, 0, 0), cube("t", 0, 0, A + 0.01 * MM)))
    _, cts = pair(s, "b", "t")
    assert len(cts) == 1 and cts[0].kind == "face"


def test_interpenetration_reported():
    """Top cube sunk 0.1 mm into the lower one: penetration depth 0.1 mm (the smallest overlap
    over the separating axes is along z); a cube sunk 0.5 mm into the table likewise."""
    s = Scene("s", (cube("b", 0, 0, 0), cube("t", 0, 0, A - 0.1 * MM)))
    cs = scene_contacts(s)
    assert len(cs.penetrations) == 1
    assert cs.penetrations[0].depth == pytest.approx(0.1 * MM)
    assert "0.100 mm" in cs.describe_penetrations()[0]
    cs = scene_contacts(Scene("s", (cube("c", 0, 0, -0.5 * MM),)))
    assert len(cs.penetrations) == 1 and cs.penetrations[0].body_a == TABLE
    assert cs.penetrations[0].depth == pytest.approx(0.5 * MM)


def test_static_pairs_skipped_and_static_on_table():
    """Two static boxes touching each other and the table: nothing to report (neither moves)."""
    w1 = ScenePiece("w1", ((0, 0, 0),), None, (0, 0, 0), static=True, box=(0.01, 0.01, 0.01))
    w2 = ScenePiece("w2", ((0, 0, 0),), None, (0.01, 0, 0), static=True, box=(0.01, 0.01, 0.01))
    cs = scene_contacts(Scene("s", (w1, w2)))
    assert cs.contacts == () and cs.unsupported == () and cs.penetrations == ()


def test_clearance_removes_side_contacts_only():
    """With clearance 0.2 mm the horizontal half extents shrink by 0.1 mm: side-by-side cubes
    end 0.2 mm apart (> tolerance, no side contact) while the stacked pair stays flush, its
    contact square shrinking to [0.1, 17.7]^2 mm."""
    s = Scene("s", (cube("b", 0, 0, 0), cube("n", A, 0, 0), cube("t", 0, 0, A)))
    cs = scene_contacts(s, clearance=0.2 * MM)
    assert not any(c.side for c in cs.contacts)
    bt = [c for c in cs.contacts if (c.body_a, c.body_b) == (0, 2)]
    assert len(bt) == 1
    assert as_set(bt[0].points) == {(x, y, 17.8) for x in (0.1, 17.7) for y in (0.1, 17.7)}


def test_obb_separation_and_clipping_helpers():
    """Axis-aligned unit boxes 0.3 apart along x: separation 0.3. A box turned 45 degrees
    about z at distance d between centres along x: its half-width along x is sqrt2 / 2, so the
    separation is d - 0.5 - sqrt2/2. Clipping the square [-1,1]^2 to |x|,|y| <= 0.5 leaves
    area 1."""
    eye = np.eye(3)
    h = np.full(3, 0.5)
    a = PosedBox(np.zeros(3), eye, h)
    assert obb_separation(a, PosedBox(np.array([1.3, 0, 0]), eye, h)) == pytest.approx(0.3)
    r = quat_to_matrix(quat_from_euler_deg(0, 0, 45))
    d = 2.0
    assert obb_separation(a, PosedBox(np.array([d, 0, 0]), r, h)) == pytest.approx(
        d - 0.5 - math.sqrt(2) / 2
    )
    sq = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], dtype=float)
    assert polygon_area(clip_to_rectangle(sq, 0.5, 0.5)) == pytest.approx(1.0)
    assert len(clip_to_rectangle(sq + 5, 0.5, 0.5)) == 0


def test_deterministic_and_tolerances():
    """Two runs give identical JSON; a looser gap tolerance (0.1 mm) turns the 0.05 mm gap
    into a contact."""
    s = Scene("s", (cube("b", 0, 0, 0), cube("t", 0, 0, A + 0.05 * MM), cube("n", A, 0, 0)))
    assert scene_contacts(s).to_json() == scene_contacts(s).to_json()
    cs = scene_contacts(s, tolerances=ContactTolerances(gap=0.1 * MM))
    assert any((c.body_a, c.body_b) == (0, 1) for c in cs.contacts)


def test_clipping_and_width_by_hand() -> None:
    """Clipping to |x|, |y| <= 1: the triangles (0,0), (4,0), (0,3) and (0,0), (3,0), (0,3)
    hold the quarter square [0,1]^2 (their hypotenuses 3x + 4y = 12 and x + y = 3 pass outside
    it), area 1; the triangle (-1,-1), (2,-1), (-1,2) is cut by its hypotenuse x + y = 1 from
    (1, 0) to (0, 1): a pentagon of area 4 - 1/2. Widths: a triangle's is its smallest
    altitude, the one onto the longest side: 2 * 6 / 5 = 12/5 for the 3-4-5 one; a 2 x 1
    rectangle's is 1, a unit square's turned 45 degrees 1, a segment's 0."""
    tri = np.array([[0, 0], [4, 0], [0, 3]], dtype=float)
    clip = clip_to_rectangle(tri, 1.0, 1.0)
    assert sorted(map(tuple, clip.tolist())) == [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0)]
    assert polygon_area(clip) == pytest.approx(1.0)
    assert polygon_width(tri) == pytest.approx(12 / 5)
    assert polygon_width(np.array([[0, 0], [2, 0], [2, 1], [0, 1]], dtype=float)) == pytest.approx(
        1.0
    )
    r = math.sqrt(0.5)
    turned = np.array([[r, 0], [0, r], [-r, 0], [0, -r]], dtype=float)
    assert polygon_width(turned) == pytest.approx(1.0)
    assert polygon_width(np.array([[0, 0], [1, 0]], dtype=float)) == 0.0
    half = clip_to_rectangle(np.array([[0, 0], [3, 0], [0, 3]], dtype=float), 1.0, 1.0)
    assert polygon_area(half) == pytest.approx(1.0)
    cut = clip_to_rectangle(np.array([[-1, -1], [2, -1], [-1, 2]], dtype=float), 1.0, 1.0)
    # the line x + y = 1 cuts the square [-1,1]^2 from (1, 0) to (0, 1): area 4 - 1/2
    assert polygon_area(cut) == pytest.approx(3.5)
    assert sorted(map(tuple, np.round(cut, 12).tolist())) == [
        (-1.0, -1.0),
        (-1.0, 1.0),
        (0.0, 1.0),
        (1.0, -1.0),
        (1.0, 0.0),
    ]
