"""Targets: the cells to fill, a 2D board (``z == 0``) or a 3D voxel mask, and their symmetries.

Coordinates: ``x`` is the column, ``y`` the row (row 0 is the first text row), ``z`` the layer
(layer 0 is the first text layer, the bottom). ``"5x8"`` is 5 rows of 8 columns (a Katamino
Penta 8: the long side is ``x``); ``"2x3x5"`` is 2 rows, 3 columns and 5 layers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from tablesim.games.katamino.errors import SolverError
from tablesim.games.polycubes import PLANE_SYMMETRIES, SYMMETRIES, Cell, Cells

MAX_CELLS = 4096
"""Largest target accepted (cells); the compiled kernel handles bounding boxes up to 64 cells."""

EMPTY_CHARS = " -_"
"""Characters of a mask file that are not part of the target."""
CELL_CHARS = "#"
"""Characters of a mask file that are cells of the target (``.`` too, see ``from_text``)."""


@dataclass(frozen=True)
class Target:
    """A set of cells to fill exactly. ``dims`` is 2 (a flat board: pieces lie flat, ``z == 0``)
    or 3 (a voxel mask: pieces turn freely in space). Cells are normalised: the minimum corner
    of the bounding box is the origin."""

    cells: Cells
    dims: int

    def __post_init__(self) -> None:
        if self.dims not in (2, 3):
            raise SolverError(f"target dims must be 2 or 3, got {self.dims!r}")
        if not self.cells:
            raise SolverError("a target needs at least one cell")
        if len(self.cells) > MAX_CELLS:
            raise SolverError(f"target has {len(self.cells)} cells; at most {MAX_CELLS} allowed")
        if self.dims == 2 and any(z for _, _, z in self.cells):
            raise SolverError("a 2D target has z == 0 on every cell")

    # -------------------------------------------------------------------------- builders
    @classmethod
    def from_cells(cls, cells, dims: int | None = None) -> Target:
        """A target from ``(x, y)`` or ``(x, y, z)`` cells; dims 2 when every z is 0 (default)."""
        out = set()
        for i, c in enumerate(cells):
            c = tuple(c)
            if len(c) == 2:
                c = (c[0], c[1], 0)
            if len(c) != 3 or not all(isinstance(v, (int, np.integer)) for v in c):
                raise SolverError(f"target cell {i}: {c!r} must be 2 or 3 integers")
            out.add(tuple(int(v) for v in c))
        if not out:
            raise SolverError("a target needs at least one cell")
        mins = [min(c[k] for c in out) for k in range(3)]
        norm = tuple(sorted((x - mins[0], y - mins[1], z - mins[2]) for x, y, z in out))
        if dims is None:
            dims = 3 if any(z for _, _, z in norm) else 2
        return cls(norm, dims)

    @classmethod
    def rectangle(cls, rows: int, cols: int) -> Target:
        """A ``rows`` x ``cols`` board (a Katamino Penta N is ``rectangle(5, N)``)."""
        _check_dims((rows, cols))
        return cls(tuple(sorted((x, y, 0) for x in range(cols) for y in range(rows))), 2)

    @classmethod
    def box(cls, rows: int, cols: int, layers: int) -> Target:
        """A ``rows`` x ``cols`` x ``layers`` box (``layers`` is the height)."""
        _check_dims((rows, cols, layers))
        cells = ((x, y, z) for x in range(cols) for y in range(rows) for z in range(layers))
        return cls(tuple(sorted(cells)), 3)

    @classmethod
    def parse(cls, spec: str) -> Target:
        """``"5x8"`` (rows x columns) or ``"2x3x5"`` (rows x columns x layers)."""
        m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*(?:[xX]\s*(\d+)\s*)?", spec)
        if not m:
            raise SolverError(
                f"board {spec!r}: expected ROWSxCOLS (e.g. 5x8) or ROWSxCOLSxLAYERS (e.g. 2x3x5)"
            )
        nums = [int(g) for g in m.groups() if g is not None]
        return cls.rectangle(*nums) if len(nums) == 2 else cls.box(*nums)

    @classmethod
    def from_text(cls, text: str, dims: int | None = None, where: str = "mask") -> Target:
        """A mask drawn as text: ``#`` or ``.`` is a cell, space, ``-`` or ``_`` is not.

        Layers (bottom first) are separated by blank lines; one layer gives a 2D board unless
        ``dims=3``. Any other character is an error naming its line and column.
        """
        cells = []
        for z, layer in enumerate(split_layers(text)):
            for y, (lineno, line) in enumerate(layer):
                for x, ch in enumerate(line):
                    if ch in EMPTY_CHARS:
                        continue
                    if ch in CELL_CHARS or ch == ".":
                        cells.append((x, y, z))
                        continue
                    raise SolverError(
                        f"{where}, line {lineno}, column {x + 1}: character {ch!r} "
                        "(allowed: '#' or '.' for a cell, space, '-' or '_' for none)"
                    )
        if not cells:
            raise SolverError(f"{where}: no cells (draw cells with '#')")
        n_layers = len(split_layers(text))
        return cls.from_cells(cells, dims=dims if dims is not None else (3 if n_layers > 1 else 2))

    # -------------------------------------------------------------------------- queries
    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.cells)

    @cached_property
    def extent(self) -> tuple[int, int, int]:
        """Bounding box size along x, y, z."""
        return tuple(max(c[k] for c in self.cells) + 1 for k in range(3))  # type: ignore[return-value]

    @cached_property
    def cell_set(self) -> frozenset[Cell]:
        """The cells as a frozenset."""
        return frozenset(self.cells)

    def is_box(self) -> bool:
        """True when the target fills its bounding box."""
        ex, ey, ez = self.extent
        return ex * ey * ez == self.size

    def describe(self) -> str:
        """``5x8`` / ``2x3x5`` for full rectangles and boxes, else ``mask of N cells``."""
        ex, ey, ez = self.extent
        if self.is_box():
            return f"{ey}x{ex}" if self.dims == 2 else f"{ey}x{ex}x{ez}"
        return f"{self.dims}D mask of {self.size} cells"

    def to_text(self) -> str:
        """The mask as text (``#`` cell, ``-`` none), layers bottom first; ``from_text`` reads it."""
        ex, ey, ez = self.extent
        layers = []
        for z in range(ez):
            rows = [
                "".join("#" if (x, y, z) in self.cell_set else "-" for x in range(ex))
                for y in range(ey)
            ]
            layers.append("\n".join(rows))
        return "\n\n".join(layers) + "\n"

    def symmetries(self) -> tuple[np.ndarray, ...]:
        """Matrices ``g`` (of the 8 plane symmetries in 2D, the 48 cube symmetries in 3D) that
        map the target onto itself after translation; identity first."""
        group = PLANE_SYMMETRIES if self.dims == 2 else SYMMETRIES
        return tuple(g for g in group if self.image_cells(g) == self.cells)

    def image_cells(self, g: np.ndarray) -> Cells:
        """The target's cells mapped by ``g`` and normalised (sorted)."""
        return tuple(sorted(self.map_cells(g, self.cells)))

    def map_cells(self, g: np.ndarray, cells) -> list[Cell]:
        """Map any cells by ``g``, translated as the target's own image is normalised."""
        arr = np.asarray(self.cells, dtype=np.int64) @ np.asarray(g, dtype=np.int64).T
        shift = -arr.min(axis=0)
        pts = np.asarray(list(cells), dtype=np.int64) @ np.asarray(g, dtype=np.int64).T + shift
        return [(int(x), int(y), int(z)) for x, y, z in pts.tolist()]


def split_layers(text: str) -> list[list[tuple[int, str]]]:
    """Split text into layers of ``(line number, line)`` at blank lines (trailing spaces kept)."""
    layers: list[list[tuple[int, str]]] = []
    cur: list[tuple[int, str]] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.rstrip("\r\n")
        if not line.strip():
            if cur:
                layers.append(cur)
                cur = []
            continue
        cur.append((lineno, line.rstrip()))
    if cur:
        layers.append(cur)
    return layers


def _check_dims(nums: tuple[int, ...]) -> None:
    for n in nums:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise SolverError(f"board sizes must be positive integers, got {nums!r}")
    total = int(np.prod(nums))
    if total > MAX_CELLS:
        raise SolverError(
            f"board {'x'.join(map(str, nums))} has {total} cells; at most {MAX_CELLS}"
        )
