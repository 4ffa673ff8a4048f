"""Static-equilibrium check of a scene: a rigid-block equilibrium LP run before the simulation.

:func:`analyse` detects the face contacts (:mod:`tablesim.sim.contacts`), solves linear programs with
HiGHS (highspy) and returns a :class:`StaticReport` whose ``decision`` is ``"stands"``,
``"topples"`` or ``"undecided"`` (the caller then simulates). The method is rigid-block
equilibrium (Whiting, Ochsendorf and Durand 2009; Kao et al. 2022 on where a force-only check
misleads); how the verdict combines it with the simulation: docs/architecture.md, "Statics".

LP formulation
--------------
* Contact points: the vertices of every contact polygon (forces spread over a convex polygon
  are equivalent, in resultant force and moment, to forces at its vertices).
* Per point, the force on ``body_b`` is a non-negative combination of the K edges of a friction
  pyramid: ``f = sum_k lam_k (n + r (cos th_k t1 + sin th_k t2))``, ``lam_k >= 0``,
  ``th_k = 2 pi k / K`` (K = 8 by default); ``body_a`` gets ``-f``. ``t1`` is world x projected
  on the contact plane (world y when the normal is along x), ``t2 = n x t1``.
* Pyramid choice, per variant, so that each verdict errs on the safe side:
    - **permissive** (all contacts: area, line and point, stacking and side): the pyramid
      *circumscribes* the Coulomb cone, ``r = mu / cos(pi/K)``. It allows at least all real
      friction, so "infeasible" is certain.
    - **conservative** (area stacking contacts only) and the tilt margin: the pyramid is
      *inscribed*, ``r = mu``. It allows no more than real friction, so "feasible" is real.
  With K = 8 and the load directions at multiples of 45 degrees, a horizontal contact's
  pyramid has an edge along every load direction: a block on the table slides at exactly
  ``s = mu`` in each direction tried.
* Friction of a contact: each piece's ``friction`` override or ``config.friction`` (the
  table uses ``config.friction``); permissive takes the larger of the two bodies' values,
  conservative the smaller.
* Six equations per dynamic piece: the contact forces plus gravity ``m g`` at the centre of
  mass balance, and so do their moments about the centre of mass. Static pieces and the table
  take any reaction (no equations). Rows are scaled by a mean piece weight and a mean box size
  so HiGHS's tolerances mean the same for every scene.
* Tilt margin: extra horizontal load ``s m g d`` at every dynamic piece's centre of mass;
  maximise ``s`` in ``[0, tan(max_tilt_deg)]`` for each of ``directions`` directions ``d``
  (at ``360/directions`` degree steps from +x); margin = ``atan(min s)`` in degrees. It is
  the table tilt (or the steady sideways acceleration) the scene survives, on the conservative
  contacts. The directions are tried likeliest worst first; one that a small parallel-force
  LP proves to hold past the worst so far (:class:`_ParallelCertificate`) is not solved, and
  pieces that rest on one body alone are taken out of the LPs exactly (:class:`_Leaves`).
  Ties within 1e-7 go to the lower direction index. The answer is a function of the scene
  alone (the same bits in every process, whatever was analysed before); against solving all
  8 directions it agrees to HiGHS's tolerances (1e-13 relative on docs/performance.md's set).

Decision
--------
* interpenetration or unsupported contact kinds (edge or vertex contacts, tilted blocks)
  -> ``"undecided"`` (a missing contact could make the LP falsely infeasible);
* permissive LP infeasible -> ``"topples"``;
* conservative LP feasible, no side contacts at all, tilt margin >= ``stand_margin_deg``
  (8 degrees: the research's safe rule) -> ``"stands"``;
* otherwise ``"undecided"``. ``why`` says which rule applied.

Per-piece margin: for each dynamic piece, the signed distance (mm) from the horizontal
projection of the centre of mass of the piece plus everything it carries to the boundary of the
convex hull of its own area stacking support points (positive inside). "Carries" = the pieces
resting on it alone, transitively (every area stacking supporter of such a piece is the piece
or another piece it carries): a piece resting on this one and on another is left out, since
how its weight splits is statically indeterminate (counting it fully on each supporter made
every ring-tower piece look "outside its support"). It is a diagnostic; the LP is the verdict.

The report holds no timings, so it is a deterministic function of the scene.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

import numpy as np

from tablesim.games.extras import require
from tablesim.sim.config import MM, PhysicsConfig
from tablesim.sim.contacts import (
    TABLE,
    ContactSet,
    ContactTolerances,
    FaceContact,
    posed_boxes,
    scene_contacts,
)
from tablesim.sim.model import Scene, ScenePiece

_POOL_EPS = 1e-9  # metres: pooled contact points closer than this are one point

Decision = Literal["stands", "topples", "undecided"]
"""What the static check concludes; ``undecided`` leaves the verdict to the simulation."""
STANDS: Decision = "stands"
TOPPLES: Decision = "topples"
UNDECIDED: Decision = "undecided"


# ---------------------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class PieceMargin:
    """Support margin of one dynamic piece.

    ``margin_mm``: signed distance of the carried centre of mass from the edge of the support
    hull (positive inside), None when the piece has no area stacking support. ``carried``: ids
    of the pieces resting on it alone (transitively). ``edge``: world direction label of the nearest
    edge (inside) or of the side the centre of mass is beyond (outside), e.g. ``"+x"``.
    """

    id: str
    margin_mm: float | None
    marginal: bool
    carried: tuple[str, ...]
    edge: str | None
    sentence: str

    def to_json(self) -> dict[str, Any]:
        """Plain-dict form (margin rounded to 1e-4 mm)."""
        return {
            "id": self.id,
            "margin_mm": None if self.margin_mm is None else round(self.margin_mm, 4) + 0.0,
            "marginal": self.marginal,
            "carried": list(self.carried),
            "edge": self.edge,
            "sentence": self.sentence,
        }


@dataclass(frozen=True)
class StaticReport:
    """Result of :func:`analyse`.

    ``decision``: ``"stands"``, ``"topples"`` or ``"undecided"``; ``why``: the reason in one
    sentence. ``permissive_feasible`` / ``conservative_feasible``: the two LPs (None if HiGHS
    did not conclude). ``tilt_margin_deg``: on the conservative contacts, None when that LP
    is infeasible; ``tilt_direction``: the worst load direction (unit x, y). ``pieces``: one
    :class:`PieceMargin` per dynamic piece in scene order. ``contacts``: counts and sentences
    (:meth:`tablesim.sim.contacts.ContactSet.summary`). ``stand_margin_deg``: the threshold used.
    """

    decision: Decision
    why: str
    permissive_feasible: bool | None
    conservative_feasible: bool | None
    tilt_margin_deg: float | None
    tilt_direction: tuple[float, float] | None
    pieces: tuple[PieceMargin, ...]
    contacts: dict[str, Any]
    stand_margin_deg: float
    contact_set: ContactSet | None = field(default=None, repr=False, compare=False)

    def piece(self, pid: str) -> PieceMargin:
        """The margin entry of piece ``pid`` (KeyError if it is not a dynamic piece)."""
        for p in self.pieces:
            if p.id == pid:
                return p
        raise KeyError(pid)

    def to_json(self) -> dict[str, Any]:
        """Plain-dict form (angles rounded to 1e-4 degrees); no timings, deterministic."""
        return {
            "decision": self.decision,
            "why": self.why,
            "permissive_feasible": self.permissive_feasible,
            "conservative_feasible": self.conservative_feasible,
            "tilt_margin_deg": (
                None if self.tilt_margin_deg is None else round(self.tilt_margin_deg, 4)
            ),
            "tilt_direction": (
                None
                if self.tilt_direction is None
                else [round(v, 6) + 0.0 for v in self.tilt_direction]
            ),
            "stand_margin_deg": self.stand_margin_deg,
            "pieces": [p.to_json() for p in self.pieces],
            "contacts": self.contacts,
        }


# ---------------------------------------------------------------------------------------
# The LP
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Bodies:
    """Dynamic bodies of an equilibrium problem: ``row[i]`` is body ``i``'s equation block
    (-1 for static bodies), ``mass`` (kg) and ``com`` (m) per dynamic block, ``mu`` per body
    (friction), ``gravity`` (m/s^2), ``mu_table``."""

    row: np.ndarray
    mass: np.ndarray
    com: np.ndarray
    mu: np.ndarray
    mu_table: float
    gravity: float
    length: float

    @property
    def count(self) -> int:
        """Number of dynamic bodies."""
        return len(self.mass)


_MASS: dict[tuple[ScenePiece, PhysicsConfig], tuple[float, np.ndarray, tuple[float, ...]]] = {}


def _mass_com_sizes(
    piece: ScenePiece, config: PhysicsConfig
) -> tuple[float, np.ndarray, tuple[float, ...]]:
    """``piece.mass_and_com(config)`` and the mean edge of each of its boxes (m), cached per
    (piece, config); the centre of mass is read-only."""

    def make() -> tuple[float, np.ndarray, tuple[float, ...]]:
        m, c = piece.mass_and_com(config)
        _frozen(c)
        return m, c, tuple(2 * float(np.mean(b.half)) for b in posed_boxes(piece, config))

    return _memo(_MASS, (piece, config), make)


def _bodies(scene: Scene, config: PhysicsConfig) -> Bodies:
    rows: list[int] = []
    masses: list[float] = []
    coms: list[np.ndarray] = []
    mus: list[float] = []
    sizes: list[float] = []
    for p in scene.pieces:
        mus.append(config.friction if p.friction is None else float(p.friction))
        if p.static:
            rows.append(-1)
            continue
        m, c, size = _mass_com_sizes(p, config)
        rows.append(len(masses))
        masses.append(m)
        coms.append(c)
        sizes.extend(size)
    length = float(np.mean(sizes)) if sizes else 1.0
    return Bodies(
        np.array(rows, dtype=int),
        np.array(masses, dtype=float),
        np.array(coms, dtype=float).reshape(-1, 3),
        np.array(mus, dtype=float),
        float(config.friction),
        float(config.gravity),
        length,
    )


_MEMO_LIMIT = 4096
"""Entries a geometry cache holds before it starts again (a Kozo game needs a few hundred)."""


def _memo(cache: dict[Any, Any], key: Any, make: Callable[[], Any]) -> Any:
    """``cache[key]``, made by ``make()`` the first time (the cache is emptied when full).
    Every cached value is a function of its key alone, so a hit gives the same bits."""
    try:
        return cache[key]
    except KeyError:
        pass
    if len(cache) >= _MEMO_LIMIT:
        cache.clear()
    value = cache[key] = make()
    return value


def clear_caches() -> None:
    """Forget every cached geometry of :func:`analyse` and :func:`tablesim.sim.contacts.scene_contacts`
    (for benchmarks of a first analysis; the answers never depend on the caches)."""
    from tablesim.sim import contacts

    for cache in (_TANGENTS, _HULLS, _MASS, _SUPPORT_HULLS, contacts._BOXES, contacts._SHRUNK):
        cache.clear()
    contacts._TOWER[:] = [None, None]


def _frozen(*arrays: np.ndarray) -> None:
    for a in arrays:
        a.setflags(write=False)


_TANGENTS: dict[bytes, tuple[np.ndarray, np.ndarray]] = {}


def _tangents(n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``t1`` (world x projected on the plane normal to ``n``, world y when ``n`` is along x)
    and ``t2 = n x t1``; cached per normal (read-only arrays)."""

    def make() -> tuple[np.ndarray, np.ndarray]:
        ref = np.array([1.0, 0.0, 0.0]) if abs(n[0]) < 0.9 else np.array([0.0, 1.0, 0.0])
        t1 = ref - (ref @ n) * n
        t1 /= np.linalg.norm(t1)
        t2 = np.cross(n, t1)
        _frozen(t1, t2)
        return t1, t2

    return _memo(_TANGENTS, np.ascontiguousarray(n, dtype=float).tobytes(), make)


