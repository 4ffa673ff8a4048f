"""The click machinery of the tile games: Kaito, Katoiz (its three game types) and Catego
(each game's own controller is ``sim/slices/<game>/controller.py``).

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
from dataclasses import replace
from typing import Any

import numpy as np

from tablesim.games.core import GameError
from tablesim.sim.slices.common.towers import GHOST_ALPHA
from tablesim.sim.view.interact import BaseController, Pointer
from tablesim.sim.view.layout import Item, cylinder_item

__all__ = ["PathController"]

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
        """A small flat marker on each highlighted place (also where no item lies), translucent
        like the tower games' ghosts (:data:`GHOST_ALPHA`): the tile under it shows through."""
        out: list[Item] = []
        marks = [(loc, TARGET) for loc in sorted(self.next_places(), key=repr)]
        marks += [(loc, SELECTED) for loc in self.clicks]
        for k, (loc, colour) in enumerate(marks):
            at = self.marker(loc)
            if at is not None:
                mark = cylinder_item(f"ghost-mark-{k}", self.mark_radius, 0.0012, at, colour)
                out.append(replace(mark, alpha=GHOST_ALPHA, casts_shadow=False))
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
