"""Katoiz with clicks, its three game types (see :mod:`tablesim.sim.slices.common.tiles`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tablesim.sim.slices.common.tiles import PASS, Loc, Path, PathController, _grid_cell, _item_cell
from tablesim.sim.view.interact import Pointer

__all__ = ["KatoizController"]


class KatoizController(PathController):
    """Katoiz: 3-set (click a green tile to place a disc; own disc then a tile to move it;
    level 4: an opponent's disc first to remove it), Stapeltje-four (a stack, then a stack or
    the home stack), Stapeltoren (a supply tile, then an own stack or the free spot in front;
    the first round: a tile); ``p`` passes where passing is legal.

    Stapeltje with a clock (level 4) or an agreed playing time (level 3): a person's move is
    charged the real seconds they had the table, stamped ``@SECS`` as the terminal stamps
    them (:meth:`stamp`); the clock runs from :meth:`start_clock` (the app calls it when the
    table becomes the person's: the last move's animation is over) and its seconds left are
    on screen (:meth:`rule_line`). Bots' moves and a pass keep the simulated charge."""

    now: Callable[[], float] = staticmethod(time.monotonic)
    """The wall clock of a person's turn (replaceable, e.g. by tests)."""
    shown_at: float | None = None
    """When the person's clock started this turn (None: not yet, or no clock runs)."""

    def reset(self, game: Any, state: Any) -> None:
        """A new position: the person's clock stops until :meth:`start_clock`."""
        self.shown_at = None
        super().reset(game, state)

    def timed(self) -> bool:
        """Whether a person's real seconds count here (Stapeltje levels 3 and 4)."""
        cfg = getattr(self.state, "config", None)
        return type(self.state).__name__ == "StapelState" and bool(
            getattr(cfg, "clock", False) or getattr(cfg, "time_limit", 0)
        )

    def start_clock(self) -> None:
        """The table is the person's: their seconds run from now (idempotent in a turn);
        nothing runs where no clock is kept."""
        if self.shown_at is None and self.timed() and not self.game.is_terminal(self.state):
            self.shown_at = self.now()

    def waited(self) -> float | None:
        """Seconds the person to move has had the table (None before :meth:`start_clock`)."""
        return None if self.shown_at is None else max(0.0, self.now() - self.shown_at)

    def stamp(self, move: Any) -> Any:
        """``move`` with the person's real seconds (``b3-a1 @13``) where a clock runs, as
        the terminal stamps a typed move (``Katoiz.stamp_seconds``: whole seconds; a pass,
        played only when nothing can move, keeps the simulated charge)."""
        if move is None or self.state is None or not self.timed():
            return move
        self.start_clock()
        return self.game.stamp_seconds(self.state, move, self.waited() or 0.0)

    def on_click(self, p: Pointer) -> Any | None:
        """As for every tile game, the completed move stamped with the person's seconds."""
        return self.stamp(super().on_click(p))

    def on_key(self, key: str) -> Any | None:
        """As for every tile game (a numbered choice, ``p``), stamped with the seconds."""
        return self.stamp(super().on_key(key))

    def rule_line(self) -> str:
        """The running clock of the person to move (``P1's clock runs: 1:47 left``; level 3:
        the playing time left), whole seconds as they will be charged; empty otherwise."""
        waited = self.waited()
        if waited is None or self.game.is_terminal(self.state):
            return ""
        st, cfg = self.state, self.state.config
        spent = int(waited + 0.5)  # as Stapeltje.stamp_seconds rounds the charge
        if cfg.clock:
            left = max(0, st.clocks[st.seat] - spent)
            return f"P{st.seat + 1}'s clock runs: {left // 60}:{left % 60:02d} left"
        left = max(0, cfg.time_limit - st.elapsed - spent)
        return f"playing time runs: {left // 60}:{left % 60:02d} left"

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
