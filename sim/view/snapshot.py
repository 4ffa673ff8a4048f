"""A still picture of a scene, rendered offscreen with Panda3D (no display needed).

:func:`render_scene` draws a :class:`sim.model.Scene` on a wooden table and writes a PNG::

    from sim.scene import load_scene, shipped_scene_path
    from sim.view.snapshot import render_scene, simulated_poses

    scene = load_scene(shipped_scene_path("kozo-overhang"))
    render_scene(scene, "overhang.png", poses=simulated_poses(scene, 1.0))

or from the shell: ``python -m sim.view.snapshot kozo-overhang overhang.png --seconds 1``.

Rendering uses Panda3D's software rasteriser ``p3tinydisplay`` into an offscreen buffer, so it runs
without X, EGL or a GPU (``../shared/research/measurements.md`` section 3). That renderer has
no shaders and no shadow maps, so the look is built from what fixed-function lighting can do:

- every piece is its own ``GeomNode`` built from its trimesh mesh with one normal per face (flat
  shading); polycube faces carry a faint groove texture so the single cubes of a piece show;
- an ambient, a key and a fill light; a wooden table (a large flat box with a procedural plank
  texture) and a sky gradient behind it;
- soft shadows are faked: the pieces' triangles are projected along the key light onto the
  table (and onto the top of level static blocks such as the Kozo board), rasterised with Pillow,
  blurred, and laid on the surface as a translucent decal drawn right after it;
- the frame is rendered at ``supersample`` times the size and downscaled (box filter) for smooth
  edges, since multisampling has no effect on screenshots (pitfall P14).

ShowBase is not used: each call makes its own pipe (``GraphicsPipeSelection.make_module_pipe``,
so no ``load-display`` setting is changed), its own ``GraphicsEngine`` and offscreen buffer,
renders one frame, copies it to RAM, shrinks the buffer to 1x1 (p3tinydisplay leaks a closed
buffer's frame buffer, but frees it on resize) and removes it. Nothing global is left behind
(no ``builtins.base``, no task manager, no PRC changes), so the function can be called any number
of times in one process, and alongside code that does use ShowBase. The only process-wide effect
is loading the ``p3tinydisplay`` module once.

Conventions: metres, z up, the table top is z = 0. Piece poses use the scene model's quaternion
order (x, y, z, w); Panda3D's ``LQuaternion`` is (w, x, y, z).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sim.model import Scene, ScenePiece, quat_to_matrix

if TYPE_CHECKING:  # pragma: no cover
    import trimesh

__all__ = [
    "SKY_BOTTOM",
    "SKY_TOP",
    "TABLE_COLOR",
    "CameraView",
    "camera_for_scene",
    "frame_points",
    "render_scene",
    "scene_points",
    "simulated_poses",
]

SKY_TOP: tuple[int, int, int] = (150, 190, 230)
"""Background colour (sRGB 0-255) at the top edge of the picture."""
SKY_BOTTOM: tuple[int, int, int] = (226, 236, 244)
"""Background colour at the bottom edge (the gradient runs top to bottom behind the table)."""
TABLE_COLOR: tuple[int, int, int] = (182, 132, 90)
"""Mean colour of the wooden table top before lighting."""
GRAIN_MEAN = 0.88
"""Mean of the wood grain texture (< 1 leaves room for the light streaks); colours of wooden
surfaces are divided by it so the texture keeps their mean."""

DEFAULT_FOV = 30.0
"""Vertical field of view (degrees) unless the camera spec gives ``fov``."""
DEFAULT_YAW = 35.0
"""Heading (degrees) of the automatic camera: Panda3D's H, 0 looks along +y, positive turns left."""
DEFAULT_PITCH = -27.0
"""Pitch (degrees) of the automatic camera: negative looks down."""
NEAR = 1e-3
"""Camera near plane (m): the default 1.0 would clip a centimetre-scale table (pitfall P10)."""
FILL = 0.62
"""Fraction of the picture's half-height/half-width the automatic camera fills with the scene."""

_KEY_AZIMUTH = 50.0  # the key light comes from this far left of the view direction (degrees)
_KEY_ELEVATION = 52.0  # degrees above the horizon
_SHADOW_ALPHA = 0.42
_SHADOW_BLUR = 1.6e-3  # m, Gaussian radius of the fake shadows
_SHADOW_TEXEL = 0.25e-3  # m per texel of the shadow decals (coarser if the area is large)
_SHADOW_MAX_TEXELS = 1024


