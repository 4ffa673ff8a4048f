"""An exact-cover problem: a target, a multiset of pieces, the rules; compiled to bitboards.

Cells get bits in a fixed search order over the target's bounding box: the shortest axis
varies fastest and the longest slowest, so "the lowest empty cell" walks the board in short
columns (the 6x10 is filled column by column, 6 cells each). Cells of the bounding box outside
the target, and blocked cells (pieces already on a partial board), start filled.

Every legal placement (piece type, orientation, translation) becomes one bitmask, listed under
its anchor (its lowest bit) and its type: the kernels fill the lowest empty cell with the
placements anchored there, so each arrangement is met once. Identical pieces (same set of legal
orientations) form one type with a count, which the kernel decrements: two copies are never
swapped, so an arrangement is counted once, not once per ordering of the copies.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from tablesim.games.katamino.errors import SolverError
from tablesim.games.katamino.pieces import as_pieces
from tablesim.games.katamino.target import Target
from tablesim.games.polycubes import Cell, Cells, Piece, mirror, normalize, orientations

_AXIS_PRIORITY = (2, 1, 0)  # on equal extents: x slowest, then y, then z


@dataclass(frozen=True)
class PieceType:
    """Pieces of one shape: ``orientations`` are the legal ones under the rules."""

    index: int
    orientations: tuple[Cells, ...]
    pieces: tuple[Piece, ...]

    @property
    def count(self) -> int:
        """Number of identical copies."""
        return len(self.pieces)

    @property
    def size(self) -> int:
        """Cells per piece."""
        return len(self.orientations[0])


def is_straight(cells: Iterable[Cell]) -> bool:
    """True for a line of three or more cells: the I-pieces the Katamino rule holds horizontal
    (I-tromino, I-tetromino, I-pentomino; a domino is not "the straight piece")."""
    cs = list(cells)
    if len(cs) < 3:
        return False
    spans = [max(c[k] for c in cs) - min(c[k] for c in cs) for k in range(3)]
    return sum(1 for s in spans if s > 0) == 1


def legal_orientations(cells: Cells, dims: int, straight_horizontal: bool) -> tuple[Cells, ...]:
    """Orientations of a piece on a ``dims`` target: lying flat (z == 0) in 2D, any proper
    rotation in 3D; with ``straight_horizontal`` a straight piece keeps its axis along x in 2D
    (the board's length) and off the vertical in 3D."""
    ors = orientations(normalize(cells), "rotations")
    if dims == 2:
        ors = tuple(o for o in ors if all(z == 0 for _, _, z in o))
    if straight_horizontal and is_straight(cells):
        ors = tuple(o for o in ors if all(c[1] == 0 and c[2] == 0 for c in o)) if dims == 2 else \
            tuple(o for o in ors if all(c[2] == 0 for c in o))  # fmt: skip
    return ors


class Problem:
    """Target + pieces + rules, compiled for the kernels. Build once, solve many ways.

    Attributes: ``target``, ``pieces`` (the multiset, order kept), ``straight_horizontal``,
    ``blocked`` (cells already covered), ``types`` (``PieceType`` per shape), ``piece_types``
    (the type index of each piece), ``masks`` / ``ptypes`` (every legal placement's bitmask and
    type, grouped by anchor bit then type; ``ptr`` indexes the groups), ``start`` (the board
    before any piece: bits outside the target and blocked bits set), ``full`` (all bits).
    """

    def __init__(
        self,
        target: Target,
        pieces: str | Sequence[Piece],
        *,
        straight_horizontal: bool = False,
        blocked: Iterable[Cell] = (),
    ) -> None:
        if not isinstance(target, Target):
            raise SolverError(f"target must be a Target, got {type(target).__name__}")
        self.target = target
        self.pieces = as_pieces(pieces)
        self.straight_horizontal = bool(straight_horizontal)
        self.blocked: frozenset[Cell] = frozenset(
            (int(c[0]), int(c[1]), int(c[2])) for c in blocked
        )
        bad = sorted(self.blocked - target.cell_set)
        if bad:
            raise SolverError(f"blocked cells {bad[:5]} are not cells of the target")
        self.types = self._build_types()
        self._build_order()
        self._build_placements()

    # -------------------------------------------------------------------------- types
    def _build_types(self) -> tuple[PieceType, ...]:
        groups: dict[frozenset, list[Piece]] = {}
        ors_of: dict[frozenset, tuple[Cells, ...]] = {}
        piece_keys = []
        for p in self.pieces:
            if self.target.dims == 2 and not _lies_flat(p.cells):
                raise SolverError(
                    f"piece {p.name!r} is not flat: it cannot lie on a 2D board "
                    "(use a 3D target such as 2x3x5)"
                )
            ors = legal_orientations(p.cells, self.target.dims, self.straight_horizontal)
            key = frozenset(ors)
            piece_keys.append(key)
            groups.setdefault(key, []).append(p)
            ors_of[key] = ors
        keys = list(groups)
        self.piece_types = tuple(keys.index(key_of) for key_of in piece_keys)
        return tuple(PieceType(i, ors_of[k], tuple(groups[k])) for i, k in enumerate(keys))

    @cached_property
    def mirror_type(self) -> tuple[int | None, ...]:
        """For each type, the type holding its mirror image (itself when achiral), or None."""
        keys = {frozenset(t.orientations): t.index for t in self.types}
        out = []
        for t in self.types:
            m = legal_orientations(mirror(t.orientations[0]), self.target.dims,
                                   self.straight_horizontal)  # fmt: skip
            out.append(keys.get(frozenset(m)))
        return tuple(out)

    @property
    def area_matches(self) -> bool:
        """True when the pieces' cells add up to the free cells of the target."""
        return sum(t.size * t.count for t in self.types) == self.free_cells

    @property
    def free_cells(self) -> int:
        """Target cells not blocked."""
        return self.target.size - len(self.blocked)

    # -------------------------------------------------------------------------- bit order
    def _build_order(self) -> None:
        ext = self.target.extent
        axes = sorted(range(3), key=lambda k: (ext[k], _AXIS_PRIORITY[k]))  # inner first
        self.axes = tuple(axes)
        e = [ext[a] for a in axes]
        self.strides = (1, e[0], e[0] * e[1])
        self.nbits = e[0] * e[1] * e[2]
        full = (1 << self.nbits) - 1
        self.full = full
        shifts = []
        for k in range(3):
            not_last = not_first = 0
            for bit in range(self.nbits):
                coord = (bit // self.strides[k]) % e[k]
                if coord < e[k] - 1:
                    not_last |= 1 << bit
                if coord > 0:
                    not_first |= 1 << bit
            shifts += [not_last, not_first]
        self.shifts = tuple(shifts)
        start = full
        for c in self.target.cells:
            start &= ~(1 << self.bit(c))
        for b in self.blocked:
            start |= 1 << self.bit(b)
        self.start = start

    def bit(self, c: Cell) -> int:
        """The bit of a cell (of the bounding box)."""
        a0, a1, a2 = self.axes
        return c[a0] + self.strides[1] * c[a1] + self.strides[2] * c[a2]

    def cell_of_bit(self, bit: int) -> Cell:
        """Inverse of ``bit``."""
        ext = self.target.extent
        c = [0, 0, 0]
        for k, a in enumerate(self.axes):
            c[a] = (bit // self.strides[k]) % ext[a]
        return (c[0], c[1], c[2])

    def mask_of(self, cells: Iterable[Cell]) -> int:
        """The bitmask of some cells."""
        m = 0
        for c in cells:
            m |= 1 << self.bit(c)
        return m

    def cells_of(self, mask: int) -> Cells:
        """The cells of a bitmask, sorted."""
        out = []
        while mask:
            low = mask & -mask
            out.append(self.cell_of_bit(low.bit_length() - 1))
            mask ^= low
        return tuple(sorted(out))

    # -------------------------------------------------------------------------- placements
    def _build_placements(self) -> None:
        tcells = self.target.cell_set
        free = tcells - self.blocked
        ext = self.target.extent
        nt = len(self.types)
        by_anchor: dict[tuple[int, int], list[int]] = {}
        masks: list[int] = []
        ptype: list[int] = []
        for t in self.types:
            for o in t.orientations:
                ox = max(c[0] for c in o)
                oy = max(c[1] for c in o)
                oz = max(c[2] for c in o)
                for dz in range(ext[2] - oz):
                    for dy in range(ext[1] - oy):
                        for dx in range(ext[0] - ox):
                            cells = [(x + dx, y + dy, z + dz) for x, y, z in o]
                            if not all(c in free for c in cells):
                                continue
                            m = self.mask_of(cells)
                            anchor = (m & -m).bit_length() - 1
                            by_anchor.setdefault((anchor, t.index), []).append(len(masks))
                            masks.append(m)
                            ptype.append(t.index)
        # Order: by anchor bit, then type, then the order found (orientation, translation).
        order: list[int] = []
        ptr = [0] * (self.nbits * nt + 1)
        for bit in range(self.nbits):
            for ti in range(nt):
                ptr[bit * nt + ti] = len(order)
                order.extend(by_anchor.get((bit, ti), ()))
        ptr[self.nbits * nt] = len(order)
        self.ptr = tuple(ptr)
        self.masks = tuple(masks[i] for i in order)
        self.ptypes = tuple(ptype[i] for i in order)
        self.placement_index = {
            (t, m): i for i, (t, m) in enumerate(zip(self.ptypes, self.masks, strict=True))
        }

    def placements_of(self, type_index: int) -> list[int]:
        """Ids of the placements of one type."""
        return [i for i, t in enumerate(self.ptypes) if t == type_index]

    def restricted(self, keep: dict[int, set[int]]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(ptr, ids) of the placement table where type ``t`` keeps only the ids in ``keep[t]``;
        ``ids[j]`` is the original id of the j-th kept placement."""
        nt = len(self.types)
        ids: list[int] = []
        ptr = [0] * (self.nbits * nt + 1)
        for k in range(self.nbits * nt):
            ptr[k] = len(ids)
            t = k % nt
            for i in range(self.ptr[k], self.ptr[k + 1]):
                if t not in keep or i in keep[t]:
                    ids.append(i)
        ptr[-1] = len(ids)
        return tuple(ptr), tuple(ids)

    def counts(self) -> list[int]:
        """Copies per type."""
        return [t.count for t in self.types]

    def sizes(self) -> list[int]:
        """Cells per piece of each type."""
        return [t.size for t in self.types]

    @property
    def n_pieces(self) -> int:
        """Pieces to place."""
        return sum(t.count for t in self.types)

    # -------------------------------------------------------------------------- symmetry
    @cached_property
    def symmetry_group(self) -> tuple[tuple[np.ndarray, tuple[int, ...]], ...]:
        """Symmetries that map solutions to solutions, as (matrix, type map), one per distinct
        permutation of the cells (identity first).

        A symmetry of the target is kept when it keeps the blocked cells, keeps the rules (a
        straight piece held horizontal stays horizontal) and, for a reflection, when the piece
        multiset is mirror-closed (each type's mirror is a type with as many copies).
        """
        straight_present = self.straight_horizontal and any(
            is_straight(t.orientations[0]) for t in self.types
        )
        seen: set[tuple[Cell, ...]] = set()
        out = []
        for g in self.target.symmetries():
            proper = round(np.linalg.det(g)) == 1
            if straight_present:
                axis = 0 if self.target.dims == 2 else 2
                if g[axis, axis] == 0:
                    continue
            if proper or self.target.dims == 2:  # flat pieces flip freely on a 2D board
                tmap = tuple(range(len(self.types)))
            else:
                mt = self.mirror_type
                if any(
                    u is None or self.types[u].count != t.count
                    for t, u in zip(self.types, mt, strict=True)
                ):
                    continue
                tmap = tuple(u for u in mt if u is not None)
            if self.blocked and set(self.target.map_cells(g, self.blocked)) != self.blocked:
                continue
            key = tuple(self.target.map_cells(g, self.target.cells))
            if key in seen:
                continue
            seen.add(key)
            out.append((g, tmap))
        return tuple(out)

    def placement_perm(self, g: np.ndarray, tmap: tuple[int, ...]) -> tuple[int, ...]:
        """Symmetry ``(g, tmap)`` as a permutation of the placement ids (cached)."""
        key = (g.tobytes(), tmap)
        cache = self.__dict__.setdefault("_perm_cache", {})
        if key in cache:
            return cache[key]
        cells = self.target.cells
        bit_map = {self.bit(c): self.bit(d) for c, d in
                   zip(cells, self.target.map_cells(g, cells), strict=True)}  # fmt: skip
        perm = []
        for pid, m in enumerate(self.masks):
            image = 0
            while m:
                low = m & -m
                image |= 1 << bit_map[low.bit_length() - 1]
                m ^= low
            target_key = (tmap[self.ptypes[pid]], image)
            if target_key not in self.placement_index:
                raise RuntimeError(f"symmetry maps placement {pid} outside the placement table")
            perm.append(self.placement_index[target_key])
        cache[key] = tuple(perm)
        return cache[key]


def _lies_flat(cells: Cells) -> bool:
    return any(all(c[k] == cells[0][k] for c in cells) for k in range(3))
