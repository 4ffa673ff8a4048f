"""Controllers: how mouse and key events on the table become game moves.

The interactive app (:mod:`tablesim.sim.view.app`) owns the window, the camera, the game, the referee,
undo and the bots. For the game being played it asks a *controller* what the pointer and the keys
mean. A controller never applies a move: it proposes one (``on_click``/``on_key``/``on_release``
return a move object of the game, or None), and the app checks it, has the referee measure it,
applies it and calls :meth:`Controller.reset` with the new state.

Events carry a :class:`Pointer`: the pixel, the world ray under it, the layout item it hits
first (picking on the drawn triangles) and the point hit (on that item, else on the table plane
z = 0). Keys are Panda3D-style names: ``"r"``, ``"f"``, ``"space"``, ``"enter"``,
``"escape"``, ``"arrow_left"``, ``"shift-r"``...

A controller also tells the app what to draw on top of the game's table:

- :meth:`Controller.ghosts`: extra layout items (the piece being placed, a hint);
- :meth:`Controller.highlights`: item id -> RGB colour (0-1) replacing that item's colour
  (the selected tile, the legal targets);
- :meth:`Controller.overlay`: lines of text (what is selected, why a placement is illegal);
- :meth:`Controller.help`: the key and mouse bindings, shown by the on-screen help.

Plugging in a game: subclass :class:`BaseController` (every hook has a harmless default) and
name it as the ``controller`` of the game's :class:`tablesim.games.registry.GameSpec` (a
``"module:Class"`` string, imported when the window first asks)::

    from tablesim.sim.view.interact import BaseController

    class CategoController(BaseController):
        def on_click(self, p):
            if p.item and p.item.startswith("pad-"):
                return self.game.parse_move(self.state, p.item[4:])
            return None

    # tablesim.games.registry: GameSpec(name="catego", ..., controller="mymodule:CategoController")

A game without a controller is still playable from the app's move line (type the move text,
``enter``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

__all__ = [
    "BaseController",
    "Controller",
    "Pointer",
    "controller_for",
]

Vec3 = tuple[float, float, float]


@dataclass(frozen=True)
class Pointer:
    """Where the mouse is.

    ``x``, ``y``: pixel (column, row; row 0 at the top) in the app's picture; ``origin`` and
    ``direction``: the world ray (m, unit direction) through that pixel; ``item``: the id of the
    first layout item the ray hits (None: only the table); ``point``: the world point hit (on
    ``item``, else on the table plane z = 0; None when the ray misses both); ``button``:
    ``left``, ``right`` or ``middle`` for clicks and releases, None for moves; ``buttons``: the
    buttons held (drags); ``mods``: modifier keys held (``shift``, ``control``, ``alt``).
    """

    x: float
    y: float
    origin: Vec3
    direction: Vec3
    item: str | None = None
    point: Vec3 | None = None
    button: str | None = None
    buttons: frozenset[str] = field(default_factory=frozenset)
    mods: frozenset[str] = field(default_factory=frozenset)
    bound: tuple[float, float, float, float] | None = None
    """(x0, y0, x1, y1) m: the table's play bound (:mod:`tablesim.sim.view.table_extent`);
    :meth:`on_plane` and a ``point`` on the bare table are clamped into it, so a carried piece
    never leaves the table's fixed extent. None: no bound."""

    def on_plane(self, z: float) -> tuple[float, float] | None:
        """(x, y) where the ray crosses the horizontal plane at height ``z`` (None if never),
        clamped into :attr:`bound`."""
        oz, dz = self.origin[2], self.direction[2]
        if abs(dz) < 1e-12:
            return None
        t = (z - oz) / dz
        if t <= 0:
            return None
        x, y = self.origin[0] + t * self.direction[0], self.origin[1] + t * self.direction[1]
        if self.bound is not None:
            x0, y0, x1, y1 = self.bound
            x, y = min(max(x, x0), x1), min(max(y, y0), y1)
        return (x, y)


@runtime_checkable
class Controller(Protocol):
    """What the app needs from a game's controller (see the module docstring)."""

    game: Any
    state: Any

    def reset(self, game: Any, state: Any) -> None:
        """A new position to act on (start, after every move, after undo)."""

    def on_mouse_move(self, p: Pointer) -> None:
        """The pointer moved (drags: ``p.buttons`` is not empty)."""

    def on_click(self, p: Pointer) -> Any | None:
        """A button went down; return a move to play, or None."""

    def on_release(self, p: Pointer) -> Any | None:
        """A button went up (end of a drag); return a move to play, or None."""

    def on_key(self, key: str) -> Any | None:
        """A key was pressed; return a move to play, or None."""

    def overlay(self) -> list[str]:
        """Text lines for the screen (selection, legality and its reason)."""

    def help(self) -> list[str]:
        """Key and mouse bindings of this controller."""

    def highlights(self) -> Mapping[str, tuple[float, float, float]]:
        """Item id -> colour (0-1 RGB) to draw instead of the item's own."""

    def ghosts(self) -> Sequence[Any]:
        """Extra :class:`tablesim.sim.view.layout.Item` to draw (ghost pieces, hints)."""

    def stamp(self, move: Any) -> Any:
        """A move typed on the move line, as the person made it (e.g. with its time)."""


class BaseController:
    """A controller that does nothing: subclass it and override what the game needs.

    ``game`` and ``state`` are set by :meth:`reset`; ``message`` is shown by :meth:`overlay`.
    """

    def __init__(self, game: Any = None, state: Any = None) -> None:
        self.game = game
        self.state = state
        self.message = ""

    def reset(self, game: Any, state: Any) -> None:
        """Remember the new position and clear the message."""
        self.game, self.state = game, state
        self.message = ""

    def stamp(self, move: Any) -> Any:
        """A move typed on the move line as the person made it (games that time moves get the
        seconds since the position was shown); unchanged here."""
        return move

    def on_mouse_move(self, p: Pointer) -> None:
        """Ignore pointer moves."""

    def on_click(self, p: Pointer) -> Any | None:
        """Ignore clicks."""
        return None

    def on_release(self, p: Pointer) -> Any | None:
        """Ignore releases."""
        return None

    def on_key(self, key: str) -> Any | None:
        """Ignore keys."""
        return None

    def overlay(self) -> list[str]:
        """The message, if any."""
        return [self.message] if self.message else []

    def help(self) -> list[str]:
        """No bindings of its own."""
        return []

    def highlights(self) -> Mapping[str, tuple[float, float, float]]:
        """Nothing highlighted."""
        return {}

    def ghosts(self) -> Sequence[Any]:
        """No ghosts."""
        return ()


ControllerFactory = Callable[[], Controller]


def controller_for(game_name: str) -> Controller:
    """A new controller for ``game_name``: the ``controller`` of its game spec
    (:class:`tablesim.games.registry.GameSpec`), else a :class:`BaseController` (the game is then played
    from the app's move line)."""
    from tablesim.games.registry import game_names, game_spec

    factory = game_spec(game_name).part("controller") if game_name in game_names() else None
    return factory() if factory is not None else BaseController()
