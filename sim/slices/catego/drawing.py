"""Catego on the table: the score pad (one row per player, the column labels, the entries,
won and void columns, the scores) and the two dice of the current roll.

Drawn straight from a :class:`tablesim.games.catego.CategoState`; nothing in the state is changed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tablesim.sim.view.drawings.common import DIE_EDGE, die_item
from tablesim.sim.view.layout import TableLayout, box_item

__all__ = ["PAD_THICKNESS", "PAD_WIDTH", "ROW_HEIGHT", "catego_layout", "pad_cell_centre"]

PAD_WIDTH = 0.21
"""Width (m) of the score pad (an A5 sheet's long side)."""
ROW_HEIGHT = 0.018
"""Height (m) of one row of the pad (title, header, one per player, the winners' row)."""
PAD_THICKNESS = 0.004
"""Thickness (m) of the pad (a block of sheets)."""
_PX_PER_M = 5000  # picture resolution: 0.2 mm per pixel
_PAPER = (250, 249, 242)
_INK = (30, 34, 60)
_WON = (190, 228, 190)
_VOID = (205, 205, 205)


def _geometry(players: int, ncols: int) -> tuple[float, float, float]:
    """(pad height, x of the first label column, column width) in metres."""
    height = ROW_HEIGHT * (players + 3)
    name_w = 0.028
    score_w = 0.022
    col_w = (PAD_WIDTH - name_w - score_w - 0.008) / ncols
    return height, -PAD_WIDTH / 2 + 0.004 + name_w, col_w


def pad_cell_centre(players: int, ncols: int, seat: int, column_index: int) -> np.ndarray:
    """World centre (x, y, z) of the pad cell of ``seat`` in column ``column_index`` (the pad
    lies centred on x = 0 with its near edge at y = 0, on the table)."""
    height, x0, col_w = _geometry(players, ncols)
    row = 2 + seat  # title, header, then one row per seat (top to bottom)
    y = height - (row + 0.5) * ROW_HEIGHT
    return np.array([x0 + (column_index + 0.5) * col_w, y, PAD_THICKNESS])


def _fitting(d: Any, widest: str, width: float, height: float) -> Any:
    """The largest font whose ``widest`` text fits ``width`` x ``height`` pixels (its ink
    box): the pad's digits as large as their cells allow (issue 32: they were 12-14 px tall
    at 960 x 540, now 15 to 18)."""
    from tablesim.sim.view.art import font

    size = max(8, int(height * 1.6))
    while size > 8:
        x0, y0, x1, y1 = d.textbbox((0, 0), widest, font=font(size))
        if x1 - x0 <= width and y1 - y0 <= height:
            break
        size -= 1
    return font(size)


def _pad_picture(state: Any) -> np.ndarray:
    """The pad of ``state`` as a picture, row 0 at the far edge."""
    from PIL import Image, ImageDraw

    from tablesim.games.catego import column_results, side_scores
    from tablesim.sim.view.art import font

    cfg = state.config
    ncols = len(cfg.columns)
    height, x0, col_w = _geometry(cfg.players, ncols)
    w, h = int(PAD_WIDTH * _PX_PER_M), int(height * _PX_PER_M)
    img = Image.new("RGB", (w, h), _PAPER)
    d = ImageDraw.Draw(img)
    px = _PX_PER_M
    rh = ROW_HEIGHT * px
    left = int((x0 + PAD_WIDTH / 2) * px)
    cw = col_w * px
    big, small = _fitting(d, "12", cw * 0.9, rh * 0.72), font(int(rh * 0.5))
    results = column_results(state)
    scores = side_scores(state)

    def cell_box(row: int, col: int) -> tuple[float, float, float, float]:
        return (left + col * cw, row * rh, left + (col + 1) * cw, (row + 1) * rh)

    d.text((left, rh * 0.5), "CATEGO", fill=_INK, font=big, anchor="lm")
    players = f"{cfg.players} players" + (", partnerships" if cfg.partnerships else "")
    d.text((w - 0.004 * px, rh * 0.5), players, fill=_INK, font=small, anchor="rm")
    for i, label in enumerate(cfg.columns):
        box = cell_box(1, i)
        if label in results:
            side = results[label]
            for seat in range(cfg.players):
                if side is not None and cfg.side_of(seat) == side:
                    d.rectangle(cell_box(2 + seat, i), fill=_WON)
            if side is None:
                d.rectangle(box, fill=_VOID)
        d.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), str(label), _INK, big, "mm")
    for seat, row in enumerate(state.rows):
        y = (2 + seat + 0.5) * rh
        d.text((0.006 * px, y), f"P{seat + 1}", fill=_INK, font=big, anchor="lm")
        for i, value in enumerate(row):
            if value is not None:
                box = cell_box(2 + seat, i)
                d.text(((box[0] + box[2]) / 2, y), str(value), (20, 60, 160), big, "mm")
        score = scores[cfg.side_of(seat)]
        d.text((w - 0.006 * px, y), str(score), fill=_INK, font=big, anchor="rm")
    # the grid
    grid = (120, 130, 160)
    for r in range(1, cfg.players + 3):
        d.line((0.004 * px, r * rh, w - 0.004 * px, r * rh), fill=grid, width=2)
    for c in range(ncols + 1):
        x = left + c * cw
        d.line((x, rh, x, (cfg.players + 2) * rh), fill=grid, width=2)
    turn = f"turn {state.turn + 1}" if state.roll is not None else "game over"
    d.text((left, (cfg.players + 2.5) * rh), turn, fill=_INK, font=small, anchor="lm")
    return np.asarray(img)


def catego_layout(state: Any) -> TableLayout:
    """The table of a Catego state: the pad centred at x = 0 with its near edge at y = 0, and
    the current roll's two dice in front of it (none once the game is over)."""
    cfg = state.config
    height, _, _ = _geometry(cfg.players, len(cfg.columns))
    pad = box_item(
        "pad",
        (PAD_WIDTH, height, PAD_THICKNESS),
        (-PAD_WIDTH / 2, 0.0, 0.0),
        (0.97, 0.97, 0.94),
        faces={"+z": _pad_picture(state)},
        receives_shadow=True,
    )
    items = [pad]
    if state.roll is not None:
        a, b = state.roll
        yaw = 9.0 + 17.0 * (state.turn % 5)  # a little turn that changes with the turn
        y = -1.6 * DIE_EDGE
        items.append(die_item("die1", a, (-1.0 * DIE_EDGE, y), yaw))
        items.append(die_item("die2", b, (1.2 * DIE_EDGE, y - 0.2 * DIE_EDGE), -yaw / 2))
    return TableLayout(
        f"catego turn {state.turn}",
        tuple(items),
        {"yaw": 0.0, "pitch": -62.0, "fill": 0.85},
        f"Catego, {cfg.players} players, turn {state.turn + 1}",
    )