class Csc(NamedTuple):
    """A sparse matrix in compressed-column form (the layout HiGHS reads): column ``j`` has
    values ``data[indptr[j]:indptr[j + 1]]`` in rows ``indices[...]`` (ascending)."""

    shape: tuple[int, int]
    indptr: np.ndarray
    indices: np.ndarray
    data: np.ndarray

    def toarray(self) -> np.ndarray:
        """The dense matrix (for tests and debugging)."""
        out = np.zeros(self.shape)
        for j in range(self.shape[1]):
            lo, hi = self.indptr[j], self.indptr[j + 1]
            out[self.indices[lo:hi], j] = self.data[lo:hi]
        return out


def _pooled_points(
    contacts: Sequence[FaceContact], bodies: Bodies, permissive: bool
) -> list[tuple[int, int, np.ndarray, float, np.ndarray]]:
    """``(body_a, body_b, normal, mu, points)``: the contact points of ``contacts`` pooled per pair of bodies, normal and friction, with
    the points that are convex combinations of the others left out.

    Exact: every contact point of a pool has the same friction pyramid, and a force at a convex
    combination ``p = sum a_i p_i`` of pooled points (``sum a_i = 1``) equals, in resultant and
    in moment about any point, the forces ``a_i f`` at the ``p_i``; so the pool's points span
    the same wrench cone as the vertices of their convex hull. Points of a pool lie in planes
    normal to its normal; when they share one plane (every pool of a grid tower) the hull is
    taken in that plane, otherwise the distinct points are all kept. Pools are in the order of
    their first contact, points in hull order: deterministic.
    """
    if not contacts:
        return []
    body_a = [c.body_a for c in contacts]
    body_b = [c.body_b for c in contacts]
    normal = [np.asarray(c.normal, dtype=float) for c in contacts]
    rounded = np.round(np.array(normal), 12).tolist()
    mu = np.append(bodies.mu, bodies.mu_table)  # index -1 (TABLE) -> the table's friction
    mu = (np.maximum if permissive else np.minimum)(mu[body_a], mu[body_b]).tolist()
    pools: dict[tuple[int, int, tuple[float, ...], float], list[np.ndarray]] = {}
    normals: dict[tuple[int, int, tuple[float, ...], float], np.ndarray] = {}
    for c, a, b, n, r, m in zip(contacts, body_a, body_b, normal, rounded, mu, strict=True):
        key = (a, b, tuple(r), m)
        pools.setdefault(key, []).append(np.asarray(c.points, dtype=float))
        normals.setdefault(key, n)
    out = []
    for key, chunks in pools.items():
        n = normals[key]
        p = chunks[0] if len(chunks) == 1 else np.concatenate(chunks)
        if len(chunks) > 1 or len(p) > 4:
            p = _hull_points(p, n)
        out.append((key[0], key[1], n, key[3], p))
    return out


_HULLS: dict[tuple[bytes, bytes], np.ndarray] = {}


def _hull_points(p: np.ndarray, n: np.ndarray) -> np.ndarray:
    """The points of ``p`` (k, 3) that span the same cone as all of them (see
    :func:`_pooled_points`): the plane hull's vertices when they are coplanar, else the
    distinct points. Cached per (points, normal): a read-only array."""

    def make() -> np.ndarray:
        out = _hull_points_of(p, n)
        _frozen(out)
        return out

    p = np.ascontiguousarray(p, dtype=float)
    return _memo(_HULLS, (p.tobytes(), np.ascontiguousarray(n, dtype=float).tobytes()), make)


def _hull_points_of(p: np.ndarray, n: np.ndarray) -> np.ndarray:
    _, first = np.unique(np.round(p / _POOL_EPS), axis=0, return_index=True)
    p = p[np.sort(first)]
    height = p @ n
    if len(p) < 4 or float(np.ptp(height)) > _POOL_EPS:
        return p
    t1, t2 = _tangents(n)
    uv = np.stack([p @ t1, p @ t2], axis=1)
    hull = convex_hull_2d(uv)
    if len(hull) < 3:  # collinear: keep the two extreme points
        hull = hull[[0, -1]] if len(hull) else hull
    keep = [int(np.argmin(np.abs(uv - v).sum(axis=1))) for v in hull]
    return p[keep]


class _Points(NamedTuple):
    """The pooled contact points of an equilibrium problem (:func:`_pooled_points`), one entry
    per point, in pool then hull order: position ``p`` (N, 3), the pool's ``normal``, tangents
    ``t1``/``t2`` (N, 3 each) and friction ``mu`` (N,), and the equation blocks ``row_a`` /
    ``row_b`` (N,) of the bodies the force acts on (-1: the table or a static piece)."""

    p: np.ndarray
    normal: np.ndarray
    t1: np.ndarray
    t2: np.ndarray
    mu: np.ndarray
    row_a: np.ndarray
    row_b: np.ndarray


