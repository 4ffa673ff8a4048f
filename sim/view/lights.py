"""The lights and the sky of a table view (:class:`Lights`): an ambient, a key and a fill light;
the key light follows the camera and, on the gl backend, casts a real shadow map; the sky
display region is turned off when the table (or the floor under it) covers the whole picture.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

import numpy as np

from tablesim.sim.view.camera import NEAR

if TYPE_CHECKING:
    from tablesim.sim.view.renderer import Renderer

SHADOW_MAP = 2048
"""Shadow map size (texels per side) of the gl backend."""


_AMBIENT = (0.40, 0.40, 0.43)


_KEY = (0.72, 0.70, 0.65)


_FILL = (0.24, 0.25, 0.28)


class Lights:
    """The lights of one renderer ``r``, aimed along its light direction."""

    def __init__(self, r: Renderer) -> None:
        self.r: Renderer = weakref.proxy(r)  # no cycle: a closed renderer is freed at once
        self._key_np: Any = None
        self._fill: Any = None

    def add_lights(self, root: Any) -> None:
        """An ambient, a key and a fill light under ``root`` (aimed by :meth:`aim_lights`)."""
        from panda3d.core import AmbientLight, DirectionalLight

        ambient = AmbientLight("ambient")
        ambient.set_color((*_AMBIENT, 1))
        key = DirectionalLight("key")
        key.set_color((*_KEY, 1))
        fill = DirectionalLight("fill")
        fill.set_color((*_FILL, 1))
        key_np = root.attach_new_node(key)
        if self.r.backend == "gl":
            key.set_shadow_caster(True, SHADOW_MAP, SHADOW_MAP)
            root.set_shader_auto()
        self._key_np, self._fill = key_np, fill
        for node in (root.attach_new_node(ambient), key_np, root.attach_new_node(fill)):
            root.set_light(node)

    def aim_lights(self) -> None:
        """Aim the key light along the renderer's light direction and the fill light against it."""
        from panda3d.core import LVector3f

        light = self.r._light
        key_np, key = self._key_np, self._key_np.node()
        fill_dir = -light * np.array([1.0, 1.0, 0.0])  # horizontal: lights the shaded sides only
        self._fill.set_direction(LVector3f(*(fill_dir / np.linalg.norm(fill_dir))))
        if self.r.backend == "gl":
            # a real shadow map: the light's lens must be placed and sized explicitly (P16)
            lo, hi = self.r._bounds
            centre = (lo + hi) / 2
            reach = float(np.linalg.norm(hi - lo)) / 2 + 0.02
            lens = key.get_lens()
            lens.set_film_size(2.6 * reach, 2.6 * reach)
            lens.set_near_far(0.01, 8 * reach + 0.1)
            key_np.set_pos(*(centre - light * 4 * reach))
            key_np.look_at(*centre)
        else:
            key.set_direction(LVector3f(*light))

    def update_sky(self) -> None:
        """Draw the sky only when some of it shows: when the rays through the four corners of
        the picture all hit the table top (or the renderer's floor) in front of the near plane, the table covers the
        whole picture (the picture's rectangle lies below the horizon, and its image on the
        table plane is the convex hull of the four hits, inside the convex table top), and
        the full-frame sky quad under it would be drawn for nothing (0.8 ms at 960x540 on
        tiny)."""
        covered = self.r.view is not None and self.r._cover is not None
        if covered:
            lo, hi, z = self.r._cover  # type: ignore[misc]  # the table top, or the floor
            w, h = self.r.size
            fwd = np.asarray(self.r.view.forward, float)  # type: ignore[union-attr]
            for x, y in ((0, 0), (w, 0), (0, h), (w, h)):
                o, d = self.r.ray(x, y)
                if d[2] >= -1e-9:
                    covered = False
                    break
                t = (z - o[2]) / d[2]
                p = o + t * d
                if t * float(d @ fwd) <= 2 * NEAR or not (
                    (p[:2] > lo).all() and (p[:2] < hi).all()
                ):
                    covered = False
                    break
        if self.r._dr_sky.is_active() == covered:
            self.r._whole = True
        self.r._dr_sky.set_active(not covered)