# ---------------------------------------------------------------------------------------
# Camera
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class CameraView:
    """Where the camera is: ``pos`` and ``look_at`` (m, world), vertical ``fov`` (degrees)."""

    pos: tuple[float, float, float]
    look_at: tuple[float, float, float]
    fov: float = DEFAULT_FOV

    @property
    def forward(self) -> np.ndarray:
        """Unit view direction."""
        d = np.subtract(self.look_at, self.pos)
        return d / np.linalg.norm(d)


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
    return CameraView(tuple(pos.tolist()), tuple(centre.tolist()), fov)  # type: ignore[arg-type]


def camera_for_scene(
    spec: Mapping[str, Any] | None, points: np.ndarray, aspect: float
) -> CameraView:
    """Resolve a camera spec (a scene's ``[camera]`` table or the ``camera=`` argument).

    Accepted keys (all optional; ``fov`` is the vertical field of view in degrees):

    - ``pos`` and ``look_at`` (m): used as given;
    - ``target`` (m), ``distance`` (m), ``yaw``, ``pitch`` (degrees, Panda3D heading and pitch of
      the camera: yaw 0 looks along +y, positive turns left; negative pitch looks down): the
      camera sits ``distance`` from ``target`` looking at it (the shipped scenes use this form);
    - otherwise the camera frames ``points`` automatically (:func:`frame_points`) from ``yaw``
      and ``pitch`` if given, else a 3/4 view from above.
    """
    spec = dict(spec or {})
    fov = float(spec.get("fov", DEFAULT_FOV))
    if "pos" in spec and "look_at" in spec:
        pos = tuple(float(v) for v in spec["pos"])
        look = tuple(float(v) for v in spec["look_at"])
        return CameraView(pos, look, fov)  # type: ignore[arg-type]
    yaw = float(spec.get("yaw", DEFAULT_YAW))
    pitch = float(spec.get("pitch", DEFAULT_PITCH))
    if "target" in spec and "distance" in spec:
        target = np.asarray(spec["target"], dtype=float)
        pos = target - float(spec["distance"]) * _forward(yaw, pitch)
        return CameraView(tuple(pos.tolist()), tuple(target.tolist()), fov)  # type: ignore[arg-type]
    return frame_points(points, aspect, yaw=yaw, pitch=pitch, fov=fov)


# ---------------------------------------------------------------------------------------
# Geometry (numpy / trimesh only)
# ---------------------------------------------------------------------------------------
@dataclass
class _Part:
    """One piece ready to draw: its mesh in the piece frame and its pose."""

    piece: ScenePiece
    mesh: trimesh.Trimesh
    edge: float  # cube edge (m) for polycube pieces, 0 for plain boxes
    position: np.ndarray
    quat: np.ndarray  # x, y, z, w

    def world_vertices(self) -> np.ndarray:
        """The mesh vertices posed in the world, (V, 3)."""
        return self.position + np.asarray(self.mesh.vertices) @ quat_to_matrix(self.quat).T


def _piece_mesh(piece: ScenePiece, scene: Scene) -> tuple[trimesh.Trimesh, float]:
    """The piece-frame mesh of a piece and its cube edge (0 for a plain box)."""
    import trimesh

    from meshes.polycube import polycube_mesh

    if piece.box is not None:
        size = np.asarray(piece.box, dtype=float)
        box = trimesh.creation.box(extents=size)
        box.apply_translation(size / 2)
        return box, 0.0
    edge = piece.edge(scene.physics)
    return polycube_mesh(piece.cells, edge), edge


def _parts(scene: Scene, poses: Mapping[str, Any] | None) -> list[_Part]:
    """Meshes and poses of all pieces; ``poses`` (id -> (position, quaternion xyzw)) wins.

    Raises KeyError for a pose whose id is not a piece of the scene (a typo would otherwise
    silently draw the scene as built).
    """
    poses = poses or {}
    unknown = sorted(set(poses) - {p.id for p in scene.pieces})
    if unknown:
        raise KeyError(f"poses for pieces not in scene {scene.name!r}: {', '.join(unknown)}")
    out = []
    for piece in scene.pieces:
        mesh, edge = _piece_mesh(piece, scene)
        pos, quat = poses.get(piece.id, (piece.position, piece.orientation))
        q = np.asarray(quat, dtype=float)
        out.append(_Part(piece, mesh, edge, np.asarray(pos, dtype=float), q / np.linalg.norm(q)))
    return out


