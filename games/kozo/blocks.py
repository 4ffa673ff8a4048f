"""The Kozo grid frame, the pieces' orientations and a tower as axis-aligned boxes (pure).

Units are Kozo cube edges (1.0 = 17.8 mm by default) in the *grid frame*: the origin is the
minimum corner of the base's 3x3 grid of squares, on the board's top face; x and y run over
``[0, 3]``, z up. The chimney is the centre square ``[1, 2] x [1, 2]`` (the square edge is the
cube edge, an inference recorded in ``docs/rules/kozo.md``).

A placed item (polycube or balance cube) is kept as its *settled* pose: position of its piece
frame and a unit quaternion (x, y, z, w). For the placement rules
(:mod:`tablesim.games.kozo.placement`) every cube of an item becomes its world axis-aligned
bounding box (a :class:`Blocks` row), which is exact for an unrotated item and slightly larger
for a tilted one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from tablesim.games.polycubes import Cells, get_catalogue, orientations
from tablesim.games.quat import quat_to_matrix

GRID = 3.0
"""Grid side in cube edges (three squares)."""
CHIMNEY = (1.0, 2.0)
"""The chimney square's extent along x and along y."""


# ---------------------------------------------------------------------------------------
# Pieces and orientations
# ---------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def piece_orientations(catalogue: str, piece: str) -> tuple[Cells, ...]:
    """The distinct proper rotations of a piece (at most 24), normalised and sorted.

    A rotation index ``r`` in a move is the position in this tuple; its cells have their minimum
    corner at the origin, so a move's position is the minimum corner of the placed piece.
    """
    cells = get_catalogue(catalogue).piece(piece).cells
    return orientations(cells, "rotations")


@dataclass(frozen=True)
class Blocks:
    """Axis-aligned boxes of the tower: ``lo``/``hi`` (n, 3) corners, ``owner`` (n,) the index
    of the item each box belongs to, ``balance`` (n,) True for balance cubes."""

    lo: np.ndarray
    hi: np.ndarray
    owner: np.ndarray
    balance: np.ndarray
    names: tuple[str, ...]

    @property
    def size(self) -> int:
        """Number of boxes."""
        return int(self.lo.shape[0])


def item_boxes(cells: Cells, edge: float, pose: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """World AABBs (lo, hi), each (k, 3), of the cubes of an item posed at ``pose`` =
    (x, y, z, qx, qy, qz, qw); ``edge`` is the item's cube edge in Kozo edges."""
    p = np.asarray(pose[:3], dtype=float)
    r = quat_to_matrix(pose[3:7])
    centres = p + ((np.asarray(cells, dtype=float) + 0.5) * edge) @ r.T
    ext = np.abs(r) @ np.full(3, edge / 2)
    return centres - ext, centres + ext


def build_blocks(items: Sequence[tuple[str, Cells, float, Sequence[float], bool]]) -> Blocks:
    """Blocks of a tower from ``(name, cells, edge, pose, is_balance)`` items."""
    los, his, owners, bal = [], [], [], []
    for i, (_, cells, edge, pose, is_bal) in enumerate(items):
        lo, hi = item_boxes(cells, edge, pose)
        los.append(lo)
        his.append(hi)
        owners.extend([i] * len(lo))
        bal.extend([is_bal] * len(lo))
    if not los:
        z = np.zeros((0, 3))
        return Blocks(z, z, np.zeros(0, dtype=int), np.zeros(0, dtype=bool), ())
    return Blocks(
        np.vstack(los),
        np.vstack(his),
        np.asarray(owners, dtype=int),
        np.asarray(bal, dtype=bool),
        tuple(it[0] for it in items),
    )
