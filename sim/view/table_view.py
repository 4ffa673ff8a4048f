"""A Gymnasium-style view of the table: ``render_mode`` ``"rgb_array"`` or ``"human"``.

::

    view = TableView(render_mode="rgb_array", size=(640, 360))
    view.show(scene)                # a tablesim.sim.model.Scene, or any TableLayout
    view.set_poses(world.poses())   # after stepping a World
    frame = view.render()           # (360, 640, 3) uint8, row 0 at the top
    view.close()

As in Gymnasium's ``Env.render``: ``rgb_array`` returns an ``(H, W, 3) uint8`` array;
``human`` draws into an on-screen window (gl backend, needs an X display) and returns None.
The view reads layouts, scenes and poses; it never changes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tablesim.sim.view.layout import Pose, TableLayout

__all__ = ["RENDER_MODES", "TableView"]

RENDER_MODES: tuple[str, ...] = ("human", "rgb_array")


class TableView:
    """The table drawn on demand; see the module docstring.

    Parameters
    ----------
    render_mode: ``"rgb_array"`` (frames as arrays) or ``"human"`` (a window).
    size: (width, height) in pixels.
    backend: ``auto``, ``tiny`` or ``gl`` (:mod:`tablesim.sim.view.backend`).
    camera: a camera spec (:func:`tablesim.sim.view.camera.camera_for_scene`) overriding the table's.
    supersample: render at this many times the size and downscale.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 30}

    def __init__(
        self,
        render_mode: str = "rgb_array",
        *,
        size: Sequence[int] = (640, 360),
        backend: str = "auto",
        camera: Mapping[str, Any] | None = None,
        supersample: int = 1,
    ) -> None:
        from tablesim.sim.view.backend import BACKENDS

        if render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode {render_mode!r} is not supported (allowed: {', '.join(RENDER_MODES)})"
            )
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r} (allowed: {', '.join(BACKENDS)})")
        self.render_mode = render_mode
        self.size = (int(size[0]), int(size[1]))
        self.backend = backend
        self.camera = camera
        self.supersample = supersample
        self._renderer: Any = None
        self._layout: TableLayout | None = None

    def _ensure(self) -> Any:
        if self._renderer is None:
            from tablesim.sim.view.renderer import Renderer

            self._renderer = Renderer(
                self.size,
                backend=self.backend,
                supersample=self.supersample,
                window=self.render_mode == "human",
            )
        return self._renderer

    def show(self, what: Any, poses: Mapping[str, Pose] | None = None) -> None:
        """Put a :class:`TableLayout` or a :class:`tablesim.sim.model.Scene` (with optional ``poses``)
        on the table; the camera is placed for it."""
        if not isinstance(what, TableLayout):
            from tablesim.sim.view.drawings.scene import scene_layout

            what = scene_layout(what, poses)
        elif poses:
            what = what.with_poses(poses)
        self._layout = what
        self._ensure().show(what, self.camera)

    def set_poses(self, poses: Mapping[str, Pose]) -> None:
        """Move items of the table shown (id -> (position, quaternion x, y, z, w))."""
        if self._layout is None:
            raise RuntimeError("show() something before setting poses")
        self._ensure().set_poses(poses)

    def render(self) -> np.ndarray | None:
        """``rgb_array``: the frame, (H, W, 3) uint8; ``human``: draw the window, None."""
        if self._layout is None:
            raise RuntimeError("show() something before rendering")
        return self._ensure().render()

    @property
    def used_backend(self) -> str | None:
        """The backend actually drawing (None before the first show)."""
        return None if self._renderer is None else self._renderer.backend

    def close(self) -> None:
        """Free the renderer (idempotent)."""
        if self._renderer is not None:
            self._renderer.close()
            self._renderer = None

    def __enter__(self) -> TableView:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