def scene_points(scene: Scene, poses: Mapping[str, Any] | None = None) -> np.ndarray:
    """All mesh vertices of the scene's pieces posed in the world, (N, 3) m."""
    return _points(_parts(scene, poses))


def _points(parts: list[_Part]) -> np.ndarray:
    """Posed vertices of ``parts``; for no parts, the corners of a 10 cm box on the table."""
    if not parts:
        return np.array([[-0.05, -0.05, 0.0], [0.05, 0.05, 0.1]])
    return np.concatenate([p.world_vertices() for p in parts])


def _flat_vertex_rows(mesh: trimesh.Trimesh, edge: float) -> np.ndarray:
    """Un-indexed vertex rows (3F, 8) float32: position, face normal, texture uv.

    Polycube faces (``edge`` > 0) get uv in [0, 1]^2 over each unit cell face (each pair of
    triangles from ``polycube_mesh`` is one cell face), so a groove texture outlines the cubes;
    plain boxes get uv = position / 0.3 m along the face's two axes (wood grain scale).
    """
    v = np.asarray(mesh.vertices, dtype=float)
    tri = v[np.asarray(mesh.faces)]  # (F, 3, 3)
    n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    axis = np.argmax(np.abs(n), axis=1)
    u_ax, v_ax = (axis + 1) % 3, (axis + 2) % 3
    f_idx = np.arange(len(tri))[:, None]
    uv = np.stack(
        [
            tri[f_idx, np.arange(3)[None, :], u_ax[:, None]],
            tri[f_idx, np.arange(3)[None, :], v_ax[:, None]],
        ],
        axis=-1,
    )  # (F, 3, 2)
    if edge > 0:
        uv = uv / edge
        uv = uv - np.floor(uv.min(axis=1, keepdims=True) + 1e-6)
    else:
        uv = uv / 0.3
    rows = np.concatenate([tri, np.repeat(n[:, None, :], 3, axis=1), uv], axis=-1)
    return rows.reshape(-1, 8).astype(np.float32)


def _box_rows(lo: Sequence[float], hi: Sequence[float], uv_scale: float) -> np.ndarray:
    """Vertex rows of an axis-aligned box from corner ``lo`` to ``hi`` (uv = position / scale)."""
    import trimesh

    lo_, hi_ = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    box = trimesh.creation.box(extents=hi_ - lo_)
    box.apply_translation((lo_ + hi_) / 2)
    rows = _flat_vertex_rows(box, 0.0)
    rows[:, 6:8] *= 0.3 / uv_scale
    return rows


def _light_direction(view: CameraView) -> np.ndarray:
    """Unit direction the key light travels: it comes from above, over the camera's left
    shoulder, so the faces the camera sees are lit and shadows fall back and to the right."""
    f = view.forward
    heading = math.atan2(-f[0], f[1])  # Panda3D heading of the view, radians
    az = heading - math.radians(_KEY_AZIMUTH)  # travels to the right of the view direction
    el = math.radians(_KEY_ELEVATION)
    d = np.array([-math.sin(az) * math.cos(el), math.cos(az) * math.cos(el), -math.sin(el)])
    return d / np.linalg.norm(d)


def _shadow_mask(
    triangles: np.ndarray, light: np.ndarray, z: float, lo: np.ndarray, hi: np.ndarray
) -> tuple[np.ndarray, float] | None:
    """Soft shadow of ``triangles`` (T, 3, 3) cast along ``light`` onto the plane at height ``z``.

    The plane area is the rectangle ``lo``..``hi`` (x, y). Returns (alpha (H, W) uint8 with row 0
    at ``lo[1]``, i.e. Panda3D's bottom-up texture order, texel size m), or None when nothing
    falls there.
    """
    from PIL import Image, ImageDraw, ImageFilter

    if len(triangles) == 0:
        return None
    size = hi - lo
    # p3tinydisplay only takes power-of-two textures: pick the sizes, then square texels
    w, h = (
        min(_SHADOW_MAX_TEXELS, 1 << max(1, math.ceil(math.log2(max(s / _SHADOW_TEXEL, 2)))))
        for s in size
    )
    texel = max(float(size[0]) / w, float(size[1]) / h)
    t = (triangles[..., 2] - z) / -light[2]  # (T, 3) distance along the light to the plane
    flat = triangles[..., :2] + t[..., None] * light[:2]
    pix = (flat - lo) / texel
    img = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(img)
    for tri in pix:
        draw.polygon([tuple(p) for p in tri], fill=255)
    img = img.filter(ImageFilter.GaussianBlur(_SHADOW_BLUR / texel))
    alpha = np.asarray(img, dtype=np.float32) * _SHADOW_ALPHA
    # the power-of-two map may reach past the surface: nothing is drawn there
    alpha[int(math.ceil(size[1] / texel)) :, :] = 0
    alpha[:, int(math.ceil(size[0] / texel)) :] = 0
    if alpha.max() < 1:
        return None
    return alpha.astype(np.uint8), texel


