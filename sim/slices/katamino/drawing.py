"""Katamino Duo on the table: the 5 x 12 board, its slider(s), and pieces lying on it.

The game's state format does not exist yet, so the table is drawn from a small neutral
description, :class:`KataminoTable`; the Katamino game adapts its state to it in a few lines
(see ``docs/view.md``). Pieces are the ``katamino-duo`` catalogue of :mod:`tablesim.games.polycubes`
(names 2..8, A..E, V1, V2, W1, W2, X, Y) in their catalogue colours, as trimesh polycubes of
the Katamino cube edge (19 mm).

Board coordinates: column 0..11 from the left end (-x) to the right (+x), row 0..4 from the
near side (-y) to the far side; board cell (c, r) is drawn at the square whose near-left
corner is ``board_origin + (c, r) * edge``. A slider at position ``k`` stands on the line
between columns ``k - 1`` and ``k`` (so "Penta 5" from the left end is ``sliders=(5,)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from tablesim.games.polycubes import as_cells, canonical, get_catalogue
from tablesim.sim.config import PhysicsConfig
from tablesim.sim.view.art import font, wood_surface
from tablesim.sim.view.layout import Item, LayoutError, TableLayout, box_item, polycube_item

__all__ = [
    "BOARD_THICKNESS",
    "KataminoPlacement",
    "KataminoTable",
    "board_origin",
    "katamino_layout",
]

BOARD_THICKNESS = 0.010
"""Thickness (m) of the board."""
RIM = 0.014
"""Width (m) of the board's frame around the 5 x 12 cells."""
SLIDER_WIDTH = 0.004
"""Width (m) of a slider bar (it stands in the groove between two columns)."""
_BOARD_COLOR = "#e3cfa4"
_SLIDER_COLOR = "#8a4b2a"
CATALOGUE = "katamino-duo"
FULL_COLUMNS = 12
"""Columns of the full board: a supply row is at least as wide (a narrow box's too)."""
MAT_MARGIN = 0.006
MAT_THICKNESS = 0.0015
_MAT_COLOR = "#5b6e5d"


@dataclass(frozen=True)
class KataminoPlacement:
    """A piece on the board: ``piece`` is its name in the ``katamino-duo`` catalogue,
    ``cells`` the board cells (column, row) it covers, or (column, row, layer) for pieces built
    upwards (3-D challenges); any rotation or mirror image of the piece's shape."""

    piece: str
    cells: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class KataminoTable:
    """What a Katamino Duo table shows: slider positions (1..11 between columns; none for an
    empty board), the placed pieces, the pieces ``loose`` in front of the board (near side,
    names) and ``loose_far`` behind it (the second player's side), ``offered`` in a row of
    their own in front of the near player's.
    Every piece not on the board carries a white card with its name on its first cube
    (item ``label-<name>``), so a gift or a typed move can name it."""

    sliders: tuple[int, ...] = ()
    placed: tuple[KataminoPlacement, ...] = ()
    loose: tuple[str, ...] = ()
    loose_far: tuple[str, ...] = ()
    offered: tuple[str, ...] = ()
    """Pieces lying in front of the board to be given (a duel's gifts)."""
    slots: tuple[str, ...] = ()
    """Every piece of the near side in supply order (its slots; empty: ``loose``): those not
    in ``loose`` leave their slot empty."""
    slots_far: tuple[str, ...] = ()
    """The same for the far side (empty: ``loose_far``)."""
    columns: int = 12
    rows: int = 5


def _edge() -> float:
    return PhysicsConfig().katamino_cube


def board_origin(table: KataminoTable) -> np.ndarray:
    """World position (m) of the near-left corner of cell (0, 0), on the board's top; the board
    is centred on the origin."""
    a = _edge()
    return np.array([-table.columns * a / 2, -table.rows * a / 2, BOARD_THICKNESS])


