"""Kaito on the table: the 6 x 6 grid of red and black tiles (Katana, Kabuto, Mon with its
value, the blank opening tiles), the two-sided Kaito piece, and each player's captured tiles.

The game's state format does not exist yet, so the table is drawn from a small neutral
description, :class:`KaitoTable`; the Kaito game adapts its state to it in a few lines (see
``docs/view.md``). A red tile is painted red with a cream symbol, a black tile near-black with
a cream symbol; an opening tile is plain wood. The Kaito is a disc, red on one face and black on
the other, lying with ``kaito_up`` on top (on a tile if its spot has one). Captured tiles lie in
a row in front of their capturer: red's at the near side (-y), black's at the far side.
Grid cell (c, r): column c from -x to +x, row r from the near side to the far side.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from tablesim.games.kaito.rules import FILES
from tablesim.sim.view.art import font, rgb255
from tablesim.sim.view.drawings.common import tile_item
from tablesim.sim.view.layout import LayoutError, TableLayout, cylinder_item

__all__ = [
    "KINDS",
    "SIDE_COLOURS",
    "KaitoTable",
    "KaitoTile",
    "cell_centre",
    "kaito_layout",
    "tile_picture",
]

KINDS: tuple[str, ...] = ("katana", "kabuto", "mon", "opening")
SIDE_COLOURS: dict[str, str] = {"red": "#b8322c", "black": "#262626"}
"""Face colour of each side's tiles (and the two faces of the Kaito)."""
TILE = 0.034
"""Side (m) of a tile (assumed: the rulebook gives no size)."""
THICKNESS = 0.006
GAP = 0.003
KAITO_RADIUS = 0.012
KAITO_HALF = 0.004  # each coloured half of the Kaito disc is this thick (m)
_CREAM = (243, 230, 200)
_WOOD = (214, 190, 150)


@dataclass(frozen=True)
class KaitoTile:
    """A tile: ``colour`` red or black (None for an opening tile), ``kind`` one of
    :data:`KINDS`, ``value`` the Mon's value 1..3 (0 for every other kind)."""

    colour: str | None
    kind: str
    value: int = 0


@dataclass(frozen=True)
class KaitoTable:
    """What a Kaito table shows: ``tiles`` as (cell, tile) pairs on a 6 x 6 grid, the Kaito's
    cell (None before it is placed) and the colour on its top face, and the tiles each player
    has captured (``captured[0]`` red's, ``captured[1]`` black's)."""

    tiles: tuple[tuple[tuple[int, int], KaitoTile], ...] = ()
    kaito: tuple[int, int] | None = None
    kaito_up: str = "red"
    captured: tuple[tuple[KaitoTile, ...], tuple[KaitoTile, ...]] = ((), ())
    size: int = 6


def _check_tile(t: KaitoTile, where: str, problems: list[str]) -> None:
    if t.kind not in KINDS:
        problems.append(f"{where}: kind {t.kind!r} (allowed: {', '.join(KINDS)})")
        return
    if t.kind == "opening":
        if t.colour is not None:
            problems.append(f"{where}: an opening tile has no colour")
    elif t.colour not in SIDE_COLOURS:
        problems.append(f"{where}: colour {t.colour!r} (allowed: red, black)")
    if t.kind == "mon" and t.value not in (1, 2, 3):
        problems.append(f"{where}: a Mon is worth 1, 2 or 3, got {t.value!r}")
    if t.kind != "mon" and t.value != 0:
        problems.append(f"{where}: only a Mon has a value, got {t.value!r}")


def _check(table: KaitoTable) -> None:
    problems: list[str] = []
    seen: set[tuple[int, ...]] = set()  # tuple(): a cell read from a file may be a list
    for i, (cell, t) in enumerate(table.tiles):
        where = f"tiles[{i}] at {cell}"
        if not (0 <= cell[0] < table.size and 0 <= cell[1] < table.size):
            problems.append(f"{where}: off the {table.size}x{table.size} grid")
        if tuple(cell) in seen:
            problems.append(f"{where}: a second tile on that cell")
        seen.add(tuple(cell))
        _check_tile(t, where, problems)
    for side, tiles in enumerate(table.captured):
        for k, t in enumerate(tiles):
            _check_tile(t, f"captured[{side}][{k}]", problems)
    if table.kaito is not None and not (
        0 <= table.kaito[0] < table.size and 0 <= table.kaito[1] < table.size
    ):
        problems.append(f"kaito at {table.kaito}: off the grid")
    if table.kaito_up not in SIDE_COLOURS:
        problems.append(f"kaito_up {table.kaito_up!r} (allowed: red, black)")
    if problems:
        raise LayoutError("Kaito table: " + "; ".join(problems))


def _katana(d, s: float, ink: tuple[int, int, int]) -> None:  # noqa: ANN001
    """A slightly curved sword from lower left to upper right, with its guard and grip."""
    pts_top, pts_bot = [], []
    for k in range(13):
        t = k / 12
        x, y = s * (0.30 + 0.52 * t), s * (0.70 - 0.52 * t) - s * 0.06 * math.sin(math.pi * t)
        w = s * 0.035 * (1 - 0.7 * t)
        pts_top.append((x - w, y - w))
        pts_bot.append((x + w, y + w))
    d.polygon(pts_top + pts_bot[::-1], fill=ink)
    d.ellipse((s * 0.23, s * 0.63, s * 0.37, s * 0.77), fill=ink)  # the guard (tsuba)
    d.line((s * 0.30, s * 0.70, s * 0.14, s * 0.86), fill=ink, width=int(s * 0.06))  # grip


