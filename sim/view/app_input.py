"""The interactive table's input (:class:`InputRouter`): the pointer ray and what it picks,
mouse buttons and drags (orbit, pan), the wheel, modifier keys, the app's keys, and the move
line typed after ``enter``. Moves proposed by the controller go to the app's ``play``.

Every call goes back through the app, so an app's own ``key`` or mouse handlers (a scene, the
sandbox) are the ones used."""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from tablesim.games.core import GameError
from tablesim.sim.view.interact import Pointer
from tablesim.sim.view.picking import pick

if TYPE_CHECKING:
    from tablesim.sim.view.app import WindowApp


class InputRouter:
    """Events of one app (``app``)."""

    def __init__(self, app: WindowApp) -> None:
        self.app: WindowApp = weakref.proxy(app)

    def pointer(self, x: float, y: float, button: str | None = None) -> Pointer:
        """The :class:`Pointer` at pixel (x, y) on the table drawn last."""
        if self.app._layout is None:
            self.app.frame()
        origin, direction = self.app.renderer.ray(x, y)
        assert self.app._layout is not None
        item, point = pick(self.app._layout, origin, direction)
        ext = self.app.table_extent()
        if item is None and point is not None:  # the bare table: kept inside the play bound
            point = (*ext.clamp(point[0], point[1]), point[2])
        bound = (ext.play_lo[0], ext.play_lo[1], ext.play_hi[0], ext.play_hi[1])
        return Pointer(
            float(x), float(y), tuple(origin.tolist()), tuple(direction.tolist()),
            item, point, button, frozenset(self.app._buttons), frozenset(self.app._mods),
            bound,
        )  # fmt: skip

    def mouse_move(self, x: float, y: float) -> None:
        """The mouse moved to pixel (x, y): camera drags, else the controller."""
        px, py = self.app._mouse
        self.app._mouse = (x, y)
        if self.app._drag is not None:
            kind = self.app._drag[0]
            if kind == "orbit":
                self.app.orbit(-(x - px) * 0.4, -(y - py) * 0.3)
            else:
                self.app.pan(x - px, y - py)
            return
        if self.app.human_to_move():
            self.app.controller.on_mouse_move(self.app.pointer(x, y))
            self.app._dirty = True

    def mouse_down(self, x: float, y: float, button: str = "left") -> bool:
        """A button went down at (x, y); True when it made a move."""
        self.app._mouse = (x, y)
        self.app._buttons.add(button)
        if button == "right" or button == "middle":
            pan = button == "middle" or "shift" in self.app._mods
            self.app._drag = ("pan" if pan else "orbit", x, y)
            return False
        if not self.app.human_to_move():
            return False
        return self.app._propose(self.app.controller.on_click(self.app.pointer(x, y, button)))

    def mouse_up(self, x: float, y: float, button: str = "left") -> bool:
        """A button went up; True when it made a move (end of a drag)."""
        self.app._buttons.discard(button)
        if button in ("right", "middle"):
            self.app._drag = None
            return False
        if not self.app.human_to_move():
            return False
        return self.app._propose(self.app.controller.on_release(self.app.pointer(x, y, button)))

    def wheel(self, steps: float) -> None:
        """Zoom: positive steps come closer."""
        self.app.zoom(0.9**steps)

    def modifiers(self, mods: Sequence[str]) -> None:
        """Set the modifier keys held (``shift``, ``control``, ``alt``)."""
        self.app._mods = set(mods)

    def key(self, name: str) -> bool:
        """A key press (Panda3D names); True when it made a move. App keys first (unless a
        move is being typed), then the controller's."""
        if self.app.typing is not None:
            return self.app._type(name)
        app_keys = {
            "arrow_left": lambda: self.app.orbit(-10, 0),
            "arrow_right": lambda: self.app.orbit(10, 0),
            "arrow_up": lambda: self.app.orbit(0, -8),
            "arrow_down": lambda: self.app.orbit(0, 8),
            "+": lambda: self.app.zoom(0.85),
            "=": lambda: self.app.zoom(0.85),
            "-": lambda: self.app.zoom(1 / 0.85),
            "home": self.app._reset_view,
            "f1": self.app._toggle_help,
            "escape": self.app.close,
        }
        if name in app_keys:
            app_keys[name]()
            self.app._dirty = True
            return False
        if name in ("u", "backspace"):
            if not self.app.busy:
                self.app.undo()
            return False
        if name == "enter":
            self.app.typing = ""
            self.app._dirty = True
            return False
        if not self.app.human_to_move():
            return False
        self.app._dirty = True
        return self.app._propose(self.app.controller.on_key(name))

    def _type(self, name: str) -> bool:
        """A key while the move line is open: only editing keys act; characters come through
        :meth:`type_char` (a window sends both for one press)."""
        self.app._dirty = True
        if name == "escape":
            self.app.typing = None
        elif name == "backspace":
            self.app.typing = (self.app.typing or "")[:-1]
        elif name == "enter":
            text, self.app.typing = (self.app.typing or "").strip(), None
            if not text:
                return False
            if not self.app.human_to_move():
                why = "the table is still busy" if self.app.busy else "not your turn"
                self.app.verdict, self.app.explanation = f"{why}: {text!r} not played", ""
                return False
            try:
                move = self.app.game.parse_move(self.app.state, text)
            except GameError as exc:
                from tablesim.sim.view.move_words import move_line_answer

                said = move_line_answer(self.app.game, self.app.state, text)
                self.app.verdict, self.app.explanation = said or (f"cannot read {text!r}", str(exc))
                return False
            return self.app.play(self.app.controller.stamp(move))
        return False

    def type_char(self, char: str) -> None:
        """A typed character (with shift and the keyboard layout applied): goes to the move
        line when it is open; ignored otherwise (keys act through :meth:`key`)."""
        if self.app.typing is None or len(char) != 1 or not char.isprintable():
            return
        self.app.typing += char
        self.app._dirty = True

    def type_move(self, text: str) -> bool:
        """Type ``text`` on the move line and play it (True when played)."""
        self.app.key("enter")
        for ch in text:
            self.app.type_char(ch)
        return self.app._type("enter")

    def _propose(self, move: Any) -> bool:
        self.app._dirty = True
        return False if move is None else self.app.play(move)
