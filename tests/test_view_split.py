"""The view's edge splitting (``panda_nodes._split_to``) is its own, not the installed trimesh's.

trimesh 4.x's ``subdivide_to_size`` split every face with a long edge into four and returned a
triangle soup with T-junctions where a split face met an unsplit one; 5.0 bisects each long
edge once at a shared midpoint. The golden frame ``katamino`` (its board and mats are split)
differed under 4.x on those edges (1.04 % of the pixels off by more than 40), which is why
pyproject once asked for trimesh >= 5.0. These tests hold whatever trimesh is installed, or
none.
"""

from __future__ import annotations

import sys
from collections import Counter

import numpy as np
import pytest

from tablesim.sim.view.panda_nodes import _split_to


def _box(size: tuple[float, float, float]) -> tuple[np.ndarray, np.ndarray]:
    """A closed box [0, size]: 8 corners, 12 triangles wound counter-clockwise from outside."""
    sx, sy, sz = size
    v = np.array([[x, y, z] for z in (0, sz) for y in (0, sy) for x in (0, sx)], dtype=float)
    quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    f = np.array([t for a, b, c, d in quads for t in ((a, b, c), (a, c, d))], dtype=np.int64)
    return v, f


def _signed_volume(v: np.ndarray, f: np.ndarray) -> float:
    t = v[f]
    return float(np.einsum("ij,ij->i", t[:, 0], np.cross(t[:, 1], t[:, 2])).sum() / 6)


def test_split_needs_no_trimesh(monkeypatch: pytest.MonkeyPatch) -> None:
    """With trimesh unimportable the split still runs: one right triangle with legs of 2 and
    ``max_edge`` 1.5 (edges 2, 2.83, 2 all too long) becomes the regular four with legs of 1
    (hypotenuse 1.41 <= 1.5), by hand."""
    monkeypatch.setitem(sys.modules, "trimesh", None)
    monkeypatch.setitem(sys.modules, "trimesh.remesh", None)
    v = np.array([[0, 0, 0], [2, 0, 0], [0, 2, 0]], dtype=float)
    out_v, out_f = _split_to(v, np.array([[0, 1, 2]]), 1.5)
    tris = sorted(tuple(map(tuple, out_v[t])) for t in out_f)
    expected = sorted([
        ((0, 0, 0), (1, 0, 0), (0, 1, 0)), ((1, 0, 0), (2, 0, 0), (1, 1, 0)),
        ((0, 1, 0), (1, 1, 0), (0, 2, 0)), ((1, 0, 0), (1, 1, 0), (0, 1, 0)),
    ])  # fmt: skip
    assert tris == expected


@pytest.mark.parametrize("size", [(0.1, 0.02, 0.01), (0.25, 0.25, 0.004), (0.031, 0.029, 0.5)])
def test_a_closed_surface_stays_closed(size: tuple[float, float, float]) -> None:
    """A box whose sides need different numbers of rounds (the textured board and mats are such
    boxes) comes out with every edge <= max_edge, the same volume (to rounding: 1e-12
    relative), and closed: every edge, taken by its end points' positions, belongs to exactly two
    triangles, once in each direction. Under trimesh 4.x's split a side split four ways met its
    unsplit neighbour at a T-junction: an edge then had one triangle on one side."""
    max_edge = 0.03
    v, f = _box(size)
    out_v, out_f = _split_to(v, f, max_edge)
    tri = out_v[out_f]
    assert np.linalg.norm(tri - np.roll(tri, 1, axis=1), axis=2).max() <= max_edge
    assert _signed_volume(out_v, out_f) == pytest.approx(np.prod(size), rel=1e-12)
    key = [tuple(np.round(p, 12)) for p in out_v]
    directed = Counter((key[t[a]], key[t[b]]) for t in out_f for a, b in ((0, 1), (1, 2), (2, 0)))
    assert set(directed.values()) == {1}  # no edge twice in one direction
    assert all((q, p) in directed for p, q in directed)  # a triangle on the other side


def test_a_short_mesh_is_left_as_it_is() -> None:
    v, f = _box((0.02, 0.02, 0.02))
    out_v, out_f = _split_to(v, f, 0.03)
    assert np.array_equal(out_v, v) and np.array_equal(out_f, f)
