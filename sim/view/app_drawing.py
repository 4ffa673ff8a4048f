"""Drawing the interactive table (:class:`TableDrawing`): what is on the table now (the game's
table or the animation's, the controller's highlights and ghosts), and each frame: the table
rebuilt only when it changed, the ghosts swapped or the camera moved without rebuilding it.

Every call goes back through the app, so an app's own ``frame`` or ``layout`` is the one used."""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from tablesim.sim.model import vec3
from tablesim.sim.view.layout import Item, TableLayout

if TYPE_CHECKING:
    from tablesim.sim.view.app import WindowApp


def _recolour(layout: TableLayout, colours: Mapping[str, Sequence[float]]) -> TableLayout:
    if not colours:
        return layout
    items = tuple(
        replace(it, color=vec3(colours[it.id]), finish="plain") if it.id in colours else it
        for it in layout.items
    )
    return replace(layout, items=items)


class TableDrawing:
    """The drawing of one app (``app``, its renderer)."""

    def __init__(self, app: WindowApp) -> None:
        self.app: WindowApp = weakref.proxy(app)

    def _shown_ghosts(self) -> tuple[Item, ...]:
        """The controller's items drawn now: its ghosts (ids ``ghost...``) only while a person
        has the table (never a stale ghost while a bot thinks or a move is judged)."""
        items = tuple(self.app.controller.ghosts())
        if self.app.human_to_move():
            return items
        return tuple(it for it in items if not it.id.startswith("ghost"))

    def layout(self) -> TableLayout:
        """What is drawn now: the game's table (or the animation's), the controller's
        highlights and ghosts."""
        if self.app._showing() is not None:
            base = self.app._anim["layout"].with_poses(self.app._anim_poses())  # type: ignore[index]
        else:
            base = self.app._base_layout()
            base = _recolour(base, dict(self.app.controller.highlights()))
            ghosts = self.app._shown_ghosts()
            if ghosts:
                base = replace(base, items=base.items + ghosts)
        return base

    def frame(self) -> np.ndarray | None:
        """Draw the table (rebuilt when something changed): (H, W, 3) uint8 offscreen, None in
        a window."""
        if self.app.closed:
            raise RuntimeError("the app is closed")
        anim = self.app._showing()
        if anim is not None and anim.get("shown") and self.app._layout is not None:
            # the animation's table is built: only move its pieces (no rebuild, no new shaders)
            self.app.renderer.set_poses(self.app._anim_poses())
            self.app._dirty = False
        elif self.app._dirty or self.app._layout is None:
            self.app._redraw(anim)
        return self.app.renderer.render()

    def _redraw(self, anim: dict[str, Any] | None) -> None:
        """Rebuild the table, or when only the controller's ghosts changed, swap them."""
        if anim is not None:
            anim["shown"] = True
            self.app._shown_key = None
            layout = self.app.layout()
            self.app._ensure_orbit(self.app._base_layout())
            self.app.renderer.show(layout, self.app.camera_spec(), self.app.table_extent())
        else:
            base = self.app._base_layout()
            colours = dict(self.app.controller.highlights())
            ghosts = self.app._shown_ghosts()
            self.app._ensure_orbit(base)
            cam = self.app.camera_spec()
            key = (id(base), tuple(sorted((k, tuple(v)) for k, v in colours.items())))
            view = (tuple(cam["target"]), cam["distance"], cam["yaw"], cam["pitch"], self.app.size)
            table = _recolour(base, colours)
            layout = replace(table, items=table.items + ghosts) if ghosts else table
            if self.app._layout is not None and self.app._shown_key == key:
                # the same table: the ghosts swapped, the camera moved (an orbit, a zoom, a
                # resize) without building the table again
                if self.app._shown_view != view:
                    self.app.renderer.set_camera(cam)
                self.app.renderer.replace_items(self.app._ghost_ids, ghosts)
            else:
                self.app.renderer.show(layout, cam, self.app.table_extent())
            self.app._shown_key = key
            self.app._shown_view = view
            self.app._ghost_ids = [g.id for g in ghosts]
        self.app._layout = layout
        self.app.renderer.set_text(self.app.text_blocks(), scale=self.app.text_scale())
        self.app._dirty = False

    def items(self) -> list[Item]:
        """The items drawn last (for tests and controllers)."""
        return list(self.app._layout.items) if self.app._layout is not None else []
