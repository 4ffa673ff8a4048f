"""Kaito with clicks: the Kaito, then a landing tile (see :mod:`tablesim.sim.slices.common.tiles`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tablesim.sim.slices.common.tiles import PASS, Loc, Path, PathController, _grid_cell, _item_cell
from tablesim.sim.view.interact import Pointer

__all__ = ["KaitoController"]


class KaitoController(PathController):
    """Kaito: click the Kaito then a green tile (or the tile directly); the opening: click an
    opening tile (removes both), then a gap for the Kaito; trades as a numbered choice."""

    def paths(self) -> list[tuple[Path, Any]]:
        """Every legal move's click paths."""
        st = self.state
        out: list[tuple[Path, Any]] = []
        for m in self.game.legal_moves(st):
            if m.kind == "remove":
                out.extend((((c % 6, c // 6),), m) for c in m.cells)
            elif m.kind == "place":
                out.append((((m.to % 6, m.to // 6),), m))
            else:
                to = (m.to % 6, m.to // 6)
                out.append(((to,), m))
                out.append(((("kaito",), to), m))
        return out

    def locate(self, p: Pointer) -> Loc | None:
        """The Kaito, a grid tile, or the grid cell under the pointer."""
        from tablesim.sim.slices.kaito.drawing import GAP, THICKNESS, TILE

        if p.item in ("kaito", "kaito-under"):
            return ("kaito",)
        cell = _item_cell(p.item)
        if cell is None:
            cell = _grid_cell(p.on_plane(THICKNESS), TILE + GAP, 6, 6, TILE + GAP)
        if cell is None or not (0 <= cell[0] < 6 and 0 <= cell[1] < 6):
            return None
        if self.state.kaito is not None and cell == (self.state.kaito % 6, self.state.kaito // 6):
            return ("kaito",)
        return cell

    def prompt(self) -> str:
        """The phase's instruction."""
        from tablesim.games.kaito.rules import COLOUR_NAMES

        who = COLOUR_NAMES[self.state.player]
        return {
            "remove": f"{who}: click an opening tile to remove both",
            "place": f"{who}: click a gap to put the Kaito there",
        }.get(self.state.phase, f"{who}: click the Kaito, then a green tile (or the tile)")

    def probe(self, clicks: Sequence[Loc]) -> Any | None:
        """The move the clicks would mean: a landing (play), a removal or a placement."""
        from tablesim.games.kaito.rules import Move

        cell = clicks[-1]
        if cell == ("kaito",) or cell == PASS:
            return None
        index = cell[1] * 6 + cell[0]  # type: ignore[index]
        kind = {"remove": "remove", "place": "place"}.get(self.state.phase, "move")
        return Move(kind, (index,))

    def framing_points(self) -> np.ndarray:
        """The corners (N, 3) m of the two rows the captured tiles are laid in (in front of
        the board and behind it, a board's width each, and a row's room beyond the far one):
        the home view frames them from the start, so captures lie neither at the picture's
        edges nor under the status text (issue 32)."""
        from tablesim.sim.slices.kaito.drawing import THICKNESS, TILE, cell_centre

        if self.state is None:
            return np.zeros((0, 3))
        table = self._table()
        pts = []
        # the drawing's rows of captured tiles, and beyond the far one a row's room for the
        # status text over the top of the picture
        for row in (-1.6, table.size + 0.6, table.size + 2.0):
            for k in (0, table.size - 1):
                c = cell_centre(table, (k, row))
                for dx in (-TILE / 2, TILE / 2):
                    for dy in (-TILE / 2, TILE / 2):
                        pts.append((c[0] + dx, c[1] + dy, c[2] + THICKNESS))
        return np.asarray(pts, float)

    def _table(self) -> Any:
        from tablesim.sim.slices.kaito.state_layout import kaito_state_table

        return kaito_state_table(self.state)

    def marker(self, loc: Loc) -> np.ndarray | None:
        """On top of the tile (or the gap) at ``loc``."""
        from tablesim.sim.slices.kaito.drawing import KAITO_HALF, cell_centre

        if loc == ("kaito",):
            k = self.state.kaito
            under = 1 if self.state.board[k] is not None else 0
            top = cell_centre(self._table(), (k % 6, k // 6), under)
            return top + np.array([0.0, 0.0, 2 * KAITO_HALF])
        occupied = self.state.board[loc[1] * 6 + loc[0]] is not None  # type: ignore[index]
        return cell_centre(self._table(), loc, 1 if occupied else 0)  # type: ignore[arg-type]

    def item_ids(self, loc: Loc) -> list[str]:
        """The tile at ``loc`` (the Kaito's two discs for the Kaito)."""
        if loc == ("kaito",):
            return ["kaito"]
        return [f"tile-{loc[0]}-{loc[1]}"]  # type: ignore[index]

    def name(self, loc: Loc) -> str:
        """Cells by their game names (a1..f6)."""
        from tablesim.games.kaito.rules import cell_name

        if loc == ("kaito",):
            return "the Kaito"
        return cell_name(loc[1] * 6 + loc[0])  # type: ignore[index]