def _points(contacts: Sequence[FaceContact], bodies: Bodies, permissive: bool) -> _Points:
    """The pooled points of ``contacts`` as flat arrays (see :class:`_Points`)."""
    pools = _pooled_points(contacts, bodies, permissive)
    if not pools:
        e3, e1 = np.zeros((0, 3)), np.zeros(0, dtype=int)
        return _Points(e3, e3, e3, e3, np.zeros(0), e1, e1)
    frames = [_tangents(n) for _, _, n, _, _ in pools]
    count = np.array([len(points) for *_, points in pools])
    row = np.append(bodies.row, -1)  # index -1 (TABLE) -> -1
    per_pool = (
        np.array([n for _, _, n, _, _ in pools]),
        np.array([t1 for t1, _ in frames]),
        np.array([t2 for _, t2 in frames]),
        np.array([r for _, _, _, r, _ in pools]),
        row[[a for a, *_ in pools]],
        row[[b for _, b, *_ in pools]],
    )
    p = np.concatenate([points for *_, points in pools])
    return _Points(p, *(np.repeat(x, count, axis=0) for x in per_pool))


def assemble(
    contacts: Sequence[FaceContact], bodies: Bodies, permissive: bool, sides: int = 8
) -> tuple[Csc, np.ndarray]:
    """Equilibrium equations ``A lam = b`` of the dynamic bodies (scaled, sparse).

    Columns: ``sides`` pyramid-edge weights per contact point, in contact then point order.
    Rows: 6 per dynamic body (force / W, moment about the COM / (W L)) with W the mean body
    weight and L the mean box size. ``b`` is minus the scaled gravity.
    """
    return _matrix(_points(contacts, bodies, permissive), bodies, permissive, sides)


def _weight_unit(bodies: Bodies) -> float:
    """W, the force unit of the scaled equations: the mean dynamic body's weight."""
    return float(np.mean(bodies.mass)) * bodies.gravity if bodies.count else 1.0


def _matrix(pts: _Points, bodies: Bodies, permissive: bool, sides: int) -> tuple[Csc, np.ndarray]:
    """:func:`assemble`'s ``A`` and ``b`` from the pooled points."""
    nb = bodies.count
    w = _weight_unit(bodies)
    length = bodies.length
    th = 2 * math.pi * np.arange(sides) / sides
    cos_t, sin_t = np.cos(th), np.sin(th)
    scale = 1.0 / math.cos(math.pi / sides) if permissive else 1.0
    b = np.zeros(6 * nb)
    if nb:
        b.reshape(nb, 6)[:, 2] = bodies.mass * bodies.gravity / w
    npts = len(pts.p)
    if not npts:
        return Csc((6 * nb, 0), np.zeros(1, dtype=np.int32), np.zeros(0, np.int32), np.zeros(0)), b
    # The generators of every point's pyramid, (N, K, 3): n + r (cos th t1 + sin th t2).
    g = pts.normal[:, None, :] + (pts.mu * scale)[:, None, None] * (
        cos_t[None, :, None] * pts.t1[:, None, :] + sin_t[None, :, None] * pts.t2[:, None, :]
    )
    # Column (point i, edge k) holds the force and moment rows of the bodies it acts on: +g on
    # body b, -g on body a (static bodies and the table, row -1, have no rows), the block of the
    # lower row first, so the rows of a column ascend (the layout HiGHS reads).
    com = np.vstack([bodies.com, np.zeros((1, 3))])  # row -1 -> a zero row, left out below
    blocks = []
    for body_rows, sign in ((pts.row_b, 1.0), (pts.row_a, -1.0)):
        gm = g * sign  # (N, K, 3)
        arm = (pts.p - com[body_rows]) / length  # (N, 3)
        tq = np.cross(arm[:, None, :], gm)  # (N, K, 3)
        blocks.append((np.concatenate([gm, tq], axis=2), 6 * body_rows[:, None] + np.arange(6)))
    (vb, rows_b), (va, rows_a) = blocks
    a_first = (pts.row_a < pts.row_b)[:, None]
    rows = np.where(a_first, np.hstack([rows_a, rows_b]), np.hstack([rows_b, rows_a]))  # (N, 12)
    vals = np.where(a_first[:, :, None], np.concatenate([va, vb], axis=2),
                    np.concatenate([vb, va], axis=2))  # (N, K, 12)  # fmt: skip
    keep = rows >= 0  # (N, 12): the entries of dynamic bodies
    indptr = np.zeros(npts * sides + 1, dtype=np.int32)
    np.cumsum(np.repeat(keep.sum(axis=1), sides), out=indptr[1:])
    a = Csc(
        (6 * nb, npts * sides),
        indptr,
        np.broadcast_to(rows[:, None, :], vals.shape)[
            np.broadcast_to(keep[:, None, :], vals.shape)
        ].astype(np.int32),
        vals[np.broadcast_to(keep[:, None, :], vals.shape)],
    )
    return a, b


def _unsupported_bodies(contacts: Sequence[FaceContact], bodies: Bodies) -> bool:
    """True when some dynamic body has no contact at all (the LP is then infeasible)."""
    touched = np.zeros(bodies.count, dtype=bool)
    for c in contacts:
        for body in (c.body_a, c.body_b):
            if body != TABLE and bodies.row[body] >= 0:
                touched[bodies.row[body]] = True
    return not touched.all()


_THREADS = [1]
"""The ``threads`` option of every HiGHS instance here (0 once HiGHS refused 1, see :func:`_run`).
The dual simplex runs on one thread either way; with the option left at 0 HiGHS counts the
machine's cores from ``/sys`` on every run (12 files, about 50 us a run)."""


def _highs() -> Any:
    """A silent HiGHS instance, presolve off (on these small, dense-ish LPs it costs more than
    it saves: docs/performance.md). The public ``highspy.Highs`` prints a banner on stdout."""
    hs = require("highspy._core")

    h = hs._Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("presolve", "off")
    if _THREADS[0]:
        h.setOptionValue("threads", _THREADS[0])
    return h


def _run(h: Any) -> None:
    """``h.run()``. HiGHS keeps one thread scheduler per process, sized by its first run; if
    another HiGHS user in the process started it with another count, a run asking for one thread
    is refused before it starts (nothing solved, nothing changed), so it runs again with the
    option at 0 (the scheduler's own count), here and in every later instance (an instance
    made before that, such as the tilt model when a proof ran first, asks for 1 until its own
    run is refused)."""
    hs = require("highspy._core")

    if h.run() == hs.HighsStatus.kError and h.getOptionValue("threads")[1] != 0:
        _THREADS[0] = 0
        h.setOptionValue("threads", 0)
        h.run()


class _Model:
    """One HiGHS model of ``A lam + s * load = b``, ``lam >= 0``, ``0 <= s <= s_cap``.

    Kept between solves, so each solve after the first starts from the previous basis (HiGHS'
    hot start): the conservative feasibility check (``s`` fixed at 0) and the tilt LPs of every
    load direction are one model whose ``s`` column and bounds change. Built straight from the
    CSC arrays of :func:`assemble` (no scipy ``linprog`` input checks). Presolve is off: on
    these small, dense-ish LPs it costs more than it saves (measured in docs/performance.md).
    """

    def __init__(self, a: Csc, b: np.ndarray, s_cap: float = 0.0) -> None:
        hs = require("highspy._core")

        self._hs = hs
        self.nvar = a.shape[1]
        h = _highs()
        ncol = self.nvar + 1
        upper = np.full(ncol, hs.kHighsInf)
        upper[-1] = 0.0
        # The s column starts with a placeholder entry in each force row x and y of every body
        # block, so later directions only change coefficients (no new non-zeros).
        nb = a.shape[0] // 6
        rows = (6 * np.arange(nb)[:, None] + np.array([0, 1])[None, :]).ravel()
        index = np.concatenate([a.indices, rows]).astype(np.int32)
        # numpy arrays straight into HiGHS (a HighsLp's fields convert element by element)
        h.passModel(
            ncol, a.shape[0], len(index), int(hs.MatrixFormat.kColwise.value),
            int(hs.ObjSense.kMinimize.value), 0.0, np.zeros(ncol), np.zeros(ncol), upper,
            b, b, a.indptr.astype(np.int32), index,
            np.concatenate([a.data, np.ones(len(rows))]), np.zeros(ncol, dtype=np.int32),
        )  # fmt: skip
        self._rows = rows
        self._h = h
        self._s_cap = s_cap

    def solve(self) -> int | None:
        """Run HiGHS: 0 optimal, 2 infeasible, None for anything else."""
        _run(self._h)
        status = self._h.getModelStatus()
        if status == self._hs.HighsModelStatus.kOptimal:
            return 0
        if status == self._hs.HighsModelStatus.kInfeasible:
            return 2
        return None

    def set_load(self, load: np.ndarray, cap: float | None = None) -> None:
        """Free ``s`` in ``[0, cap]`` (default ``s_cap``), maximise it, with ``load`` (nb, 2)
        as its column."""
        h = self._h
        col = self.nvar
        for r, v in zip(self._rows.tolist(), load.ravel().tolist(), strict=True):
            h.changeCoeff(r, col, v)
        h.changeColBounds(col, 0.0, self._s_cap if cap is None else min(cap, self._s_cap))
        h.changeColCost(col, -1.0)

    def fix_load(self) -> None:
        """Fix ``s`` at 0 (the feasibility check without extra load) and drop its cost."""
        self._h.changeColBounds(self.nvar, 0.0, 0.0)
        self._h.changeColCost(self.nvar, 0.0)

    @property
    def iterations(self) -> int:
        """Simplex iterations of the last solve."""
        return int(self._h.getInfo().simplex_iteration_count)

    @property
    def s(self) -> float:
        """The value of ``s`` in the last solution."""
        return float(self._h.getSolution().col_value[self.nvar])


