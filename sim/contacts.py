"""Geometric contact detection between the posed boxes of a scene (pure numpy).

Every piece is a few oriented boxes (:meth:`tablesim.sim.model.ScenePiece.world_boxes`). Two boxes of
different pieces are in **face contact** when a face of one and a face of the other are
anti-parallel (within ``angle_deg``) and coplanar (every vertex of the overlap within ``gap``)
and the two face rectangles overlap: the overlap polygon (the second face clipped against the
first, Sutherland-Hodgman) gives the contact points, one per vertex. A box touches the table
(plane ``z = 0``) when its downward face lies on the plane.

Kinds of face contact:

* ``"face"``: the overlap polygon has a width above ``gap``: a real area contact.
* ``"line"`` / ``"point"``: flush faces whose rectangles only meet along a segment or at a
  point (diagonal neighbours on a grid, a cube set exactly one cell past an edge). Their points
  are the segment's ends (or the point). They are genuine contacts of aligned boxes; the
  statics check uses them only where extra contacts are the safe side.

Each contact has a unit ``normal`` pointing from ``body_a`` into ``body_b``: the force that
``body_a`` exerts on ``body_b`` is ``fn * normal + friction``. When the normal is not
horizontal ``body_a`` is the lower body (the normal points up); for a horizontal normal
``body_a`` is the body with the smaller index. A contact is a **side** contact when its normal
is more than ``side_angle_deg`` from vertical, otherwise a **stacking** contact.

Two things are reported rather than modelled:

* **unsupported contacts**: boxes of different pieces whose separating-axis distance is within
  ``gap`` but that have no flush faces (an edge or a vertex on a face, a tilted block). A force
  can pass there, so a face-contact model that leaves it out can call a scene infeasible that
  is not: the caller must not settle a verdict from the LP alone.
* **interpenetration**: boxes overlapping by more than ``penetration`` (separating-axis depth).

The separating-axis test (15 axes) gives the largest separation over the axes, a lower bound of
the true distance (exact when a face axis separates; at most sqrt(3) times smaller for
edge/vertex configurations), so "within ``gap``" can include pairs up to about 1.7 x ``gap``
apart: harmless for a tolerance.

Bodies are numbered by the scene's piece order; the table is :data:`TABLE` (-1). Static-static
pairs and static pieces on the table are skipped (neither can move). Output order is
deterministic: table contacts by body then box, then box pairs in (body, box) order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tablesim.sim.config import MM, PhysicsConfig
from tablesim.sim.model import PosedBox, Scene, ScenePiece

TABLE = -1
"""Body index of the table plane z = 0."""
TABLE_NAME = "<table>"
"""Name of the table in reports (angle brackets keep it apart from piece ids)."""

_DEDUP = 1e-9  # metres: vertices closer than this are the same vertex
_HORIZONTAL = 1e-9  # |n_z| below this: the normal is horizontal (tie-break by body index)


@dataclass(frozen=True)
class ContactTolerances:
    """Tolerances of the contact test (metres and degrees).

    ``gap``: faces closer than this (either way) count as touching; also the separating-axis
    distance under which two boxes "touch". ``angle_deg``: faces within this of anti-parallel
    can be flush. ``penetration``: an overlap deeper than this is an interpenetration error.
    ``side_angle_deg``: a contact whose normal is more than this from vertical is a side contact.
    """

    gap: float = 0.02 * MM
    angle_deg: float = 0.5
    penetration: float = 0.02 * MM
    side_angle_deg: float = 30.0


@dataclass(frozen=True)
class FaceContact:
    """Flush faces of two bodies. ``points`` (k, 3) lie in ``body_a``'s face plane; ``normal``
    points from ``body_a`` into ``body_b``. ``box_a``/``box_b`` index the bodies' box lists
    (-1 for the table). ``kind`` is ``"face"``, ``"line"`` or ``"point"``; ``area`` in m^2."""

    body_a: int
    body_b: int
    box_a: int
    box_b: int
    normal: np.ndarray
    points: np.ndarray
    area: float
    kind: str
    side: bool

    @property
    def stacking(self) -> bool:
        """True for a stacking (near-vertical normal) contact."""
        return not self.side

    @property
    def has_area(self) -> bool:
        """True for an area contact (``kind == "face"``)."""
        return self.kind == "face"


@dataclass(frozen=True)
class UnsupportedContact:
    """Boxes within ``gap`` of each other without flush faces (edge, vertex or tilted contact).
    ``distance`` is the separating-axis separation (m, may be slightly negative)."""

    body_a: int
    body_b: int
    box_a: int
    box_b: int
    distance: float
    reason: str


@dataclass(frozen=True)
class Penetration:
    """Boxes overlapping by ``depth`` metres (> the tolerance)."""

    body_a: int
    body_b: int
    box_a: int
    box_b: int
    depth: float


@dataclass(frozen=True)
class ContactSet:
    """Everything the contact test found. ``names`` are the bodies' ids in index order."""

    names: tuple[str, ...]
    contacts: tuple[FaceContact, ...]
    unsupported: tuple[UnsupportedContact, ...] = ()
    penetrations: tuple[Penetration, ...] = ()
    tolerances: ContactTolerances = field(default_factory=ContactTolerances)

    def name(self, body: int) -> str:
        """Id of a body index (``<table>`` for the table)."""
        return TABLE_NAME if body == TABLE else self.names[body]

    @property
    def side_contacts(self) -> tuple[FaceContact, ...]:
        """The side contacts (any kind)."""
        return tuple(c for c in self.contacts if c.side)

    def describe_unsupported(self) -> list[str]:
        """One sentence per unsupported contact."""
        return [
            f"'{self.name(u.body_a)}' and '{self.name(u.body_b)}' touch without flush faces "
            f"({u.reason})"
            for u in self.unsupported
        ]

    def describe_penetrations(self) -> list[str]:
        """One sentence per interpenetration."""
        return [
            f"'{self.name(p.body_a)}' and '{self.name(p.body_b)}' overlap by {p.depth / MM:.3f} mm"
            for p in self.penetrations
        ]

    def summary(self) -> dict[str, Any]:
        """Counts and sentences (plain data, deterministic)."""
        cs = self.contacts
        return {
            "contacts": len(cs),
            "points": int(sum(len(c.points) for c in cs)),
            "stacking": sum(1 for c in cs if c.stacking),
            "side": sum(1 for c in cs if c.side),
            "area": sum(1 for c in cs if c.has_area),
            "line_or_point": sum(1 for c in cs if not c.has_area),
            "side_pairs": sorted(
                {(self.name(c.body_a), self.name(c.body_b)) for c in cs if c.side}
            ),
            "unsupported": self.describe_unsupported(),
            "penetrations": self.describe_penetrations(),
        }

    def to_json(self) -> dict[str, Any]:
        """Full plain-dict form (points in metres)."""
        return {
            "contacts": [
                {
                    "a": self.name(c.body_a),
                    "b": self.name(c.body_b),
                    "box_a": c.box_a,
                    "box_b": c.box_b,
                    "normal": [float(v) for v in c.normal],
                    "points": [[float(v) for v in p] for p in c.points],
                    "area": float(c.area),
                    "kind": c.kind,
                    "side": c.side,
                }
                for c in self.contacts
            ],
            "unsupported": self.describe_unsupported(),
            "penetrations": self.describe_penetrations(),
        }


