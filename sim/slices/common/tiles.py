"""Click controllers of the tile games: Kaito, Katoiz (its three game types) and Catego.

A move is a short *path* of clicks on the table: Kaito ``[the Kaito, target tile]`` (or the
target alone), Katoiz 3-set ``[opponent's disc to remove], [own disc], target tile``,
Stapeltje ``[stack, stack or home]``, Stapeltoren ``[supply tile, own stack or the free spot]``,
Catego ``[column of the pad]``; ``p`` passes where passing is a move. The controller lists the
paths of every legal move of the position, follows the clicks along them, highlights the
places that continue a path (green markers; the selection yellow) and proposes the move when a
path is complete. Several moves on one path (a Kaito capture with or without a trade) are
offered as a numbered choice: keys ``0``..``9``.

A click that continues no path changes nothing: the controller builds the move the click
would mean and asks the game's ``apply`` why it is illegal, and shows that reason.

Picking: the pointer's item id when it names a grid tile or disc, else the point where the
ray meets the table plane, turned back into a grid cell (the inverse of the tables'
``cell_centre``). Locations are the drawn grid cells ``(column, row)``.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

import numpy as np

from tablesim.games.core import GameError
from tablesim.sim.view.interact import BaseController, Pointer
from tablesim.sim.view.layout import Item, cylinder_item

__all__ = [
    "CategoController",
    "KaitoController",
    "KatoizController",
    "PathController",
]

Loc = Hashable
Path = tuple[Loc, ...]
PASS: Loc = ("key", "p")
SELECTED = (1.0, 0.85, 0.15)
TARGET = (0.25, 0.85, 0.35)
HOVER = (0.6, 1.0, 0.65)
_TILE_ID = re.compile(r"^(?:tile|disc)-(-?\d+)-(-?\d+)(?:-\d+)?$")


class PathController(BaseController):
    """A controller for games whose moves are short sequences of clicked places.

    Subclasses give :meth:`paths` (every legal move with the click paths that play it),
    :meth:`locate` (pointer -> place), :meth:`probe` (clicks -> the move they would mean, to
    ask the game why it is illegal), :meth:`marker` (where a place is drawn) and
    :meth:`item_ids` (the items a place consists of)."""

    mark_radius = 0.005
    """Radius (m) of the flat marker drawn on a highlighted place."""

    def __init__(self, game: Any = None, state: Any = None) -> None:
        super().__init__(game, state)
        self.clicks: list[Loc] = []
        self.choices: list[Any] = []
        self.hover: Loc | None = None
        self._paths: list[tuple[Path, Any]] = []
        if game is not None and state is not None:
            self.reset(game, state)

    # -- to be given by each game ---------------------------------------------------------
    def paths(self) -> list[tuple[Path, Any]]:
        """(click path, move) for every legal move of ``self.state`` (a move may have several)."""
        return []

    def locate(self, p: Pointer) -> Loc | None:
        """The place under the pointer, or None."""
        return None

    def probe(self, clicks: Sequence[Loc]) -> Any | None:
        """The (illegal) move ``clicks`` would mean, to ask ``apply`` for its reason."""
        return None

    def marker(self, loc: Loc) -> np.ndarray | None:
        """World point (m) on top of place ``loc`` for its marker, or None."""
        return None

    def item_ids(self, loc: Loc) -> list[str]:
        """Items of the table that make up ``loc`` (for highlights)."""
        return []

    def name(self, loc: Loc) -> str:
        """How ``loc`` is named in messages."""
        return str(loc)

    # -- the common machinery -------------------------------------------------------------
    def reset(self, game: Any, state: Any) -> None:
        """A new position: clear the selection, list the legal paths."""
        super().reset(game, state)
        self.clicks, self.choices, self.hover = [], [], None
        over = game is None or state is None or game.is_terminal(state)
        self._paths = [] if over else self.paths()

    def _extending(self, seq: Sequence[Loc]) -> tuple[list[Any], bool]:
        """(moves whose path is exactly ``seq``, whether some path continues past it)."""
        n = len(seq)
        full: list[Any] = []
        longer = False
        for path, move in self._paths:
            if path[:n] == tuple(seq):
                if len(path) == n:
                    if move not in full:
                        full.append(move)
                else:
                    longer = True
        return full, longer

    def next_places(self) -> set[Loc]:
        """Places that continue a legal path from the current clicks."""
        n = len(self.clicks)
        return {
            path[n] for path, _ in self._paths if len(path) > n and path[:n] == tuple(self.clicks)
        }

    def _why(self, seq: Sequence[Loc]) -> str:
        move = self.probe(seq)
        if move is not None:
            try:
                self.game.apply(self.state, move)
            except GameError as exc:
                return str(exc)
        names = " ".join(self.name(x) for x in seq)
        return f"nothing to play with {names}: click a highlighted place"

    def _play(self, seq: Sequence[Loc]) -> Any | None:
        """Follow one more click (``seq`` = the clicks with it); the move once complete."""
        full, longer = self._extending(seq)
        if len(full) == 1 and not longer:
            self.clicks, self.choices, self.message = [], [], ""
            return full[0]
        if len(full) > 1:
            self.clicks, self.choices = list(seq), full
            self.message = "choose: " + "; ".join(
                f"{k}: {self.game.format_move(self.state, m)}" for k, m in enumerate(full[:10])
            )
            return None
        if longer:
            self.clicks, self.choices = list(seq), []
            self.message = f"{' '.join(self.name(x) for x in seq)}: click a green place"
            return None
        if len(seq) > 1:  # not a continuation: maybe the start of another move
            again, start = self._extending(seq[-1:])
            if again or start:
                self.clicks = []
                return self._play(seq[-1:])
        self.message = self._why(seq)  # explained; the selection stays as it was
        return None

    def on_mouse_move(self, p: Pointer) -> None:
        """Remember the green place under the pointer (drawn brighter)."""
        if self.state is None or self.game.is_terminal(self.state):
            return
        loc = self.locate(p)
        self.hover = loc if loc is not None and loc in self.next_places() else None

    def on_click(self, p: Pointer) -> Any | None:
        """Left click: follow the path (or explain); right click: clear the selection."""
        if self.state is None or self.game.is_terminal(self.state):
            return None
        if p.button == "right":
            self.clicks, self.choices, self.message = [], [], ""
            return None
        if p.button not in (None, "left"):
            return None
        loc = self.locate(p)
        if loc is None:
            self.message = "no tile there: click a highlighted place"
            return None
        if self.clicks and loc == self.clicks[-1]:  # a second click on the selection drops it
            self.clicks, self.choices, self.message = self.clicks[:-1], [], ""
            return None
        return self._play([*self.clicks, loc])

    def on_key(self, key: str) -> Any | None:
        """``0``..``9`` pick a numbered choice, ``p`` passes (``escape`` clears when the app
        passes it on; the window quits on it)."""
        if self.state is None or self.game.is_terminal(self.state):
            return None
        if key == "escape":
            self.clicks, self.choices, self.message = [], [], ""
            return None
        if self.choices and key in tuple("0123456789"):
            k = int(key)
            if k < len(self.choices):
                move = self.choices[k]
                self.clicks, self.choices, self.message = [], [], ""
                return move
            self.message = f"choice {k}: there are {len(self.choices)} (0..{len(self.choices) - 1})"
            return None
        if key == "p":
            return self._play([*self.clicks, PASS])
        return None

    def prompt(self) -> str:
        """What the player to move can do now, shown while there is no message."""
        return "click a green place"

    def overlay(self) -> list[str]:
        """The message (reason, choice, selection), else the prompt."""
        if self.message:
            return [self.message]
        if self.state is None or self.game.is_terminal(self.state):
            return []
        return [self.prompt()]

    def help(self) -> list[str]:
        """Mouse and key bindings."""
        return [
            "left click: select / play (green: legal places); right click: clear the selection",
            "0-9: pick a numbered choice; p: pass (where allowed)",
        ]

    def highlights(self) -> Mapping[str, tuple[float, float, float]]:
        """Selected places yellow, places that continue a move green."""
        out: dict[str, tuple[float, float, float]] = {}
        for loc in self.next_places():
            for i in self.item_ids(loc):
                out[i] = TARGET
        if self.hover is not None and self.hover in self.next_places():
            for i in self.item_ids(self.hover):
                out[i] = HOVER
        for loc in self.clicks:
            for i in self.item_ids(loc):
                out[i] = SELECTED
        return out

    def ghosts(self) -> Sequence[Item]:
        """A small flat marker on each highlighted place (also where no item lies)."""
        out: list[Item] = []
        marks = [(loc, TARGET) for loc in sorted(self.next_places(), key=repr)]
        marks += [(loc, SELECTED) for loc in self.clicks]
        for k, (loc, colour) in enumerate(marks):
            at = self.marker(loc)
            if at is not None:
                out.append(cylinder_item(f"ghost-mark-{k}", self.mark_radius, 0.0012, at, colour))
        return out


def _grid_cell(
    point: tuple[float, float] | None, pitch: float, cols: int, rows: int, tile: float
) -> tuple[int, int] | None:
    """The grid cell (column, row) whose tile contains ``point``: the inverse of the tables'
    ``cell_centre`` (grid centred on the origin, ``pitch`` between cell centres)."""
    if point is None:
        return None
    fx = point[0] / pitch + (cols - 1) / 2
    fy = point[1] / pitch + (rows - 1) / 2
    c, r = round(fx), round(fy)
    if abs(fx - c) * pitch > tile / 2 or abs(fy - r) * pitch > tile / 2:
        return None
    return int(c), int(r)


def _item_cell(item: str | None) -> tuple[int, int] | None:
    m = _TILE_ID.match(item or "")
    return (int(m.group(1)), int(m.group(2))) if m else None


# ---- Kaito ---------------------------------------------------------------------------------


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


# ---- Katoiz --------------------------------------------------------------------------------


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


# ---- Catego --------------------------------------------------------------------------------


class CategoController(PathController):
    """Catego: click a column of the pad to write the roll there."""

    mark_radius = 0.0025

    def paths(self) -> list[tuple[Path, Any]]:
        """One click per legal column."""
        return [((("col", m),), m) for m in self.game.legal_moves(self.state)]

    def locate(self, p: Pointer) -> Loc | None:
        """The pad column under the pointer (anywhere on the pad's height)."""
        from tablesim.sim.slices.catego.drawing import (
            PAD_THICKNESS,
            PAD_WIDTH,
            ROW_HEIGHT,
            _geometry,
        )

        cfg = self.state.config
        xy = p.point[:2] if p.item == "pad" and p.point is not None else p.on_plane(PAD_THICKNESS)
        if xy is None:
            return None
        height, x0, col_w = _geometry(cfg.players, len(cfg.columns))
        if not (0.0 <= xy[1] <= height and -PAD_WIDTH / 2 <= xy[0] <= PAD_WIDTH / 2):
            return None
        if xy[1] > height - ROW_HEIGHT:  # the title row
            return None
        k = int((xy[0] - x0) // col_w)
        if not 0 <= k < len(cfg.columns):
            return None
        return ("col", cfg.columns[k])

    def prompt(self) -> str:
        """Whose row and the roll."""
        seat = self.game.current_player(self.state)
        a, b = self.state.roll
        return f"P{seat + 1} rolled {a}+{b}={a + b}: click a green column"

    def probe(self, clicks: Sequence[Loc]) -> Any | None:
        """Writing in the clicked column."""
        last = clicks[-1]
        return last[1] if last != PASS else None  # type: ignore[index]

    def marker(self, loc: Loc) -> np.ndarray | None:
        """In the current player's cell of the column, near its lower edge."""
        from tablesim.sim.slices.catego.drawing import ROW_HEIGHT, pad_cell_centre

        cfg = self.state.config
        seat = self.game.current_player(self.state)
        at = pad_cell_centre(cfg.players, len(cfg.columns), seat, cfg.columns.index(loc[1]))  # type: ignore[index]
        return at - np.array([0.0, 0.3 * ROW_HEIGHT, 0.0])

    def name(self, loc: Loc) -> str:
        """Columns by their label."""
        return f"column {loc[1]}" if loc != PASS else "pass"  # type: ignore[index]