# ---------------------------------------------------------------------------------------
# Procedural textures (numpy), rows bottom-up as Panda3D stores them
# ---------------------------------------------------------------------------------------
def _smooth_noise(rng: np.random.Generator, n: int, width: float) -> np.ndarray:
    """Periodic 1-D noise of length ``n``, zero mean, unit standard deviation, blurred by
    a Gaussian of ``width`` samples (circular convolution, so it tiles)."""
    raw = rng.standard_normal(n)
    k = np.fft.rfftfreq(n)
    out = np.fft.irfft(np.fft.rfft(raw) * np.exp(-0.5 * (2 * np.pi * k * width) ** 2), n)
    return out / out.std()


def _grain_texture(size: int = 512, planks: int = 5, seed: int = 7) -> np.ndarray:
    """A tileable plank grain (size, size, 3) uint8 around :data:`GRAIN_MEAN` (grain along u).

    Multiplied with a wood colour (the table, plain blocks): irregular streaks across each plank
    that wander slowly along it, a slight tone difference per plank and a dark joint between
    planks. Row 0 is v = 0.
    """
    rng = np.random.default_rng(seed)
    uu, vv = np.meshgrid(np.arange(size) / size, np.arange(size) / size)
    plank = np.minimum((vv * planks).astype(int), planks - 1)
    n = 4096
    streaks = _smooth_noise(rng, n, 12.0) + 0.6 * _smooth_noise(rng, n, 36.0)
    warp = np.zeros(size)
    for k in range(1, 4):  # integer frequencies along u: the texture tiles
        warp += rng.uniform(5, 25) / k * np.sin(2 * np.pi * (k * uu[0] + rng.uniform()))
    offsets = rng.integers(0, n, planks)[plank]
    idx = (vv * n * 0.5 + warp[None, :] + offsets).astype(int) % n
    shade = 1 + 0.035 * streaks[idx] + rng.uniform(-0.05, 0.05, planks)[plank]
    gap = np.abs(vv * planks - np.round(vv * planks)) * size / planks  # texels to a joint
    shade *= 1 - 0.3 * np.exp(-((gap / 1.0) ** 2))
    val = np.clip(GRAIN_MEAN * shade, 0, 1) * 255
    return np.repeat(val.astype(np.uint8)[..., None], 3, axis=2)


def _groove_texture(size: int = 64) -> np.ndarray:
    """Light-grey (size, size, 3) uint8 cell face: white centre, soft dark seam at the border."""
    t = (np.arange(size) + 0.5) / size
    d = np.minimum(t, 1 - t)
    dist = np.minimum(d[:, None], d[None, :])
    val = 1 - 0.28 * np.exp(-((dist / 0.025) ** 2)) - 0.05 * np.exp(-((dist / 0.1) ** 2))
    return np.repeat((np.clip(val, 0, 1) * 255).astype(np.uint8)[..., None], 3, axis=2)


def _wood_color(rgb: Sequence[float]) -> tuple[float, float, float]:
    """Node colour for a grain-textured surface of mean colour ``rgb`` (0-1, or 0-255 ints)."""
    scale = 255.0 if max(rgb) > 1 else 1.0
    return tuple(min(1.0, c / scale / GRAIN_MEAN) for c in rgb)  # type: ignore[return-value]