def feasible(
    contacts: Sequence[FaceContact], bodies: Bodies, permissive: bool, sides: int = 8
) -> bool | None:
    """Whether the dynamic bodies can be in equilibrium on ``contacts`` (None: HiGHS did
    not conclude)."""
    if bodies.count == 0:
        return True
    if _unsupported_bodies(contacts, bodies):
        return False
    a, b = assemble(contacts, bodies, permissive, sides)
    return _status_to_bool(_Model(a, b).solve())


def _status_to_bool(status: int | None) -> bool | None:
    return True if status == 0 else (False if status == 2 else None)


def tilt_margin(
    contacts: Sequence[FaceContact],
    bodies: Bodies,
    directions: int = 8,
    sides: int = 8,
    max_tilt_deg: float = 45.0,
) -> tuple[float | None, tuple[float, float] | None]:
    """Tilt margin (degrees) on ``contacts`` with the inscribed pyramid, and the worst
    direction. None when there is no equilibrium even without the extra load (or HiGHS did
    not conclude for some direction)."""
    _, margin, worst = _conservative(contacts, bodies, directions, sides, max_tilt_deg)
    return margin, worst


def _conservative(
    contacts: Sequence[FaceContact],
    bodies: Bodies,
    directions: int,
    sides: int,
    max_tilt_deg: float,
    margin: bool = True,
    support: _Support | None = None,
) -> tuple[bool | None, float | None, tuple[float, float] | None]:
    """The conservative LP (inscribed pyramids on ``contacts``): whether it is feasible, and
    (with ``margin``, when it is) the tilt margin in degrees and the worst load direction.

    One HiGHS model for all of it: for each direction the load column is set and ``s``
    maximised, from the previous direction's basis, capped at the smallest ``s`` so far (a
    direction that reaches the cap cannot be the worst). The directions are tried likeliest
    worst first (:func:`_direction_order`), so the first LP usually fixes the margin and the
    others end at its cap or are proved to reach past it without an LP
    (:class:`_ParallelCertificate`, tried after long tilt LPs only). Which direction is the
    worst, and its ``s``, do not depend on the order (the LP's optimum is unique; its last
    bits depend on the simplex path, which is a function of the scene alone).

    No separate feasibility LP (``s = 0``) is solved when every direction holds: the loads a
    scene holds, ``s d`` in the plane, form a convex set (the projection of the LP's feasible
    polyhedron), and with 2 or more evenly spaced directions the held loads ``s_k d_k``,
    ``s_k >= 0``, have the origin in their convex hull, so no extra load is held too. Only
    when a direction fails (no equilibrium at any ``s`` in its range) is ``s`` fixed at 0 to
    tell a scene without equilibrium from one without a margin.
    """
    if bodies.count == 0:
        return True, max_tilt_deg, None
    if _unsupported_bodies(contacts, bodies):
        return False, None, None
    s_cap = math.tan(math.radians(max_tilt_deg))
    order = _direction_order(support or _Support.of_bodies(contacts, bodies), directions)
    s_cap = min(s_cap, _sliding_bound(contacts, bodies))
    leaves = _Leaves(contacts, bodies, sides) if margin and directions >= 2 else None
    if leaves is not None and leaves.count:
        contacts, bodies = leaves.contacts, leaves.bodies
    if bodies.count:
        pts = _points(contacts, bodies, permissive=False)
        a, b = _matrix(pts, bodies, permissive=False, sides=sides)
        model = _Model(a, b, s_cap)
    if not margin or directions < 2:
        cons = _status_to_bool(model.solve())
        if not cons or not margin:
            return cons, None, None
    weight = bodies.mass * bodies.gravity / _weight_unit(bodies)
    proofs: list[_ParallelCertificate] = []  # made when first needed
    worst: float | None = None
    worst_k = directions
    longest = 0  # the most simplex iterations a tilt LP took
    dirs = _directions(directions)
    # What the taken-out pieces hold in each direction (exact, see _Leaves): with s_cap, an
    # upper bound of each direction's s.
    upper = [s_cap] * directions
    if leaves is not None:
        upper = [min(s_cap, h) for h in leaves.holds(dirs).tolist()]
    # Screening (large LPs only): directions proved to hold nearly their upper bound are not
    # the worst unless they tie with it; the first that is not is solved first.
    proved = [-_INF] * directions
    if bodies.count >= _SCREEN_BODIES:
        for i, k in enumerate(order):
            level = upper[k] * (1 - _NEAR)
            if not _proved(
                proofs, pts, bodies, sides, level, (float(dirs[k, 0]), float(dirs[k, 1]))
            ):
                order = [k, *order[:i], *order[i + 1 :]]
                break
            proved[k] = level
    for k in order:
        d = (float(dirs[k, 0]), float(dirs[k, 1]))
        held = upper[k]
        if worst is not None:
            if proved[k] >= worst + _CERTIFY_ABOVE:  # held past the worst: not the worst
                continue
            if proved[k] >= worst - _TIE / 2 and held <= worst + _TIE / 2:  # s within _TIE
                worst_k = min(worst_k, k)
                continue
        # A tie (within _TIE) goes to the lower index, so a direction before the worst so
        # far gets a cap just past it: ending there, it is not a tie.
        cap = held if worst is None else min(held, worst + 2 * _TIE if k < worst_k else worst)
        if not bodies.count:
            s = cap
        elif (
            worst is not None
            and held >= worst + _CERTIFY_ABOVE
            and longest >= _PROVE_AFTER_ITERATIONS
            and _proved(proofs, pts, bodies, sides, worst + _CERTIFY_ABOVE, d)
        ):
            continue
        else:
            # contacts + s * load + gravity = 0  ->  A lam + s * load = b
            model.set_load(np.stack([weight * d[0], weight * d[1]], axis=1), cap)
            if model.solve() != 0:  # infeasible, or HiGHS did not conclude: no margin
                model.fix_load()
                return _status_to_bool(model.solve()), None, None
            s = max(0.0, model.s)
            longest = max(longest, model.iterations)
        if worst is None or s < worst - _TIE:
            worst, worst_k = s, k
        elif s <= worst + _TIE:  # a tie: the smaller s, the lower index
            worst, worst_k = min(worst, s), min(worst_k, k)
    if worst is None:
        return True, None, None
    phi = 2 * math.pi * worst_k / directions
    worst_dir = (round(math.cos(phi), 12) + 0.0, round(math.sin(phi), 12) + 0.0)
    return True, math.degrees(math.atan(worst)), worst_dir


_SCREEN_BODIES = 8
"""Directions are screened by proofs (:func:`_conservative`) when the LP has at least this many
bodies (after :class:`_Leaves`): the tower has 12; below it the tilt LPs are short."""
_NEAR = 1e-10
"""Screening proves a direction's ``s`` to within this (relative) of its upper bound."""


def _sliding_bound(contacts: Sequence[FaceContact], bodies: Bodies) -> float:
    """An upper bound of every direction's ``s``: the largest friction of a contact with the
    table or a static piece, when all those are flat (normal exactly +z; else inf). The load
    ``s W d`` on the dynamic pieces (weight W in all) can only be held by those contacts, whose
    horizontal force is at most mu times their normal force, and their normal forces carry W."""
    mu = np.append(bodies.mu, bodies.mu_table).tolist()
    bound = 0.0
    for c in contacts:
        fixed_a = c.body_a == TABLE or bodies.row[c.body_a] < 0
        fixed_b = bodies.row[c.body_b] < 0
        if fixed_b and not fixed_a:  # a static piece on a dynamic one: W is not all it holds
            return _INF
        if fixed_a and not fixed_b:
            if tuple(c.normal) != (0.0, 0.0, 1.0):
                return _INF
            bound = max(bound, min(mu[c.body_a], mu[c.body_b]))
    return bound if bound > 0 else _INF


