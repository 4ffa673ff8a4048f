"""Cameras of the table view: where the camera is, how it frames the table, where points land.

Conventions: metres, z up, the table top is z = 0. Yaw and pitch are Panda3D's heading and pitch
of the camera: yaw 0 looks along +y, positive yaw turns left; negative pitch looks down.
Pure numpy: nothing here imports Panda3D.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from tablesim.sim.model import vec3

__all__ = [
    "CAMERA_NAMES",
    "DEFAULT_FOV",
    "DEFAULT_PITCH",
    "DEFAULT_YAW",
    "FILL",
    "NEAR",
    "CameraView",
    "camera_for_scene",
    "frame_points",
    "parse_camera",
    "pixel_ray",
]

DEFAULT_FOV = 30.0
"""Vertical field of view (degrees) unless the camera spec gives ``fov``."""
DEFAULT_YAW = 35.0
"""Heading (degrees) of the automatic camera: Panda3D's H, 0 looks along +y, positive turns left."""
DEFAULT_PITCH = -27.0
"""Pitch (degrees) of the automatic camera: negative looks down."""
NEAR = 1e-3
"""Camera near plane (m): the default 1.0 would clip a centimetre-scale table."""
FILL = 0.62
"""Fraction of the picture's half-height/half-width the automatic camera fills with the scene."""

CAMERA_NAMES: dict[str, dict[str, float]] = {
    "auto": {},
    "front": {"yaw": 0.0, "pitch": -25.0},
    "back": {"yaw": 180.0, "pitch": -25.0},
    "left": {"yaw": -90.0, "pitch": -25.0},
    "right": {"yaw": 90.0, "pitch": -25.0},
    "top": {"yaw": 0.0, "pitch": -89.0},
    "player": {"yaw": 0.0, "pitch": -55.0},
    "low": {"yaw": 35.0, "pitch": -8.0},
}
"""Named cameras for ``--camera NAME``: headings and pitches of a camera that frames the whole
table automatically. ``auto`` is the scene's own camera if it has one, else a 3/4 view from
above-right; ``front`` looks from the near side (-y) along +y; ``top`` looks straight down
(89 degrees: straight down has no "up" direction); ``player`` is a seated player's view."""


