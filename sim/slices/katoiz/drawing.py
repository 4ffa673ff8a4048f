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
from functools import lru_cache

import numpy as np

from tablesim.sim.view.art import polygon_points, rgb255
from tablesim.sim.view.drawings.common import tile_item
from tablesim.sim.view.layout import LayoutError, TableLayout, cylinder_item

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
PICTURE_FACES: tuple[str, ...] = ("round", "square", "triangle", "large", "small", "blank")
"""Faces of the picture die (docs/rules/katoiz.md, "Components")."""
COLOUR_FACES: tuple[str, ...] = ("yellow", "green", "white", "red", "blue", "purple")
"""Faces of the colour die: the five colours and purple (any colour)."""
PURPLE = "#7a3fa6"
MARGIN = 3
"""How many cells around the grid stacks may lie (homes, piles in front of the players)."""
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
    """Stacks on a ``columns`` x ``rows`` grid (6 x 6 for 3-set and Stapeltje-four), discs,
    and the dice. Stack cells may also lie up to :data:`MARGIN` cells around the grid (home
    stacks, the tiles a player has taken, the stacks in front of a player). ``roll`` is the
    colour die's face (a colour of :data:`COLOURS` or ``purple``) and the picture die's face
    (one of :data:`PICTURE_FACES`, or None when the picture die is not in use), or None for no
    dice on the table."""

    stacks: tuple[KatoizStack, ...] = ()
    discs: tuple[KatoizDisc, ...] = ()
    columns: int = 6
    rows: int = 6
    roll: tuple[str, str | None] | None = None


def _check(table: KatoizTable) -> None:
    problems: list[str] = []
    cells: set[tuple[int, ...]] = set()  # tuple(): a cell read from a file may be a list
    for i, st in enumerate(table.stacks):
        where = f"stacks[{i}] at {st.cell}"
        c, r = st.cell
        if not (-MARGIN <= c < table.columns + MARGIN and -MARGIN <= r < table.rows + MARGIN):
            problems.append(
                f"{where}: too far from the {table.columns}x{table.rows} grid (cells "
                f"{-MARGIN}..{table.columns + MARGIN - 1} by {-MARGIN}..{table.rows + MARGIN - 1})"
            )
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
    taken: set[tuple[int, ...]] = set()
    for i, disc in enumerate(table.discs):
        where = f"discs[{i}] at {disc.cell}"
        if disc.colour not in DISC_COLOURS:
            problems.append(f"{where}: colour {disc.colour!r} (allowed: {', '.join(DISC_COLOURS)})")
        if tuple(disc.cell) not in cells:
            problems.append(f"{where}: no tile there (a disc lies on a tile)")
        if tuple(disc.cell) in taken:
            problems.append(f"{where}: a second disc on that tile (one disc per tile)")
        taken.add(tuple(disc.cell))
    if table.roll is not None:
        colour, picture = table.roll
        if colour not in COLOUR_FACES:
            problems.append(f"roll: colour face {colour!r} (allowed: {', '.join(COLOUR_FACES)})")
        if picture is not None and picture not in PICTURE_FACES:
            problems.append(f"roll: picture face {picture!r} (allowed: {', '.join(PICTURE_FACES)})")
    if problems:
        raise LayoutError("Katoiz table: " + "; ".join(problems))


@lru_cache(maxsize=256)
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
    out = np.asarray(img)
    out.setflags(write=False)  # cached: shared by every tile that looks the same
    return out


def colour_die_face(face: str, size: int = 128) -> np.ndarray:
    """A face of the colour die: painted all over in the colour (purple: any colour)."""
    from PIL import Image, ImageDraw

    colour = rgb255(PURPLE if face == "purple" else COLOURS[face])
    img = Image.new("RGB", (size, size), colour)
    ImageDraw.Draw(img).rectangle((0, 0, size - 1, size - 1), outline=(60, 60, 60), width=3)
    return np.asarray(img)


def picture_die_face(face: str, size: int = 128) -> np.ndarray:
    """A face of the picture die, in black on white: the three shapes as outlines, ``large`` a
    big filled disc, ``small`` a small one, ``blank`` nothing (any shape)."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (size, size), (246, 244, 236))
    d = ImageDraw.Draw(img)
    c, ink, w = size / 2, (25, 25, 30), max(3, size // 16)
    if face in SHAPES:
        pts = polygon_points(face, c, c, size * 0.3)
        if pts is None:
            d.ellipse((c - size * 0.3,) * 2 + (c + size * 0.3,) * 2, outline=ink, width=w)
        else:
            d.polygon(pts, outline=ink, width=w)
    elif face in ("large", "small"):
        r = size * (0.33 if face == "large" else 0.12)
        d.ellipse((c - r, c - r, c + r, c + r), fill=ink)
    d.rectangle((0, 0, size - 1, size - 1), outline=(200, 196, 186), width=3)
    return np.asarray(img)


def _die(item_id: str, faces: Sequence[str], top: str, paint, centre, yaw: float):  # noqa: ANN001, ANN202
    """A die with the six ``faces`` (opposite faces: 0-5, 1-4, 2-3) showing ``top``."""
    from tablesim.sim.model import quat_from_euler_deg
    from tablesim.sim.view.drawings.common import DIE_EDGE
    from tablesim.sim.view.layout import box_item

    k = faces.index(top)
    order = [k, 5 - k] + [i for i in range(6) if i not in (k, 5 - k)]
    keys = ("+z", "-z", "+x", "-x", "+y", "-y")
    pictures = {key: paint(faces[i]) for key, i in zip(keys, order, strict=True)}
    a = DIE_EDGE
    c, s_ = np.cos(np.radians(yaw)), np.sin(np.radians(yaw))
    off = np.array([c * a / 2 - s_ * a / 2, s_ * a / 2 + c * a / 2])
    corner = (centre[0] - off[0], centre[1] - off[1], 0.0)
    q = quat_from_euler_deg(0.0, 0.0, yaw)
    return box_item(item_id, (a, a, a), corner, (0.9, 0.9, 0.9), quat=q, faces=pictures)


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
    heights: dict[tuple[int, ...], int] = {}
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
    if table.roll is not None:
        colour, picture = table.roll
        right = cell_centre(table, (table.columns, -1))
        items.append(_die("colour-die", COLOUR_FACES, colour, colour_die_face, right, 12.0))
        if picture is not None:
            at = right + np.array([0.0, 0.032, 0.0])
            items.append(_die("picture-die", PICTURE_FACES, picture, picture_die_face, at, -8.0))
    return TableLayout(
        "katoiz", tuple(items), {"yaw": 0.0, "pitch": -58.0, "fill": 0.85}, "Katoiz tiles and discs"
    )
