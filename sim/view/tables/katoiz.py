"""Katoiz on the table: picture tiles (colour, shape, size) and blank tiles on a grid, in stacks
of any height, with the players' discs on top.

The game's state format does not exist yet, so the table is drawn from a small neutral
description, :class:`KatoizTable`; the Katoiz game adapts its state to it in a few lines (see
``docs/view.md``). A picture tile shows a round, square or triangle in its colour, large
(about three quarters of the face) or small (about a third); a blank tile is painted all over
in its colour (the colour ladder). Grid cell (c, r): column c from -x to +x, row r from the
near side (-y) to the far side; the grid is centred on the origin.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sim.view.art import polygon_points, rgb255
from sim.view.layout import LayoutError, TableLayout, cylinder_item
from sim.view.tables.common import tile_item

__all__ = [
    "COLOURS",
    "DISC_COLOURS",
    "KatoizDisc",
    "KatoizStack",
    "KatoizTable",
    "KatoizTile",
    "cell_centre",
    "katoiz_layout",
    "tile_picture",
]

COLOURS: dict[str, str] = {
    "yellow": "#f2c12e",
    "green": "#2f9a48",
    "white": "#f7f7f2",
    "red": "#d7372b",
    "blue": "#2566c8",
}
"""The five tile colours and how they are drawn."""
SHAPES: tuple[str, ...] = ("round", "square", "triangle")
SIZES: tuple[str, ...] = ("large", "small")
DISC_COLOURS: dict[str, str] = {
    "orange": "#ef7d1a",
    "purple": "#7b3fa0",
    "black": "#222222",
    "pink": "#e874b4",
}
"""Disc colours (the rulebook's 12 discs: each player takes 3 of one colour; the colours are
not printed in the text, these four are our choice)."""
TILE = 0.040
"""Side (m) of a tile (assumed: the rulebook gives no size)."""
THICKNESS = 0.005
"""Thickness (m) of a tile."""
GAP = 0.004
"""Gap (m) between neighbouring grid cells."""
DISC_RADIUS = 0.011
DISC_HEIGHT = 0.005
_FACE = (214, 196, 160)  # the wooden face around a picture
_OUTLINE = (55, 50, 45)


@dataclass(frozen=True)
class KatoizTile:
    """A tile: ``colour`` (one of :data:`COLOURS`); ``shape`` (round, square, triangle) and
    ``size`` (large, small) of its picture, both None for a blank tile."""

    colour: str
    shape: str | None = None
    size: str | None = None

    @property
    def blank(self) -> bool:
        """True for a tile without a picture."""
        return self.shape is None


@dataclass(frozen=True)
class KatoizStack:
    """The tiles lying at grid ``cell`` (column, row), bottom first; its height is their number."""

    cell: tuple[int, int]
    tiles: tuple[KatoizTile, ...]


@dataclass(frozen=True)
class KatoizDisc:
    """A player's disc of ``colour`` (one of :data:`DISC_COLOURS`) on the stack at ``cell``."""

    cell: tuple[int, int]
    colour: str


@dataclass(frozen=True)
class KatoizTable:
    """Stacks on a ``columns`` x ``rows`` grid (6 x 6 for 3-set and Stapeltje-four) and discs."""

    stacks: tuple[KatoizStack, ...] = ()
    discs: tuple[KatoizDisc, ...] = ()
    columns: int = 6
    rows: int = 6


