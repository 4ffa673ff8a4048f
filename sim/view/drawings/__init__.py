"""Game tables: adapters from a game's state (or a neutral description) to a
:class:`~sim.view.layout.TableLayout`.

- physics scenes (Kozo towers, Kataboom models): :func:`scene_layout` (:mod:`.scene`);
- Catego: :func:`catego_layout` from a :class:`tablesim.games.catego.CategoState`
  (:mod:`tablesim.sim.slices.catego.drawing`);
- Katamino Duo, Katoiz, Kaito: from the neutral descriptions :class:`KataminoTable`,
  :class:`KatoizTable`, :class:`KaitoTable` (``sim/slices/<game>/drawing.py``), re-exported
  here.

:func:`drawing_for` finds the function that draws a registered game's state: the ``drawing`` of
its :class:`tablesim.games.registry.GameSpec` (the **adapter point**: Kaito, Katoiz, Kozo, Kataboom and
Katamino-duel states are adapted in ``sim/slices/<game>/state_layout.py``); a new game (or mode)
names in its spec one function that turns its state into one of the descriptions above (see
``docs/view.md``).
``tablesim render LOG`` and ``tablesim record LOG`` use it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tablesim.sim.view.layout import TableLayout

if TYPE_CHECKING:
    from tablesim.sim.slices.catego.drawing import catego_layout
    from tablesim.sim.slices.kaito.drawing import KaitoTable, KaitoTile, kaito_layout
    from tablesim.sim.slices.katamino.drawing import (
        KataminoPlacement,
        KataminoTable,
        katamino_layout,
    )
    from tablesim.sim.slices.katoiz.drawing import (
        KatoizDisc,
        KatoizStack,
        KatoizTable,
        KatoizTile,
        katoiz_layout,
    )
    from tablesim.sim.view.drawings.scene import scene_layout

_LAZY = {
    "catego_layout": "tablesim.sim.slices.catego.drawing",
    **dict.fromkeys(
        ("KaitoTable", "KaitoTile", "kaito_layout"), "tablesim.sim.slices.kaito.drawing"
    ),
    **dict.fromkeys(
        ("KataminoPlacement", "KataminoTable", "katamino_layout"),
        "tablesim.sim.slices.katamino.drawing",
    ),
    **dict.fromkeys(
        ("KatoizDisc", "KatoizStack", "KatoizTable", "KatoizTile", "katoiz_layout"),
        "tablesim.sim.slices.katoiz.drawing",
    ),
    "scene_layout": "tablesim.sim.view.drawings.scene",
}
"""The re-exported names and their modules, imported on first use: the slices' drawings import
:mod:`.common` (inside this package), so importing them here at the top made a slice's drawing
module unimportable first (a circular import)."""


def __getattr__(name: str) -> Any:
    """A re-exported drawing name (:data:`_LAZY`), imported on first use."""
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "KaitoTable",
    "KaitoTile",
    "KataminoPlacement",
    "KataminoTable",
    "KatoizDisc",
    "KatoizStack",
    "KatoizTable",
    "KatoizTile",
    "catego_layout",
    "drawing_for",
    "kaito_layout",
    "katamino_layout",
    "katoiz_layout",
    "layout_for_state",
    "scene_layout",
]


def drawing_for(game: str) -> Callable[[Any], TableLayout]:
    """The function drawing a state of the registered game ``game`` (its spec's ``drawing``);
    ValueError naming the games that can be drawn when it has none."""
    from tablesim.games.registry import game_names, game_spec

    drawing = game_spec(game).part("drawing") if game in game_names() else None
    if drawing is None:
        drawn = [n for n in game_names() if game_spec(n).drawing is not None]
        raise ValueError(
            f"no table drawing for game {game!r} yet (drawn: {', '.join(drawn)}); "
            "give its GameSpec a drawing (games.registry)"
        )
    return drawing


def layout_for_state(game: str, state: Any) -> TableLayout:
    """The table of ``state`` of the registered game ``game``; ValueError naming the games
    that can be drawn when ``game`` has no drawing yet."""
    return drawing_for(game)(state)
