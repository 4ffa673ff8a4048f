"""Geometry for the renderer: flat-shaded vertex rows, the key light, and faked soft shadows.

p3tinydisplay has no shaders and no shadow maps, so the tiny backend fakes shadows: the
casters' triangles are projected along the key light onto each receiving plane (the table, the
level tops of boards), rasterised with Pillow, blurred, and laid on the plane as a translucent
decal. The gl backend casts real shadows instead. Nothing here imports Panda3D.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from tablesim.sim.view.camera import CameraView

__all__ = [
    "KEY_AZIMUTH",
    "KEY_ELEVATION",
    "face_rows",
    "grid_mask",
    "light_direction",
    "shadow_mask",
]

KEY_AZIMUTH = 50.0
"""The key light comes from this far left of the view direction (degrees)."""
KEY_ELEVATION = 52.0
"""Elevation of the key light above the horizon (degrees)."""
SHADOW_ALPHA = 0.42
"""Darkness of a full faked shadow (0-1)."""
SHADOW_BLUR = 1.6e-3
"""Gaussian radius (m) of the faked shadows' soft edge."""
SHADOW_TEXEL = 0.25e-3
"""Metres per texel of the shadow decals (coarser when the area is large)."""
SHADOW_MAX_TEXELS = 1024

_AXES = {"+x": (0, 1), "-x": (0, -1), "+y": (1, 1), "-y": (1, -1), "+z": (2, 1), "-z": (2, -1)}


def light_direction(view: CameraView) -> np.ndarray:
    """Unit direction (3,) the key light travels: from above, over the camera's left shoulder,
    so the faces the camera sees are lit and shadows fall back and to the right."""
    f = view.forward
    heading = math.atan2(-f[0], f[1])  # Panda3D heading of the view, radians
    az = heading - math.radians(KEY_AZIMUTH)
    el = math.radians(KEY_ELEVATION)
    d = np.array([-math.sin(az) * math.cos(el), math.cos(az) * math.cos(el), -math.sin(el)])
    return d / np.linalg.norm(d)


def _normals(tri: np.ndarray) -> np.ndarray:
    n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    norm = np.linalg.norm(n, axis=1, keepdims=True)
    return n / np.where(norm > 0, norm, 1.0)


def face_rows(
    vertices: np.ndarray,
    faces: np.ndarray,
    *,
    finish: str,
    edge: float = 0.0,
    printed: Sequence[str] = (),
) -> dict[str, np.ndarray]:
    """Un-indexed vertex rows (3F, 8) float32 (position, face normal, uv) of a mesh, grouped.

    Key ``""`` holds the undecorated triangles with uv for ``finish``: ``groove`` gives uv in
    [0, 1]^2 over each unit cell face of cube ``edge`` (m) so a groove texture outlines the cubes;
    ``wood`` gives uv = position / 0.3 m along the face's two axes; ``plain`` gives zeros. Each key
    of ``printed`` (``+z``, ``-x``, ...) holds the triangles facing that way, with uv spanning the
    mesh's bounding box on that side (see :class:`tablesim.sim.view.layout.Item`).
    """
    v = np.asarray(vertices, dtype=float)
    tri = v[np.asarray(faces)]  # (F, 3, 3)
    n = _normals(tri)
    axis = np.argmax(np.abs(n), axis=1)
    lo, hi = v.min(axis=0), v.max(axis=0)
    span = np.where(hi - lo > 0, hi - lo, 1.0)
    groups: dict[str, np.ndarray] = {}
    taken = np.zeros(len(tri), dtype=bool)
    for key in printed:
        ax, sign = _AXES[key]
        sel = (axis == ax) & (np.sign(n[:, ax]) == sign) & (np.abs(n[:, ax]) > 0.999)
        if not sel.any():
            continue
        taken |= sel
        t = (tri[sel] - lo) / span  # (k, 3, 3) in [0, 1]
        u_ax, v_ax, flip_u, flip_v = {
            "+z": (0, 1, False, False),
            "-z": (0, 1, False, True),
            "+x": (1, 2, False, False),
            "-x": (1, 2, True, False),
            "+y": (0, 2, True, False),
            "-y": (0, 2, False, False),
        }[key]
        uu = 1 - t[..., u_ax] if flip_u else t[..., u_ax]
        vv = 1 - t[..., v_ax] if flip_v else t[..., v_ax]
        groups[key] = _rows(tri[sel], n[sel], np.stack([uu, vv], axis=-1))
    rest = ~taken
    tri_r, n_r, ax_r = tri[rest], n[rest], axis[rest]
    if finish == "plain" or len(tri_r) == 0:
        uv = np.zeros(tri_r.shape[:2] + (2,))
    else:
        u_ax, v_ax = (ax_r + 1) % 3, (ax_r + 2) % 3
        idx = np.arange(len(tri_r))[:, None]
        corner = np.arange(3)[None, :]
        uv = np.stack(
            [tri_r[idx, corner, u_ax[:, None]], tri_r[idx, corner, v_ax[:, None]]], axis=-1
        )
        if finish == "groove" and edge > 0:
            uv = uv / edge
            uv = uv - np.floor(uv.min(axis=1, keepdims=True) + 1e-6)
        else:
            uv = uv / 0.3
    if len(tri_r):
        groups[""] = _rows(tri_r, n_r, uv)
    return groups