_TIE = 1e-7
"""Two directions whose ``s`` differ by at most this are a tie: the margin is the smaller ``s``,
the direction the lower index. A capped LP may stop at its cap when the truth is up to HiGHS's
primal tolerance (1e-7) below it, so a tie is not told apart more finely than that."""


class _Leaves:
    """Pieces taken out of the tilt LPs exactly: a piece resting on one body alone, through
    one flat horizontal pool of area contacts, with nothing on it but pieces taken out before.

    Such a piece ``j`` (with what rests on it, already taken out) is in equilibrium under
    gravity plus the tilt load ``s m g d`` when (1) the contact force it needs, ``m g (z - s
    d)`` in total, lies in the (inscribed) friction pyramid, which is the same at every
    point of the pool: ``s`` at most the polygon of radius ``mu`` reaches along ``-d``; and
    (2) that force's line through the centre of mass meets the contact plane inside the hull
    of the pool's points (the centre of pressure is a convex combination of the points, with
    the normal forces as weights; conversely the whole force at that point, split over the
    points in those weights, balances): ``s <= t / h``, ``t`` the distance from the centre of
    mass to the hull's edge along ``d`` and ``h`` its height above the plane. Nothing else
    constrains its forces, and what it puts on its supporter is that one force, so the
    supporter sees the piece's mass at the piece's centre of mass (gravity and the load are
    both proportional to mass): the supporter takes over the mass and the moment. A scene's
    ``s`` in a direction is then the smallest of the reduced LP's and the taken-out pieces'.

    Only pieces whose centre of mass is at least ``1e-6 L`` inside their hull are taken out,
    so no feasibility decision moves from the LP (with its tolerances) to this test.
    """

    def __init__(self, contacts: Sequence[FaceContact], bodies: Bodies, sides: int) -> None:
        n = len(bodies.row)
        row = bodies.row
        below: list[list[FaceContact]] = [[] for _ in range(n)]
        above: list[set[int]] = [set() for _ in range(n)]
        for c in contacts:
            below[c.body_b].append(c)
            if c.body_a != TABLE:
                above[c.body_a].add(c.body_b)
        mu_of = np.append(bodies.mu, bodies.mu_table).tolist()
        mass = [0.0] * n
        moment = [(0.0, 0.0, 0.0)] * n
        for i in range(n):
            if row[i] >= 0:
                m = float(bodies.mass[row[i]])
                mass[i] = m
                moment[i] = tuple(m * float(x) for x in bodies.com[row[i]])  # type: ignore[assignment]
        out: set[int] = set()
        self._pieces: list[tuple[EdgeRows, float, float, float, float]] = []
        grew = True
        while grew:
            grew = False
            for j in range(n):
                if row[j] < 0 or j in out or not below[j] or not above[j] <= out:
                    continue
                pool = below[j]
                base = pool[0].body_a
                if any(c.body_a != base or tuple(c.normal) != (0.0, 0.0, 1.0) for c in pool):
                    continue
                points = np.concatenate([np.asarray(c.points, dtype=float) for c in pool])
                z0 = float(points[:, 2].max())
                if z0 - float(points[:, 2].min()) > _POOL_EPS:
                    continue
                _, edges = _support_hull(points[:, :2])
                cx, cy, cz = (v / mass[j] for v in moment[j])
                h = cz - z0
                if edges is None or h <= 0:
                    continue
                inside, _ = _distance_to_edge_rows(cx, cy, edges)
                if inside < 1e-6 * bodies.length:
                    continue
                mu = min(mu_of[base], mu_of[j])
                self._pieces.append((edges, cx, cy, h, mu))
                out.add(j)
                if base != TABLE and row[base] >= 0:
                    mass[base] += mass[j]
                    moment[base] = tuple(
                        a + b for a, b in zip(moment[base], moment[j], strict=True)
                    )  # type: ignore[assignment]
                grew = True
        self.count = len(out)
        mid = 2 * math.pi * (np.arange(sides) + 0.5) / sides
        self._faces = np.column_stack([np.cos(mid), np.sin(mid)])
        self._inradius = math.cos(math.pi / sides)
        kept = [i for i in range(n) if row[i] >= 0 and i not in out]
        new_row = np.full(n, -1, dtype=int)
        new_row[kept] = np.arange(len(kept))
        self.contacts = [c for c in contacts if c.body_b not in out]
        self.bodies = Bodies(
            new_row,
            np.array([mass[i] for i in kept], dtype=float),
            np.array([[v / mass[i] for v in moment[i]] for i in kept], dtype=float).reshape(-1, 3),
            bodies.mu,
            bodies.mu_table,
            bodies.gravity,
            bodies.length,
        )

    def holds(self, dirs: np.ndarray) -> np.ndarray:
        """The largest load ``s`` every taken-out piece holds, per direction of ``dirs``
        (K, 2); inf where none was taken out."""
        if not self._pieces:
            return np.full(len(dirs), _INF)
        # Sliding, per unit mu: how far the inscribed polygon reaches along -d.
        towards = -(self._faces[:, :1] * dirs[:, 0] + self._faces[:, 1:] * dirs[:, 1])  # (F, K)
        slide = np.where(
            towards > 1e-12, self._inradius / np.where(towards > 1e-12, towards, 1.0), _INF
        ).min(axis=0)
        edges, cx, cy, h, mu = zip(*self._pieces, strict=True)
        tip = _reaches(edges, np.column_stack([cx, cy]), dirs) / np.array(h)[:, None]
        return np.minimum(tip, np.array(mu)[:, None] * slide).min(axis=0)


def _reaches(edges: Sequence[EdgeRows], centres: np.ndarray, dirs: np.ndarray) -> np.ndarray:
    """How far from each centre (P, 2) along each direction (K, 2) its convex polygon of
    ``edges`` ends: (P, K), negative from outside the polygon, inf where it never ends."""
    rows = np.array([r for e in edges for r in e]).reshape(-1, 7)
    owner = np.repeat(np.arange(len(edges)), [len(e) for e in edges])
    towards = rows[:, 4:5] * dirs[:, 0] + rows[:, 5:6] * dirs[:, 1]  # (E, K)
    c = centres[owner]
    num = rows[:, 4] * (rows[:, 0] - c[:, 0]) + rows[:, 5] * (rows[:, 1] - c[:, 1])
    ratio = np.where(towards > 1e-12, num[:, None] / np.where(towards > 1e-12, towards, 1.0), _INF)
    out = np.full((len(edges), len(dirs)), _INF)
    np.minimum.at(out, owner, ratio)
    return out


class _Support:
    """Who rests on whom through area stacking contacts, per piece in scene order: the
    contact points under each piece, the pieces it carries alone (:func:`_carried`) and their
    centre of mass. Shared by the per-piece margins and the tilt LPs' order, made once an
    analysis. ``mass`` / ``moment``: per piece (static pieces never enter a carried set)."""

    def __init__(
        self,
        contacts: Sequence[FaceContact],
        static: Sequence[bool],
        mass: Sequence[float],
        moment: Sequence[np.ndarray],
    ) -> None:
        n = len(static)
        points: list[list[np.ndarray]] = [[] for _ in range(n)]
        below = [0] * n  # bit k: body k is an area stacking supporter (bit n: the table)
        for c in contacts:
            if c.side or not c.has_area:
                continue
            points[c.body_b].append(np.asarray(c.points))
            below[c.body_b] |= 1 << (n if c.body_a == TABLE else c.body_a)
        self.static = static
        self.points = [np.concatenate(p) if p else None for p in points]
        self._resting = [(j, 1 << j, below[j]) for j in range(n) if not static[j] and below[j]]
        self._mass = mass
        self._moment = moment
        self._carried: dict[int, tuple[set[int], np.ndarray]] = {}

    @classmethod
    def of_bodies(cls, contacts: Sequence[FaceContact], bodies: Bodies) -> _Support:
        """The support of an equilibrium problem's bodies (no scene at hand)."""
        static = (bodies.row < 0).tolist()
        mass = [0.0 if r < 0 else float(bodies.mass[r]) for r in bodies.row]
        moment = [np.zeros(3) if r < 0 else bodies.mass[r] * bodies.com[r] for r in bodies.row]
        return cls(contacts, static, mass, moment)

    def carried(self, i: int) -> tuple[set[int], np.ndarray]:
        """Piece ``i`` and the pieces resting on it alone, and their centre of mass (added in
        the set's order: the same bits every time)."""
        try:
            return self._carried[i]
        except KeyError:
            pass
        seen = _carried(i, self._resting)
        m = sum(self._mass[j] for j in seen)
        com: np.ndarray = sum((self._moment[j] for j in seen), np.zeros(3)) / m
        self._carried[i] = seen, com
        return seen, com

    def hull(self, i: int) -> tuple[np.ndarray, EdgeRows | None]:
        """The hull of the area support points under piece ``i`` (it must have some) and its
        edges (:func:`_support_hull`)."""
        points = self.points[i]
        assert points is not None
        return _support_hull(points[:, :2])


