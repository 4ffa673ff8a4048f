"""The Kozo placement rules, pure: one typed error per rule of the leaflet, the polycube and
balance cube checks, and the candidate spots the bots and the prompt list.

Positions are in the grid frame of :mod:`tablesim.games.kozo.blocks` (Kozo cube edges), and the
tower is its :class:`~tablesim.games.kozo.blocks.Blocks`. Every comparison uses the rule
tolerance ``tol`` (default 0.1 edge = 1.8 mm), so a settled tower that moved by a fraction of a
millimetre under the hand noise still reads as the grid tower it is.

Rule relations between two boxes (all with ``tol``):

- *horizontal overlap*: the footprints overlap by more than ``tol`` along x and along y;
- *rests on*: horizontal overlap and the upper box's bottom is within ``tol`` of the lower's top;
- *touches*: the boxes are closer than ``tol`` along every axis (a gap of ``tol`` or less on
  the separating axis, or overlap);
- *overlaps*: they interpenetrate by more than ``tol`` along every axis.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from tablesim.games.core import IllegalMoveError
from tablesim.games.kozo.blocks import CHIMNEY, GRID, Blocks
from tablesim.games.polycubes import KOZO_CUBE_MM, Cells

STEP = 0.5
"""Candidate positions are on a half-cube lattice."""


# ---------------------------------------------------------------------------------------
# Typed errors: one per rule of the leaflet, each naming it
# ---------------------------------------------------------------------------------------
class PlacementError(IllegalMoveError):
    """A placement that breaks a rule of the leaflet; ``rule`` is the rule's short name."""

    rule = "placement"


class OutsideBaseError(PlacementError):
    """ "Polycubes must only be placed within the eight squares.\""""

    rule = "within-squares"


class ChimneyError(PlacementError):
    """ "No part of the Polycube may be positioned so that it is on or overhanging the center
    square." / "The chimney can never be blocked.\""""

    rule = "chimney"


class OnBalanceCubeError(PlacementError):
    """ "Polycubes may not be placed on a Balance Cube.\""""

    rule = "not-on-balance-cube"


class TouchesBalanceCubeError(PlacementError):
    """ "Polycubes may overhang a Balance Cube, as long as they aren't directly touching.\""""

    rule = "not-touching-balance-cube"


class OverlapError(PlacementError):
    """Two solid pieces cannot be in the same place (the board included)."""

    rule = "overlap"


class UnsupportedError(PlacementError):
    """ "every block resting on the blocks beneath it" (the leaflet's correct tower): a polycube
    must rest on the base or on a polycube; it cannot be held in the air."""

    rule = "resting"


class CoverError(PlacementError):
    """ACTOP option: a polycube stacked on another must cover at least 51 % (see the docs)."""

    rule = "cover-51"


class BalanceNotOnPolycubeError(PlacementError):
    """ "Balance Cubes may be placed on any of the Polycubes already placed.\""""

    rule = "balance-on-polycube"


class BalanceOnBalanceError(PlacementError):
    """ "Balance Cubes may not be placed on another Balance Cube ...\""""

    rule = "balance-not-on-balance"


class BalanceUnderPolycubeError(PlacementError):
    """ "... nor under a Polycube.\""""

    rule = "balance-not-under-polycube"


class BalanceOverhangError(PlacementError):
    """ "The placed Balance Cube may not extend over the edges of the Polycube it is placed on.\""""

    rule = "balance-no-overhang"


def _overlap_1d(
    alo: np.ndarray | float,
    ahi: np.ndarray | float,
    blo: np.ndarray | float,
    bhi: np.ndarray | float,
) -> np.ndarray:
    """Signed overlap lengths of intervals (broadcast): > 0 overlap, < 0 gap."""
    return np.minimum(ahi, bhi) - np.maximum(alo, blo)


def _pairs(lo: np.ndarray, hi: np.ndarray, blocks: Blocks) -> np.ndarray:
    """Overlaps along x, y, z of every new box (rows) with every tower block (cols): (k, n, 3)."""
    return _overlap_1d(lo[:, None, :], hi[:, None, :], blocks.lo[None, :, :], blocks.hi[None, :, :])


