"""Pure placement geometry of Kataboom: the structure as axis-aligned boxes, a piece lowered
straight down onto it, and the rules a placement must pass.

Grid frame: one unit is the Katamino cube edge (19 mm); the table top is z = 0; the starting
model sits around the origin. A piece is named by its orientation index ``rot`` (one of the
distinct proper rotations of :func:`tablesim.games.kozo.geometry.piece_orientations`, cells normalised to
their minimum corner) and the minimum corner ``pos`` of its cells. Settled pieces are slightly
off the grid; their cubes are represented by their axis-aligned bounding boxes (a slightly
tilted cube's box is a little larger, so a piece lowered onto it stops a hair higher, never
inside).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tablesim.games.core import IllegalMoveError
from tablesim.games.kozo.geometry import Blocks, build_blocks, piece_orientations
from tablesim.games.polycubes import Cells

CATALOGUE = "katamino-duo"
STEP = 1.0
"""Lattice step (cube edges) of the candidate placements listed by ``legal_moves`` (any other position can be played)."""
TABLE_HALF = 100.0
"""Half side of the table in cube edges (1.9 m; the physics table is 4 m square)."""
REST_TOL = 0.05
"""A cube rests on a top when its bottom is within this many edges of it (0.95 mm)."""
SIDE_TOL = 1e-3
"""Horizontal overlap (edges) above which a cube is over a box (anything real counts)."""


class PlacementError(IllegalMoveError):
    """A placement that breaks a Kataboom placement rule (subclasses name the rule)."""


class OffTableError(PlacementError):
    """The piece would reach beyond the table."""


class OverlapError(PlacementError):
    """The piece would be inside a piece of the structure."""


class NothingBelowError(PlacementError):
    """The piece would rest on nothing, or on the table instead of the structure."""


class FloatingError(PlacementError):
    """The piece would be let go above the height where it rests."""


class NotOnPreviousError(PlacementError):
    """Reading ``on-previous``: the piece does not rest on the piece placed last."""


def orientations(piece: str) -> tuple[Cells, ...]:
    """The distinct rotations of a Katamino Duo piece (the ``rot`` index of a move)."""
    return piece_orientations(CATALOGUE, piece)


def structure_blocks(items: Sequence[tuple[str, int, Sequence[float]]]) -> Blocks:
    """Blocks of a structure from ``(name, rot, pose)`` items (pose: 7 grid-frame numbers)."""
    return build_blocks([(n, orientations(n)[r], 1.0, pose, False) for n, r, pose in items])


@dataclass(frozen=True)
class Spots:
    """Candidate placements of one oriented piece: ``xy`` (N, 2) minimum corners, ``z`` (N,)
    rest heights, ``ok`` (N,) whether the placement is legal, ``margin`` (N,) support margin
    (edges, positive inside: see :func:`spots`), ``on`` (N, items) which items it rests on."""

    xy: np.ndarray
    z: np.ndarray
    ok: np.ndarray
    margin: np.ndarray
    on: np.ndarray


def spots(
    cells: Cells, xy: np.ndarray, blocks: Blocks, n_items: int, previous: int | None = None
) -> Spots:
    """Lower the oriented ``cells`` straight down at every row of ``xy`` onto ``blocks``.

    The rest height is the highest top under any cube (the piece never passes through what is
    below it). Legal: it rests on the structure, no cube reaches the table (z = 0), and with
    ``previous`` (an item index) it rests on that item. ``margin``: distance from the piece's
    centre of mass (seen from above) to the edge of the bounding rectangle of its contact
    patches (a cheap, rectangle-not-hull measure for the stand-in judge and the bots).
    """
    c = np.asarray(cells, dtype=float)
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    n = len(xy)
    if not blocks.size or not n:
        z0 = np.zeros(n)
        return Spots(xy, z0, np.zeros(n, bool), np.full(n, -1.0), np.zeros((n, n_items), bool))
    lo = c[None, :, :2] + xy[:, None, :]  # (N, k, 2)
    blo, bhi = blocks.lo[None, None], blocks.hi[None, None]  # (1, 1, n, 3)
    x0 = np.maximum(lo[..., None, 0], blo[..., 0])
    x1 = np.minimum(lo[..., None, 0] + 1, bhi[..., 0])
    y0 = np.maximum(lo[..., None, 1], blo[..., 1])
    y1 = np.minimum(lo[..., None, 1] + 1, bhi[..., 1])
    horiz = (x1 - x0 > SIDE_TOL) & (y1 - y0 > SIDE_TOL)  # (N, k, n)
    need = np.where(horiz, blocks.hi[None, None, :, 2] - c[None, :, None, 2], 0.0)
    z = np.round(np.maximum(need.reshape(n, -1).max(axis=1), 0.0), 4) + 0.0
    low = c[None, :, 2] + z[:, None]  # (N, k) bottoms of the cubes
    rests = horiz & (np.abs(low[..., None] - blocks.hi[None, None, :, 2]) <= REST_TOL)
    on_table = (low <= REST_TOL).any(axis=1)
    on = np.zeros((n, n_items), dtype=bool)
    owner_rest = rests.any(axis=1)  # (N, n boxes)
    for j in range(blocks.size):
        on[:, blocks.owner[j]] |= owner_rest[:, j]
    ok = on.any(axis=1) & ~on_table
    if previous is not None:
        ok &= on[:, previous]
    inf = np.inf
    px0 = np.where(rests, x0, inf).reshape(n, -1).min(axis=1)
    py0 = np.where(rests, y0, inf).reshape(n, -1).min(axis=1)
    px1 = np.where(rests, x1, -inf).reshape(n, -1).max(axis=1)
    py1 = np.where(rests, y1, -inf).reshape(n, -1).max(axis=1)
    com = c[:, :2].mean(axis=0) + 0.5 + xy
    margin = np.minimum.reduce([com[:, 0] - px0, px1 - com[:, 0], com[:, 1] - py0, py1 - com[:, 1]])
    margin = np.where(np.isfinite(margin), margin, -1.0)
    return Spots(xy, z, ok, margin, on)


def lattice(cells: Cells, blocks: Blocks, step: float = STEP) -> np.ndarray:
    """Lattice minimum corners (M, 2) at which the oriented piece overlaps the structure's
    footprint seen from above (every other position rests on the table or on nothing)."""
    if not blocks.size:
        return np.zeros((0, 2))
    c = np.asarray(cells, dtype=float)
    ext = c[:, :2].max(axis=0) + 1
    lo = np.floor((blocks.lo[:, :2].min(axis=0) - ext) / step) * step
    hi = np.ceil(blocks.hi[:, :2].max(axis=0) / step) * step
    xs = np.arange(lo[0] + step, hi[0] - 1e-9, step)
    ys = np.arange(lo[1] + step, hi[1] - 1e-9, step)
    gx, gy = np.meshgrid(xs, ys, indexing="ij")
    return np.round(np.stack([gx.ravel(), gy.ravel()], axis=1), 4) + 0.0


def _fmt(v: float) -> str:
    return f"{v:.4f}".rstrip("0").rstrip(".")


def check_placement(
    piece: str,
    rot: int,
    pos: Sequence[float],
    blocks: Blocks,
    names: Sequence[str],
    previous: int | None = None,
) -> float:
    """Raise the :class:`PlacementError` of the first rule a placement breaks; return its
    support margin. ``pos`` (x, y, z) is the minimum corner; z must be the rest height of the
    piece lowered straight down at (x, y)."""
    cells = orientations(piece)[rot]
    c = np.asarray(cells, dtype=float)
    x, y, z = (float(v) for v in pos)
    where = f"{piece} r{rot} at {_fmt(x)},{_fmt(y)},{_fmt(z)}"
    lo = c + (x, y, z)
    if (np.abs(lo[:, :2]) > TABLE_HALF).any() or (np.abs(lo[:, :2] + 1) > TABLE_HALF).any():
        raise OffTableError(
            f"{where} reaches off the table (x and y must stay within +-{TABLE_HALF:g} cube "
            "edges of the structure's origin)"
        )
    s = spots(cells, np.array([[x, y]]), blocks, len(names), previous)
    rest = float(s.z[0])
    if z < rest - REST_TOL:
        hi = lo + 1
        ov = np.minimum(hi[:, None], blocks.hi[None]) - np.maximum(lo[:, None], blocks.lo[None])
        inside = (ov > SIDE_TOL).all(axis=2)
        what = (
            f"inside {names[blocks.owner[int(np.argwhere(inside)[0][1])]]!r}"
            if inside.any()
            else "through the structure on its way down"
        )
        raise OverlapError(
            f"{where} would be {what}: lowered straight down at {_fmt(x)},{_fmt(y)} it rests "
            f"at z = {_fmt(rest)}"
        )
    if z > rest + REST_TOL:
        raise FloatingError(
            f"{where} would be let go in the air: a piece is lowered until it rests, here at "
            f"z = {_fmt(rest)} (or write 'at {_fmt(x)},{_fmt(y)}' to lower it)"
        )
    if not s.on[0].any():
        raise NothingBelowError(
            f"{where} has nothing of the structure below it: a piece must be placed on the "
            "structure (it would land on the table)"
        )
    if (c[:, 2] + rest <= REST_TOL).any():
        raise NothingBelowError(
            f"{where} would touch the table: every piece goes on the structure, not beside it"
        )
    if previous is not None and not s.on[0, previous]:
        raise NotOnPreviousError(
            f"{where} does not rest on {names[previous]!r}, the piece placed last (reading "
            "on-previous: 'balancing a piece on top of the previous one')"
        )
    return float(s.margin[0])
