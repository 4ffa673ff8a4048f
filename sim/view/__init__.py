"""The table view (Panda3D): every game drawn on one wooden table, headless, to pictures and films.

Modules (Panda3D is imported lazily, inside the functions that draw; ``import sim.view`` is light):

- :mod:`sim.view.layout`: the neutral description the renderer draws (:class:`TableLayout`);
- :mod:`sim.view.drawings`: adapters from game states / scenes to layouts, one module per game;
- :mod:`sim.view.renderer`: the Panda3D renderer (offscreen buffer or window);
- :mod:`sim.view.backend`: ``tiny`` (p3tinydisplay, anywhere) or ``gl`` (pandagl under X/Xvfb);
- :mod:`sim.view.camera`, :mod:`sim.view.shadows`, :mod:`sim.view.art`: cameras, light and
  faked shadows, painted pictures;
- :mod:`sim.view.table_view`: the Gymnasium-style :class:`TableView` (``render_mode``);
- :mod:`sim.view.snapshot`: PNG stills; :mod:`sim.view.film`: GIF / MP4 films of World runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["TableView", "render_scene"]


def render_scene(scene: Any, out_png: str | Path, **kwargs: Any) -> Path:
    """Render ``scene`` to ``out_png``: see :func:`sim.view.snapshot.render_scene`."""
    from sim.view.snapshot import render_scene as _render_scene

    return _render_scene(scene, out_png, **kwargs)


def __getattr__(name: str) -> Any:
    if name == "TableView":
        from sim.view.table_view import TableView

        return TableView
    raise AttributeError(f"module 'sim.view' has no attribute {name!r}")
