"""Game tables: adapters from a game's state (or a neutral description) to a
:class:`~sim.view.layout.TableLayout`.

- physics scenes (Kozo towers, Kataboom models): :func:`scene_layout` (:mod:`.scene`);
- Catego: :func:`catego_layout` from a :class:`games.catego.CategoState` (:mod:`.catego`);
- Katamino Duo, Katoiz, Kaito: from the neutral descriptions :class:`KataminoTable`,
  :class:`KatoizTable`, :class:`KaitoTable` (:mod:`.katamino`, :mod:`.katoiz`, :mod:`.kaito`).

:data:`STATE_ADAPTERS` maps a registered game's name to the function that draws its state; this
is the **adapter point** for the games being written: when a game's state lands, add one entry
whose function turns the state into one of the descriptions above (see ``docs/view.md``).
``tablesim render LOG`` and ``tablesim record LOG`` use it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sim.view.layout import TableLayout
from sim.view.tables.catego import catego_layout
from sim.view.tables.kaito import KaitoTable, KaitoTile, kaito_layout
from sim.view.tables.katamino import KataminoPlacement, KataminoTable, katamino_layout
from sim.view.tables.katoiz import KatoizDisc, KatoizStack, KatoizTable, KatoizTile, katoiz_layout
from sim.view.tables.scene import scene_layout

__all__ = [
    "STATE_ADAPTERS",
    "KaitoTable",
    "KaitoTile",
    "KataminoPlacement",
    "KataminoTable",
    "KatoizDisc",
    "KatoizStack",
    "KatoizTable",
    "KatoizTile",
    "catego_layout",
    "kaito_layout",
    "katamino_layout",
    "katoiz_layout",
    "layout_for_state",
    "scene_layout",
]

STATE_ADAPTERS: dict[str, Callable[[Any], TableLayout]] = {
    "catego": catego_layout,
    # "kozo": lambda state: scene_layout(<the state's tower as a sim.model.Scene>),
    # "katamino-duo": lambda state: katamino_layout(KataminoTable(...from the state...)),
    # "katoiz": lambda state: katoiz_layout(KatoizTable(...)),
    # "kaito": lambda state: kaito_layout(KaitoTable(...)),
}
"""Registered game name -> function drawing its state (the adapter point, see above)."""


def layout_for_state(game: str, state: Any) -> TableLayout:
    """The table of ``state`` of the registered game ``game``; ValueError naming the games
    that can be drawn when ``game`` has no adapter yet."""
    if game not in STATE_ADAPTERS:
        raise ValueError(
            f"no table drawing for game {game!r} yet (drawn: {', '.join(sorted(STATE_ADAPTERS))}); "
            "add an adapter to sim.view.tables.STATE_ADAPTERS"
        )
    return STATE_ADAPTERS[game](state)