def _hex_rgb(color: str) -> tuple[float, float, float]:
    """``#rgb`` or ``#rrggbb`` as floats in [0, 1]."""
    text = color.lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    return tuple(int(text[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


# ---------------------------------------------------------------------------------------
# Panda3D
# ---------------------------------------------------------------------------------------
def _geom_node(name: str, rows: np.ndarray) -> Any:
    """A ``GeomNode`` of un-indexed triangles from vertex rows (3F, 8) (position, normal, uv)."""
    from panda3d.core import Geom, GeomNode, GeomTriangles, GeomVertexData, GeomVertexFormat

    vdata = GeomVertexData(name, GeomVertexFormat.get_v3n3t2(), Geom.UH_static)
    vdata.unclean_set_num_rows(len(rows))
    memoryview(vdata.modify_array(0)).cast("B")[:] = np.ascontiguousarray(rows).tobytes()
    prim = GeomTriangles(Geom.UH_static)
    prim.set_nonindexed_vertices(0, len(rows))
    geom = Geom(vdata)
    geom.add_primitive(prim)
    node = GeomNode(name)
    node.add_geom(geom)
    return node


def _texture(name: str, pixels: np.ndarray, *, repeat: bool, fmt: str = "RGB") -> Any:
    """A Panda3D texture from an (H, W, C) uint8 array whose row 0 is the bottom (v = 0)."""
    from panda3d.core import SamplerState, Texture

    h, w = pixels.shape[:2]
    tex = Texture(name)
    formats = {"RGB": Texture.F_rgb, "RGBA": Texture.F_rgba}
    tex.setup_2d_texture(w, h, Texture.T_unsigned_byte, formats[fmt])
    tex.set_ram_image_as(np.ascontiguousarray(pixels).tobytes(), fmt)
    wrap = SamplerState.WM_repeat if repeat else SamplerState.WM_clamp
    tex.set_wrap_u(wrap)
    tex.set_wrap_v(wrap)
    tex.set_minfilter(SamplerState.FT_linear_mipmap_linear)
    tex.set_magfilter(SamplerState.FT_linear)
    return tex


def _decal(name: str, alpha: np.ndarray, texel: float, lo: np.ndarray, z: float) -> Any:
    """A translucent black quad at height ``z`` from ``lo`` carrying a shadow ``alpha`` map."""
    from panda3d.core import NodePath, TransparencyAttrib

    h, w = alpha.shape
    rgba = np.zeros((h, w, 4), dtype=np.uint8)
    rgba[..., 3] = alpha
    x0, y0 = lo
    x1, y1 = x0 + w * texel, y0 + h * texel
    quad = np.array(
        [
            [x0, y0, z, 0, 0, 1, 0, 0],
            [x1, y0, z, 0, 0, 1, 1, 0],
            [x1, y1, z, 0, 0, 1, 1, 1],
            [x0, y0, z, 0, 0, 1, 0, 0],
            [x1, y1, z, 0, 0, 1, 1, 1],
            [x0, y1, z, 0, 0, 1, 0, 1],
        ],
        dtype=np.float32,
    )
    np_ = NodePath(_geom_node(name, quad))
    np_.set_texture(_texture(name, rgba, repeat=False, fmt="RGBA"))
    np_.set_transparency(TransparencyAttrib.M_alpha)
    np_.set_color(0, 0, 0, 1)
    np_.set_light_off()
    np_.set_depth_test(False)
    np_.set_depth_write(False)
    return np_


def _sky() -> Any:
    """A full-frame quad with the sky gradient, for a 2-D display region behind the scene."""
    from panda3d.core import (
        Geom,
        GeomNode,
        GeomTriangles,
        GeomVertexData,
        GeomVertexFormat,
        GeomVertexWriter,
        NodePath,
    )

    vdata = GeomVertexData("sky", GeomVertexFormat.get_v3c4(), Geom.UH_static)
    vw, cw = GeomVertexWriter(vdata, "vertex"), GeomVertexWriter(vdata, "color")
    top = [c / 255 for c in SKY_TOP] + [1.0]
    bottom = [c / 255 for c in SKY_BOTTOM] + [1.0]
    for x, y, c in ((-1, -1, bottom), (1, -1, bottom), (1, 1, top), (-1, 1, top)):
        vw.add_data3(x, 0, y)
        cw.add_data4(*c)
    prim = GeomTriangles(Geom.UH_static)
    prim.add_vertices(0, 1, 2)
    prim.add_vertices(0, 2, 3)
    geom = Geom(vdata)
    geom.add_primitive(prim)
    node = GeomNode("sky")
    node.add_geom(geom)
    root = NodePath("sky-root")
    root.attach_new_node(node)
    root.set_depth_test(False)
    root.set_depth_write(False)
    root.set_light_off()
    return root


def _material(rgb: Sequence[float]) -> Any:
    """A Panda3D material of ambient and diffuse colour ``rgb`` (0-1).

    Surface colours go through a material, not ``set_color``: p3tinydisplay applies a node's
    flat colour (or colour scale) twice when lighting is on, so 0.5 grey comes out 0.25.
    """
    from panda3d.core import Material

    mat = Material()
    mat.set_ambient((*rgb, 1))
    mat.set_diffuse((*rgb, 1))
    return mat


@dataclass
class _Built:
    """The scene graph and the numbers the renderer needs from it."""

    root: Any
    far: float


def _build_graph(parts: list[_Part], view: CameraView) -> _Built:
    """Table, decals, pieces and lights under one root ``NodePath``."""
    from panda3d.core import AmbientLight, DirectionalLight, LQuaternionf, LVector3f, NodePath

    root = NodePath("snapshot")
    light = _light_direction(view)

    pts = _points(parts)
    lo_s, hi_s = pts.min(axis=0), pts.max(axis=0)
    radius = float(np.linalg.norm(hi_s[:2] - lo_s[:2])) / 2
    height = max(float(hi_s[2]), 0.0)
    half_table = max(4 * radius, 2.5 * height, 0.05)
    cxy = (lo_s[:2] + hi_s[:2]) / 2
    thickness = max(0.02, half_table * 0.06)

    wood = _texture("wood", _grain_texture(), repeat=True)
    groove = _texture("groove", _groove_texture(), repeat=False)

    # Fixed draw order in the "background" bin: table, its shadow, level static blocks and
    # their shadows; everything else (the pieces) is drawn after with the depth test.
    order = 0
    table = root.attach_new_node(
        _geom_node(
            "table",
            _box_rows(
                [cxy[0] - half_table, cxy[1] - half_table, -thickness],
                [cxy[0] + half_table, cxy[1] + half_table, 0.0],
                uv_scale=0.45,
            ),
        )
    )
    table.set_bin("background", order)
    table.set_texture(wood)
    table.set_material(_material(_wood_color(TABLE_COLOR)))

    all_tris = [p.world_vertices()[np.asarray(p.mesh.faces)] for p in parts]

    def add_shadow(name: str, z: float, lo: np.ndarray, hi: np.ndarray, skip: int) -> None:
        nonlocal order
        tris = [t for i, t in enumerate(all_tris) if i != skip]
        tris_all = np.concatenate(tris) if tris else np.zeros((0, 3, 3))
        above = tris_all[(tris_all[..., 2] >= z - 1e-6).all(axis=1)]
        made = _shadow_mask(above, light, z, lo, hi)
        if made is None:
            return
        order += 1
        decal = _decal(name, made[0], made[1], lo, z)
        decal.reparent_to(root)
        decal.set_bin("background", order)

    # table shadow: the pieces' footprint and where their shadows reach, plus the blur
    shift = height * light[:2] / -light[2]
    margin = 4 * _SHADOW_BLUR
    lo_t = np.minimum(lo_s[:2], lo_s[:2] + shift) - margin
    hi_t = np.maximum(hi_s[:2], hi_s[:2] + shift) + margin
    add_shadow("shadow-table", 0.0, lo_t, hi_t, skip=-1)

    for i, part in enumerate(parts):
        piece = part.piece
        level = piece.box is not None and abs(abs(part.quat[3]) - 1) < 1e-9
        node = root.attach_new_node(_geom_node(piece.id, _flat_vertex_rows(part.mesh, part.edge)))
        x, y, z, w = (float(c) for c in part.quat)
        node.set_pos(*(float(c) for c in part.position))
        node.set_quat(LQuaternionf(w, x, y, z))
        if piece.box is None:
            node.set_material(_material(_hex_rgb(piece.color)))
            node.set_texture(groove)
        else:
            node.set_material(_material(_wood_color(_hex_rgb(piece.color))))
            node.set_texture(wood)
        if level and piece.static:
            order += 1
            node.set_bin("background", order)
            top = float(part.position[2] + piece.box[2])  # type: ignore[index]
            lo_b = part.position[:2]
            hi_b = lo_b + np.asarray(piece.box[:2])  # type: ignore[index]
            add_shadow(f"shadow-{piece.id}", top, lo_b, hi_b, skip=i)

    ambient = AmbientLight("ambient")
    ambient.set_color((0.40, 0.40, 0.43, 1))
    key = DirectionalLight("key")
    key.set_color((0.72, 0.70, 0.65, 1))
    key.set_direction(LVector3f(*light))
    fill = DirectionalLight("fill")
    fill.set_color((0.24, 0.25, 0.28, 1))
    fill_dir = -light * np.array([1.0, 1.0, 0.0])  # horizontal: lights the shaded sides only
    fill.set_direction(LVector3f(*(fill_dir / np.linalg.norm(fill_dir))))
    for light_node in (ambient, key, fill):
        root.set_light(root.attach_new_node(light_node))

    cam_dist = float(np.linalg.norm(np.subtract(view.pos, view.look_at)))
    far = cam_dist + 4 * half_table + float(np.linalg.norm(view.pos)) + 1.0
    return _Built(root, far)


def _open_pipe() -> Any:
    """The p3tinydisplay pipe, with its harmless "could not open X display" message muted."""
    from panda3d.core import GraphicsPipeSelection, Notify, NS_fatal

    cats = [Notify.ptr().get_category(":display:x11display")]
    old = [c.get_severity() for c in cats]
    try:
        for c in cats:
            c.set_severity(NS_fatal)
        pipe = GraphicsPipeSelection.get_global_ptr().make_module_pipe("p3tinydisplay")
    finally:
        for c, s in zip(cats, old, strict=True):
            c.set_severity(s)
    if pipe is None:
        raise RuntimeError("Panda3D could not load the p3tinydisplay software renderer")
    return pipe


def _render_pixels(built: _Built, view: CameraView, size: tuple[int, int]) -> np.ndarray:
    """Render one frame offscreen; (H, W, 3) uint8, row 0 at the top."""
    from panda3d.core import (
        Camera,
        FrameBufferProperties,
        GraphicsEngine,
        GraphicsPipe,
        OrthographicLens,
        PerspectiveLens,
        WindowProperties,
    )

    w, h = size
    pipe = _open_pipe()
    engine = GraphicsEngine(pipe)
    fb = FrameBufferProperties()
    fb.set_rgb_color(True)
    fb.set_color_bits(24)
    fb.set_depth_bits(24)
    flags = GraphicsPipe.BF_refuse_window | GraphicsPipe.BF_resizeable
    buf = engine.make_output(pipe, "snapshot", 0, fb, WindowProperties.size(w, h), flags)
    if buf is None:
        engine.remove_all_windows()
        raise RuntimeError("Panda3D could not create an offscreen buffer")
    try:
        buf.set_clear_color_active(True)
        buf.set_clear_color((*(c / 255 for c in SKY_BOTTOM), 1))

        # 2-D sky behind everything
        sky = _sky()
        sky_lens = OrthographicLens()
        sky_lens.set_film_size(2, 2)
        sky_lens.set_near_far(-10, 10)
        dr_sky = buf.make_display_region()
        dr_sky.set_sort(0)
        dr_sky.set_camera(sky.attach_new_node(Camera("sky-cam", sky_lens)))

        lens = PerspectiveLens()
        vfov = view.fov
        hfov = math.degrees(2 * math.atan(math.tan(math.radians(vfov) / 2) * w / h))
        lens.set_fov(hfov, vfov)
        lens.set_near_far(NEAR, built.far)
        cam = built.root.attach_new_node(Camera("cam", lens))
        cam.set_pos(*view.pos)
        cam.look_at(*view.look_at)
        dr = buf.make_display_region()
        dr.set_sort(1)
        dr.set_clear_depth_active(True)
        dr.set_camera(cam)

        engine.render_frame()
        tex = buf.get_screenshot()
        if tex is None:
            raise RuntimeError("Panda3D returned no screenshot")
        data = np.frombuffer(bytes(tex.get_ram_image_as("RGB")), dtype=np.uint8)
        tw, th = tex.get_x_size(), tex.get_y_size()
        # Panda3D images are stored bottom row first (pitfall: the picture comes out upside down)
        pixels = data.reshape(th, tw, 3)[::-1]
        return np.ascontiguousarray(pixels[:h, :w])
    finally:
        buf.remove_all_display_regions()
        # p3tinydisplay never frees a buffer's frame buffer when the buffer is closed (Panda3D
        # 1.10: TinyGraphicsBuffer::close_buffer has no ZB_close), leaking 8 bytes per pixel per
        # call; resizing does free the old one, so shrink the buffer to 1x1 before removing it.
        buf.set_size(1, 1)
        engine.remove_all_windows()


def _collect_state_garbage() -> None:
    """Drop Panda3D's cached render states and attributes nobody uses any more.

    Without ShowBase nobody runs this collection, and the attribute cache keeps every
    ``TextureAttrib`` -- and so every texture of a finished render (several MB for the shadow
    decals) -- alive forever.
    """
    from panda3d.core import RenderAttrib, RenderState, TransformState

    for _ in range(20):  # each pass frees what the previous one released
        freed = (
            TransformState.garbage_collect()
            + RenderState.garbage_collect()
            + RenderAttrib.garbage_collect()
        )
        if not freed:
            break


def render_scene(
    scene: Scene,
    out_png: str | Path,
    *,
    size: tuple[int, int] = (1280, 720),
    poses: Mapping[str, tuple[Sequence[float], Sequence[float]]] | None = None,
    camera: Mapping[str, Any] | None = None,
    supersample: int = 2,
) -> Path:
    """Render ``scene`` on a wooden table to the PNG ``out_png`` (offscreen, no display needed).

    Parameters
    ----------
    scene:
        The pieces to draw (static ones too), with their colours.
    out_png:
        Output path; parent directories are created.
    size:
        (width, height) of the picture in pixels.
    poses:
        Piece id -> (position (m), quaternion (x, y, z, w)) of the piece frame, overriding the
        scene's poses (e.g. :func:`simulated_poses` or ``World.poses()`` after a simulation).
    camera:
        A camera spec (see :func:`camera_for_scene`) replacing ``scene.camera``; without either,
        the camera frames all pieces in a 3/4 view from above.
    supersample:
        Render at this many times the size and downscale (1 = off).

    Returns
    -------
    Path
        ``out_png``.

    Raises
    ------
    KeyError
        ``poses`` names a piece the scene does not have.
    ValueError
        ``size`` is not positive.
    RuntimeError
        Panda3D could not load p3tinydisplay or make the offscreen buffer.

    Needs Pillow (PNG writing, shadow rasterising) besides Panda3D and trimesh.
    """
    from PIL import Image

    w, h = (int(v) for v in size)
    if w < 1 or h < 1:
        raise ValueError(f"size must be positive, got {size!r}")
    ss = max(1, int(supersample))
    parts = _parts(scene, poses)
    spec = scene.camera if camera is None else camera
    view = camera_for_scene(spec, _points(parts), w / h)
    built = _build_graph(parts, view)
    try:
        pixels = _render_pixels(built, view, (w * ss, h * ss))
    finally:
        # the root's LightAttrib holds NodePaths of lights under the root: a reference cycle
        # that would keep the whole graph (textures included) alive
        built.root.clear_light()
        built.root.remove_node()
        _collect_state_garbage()
    img = Image.fromarray(pixels, "RGB")
    if ss > 1:
        img = img.resize((w, h), Image.BOX)
    out = Path(out_png)
    out.parent.mkdir(parents=True, exist_ok=True)
    img.save(out, format="PNG")
    return out


def simulated_poses(
    scene: Scene, seconds: float, profile: str = "display"
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Poses of the dynamic pieces after simulating ``scene`` for ``seconds`` (PyBullet)."""
    from sim.world import World

    with World(scene, profile) as world:
        world.run(seconds)
        return world.poses()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m sim.view.snapshot SCENE OUT.png [--seconds S] [--size WxH]``."""
    from sim.scene import load_scene, shipped_scene_path

    ap = argparse.ArgumentParser(
        prog="python -m sim.view.snapshot", description=__doc__.split("\n")[0]
    )
    ap.add_argument("scene", help="a .toml file or a shipped scene name")
    ap.add_argument("out", help="output PNG")
    ap.add_argument("--seconds", type=float, default=0.0, help="simulate first (display profile)")
    ap.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT (default 1280x720)")
    ap.add_argument("--supersample", type=int, default=2)
    args = ap.parse_args(argv)
    path = Path(args.scene)
    scene = load_scene(path if path.suffix == ".toml" else shipped_scene_path(args.scene))
    w, h = (int(v) for v in args.size.lower().split("x"))
    poses = simulated_poses(scene, args.seconds) if args.seconds > 0 else None
    t0 = time.perf_counter()
    out = render_scene(scene, args.out, size=(w, h), poses=poses, supersample=args.supersample)
    print(f"{out}: {w}x{h}, {1000 * (time.perf_counter() - t0):.0f} ms")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