def _direction_order(support: _Support, directions: int) -> list[int]:
    """The load directions ``0 .. directions - 1`` in the order their tilt LPs are tried:
    by a geometric estimate of the load ``s`` each holds, smallest first (ties by index).

    The estimate: a dynamic piece carrying the pieces that rest on it alone (as in the
    per-piece margins) tips when the line of gravity plus the load through their centre of
    mass leaves the hull of its area support points: at ``s = t / h`` for the distance ``t``
    from the centre of mass to the hull's edge along the load and its height ``h`` above the
    support. It misses mechanisms of several pieces together (on the shipped tower it puts
    the worst direction second), but it only orders the LPs: the margin never depends on it.
    """
    dirs = _directions(directions)
    edges: list[EdgeRows] = []
    centres: list[tuple[float, float]] = []
    heights: list[float] = []
    for i, points in enumerate(support.points):
        if points is None or support.static[i]:
            continue
        _, rows = support.hull(i)
        _, com = support.carried(i)
        height = float(com[2]) - float(points[:, 2].max())
        if rows is None or height <= 0:
            continue
        edges.append(rows)
        centres.append((float(com[0]), float(com[1])))
        heights.append(height)
    if not edges:
        return list(range(directions))
    estimate = (_reaches(edges, np.array(centres), dirs) / np.array(heights)[:, None]).min(axis=0)
    return sorted(range(directions), key=lambda k: (float(estimate[k]), k))


def _directions(directions: int) -> np.ndarray:
    """The unit load directions (K, 2), ``2 pi k / K`` from +x, as the tilt LPs take them."""
    phi = [2 * math.pi * k / directions for k in range(directions)]
    return np.array([(math.cos(p), math.sin(p)) for p in phi]).reshape(-1, 2)


def _carried(i: int, resting: Sequence[tuple[int, int, int]]) -> set[int]:
    """Body ``i`` and the bodies resting (transitively) on it alone. ``resting``: ``(j, 1 << j,
    supporters of j as a bit mask)`` of every body with area stacking support. Grown until no
    other body has all its supporters inside, in the same order every time (so sums over the
    set add in the same order: the same bits)."""
    seen = {i}
    inside = 1 << i
    grew = True
    while grew:
        grew = False
        for j, bit, sup in resting:
            if not inside & bit and not sup & ~inside:
                inside |= bit
                seen.add(j)
                grew = True
    return seen


def _proved(
    proofs: list[_ParallelCertificate],
    pts: _Points,
    bodies: Bodies,
    sides: int,
    s: float,
    d: tuple[float, float],
) -> bool:
    """``_ParallelCertificate(...)(s, d)``, the certificate made on first use and kept in
    ``proofs`` (so its basis carries over to the next direction)."""
    if not proofs:
        proofs.append(_ParallelCertificate(pts, bodies, sides))
    return proofs[0](s, d)


_CERTIFY_ABOVE = 1e-6
"""A direction is skipped only when its ``s`` is proved at least this far above the cap."""
_PROVE_AFTER_ITERATIONS = 100
"""Proofs are tried only once a tilt LP took at least this many simplex iterations: a
proof costs about one HiGHS run (0.3-1 ms), so it pays where the tilt LPs are long (the 24-piece
tower: 130-240 iterations each) and not on small towers, whose capped LPs take 1-40 (measured in
docs/performance.md). The count is deterministic, and either way the answer is the same."""


class _ParallelCertificate:
    """A proof, without the tilt LP, that load direction ``d`` holds the load ``s``.

    The tilt LP asks for contact forces balancing gravity plus ``s m g d`` on every piece, i.e.
    a total force ``m g u`` with ``u = z - s d`` from each piece's contacts. Restrict the forces
    to multiples of that one vector: ``alpha u`` (``alpha >= 0``) at every pooled point whose
    (inscribed) friction pyramid contains ``u``, and nothing elsewhere. A piece is then in
    equilibrium when its ``alpha`` sum to ``m g`` (the force) and, since parallel forces have no
    moment about a point of their common line, when the points, slid along ``u`` onto a
    horizontal plane (``x -> x_xy + x_z s d``), balance about the centre of mass slid the same
    way (the moment). That is a small feasibility LP: 3 rows a piece, 1 column a point, instead
    of 6 rows and ``sides`` columns. Its solution is one of the tilt LP's (``alpha u`` is a
    non-negative combination of the pyramid's edges), so the tilt LP's maximum is at least
    ``s``; the converse need not hold (the tilt LP may also turn friction forces), so a failed
    proof only means the tilt LP must be solved. The solution is checked in numpy (``alpha >=
    0``, every equation to 1e-9 of the scaled loads) before it counts.

    The LP keeps one column per point for every direction (a point whose pyramid does not hold
    ``u`` gets the bounds ``[0, 0]``), so its sparsity never changes and each proof starts from
    the previous proof's basis.
    """

    def __init__(self, pts: _Points, bodies: Bodies, sides: int) -> None:
        self._pts = pts
        self._nb = bodies.count
        self._cos = math.cos(math.pi / sides)
        mid = 2 * math.pi * (np.arange(sides) + 0.5) / sides  # the pyramid's face normals
        self._faces = np.stack([np.cos(mid), np.sin(mid)], axis=1)
        self._rhs = np.zeros(3 * self._nb)
        self._rhs[0::3] = bodies.mass * bodies.gravity / _weight_unit(bodies)
        # Column j: the rows of body a (-1, -proj_a) and of body b (+1, +proj_b), lower block
        # first, where proj = arm_xy + arm_z * (s d); blocks of the table or a static piece
        # (row -1) left out. An entry's value is base + zcoef * (s d)[comp].
        m = len(pts.p)
        com = np.vstack([bodies.com, np.zeros((1, 3))])  # row -1 -> the extra zero row
        blocks = []
        for rows, sign in ((pts.row_a, -1.0), (pts.row_b, 1.0)):
            arm = (pts.p - com[rows]) / bodies.length
            r3 = 3 * rows[:, None] + np.arange(3)[None, :]
            base = sign * np.column_stack([np.ones(m), arm[:, 0], arm[:, 1]])
            zcoef = sign * np.column_stack([np.zeros(m), arm[:, 2], arm[:, 2]])
            blocks.append((r3, base, zcoef))
        a_first = (pts.row_a < pts.row_b)[:, None]
        (ra3, ba, za), (rb3, bb, zb) = blocks
        rows = np.hstack([np.where(a_first, ra3, rb3), np.where(a_first, rb3, ra3)])
        base = np.hstack([np.where(a_first, ba, bb), np.where(a_first, bb, ba)])
        zcoef = np.hstack([np.where(a_first, za, zb), np.where(a_first, zb, za)])
        comp = np.tile([0, 0, 1], (m, 2))  # entry -> the component of s d it takes
        keep = rows >= 0
        self._m = m
        self._indptr = np.zeros(m + 1, dtype=np.int32)
        np.cumsum(keep.sum(axis=1), out=self._indptr[1:])
        self._index = rows[keep].astype(np.int32)
        self._base = base[keep]
        self._zcoef = zcoef[keep]
        self._comp = comp[keep]
        self._col_of = np.repeat(np.arange(m), np.diff(self._indptr))
        self._held_by = pts.row_b
        # Per point, the rows normal, t1, t2 (u's normal and tangent parts in one product) and
        # the radius the pyramid's faces allow the tangent part, with a relative margin.
        self._frame = np.stack([pts.normal, pts.t1, pts.t2], axis=1)  # (N, 3, 3)
        self._radius = (1 - 1e-11) * self._cos * pts.mu
        self._zeros = np.zeros(m)
        self._h: Any = None
        self._basis: Any = None

    def __call__(self, s: float, d: tuple[float, float]) -> bool:
        """Whether the load ``s`` in direction ``d`` is proved to be held."""
        u = np.array([-s * d[0], -s * d[1], 1.0])
        parts = self._frame @ u  # (N, 3): u along the normal, t1, t2
        un = parts[:, 0]
        # Inside the inscribed pyramid: every face of the polygon of radius mu (in the tangent
        # plane, per unit normal force) keeps u inside, with a relative margin.
        inside = (un > 0) & ((parts[:, 1:] @ self._faces.T).max(axis=1) <= self._radius * un)
        held = np.zeros(self._nb + 1, dtype=bool)  # the extra entry takes row -1
        held[self._held_by[inside]] = True
        if not held[:-1].all():  # a piece with no usable support: no proof
            return False
        sd = np.array([s * d[0], s * d[1]])
        value = self._base + self._zcoef * sd[self._comp]
        alpha = self._solve(np.where(inside, _INF, 0.0), value)
        if alpha is None:
            return False
        resid = np.bincount(
            self._index, weights=value * alpha[self._col_of], minlength=len(self._rhs)
        )
        return bool(np.max(np.abs(resid - self._rhs)) <= 1e-9)

    def _solve(self, upper: np.ndarray, value: np.ndarray) -> np.ndarray | None:
        """A non-negative solution of the parallel-force equations (None: none found)."""
        hs = require("highspy._core")

        if self._h is None:
            self._h = _highs()
            # Any solution the check above accepts is a proof, so these options need not
            # match the tilt LPs': unscaled, Dantzig pricing: 18 % fewer instructions on the
            # tower's 5 proofs, the same proofs found on the 765 analyses of docs/performance.md.
            self._h.setOptionValue("simplex_scale_strategy", 0)
            self._h.setOptionValue("simplex_dual_edge_weight_strategy", 0)
        h, m, zeros = self._h, self._m, self._zeros
        h.passModel(
            m, len(self._rhs), len(value), int(hs.MatrixFormat.kColwise.value),
            int(hs.ObjSense.kMinimize.value), 0.0, zeros, zeros, upper,
            self._rhs, self._rhs, self._indptr[:-1], self._index, value,
            np.zeros(m, dtype=np.int32),
        )  # fmt: skip
        if self._basis is not None:
            h.setBasis(self._basis)
        _run(h)
        if h.getModelStatus() != hs.HighsModelStatus.kOptimal:
            return None
        self._basis = h.getBasis()
        return np.maximum(np.asarray(h.getSolution().col_value), 0.0)


