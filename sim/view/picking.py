"""Picking and screen outlines for the interactive table: the item a pointer ray hits
(:func:`pick`), and how much of the items' screen outlines a text panel would hide
(:func:`_screen_hulls`, :func:`_covered`: where the key help goes)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from tablesim.sim.view.layout import Floats, Item, TableLayout


def _hit_triangles(origin: np.ndarray, direction: np.ndarray, tri: np.ndarray) -> float:
    """Distance along the ray to the nearest triangle of ``tri`` (F, 3, 3) hit, else inf
    (Moller-Trumbore, both faces)."""
    if len(tri) == 0:
        return math.inf
    v0, e1, e2 = tri[:, 0], tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]
    p = np.cross(direction, e2)
    det = np.einsum("ij,ij->i", e1, p)
    ok = np.abs(det) > 1e-15
    inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    s = origin - v0
    u = np.einsum("ij,ij->i", s, p) * inv
    q = np.cross(s, e1)
    v = (q @ direction) * inv
    t = np.einsum("ij,ij->i", e2, q) * inv
    hit = ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 0)
    return float(t[hit].min()) if hit.any() else math.inf


def _box(it: Item) -> tuple[np.ndarray, np.ndarray]:
    """The world bounding box (lo, hi) (3,) m of an item's triangles (computed once: items
    are frozen)."""
    cached = it.__dict__.get("_pick_box")
    if cached is None:
        pts = it.world_triangles().reshape(-1, 3)
        cached = (pts.min(axis=0), pts.max(axis=0))
        it.__dict__["_pick_box"] = cached
    return cached


def pick(
    layout: TableLayout, origin: Floats, direction: Floats, skip: str = "ghost"
) -> tuple[str | None, tuple[float, float, float] | None]:
    """The first item the ray hits (ids starting with ``skip`` are not picked) and the point
    hit; with no item, (None, the point on the table plane z = 0 or None).

    The ray is tested against every item's bounding box at once (slab test, boxes cached per
    item); only the items whose box it enters are tested triangle by triangle, nearest box
    first, until a box starts past the nearest hit (a pointer move costs about 0.1 ms however
    many pieces lie on the table). Of two items hit at the same distance, the first in the
    layout is picked."""
    o, d = np.asarray(origin, float), np.asarray(direction, float)
    items = [it for it in layout.items if not (skip and it.id.startswith(skip))]
    best, best_t = None, math.inf
    if items:
        boxes = [_box(it) for it in items]
        lo = np.array([b[0] for b in boxes])
        hi = np.array([b[1] for b in boxes])
        with np.errstate(divide="ignore", invalid="ignore"):
            t1, t2 = (lo - o) / d, (hi - o) / d
        tmin = np.nanmax(np.minimum(t1, t2), axis=1)
        tmax = np.nanmin(np.maximum(t1, t2), axis=1)
        entered = np.nonzero(tmax >= np.maximum(tmin, 0.0))[0]
        best_k = -1
        for k in entered[np.argsort(tmin[entered], kind="stable")]:
            if tmin[k] > best_t:
                break
            t = _hit_triangles(o, d, items[k].world_triangles())
            if t < best_t or (t == best_t and k < best_k):
                best, best_t, best_k = items[k].id, t, int(k)
    if best is not None:
        return best, tuple(float(v) for v in o + best_t * d)  # type: ignore[return-value]
    if d[2] < -1e-12:
        t = -o[2] / d[2]
        return None, tuple(float(v) for v in o + t * d)  # type: ignore[return-value]
    return None, None


_BOX_CORNERS = np.array([[i, j, k] for i in (0, 1) for j in (0, 1) for k in (0, 1)])


def _screen_hulls(items: Sequence[Item], view: Any, size: tuple[int, int]) -> list[np.ndarray]:
    """Per item, the convex hull (K, 2) in picture pixels of its bounding box projected (the
    corners of its mesh's own bounds, posed): a board's or a tile's outline on the screen, a
    polycube's a little larger. Items partly behind the camera are left out."""
    if not items:
        return []
    local = np.stack([np.asarray(it.mesh.bounds, float) for it in items])  # (N, 2, 3)
    corners = local[:, _BOX_CORNERS, [0, 1, 2]]  # (N, 8, 3)
    rot = np.stack([it.rotation() for it in items])
    pos = np.stack([np.asarray(it.position, float) for it in items])
    world = np.einsum("nij,nkj->nki", rot, corners) + pos[:, None, :]
    px = view.project(world.reshape(-1, 3), size).reshape(-1, 8, 2)
    return [_hull(p) for p in px if np.isfinite(p).all()]


def _hull(points: np.ndarray) -> np.ndarray:
    """The convex hull of 2-D ``points`` (N, 2), counter-clockwise (Andrew's monotone chain)."""
    pts = sorted({(float(x), float(y)) for x, y in points})
    if len(pts) < 3:
        return np.asarray(pts, float).reshape(-1, 2)

    def chain(seq: list[tuple[float, float]]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for p in seq:
            while (
                len(out) >= 2
                and (
                    (out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                    - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])
                )
                <= 0
            ):
                out.pop()
            out.append(p)
        return out

    lower, upper = chain(pts), chain(pts[::-1])
    return np.asarray(lower[:-1] + upper[:-1], float)


def _clipped_area(poly: np.ndarray, box: tuple[float, float, float, float]) -> float:
    """Area of convex ``poly`` (K, 2) inside the rectangle ``box`` (x0, x1, y0, y1)
    (Sutherland-Hodgman clipping, then the shoelace formula)."""
    x0, x1, y0, y1 = box
    pts = [tuple(p) for p in poly]
    for axis, bound, keep_low in ((0, x0, False), (0, x1, True), (1, y0, False), (1, y1, True)):
        if not pts:
            return 0.0
        out = []
        for k, cur in enumerate(pts):
            prev = pts[k - 1]
            cur_in = cur[axis] <= bound if keep_low else cur[axis] >= bound
            prev_in = prev[axis] <= bound if keep_low else prev[axis] >= bound
            if cur_in != prev_in:
                t = (bound - prev[axis]) / (cur[axis] - prev[axis])
                out.append(tuple(prev[i] + t * (cur[i] - prev[i]) for i in (0, 1)))
            if cur_in:
                out.append(cur)
        pts = out
    if len(pts) < 3:
        return 0.0
    a = np.asarray(pts, float)
    return float(
        abs(np.dot(a[:, 0], np.roll(a[:, 1], -1)) - np.dot(a[:, 1], np.roll(a[:, 0], -1))) / 2
    )


def _covered(box: tuple[float, float, float, float], hulls: Sequence[np.ndarray]) -> float:
    """Screen area (pixels) of the items' outlines ``hulls`` under ``box``, summed."""
    x0, x1, y0, y1 = box
    return sum(
        _clipped_area(h, box)
        for h in hulls
        if len(h) >= 3
        and h[:, 0].max() > x0 and h[:, 0].min() < x1 and h[:, 1].max() > y0 and h[:, 1].min() < y1
    )  # fmt: skip
