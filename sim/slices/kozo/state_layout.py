"""The Kozo state drawn: its state -> the neutral table description (the scheme:
:mod:`tablesim.sim.slices.common.adapters`)."""

from __future__ import annotations

from typing import Any

from tablesim.sim.view.layout import TableLayout


def kozo_state_layout(state: Any) -> TableLayout:
    """The settled tower of a Kozo state on its board, as the physics table builds it."""
    from dataclasses import replace

    from tablesim.games.polycubes import get_catalogue
    from tablesim.sim.slices.kozo.referee import KozoReferee
    from tablesim.sim.view.drawings.scene import scene_layout

    scene = KozoReferee(state.config, state.seed).tower_scene(state)
    colours = {p.name: p.color for p in get_catalogue(state.config.catalogue).pieces}
    balance = get_catalogue("kozo-balance").pieces[0].color
    pieces = []
    for p in scene.pieces:
        if p.static:
            pieces.append(p)
        elif p.cube == "balance":
            pieces.append(replace(p, color=balance))
        else:
            pieces.append(replace(p, color=colours.get(p.id, p.color)))
    layout = scene_layout(replace(scene, pieces=tuple(pieces)))
    return replace(layout, name=f"kozo round {state.round}, turn {state.turn}")
