"""Kozo and Kataboom with the mouse: pick a piece, hold it over the tower, drop it.

The shared base (:class:`TowerController`) and its colours and helpers; each game's controller
lives in its slice (:mod:`tablesim.sim.slices.kozo.controller`,
:mod:`tablesim.sim.slices.kataboom.controller`).

Held as in Tabletop Simulator:

- The supply lies in a row behind the tower. Click a piece to take it (Kozo: the ``take``
  move, so touch-move applies from then on; Kataboom: it is selected).
- The held piece (a translucent ghost, :data:`LEGAL` azure or :data:`ILLEGAL` magenta) floats
  :data:`LIFT` cube edges above where it would land, over whatever is under the pointer (the
  table, the board or the tower's top); the **drop preview**, flat translucent plates of the
  ghost's colour under each of its columns, lies exactly where letting go puts it: the
  landing pose is the game's own ``at x,y`` reading (lowered straight down).
- **Snapping**: its footprint is centred on the point under the pointer; when a legal spot of
  the piece in its orientation lies within :data:`SNAP` cube edges of that, the ghost jumps
  to it, else it sits on the half-cube lattice (and says why it is illegal).
- What the ghost says is what a click plays: the click plays the very move the ghost shows
  (the bottom-left text is that move's text).
- **Turning by 90 degrees about the view's axes**: ``r`` / ``e`` turn it about the vertical
  (the table's up: counter-clockwise / clockwise seen from above), ``t`` / ``g`` tip it about
  the world axis nearest the screen's left-right (away from you / towards you); or hold ``control`` and
  left-drag (:data:`TURN_DRAG_PX` pixels sideways: a quarter turn about the vertical; up or
  down: a tip).
- Click to drop: the app has the physics table measure the move and shows the run.
- Kozo's balance cube (after a placement): the ghost is the small cube, snapped to the nearest
  legal spot within :data:`SNAP` cube edge; ``n`` plays ``nocube`` when no spot is legal.
- Kataboom's nudge: ``n`` toggles nudge mode; click a piece of the structure to push it at
  the point clicked, horizontally, away from the camera (``[``/``]`` halve or double the
  push, at most the rule's maximum).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

import numpy as np

from tablesim.games.core import GameError
from tablesim.sim.view.interact import BaseController, Pointer
from tablesim.sim.view.layout import Item, box_item, polycube_item
from tablesim.sim.view.window import stats_line, stats_on

__all__ = ["TowerController", "drop_plate", "ghost_shape", "snap_half", "turned_cells", "view_axes"]

LEGAL = (0.1, 0.85, 1.0)
"""Ghost colour of a legal placement: a bright azure no piece has (the catalogues' colours are
teal, greens, blues, navy, grey, purple, red, oranges, pink and yellow) and unlike the plates
of the legal spots (:data:`SPOT`). Drawn translucent (:data:`GHOST_ALPHA`) over the wooden
table it shows hue 186 degrees, 18 from the teal (168) and the blue (204) pieces."""
ILLEGAL = (0.85, 0.1, 1.0)
"""Ghost colour of an illegal placement: a violet magenta no piece has (red is the 2a's
colour); translucent over the table it shows hue 301 degrees, 19 from the purple (282) and 30
from the pink (331) pieces."""
GHOST_ALPHA = 0.7
"""Opacity of the ghosts: translucent, so the tower behind and under a ghost shows through and
a ghost is never taken for a piece standing there."""
SPOT = (0.25, 0.85, 0.35)
"""Colour of the plates on the legal spots (``l``)."""
BOARD_CELLS = 3
"""Cells along each side of the Kozo board (the footprint a tower stands on)."""
SELECTED = (1.0, 0.85, 0.2)
"""Colour of the selected supply piece."""
SLOT = (0.96, 0.93, 0.86)
"""Colour of the faint plates left in the supply where the held piece lay (:data:`SLOT_ALPHA`):
the piece is in the hand, its place in the supply stays its own."""
SLOT_ALPHA = 0.35
"""Opacity of those plates: a pale mark on the wood, never taken for a piece."""
LIFT = 0.6
"""Cube edges the held piece floats above its landing pose (the drop preview lies there)."""
PREVIEW_ALPHA = GHOST_ALPHA
"""Opacity of the drop preview's plates: the ghost's, so their blends over the table and the
board show the ghost's hues (at 0.45 the azure's blend over the table came within 2 degrees
of the teal pieces' hue)."""
SNAP = 0.75
"""Cube edges within which the pointer snaps the held piece to a legal spot."""
TURN_DRAG_PX = 60.0
"""Pixels of a control+left drag that turn the held piece a quarter (about the vertical when
sideways, a tip about the screen's left-right axis when up or down)."""