def _check(table: KataminoTable) -> None:
    """Raise :class:`LayoutError` listing every problem of ``table``."""
    cat = get_catalogue(CATALOGUE)
    names = [p.name for p in cat.pieces]
    problems: list[str] = []
    for k in table.sliders:
        if not (isinstance(k, int) and 1 <= k < table.columns):
            problems.append(f"slider {k!r}: must be an integer 1..{table.columns - 1}")
    used: dict[tuple[int, ...], str] = {}
    seen: set[str] = set()
    for i, pl in enumerate(table.placed):
        where = f"placed[{i}] ({pl.piece})"
        if pl.piece not in names:
            problems.append(f"{where}: no such piece (pieces: {', '.join(names)})")
            continue
        if pl.piece in seen or pl.piece in table.loose + table.loose_far:
            problems.append(f"{where}: the piece is used twice")
        seen.add(pl.piece)
        cells = [tuple(c) for c in pl.cells]
        if any(len(c) not in (2, 3) for c in cells):
            problems.append(f"{where}: cells are (column, row) or (column, row, layer)")
            continue
        cells = [(*c, 0) if len(c) == 2 else c for c in cells]
        off = [
            c[:2] if c[2] == 0 else c
            for c in cells
            if not (0 <= c[0] < table.columns and 0 <= c[1] < table.rows and c[2] >= 0)
        ]
        if off:
            problems.append(f"{where}: cells {off} are off the {table.columns}x{table.rows} board")
        shape = cat.piece(pl.piece).cells
        try:
            same = canonical(as_cells(cells)) == canonical(shape)
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
            continue
        if not same:
            shown = [c[:2] if c[2] == 0 else c for c in cells]
            problems.append(f"{where}: cells {shown} are not the shape of piece {pl.piece}")
        for c in cells:
            at = c[:2] if c[2] == 0 else c
            if c in used:
                problems.append(f"{where}: cell {at} is already covered by {used[c]}")
            used[c] = pl.piece
    if len(set(table.sliders)) != len(table.sliders):
        problems.append(f"sliders {list(table.sliders)}: two sliders in one place")
    for name in table.loose + table.loose_far + table.offered:
        if name not in names:
            problems.append(f"loose piece {name!r}: no such piece (pieces: {', '.join(names)})")
    if problems:
        raise LayoutError("Katamino table: " + "; ".join(problems))


LABEL_SIDE = 0.8
"""Side of a name card as a fraction of the cube edge."""
LABEL_INK = (20, 20, 20)
LABEL_CARD = "#f7f3ea"