def _rows(tri: np.ndarray, n: np.ndarray, uv: np.ndarray) -> np.ndarray:
    rows = np.concatenate([tri, np.repeat(n[:, None, :], 3, axis=1), uv], axis=-1)
    return rows.reshape(-1, 8).astype(np.float32)


def shadow_mask(
    triangles: np.ndarray,
    light: np.ndarray,
    z: float,
    lo: np.ndarray,
    hi: np.ndarray,
    coarse: int = 1,
) -> tuple[np.ndarray, float] | None:
    """Soft shadow of ``triangles`` (T, 3, 3) cast along ``light`` onto the plane at height ``z``.

    The plane area is the rectangle ``lo``..``hi`` (x, y); ``coarse`` multiplies the texel
    size (and divides the map's side) -- cheaper for pictures in motion. Returns (alpha (H, W) uint8 with row 0
    at ``lo[1]``, i.e. Panda3D's bottom-up texture order, texel size m), or None when nothing
    falls there. Only triangles wholly above the plane cast.
    """
    triangles = triangles[(triangles[..., 2] >= z - 1e-6).all(axis=1)]
    if len(triangles) == 0:
        return None
    size = hi - lo
    # p3tinydisplay only takes power-of-two textures: pick the sizes, then square texels
    step, most = SHADOW_TEXEL * coarse, max(2, SHADOW_MAX_TEXELS // coarse)
    w, h = (min(most, 1 << max(1, math.ceil(math.log2(max(s / step, 2))))) for s in size)
    texel = max(float(size[0]) / w, float(size[1]) / h)
    alpha = grid_mask(triangles, light, z, lo, texel, (w, h))
    if alpha is None:
        return None
    # the power-of-two map may reach past the surface: nothing is drawn there
    alpha[int(math.ceil(size[1] / texel)) :, :] = 0
    alpha[:, int(math.ceil(size[0] / texel)) :] = 0
    if alpha.max() < 1:
        return None
    return alpha, texel


def grid_mask(
    triangles: np.ndarray,
    light: np.ndarray,
    z: float,
    lo: np.ndarray,
    texel: float,
    shape: tuple[int, int],
) -> np.ndarray | None:
    """The soft shadow of ``triangles`` (T, 3, 3) on a given texel grid of the plane at height
    ``z``: texel (i, j) spans ``lo + (i, j) * texel`` (x, y) to one texel more; ``shape`` is
    (width, height) in texels. Returns alpha (height, width) uint8, row 0 at ``lo[1]``
    (the renderer's decals and the moving items' shadow layers share grids this way), or None
    when no triangle falls on the grid. Only triangles wholly above the plane cast."""
    from PIL import Image, ImageDraw, ImageFilter

    w, h = shape
    triangles = triangles[(triangles[..., 2] >= z - 1e-6).all(axis=1)]
    if len(triangles) == 0:
        return None
    t = (triangles[..., 2] - z) / -light[2]  # (T, 3) distance along the light to the plane
    flat = triangles[..., :2] + t[..., None] * light[:2]
    pix = (flat - lo) / texel
    # drop triangles seen edge-on by the light (they add nothing) and those outside the area
    e1, e2 = pix[:, 1] - pix[:, 0], pix[:, 2] - pix[:, 0]
    area = np.abs(e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0])
    inside = (pix.max(axis=1) >= 0).all(axis=1) & (pix.min(axis=1) <= (w, h)).all(axis=1)
    pix = pix[(area > 1e-3) & inside]
    if len(pix) == 0:
        return None
    img = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(img)
    for tri in pix.tolist():
        draw.polygon([tuple(p) for p in tri], fill=255)
    radius = SHADOW_BLUR / texel
    # blur only the box the shadows lie in, with a margin of zeros wider than the blur's
    # reach: Pillow's Gaussian is three integer box passes of radius <= radius + 1 each,
    # whose sums over zeros are zeros, so the box is blurred bit for bit as in the whole map
    # (the map is mostly empty: a Kozo table's 1024 x 1024 blur took 13 ms, its box 5 ms)
    reach = 3 * (math.ceil(radius) + 1) + 2
    first, last = pix.reshape(-1, 2).min(axis=0), pix.reshape(-1, 2).max(axis=0)
    x0, y0 = (max(0, math.floor(v) - 1 - reach) for v in first)
    x1, y1 = min(w, math.ceil(last[0]) + 2 + reach), min(h, math.ceil(last[1]) + 2 + reach)
    alpha = np.zeros((h, w), dtype=np.uint8)
    if x1 <= x0 or y1 <= y0:
        return alpha
    box = img.crop((x0, y0, x1, y1)).filter(ImageFilter.GaussianBlur(radius))
    alpha[y0:y1, x0:x1] = (np.asarray(box, dtype=np.float32) * SHADOW_ALPHA).astype(np.uint8)
    return alpha