@lru_cache(maxsize=256)
def _ghost_shape(
    key: tuple[Any, ...], cells: tuple[tuple[int, int, int], ...], edge: float
) -> Item:
    return replace(polycube_item("ghost", cells, edge, (0.0, 0.0, 0.0), LEGAL), alpha=GHOST_ALPHA)


def ghost_shape(
    catalogue: str, piece: str, rot: int, cells: Sequence[Sequence[int]], edge: float
) -> Item:
    """The ghost of ``piece`` in orientation ``rot`` at the origin (id ``ghost``), its mesh
    built once per (catalogue, piece, orientation, edge): a ghost following the pointer is the
    same item moved and recoloured (``dataclasses.replace``), so nothing is meshed per move."""
    norm = tuple(tuple(int(v) for v in c) for c in cells)
    return _ghost_shape((catalogue, piece, rot), norm, float(edge))


def snap_half(v: float) -> float:
    """The nearest multiple of one half (half a cube edge)."""
    return math.floor(2 * v + 0.5) / 2


def _quarter(axis: int, sign: int) -> np.ndarray:
    """The rotation matrix of a quarter turn about world axis ``axis`` (0 x, 1 y, 2 z) by
    ``sign`` (+1: counter-clockwise looking down the axis)."""
    r = np.eye(3, dtype=int)
    a, b = [k for k in range(3) if k != axis]
    r[a, a] = r[b, b] = 0
    r[a, b], r[b, a] = -sign, sign
    return r


def turned_cells(
    cells: Sequence[Sequence[int]], axis: int, sign: int
) -> tuple[tuple[int, ...], ...]:
    """``cells`` (unit cubes by their minimum corners) turned a quarter about world axis
    ``axis`` (``sign`` as :func:`_quarter`), normalised (minimum corner at the origin) and
    sorted: the cube centres turn, the cubes stay cubes."""
    c = np.asarray(cells, dtype=int) * 2 + 1  # doubled centres: integers
    t = c @ _quarter(axis, sign).T
    t = (t - 1) // 2
    t -= t.min(axis=0)
    return tuple(sorted(tuple(int(v) for v in row) for row in t))


def view_axes(direction: Sequence[float]) -> tuple[tuple[int, int], tuple[int, int]]:
    """The view's turning axes as world (axis, sign) pairs for a view looking along
    ``direction`` (a pointer's ray): its vertical is the table's up, +z (the screen's up at
    every camera that looks down on the table; a turn on the table, as Tabletop Simulator's
    Q / E), its left-right axis the world axis nearest the screen's right, which is the ray
    crossed with +z (the x axis when looking straight down)."""
    d = np.asarray(direction, float)
    right = np.cross(d, (0.0, 0.0, 1.0))
    if np.linalg.norm(right[:2]) < 1e-6:
        right = np.array([1.0, 0.0, 0.0])
    k = int(np.argmax(np.abs(right[:2])))
    return (2, 1), (k, 1 if right[k] > 0 else -1)