@lru_cache(maxsize=64)
def label_picture(name: str, px: int = 96) -> np.ndarray:
    """A name card's face: ``name`` in black, as large as fits, on white."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (px, px), LABEL_CARD)
    d = ImageDraw.Draw(img)
    f = font(int(px * (0.8 if len(name) == 1 else 0.55)))
    d.text((px / 2, px / 2), name, fill=LABEL_INK, font=f, anchor="mm")
    out = np.asarray(img)
    out.setflags(write=False)
    return out


def _label(name: str, cells: Sequence[Sequence[int]], corner: Sequence[float]) -> Item:
    """The name card of piece ``name`` lying with its ``cells`` from ``corner``: on the top of
    its first cube (cell with the lowest row, then column)."""
    a = _edge()
    c = min((int(v[1]), int(v[0]), int(v[2]) if len(v) > 2 else 0) for v in cells)
    side = LABEL_SIDE * a
    at = (
        corner[0] + (c[1] + 0.5) * a - side / 2,
        corner[1] + (c[0] + 0.5) * a - side / 2,
        corner[2] + (c[2] + 1) * a,
    )
    return box_item(
        f"label-{name}",
        (side, side, 0.0008),
        at,
        LABEL_CARD,
        faces={"+z": label_picture(name)},
        casts_shadow=False,
    )


def _board_picture(table: KataminoTable, px_per_cell: int = 64) -> np.ndarray:
    """The board top: wood, the cell grid, column numbers 1..12 on both long rims."""
    return _board_picture_of(table.columns, table.rows, px_per_cell)


@lru_cache(maxsize=4)
def _board_picture_of(columns: int, rows: int, px_per_cell: int) -> np.ndarray:
    from PIL import Image, ImageDraw

    table = KataminoTable(columns=columns, rows=rows)
    a = _edge()
    scale = px_per_cell / a
    w = int(round((table.columns * a + 2 * RIM) * scale))
    h = int(round((table.rows * a + 2 * RIM) * scale))
    img = Image.fromarray(wood_surface(_BOARD_COLOR, max(w, h), planks=3)[:h, :w])
    d = ImageDraw.Draw(img)
    r = RIM * scale
    ink = (95, 62, 38)
    for c in range(table.columns + 1):
        d.line((r + c * px_per_cell, r, r + c * px_per_cell, h - r), fill=ink, width=2)
    for k in range(table.rows + 1):
        d.line((r, r + k * px_per_cell, w - r, r + k * px_per_cell), fill=ink, width=2)
    f = font(int(r * 0.7))
    for c in range(table.columns):
        x = r + (c + 0.5) * px_per_cell
        d.text((x, r / 2), str(c + 1), fill=ink, font=f, anchor="mm")
        d.text((x, h - r / 2), str(c + 1), fill=ink, font=f, anchor="mm")
    out = np.asarray(img)
    out.setflags(write=False)
    return out


def katamino_layout(table: KataminoTable) -> TableLayout:
    """The layout of a Katamino table (LayoutError lists every problem of the description)."""
    _check(table)
    cat = get_catalogue(CATALOGUE)
    a = _edge()
    size = (table.columns * a + 2 * RIM, table.rows * a + 2 * RIM, BOARD_THICKNESS)
    board = box_item(
        "board",
        size,
        (-size[0] / 2, -size[1] / 2, 0.0),
        (0.89, 0.81, 0.64),
        finish="wood",
        faces={"+z": _board_picture(table)},
        receives_shadow=True,
    )
    items = [board]
    origin = board_origin(table)
    for k in table.sliders:
        x = origin[0] + k * a - SLIDER_WIDTH / 2
        items.append(
            box_item(
                f"slider{k}",
                (SLIDER_WIDTH, table.rows * a + 2 * RIM, 0.8 * a),
                (x, -size[1] / 2, BOARD_THICKNESS),
                _SLIDER_COLOR,
                finish="wood",
            )
        )
    for pl in table.placed:
        piece = cat.piece(pl.piece)
        cells = [(*c, 0) if len(c) == 2 else tuple(c) for c in pl.cells]
        lo = np.min(np.asarray(cells), axis=0)
        local = [tuple(int(v) for v in np.subtract(c, lo)) for c in cells]
        pos = origin + lo * a
        items.append(polycube_item(f"piece-{pl.piece}", local, a, pos, piece.color))
    # loose pieces: rows in front of the board (and behind it for the second player), left to
    # right, wrapping at the full board's width (a narrow 3-D box's supply too); the gifts in a
    # row of their own in front of the near player's. Every piece of a side has its slot (a
    # placed piece leaves a gap) on a mat that spans all the slots, so the table's extent, and
    # with it the drawn table and the camera, stays put as pieces are placed.
    half = max(size[0], FULL_COLUMNS * a + 2 * RIM) / 2
    near_slots = table.slots or table.loose
    near = (*near_slots, "", *table.offered) if table.offered else near_slots
    shown = set(table.loose) | set(table.loose_far) | set(table.offered)
    for side_no, (names, side) in enumerate(((near, -1), (table.slots_far or table.loose_far, 1))):
        x, y, row_depth = -half, side * (size[1] / 2 + 0.012), 0.0
        right, lo, hi = half, np.array([np.inf, np.inf]), np.array([-np.inf, -np.inf])
        for name in names:
            if not name:  # a new row, the gifts', which may reach past the board's end
                if x > -half:
                    x, y, row_depth = -half, y + side * (row_depth + 0.010), 0.0
                right = half + 3 * a
                continue
            piece = cat.piece(name)
            ext = np.max(np.asarray(piece.cells), axis=0) + 1
            if x + ext[0] * a > right and x > -half:
                x, y, row_depth = -half, y + side * (row_depth + 0.010), 0.0
            corner_y = y - ext[1] * a if side < 0 else y
            lo = np.minimum(lo, (x, corner_y))
            hi = np.maximum(hi, (x + ext[0] * a, corner_y + ext[1] * a))
            if name in shown:
                items.append(
                    polycube_item(f"piece-{name}", piece.cells, a, (x, corner_y, 0.0), piece.color)
                )
                items.append(_label(name, piece.cells, (x, corner_y, 0.0)))
            x += ext[0] * a + 0.010
            row_depth = max(row_depth, ext[1] * a)
        if np.isfinite(lo).all():
            m = MAT_MARGIN
            items.insert(
                1,
                box_item(
                    f"mat{side_no}",
                    (hi[0] - lo[0] + 2 * m, hi[1] - lo[1] + 2 * m, MAT_THICKNESS),
                    (lo[0] - m, lo[1] - m, -MAT_THICKNESS + 1e-4),
                    _MAT_COLOR,
                    receives_shadow=True,
                    casts_shadow=False,
                ),
            )
    return TableLayout(
        "katamino",
        tuple(items),
        {"yaw": 0.0, "pitch": -60.0, "fill": 0.85},
        f"Katamino Duo board, sliders {list(table.sliders)}",
    )


def cell_centre(table: KataminoTable, cell: Sequence[int]) -> np.ndarray:
    """World centre (m) of the top of board cell (column, row)."""
    a = _edge()
    return board_origin(table) + np.array([(cell[0] + 0.5) * a, (cell[1] + 0.5) * a, 0.0])