# ---------------------------------------------------------------------------------------
# Small geometry helpers
# ---------------------------------------------------------------------------------------
def clip_to_rectangle(poly: np.ndarray, hu: float, hv: float) -> np.ndarray:
    """Clip a convex 2D polygon (n, 2) to the rectangle ``|x| <= hu, |y| <= hv``
    (Sutherland-Hodgman). Returns the clipped vertices (m, 2), possibly empty.

    On plain floats (a face has 4 corners; numpy's per-call cost was most of the time): each
    crossing ``prev + (cur - prev) * t`` is the same IEEE operations, per coordinate, as on
    numpy 2-vectors, so the same bits."""
    out = np.asarray(poly, dtype=float).reshape(-1, 2).tolist()
    for axis, sign, lim in ((0, 1.0, hu), (0, -1.0, hu), (1, 1.0, hv), (1, -1.0, hv)):
        if not out:
            break
        kept: list[list[float]] = []
        prev = out[-1]
        dp = sign * prev[axis] - lim
        for cur in out:
            dc = sign * cur[axis] - lim
            if dc <= 0.0:
                if dp > 0.0:
                    t = dp / (dp - dc)
                    kept.append(
                        [prev[0] + (cur[0] - prev[0]) * t, prev[1] + (cur[1] - prev[1]) * t]
                    )
                kept.append(cur)
            elif dp <= 0.0:
                t = dp / (dp - dc)
                kept.append([prev[0] + (cur[0] - prev[0]) * t, prev[1] + (cur[1] - prev[1]) * t])
            prev, dp = cur, dc
        out = kept
    return np.array(out, dtype=float).reshape(-1, 2)


