"""Katoiz with clicks, its three game types (see :mod:`tablesim.sim.slices.common.tiles`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tablesim.sim.slices.common.tiles import PASS, Loc, Path, PathController, _grid_cell, _item_cell
from tablesim.sim.view.interact import Pointer

__all__ = ["KatoizController"]


class KatoizController(PathController):
    """Katoiz: 3-set (click a green tile to place a disc; own disc then a tile to move it;
    level 4: an opponent's disc first to remove it), Stapeltje-four (a stack, then a stack or
    the home stack), Stapeltoren (a supply tile, then an own stack or the free spot in front;
    the first round: a tile); ``p`` passes where passing is legal."""

    def _table(self) -> Any:
        from tablesim.sim.slices.katoiz.state_layout import katoiz_state_table

        return katoiz_state_table(self.state)

    def _board(self, cell: int) -> Loc:
        return (cell % 6, cell // 6)

    def _home(self, seat: int) -> Loc:
        from tablesim.games.katoiz.stapeltje import SIDES, geo

        side = SIDES[geo(self.state.config).sides[seat]]
        return (side[2], side[3])

    def _supply_places(self, tile: int) -> list[Loc]:
        from tablesim.games.katoiz.components import TILE_CODES

        code = TILE_CODES[tile]
        return [(k % 6, k // 6) for k, t in enumerate(self.state.supply) if TILE_CODES[t] == code]

    def _own_stack(self, k: int) -> Loc:
        from tablesim.sim.slices.katoiz.state_layout import _in_front

        return _in_front(self.state.seat, k, self._table().rows)

    def paths(self) -> list[tuple[Path, Any]]:
        """Every legal move's click paths, by game type."""
        st = self.state
        kind = type(st).__name__
        out: list[tuple[Path, Any]] = []
        for m in self.game.legal_moves(st):
            if kind == "SetState":
                head: Path = (self._board(m.rem),) if m.rem >= 0 else ()
                if m.kind == "pass":
                    out.append(((*head, PASS), m))
                elif m.kind == "place":
                    out.append(((*head, self._board(m.dst)), m))
                else:
                    out.append(((*head, self._board(m.src), self._board(m.dst)), m))
            elif kind == "StapelState":
                if m.kind == "pass":
                    out.append(((PASS,), m))
                else:
                    dst = self._home(st.seat) if m.dst >= 36 else self._board(m.dst)
                    out.append(((self._board(m.src), dst), m))
            else:  # TorenState
                if m.kind == "pass":
                    out.append(((PASS,), m))
                    continue
                for place in self._supply_places(m.tile):
                    if m.kind == "start":
                        out.append(((place,), m))
                    elif m.kind == "add":
                        out.append(((place, self._own_stack(m.dst)), m))
                    else:
                        out.append(((place, self._own_stack(len(st.stacks[st.seat]))), m))
        return out

    def locate(self, p: Pointer) -> Loc | None:
        """The grid cell (stacks around the grid included) under the pointer: the item hit,
        else the highest stack top the ray meets, else the table cell."""
        from tablesim.sim.slices.katoiz.drawing import GAP, THICKNESS, TILE

        cell = _item_cell(p.item)
        if cell is not None:
            return cell
        t = self._table()
        heights = {tuple(s.cell): len(s.tiles) for s in t.stacks}
        for h in range(max(heights.values(), default=0), -1, -1):  # the ray against stack tops
            cell = _grid_cell(p.on_plane(h * THICKNESS), TILE + GAP, t.columns, t.rows, TILE + GAP)
            if cell is not None and heights.get(cell, 0) >= h:
                return cell
        return None

    def prompt(self) -> str:
        """The game type's instruction."""
        kind = type(self.state).__name__
        who = f"P{self.state.seat + 1}"
        if kind == "SetState":
            own = self.state.discs.count(self.state.seat) >= 3
            what = "an own disc, then a green tile" if own else "a green tile for a disc"
            return f"{who}: click {what}; p passes"
        if kind == "StapelState":
            return f"{who}: click a stack, then a green stack or your home stack"
        if self.state.starting:
            return f"{who}: click a supply tile as your starting tile"
        return f"{who}: click a supply tile, then your green stack or spot; p passes"

    def probe(self, clicks: Sequence[Loc]) -> Any | None:
        """The move the clicks would mean, for the game's reason."""
        from tablesim.games.katoiz.components import Move

        st = self.state
        kind = type(st).__name__
        cells = [c[1] * 6 + c[0] for c in clicks if c != PASS and 0 <= c[0] < 6 and 0 <= c[1] < 6]  # type: ignore[index]
        if PASS in clicks:
            return Move("pass")
        if kind == "SetState" and cells:
            own = st.discs.count(st.seat) >= 3
            if own and len(cells) >= 2:
                return Move("move", src=cells[-2], dst=cells[-1])
            return Move("move" if own else "place", dst=cells[-1], src=cells[-1] if own else -1)
        if kind == "StapelState" and cells:
            last = clicks[-1]
            dst = 36 if last == self._home(st.seat) else cells[-1]
            return Move("move", src=cells[0], dst=dst)
        if kind == "TorenState":
            first = clicks[0]
            k = first[1] * 6 + first[0]  # type: ignore[index]
            if 0 <= first[0] < 6 and 0 <= k < len(st.supply):  # type: ignore[index]
                return Move("start" if st.starting else "new", tile=st.supply[k])
        return None

    def _height(self, loc: Loc) -> int:
        for s in self._table().stacks:
            if tuple(s.cell) == loc:
                return len(s.tiles)
        return 0

    def marker(self, loc: Loc) -> np.ndarray | None:
        """On top of the stack at ``loc`` (on the table where there is none)."""
        from tablesim.sim.slices.katoiz.drawing import cell_centre

        if loc == PASS:
            return None
        return cell_centre(self._table(), loc, self._height(loc))  # type: ignore[arg-type]

    def item_ids(self, loc: Loc) -> list[str]:
        """The top tile of the stack at ``loc``."""
        h = self._height(loc)
        return [f"tile-{loc[0]}-{loc[1]}-{h - 1}"] if h else []  # type: ignore[index]

    def name(self, loc: Loc) -> str:
        """Board cells by their game names (a1..f6); other places as (column, row)."""
        from tablesim.games.katoiz.components import cell_name

        if loc == PASS:
            return "pass"
        if 0 <= loc[0] < 6 and 0 <= loc[1] < 6:  # type: ignore[index]
            return cell_name(loc[1] * 6 + loc[0])  # type: ignore[index]
        return f"({loc[0]}, {loc[1]})"  # type: ignore[index]
