"""The table view (Panda3D): every game drawn on one wooden table, headless, to pictures and films.

Modules (Panda3D is imported lazily, inside the functions that draw; ``import tablesim.sim.view`` is light):

- :mod:`tablesim.sim.view.layout`: the neutral description the renderer draws (:class:`TableLayout`);
- :mod:`tablesim.sim.view.drawings`: adapters from game states / scenes to layouts, one module per game;
- :mod:`tablesim.sim.view.renderer`: the Panda3D renderer (offscreen buffer or window);
- :mod:`tablesim.sim.view.backend`: ``tiny`` (p3tinydisplay, anywhere) or ``gl`` (pandagl under X/Xvfb);
- :mod:`tablesim.sim.view.camera`, :mod:`tablesim.sim.view.shadows`, :mod:`tablesim.sim.view.art`: cameras, light and
  faked shadows, painted pictures;
- :mod:`tablesim.sim.view.table_view`: the Gymnasium-style :class:`TableView` (``render_mode``);
- :mod:`tablesim.sim.view.snapshot`: PNG stills; :mod:`tablesim.sim.view.film`: GIF / MP4 films of World runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["TableView", "render_scene"]


def render_scene(scene: Any, out_png: str | Path, **kwargs: Any) -> Path:
    """Render ``scene`` to ``out_png``: see :func:`tablesim.sim.view.snapshot.render_scene`."""
    from tablesim.sim.view.snapshot import render_scene as _render_scene

    return _render_scene(scene, out_png, **kwargs)


def __getattr__(name: str) -> Any:
    if name == "TableView":
        from tablesim.sim.view.table_view import TableView

        return TableView
    raise AttributeError(f"module 'tablesim.sim.view' has no attribute {name!r}")