def _fmt(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


# ---------------------------------------------------------------------------------------
# Polycube placement
# ---------------------------------------------------------------------------------------
RULES = (
    "within-squares",
    "chimney",
    "board",
    "overlap",
    "not-on-balance-cube",
    "not-touching-balance-cube",
    "resting",
)
"""The polycube rules :func:`placement_verdicts` judges, in the order they are checked (the
ACTOP cover option comes after them, in :func:`check_polycube`)."""


@dataclass(frozen=True)
class Verdicts:
    """The placement rules judged for ``N`` polycube placements at once (:func:`placement_verdicts`).

    ``broken`` (N,): the index in :data:`RULES` of the first rule each placement breaks, -1
    for none; ``solid``, ``on_balance``, ``touch``, ``on_poly`` (N, k, n): per cube and tower
    block, interpenetrates it / rests on it (a balance cube) / touches it (a balance cube) /
    rests on it (a polycube); ``on_board`` (N,): a cube rests on the base."""

    broken: np.ndarray
    solid: np.ndarray
    on_balance: np.ndarray
    touch: np.ndarray
    on_poly: np.ndarray
    on_board: np.ndarray


def xy_overlaps(lo_xy: np.ndarray, blocks: Blocks) -> tuple[np.ndarray, np.ndarray]:
    """Signed overlaps along x and along y, (N, k, n) each, of unit cubes with minimum corners
    ``lo_xy`` (N, k, 2) with every tower block (the part of the rules that does not depend on
    the height, shared by lowering and judging)."""
    blo, bhi = blocks.lo[None, None], blocks.hi[None, None]  # (1, 1, n, 3)
    x, y = lo_xy[..., None, 0], lo_xy[..., None, 1]
    ox = np.minimum(x + 1, bhi[..., 0]) - np.maximum(x, blo[..., 0])
    oy = np.minimum(y + 1, bhi[..., 1]) - np.maximum(y, blo[..., 1])
    return ox, oy


def placement_verdicts(
    lo: np.ndarray,
    blocks: Blocks,
    tol: float,
    overlaps: tuple[np.ndarray, np.ndarray] | None = None,
) -> Verdicts:
    """The polycube placement rules (:data:`RULES`) for ``N`` placements at once: ``lo`` (N, k,
    3) the minimum corners of each placement's unit cubes (a placement may repeat a cube to
    pad to ``k``: every rule is an any / all over its cubes); ``overlaps``: their
    :func:`xy_overlaps`, when already computed. The one coding of the rules: both
    :func:`check_polycube` (one placement) and :func:`candidate_spots` (every position) judge
    with it."""
    hi = lo + 1.0
    n_place, k = lo.shape[:2]
    ox = _overlap_1d(lo[..., 0], hi[..., 0], CHIMNEY[0], CHIMNEY[1])
    oy = _overlap_1d(lo[..., 1], hi[..., 1], CHIMNEY[0], CHIMNEY[1])
    fails = [
        ((lo[..., :2] < -tol) | (hi[..., :2] > GRID + tol)).any(axis=(1, 2)),
        ((ox > tol) & (oy > tol)).any(axis=1),
        (lo[..., 2] < -tol).any(axis=1),
    ]
    if blocks.size:
        bx, by = xy_overlaps(lo[..., :2], blocks) if overlaps is None else overlaps
        z = lo[..., None, 2]
        bz = np.minimum(z + 1, blocks.hi[None, None, :, 2]) - np.maximum(
            z, blocks.lo[None, None, :, 2]
        )
        horiz = (bx > tol) & (by > tol)
        solid = horiz & (bz > tol)
        rests = horiz & (np.abs(z - blocks.hi[None, None, :, 2]) <= tol)
        bal = blocks.balance[None, None, :]
        on_balance = rests & bal
        touch = (bx > -tol) & (by > -tol) & (bz > -tol) & bal
        on_poly = rests & ~bal
    else:
        solid = on_balance = touch = on_poly = np.zeros((n_place, k, 0), dtype=bool)
    on_board = (np.abs(lo[..., 2]) <= tol).any(axis=1)
    fails += [
        solid.any(axis=(1, 2)),
        on_balance.any(axis=(1, 2)),
        touch.any(axis=(1, 2)),
        ~on_board & ~on_poly.any(axis=(1, 2)),
    ]
    stack = np.stack(fails, axis=1)
    broken = np.where(stack.any(axis=1), stack.argmax(axis=1), -1)
    return Verdicts(broken, solid, on_balance, touch, on_poly, on_board)


_NO_BLOCKS = Blocks(
    np.zeros((0, 3)), np.zeros((0, 3)), np.zeros(0, dtype=int), np.zeros(0, dtype=bool), ()
)


def _first_block(hits: np.ndarray) -> int:
    """The tower block of the first (cube, block) pair that is True in ``hits`` (k, n)."""
    return int(np.argwhere(hits)[0][1])


def check_polycube(
    cells: Cells,
    pos: Sequence[float],
    blocks: Blocks,
    *,
    tol: float,
    cover: float = 0.0,
    label: str = "polycube",
) -> None:
    """Raise the :class:`PlacementError` of the first rule the polycube breaks, or return.

    ``cells``: the oriented cells; ``pos``: the minimum corner (grid frame, cube edges);
    ``blocks``: the settled tower; ``cover``: ACTOP's minimum covered fraction (0 = off).
    Rules in order: within the eight squares; not on or over the chimney; not through the board
    or a piece; not on a balance cube; not touching a balance cube; resting on the base or a
    polycube; covering (option). Judged by :func:`placement_verdicts`; this names the rule.
    """
    lo = np.asarray(cells, dtype=float) + np.asarray(pos, dtype=float)
    v = placement_verdicts(lo[None], blocks, tol)
    where = f"{label} at ({_fmt(pos[0])}, {_fmt(pos[1])}, {_fmt(pos[2])})"
    rule = RULES[int(v.broken[0])] if v.broken[0] >= 0 else None
    name = blocks.names
    if rule == "within-squares":
        raise OutsideBaseError(
            f"{where} reaches outside the eight squares (x and y must stay within 0..3 "
            "cube edges): 'Polycubes must only be placed within the eight squares'"
        )
    if rule == "chimney":
        raise ChimneyError(
            f"{where} is on or over the chimney (the centre square 1..2 x 1..2): "
            "'No part of the Polycube may be positioned so that it is on or overhanging the "
            "center square'"
        )
    if rule == "board":
        raise OverlapError(f"{where} reaches into the board (its bottom is below z = 0)")
    if rule == "overlap":
        j = _first_block(v.solid[0])
        raise OverlapError(f"{where} passes through {name[blocks.owner[j]]!r}")
    if rule == "not-on-balance-cube":
        j = _first_block(v.on_balance[0])
        raise OnBalanceCubeError(
            f"{where} would rest on balance cube {name[blocks.owner[j]]!r}: "
            "'Polycubes may not be placed on a Balance Cube'"
        )
    if rule == "not-touching-balance-cube":
        j = _first_block(v.touch[0])
        raise TouchesBalanceCubeError(
            f"{where} touches balance cube {name[blocks.owner[j]]!r} (closer than "
            f"{_fmt(tol)} edge): 'Polycubes may overhang a Balance Cube, as long as they "
            "aren't directly touching'"
        )
    if rule == "resting":
        raise UnsupportedError(
            f"{where} rests on nothing: a polycube must rest on the base or on a polycube "
            "('every block resting on the blocks beneath it')"
        )
    if cover > 0 and not v.on_board[0]:
        frac = covered_fraction(lo, lo + 1.0, blocks, v.on_poly[0])
        if frac + 1e-9 < cover:
            raise CoverError(
                f"{where} rests on polycubes with {frac:.0%} of its bottom; the cover option "
                f"requires at least {cover:.0%}"
            )


def covered_fraction(lo: np.ndarray, hi: np.ndarray, blocks: Blocks, on_poly: np.ndarray) -> float:
    """Fraction of the polycube's lowest faces that lie on polycube tops below it.

    Only the cubes of its lowest layer count (their bottoms are the faces that would rest);
    the area of each is 1, the supported area the overlap with the tops it rests on.
    """
    zmin = lo[:, 2].min()
    low = np.abs(lo[:, 2] - zmin) <= 1e-6
    supported = 0.0
    for i in np.flatnonzero(low):
        for j in np.flatnonzero(on_poly[i]):
            ox = max(0.0, min(hi[i, 0], blocks.hi[j, 0]) - max(lo[i, 0], blocks.lo[j, 0]))
            oy = max(0.0, min(hi[i, 1], blocks.hi[j, 1]) - max(lo[i, 1], blocks.lo[j, 1]))
            supported += ox * oy
    return min(1.0, supported / float(low.sum()))


def drop_height(cells: Cells, x: float, y: float, blocks: Blocks, tol: float) -> float:
    """Height z at which a polycube lowered straight down at (x, y) comes to rest: the highest
    top under any of its cubes (their horizontal overlap larger than ``tol``), else the base
    (:func:`rest_heights` of one position, unrounded)."""
    xy = np.array([[x, y]], dtype=float)
    z, _, _ = rest_heights(xy, np.asarray(cells, dtype=float)[None], blocks, tol)
    return float(z[0])


def rest_heights(
    xy: np.ndarray, c: np.ndarray, blocks: Blocks, tol: float
) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """The one coding of "lowered straight down": the heights ``z`` (N,) at which pieces
    lowered at the positions ``xy`` (N, 2) come to rest on ``blocks`` (the highest top under
    any of their cubes whose footprint overlaps it by more than ``tol`` along x and y, else the
    base), unrounded; ``c`` holds the cells, (N, k, 3) per position or (1, k, 3) for one piece
    at every position. Also the cubes' minimum corners in x, y (N, k, 2) and their
    :func:`xy_overlaps` with the blocks, which the rules reuse."""
    lo_xy = c[..., :2] + xy[:, None, :]  # (N, k, 2)
    ox, oy = xy_overlaps(lo_xy, blocks)
    horiz = (ox > tol) & (oy > tol)  # (N, k, n)
    need = np.where(horiz, blocks.hi[None, None, :, 2] - c[..., None, 2], 0.0)
    need = need.reshape(len(xy), -1)
    z = np.zeros(len(xy)) if not need.shape[1] else np.maximum(need.max(axis=1), 0.0)
    return z, lo_xy, (ox, oy)


def _lowered(
    xy: np.ndarray, c: np.ndarray, blocks: Blocks, tol: float
) -> tuple[np.ndarray, np.ndarray]:
    """Rest heights ``z`` (N,; rounded to 1e-4 edge as in move texts) and legality ``ok`` (N,)
    of pieces lowered straight down (:func:`rest_heights`) at the positions ``xy`` (N, 2) onto
    ``blocks``; ``c`` as there. Legality is :func:`placement_verdicts` at the rest height."""
    z, lo_xy, overlaps = rest_heights(xy, c, blocks, tol)
    z = np.round(z, 4) + 0.0
    lo = np.concatenate(
        [lo_xy, np.broadcast_to(c[..., 2:] + z[:, None, None], (*lo_xy.shape[:2], 1))], axis=2
    )
    return z, placement_verdicts(lo, blocks, tol, overlaps).broken < 0


def candidate_spots(cells: Cells, blocks: Blocks, tol: float) -> list[tuple[float, float, float]]:
    """Every half-lattice placement of the oriented piece that passes the rules, lowered
    straight down onto ``blocks``: :func:`footprint_positions`, :func:`drop_height` and
    :func:`check_polycube` (without the cover option) computed for all positions at once.
    Heights are rounded to 1e-4 edge as in move texts."""
    xy = np.asarray(footprint_positions(cells), dtype=float).reshape(-1, 2)
    if not len(xy):
        return []
    c = np.asarray(cells, dtype=float)
    z, ok = _lowered(xy, c[None], blocks, tol)
    return [(float(xy[i, 0]), float(xy[i, 1]), float(z[i])) for i in np.flatnonzero(ok)]


@lru_cache(maxsize=1024)
def _footprint_arrays(cells: Cells, k: int) -> tuple[np.ndarray, np.ndarray]:
    """A shape's :func:`footprint_positions` as ``xy`` (N, 2) and its cells at each of them
    ``c`` (N, k, 3; padded to ``k`` cells with its first): the tower-free half of
    :func:`candidate_spots_many` (read-only, cached)."""
    xy = np.asarray(footprint_positions(cells), dtype=float).reshape(-1, 2)
    c = np.asarray(tuple(cells) + (cells[0],) * (k - len(cells)), dtype=float)
    cs = np.ascontiguousarray(np.broadcast_to(c, (len(xy), k, 3)))
    xy.flags.writeable = cs.flags.writeable = False
    return xy, cs


def candidate_spots_many(
    shapes: Sequence[Cells], blocks: Blocks, tol: float
) -> list[list[tuple[float, float, float]]]:
    """:func:`candidate_spots` of every oriented piece in ``shapes`` (the same lists, in the
    same order), computed in one pass of numpy over all of them: a piece's cells are padded
    to the longest by repeating its first cell, which changes none of the per-piece
    reductions (any / max over its cells)."""
    if not shapes:
        return []
    counts, xy, c, _ = footprint_rows(tuple(tuple(cells) for cells in shapes))
    if not sum(counts):
        return [[] for _ in shapes]
    z, ok = _lowered(xy, c, blocks, tol)
    xs, ys, zs = xy[:, 0].tolist(), xy[:, 1].tolist(), z.tolist()
    oks = ok.tolist()
    out: list[list[tuple[float, float, float]]] = []
    start = 0
    for n in counts:
        out.append([(xs[i], ys[i], zs[i]) for i in range(start, start + n) if oks[i]])
        start += n
    return out


@lru_cache(maxsize=256)
def footprint_rows(
    shapes: tuple[Cells, ...],
) -> tuple[list[int], np.ndarray, np.ndarray, tuple[np.ndarray, ...] | None]:
    """The footprint rows of every shape in ``shapes``, concatenated: per-shape counts, ``xy``
    (N, 2), the cells ``c`` (N, k, 3) padded to the longest, and the cells' distinct values
    for :func:`_lowered_by_cells` (``U`` (M, 2) the distinct cell corners ``xy + c[:2]``,
    ``ui`` (N, k) each cell's row of ``U``, ``cz`` the distinct cell heights, ``ci`` (N, k)
    each cell's); read-only, cached."""
    k = max(len(cells) for cells in shapes)
    parts = [_footprint_arrays(tuple(cells), k) for cells in shapes]
    counts = [len(xy) for xy, _ in parts]
    if not sum(counts):
        return counts, np.zeros((0, 2)), np.zeros((0, k, 3)), None
    xy = np.concatenate([xy for xy, _ in parts])
    c = np.concatenate([c for _, c in parts])  # (N, k, 3): each position's piece cells
    cells = _distinct_cells(xy, c)
    for arr in (xy, c, *(cells or ())):
        arr.flags.writeable = False
    return counts, xy, c, cells


_CORNERS = 12  # cell corners on the half lattice from -1.5 to 4 along x and along y


def _distinct_cells(xy: np.ndarray, c: np.ndarray) -> tuple[np.ndarray, ...] | None:
    """The distinct cell corners ``U`` of rows ``xy`` with cells ``c`` (``xy + c[:2]`` as
    :func:`_lowered` adds them), each cell's row ``ui`` of them, the distinct heights ``cz``
    in the piece and each cell's ``ci``; None unless every corner lies on the half lattice
    within the window and every height is a whole number below 8 (the catalogue's pieces)."""
    lo_xy = c[..., :2] + xy[:, None, :]
    half = np.rint(lo_xy * 2).astype(np.int64) + 3
    grid = (np.arange(_CORNERS) - 3) * STEP
    if half.min() < 0 or half.max() >= _CORNERS:
        return None
    if not (
        np.array_equal(grid[half[..., 0]], lo_xy[..., 0])
        and np.array_equal(grid[half[..., 1]], lo_xy[..., 1])
    ):
        return None
    code = half[..., 0] * _CORNERS + half[..., 1]
    used = np.bincount(code.ravel(), minlength=_CORNERS**2) > 0
    u = np.stack(np.meshgrid(grid, grid, indexing="ij"), axis=-1).reshape(-1, 2)[used]
    ui = (np.cumsum(used) - 1)[code]
    height = c[..., 2]
    hi = np.rint(height).astype(np.int64)
    if hi.min() < 0 or hi.max() >= 8 or not np.array_equal(hi.astype(float), height):
        return None
    used_z = np.bincount(hi.ravel(), minlength=8) > 0
    cz = np.arange(8, dtype=float)[used_z]
    ci = (np.cumsum(used_z) - 1)[hi]
    return u, ui, cz, ci


def _lowered_by_cells(
    xy: np.ndarray, cells: tuple[np.ndarray, ...], blocks: Blocks, tol: float
) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`_lowered` (the same ``z`` and ``ok``, bit for bit) computed once per distinct
    cell rather than per cell of every row: a row's rules are any / max over its cells of
    per-(cell, block) tests that depend only on the cell's corner (x, y), its height in the
    piece and the rest height; the corners and heights take a few dozen values, the rest
    heights a few. Rest height: ``max(0, max_k max_j(top_j - cz_k))`` over the blocks
    overlapping cell k, equal to ``max(0, max_k(max_j top_j - cz_k))`` (subtracting a constant
    is monotone in floating point). None if a rest height falls outside its candidates (never
    expected; the caller then uses :func:`_lowered`)."""
    u, ui, cz, ci = cells
    n = blocks.size
    ox, oy = xy_overlaps(u[None], blocks) if n else (np.zeros((1, len(u), 0)),) * 2
    ox, oy = ox[0], oy[0]  # (M, n)
    horiz = (ox > tol) & (oy > tol)
    top = (
        np.where(horiz, blocks.hi[None, :, 2], -np.inf).max(axis=1)
        if n
        else np.full(len(u), -np.inf)
    )
    need = top[ui] - cz[ci]  # (N, k)
    z = np.round(np.maximum(need.max(axis=1), 0.0), 4) + 0.0
    heights = np.unique(np.round(np.maximum(top[:, None] - cz[None, :], 0.0), 4) + 0.0)
    zi = np.searchsorted(heights, z)
    if (zi >= len(heights)).any() or not np.array_equal(heights[zi], z):
        return None
    zc = cz[:, None] + heights[None, :]  # (C, Z): a cell's bottom, as c_z + z in _lowered
    lo = u  # the distinct corners
    hi = lo + 1.0
    chx = _overlap_1d(lo[:, 0], hi[:, 0], CHIMNEY[0], CHIMNEY[1])
    chy = _overlap_1d(lo[:, 1], hi[:, 1], CHIMNEY[0], CHIMNEY[1])
    xy_bad = ((lo < -tol) | (hi > GRID + tol)).any(axis=1) | ((chx > tol) & (chy > tol))
    cz_n, z_n = zc.shape
    zc = zc.reshape(-1)  # (C * Z,)
    bad = xy_bad[:, None] | (zc < -tol)[None]  # (M, C * Z)
    support = np.broadcast_to(np.abs(zc) <= tol, bad.shape)  # on the board
    if n:
        # any over the blocks of (a corner's test) & (a height's test), as a product of 0/1
        # matrices (counts of a few dozen: exact in floating point)
        zz = zc[:, None]  # (C * Z, 1)
        bz = np.minimum(zz + 1, blocks.hi[:, 2]) - np.maximum(zz, blocks.lo[:, 2])
        bal = blocks.balance
        rests = np.abs(zz - blocks.hi[:, 2]) <= tol
        f64 = np.float64
        h = horiz.astype(f64)
        near = ((ox > -tol) & (oy > -tol)).astype(f64)
        bad = bad | (h @ ((bz > tol) | (rests & bal)).T.astype(f64) > 0)  # solid, on balance
        bad = bad | (near @ ((bz > -tol) & bal).T.astype(f64) > 0)  # touching a balance cube
        support = support | (h @ (rests & ~bal).T.astype(f64) > 0)  # resting on a polycube
    lin = (ui * cz_n + ci) * z_n + zi[:, None]  # each row's cells in the (M, C * Z) tables
    ok = ~bad.reshape(-1)[lin].any(axis=1) & support.reshape(-1)[lin].any(axis=1)
    return z, ok


def candidate_rows_of(
    xy: np.ndarray,
    c: np.ndarray,
    cells: tuple[np.ndarray, ...] | None,
    sel: np.ndarray,
    blocks: Blocks,
    tol: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Rest height ``z`` and legality ``ok`` of the footprint rows ``sel`` of
    :func:`footprint_rows`' ``xy``, ``c``, ``cells``: :func:`_lowered` of those rows (by
    :func:`_lowered_by_cells`, the same bits; every row is judged on its own)."""
    got = None
    if cells is not None and len(sel):
        u, ui, cz, ci = cells
        got = _lowered_by_cells(xy[sel], (u, ui[sel], cz, ci[sel]), blocks, tol)
    if got is None:
        if not len(sel):
            return np.zeros(0), np.zeros(0, dtype=bool)
        return _lowered(xy[sel], c[sel], blocks, tol)
    return got


@lru_cache(maxsize=512)
def footprint_positions(cells: Cells) -> tuple[tuple[float, float], ...]:
    """Half-lattice (x, y) minimum corners where the oriented piece stays within the eight
    squares and off the chimney (the rules that do not depend on the tower:
    :func:`placement_verdicts`' first two, judged exactly, on the base)."""
    c = np.asarray(cells, dtype=float)
    n = int(GRID / STEP)
    xy = np.asarray([(i * STEP, j * STEP) for i in range(n + 1) for j in range(n + 1)])
    lo = c[None] + np.concatenate([xy, np.zeros((len(xy), 1))], axis=1)[:, None, :]
    broken = placement_verdicts(lo, _NO_BLOCKS, 0.0).broken
    keep = ~np.isin(broken, (RULES.index("within-squares"), RULES.index("chimney")))
    return tuple((float(x), float(y)) for x, y in xy[keep])


# ---------------------------------------------------------------------------------------
# Balance cube placement
# ---------------------------------------------------------------------------------------
def balance_box(centre: Sequence[float], edge: float) -> tuple[np.ndarray, np.ndarray]:
    """AABB of a balance cube from its bottom-face centre (x, y, z)."""
    x, y, z = (float(v) for v in centre)
    lo = np.array([[x - edge / 2, y - edge / 2, z]])
    return lo, lo + edge


OVERHANG_VISIBLE_MM = 0.5
"""The smallest overhang of a balance cube a person sees at the table: half a millimetre, the
size of the wooden pieces' sanded edge rounding and of a toy maker's usual +-0.5 mm on a turned
wooden cube (docs/rules/kozo.md, "Placement rules"). A cube standing out further "extends over
the edges of the Polycube"; the general rule tolerance (1.8 mm, for settled towers) is far
more than an eye lets pass."""

OVERHANG_TOL = OVERHANG_VISIBLE_MM / KOZO_CUBE_MM
""":data:`OVERHANG_VISIBLE_MM` in Kozo cube edges (0.028 edge)."""


def check_balance(centre: Sequence[float], edge: float, blocks: Blocks, *, tol: float) -> int:
    """Check a balance cube whose bottom face is centred at ``centre``; return the index of the
    polycube item it rests on, or raise the :class:`PlacementError` of the first broken rule.

    Rules in order: within the squares and off the chimney; not through a piece; resting on a
    polycube, not on another balance cube; on one polycube without extending over its edges;
    not under a polycube.
    """
    lo, hi = balance_box(centre, edge)
    where = f"balance cube at ({_fmt(centre[0])}, {_fmt(centre[1])}, {_fmt(centre[2])})"
    if (lo[:, :2] < -tol).any() or (hi[:, :2] > GRID + tol).any():
        raise OutsideBaseError(f"{where} is outside the eight squares")
    ox = _overlap_1d(lo[0, 0], hi[0, 0], CHIMNEY[0], CHIMNEY[1])
    oy = _overlap_1d(lo[0, 1], hi[0, 1], CHIMNEY[0], CHIMNEY[1])
    if ox > tol and oy > tol:
        raise ChimneyError(f"{where} is over the chimney: 'The chimney can never be blocked'")
    if not blocks.size:
        raise BalanceNotOnPolycubeError(
            f"{where}: there is no polycube to put it on ('Balance Cubes may be placed on any "
            "of the Polycubes already placed')"
        )
    ov = _pairs(lo, hi, blocks)[0]
    horiz = (ov[:, 0] > tol) & (ov[:, 1] > tol)
    if (horiz & (ov[:, 2] > tol)).any():
        j = int(np.flatnonzero(horiz & (ov[:, 2] > tol))[0])
        raise OverlapError(f"{where} passes through {blocks.names[blocks.owner[j]]!r}")
    rests = horiz & (np.abs(lo[0, 2] - blocks.hi[:, 2]) <= tol)
    if (rests & blocks.balance).any():
        j = int(np.flatnonzero(rests & blocks.balance)[0])
        raise BalanceOnBalanceError(
            f"{where} would rest on balance cube {blocks.names[blocks.owner[j]]!r}: 'Balance "
            "Cubes may not be placed on another Balance Cube'"
        )
    if not rests.any():
        raise BalanceNotOnPolycubeError(
            f"{where} does not rest on a polycube ('Balance Cubes may be placed on any of the "
            "Polycubes already placed'; the base is not a polycube)"
        )
    owners = sorted({int(blocks.owner[j]) for j in np.flatnonzero(rests)})
    if len(owners) > 1:
        names = " and ".join(repr(blocks.names[o]) for o in owners)
        raise BalanceOverhangError(
            f"{where} straddles {names}: 'The placed Balance Cube may not extend over the "
            "edges of the Polycube it is placed on'"
        )
    owner = owners[0]
    tops = [j for j in np.flatnonzero(rests) if blocks.owner[j] == owner]
    over = min(tol, OVERHANG_TOL)  # what an eye lets pass, never more than the rule's own
    for cx in (lo[0, 0] + over, hi[0, 0] - over):
        for cy in (lo[0, 1] + over, hi[0, 1] - over):
            inside = any(
                blocks.lo[j, 0] - 1e-9 <= cx <= blocks.hi[j, 0] + 1e-9
                and blocks.lo[j, 1] - 1e-9 <= cy <= blocks.hi[j, 1] + 1e-9
                for j in tops
            )
            if not inside:
                raise BalanceOverhangError(
                    f"{where} extends over an edge of {blocks.names[owner]!r}: 'The placed "
                    "Balance Cube may not extend over the edges of the Polycube it is placed on'"
                )
    above = horiz & ~blocks.balance & (blocks.lo[:, 2] >= hi[0, 2] - tol)
    if above.any():
        j = int(np.flatnonzero(above)[0])
        raise BalanceUnderPolycubeError(
            f"{where} would be under {blocks.names[blocks.owner[j]]!r}: 'Balance Cubes may not "
            "be placed ... under a Polycube'"
        )
    return owner


def balance_candidates(blocks: Blocks, tol: float) -> list[tuple[float, float, float]]:
    """Bottom-centre positions of the candidate balance cube spots: the centre of every
    uncovered top face of a polycube cube (rule checks are the caller's)."""
    out = []
    for j in range(blocks.size):
        if blocks.balance[j]:
            continue
        lo, hi = blocks.lo[j], blocks.hi[j]
        ox = _overlap_1d(lo[0], hi[0], blocks.lo[:, 0], blocks.hi[:, 0])
        oy = _overlap_1d(lo[1], hi[1], blocks.lo[:, 1], blocks.hi[:, 1])
        covered = (ox > tol) & (oy > tol) & (np.abs(blocks.lo[:, 2] - hi[2]) <= tol)
        if covered.any():
            continue
        out.append(((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, float(hi[2])))
    return out


def balance_ok_many(
    centres: Sequence[Sequence[float]], edge: float, blocks: Blocks, tol: float
) -> list[bool]:
    """Whether :func:`check_balance` accepts each bottom-face centre of ``centres``: its
    rules in plain Python floats over the tower boxes (the same IEEE operations on the same
    values as its numpy; a tower has a few dozen boxes and a turn a few spots, where numpy's
    cost per call outweighs the arithmetic). The reference test compares them spot for spot."""
    rows = list(
        zip(
            blocks.lo.tolist(),
            blocks.hi.tolist(),
            blocks.balance.tolist(),
            blocks.owner.tolist(),
            strict=True,
        )
    )
    over = min(tol, OVERHANG_TOL)
    c0, c1, top = CHIMNEY[0], CHIMNEY[1], GRID + tol
    out = []
    for centre in centres:
        x, y, z = (float(v) for v in centre)
        lx, ly = x - edge / 2, y - edge / 2
        hx, hy, hz = lx + edge, ly + edge, z + edge
        if lx < -tol or ly < -tol or hx > top or hy > top or not rows:
            out.append(False)
            continue
        if min(hx, c1) - max(lx, c0) > tol and min(hy, c1) - max(ly, c0) > tol:
            out.append(False)
            continue
        ok, owners, tops = True, set(), []
        for (bx0, by0, bz0), (bx1, by1, bz1), bal, own in rows:
            if not (min(hx, bx1) - max(lx, bx0) > tol and min(hy, by1) - max(ly, by0) > tol):
                continue  # not over or under it
            if min(hz, bz1) - max(z, bz0) > tol or (not bal and bz0 >= hz - tol):
                ok = False  # through it, or under a polycube
                break
            if abs(z - bz1) <= tol:  # resting on it
                if bal:
                    ok = False
                    break
                owners.add(own)
                tops.append((bx0, by0, bx1, by1))
        if not ok or len(owners) != 1:
            out.append(False)
            continue
        for cx in (lx + over, hx - over):
            for cy in (ly + over, hy - over):
                if not any(
                    bx0 - 1e-9 <= cx <= bx1 + 1e-9 and by0 - 1e-9 <= cy <= by1 + 1e-9
                    for bx0, by0, bx1, by1 in tops
                ):
                    ok = False
        out.append(ok)
    return out


def balance_candidates_many(blocks: Blocks, tol: float) -> list[tuple[float, float, float]]:
    """:func:`balance_candidates` (the same list) in plain Python floats (see
    :func:`balance_ok_many`)."""
    lo, hi, bal = blocks.lo.tolist(), blocks.hi.tolist(), blocks.balance.tolist()
    boxes = list(zip(lo, hi, strict=True))
    out = []
    for j, ((x0, y0, _), (x1, y1, z1)) in enumerate(boxes):
        if bal[j]:
            continue
        if any(
            min(x1, bx1) - max(x0, bx0) > tol
            and min(y1, by1) - max(y0, by0) > tol
            and abs(bz0 - z1) <= tol
            for (bx0, by0, bz0), (bx1, by1, _) in boxes
        ):
            continue
        out.append(((x0 + x1) / 2, (y0 + y1) / 2, z1))
    return out
