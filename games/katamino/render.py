"""Drawing solutions and partial boards as text: one character per cell (the piece label),
layers bottom first side by side; optional ANSI colours (24-bit background from the piece
colour in its catalogue)."""

from __future__ import annotations

from collections.abc import Mapping

from tablesim.games.katamino.solver import PlacedPiece
from tablesim.games.katamino.target import Target
from tablesim.games.polycubes import CATALOGUES

EMPTY = "."
OUTSIDE = " "


def _colour_of(name: str, label: str) -> str | None:
    for cat in CATALOGUES.values():
        for p in cat.pieces:
            if p.name == name and p.label == label:
                return p.color
    return None


def _ansi(ch: str, colour: str | None) -> str:
    if not colour or len(colour) != 7:
        return ch
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    fg = "30" if (r * 299 + g * 587 + b * 114) / 1000 > 128 else "97"
    return f"\x1b[{fg};48;2;{r};{g};{b}m{ch}\x1b[0m"


def draw(
    target: Target, pieces: Mapping | list[PlacedPiece] | tuple, *, colour: bool = False
) -> str:
    """Draw a (partial) covering of ``target``: each covered cell shows its piece label (first
    character), an empty cell ``.``, a cell outside the target a space. Layers of a 3D target
    are drawn side by side under a ``z=K`` header, bottom layer first, two spaces apart."""
    placed = list(pieces.values()) if isinstance(pieces, Mapping) else list(pieces)
    at: dict = {}
    for pp in placed:
        for c in pp.cells:
            at[tuple(c)] = pp
    ex, ey, ez = target.extent
    lines = []
    if target.dims == 3:  # one header above each layer: z=0 is the bottom
        lines.append("  ".join(f"z={z}".ljust(ex) for z in range(ez)).rstrip())
    for y in range(ey):
        parts = []
        for z in range(ez):
            row = []
            for x in range(ex):
                c = (x, y, z)
                if c not in target.cell_set:
                    row.append(OUTSIDE)
                elif c in at:
                    pp = at[c]
                    ch = (pp.label or pp.name)[:1]
                    row.append(_ansi(ch, _colour_of(pp.name, pp.label)) if colour else ch)
                else:
                    row.append(EMPTY)
            parts.append("".join(row))
        lines.append("  ".join(parts).rstrip())
    return "\n".join(lines)
