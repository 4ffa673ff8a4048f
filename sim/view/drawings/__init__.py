"""Game tables: adapters from a game's state (or a neutral description) to a
:class:`~sim.view.layout.TableLayout`.

- physics scenes (Kozo towers, Kataboom models): :func:`scene_layout` (:mod:`.scene`);
- Catego: :func:`catego_layout` from a :class:`games.catego.CategoState` (:mod:`.catego`);
- Katamino Duo, Katoiz, Kaito: from the neutral descriptions :class:`KataminoTable`,
  :class:`KatoizTable`, :class:`KaitoTable` (:mod:`.katamino`, :mod:`.katoiz`, :mod:`.kaito`).

:data:`STATE_ADAPTERS` maps a registered game's name to the function that draws its state; this
is the **adapter point**: Kaito, Katoiz, Kozo, Kataboom and Katamino-duel states are adapted in
:mod:`.adapters`; a new game (or mode) needs one entry whose function turns its state into one
of the descriptions above (see ``docs/view.md``).
``tablesim render LOG`` and ``tablesim record LOG`` use it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sim.slices.catego.drawing import catego_layout
from sim.slices.kaito.drawing import KaitoTable, KaitoTile, kaito_layout
from sim.slices.katamino.drawing import KataminoPlacement, KataminoTable, katamino_layout
from sim.slices.katoiz.drawing import (
    KatoizDisc,
    KatoizStack,
    KatoizTable,
    KatoizTile,
    katoiz_layout,
)
from sim.view.drawings.scene import scene_layout
from sim.view.layout import TableLayout

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


def _lazy(name: str) -> Callable[[Any], TableLayout]:
    """An adapter of :mod:`sim.slices.common.adapters`, imported when first used."""

    def adapter(state: Any) -> TableLayout:
        from sim.slices.common import adapters

        return getattr(adapters, name)(state)

    adapter.__name__ = name
    return adapter


STATE_ADAPTERS: dict[str, Callable[[Any], TableLayout]] = {
    "catego": catego_layout,
    "kaito": _lazy("kaito_state_layout"),
    "kataboom": _lazy("kataboom_state_layout"),
    "katamino": _lazy("katamino_state_layout"),
    "katoiz": _lazy("katoiz_state_layout"),
    "kozo": _lazy("kozo_state_layout"),
}
"""Registered game name -> function drawing its state (the adapter point, see above)."""


def layout_for_state(game: str, state: Any) -> TableLayout:
    """The table of ``state`` of the registered game ``game``; ValueError naming the games
    that can be drawn when ``game`` has no adapter yet."""
    if game not in STATE_ADAPTERS:
        raise ValueError(
            f"no table drawing for game {game!r} yet (drawn: {', '.join(sorted(STATE_ADAPTERS))}); "
            "add an adapter to sim.view.drawings.STATE_ADAPTERS"
        )
    return STATE_ADAPTERS[game](state)