def dedupe_cycle(poly: np.ndarray, eps: float = _DEDUP) -> np.ndarray:
    """Drop vertices within ``eps`` of the previously kept one (cyclically)."""
    kept: list[np.ndarray] = []
    for p in poly:
        if not kept or np.linalg.norm(p - kept[-1]) > eps:
            kept.append(p)
    while len(kept) > 1 and np.linalg.norm(kept[0] - kept[-1]) <= eps:
        kept.pop()
    return np.array(kept, dtype=float).reshape(-1, poly.shape[1] if poly.ndim == 2 else 2)


def polygon_area(poly: np.ndarray) -> float:
    """Unsigned area of a simple 2D polygon (shoelace)."""
    if len(poly) < 3:
        return 0.0
    x, y = poly[:, 0], poly[:, 1]
    y1 = np.concatenate([y[1:], y[:1]])  # np.roll(y, -1), without its generic machinery
    x1 = np.concatenate([x[1:], x[:1]])
    return 0.5 * abs(float(np.dot(x, y1) - np.dot(y, x1)))


def polygon_width(poly: np.ndarray) -> float:
    """Minimum width of a convex 2D polygon (0 for fewer than 3 distinct vertices): over the
    edges longer than the dedupe distance, the smallest of each edge's farthest vertex
    distance (every edge at once; the same operations per element as one edge at a time)."""
    if len(poly) < 3:
        return 0.0
    e = np.concatenate([poly[1:], poly[:1]]) - poly  # edge i: poly[i] -> poly[i + 1]
    ln = np.hypot(e[:, 0], e[:, 1])
    ok = ln > _DEDUP
    if not ok.any():
        return 0.0
    cross = np.abs(
        e[:, None, 0] * (poly[None, :, 1] - poly[:, None, 1])
        - e[:, None, 1] * (poly[None, :, 0] - poly[:, None, 0])
    )  # (edge, vertex)
    d = cross[ok] / ln[ok][:, None]
    return float(d.max(axis=1).min())


def obb_separation(a: PosedBox, b: PosedBox) -> float:
    """Largest separation of two oriented boxes over the 15 separating axes (m).

    Positive: the boxes are apart by at least this much. Negative: they overlap, and ``-value``
    is the smallest overlap over the axes (the penetration depth estimate).
    """
    return float(obb_separations([a], [b])[0])


def obb_separations(a: Sequence[PosedBox], b: Sequence[PosedBox]) -> np.ndarray:
    """:func:`obb_separation` of the pairs ``(a[k], b[k])``, shape (P,), in one numpy pass.

    Edge-edge axes of near-parallel edges (cross product below 1e-6) are left out: the face
    axes cover them."""
    if not a:
        return np.zeros(0)
    ra = np.stack([x.rotation for x in a])  # (P, 3, 3), columns are the box axes
    rb = np.stack([x.rotation for x in b])
    fa = ra.transpose(0, 2, 1)  # (P, 3, 3), rows are the box axes
    fb = rb.transpose(0, 2, 1)
    cross = np.cross(fa[:, :, None, :], fb[:, None, :, :]).reshape(-1, 9, 3)
    norm = np.linalg.norm(cross, axis=2)
    valid = norm > 1e-6
    cross = cross / np.where(valid, norm, 1.0)[:, :, None]
    axes = np.concatenate([fa, fb, cross], axis=1)  # (P, 15, 3)
    t = np.stack([x.centre for x in b]) - np.stack([x.centre for x in a])
    ha = np.stack([x.half for x in a])
    hb = np.stack([x.half for x in b])
    rad_a = np.einsum("pkj,pj->pk", np.abs(axes @ ra), ha)
    rad_b = np.einsum("pkj,pj->pk", np.abs(axes @ rb), hb)
    sep = np.abs(np.einsum("pkj,pj->pk", axes, t)) - rad_a - rad_b
    sep[:, 6:][~valid] = -np.inf
    return sep.max(axis=1)