def _check(table: KatoizTable) -> None:
    problems: list[str] = []
    cells: set[tuple[int, int]] = set()
    for i, st in enumerate(table.stacks):
        where = f"stacks[{i}] at {st.cell}"
        c, r = st.cell
        if not (0 <= c < table.columns and 0 <= r < table.rows):
            problems.append(f"{where}: off the {table.columns}x{table.rows} grid")
        if st.cell in cells:
            problems.append(f"{where}: a second stack on that cell")
        cells.add(tuple(st.cell))
        if not st.tiles:
            problems.append(f"{where}: a stack needs at least one tile")
        for k, t in enumerate(st.tiles):
            tw = f"{where} tile {k}"
            if t.colour not in COLOURS:
                problems.append(f"{tw}: colour {t.colour!r} (allowed: {', '.join(COLOURS)})")
            if (t.shape is None) != (t.size is None):
                problems.append(f"{tw}: give both shape and size, or neither (a blank tile)")
            if t.shape is not None and t.shape not in SHAPES:
                problems.append(f"{tw}: shape {t.shape!r} (allowed: {', '.join(SHAPES)})")
            if t.size is not None and t.size not in SIZES:
                problems.append(f"{tw}: size {t.size!r} (allowed: {', '.join(SIZES)})")
    taken: set[tuple[int, int]] = set()
    for i, disc in enumerate(table.discs):
        where = f"discs[{i}] at {disc.cell}"
        if disc.colour not in DISC_COLOURS:
            problems.append(f"{where}: colour {disc.colour!r} (allowed: {', '.join(DISC_COLOURS)})")
        if tuple(disc.cell) not in cells:
            problems.append(f"{where}: no tile there (a disc lies on a tile)")
        if tuple(disc.cell) in taken:
            problems.append(f"{where}: a second disc on that tile (one disc per tile)")
        taken.add(tuple(disc.cell))
    if problems:
        raise LayoutError("Katoiz table: " + "; ".join(problems))


def tile_picture(tile: KatoizTile, size: int = 256) -> np.ndarray:
    """The face of a Katoiz tile, (size, size, 3) uint8."""
    from PIL import Image, ImageDraw

    colour = rgb255(COLOURS[tile.colour])
    if tile.blank:
        img = Image.new("RGB", (size, size), colour)
        d = ImageDraw.Draw(img)
    else:
        img = Image.new("RGB", (size, size), _FACE)
        d = ImageDraw.Draw(img)
        r = size * (0.38 if tile.size == "large" else 0.17)
        c = size / 2
        width = max(2, size // 60)
        pts = polygon_points(tile.shape or "round", c, c, r)
        if pts is None:
            d.ellipse((c - r, c - r, c + r, c + r), fill=colour, outline=_OUTLINE, width=width)
        else:
            d.polygon(pts, fill=colour, outline=_OUTLINE, width=width)
    d.rectangle((0, 0, size - 1, size - 1), outline=(150, 130, 100), width=max(2, size // 64))
    return np.asarray(img)


def cell_centre(table: KatoizTable, cell: Sequence[int], height: int = 1) -> np.ndarray:
    """World point (m) at the centre of the top of a stack of ``height`` tiles at ``cell``."""
    pitch = TILE + GAP
    x = (cell[0] - (table.columns - 1) / 2) * pitch
    y = (cell[1] - (table.rows - 1) / 2) * pitch
    return np.array([x, y, height * THICKNESS])


def katoiz_layout(table: KatoizTable) -> TableLayout:
    """The layout of a Katoiz table (LayoutError lists every problem of the description)."""
    _check(table)
    items = []
    heights: dict[tuple[int, int], int] = {}
    for st in table.stacks:
        centre = cell_centre(table, st.cell)
        for k, t in enumerate(st.tiles):
            items.append(
                tile_item(
                    f"tile-{st.cell[0]}-{st.cell[1]}-{k}",
                    tile_picture(t),
                    centre,
                    TILE,
                    THICKNESS,
                    (0.80, 0.71, 0.55),
                    level=k,
                )
            )
        heights[tuple(st.cell)] = len(st.tiles)
    for disc in table.discs:
        top = cell_centre(table, disc.cell, heights[tuple(disc.cell)])
        items.append(
            cylinder_item(
                f"disc-{disc.cell[0]}-{disc.cell[1]}",
                DISC_RADIUS,
                DISC_HEIGHT,
                top + np.array([TILE * 0.22, -TILE * 0.22, 0.0]),  # off-centre: the picture shows
                DISC_COLOURS[disc.colour],
            )
        )
    return TableLayout(
        "katoiz", tuple(items), {"yaw": 0.0, "pitch": -58.0, "fill": 0.85}, "Katoiz tiles and discs"
    )
