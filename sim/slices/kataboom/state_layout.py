"""The Kataboom state drawn: its state -> the neutral table description (the scheme:
:mod:`tablesim.sim.slices.common.adapters`)."""

from __future__ import annotations

from typing import Any

from tablesim.sim.slices.common.adapters import _recoloured
from tablesim.sim.view.layout import TableLayout


def kataboom_state_layout(state: Any) -> TableLayout:
    """The settled structure of a Kataboom state, as its physics table builds it."""
    from dataclasses import replace

    from tablesim.sim.slices.kataboom.referee import KataboomReferee
    from tablesim.sim.view.drawings.scene import scene_layout

    scene = KataboomReferee(state.config, state.seed).structure_scene(state)
    layout = scene_layout(_recoloured(scene))
    return replace(layout, name=f"kataboom turn {state.turn}")
