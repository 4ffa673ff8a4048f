"""Pictures of scenes (Panda3D). Panda3D is imported lazily, inside the functions that draw.

:func:`render_scene` renders a :class:`sim.model.Scene` (optionally with simulated poses) to a
PNG offscreen, without a display; see :mod:`sim.view.snapshot`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def render_scene(scene: Any, out_png: str | Path, **kwargs: Any) -> Path:
    """Render ``scene`` to ``out_png``: see :func:`sim.view.snapshot.render_scene`."""
    from sim.view.snapshot import render_scene as _render_scene

    return _render_scene(scene, out_png, **kwargs)


__all__ = ["render_scene"]
