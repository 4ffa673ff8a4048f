"""Katamino with the mouse: drag, turn and flip pieces onto the 5 x N board or into a 3-D box.

- Press on a loose piece (in front of the board) to take it; drag it over the board and let go
  to place it, or click it and click again over the board. A piece taken keeps the
  orientation it lies in. ``r``/``e`` turn it by 90 degrees about the vertical (anticlockwise /
  clockwise seen from above), ``t`` tips it by 90 degrees about the board's left-right axis (in a
  3-D box), ``f`` flips it over (its mirror image), ``escape``-free: ``x`` puts it back.
- The ghost's cells follow the pointer: the piece's middle cube sits on the board cell under the
  pointer; in a 3-D box it goes to the lowest layer where it fits. Green when the game accepts
  the cells, red with the rule's reason when not.
- ``h``: a hint (the solver's next piece; the game counts it), drawn as a green ghost;
  ``w``: watch the solver finish the stage piece by piece (the app plays one hint per beat).
- Duels: the board cells are the mover's own (the second player builds from the far end); the
  clocks of the race are on screen. Every loose piece carries a card with its name. Between
  duels the pieces that may be given lie in a row of their own in front of the board: click
  one to give it (or type ``give N`` on the move line, ``enter``); replacements are typed.
  ``h`` in a race draws the hint as a ghost until that player's board changes (a bot may move
  first), with what it cost on the clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

import numpy as np

from tablesim.games.core import GameError
from tablesim.sim.slices.common.towers import GHOST_ALPHA, ILLEGAL, LEGAL, SELECTED
from tablesim.sim.view.interact import BaseController, Pointer
from tablesim.sim.view.layout import Item, polycube_item

__all__ = ["HINT", "KataminoController"]

HINT = (0.0, 1.0, 0.2)
"""Colour of the hint's ghost: a bright green, drawn translucent over the board at least 20
delta-E from every piece and from the held piece's ghosts (the earlier blue was 19 from the
blue pieces; tests/test_piece_colours.py)."""

Cell = tuple[int, int, int]


@lru_cache(maxsize=256)
def _ghost_shape(item_id: str, cells: tuple[Cell, ...], edge: float) -> Item:
    """A ghost of ``cells`` at the origin, meshed once per (id, cells, edge)."""
    return replace(polycube_item(item_id, cells, edge, (0.0, 0.0, 0.0), LEGAL), alpha=GHOST_ALPHA)


def _piece_of(item: str | None) -> str | None:
    """The piece an item id names: the piece itself or its name card."""
    for head in ("piece-", "label-"):
        if item is not None and item.startswith(head):
            return item[len(head) :]
    return None


def _norm(cells: Sequence[Sequence[int]]) -> tuple[Cell, ...]:
    a = np.asarray(cells, int)
    return tuple(sorted((int(c[0]), int(c[1]), int(c[2])) for c in a - a.min(axis=0)))


def turned(cells: Sequence[Sequence[int]], key: str) -> tuple[Cell, ...]:
    """``cells`` turned by 90 degrees (normalised): ``r`` anticlockwise about the vertical seen
    from above (x, y) -> (-y, x), ``e`` clockwise (x, y) -> (y, -x), ``t`` about the x axis
    (y, z) -> (-z, y)."""
    if key == "r":
        return _norm([(-y, x, z) for x, y, z in cells])
    if key == "e":
        return _norm([(y, -x, z) for x, y, z in cells])
    if key == "t":
        return _norm([(x, -z, y) for x, y, z in cells])
    raise ValueError(f"turn key {key!r}: allowed r, e, t")


class KataminoController(BaseController):
    """Solo puzzles and duels (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.selected: str | None = None
        self.orient = 0
        self.cell: tuple[int, int] | None = None
        self.ghost_move: Any = None
        self.ghost_cells: tuple[Cell, ...] = ()
        self.legal = False
        self.reason = ""
        self.hint: tuple[str, tuple[Cell, ...]] | None = None
        """The hinted piece and its cells in the *board's* frame (either duel seat's)."""
        self.duel_hint: tuple[int, int, int] | None = None
        """A duel hint's (seat, duel, pieces placed): it stays drawn until that seat's board
        changes, through the other seat's moves (a bot may move before a person looks)."""
        self.hint_line = ""
        """What the duel hint said and cost, shown as long as its ghost."""
        self.watching = False
        self._pressed_on: str | None = None
        self.now: Callable[[], float] = time.monotonic
        """The wall clock of the duel race (replaceable, e.g. by tests)."""
        self.shown_at = 0.0

    # ---- the position ----
    @property
    def duel(self) -> bool:
        """True for the duel modes."""
        return type(self.state).__name__ == "DuelState"

    def family(self) -> Any:
        """The family Game of the state's mode."""
        from tablesim.games.katamino.game import family

        return family(self.state.mode)

    def seat(self) -> int:
        """The seat to move (0 when the game is over)."""
        s = self.game.current_player(self.state)
        return 0 if s is None else s

    def dims(self) -> int:
        """2 on a board, 3 in a box."""
        fam = self.family()
        if self.duel:
            return fam.dims(self.state.seats[self.seat()])
        return fam.stage_target(self.state).dims

    def loose(self) -> list[str]:
        """The mover's pieces not placed yet."""
        fam = self.family()
        if self.duel:
            return fam.remaining(self.state.seats[self.seat()])
        return list(fam.remaining(self.state))

    def orientations(self, name: str) -> tuple[tuple[Cell, ...], ...]:
        """The orientations the game accepts for ``name``."""
        from tablesim.games.katamino.solo_data import orientations_of

        straight = bool(getattr(self.state, "straight_horizontal", False))
        return tuple(_norm(o) for o in orientations_of(name, self.dims(), straight))

    def framing_points(self) -> np.ndarray:
        """The corners (8, 3) m of the box a 3-D solo mode builds on the board (its cells'
        bounds, full height): the home view frames them, so a tall construction's top is in
        the picture before the first piece is placed; (0, 3) on a flat board or in a duel."""
        if self.game is None or self.state is None or self.duel or self.dims() != 3:
            return np.zeros((0, 3))
        from tablesim.sim.slices.katamino.drawing import _edge, board_origin

        cells = np.asarray(self.family().stage_target(self.state).cells, float)
        lo, hi = cells.min(axis=0), cells.max(axis=0) + 1
        corners = np.array(
            [[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])]
        )
        return board_origin(self.table()) + corners * _edge()

    def table(self) -> Any:
        """The :class:`KataminoTable` drawn for the state."""
        from tablesim.sim.slices.katamino.state_layout import katamino_state_table

        return katamino_state_table(self.state)

    def to_board(self, c: Sequence[int]) -> Cell:
        """A cell of the mover's frame as a board cell."""
        return self._board_of(c, self.seat())

    def from_board(self, c: Sequence[int]) -> Cell:
        """A board cell in the mover's frame (the same map: it is its own inverse)."""
        return self.to_board(c)

    # ---- the controller ----
    def reset(self, game: Any, state: Any) -> None:
        """New position: keep the selection while the piece is still loose."""
        super().reset(game, state)
        self.shown_at = self.now()  # the race's real clock: a move costs the seconds since
        if self.duel:
            self._duel_hint_of_note()
        else:
            self.hint = self._hint_of_note()
        if self.state is not None and self.game.is_terminal(self.state):
            self.selected, self.watching = None, False
        elif self.selected not in self.loose():
            self.selected, self.orient = None, 0
        self._refresh()

    def _cell_at(self, p: Pointer) -> tuple[int, int] | None:
        from tablesim.sim.slices.katamino.drawing import BOARD_THICKNESS, _edge, board_origin

        xy = p.on_plane(BOARD_THICKNESS)
        if xy is None:
            return None
        origin, a = board_origin(self.table()), _edge()
        return int(np.floor((xy[0] - origin[0]) / a)), int(np.floor((xy[1] - origin[1]) / a))

    def on_mouse_move(self, p: Pointer) -> None:
        """Move the ghost to the cell under the pointer."""
        self.cell = self._cell_at(p)
        self._refresh()

    def _cells_for(
        self, name: str, orient: int, board_cell: tuple[int, int]
    ) -> list[tuple[Cell, ...]]:
        """Candidate cells (mover's frame) with the piece's middle cube on ``board_cell``, one
        per layer for a box, lowest first."""
        shape = np.asarray(self.orientations(name)[orient])
        mid = shape[np.argmin(np.linalg.norm(shape - shape.mean(axis=0), axis=1))]
        on_board = shape - mid + np.array([board_cell[0], board_cell[1], 0])
        on_board[:, 2] = shape[:, 2] - shape[:, 2].min()
        layers = 1 if self.dims() == 2 else 6
        return [
            tuple(self.from_board(c + np.array([0, 0, z])) for c in on_board) for z in range(layers)
        ]

    def secs(self) -> float:
        """Seconds a person's race move costs: the time since the board was shown (the rules'
        real clock, one decimal); other phases are timed by the game."""
        from tablesim.games.katamino.duel import SIMULATED

        if not self.duel or self.state.phase != "race":
            return SIMULATED
        return round(max(0.0, self.now() - self.shown_at), 1)

    def stamp(self, move: Any) -> Any:
        """A typed move with the seconds since the board was shown (duel races)."""
        if not self.duel:
            return move
        return self.family().stamp_seconds(self.state, move, self.now() - self.shown_at)

    def _move(self, name: str, cells: Sequence[Cell]) -> Any:
        if self.duel:
            from tablesim.games.katamino.duel import KINDS, DuelMove

            return DuelMove(KINDS.index("place"), name, tuple(sorted(cells)), secs=self.secs())
        from tablesim.games.katamino.solo import SoloMove

        return SoloMove(3, name, tuple(sorted(cells)))

    def _refresh(self) -> None:
        self.ghost_move, self.ghost_cells, self.legal, self.reason = None, (), False, ""
        if self.game is None or self.selected is None or self.cell is None:
            return
        if self.game.is_terminal(self.state):
            return
        first = None
        for cells in self._cells_for(self.selected, self.orient, self.cell):
            move = self._move(self.selected, cells)
            try:
                self.game.check_move(self.state, move)
            except GameError as exc:
                if first is None:
                    first = (move, cells, str(exc))
                continue
            self.ghost_move, self.ghost_cells, self.legal = move, tuple(cells), True
            return
        if first is not None:
            self.ghost_move, self.ghost_cells, self.reason = first[0], tuple(first[1]), first[2]

    def on_click(self, p: Pointer) -> Any | None:
        """Take a loose piece (start of a drag), or drop the one held over the board."""
        if p.button != "left":
            return None
        self._pressed_on = None
        name = _piece_of(p.item)
        if name is not None and self.duel and self.state.phase == "give":
            return self._gift(name)
        if name is not None and name in self.loose():
            if name != self.selected:  # the piece in hand keeps the turns it was given
                self.selected, self.orient = name, self._lying(name)
            self._pressed_on = name
            self.message = ""
            self._refresh()
            return None
        self.on_mouse_move(p)
        return self.ghost_move if self.selected is not None else None

    def on_release(self, p: Pointer) -> Any | None:
        """The end of a drag: drop the piece if the pointer left it for the board."""
        pressed, self._pressed_on = self._pressed_on, None
        if pressed is None or _piece_of(p.item) == pressed:
            return None  # a click on the piece: keep holding it
        self.on_mouse_move(p)
        return self.ghost_move

    def _gift(self, name: str) -> Any | None:
        """The gift of piece ``name`` (clicked in the give phase), or None with the reason."""
        from tablesim.games.katamino.duel import KINDS

        gifts = [m for m in self.game.legal_moves(self.state) if m.kind == KINDS.index("give")]
        for m in gifts:
            if m.piece == name:
                return m
        offered = ", ".join(m.piece for m in gifts)
        self.message = f"{name} cannot be given: the gifts are {offered}"
        return None

    def _lying(self, name: str) -> int:
        """The orientation (index) ``name`` lies in on the table, seen from the mover's side
        (the second duel player's frame is the board turned half round), else 0."""
        from tablesim.games.polycubes import get_catalogue
        from tablesim.sim.slices.katamino.drawing import CATALOGUE

        cells: Sequence[Sequence[int]] = get_catalogue(CATALOGUE).piece(name).cells
        if self.duel and self.seat() == 1:
            cells = [(-x, -y, z) for x, y, z in cells]
        ors = self.orientations(name)
        lying = _norm(cells)
        return ors.index(lying) if lying in ors else 0

    def on_key(self, key: str) -> Any | None:
        """Turn, flip, put back, hint, watch."""
        if key == "h":
            return self._hint()
        if key == "w":
            self.watching = not self.watching
            self.message = "watching the solver" if self.watching else ""
            return None
        if self.selected is None:
            return None
        ors = self.orientations(self.selected)
        if key in ("r", "e", "t"):
            turn = turned(ors[self.orient], key)
            if turn in ors:
                self.orient = ors.index(turn)
            else:
                self.message = f"{self.selected} cannot lie that way here"
        elif key == "f":
            mirror = _norm([(-x, y, z) for x, y, z in ors[self.orient]])
            if mirror in ors:
                self.orient = ors.index(mirror)
            else:
                self.message = f"{self.selected} looks the same flipped (or may not be flipped)"
        elif key == "x":
            self.selected = None
        self._refresh()
        return None

    def _hint_of_note(self) -> tuple[str, tuple[Cell, ...]] | None:
        """The hinted piece and cells the game wrote in the state's note (solo), else None."""
        note = getattr(self.state, "note", "") or ""
        words = note.split()
        if self.duel or len(words) < 3 or words[0] != "hint:" or words[1] == "stuck;":
            return None
        from tablesim.games.katamino.solo import parse_cell

        try:
            return words[1], tuple(self.to_board(parse_cell(w, self.dims())) for w in words[2:])
        except GameError:
            return None

    def _duel_hint_of_note(self) -> None:
        """Keep a duel hint (the note ``P1 hint: 3 a1 b1 ...``) drawn until the hinted seat
        places or takes back a piece or the race ends; say what it cost on the clock."""
        from tablesim.games.katamino.duel_race import HINT_SECS
        from tablesim.games.katamino.solo import parse_cell

        st = self.state
        words = (getattr(st, "note", "") or "").split()
        if len(words) >= 3 and words[1] == "hint:" and words[0][1:].isdigit():
            seat = int(words[0][1:]) - 1
            dims = self.family().dims(st.seats[seat])
            self.hint_line = (
                f"P{seat + 1} hint (+{HINT_SECS:g} s on P{seat + 1}'s clock): "
                + " ".join(words[2:])
            )
            try:
                cells = tuple(parse_cell(w, dims) for w in words[3:])
            except GameError:
                cells = ()
            if words[2] != "stuck;" and cells:
                board = tuple(self._board_of(c, seat) for c in cells)
                self.hint = (words[2], board)
                self.duel_hint = (seat, st.duel, len(st.seats[seat].placed))
                return
            self.hint, self.duel_hint = None, None  # stuck: the words say what to take back
            return
        if self.duel_hint is None:
            self.hint, self.hint_line = None, ""
        else:
            seat, duel, placed = self.duel_hint
            if st.phase != "race" or st.duel != duel or len(st.seats[seat].placed) != placed:
                self.hint, self.duel_hint, self.hint_line = None, None, ""

    def _board_of(self, c: Sequence[int], seat: int) -> Cell:
        """A cell of ``seat``'s frame as a board cell (:meth:`to_board` for any seat)."""
        if self.duel and seat == 1:
            return (11 - c[0], 4 - c[1], c[2])
        return (int(c[0]), int(c[1]), int(c[2]))

    def _hint(self) -> Any | None:
        if self.duel:
            from tablesim.games.katamino.duel import KINDS, DuelMove

            return DuelMove(KINDS.index("hint"), secs=self.secs())
        return self.game.parse_move(self.state, "hint")

    def auto_move(self) -> Any | None:
        """While watching (solo): the solver's next piece as a move, else None."""
        if not self.watching or self.duel or self.game.is_terminal(self.state):
            return None
        h = self.family().solver_hint(self.state)
        if h.placement is None:
            self.watching = False
            self.message = "the solver is stuck here: take pieces back (u)"
            return None
        return self._move(h.placement.name, h.placement.cells)

    # ---- drawing ----
    def _ghost(self, item_id: str, name: str, board_cells: Sequence[Cell], colour: Any) -> Item:
        from tablesim.sim.slices.katamino.drawing import _edge, board_origin

        board = np.asarray(board_cells)
        lo = board.min(axis=0)
        a = _edge()
        pos = board_origin(self.table()) + lo * a + np.array([0, 0, 0.002])
        local = tuple(sorted(tuple(int(v) for v in c) for c in board - lo))
        shape = _ghost_shape(item_id, local, a)  # meshed once per shape: moved, recoloured
        at = (float(pos[0]), float(pos[1]), float(pos[2]))
        return replace(
            shape, position=at, color=(float(colour[0]), float(colour[1]), float(colour[2]))
        )

    def ghosts(self) -> Sequence[Item]:
        """The piece held over the board, the hint."""
        out = []
        if self.ghost_move is not None and self.selected is not None:
            out.append(
                self._ghost(
                    "ghost",
                    self.selected,
                    [self.to_board(c) for c in self.ghost_cells],
                    LEGAL if self.legal else ILLEGAL,
                )
            )
        if self.hint is not None:
            out.append(self._ghost("ghost-hint", *self.hint, HINT))
        return out

    def highlights(self) -> Mapping[str, tuple[float, float, float]]:
        """The piece held, in the supply."""
        return {f"piece-{self.selected}": SELECTED} if self.selected else {}

    def overlay(self) -> list[str]:
        """What is held, legality, the game's note, the clocks of a race."""
        lines = [self.message] if self.message else []
        note = getattr(self.state, "note", "")
        if self.hint_line:
            lines.append(self.hint_line)
        if note and not (self.hint_line and "hint:" in note):  # the hint line says it
            lines.append(note)
        if self.duel:
            running = self.secs() if self.state.phase == "race" else 0.0
            clocks = ", ".join(
                f"P{i + 1} {p.clock + (running if i == self.seat() else 0.0):.1f} s"
                + (" (done)" if p.done >= 0 else "")
                for i, p in enumerate(self.state.seats)
            )
            lines.append(f"{self.state.phase}: clocks {clocks}")
        if self.game is None or self.game.is_terminal(self.state):
            return lines
        if self.duel and self.state.phase == "give":
            s = self.seat()
            lines.append(
                f"P{s + 1}: click a piece in front of the board to give it to "
                f"P{2 - s} (or type give N)"
            )
            return lines
        if self.selected is None:
            lines.append("press a loose piece and drag it onto the board")
            return lines
        lines.append(f"holding {self.selected} (orientation {self.orient + 1})")
        if self.ghost_move is not None:
            lines.append("legal: let go / click to place" if self.legal else "ILLEGAL here")
        if self.reason:
            lines.append(self.reason)
        return lines

    def help(self) -> list[str]:
        """Bindings."""
        return [
            "drag a loose piece onto the board (or click it, then click a cell)",
            "r / e turn, f flip, x put back, h hint, w watch the solver",
        ]