def _aabb(box: PosedBox) -> tuple[np.ndarray, np.ndarray]:
    ext = np.abs(box.rotation) @ box.half
    return box.centre - ext, box.centre + ext


def _face(box: PosedBox, axis: int, sign: float):
    """(outward normal, centre, u, v, hu, hv, corners (4,3) in cyclic order) of a box face."""
    r = box.rotation
    j, k = (axis + 1) % 3, (axis + 2) % 3
    n = sign * r[:, axis]
    c = box.centre + sign * box.half[axis] * r[:, axis]
    u, v = r[:, j], r[:, k]
    hu, hv = float(box.half[j]), float(box.half[k])
    corners = np.array(
        [c + hu * u + hv * v, c - hu * u + hv * v, c - hu * u - hv * v, c + hu * u - hv * v]
    )
    return n, c, u, v, hu, hv, corners


def _is_side(normal: np.ndarray, tol: ContactTolerances) -> bool:
    return float(normal[2]) < math.cos(math.radians(tol.side_angle_deg))


def _flush_contact(
    ref: PosedBox,
    ref_face: tuple[int, float],
    other: PosedBox,
    other_face: tuple[int, float],
    tol: ContactTolerances,
) -> tuple[np.ndarray, np.ndarray, float, str] | None:
    """Contact of two anti-parallel faces, in ``ref``'s face plane: (normal, points, area, kind)
    or None when the faces are not flush or do not meet."""
    # Quick reject, before building the faces: the other face's corners must be near the
    # plane. Their heights above it are h +- |hu' u'.n| +- |hv' v'.n| (h: its centre's).
    ax, sg = ref_face
    oax, osg = other_face
    n = sg * ref.rotation[:, ax]
    h = (
        float(n @ (other.centre - ref.centre))
        + osg * float(n @ other.rotation[:, oax]) * float(other.half[oax])
        - float(ref.half[ax])
    )
    oj, ok = (oax + 1) % 3, (oax + 2) % 3
    ohu, ohv = float(other.half[oj]), float(other.half[ok])
    ext = abs(ohu * float(n @ other.rotation[:, oj])) + abs(ohv * float(n @ other.rotation[:, ok]))
    slack = tol.gap + 2.0 * math.hypot(ohu, ohv) * math.sin(math.radians(tol.angle_deg))
    if h - ext > slack or h + ext < -slack:
        return None
    n, c, u, v, hu, hv, _ = _face(ref, *ref_face)
    nb, cb, _, _, _, _, corners_b = _face(other, *other_face)
    rel = corners_b - c
    poly_b = np.stack([rel @ u, rel @ v], axis=1)
    loose = clip_to_rectangle(poly_b, hu + tol.gap, hv + tol.gap)
    if len(loose) == 0:
        return None
    exact = dedupe_cycle(clip_to_rectangle(poly_b, hu, hv))
    denom = float(nb @ n)  # close to -1

    def lift(p2: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        pts = c + p2[:, :1] * u + p2[:, 1:2] * v
        gaps = -((pts - cb) @ nb) / denom  # distance along n from ref plane to other plane
        return pts, gaps

    if len(exact) >= 3 and polygon_width(exact) > tol.gap:
        pts, gaps = lift(exact)
        if np.abs(gaps).max() > tol.gap:
            return None
        return n, pts, polygon_area(exact), "face"
    # Degenerate: the faces meet along a segment or at a point.
    clamped = np.stack([np.clip(loose[:, 0], -hu, hu), np.clip(loose[:, 1], -hv, hv)], axis=1)
    d = np.linalg.norm(clamped[:, None, :] - clamped[None, :, :], axis=2)
    i, j = np.unravel_index(int(np.argmax(d)), d.shape)
    if d[i, j] > tol.gap:
        seg = clamped[[min(i, j), max(i, j)]]
        kind = "line"
    else:
        seg = clamped.mean(axis=0, keepdims=True)
        kind = "point"
    pts, gaps = lift(seg)
    if np.abs(gaps).max() > tol.gap:
        return None
    return n, pts, 0.0, kind


def _box_pair_contacts(
    ia: int, ka: int, a: PosedBox, ib: int, kb: int, b: PosedBox, tol: ContactTolerances
) -> list[FaceContact]:
    """Flush-face contacts of two boxes of bodies ``ia < ib`` (area contacts first)."""
    cos_tol = math.cos(math.radians(tol.angle_deg))
    dots = a.rotation.T @ b.rotation  # dots[i, j] = a_i . b_j
    found: list[FaceContact] = []
    for i in range(3):
        for j in range(3):
            d = float(dots[i, j])
            if abs(d) < cos_tol:
                continue
            for sa in (1.0, -1.0):
                sb = -sa if d > 0 else sa  # anti-parallel outward normals
                na_z = sa * float(a.rotation[2, i])
                if na_z < -_HORIZONTAL:  # a's face points down: b is the lower body
                    res = _flush_contact(b, (j, sb), a, (i, sa), tol)
                    body_a, body_b, box_a, box_b = ib, ia, kb, ka
                else:
                    res = _flush_contact(a, (i, sa), b, (j, sb), tol)
                    body_a, body_b, box_a, box_b = ia, ib, ka, kb
                if res is None:
                    continue
                normal, pts, area, kind = res
                found.append(
                    FaceContact(
                        body_a, body_b, box_a, box_b, normal, pts, area, kind, _is_side(normal, tol)
                    )
                )
    if any(c.has_area for c in found):  # a convex pair touches in one region
        found = [c for c in found if c.has_area]
    return found


def _table_contact(
    ib: int, kb: int, box: PosedBox, tol: ContactTolerances
) -> FaceContact | UnsupportedContact | Penetration | None:
    """Contact of a box with the table plane z = 0."""
    lowest = float(box.centre[2] - np.abs(box.rotation[2]) @ box.half)
    if lowest > tol.gap:
        return None
    if lowest < -tol.penetration:
        return Penetration(TABLE, ib, -1, kb, -lowest)
    cos_tol = math.cos(math.radians(tol.angle_deg))
    for i in range(3):
        rz = float(box.rotation[2, i])
        if abs(rz) >= cos_tol:
            _, _, _, _, hu, hv, corners = _face(box, i, -1.0 if rz > 0 else 1.0)
            if np.abs(corners[:, 2]).max() <= tol.gap:
                pts = corners.copy()
                pts[:, 2] = 0.0
                return FaceContact(
                    TABLE, ib, -1, kb, np.array([0.0, 0.0, 1.0]), pts, 4 * hu * hv, "face", False
                )
    near = int((box.corners()[:, 2] <= tol.gap).sum())
    what = {1: "a vertex", 2: "an edge"}.get(near, "a tilted face")
    return UnsupportedContact(TABLE, ib, -1, kb, lowest, f"{what} on the table")


Found = FaceContact | UnsupportedContact | Penetration
_Keyed = list[tuple[tuple[int, ...], Found]]


def detect_contacts(
    bodies: Sequence[Sequence[PosedBox]],
    static: Sequence[bool],
    names: Sequence[str] | None = None,
    ground: bool = True,
    tolerances: ContactTolerances | None = None,
) -> ContactSet:
    """Find face contacts, unsupported contacts and interpenetrations between bodies.

    ``bodies[i]`` are the boxes of body ``i``; ``static[i]`` marks immovable bodies (pairs of
    static bodies and static bodies on the table are skipped); ``ground`` adds the table plane.
    """
    tol = tolerances or ContactTolerances()
    names = tuple(names) if names is not None else tuple(str(i) for i in range(len(bodies)))
    flat = _flatten(bodies)
    return _assemble_set(names, _keyed(flat, static, ground, tol, 0), tol)


def _flatten(bodies: Sequence[Sequence[PosedBox]]) -> list[tuple[int, int, PosedBox]]:
    return [(i, k, b) for i, boxes in enumerate(bodies) for k, b in enumerate(boxes)]


def _assemble_set(names: tuple[str, ...], keyed: _Keyed, tol: ContactTolerances) -> ContactSet:
    """The ContactSet of keyed findings, each list in key order (the from-scratch order)."""
    keyed = sorted(keyed, key=lambda kv: kv[0])  # stable: a pair's contacts keep their order
    contacts = [f for _, f in keyed if isinstance(f, FaceContact)]
    unsupported = [f for _, f in keyed if isinstance(f, UnsupportedContact)]
    penetrations = [f for _, f in keyed if isinstance(f, Penetration)]
    return ContactSet(names, tuple(contacts), tuple(unsupported), tuple(penetrations), tol)


def _keyed(
    flat: Sequence[tuple[int, int, PosedBox]],
    static: Sequence[bool],
    ground: bool,
    tol: ContactTolerances,
    new_from: int,
    bounds: tuple[np.ndarray, np.ndarray] | None = None,
) -> _Keyed:
    """What :func:`detect_contacts` finds, each finding with its place in the from-scratch
    order: ``(0, box)`` for the table, ``(1, box_p, box_q)`` for a pair of boxes (flat
    indices). Only the findings of boxes ``flat[new_from:]`` (the table's and their pairs with
    every other box): with ``new_from`` 0 everything, else what adding those boxes adds.
    ``bounds``: the boxes' axis-aligned bounds ``(lo, hi)`` (F, 3) when already known."""
    out: _Keyed = []
    if ground:
        for f in range(new_from, len(flat)):
            i, k, b = flat[f]
            if static[i]:
                continue
            res = _table_contact(i, k, b, tol)
            if res is not None:
                out.append(((0, f), res))
    if len(flat) > 1 and new_from < len(flat):
        if bounds is None:
            lo = np.array([_aabb(b)[0] for _, _, b in flat])
            hi = np.array([_aabb(b)[1] for _, _, b in flat])
        else:
            lo, hi = bounds
        margin = max(tol.gap, 0.0)
        new = np.arange(new_from, len(flat))
        overlap = (
            (lo[:, None, :] <= hi[None, new, :] + margin)
            & (lo[None, new, :] <= hi[:, None, :] + margin)
        ).all(axis=2)  # (F, new)
        body = np.array([i for i, _, _ in flat])
        stat = np.array([bool(static[i]) for i in body])
        cand = overlap & (body[:, None] < body[None, new]) & ~(stat[:, None] & stat[None, new])
        ps, qs = np.nonzero(cand)
        qs = new[qs]
        seps = obb_separations([flat[int(p)][2] for p in ps], [flat[int(q)][2] for q in qs])
        for p, q, sep in zip(ps.tolist(), qs.tolist(), seps.tolist(), strict=True):
            ia, ka, a = flat[p]
            ib, kb, b = flat[q]
            if sep > tol.gap:
                continue
            key = (1, p, q)
            if sep < -tol.penetration:
                out.append((key, Penetration(ia, ib, ka, kb, -sep)))
                continue
            found = _box_pair_contacts(ia, ka, a, ib, kb, b, tol)
            if found:
                out.extend((key, c) for c in found)
            else:
                out.append(
                    (
                        key,
                        UnsupportedContact(
                            ia, ib, ka, kb, sep, "an edge or vertex on a face, or tilted faces"
                        ),
                    )
                )
    return out


def shrink_horizontal(box: PosedBox, clearance: float) -> PosedBox:
    """The box with ``clearance / 2`` taken off each half extent whose axis is closer to the
    table plane than to the vertical (|axis_z| < cos 45 deg): the rule of the simulation world
    (``sim/world.py``), so grid neighbours sit ``clearance`` apart while stacks stay flush."""
    if clearance <= 0:
        return box
    half = box.half.copy()
    for i in range(3):
        if abs(float(box.rotation[2, i])) < math.sqrt(0.5) - 1e-9:
            half[i] = max(half[i] - clearance / 2, half[i] * 0.5)
    return PosedBox(box.centre, box.rotation, half)


_BOXES: dict[tuple[ScenePiece, PhysicsConfig], tuple[PosedBox, ...]] = {}
_BOXES_LIMIT = 4096


def posed_boxes(piece: ScenePiece, config: PhysicsConfig) -> tuple[PosedBox, ...]:
    """``piece.world_boxes(config)``, kept per (piece, config): a Kozo turn analyses the same
    tower pieces again and again. The boxes' arrays are read-only (they are shared)."""
    key = (piece, config)
    boxes = _BOXES.get(key)
    if boxes is None:
        if len(_BOXES) >= _BOXES_LIMIT:
            _BOXES.clear()
        boxes = tuple(piece.world_boxes(config))
        for b in boxes:
            for a in (b.centre, b.rotation, b.half):
                a.setflags(write=False)
        _BOXES[key] = boxes
    return boxes


_SHRUNK: dict[
    tuple[ScenePiece, PhysicsConfig, float], tuple[tuple[PosedBox, ...], np.ndarray, np.ndarray]
] = {}


def _piece_boxes(
    piece: ScenePiece, config: PhysicsConfig, clearance: float
) -> tuple[tuple[PosedBox, ...], np.ndarray, np.ndarray]:
    """The boxes :func:`scene_contacts` tests for ``piece`` (a dynamic piece's shrunk by
    ``clearance``) and their axis-aligned bounds ``lo``, ``hi`` (k, 3); cached."""
    key = (piece, config, clearance)
    found = _SHRUNK.get(key)
    if found is None:
        if len(_SHRUNK) >= _BOXES_LIMIT:
            _SHRUNK.clear()
        boxes = posed_boxes(piece, config)
        if not piece.static:
            boxes = tuple(shrink_horizontal(b, clearance) for b in boxes)
        lo = np.array([_aabb(b)[0] for b in boxes]).reshape(-1, 3)
        hi = np.array([_aabb(b)[1] for b in boxes]).reshape(-1, 3)
        for a in (lo, hi):
            a.setflags(write=False)
        found = _SHRUNK[key] = (boxes, lo, hi)
    return found


_TOWER: list[Any] = [None, None]
"""``[tower, last]``: the last scene's pieces but its last one and their findings, and the last
scene's own: ``(key, boxes, keyed)`` each (key: pieces, config, clearance, tolerances,
ground). The next Kozo turn's tower is the last scene judged (the placed piece is its last)."""


def scene_contacts(
    scene: Scene,
    config: PhysicsConfig | None = None,
    clearance: float = 0.0,
    tolerances: ContactTolerances | None = None,
) -> ContactSet:
    """Contacts of a scene's pieces (in scene order) and the table.

    ``clearance`` (m, default 0 = exact geometry) shrinks the horizontal extents of the dynamic
    pieces' boxes like the simulation does (pass ``config.clearance`` to match it): grid
    neighbours then no longer touch on their sides.

    Incremental (exact): the findings of all pieces but the last are kept, so a scene that is
    the previous scene's first pieces plus one new last piece -- a Kozo tower and each
    candidate placement on it -- only looks for the new piece's contacts, and merges them in
    the from-scratch order (tested equal to detection from scratch).
    """
    cfg = config or scene.physics
    tol = tolerances or ContactTolerances()
    found = [_piece_boxes(p, cfg, clearance) for p in scene.pieces]
    bodies = [boxes for boxes, _, _ in found]
    flat = _flatten(bodies)
    static = [p.static for p in scene.pieces]
    names = tuple(p.id for p in scene.pieces)
    if len(scene.pieces) < 2:
        return _assemble_set(names, _keyed(flat, static, scene.ground, tol, 0), tol)
    lo = np.concatenate([lo for _, lo, _ in found])
    hi = np.concatenate([hi for _, _, hi in found])
    key = (scene.pieces[:-1], cfg, clearance, tol, scene.ground)
    base, last = _TOWER
    if base is None or base[0] != key:
        if last is not None and last[0] == key:
            base = last
        else:
            n = len(flat) - len(bodies[-1])
            base = (key, n, _keyed(flat[:n], static[:-1], scene.ground, tol, 0, (lo[:n], hi[:n])))
    keyed = base[2] + _keyed(flat, static, scene.ground, tol, base[1], (lo, hi))
    _TOWER[:] = [base, ((scene.pieces, cfg, clearance, tol, scene.ground), len(flat), keyed)]
    return _assemble_set(names, keyed, tol)