_INF = math.inf


# ---------------------------------------------------------------------------------------
# Per-piece support margins
# ---------------------------------------------------------------------------------------
def convex_hull_2d(points: np.ndarray) -> np.ndarray:
    """Convex hull of 2D points, counter-clockwise, no collinear vertices (monotone chain)."""
    pts = sorted({(round(float(x), 12), round(float(y), 12)) for x, y in points})
    if len(pts) <= 2:
        return np.array(pts, dtype=float).reshape(-1, 2)

    def cross(o, a, b) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 1e-18:
            lower.pop()
        lower.append(p)
    upper: list = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 1e-18:
            upper.pop()
        upper.append(p)
    return np.array(lower[:-1] + upper[:-1], dtype=float)


def _segment_closest(q: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    e = b - a
    ee = float(e @ e)
    t = 0.0 if ee == 0 else min(1.0, max(0.0, float((q - a) @ e) / ee))
    return a + t * e


def signed_distance(q: np.ndarray, hull: np.ndarray) -> tuple[float, np.ndarray]:
    """Signed distance of 2D point ``q`` to a counter-clockwise convex polygon's boundary
    (positive inside) and the unit direction of the nearest edge's outward normal (inside) or
    from the polygon towards ``q`` (outside). Segments and points count as zero-area hulls."""
    q = np.asarray(q, dtype=float)
    if len(hull) == 1:
        v = q - hull[0]
        d = float(np.linalg.norm(v))
        return -d, (v / d if d > 0 else np.zeros(2))
    if len(hull) == 2:
        p = _segment_closest(q, hull[0], hull[1])
        v = q - p
        d = float(np.linalg.norm(v))
        return -d, (v / d if d > 0 else np.zeros(2))
    return _distance_to_edges(q, _edges(hull))


class _Edges(NamedTuple):
    """The edges of a convex polygon (k >= 3 vertices, counter-clockwise): from ``a`` (k, 2)
    along ``e`` (k, 2), outward unit ``normal`` (k, 2), squared length ``ee`` (k,)."""

    a: np.ndarray
    e: np.ndarray
    normal: np.ndarray
    ee: np.ndarray


def _edges(hull: np.ndarray) -> _Edges:
    a = hull
    e = np.concatenate([hull[1:], hull[:1]]) - a
    length = np.sqrt(e[:, 0] * e[:, 0] + e[:, 1] * e[:, 1])
    normal = np.stack([e[:, 1] / length, -e[:, 0] / length], axis=1)  # outward for CCW
    return _Edges(a, e, normal, e[:, 0] * e[:, 0] + e[:, 1] * e[:, 1])


def _distance_to_edges(q: np.ndarray, edges: _Edges) -> tuple[float, np.ndarray]:
    """:func:`signed_distance` for a polygon of 3 or more vertices, from its edges."""
    a, e, normal, ee = edges
    qa = q - a
    h = qa[:, 0] * normal[:, 0] + qa[:, 1] * normal[:, 1]
    if not (h > 0).any():  # inside: the nearest edge's distance and outward normal
        i = int(np.argmin(-h))
        return float(-h[i]), normal[i]
    t = np.clip((qa[:, 0] * e[:, 0] + qa[:, 1] * e[:, 1]) / np.where(ee == 0, 1.0, ee), 0.0, 1.0)
    t[ee == 0] = 0.0
    off = q - (a + t[:, None] * e)  # from the nearest point of each edge to q
    dist = np.sqrt(off[:, 0] * off[:, 0] + off[:, 1] * off[:, 1])
    i = int(np.argmin(dist))
    return float(-dist[i]), (off[i] / dist[i] if dist[i] > 0 else normal[i])


_LABELS = ("+x", "+x+y", "+y", "-x+y", "-x", "-x-y", "-y", "+x-y")


def direction_label(v: Sequence[float] | np.ndarray) -> str:
    """The nearest of 8 world direction labels (``+x``, ``+x+y``, ...) of a 2D vector."""
    ang = math.atan2(float(v[1]), float(v[0]))
    return _LABELS[round(ang / (math.pi / 4)) % 8]


EdgeRows = tuple[tuple[float, float, float, float, float, float, float], ...]
"""A convex polygon's edges as plain floats, one ``(ax, ay, ex, ey, nx, ny, ee)`` an edge (the
fields of :class:`_Edges`): a support hull has 4-8 edges, too few for numpy to pay."""

_SUPPORT_HULLS: dict[bytes, tuple[np.ndarray, EdgeRows | None]] = {}


def _support_hull(points: np.ndarray) -> tuple[np.ndarray, EdgeRows | None]:
    """``convex_hull_2d(points)`` and its edges (None below 3 vertices), cached per points
    (the hull read-only)."""

    def make() -> tuple[np.ndarray, EdgeRows | None]:
        hull = convex_hull_2d(points)
        _frozen(hull)
        if len(hull) < 3:
            return hull, None
        a, e, normal, ee = _edges(hull)
        rows = np.column_stack([a, e, normal, ee]).tolist()
        return hull, tuple(tuple(r) for r in rows)

    points = np.ascontiguousarray(points, dtype=float)
    return _memo(_SUPPORT_HULLS, points.tobytes(), make)


def _distance_to_edge_rows(
    qx: float, qy: float, rows: EdgeRows
) -> tuple[float, tuple[float, float]]:
    """:func:`_distance_to_edges` on plain floats, the same operations in the same order (so
    the same bits: each is one IEEE operation either way)."""
    h = [(qx - ax) * nx + (qy - ay) * ny for ax, ay, _, _, nx, ny, _ in rows]
    best = max(h)
    if best <= 0:  # inside (no h > 0): the first nearest edge's distance and outward normal
        i = h.index(best)
        return -best, (rows[i][4], rows[i][5])
    dist_best, off_best, i_best = math.inf, (0.0, 0.0), 0
    for i, (ax, ay, ex, ey, _, _, ee) in enumerate(rows):
        t = 0.0 if ee == 0 else ((qx - ax) * ex + (qy - ay) * ey) / ee
        t = t if t > 0.0 else 0.0  # np.clip(t, 0, 1), zero's sign included
        t = t if t < 1.0 else 1.0
        ox, oy = qx - (ax + t * ex), qy - (ay + t * ey)
        dist = math.sqrt(ox * ox + oy * oy)
        if dist < dist_best:
            dist_best, off_best, i_best = dist, (ox, oy), i
    if dist_best > 0:
        return -dist_best, (off_best[0] / dist_best, off_best[1] / dist_best)
    return -dist_best, (rows[i_best][4], rows[i_best][5])


def _piece_margins(
    scene: Scene, cs: ContactSet, support: _Support, marginal_mm: float
) -> tuple[PieceMargin, ...]:
    out = []
    for i, piece in enumerate(scene.pieces):
        if piece.static:
            continue
        # Pieces resting (transitively) on this piece alone: grown until no other dynamic
        # piece has all its area stacking supporters inside the set (_carried).
        seen, com = support.carried(i)
        carried = sorted(seen - {i})
        ids = tuple(scene.pieces[j].id for j in carried)
        with_txt = ""
        if carried:
            with_txt = (
                f" (with the {len(carried)} piece{'s' if len(carried) > 1 else ''} it carries)"
            )
        if support.points[i] is None:
            touching = any(i in (c.body_a, c.body_b) for c in cs.contacts) or any(
                i in (u.body_a, u.body_b) for u in cs.unsupported
            )
            why = "held only by side or edge contacts" if touching else "touches nothing"
            out.append(
                PieceMargin(
                    piece.id, None, False, ids, None,
                    f"piece '{piece.id}': no stacking support ({why})",
                )
            )  # fmt: skip
            continue
        hull, edges = support.hull(i)
        direction: Sequence[float] | np.ndarray
        if edges is None:
            dist, direction = signed_distance(com[:2], hull)
        else:
            dist, direction = _distance_to_edge_rows(float(com[0]), float(com[1]), edges)
        mm = dist / MM
        label = direction_label(direction) if direction[0] or direction[1] else None
        marginal = abs(mm) < marginal_mm
        towards = f"edge towards {label}" if label else "edge"
        if marginal:
            where = f"on the edge of its support ({round(mm, 2) + 0.0:+.2f} mm, {towards})"
        elif mm > 0:
            where = f"{mm:.1f} mm inside its support (nearest {towards})"
        else:
            where = f"{-mm:.1f} mm outside its support (beyond the {towards})"
        sentence = f"piece '{piece.id}': centre of mass{with_txt} {where}"
        out.append(PieceMargin(piece.id, mm, marginal, ids, label, sentence))
    return tuple(out)


# ---------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------
def analyse(
    scene: Scene,
    config: PhysicsConfig | None = None,
    *,
    stand_margin_deg: float = 8.0,
    directions: int = 8,
    pyramid_sides: int = 8,
    max_tilt_deg: float = 45.0,
    clearance: float = 0.0,
    marginal_mm: float = 0.05,
    tolerances: ContactTolerances | None = None,
) -> StaticReport:
    """Static-equilibrium verdict of a scene (see the module docstring for the method).

    ``config``: physics constants (default ``scene.physics``). ``stand_margin_deg``: the tilt
    margin needed for ``"stands"``. ``directions``: load directions of the tilt margin.
    ``pyramid_sides``: edges of the friction pyramids. ``max_tilt_deg``: cap of the margin.
    ``clearance``: shrink the dynamic pieces' horizontal extents like the simulation (m,
    default 0 = exact geometry; pass ``config.clearance`` to match the simulated gaps).
    ``marginal_mm``: per-piece margins below this (in absolute value) are marginal.
    """
    cfg = config or scene.physics
    cs = scene_contacts(scene, cfg, clearance=clearance, tolerances=tolerances)
    bodies = _bodies(scene, cfg)
    conservative = [c for c in cs.contacts if c.stacking and c.has_area]
    geometry = [_mass_com_sizes(p, cfg) for p in scene.pieces]
    support = _Support(
        conservative,
        [p.static for p in scene.pieces],
        [g[0] for g in geometry],
        [g[0] * g[1] for g in geometry],
    )
    cons, margin, worst_dir = _conservative(
        conservative, bodies, directions, pyramid_sides, max_tilt_deg, support=support
    )
    # The permissive LP relaxes the conservative one (more contacts; on each, a wider pyramid
    # whose cone holds the narrower one's edges, since n + r d = (1 - r/R) n + (r/R)(n + R d)
    # and n is the mean of two opposite edges): a conservative equilibrium is a permissive one.
    perm = True if cons else feasible(cs.contacts, bodies, permissive=True, sides=pyramid_sides)
    sides = cs.side_contacts
    decision, why = _decide(cs, bodies, perm, cons, margin, bool(sides), stand_margin_deg)
    return StaticReport(
        decision=decision,
        why=why,
        permissive_feasible=perm,
        conservative_feasible=cons,
        tilt_margin_deg=margin,
        tilt_direction=worst_dir,
        pieces=_piece_margins(scene, cs, support, marginal_mm),
        contacts=cs.summary(),
        stand_margin_deg=stand_margin_deg,
        contact_set=cs,
    )


def settle_gap(scene: Scene, drop_fraction: float, config: PhysicsConfig | None = None) -> float:
    """The largest gap (m) a settling piece of ``scene`` may close and still stand by the topple
    rule's drop clause: ``drop_fraction`` times the largest cube edge of its dynamic pieces
    (:meth:`tablesim.sim.model.ScenePiece.edge`, the length the rule scales the clause by). A
    piece written a height h above the only body that can carry it falls h: it stands when
    ``h <= drop_fraction * edge``, it has fallen past that."""
    cfg = config or scene.physics
    return drop_fraction * max((p.edge(cfg) for p in scene.dynamic), default=0.0)


def settle_can_hold(
    scene: Scene,
    gap: float,
    config: PhysicsConfig | None = None,
    *,
    clearance: float = 0.0,
    pyramid_sides: int = 8,
) -> tuple[bool, str]:
    """Whether a scene with no rigid equilibrium as written might find one by settling: the
    permissive LP on every face within ``gap`` (m) of another counted as a contact
    (:class:`tablesim.sim.contacts.ContactTolerances` ``gap``). Returns (True, why) when that
    LP is feasible, or when faces within ``gap`` meet at edges, vertices or tilts the LP does
    not model, or interpenetrate (a prop it cannot see); (False, why) when even those contacts
    cannot hold the scene at its written pose (a linearisation: the settle's small rotations are
    not modelled, so this is a bound for the shortcut, not a proof).

    Rigid statics infeasible says the pieces must move, not how far: a piece written 0.2 mm
    above its support drops 0.2 mm, a piece past its support's edge tips until a neighbour a
    fraction of a millimetre away props it. A contact can only form between faces the motion
    brings together, so faces farther apart than the motion cannot hold the settled scene."""
    cfg = config or scene.physics
    base = ContactTolerances()
    tol = ContactTolerances(
        gap=max(gap, base.gap),
        angle_deg=base.angle_deg,
        penetration=base.penetration,
        side_angle_deg=base.side_angle_deg,
    )
    cs = scene_contacts(scene, cfg, clearance=clearance, tolerances=tol)
    near = f"faces within {tol.gap / MM:.2f} mm"
    if cs.penetrations or cs.unsupported:
        return True, f"{near} meet at edges, vertices or tilts the LP does not model"
    ok = feasible(cs.contacts, _bodies(scene, cfg), permissive=True, sides=pyramid_sides)
    if ok is None:
        return True, f"the LP solver did not conclude on the {near}"
    if ok:
        return True, f"an equilibrium exists with the {near} touching"
    return False, f"none even with the {near} touching"


def _decide(
    cs: ContactSet,
    bodies: Bodies,
    perm: bool | None,
    cons: bool | None,
    margin: float | None,
    has_side: bool,
    threshold: float,
) -> tuple[Decision, str]:
    if bodies.count == 0:
        return STANDS, "no dynamic pieces: nothing can move"
    if cs.penetrations:
        return UNDECIDED, "pieces interpenetrate: " + "; ".join(cs.describe_penetrations())
    if cs.unsupported:
        return UNDECIDED, (
            "contacts the face-contact LP does not model (edge, vertex or tilted): "
            + "; ".join(cs.describe_unsupported())
        )
    if perm is None or cons is None:
        return UNDECIDED, "the LP solver did not conclude"
    if not perm:
        return TOPPLES, "no equilibrium even with side friction: the scene must move"
    if not cons:
        return UNDECIDED, (
            "equilibrium only with side contacts (friction jamming or edge contacts): "
            "stacking contacts alone cannot hold it"
        )
    if has_side:
        pairs = ", ".join(f"'{a}'/'{b}'" for a, b in cs.summary()["side_pairs"])
        return UNDECIDED, (
            f"equilibrium on stacking contacts (tilt margin {margin:.1f} degrees), but side "
            f"contacts ({pairs}) can jam: simulate"
        )
    if margin is None or margin < threshold:
        shown = "unknown" if margin is None else f"{margin:.1f}"
        return UNDECIDED, (
            f"equilibrium on stacking contacts, but the tilt margin {shown} degrees is below "
            f"{threshold:g}"
        )
    return STANDS, (
        f"equilibrium on stacking contacts alone with a tilt margin of {margin:.1f} degrees "
        f"(>= {threshold:g})"
    )
