"""Pure polycube geometry: catalogues of pieces, rotations, reflections, canonical forms.

A piece is a set of unit cells ``(x, y, z)`` (integers, z up). Flat pieces (polyominoes) have
``z == 0`` everywhere. The cells are unit cubes; the real edge of each cube kind, with the
catalogues at the end of this module, is :class:`PieceSizes` (the physics config extends it).

The rotation group of the cube has 24 proper rotations (signed permutation matrices with
determinant +1) and 24 improper ones (reflections). ``canonical`` picks the smallest sorted
cell tuple over a group, so two pieces are the same shape exactly when their canonical forms
are equal.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

Cell = tuple[int, int, int]
Cells = tuple[Cell, ...]


class PieceError(ValueError):
    """A piece specification that is not a valid polycube, or an unknown catalogue name."""


# ---------------------------------------------------------------------------------------
# Groups
# ---------------------------------------------------------------------------------------
def _signed_permutations() -> list[np.ndarray]:
    mats = []
    for perm in itertools.permutations(range(3)):
        for signs in itertools.product((1, -1), repeat=3):
            m = np.zeros((3, 3), dtype=np.int64)
            for row, (col, s) in enumerate(zip(perm, signs, strict=True)):
                m[row, col] = s
            mats.append(m)
    # Sort for a stable order: identity first, then lexicographic by entries.
    mats.sort(key=lambda m: tuple(-m.flatten()))
    return mats


_ALL = _signed_permutations()
ROTATIONS: tuple[np.ndarray, ...] = tuple(m for m in _ALL if round(np.linalg.det(m)) == 1)
"""The 24 proper rotations of the cube, as 3x3 integer matrices (identity first)."""
REFLECTIONS: tuple[np.ndarray, ...] = tuple(m for m in _ALL if round(np.linalg.det(m)) == -1)
"""The 24 improper symmetries of the cube (rotation composed with a mirror)."""
SYMMETRIES: tuple[np.ndarray, ...] = ROTATIONS + REFLECTIONS
"""All 48 symmetries of the cube."""

PLANE_ROTATIONS: tuple[np.ndarray, ...] = tuple(
    m for m in ROTATIONS if m[2, 2] == 1 and not m[2, :2].any() and not m[:2, 2].any()
)
"""The 4 rotations about the z axis (the one-sided group of flat pieces)."""
PLANE_SYMMETRIES: tuple[np.ndarray, ...] = tuple(
    m for m in SYMMETRIES if m[2, 2] == 1 and not m[2, :2].any() and not m[:2, 2].any()
)
"""The 8 symmetries of the square that keep z (rotations and mirrors in the plane)."""

GROUPS: dict[str, tuple[np.ndarray, ...]] = {
    "translation": (np.eye(3, dtype=np.int64),),
    "plane-rotations": PLANE_ROTATIONS,
    "plane": PLANE_SYMMETRIES,
    "rotations": ROTATIONS,
    "full": SYMMETRIES,
}
"""Named groups: fixed, one-sided 2D, free 2D, one-sided 3D (proper), free 3D (with mirrors)."""


# ---------------------------------------------------------------------------------------
# Cells
# ---------------------------------------------------------------------------------------
def as_cells(cells: Iterable[Sequence[int]]) -> Cells:
    """Validate and convert cells to a sorted tuple of integer triples (2-tuples get z=0).

    Raises PieceError for empty input, wrong arity, non-integers, duplicates or a piece whose
    cells are not face-connected.
    """
    from tablesim.games.limits import MAX_PIECE_CELLS

    out: list[Cell] = []
    for i, c in enumerate(cells):
        if i >= MAX_PIECE_CELLS:
            raise PieceError(f"a piece has at most {MAX_PIECE_CELLS} cells")
        c = tuple(c)
        if len(c) == 2:
            c = (c[0], c[1], 0)
        if len(c) != 3:
            raise PieceError(f"cell {i}: {str(c)[:200]} must have 2 or 3 coordinates")
        for v in c:
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                raise PieceError(f"cell {i}: {c!r} must hold integers")
        out.append((int(c[0]), int(c[1]), int(c[2])))
    if not out:
        raise PieceError("a piece needs at least one cell")
    if len(set(out)) != len(out):
        raise PieceError(f"duplicate cells in {str(out)[:200]}")
    if not is_connected(out):
        raise PieceError(f"cells {str(sorted(out))[:200]} are not face-connected")
    return tuple(sorted(out))


def is_connected(cells: Iterable[Cell]) -> bool:
    """True when the cells form one face-connected polycube."""
    cs = set(cells)
    if not cs:
        return False
    start = next(iter(cs))
    seen = {start}
    stack = [start]
    while stack:
        x, y, z = stack.pop()
        for n in _neighbours((x, y, z)):
            if n in cs and n not in seen:
                seen.add(n)
                stack.append(n)
    return len(seen) == len(cs)


def _neighbours(c: Cell) -> Iterable[Cell]:
    x, y, z = c
    yield from (
        (x + 1, y, z),
        (x - 1, y, z),
        (x, y + 1, z),
        (x, y - 1, z),
        (x, y, z + 1),
        (x, y, z - 1),
    )


def normalize(cells: Iterable[Cell]) -> Cells:
    """Translate so the minimum corner is the origin and sort."""
    cs = list(cells)
    mx = min(c[0] for c in cs)
    my = min(c[1] for c in cs)
    mz = min(c[2] for c in cs)
    return tuple(sorted((x - mx, y - my, z - mz) for x, y, z in cs))


def transform(cells: Iterable[Cell], matrix: np.ndarray) -> Cells:
    """Apply a 3x3 integer matrix to every cell and normalise."""
    arr = np.asarray(list(cells), dtype=np.int64) @ np.asarray(matrix, dtype=np.int64).T
    return normalize(map(tuple, arr.tolist()))


def orientations(cells: Iterable[Cell], group: str = "rotations") -> tuple[Cells, ...]:
    """The distinct normalised images of a piece under a named group, sorted."""
    return _orientations(normalize(cells), group)


@lru_cache(maxsize=4096)
def _orientations(cells: Cells, group: str) -> tuple[Cells, ...]:
    if group not in GROUPS:
        raise PieceError(f"unknown group {group!r} (allowed: {', '.join(GROUPS)})")
    return tuple(sorted({transform(cells, m) for m in GROUPS[group]}))


def canonical(cells: Iterable[Cell], group: str = "full") -> Cells:
    """The canonical form of a piece under a group: the smallest of its orientations."""
    return orientations(cells, group)[0]


def is_flat(cells: Iterable[Cell]) -> bool:
    """True when the piece fits in a one-cell-thick slab along some axis."""
    arr = np.asarray(list(cells))
    return bool(((arr.max(axis=0) - arr.min(axis=0)) == 0).any())


def is_chiral(cells: Iterable[Cell]) -> bool:
    """True when the mirror image cannot be reached by a proper rotation."""
    cs = normalize(cells)
    return canonical(cs, "rotations") != canonical(transform(cs, np.diag([-1, 1, 1])), "rotations")


def mirror(cells: Iterable[Cell]) -> Cells:
    """The mirror image (x -> -x), normalised."""
    return transform(cells, np.diag([-1, 1, 1]))


def enumerate_polycubes(n: int, dims: int = 3, group: str = "rotations") -> tuple[Cells, ...]:
    """Every polycube (dims=3) or polyomino (dims=2) of ``n`` cells, once per class of ``group``.

    Grows fixed shapes cell by cell from size n-1 and keeps one canonical form per class.
    Published counts (OEIS A000105, A000988, A001168, A000162, A038119) are checked in tests.
    """
    if dims not in (2, 3):
        raise PieceError(f"dims must be 2 or 3, got {dims}")
    if n < 1:
        raise PieceError(f"n must be >= 1, got {n}")
    fixed: set[Cells] = {((0, 0, 0),)}
    for _ in range(n - 1):
        grown: set[Cells] = set()
        for shape in fixed:
            cs = set(shape)
            for c in shape:
                for nb in _neighbours(c):
                    if nb in cs or (dims == 2 and nb[2] != 0):
                        continue
                    grown.add(normalize(cs | {nb}))
        fixed = grown
    return tuple(sorted({canonical(s, group) for s in fixed}))


def bounding_box(cells: Iterable[Cell]) -> tuple[int, int, int]:
    """Size of the axis-aligned bounding box in cells."""
    arr = np.asarray(list(cells))
    sx, sy, sz = (int(v) for v in arr.max(axis=0) - arr.min(axis=0) + 1)
    return (sx, sy, sz)


# ---------------------------------------------------------------------------------------
# Boxes: a polycube as a few axis-aligned boxes (collision shapes, URDF, statics)
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Box:
    """An axis-aligned block of cells: ``origin`` is its minimum cell, ``size`` its extent."""

    origin: Cell
    size: tuple[int, int, int]

    def cells(self) -> Cells:
        """The cells this box covers."""
        ox, oy, oz = self.origin
        sx, sy, sz = self.size
        return tuple(
            (ox + i, oy + j, oz + k) for i in range(sx) for j in range(sy) for k in range(sz)
        )

    @property
    def volume(self) -> int:
        """Number of cells."""
        return self.size[0] * self.size[1] * self.size[2]

    def centre(self) -> tuple[float, float, float]:
        """Centre in cell units, with cell (0,0,0) spanning [0,1]^3."""
        (ox, oy, oz), (sx, sy, sz) = self.origin, self.size
        return (ox + sx / 2, oy + sy / 2, oz + sz / 2)


def merge_into_boxes(cells: Iterable[Cell]) -> tuple[Box, ...]:
    """Partition a polycube into few axis-aligned boxes (greedy, deterministic).

    Repeatedly takes the first uncovered cell (sorted order) and grows the largest box from it
    over the 6 axis orders, so an L-tetracube becomes a 3-bar and a cube, an O-tetromino one
    2x2 box. Fewer boxes mean fewer contacts and a faster, calmer simulation.
    """
    return _merge_into_boxes(as_cells(cells))


@lru_cache(maxsize=4096)
def _merge_into_boxes(cells: Cells) -> tuple[Box, ...]:
    """:func:`merge_into_boxes` of validated cells, cached (the statics check and the world
    ask for the same pieces' boxes again and again)."""
    remaining = set(cells)
    boxes: list[Box] = []
    while remaining:
        start = min(remaining)
        best: Box | None = None
        for order in itertools.permutations(range(3)):
            size = [1, 1, 1]
            for axis in order:
                while True:
                    trial = list(size)
                    trial[axis] += 1
                    cand = Box(start, (trial[0], trial[1], trial[2]))
                    if all(c in remaining for c in cand.cells()):
                        size = trial
                    else:
                        break
            box = Box(start, (size[0], size[1], size[2]))
            if best is None or box.volume > best.volume:
                best = box
        assert best is not None  # start itself is always a 1x1x1 box
        boxes.append(best)
        remaining -= set(best.cells())
    return tuple(boxes)


# ---------------------------------------------------------------------------------------
# Mass properties (analytic, exact for unit cubes of uniform density)
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MassProperties:
    """Mass (kg), centre of mass (m, in the piece frame where cell (0,0,0) spans [0,a]^3),
    inertia tensor about the centre of mass (kg m^2, 3x3), principal moments (ascending) and
    principal axes (columns of a proper rotation matrix)."""

    mass: float
    com: np.ndarray
    inertia: np.ndarray
    principal_moments: np.ndarray
    principal_axes: np.ndarray


def mass_properties(cells: Iterable[Cell], edge: float, density: float) -> MassProperties:
    """Exact mass properties of a polycube of cube ``edge`` (m) and ``density`` (kg/m^3).

    Each cube contributes m a^2/6 about its own centre plus the parallel-axis term. Cached
    (every physics world builds every piece): the arrays of the result are read-only.
    """
    key = tuple(tuple(c) for c in cells)
    return _mass_properties(key, float(edge), float(density))


@lru_cache(maxsize=4096)
def _mass_properties(
    cells: tuple[tuple[int, ...], ...], edge: float, density: float
) -> MassProperties:
    mp = _compute_mass_properties(cells, edge, density)
    for arr in (mp.com, mp.inertia, mp.principal_moments, mp.principal_axes):
        arr.setflags(write=False)
    return mp


def _compute_mass_properties(
    cells: Iterable[Sequence[int]], edge: float, density: float
) -> MassProperties:
    """Mass properties with the same bits on every CPU.

    Nothing here goes through BLAS/LAPACK: OpenBLAS picks its kernels by CPU (SkylakeX on an
    AVX-512 Xeon, Zen or Haswell elsewhere) and ``np.linalg.eigh`` of the same tensor gave
    principal axes differing by up to 1.86 (a different basis of a degenerate eigenspace) and
    9e-4 (near-degenerate) between kernels (measured with ``OPENBLAS_CORETYPE``), which set
    Bullet's body frames apart and made one resting tower drift 0.08 mm on one machine and
    0.24 mm on another. The tensor is exact in integers (cells on the unit grid), each entry
    rounded once to float; its eigenvectors come from :func:`_jacobi_eigh` (IEEE basic
    operations and ``math.sqrt`` only, every one correctly rounded on any x86-64 CPU).
    """
    cs = [tuple(int(v) for v in c) for c in as_cells(cells)]
    n = len(cs)
    m_cube = density * edge**3
    sums = [sum(c[k] for c in cs) for k in range(3)]
    # com = (S/n + 1/2) a; D = n c - S is n times a cell's offset from the com (integers)
    com = np.array([float(Fraction(2 * sums[k] + n, 2 * n)) * edge for k in range(3)])
    dev = [[n * c[k] - sums[k] for k in range(3)] for c in cs]
    outer = [[sum(d[i] * d[j] for d in dev) for j in range(3)] for i in range(3)]
    trace = outer[0][0] + outer[1][1] + outer[2][2]
    # 6 n^2 I / (m_cube a^2) = n^3 E + 6 (tr M E - M), an integer matrix
    whole = [
        [(n**3 + 6 * trace if i == j else 0) - 6 * outer[i][j] for j in range(3)] for i in range(3)
    ]
    scale = Fraction(1, 6 * n * n)
    unit = m_cube * edge**2
    inertia = np.array([[float(whole[i][j] * scale) * unit for j in range(3)] for i in range(3)])
    values, vectors = _jacobi_eigh([[float(v) for v in row] for row in whole])
    moments = np.array([float(Fraction(v) * scale) * unit for v in values])
    axes = np.array(vectors, dtype=float)
    return MassProperties(n * m_cube, com, inertia, moments, axes)


def _jacobi_eigh(a: list[list[float]]) -> tuple[list[float], list[list[float]]]:
    """Eigenvalues (ascending) and eigenvectors (columns of a proper rotation) of a symmetric
    3x3 matrix by cyclic Jacobi rotations, in Python floats: deterministic bit for bit.

    Ties keep the coordinate order (a diagonal matrix gives a permutation of the identity);
    each axis is signed so that its largest component is positive, the last then flipped if
    needed for det +1, so one tensor always gives one basis."""
    m = [row[:] for row in a]
    v = [[1.0 if i == j else 0.0 for j in range(3)] for i in range(3)]
    for _ in range(50):
        off = abs(m[0][1]) + abs(m[0][2]) + abs(m[1][2])
        if off == 0.0:
            break
        for p, q in ((0, 1), (0, 2), (1, 2)):
            if m[p][q] == 0.0:
                continue
            theta = (m[q][q] - m[p][p]) / (2.0 * m[p][q])
            t = (1.0 if theta >= 0 else -1.0) / (abs(theta) + math.sqrt(theta * theta + 1.0))
            c = 1.0 / math.sqrt(t * t + 1.0)
            s = t * c
            for k in range(3):  # m <- m J (columns p, q), then J^T m (rows p, q)
                mkp, mkq = m[k][p], m[k][q]
                m[k][p], m[k][q] = c * mkp - s * mkq, s * mkp + c * mkq
            for k in range(3):
                mpk, mqk = m[p][k], m[q][k]
                m[p][k], m[q][k] = c * mpk - s * mqk, s * mpk + c * mqk
            m[p][q] = m[q][p] = 0.0
            for k in range(3):
                vkp, vkq = v[k][p], v[k][q]
                v[k][p], v[k][q] = c * vkp - s * vkq, s * vkp + c * vkq
        if abs(m[0][1]) + abs(m[0][2]) + abs(m[1][2]) >= off:
            break  # no progress: at the floor of float precision
    order = sorted(range(3), key=lambda k: (m[k][k], k))
    values = [m[k][k] for k in order]
    cols = [[v[i][k] for i in range(3)] for k in order]
    for col in cols:
        big = max(range(3), key=lambda i: (abs(col[i]), -i))
        if col[big] < 0:
            col[:] = [-x for x in col]
    x, y, z = cols
    det = (
        x[0] * (y[1] * z[2] - y[2] * z[1])
        - x[1] * (y[0] * z[2] - y[2] * z[0])
        + x[2] * (y[0] * z[1] - y[1] * z[0])
    )
    if det < 0:
        cols[2] = [-w for w in z]
    return values, [[cols[j][i] for j in range(3)] for i in range(3)]


# ---------------------------------------------------------------------------------------
# Catalogues
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Piece:
    """A named piece of a catalogue: ``label`` is what is printed on it (may repeat),
    ``name`` is unique in its catalogue, ``value`` the points it scores (Kozo)."""

    name: str
    label: str
    cells: Cells
    value: int
    color: str

    @property
    def size(self) -> int:
        """Number of cubes."""
        return len(self.cells)


KOZO_CUBE_MM = 17.8
"""Edge of a Kozo cube: the ACTOP standard edition's 0.7 in (docs/rules/kozo.md)."""
BALANCE_CUBE_MM = 10.2
"""Edge of Kozo's balance cube: 0.4 in (docs/rules/kozo.md)."""
KATAMINO_CUBE_MM = 19.0
"""Edge of a Katamino unit square: about 3/4 in (docs/rules/katamino-duo.md)."""
UNIT_CUBE_MM = 20.0
"""Edge of the cubes of the abstract sets (an arbitrary round size)."""
WOOD_DENSITY = 700.0
"""Density of the pieces' wood, kg/m^3: beech or maple, 700-900 cited; the lower end."""


@dataclass(frozen=True)
class PieceSizes:
    """The real size of each cube kind a catalogue is built of (metres), and the density of
    the wood: what a piece's mesh, mass and inertia need. Defined here, with the catalogues,
    once; :class:`tablesim.sim.config.PhysicsConfig` extends it (a scene may change any of them)."""

    kozo_cube: float = KOZO_CUBE_MM * 1e-3
    balance_cube: float = BALANCE_CUBE_MM * 1e-3
    katamino_cube: float = KATAMINO_CUBE_MM * 1e-3
    unit_cube: float = UNIT_CUBE_MM * 1e-3
    density: float = WOOD_DENSITY

    def cube_edge(self, kind: str) -> float:
        """Edge in metres of a cube kind: ``kozo``, ``balance``, ``katamino`` or ``unit``."""
        edges = {
            "kozo": self.kozo_cube,
            "balance": self.balance_cube,
            "katamino": self.katamino_cube,
            "unit": self.unit_cube,
        }
        if kind not in edges:
            raise ValueError(f"unknown cube kind {kind!r} (allowed: {', '.join(edges)})")
        return edges[kind]


@dataclass(frozen=True)
class Catalogue:
    """A named set of pieces. ``cube`` names its cube kind in :class:`PieceSizes`
    (``kozo``, ``balance`` or ``katamino``; ``unit`` for abstract sets)."""

    name: str
    cube: str
    description: str
    pieces: tuple[Piece, ...]

    def piece(self, name: str) -> Piece:
        """The piece called ``name`` (PieceError listing the names if unknown)."""
        for p in self.pieces:
            if p.name == name:
                return p
        raise PieceError(
            f"catalogue {self.name!r} has no piece {name!r} "
            f"(pieces: {', '.join(p.name for p in self.pieces)})"
        )

    @property
    def total_cubes(self) -> int:
        """Total number of cubes in the set."""
        return sum(p.size for p in self.pieces)


def _p2(*xy: tuple[int, int]) -> Cells:
    return as_cells((x, y, 0) for x, y in xy)


PENTOMINO_CELLS: dict[str, Cells] = {
    "F": _p2((1, 0), (2, 0), (0, 1), (1, 1), (1, 2)),
    "I": _p2((0, 0), (1, 0), (2, 0), (3, 0), (4, 0)),
    "L": _p2((0, 0), (1, 0), (2, 0), (3, 0), (0, 1)),
    "N": _p2((0, 0), (1, 0), (2, 0), (2, 1), (3, 1)),
    "P": _p2((0, 0), (1, 0), (0, 1), (1, 1), (0, 2)),
    "T": _p2((0, 0), (1, 0), (2, 0), (1, 1), (1, 2)),
    "U": _p2((0, 0), (2, 0), (0, 1), (1, 1), (2, 1)),
    "V": _p2((0, 0), (1, 0), (2, 0), (0, 1), (0, 2)),
    "W": _p2((0, 0), (1, 0), (1, 1), (2, 1), (2, 2)),
    "X": _p2((1, 0), (0, 1), (1, 1), (2, 1), (1, 2)),
    "Y": _p2((0, 0), (1, 0), (2, 0), (3, 0), (1, 1)),
    "Z": _p2((0, 0), (1, 0), (1, 1), (1, 2), (2, 2)),
}
TETROMINO_CELLS: dict[str, Cells] = {
    "I": _p2((0, 0), (1, 0), (2, 0), (3, 0)),
    "L": _p2((0, 0), (1, 0), (2, 0), (0, 1)),
    "O": _p2((0, 0), (1, 0), (0, 1), (1, 1)),
    "S": _p2((0, 0), (1, 0), (1, 1), (2, 1)),
    "T": _p2((0, 0), (1, 0), (2, 0), (1, 1)),
}
_SCREW = as_cells([(0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 1, 1)])
SOMA_CELLS: dict[str, Cells] = {
    "V": _p2((0, 0), (1, 0), (0, 1)),
    "L": TETROMINO_CELLS["L"],
    "T": TETROMINO_CELLS["T"],
    "Z": TETROMINO_CELLS["S"],
    "A": _SCREW,
    "B": mirror(_SCREW),
    "P": as_cells([(0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1)]),
}

_PALETTE = (
    "#c0392b",
    "#2980b9",
    "#27ae60",
    "#f1c40f",
    "#8e44ad",
    "#e67e22",
    "#16a085",
    "#f6b8d8",
    "#2c3e50",
    "#e84393",
    "#7f8c8d",
    "#556b00",
)
"""Piece colours in catalogue order: any two at least 20 apart in CIE76 delta-E (issue 32: a
pumpkin beside an orange, 17, read as one colour; tests/test_piece_colours.py)."""
_MORE = ("#4a0e0e", "#0022cc", "#c8f53c", "#0a0a3c")
"""Four more for a set of over 12 kinds (Katamino Duo's V, W, X, Y), as far from the palette."""


def _catalogue(name: str, cube: str, description: str, rows: Sequence[tuple]) -> Catalogue:
    pieces = []
    for i, row in enumerate(rows):
        pname, label, cells, value = row[:4]
        color = row[4] if len(row) > 4 else _PALETTE[i % len(_PALETTE)]
        pieces.append(Piece(pname, label, as_cells(cells), value, color))
    return Catalogue(name, cube, description, tuple(pieces))


# Kozo: the two 2s are 1x1x2 bars (forced); the rest is our choice (docs/rules/kozo.md):
# the 3s are the I- and L-tricube; 4s: flat L, T, S and the non-flat branch and screw;
# 5s: flat U and V (both fit the 8-square ring around the chimney) and a non-flat pentacube.
_KOZO = [
    ("2a", "2", [(0, 0, 0), (1, 0, 0)], 2),
    ("2b", "2", [(0, 0, 0), (1, 0, 0)], 2),
    ("3I", "3", [(0, 0, 0), (1, 0, 0), (2, 0, 0)], 3),
    ("3L", "3", [(0, 0, 0), (1, 0, 0), (0, 1, 0)], 3),
    ("4L", "4", TETROMINO_CELLS["L"], 4),
    ("4T", "4", TETROMINO_CELLS["T"], 4),
    ("4S", "4", TETROMINO_CELLS["S"], 4),
    ("4B", "4", SOMA_CELLS["P"], 4),
    ("4Q", "4", _SCREW, 4),
    ("5U", "5", PENTOMINO_CELLS["U"], 5),
    ("5V", "5", PENTOMINO_CELLS["V"], 5),
    ("5R", "5", [(0, 0, 0), (1, 0, 0), (2, 0, 0), (2, 1, 0), (0, 0, 1)], 5),
]

# Katamino Duo: pentomino numbers 2..8 are our assignment, not published
# (docs/rules/katamino-duo.md).
_KATAMINO_NUMBERS = {"2": "L", "3": "Y", "4": "N", "5": "P", "6": "U", "7": "V", "8": "Z"}
_KATAMINO_TETRA = {"A": "I", "B": "L", "C": "O", "D": "S", "E": "T"}
_KATAMINO: list[tuple] = (
    [(n, n, PENTOMINO_CELLS[s], 5) for n, s in _KATAMINO_NUMBERS.items()]
    + [(n, n, TETROMINO_CELLS[s], 4) for n, s in _KATAMINO_TETRA.items()]
    + [
        ("V1", "V", [(0, 0, 0)], 1, _MORE[0]),  # the two of a kind share their colour
        ("V2", "V", [(0, 0, 0)], 1, _MORE[0]),
        ("W1", "W", [(0, 0, 0), (1, 0, 0)], 2, _MORE[1]),
        ("W2", "W", [(0, 0, 0), (1, 0, 0)], 2, _MORE[1]),
        ("X", "X", [(0, 0, 0), (1, 0, 0), (2, 0, 0)], 3, _MORE[2]),
        ("Y", "Y", [(0, 0, 0), (1, 0, 0), (0, 1, 0)], 3, _MORE[3]),
    ]
)

CATALOGUES: dict[str, Catalogue] = {
    c.name: c
    for c in (
        _catalogue("kozo-standard", "kozo", "Kozo/ACTOP polycubes (shapes our reading)", _KOZO),
        _catalogue(
            "kozo-balance",
            "balance",
            "Kozo's 12 small balance cubes",
            [(f"b{i}", "b", [(0, 0, 0)], 0, "#f5e6c8") for i in range(1, 13)],
        ),
        _catalogue("katamino-duo", "katamino", "Katamino Duo: 18 pieces, 67 cubes", _KATAMINO),
        _catalogue(
            "pentominoes", "katamino", "the 12 free pentominoes",
            [(k, k, v, 5) for k, v in PENTOMINO_CELLS.items()],
        ),
        _catalogue(
            "tetrominoes", "katamino", "the 5 free tetrominoes",
            [(k, k, v, 4) for k, v in TETROMINO_CELLS.items()],
        ),
        _catalogue(
            "soma", "katamino", "Piet Hein's Soma cube (7 pieces, 27 cubes)",
            [(k, k, v, len(v)) for k, v in SOMA_CELLS.items()],
        ),
    )
}  # fmt: skip


def catalogue_names() -> list[str]:
    """Names of the shipped catalogues."""
    return sorted(CATALOGUES)


def get_catalogue(name: str) -> Catalogue:
    """A catalogue by name (PieceError listing the known names if unknown)."""
    if name not in CATALOGUES:
        raise PieceError(f"unknown catalogue {name!r} (known: {', '.join(catalogue_names())})")
    return CATALOGUES[name]


def find_piece(ref: str) -> tuple[Catalogue, Piece]:
    """Resolve ``"catalogue:piece"`` (e.g. ``"kozo-standard:4L"``) to its catalogue and piece."""
    if ":" not in ref:
        raise PieceError(f"piece reference {ref!r} must be 'catalogue:piece', e.g. 'pentominoes:F'")
    cat_name, piece_name = ref.split(":", 1)
    cat = get_catalogue(cat_name)
    return cat, cat.piece(piece_name)
