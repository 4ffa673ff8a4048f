"""The interactive table's orbit camera (:class:`OrbitCamera`): a target, a distance, yaw and
pitch, turned, zoomed and panned by the window's events; the first view frames the app's
:meth:`~tablesim.sim.view.app.WindowApp.framing_points`."""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING, Any

import numpy as np

from tablesim.sim.view.camera import DEFAULT_PITCH, DEFAULT_YAW, camera_for_scene
from tablesim.sim.view.layout import TableLayout

if TYPE_CHECKING:
    from tablesim.sim.view.app import WindowApp


class OrbitCamera:
    """The camera of one app (``app``): None until the first frame places it."""

    def __init__(self, app: WindowApp) -> None:
        self.app: WindowApp = weakref.proxy(app)
        self._orbit: dict[str, Any] | None = None

    def reset(self) -> None:
        """Forget the view: the next frame frames the table again."""
        self._orbit = None

    def _ensure_orbit(self, layout: TableLayout) -> None:
        if self._orbit is not None:
            return
        spec = dict(layout.camera or {})
        yaw = float(spec.get("yaw", DEFAULT_YAW))
        pitch = float(spec.get("pitch", DEFAULT_PITCH))
        # the points framed when the table was built, not those of the table now: the home
        # view stays the start view however far pieces have gone (sim.view.table_extent)
        self.app.table_extent()
        view = camera_for_scene(spec, self.app._start_points, self.app.size[0] / self.app.size[1])
        self._orbit = {
            "target": np.asarray(view.look_at, float),
            "distance": float(np.linalg.norm(np.subtract(view.pos, view.look_at))),
            "yaw": yaw,
            "pitch": pitch,
            "fov": view.fov,
        }

    def camera_spec(self) -> dict[str, Any]:
        """The orbit camera as a camera spec (target, distance, yaw, pitch, fov)."""
        o = self._orbit or {}
        return {
            "target": list(o["target"]),
            "distance": o["distance"],
            "yaw": o["yaw"],
            "pitch": o["pitch"],
            "fov": o["fov"],
        }

    def orbit(self, dyaw: float, dpitch: float) -> None:
        """Turn the camera round the target (degrees); pitch stays within -89..-3."""
        if self._orbit is None:
            self.app.frame()
        o = self._orbit
        assert o is not None
        o["yaw"] = (o["yaw"] + dyaw) % 360
        o["pitch"] = min(-3.0, max(-89.0, o["pitch"] + dpitch))
        self.app._camera_moved()
        self.app._dirty = True

    def zoom(self, factor: float) -> None:
        """Move the camera ``factor`` times its distance from the target (0.05..20 m)."""
        if self._orbit is None:
            self.app.frame()
        o = self._orbit
        assert o is not None
        o["distance"] = min(20.0, max(0.05, o["distance"] * factor))
        self.app._camera_moved()
        self.app._dirty = True

    def pan(self, dx: float, dy: float) -> None:
        """Slide the target by pixels (dx right, dy down) at the target's distance."""
        if self._orbit is None:
            self.app.frame()
        o = self._orbit
        assert o is not None
        h, p = math.radians(o["yaw"]), math.radians(o["pitch"])
        right = np.array([math.cos(h), math.sin(h), 0.0])
        fwd = np.array([-math.sin(h) * math.cos(p), math.cos(h) * math.cos(p), math.sin(p)])
        up = np.cross(right, fwd)
        scale = 2 * o["distance"] * math.tan(math.radians(o["fov"]) / 2) / self.app.size[1]
        o["target"] = o["target"] + scale * (-dx * right + dy * up)
        self.app._camera_moved()
        self.app._dirty = True