class TowerController(BaseController):
    """Shared by Kozo and Kataboom; subclasses give the geometry (see the module docstring)."""

    catalogue = ""

    def __init__(self) -> None:
        super().__init__()
        self.selected: str | None = None
        self.rot = 0
        self.hover: tuple[float, float] | None = None
        self.ghost_move: Any = None
        self.legal = False
        self.reason = ""
        self.nudging = False
        self.show_spots = False
        self.ray: tuple[float, float, float] = (0.0, 0.7071, -0.7071)
        """Direction of the last pointer's ray (the view's axes for the turns)."""
        self._pixel: tuple[float, float] | None = None
        self._turn_drag: list[float] | None = None
        self._spot_cache: dict[tuple[str, int], list[Any]] | None = None
        self._supply_all: tuple[str, ...] = ()
        """:meth:`supply_items`: the full supply whose slots are laid out (a game's, a round's)."""
        self._supply_cache: tuple[tuple[Any, ...], tuple[Item, ...]] | None = None
        """:meth:`supply_items`: (the key it was built for, the items)."""
        self._said: str | None = None
        self._slots: dict[str, tuple[tuple[tuple[int, int], ...], tuple[float, float, float]]] = {}
        """:meth:`_lay_out_supply`: each supply piece's columns and the corner of its slot."""
        """:meth:`_refresh`: the ghost's words last printed to the window's figures."""

    # ---- the game's geometry (subclasses) ----
    def orientations(self, piece: str) -> Sequence[Sequence[Sequence[int]]]:
        """Cells of each orientation of ``piece``."""
        raise NotImplementedError

    def frame(self) -> tuple[np.ndarray, float]:
        """(world position of the grid origin (m), cube edge (m))."""
        raise NotImplementedError

    def supply(self) -> Sequence[str]:
        """Pieces that can still be picked."""
        raise NotImplementedError

    def candidates(self) -> Sequence[Any]:
        """The game's legal placements in its candidate set (all pieces, all orientations)."""
        raise NotImplementedError

    def spots(self) -> list[Any]:
        """Legal placements of the held piece in its current orientation (``l`` shows them;
        the ghost snaps to them). The game's candidates are asked once per position."""
        if self.selected is None or self.game is None or self.game.is_terminal(self.state):
            return []
        if self._spot_cache is None:
            by: dict[tuple[str, int], list[Any]] = {}
            for m in self.candidates():
                if m.kind == "place":
                    by.setdefault((m.piece, m.rot), []).append(m)
            self._spot_cache = by
        return list(self._spot_cache.get((self.selected, self.rot), ()))

    def colour(self, piece: str) -> tuple[float, float, float]:
        """The piece's colour (0-1 RGB)."""
        from tablesim.games.polycubes import get_catalogue
        from tablesim.sim.view.art import hex_rgb

        col = get_catalogue(self.catalogue).piece(piece).color
        return hex_rgb(col) if isinstance(col, str) else tuple(col)

    # ---- the controller ----
    def reset(self, game: Any, state: Any) -> None:
        """New position: keep the selection if the piece is still in the supply."""
        super().reset(game, state)
        if self.selected not in self.supply():
            self.selected, self.rot = None, 0
        self.ghost_move, self.legal, self.reason = None, False, ""
        self._spot_cache = None
        self._turn_drag = None
        self._pixel = None  # a click on a new position follows its own pixel first
        self._refresh()

    def supply_items(self) -> list[Item]:
        """The supply lying flat in rows behind the tower (ids ``supply-NAME``), away from the
        camera so it hides nothing of the tower. Built once per supply (the pointer moves
        many times between two moves): the same items, meshes included, until it changes."""
        origin, edge = self.frame()
        names = tuple(self.supply())
        full = self._supply_all
        if not set(names) <= set(full):  # a new supply (a game, a round): its slots
            full = self._supply_all = names
        key = (self.catalogue, full, names, tuple(origin), edge)
        cached = self._supply_cache
        if cached is not None and cached[0] == key:
            return list(cached[1])
        present = set(names)
        items = [
            it
            for it in self._lay_out_supply(origin, edge, full)
            if it.id[len("supply-") :] in present
        ]
        self._supply_cache = (key, tuple(items))
        return items

    def _lay_out_supply(self, origin: np.ndarray, edge: float, names: Sequence[str]) -> list[Item]:
        """Every piece of the full supply ``names`` in its slot (a piece taken leaves a gap:
        the others never move about)."""
        items = []
        x0 = origin[0] - 3 * edge
        x, y = x0, origin[1] + 5.5 * edge
        depth = 0.0
        for name in names:
            flat = min(self.orientations(name), key=lambda o: (max(c[2] for c in o), o))
            cells = np.asarray(flat)
            ext = cells.max(axis=0) + 1
            if x + ext[0] * edge > origin[0] + 8 * edge:
                x, y, depth = x0, y + depth + edge, 0.0
            columns = tuple(sorted({(int(c[0]), int(c[1])) for c in cells}))
            self._slots[name] = (columns, (float(x), float(y), 0.0))
            items.append(
                polycube_item(
                    f"supply-{name}",
                    [tuple(int(v) for v in c) for c in cells],
                    edge,
                    (x, y, 0.0),
                    self.colour(name),
                )
            )
            x += (ext[0] + 0.7) * edge
            depth = max(depth, ext[1] * edge)
        return items

    def top_level(self) -> float:
        """Height of the tower's top in cube edges above its base (0: an empty board)."""
        return 0.0

    def grid_point(self, p: Pointer) -> tuple[float, float] | None:
        """The pointer in grid units (x, y): on the tower piece hit, else on the tower's base
        level -- unless that lies off the board while the ray crosses the tower's top level
        over the board (it passed over the tower, as from a low camera): then there (the hand
        reaches the tower, not the table behind it)."""
        origin, edge = self.frame()
        hit = p.item is not None and not p.item.startswith("supply-") and p.point is not None
        if hit and float(np.asarray(p.point)[2]) > origin[2] + 0.25 * edge:
            g = (np.asarray(p.point) - origin) / edge
            return float(g[0]), float(g[1])
        if hit:
            base: tuple[float, float] | None = (float(p.point[0]), float(p.point[1]))  # type: ignore[index]
        else:
            base = p.on_plane(float(origin[2]))
        top = self.top_level()
        over = p.on_plane(float(origin[2] + top * edge)) if top > 0 else None
        for xy in (base, over):
            if xy is not None:
                gx, gy = (xy[0] - origin[0]) / edge, (xy[1] - origin[1]) / edge
                if -0.5 <= gx <= BOARD_CELLS + 0.5 and -0.5 <= gy <= BOARD_CELLS + 0.5:
                    return float(gx), float(gy)
        if base is None:
            return None
        return float((base[0] - origin[0]) / edge), float((base[1] - origin[1]) / edge)

    def on_mouse_move(self, p: Pointer) -> None:
        """Move the ghost under the pointer (a control+left drag turns it instead)."""
        if self._turn_drag is not None:
            if "left" in p.buttons:
                self._drag_turn(p)
                return
            self._turn_drag = None
        self.ray = p.direction
        self._pixel = (p.x, p.y)
        if p.item is not None and p.item.startswith("supply-"):
            self.hover = None
        else:
            self.hover = self.grid_point(p)
        self._refresh()

    def piece_move(self) -> Any:
        """The placement under the pointer: its footprint centred there, snapped to the
        nearest legal spot within :data:`SNAP` cube edges, else to the half-cube lattice as
        the game reads ``P rN at x,y`` (or None)."""
        if self.selected is None or self.hover is None:
            return None
        cells = np.asarray(self.orientations(self.selected)[self.rot])
        ext = cells.max(axis=0) + 1
        cx, cy = self.hover[0] - ext[0] / 2, self.hover[1] - ext[1] / 2
        best = min(
            self.spots(), key=lambda m: (m.pos[0] - cx) ** 2 + (m.pos[1] - cy) ** 2, default=None
        )
        if best is not None and math.hypot(best.pos[0] - cx, best.pos[1] - cy) <= SNAP:
            return best
        x, y = snap_half(cx), snap_half(cy)
        return self.game.parse_move(self.state, f"{self.selected} r{self.rot} at {x:g},{y:g}")

    def target_move(self) -> Any:
        """The move the ghost stands for now (subclasses add other phases)."""
        return self.piece_move()

    def _refresh(self) -> None:
        self._find_ghost()
        if stats_on():  # the window's figures: the ghost's words as they change
            text = self.ghost_text()
            if text != self._said:
                self._said = text
                stats_line(f"ghost {text}")

    def ghost_text(self) -> str:
        """What the ghost says: its move's text and whether it is legal ("" with no ghost)."""
        if self.ghost_move is None:
            return ""
        text = self.game.format_move(self.state, self.ghost_move)
        return f"{text}: {'legal' if self.legal else 'ILLEGAL'}"

    def _find_ghost(self) -> None:
        self.ghost_move, self.legal, self.reason = None, False, ""
        if self.game is None or self.game.is_terminal(self.state):
            return
        try:
            move = self.target_move()
        except GameError as exc:
            self.reason = str(exc)
            return
        if move is None:
            return
        self.ghost_move = move
        try:
            self.game.check_move(self.state, move)
            self.legal = True
        except GameError as exc:
            self.reason = str(exc)

    def select(self, piece: str) -> Any:
        """Select a supply piece (subclasses may return a move, e.g. Kozo's take)."""
        self.selected, self.rot = piece, 0
        self._refresh()
        return None

    def on_click(self, p: Pointer) -> Any | None:
        """Pick a supply piece, start a control+left turning drag, or drop the ghost: the
        move the ghost shows (followed to the click's pixel first if the pointer moved)."""
        if p.button != "left":
            return None
        if p.item is not None and p.item.startswith("supply-"):
            return self.select(p.item[len("supply-") :])
        if "control" in p.mods and self.selected is not None:
            self._turn_drag = [p.x, p.y]
            return None
        if self._pixel != (p.x, p.y) or self.ghost_move is None:
            self.on_mouse_move(p)
        return self.ghost_move

    def on_release(self, p: Pointer) -> Any | None:
        """The end of a turning drag."""
        self._turn_drag = None
        return None

    def _drag_turn(self, p: Pointer) -> None:
        """A control+left drag: a quarter turn per :data:`TURN_DRAG_PX` pixels (sideways:
        about the vertical, right-drag turning it clockwise as seen from above; up or down:
        a tip, dragging up tips it away)."""
        assert self._turn_drag is not None
        dx, dy = p.x - self._turn_drag[0], p.y - self._turn_drag[1]
        if abs(dx) >= TURN_DRAG_PX and abs(dx) >= abs(dy):
            self.turn("vertical", -1 if dx > 0 else 1)
            self._turn_drag = [p.x, p.y]
        elif abs(dy) >= TURN_DRAG_PX:
            self.turn("horizontal", -1 if dy < 0 else 1)
            self._turn_drag = [p.x, p.y]

    def turn(self, about: str, sign: int) -> bool:
        """Turn the held piece a quarter about the view's ``vertical`` or ``horizontal``
        (left-right) axis (:func:`view_axes` of the last pointer's ray), ``sign`` +1
        counter-clockwise looking down that world axis: the orientation of the game's list
        with the turned cells. False when nothing is held."""
        if self.selected is None:
            return False
        (vk, vs), (hk, hs) = view_axes(self.ray)
        axis, s = (vk, vs) if about == "vertical" else (hk, hs)
        want = turned_cells(self.orientations(self.selected)[self.rot], axis, sign * s)
        for k, cells in enumerate(self.orientations(self.selected)):
            if tuple(sorted(tuple(int(v) for v in c) for c in cells)) == want:
                self.rot = k
                break
        else:  # every proper rotation is in the list: never here for Kozo or Kataboom
            self.message = f"{self.selected}: that turn is not an orientation of this game"
            return False
        self._refresh()
        return True

    def on_key(self, key: str) -> Any | None:
        """``r``/``e``: a quarter turn about the view's vertical (left / right as seen from
        above), ``t``/``g``: a tip about its left-right axis (away / towards you); ``l``:
        show the legal spots."""
        if key == "l":
            self.show_spots = not self.show_spots
            return None
        turns = {
            "r": ("vertical", 1),
            "e": ("vertical", -1),
            "shift-r": ("vertical", -1),
            "t": ("horizontal", -1),
            "g": ("horizontal", 1),
        }
        if self.selected is not None and key in turns:
            self.turn(*turns[key])
        return None

    def overlay(self) -> list[str]:
        """Selection and legality."""
        if self.game is None or self.game.is_terminal(self.state):
            return []
        if self.selected is None:
            return ["click a piece of the supply to take it"]
        lines = [f"holding {self.selected} r{self.rot}"]
        if self.ghost_move is not None:
            text = self.game.format_move(self.state, self.ghost_move)
            lines.append(f"{text}: legal, click to drop" if self.legal else f"{text}: ILLEGAL")
        if self.reason:
            lines.append(self.reason)
        return lines

    def help(self) -> list[str]:
        """Bindings."""
        return [
            "click a supply piece to take it; it floats over where it lands; click to drop",
            "r / e: turn left / right, t / g: tip away / towards you (90 degrees)",
            "control+left-drag: turn (sideways) or tip (up/down); l: show the legal spots",
        ]

    def highlights(self) -> Mapping[str, tuple[float, float, float]]:
        """Nothing of the table itself (the supply is the controller's own)."""
        return {}

    def ghost_items(self) -> list[Item]:
        """The ghost of the move under the pointer (id ``ghost``), :data:`LIFT` above its
        landing pose, then its drop preview (:meth:`drop_preview`). Ghosts cast no shadow:
        the preview is where it lands."""
        if self.ghost_move is None or self.selected is None:
            return []
        origin, edge = self.frame()
        m = self.ghost_move
        cells = self.orientations(m.piece)[m.rot]
        pos = origin + np.asarray(m.pos, float) * edge
        shape = ghost_shape(self.catalogue, m.piece, m.rot, cells, edge)
        at = (float(pos[0]), float(pos[1]), float(pos[2] + LIFT * edge))
        colour = LEGAL if self.legal else ILLEGAL
        ghost = replace(shape, position=at, color=colour, casts_shadow=False)
        return [ghost, *self.drop_preview(cells, pos, edge, colour)]

    def drop_preview(
        self,
        cells: Sequence[Sequence[int]],
        corner: np.ndarray,
        edge: float,
        colour: tuple[float, float, float],
    ) -> list[Item]:
        """Flat translucent plates (ids ``ghost-drop-K``) under each column of ``cells`` at
        the landing pose (minimum corner ``corner``, m): the underside of the piece where
        letting go puts it, 0.5 mm above that surface."""
        low: dict[tuple[int, int], int] = {}
        for c in cells:
            key = (int(c[0]), int(c[1]))
            low[key] = min(low.get(key, int(c[2])), int(c[2]))
        return [
            drop_plate(f"ghost-drop-{k}", corner + np.array([x, y, z]) * edge, edge, colour)
            for k, ((x, y), z) in enumerate(sorted(low.items()))
        ]

    def ghosts(self) -> Sequence[Item]:
        """The supply and the ghost. The held piece is in the hand, not in the supply: its
        slot shows only faint plates (:meth:`slot_marks`; it once stayed there, drawn yellow,
        a second piece beside the one in the hand)."""
        items: list[Item] = []
        for it in self.supply_items():
            if self.selected is not None and it.id == f"supply-{self.selected}":
                items.extend(self.slot_marks(self.selected))
            else:
                items.append(it)
        return items + self.ghost_items() + self.spot_items()

    def slot_marks(self, piece: str) -> list[Item]:
        """Faint flat plates (ids ``slot-PIECE-K``, not picked) on the table under each column
        of supply piece ``piece``'s slot."""
        columns, corner = self._slots[piece]
        _, edge = self.frame()
        at = np.asarray(corner, float)
        return [replace(drop_plate(f"slot-{piece}-{k}", at + np.array([cx, cy, 0.0]) * edge, edge,
                                   SLOT), alpha=SLOT_ALPHA)
                for k, (cx, cy) in enumerate(columns)]  # fmt: skip

    def spot_items(self) -> list[Item]:
        """With ``l``: a thin green plate (:data:`SPOT`) on top of each legal placement's footprint (ids
        ``ghost-spot-K``, not picked)."""
        if not self.show_spots:
            return []
        origin, edge = self.frame()
        out = []
        for k, m in enumerate(self.spots()):
            cells = np.asarray(self.orientations(m.piece)[m.rot], float)
            lo = cells.min(axis=0)[:2] + m.pos[:2]
            ext = cells.max(axis=0)[:2] + 1 - cells.min(axis=0)[:2]
            corner = origin + np.array([lo[0], lo[1], m.pos[2]]) * edge + (0, 0, 0.0005)
            size = (ext[0] * edge * 0.96, ext[1] * edge * 0.96, 0.0008)
            out.append(box_item(f"ghost-spot-{k}", size, corner, SPOT, casts_shadow=False))
        return out


@lru_cache(maxsize=64)
def _plate_shape(edge: float) -> Item:
    return replace(
        box_item(
            "ghost-drop",
            (0.94 * edge, 0.94 * edge, 0.0008),
            (0.0, 0.0, 0.0),
            LEGAL,
            casts_shadow=False,
        ),
        alpha=PREVIEW_ALPHA,
    )


def drop_plate(
    item_id: str, corner: np.ndarray, edge: float, colour: tuple[float, float, float]
) -> Item:
    """One plate of a drop preview: a cell's footprint (a little inset) at ``corner``'s
    height + 0.5 mm, the mesh built once per edge."""
    at = (float(corner[0] + 0.03 * edge), float(corner[1] + 0.03 * edge), float(corner[2] + 0.0005))
    return replace(_plate_shape(float(edge)), id=item_id, position=at, color=colour)