def _kabuto(d, s: float, ink: tuple[int, int, int]) -> None:  # noqa: ANN001
    """A helmet: a dome, a wide neck guard and two crescent horns (kuwagata)."""
    d.chord((s * 0.27, s * 0.38, s * 0.73, s * 0.84), 180, 360, fill=ink)
    d.polygon(
        [(s * 0.18, s * 0.62), (s * 0.82, s * 0.62), (s * 0.74, s * 0.74), (s * 0.26, s * 0.74)],
        fill=ink,
    )
    w = int(s * 0.05)
    d.arc((s * 0.22, s * 0.14, s * 0.52, s * 0.58), 150, 250, fill=ink, width=w)
    d.arc((s * 0.48, s * 0.14, s * 0.78, s * 0.58), 290, 30, fill=ink, width=w)


def _mon(d, s: float, ink: tuple[int, int, int], value: int) -> None:  # noqa: ANN001
    """A clan emblem: a ring of petals around the value."""
    c, r = s / 2, s * 0.34
    d.ellipse((c - r, c - r, c + r, c + r), outline=ink, width=int(s * 0.035))
    for k in range(6):
        a = math.radians(60 * k + 30)
        px, py = c + 0.72 * r * math.cos(a), c + 0.72 * r * math.sin(a)
        pr = s * 0.045
        d.ellipse((px - pr, py - pr, px + pr, py + pr), fill=ink)
    d.text((c, c), str(value), fill=ink, font=font(int(s * 0.36)), anchor="mm")


@lru_cache(maxsize=256)
def tile_picture(tile: KaitoTile, size: int = 256) -> np.ndarray:
    """The face of a Kaito tile, (size, size, 3) uint8."""
    from PIL import Image, ImageDraw

    if tile.kind == "opening" or tile.colour is None:
        img = Image.new("RGB", (size, size), _WOOD)
        d = ImageDraw.Draw(img)
    else:
        img = Image.new("RGB", (size, size), rgb255(SIDE_COLOURS[tile.colour]))
        d = ImageDraw.Draw(img)
        if tile.kind == "katana":
            _katana(d, size, _CREAM)
        elif tile.kind == "kabuto":
            _kabuto(d, size, _CREAM)
        else:
            _mon(d, size, _CREAM, tile.value)
    d.rectangle((0, 0, size - 1, size - 1), outline=(120, 100, 80), width=max(2, size // 64))
    out = np.asarray(img)
    out.setflags(write=False)  # cached: shared by every tile that looks the same
    return out


def cell_centre(table: KaitoTable, cell: Sequence[float], height: int = 1) -> np.ndarray:
    """World point (m) at the centre of the top of a tile at grid ``cell``."""
    pitch = TILE + GAP
    x = (cell[0] - (table.size - 1) / 2) * pitch
    y = (cell[1] - (table.size - 1) / 2) * pitch
    return np.array([x, y, height * THICKNESS])


LABEL_T = 0.0008
"""Thickness (m) of the printed coordinate cards beside the grid."""


@lru_cache(maxsize=16)
def label_picture(text: str, size: int = 64) -> np.ndarray:
    """A small printed card: ``text`` dark on light, (size, size, 3) uint8, row 0 at the top."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (size, size), (236, 226, 204))
    d = ImageDraw.Draw(img)
    d.text((size / 2, size / 2), text, fill=(40, 30, 20), font=font(int(size * 0.7)), anchor="mm")
    out = np.asarray(img)
    out.setflags(write=False)
    return out


def _coordinate_labels(table: KaitoTable) -> list:
    """Files a-f in front of the grid (x) and ranks 1-6 to its left (y), as the terminal and
    the move texts name the squares (``a1`` is the front left corner)."""
    side, edge = TILE * 0.45, (0.75, 0.68, 0.55)
    out = []
    for k in range(table.size):
        f = cell_centre(table, (k, -0.78), 0)
        out.append(tile_item(f"label-file-{k}", label_picture(FILES[k]), f, side, LABEL_T, edge))
        r = cell_centre(table, (-0.78, k), 0)
        out.append(tile_item(f"label-rank-{k}", label_picture(str(k + 1)), r, side, LABEL_T, edge))
    return out


def kaito_layout(table: KaitoTable) -> TableLayout:
    """The layout of a Kaito table (LayoutError lists every problem of the description)."""
    _check(table)
    items = _coordinate_labels(table)
    occupied = {tuple(c) for c, _ in table.tiles}
    edge = (0.62, 0.50, 0.36)
    for cell, t in table.tiles:
        items.append(
            tile_item(
                f"tile-{cell[0]}-{cell[1]}",
                tile_picture(t),
                cell_centre(table, cell),
                TILE,
                THICKNESS,
                edge,
            )
        )
    for side, tiles in enumerate(table.captured):
        row = -1.6 if side == 0 else table.size + 0.6
        for k, t in enumerate(tiles):
            centre = cell_centre(table, (k, row))
            items.append(
                tile_item(f"captured{side}-{k}", tile_picture(t), centre, TILE, THICKNESS, edge)
            )
    if table.kaito is not None:
        on_tile = tuple(table.kaito) in occupied
        base = cell_centre(table, table.kaito, 1 if on_tile else 0)
        down = "black" if table.kaito_up == "red" else "red"
        items.append(
            cylinder_item("kaito-under", KAITO_RADIUS, KAITO_HALF, base, SIDE_COLOURS[down])
        )
        items.append(
            cylinder_item(
                "kaito",
                KAITO_RADIUS,
                KAITO_HALF,
                base + np.array([0.0, 0.0, KAITO_HALF]),
                SIDE_COLOURS[table.kaito_up],
            )
        )
    return TableLayout(
        "kaito", tuple(items), {"yaw": 0.0, "pitch": -58.0, "fill": 0.85}, "Kaito grid"
    )