@dataclass(frozen=True)
class CameraView:
    """Where the camera is: ``pos`` and ``look_at`` (m, world), vertical ``fov`` (degrees)."""

    pos: tuple[float, float, float]
    look_at: tuple[float, float, float]
    fov: float = DEFAULT_FOV

    @property
    def forward(self) -> np.ndarray:
        """Unit view direction, shape (3,)."""
        d = np.subtract(self.look_at, self.pos)
        return d / np.linalg.norm(d)

    def project(self, points: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        """Pixel coordinates (N, 2) (column, row; row 0 at the top) of world ``points`` (N, 3)
        in a picture of ``size`` (width, height), for the perspective the renderer uses
        (vertical field of view ``fov``, square pixels). Points behind the camera get NaN."""
        w, h = size
        pts = np.asarray(points, dtype=float).reshape(-1, 3)
        right, up = _basis(self.forward)
        rel = pts - np.asarray(self.pos, dtype=float)
        depth = rel @ self.forward
        ty = math.tan(math.radians(self.fov) / 2)
        tx = ty * w / h
        with np.errstate(divide="ignore", invalid="ignore"):
            x = (rel @ right) / (depth * tx)
            y = (rel @ up) / (depth * ty)
        out = np.stack([(x + 1) / 2 * w, (1 - y) / 2 * h], axis=1)
        out[depth <= 0] = np.nan
        return out


def _forward(yaw: float, pitch: float) -> np.ndarray:
    """View direction of a camera with Panda3D heading ``yaw`` and pitch ``pitch`` (degrees)."""
    h, p = math.radians(yaw), math.radians(pitch)
    return np.array([-math.sin(h) * math.cos(p), math.cos(h) * math.cos(p), math.sin(p)])


def _basis(forward: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(right, up) unit vectors of a camera looking along ``forward`` with z up."""
    right = np.cross(forward, [0.0, 0.0, 1.0])
    if np.linalg.norm(right) < 1e-9:  # looking straight up or down
        right = np.array([1.0, 0.0, 0.0])
    right /= np.linalg.norm(right)
    return right, np.cross(right, forward)


def frame_points(
    points: np.ndarray,
    aspect: float,
    *,
    yaw: float = DEFAULT_YAW,
    pitch: float = DEFAULT_PITCH,
    fov: float = DEFAULT_FOV,
    fill: float = FILL,
) -> CameraView:
    """A camera looking along (yaw, pitch) that frames ``points`` (N, 3), centred.

    The distance is the smallest at which every point lies within ``fill`` of the half-width and
    half-height of a picture of aspect ratio ``aspect`` (width / height); the look-at point is then
    shifted so the points' projection is centred. A few fixed-point iterations suffice.
    """
    pts = np.asarray(points, dtype=float).reshape(-1, 3)
    f = _forward(yaw, pitch)
    right, up = _basis(f)
    ty = math.tan(math.radians(fov) / 2) * fill
    tx = ty * aspect
    centre = (pts.min(axis=0) + pts.max(axis=0)) / 2
    dist = 1.0
    for _ in range(4):
        rel = pts - centre
        x, y, z = rel @ right, rel @ up, rel @ f
        dist = float(np.max(np.maximum(np.abs(x) / tx, np.abs(y) / ty) - z))
        dist = max(dist, 1e-3)
        depth = z + dist
        sx, sy = x / depth, y / depth
        mx = (sx.max() + sx.min()) / 2
        my = (sy.max() + sy.min()) / 2
        centre = centre + dist * (mx * right + my * up)
    pos = centre - dist * f
    return CameraView(vec3(pos), vec3(centre), fov)


def camera_for_scene(
    spec: Mapping[str, Any] | None, points: np.ndarray, aspect: float
) -> CameraView:
    """Resolve a camera spec (a scene's ``[camera]`` table or the ``camera=`` argument).

    Accepted keys (all optional; ``fov`` is the vertical field of view in degrees):

    - ``pos`` and ``look_at`` (m): used as given;
    - ``pos`` alone (m): the camera sits there and looks at the centre of ``points``;
    - ``target`` (m), ``distance`` (m), ``yaw``, ``pitch`` (degrees, Panda3D heading and pitch of
      the camera: yaw 0 looks along +y, positive turns left; negative pitch looks down): the
      camera sits ``distance`` from ``target`` looking at it (the shipped scenes use this form);
    - otherwise the camera frames ``points`` (N, 3) automatically (:func:`frame_points`) from
      ``yaw`` and ``pitch`` if given, else a 3/4 view from above, filling ``fill`` (default
      :data:`FILL`) of the picture.
    """
    spec = dict(spec or {})
    fov = float(spec.get("fov", DEFAULT_FOV))
    if "pos" in spec:
        pos = vec3(spec["pos"])  # the scene reader checked it is a 3-vector
        if "look_at" in spec:
            look = vec3(spec["look_at"])
        else:
            pts = np.asarray(points, dtype=float).reshape(-1, 3)
            look = vec3((pts.min(axis=0) + pts.max(axis=0)) / 2)
        return CameraView(pos, look, fov)
    yaw = float(spec.get("yaw", DEFAULT_YAW))
    pitch = float(spec.get("pitch", DEFAULT_PITCH))
    if "target" in spec and "distance" in spec:
        target = np.asarray(spec["target"], dtype=float)
        eye = target - float(spec["distance"]) * _forward(yaw, pitch)
        return CameraView(vec3(eye), vec3(target), fov)
    fill = float(spec.get("fill", FILL))
    return frame_points(points, aspect, yaw=yaw, pitch=pitch, fov=fov, fill=fill)


def parse_camera(text: str) -> dict[str, Any] | None:
    """A ``--camera`` argument as a camera spec: a name of :data:`CAMERA_NAMES` or ``x,y,z``.

    ``auto`` gives None (the scene's own camera, else the automatic 3/4 view); another name gives
    its yaw and pitch (the camera then frames the table); ``x,y,z`` (metres) places the camera
    there looking at the centre of the table's contents. Raises ValueError naming the allowed
    forms for anything else.
    """
    key = text.strip().lower()
    if key == "auto":
        return None
    if key in CAMERA_NAMES:
        return dict(CAMERA_NAMES[key])
    parts = [p.strip() for p in key.split(",")]
    if len(parts) == 3:
        try:
            xyz = [float(p) for p in parts]
        except ValueError:
            xyz = []
        if len(xyz) == 3 and all(math.isfinite(v) and abs(v) <= 100.0 for v in xyz):
            return {"pos": xyz}  # within 100 m, as a scene's [camera] (Panda3D asserts beyond)
    raise ValueError(
        f"camera {text[:200]!r}: expected a name ({', '.join(CAMERA_NAMES)}) or a position x,y,z in "
        "metres (each within 100 m), e.g. 0.3,-0.4,0.3"
    )


def pixel_ray(
    view: CameraView, size: tuple[int, int], x: float, y: float
) -> tuple[np.ndarray, np.ndarray]:
    """The world ray (origin, unit direction) through pixel (column ``x``, row ``y``; row 0 at
    the top) of a picture of ``size`` (width, height): the inverse of :meth:`CameraView.project`.
    """
    w, h = size
    f = view.forward
    right, up = _basis(f)
    ty = math.tan(math.radians(view.fov) / 2)
    tx = ty * w / h
    d = f + (2 * x / w - 1) * tx * right + (1 - 2 * y / h) * ty * up
    return np.asarray(view.pos, dtype=float), d / np.linalg.norm(d)
