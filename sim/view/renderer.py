"""The Panda3D renderer: draws a :class:`~sim.view.layout.TableLayout` on a wooden table.

:class:`Renderer` owns one graphics engine and one output (an offscreen buffer, or a window for
``render_mode="human"``), keeps the scene graph of the layout it shows, moves items when given
new poses, and returns frames as (H, W, 3) uint8 arrays, row 0 at the top::

    with Renderer((640, 360), backend="tiny") as r:
        r.show(layout)
        first = r.render()
        r.set_poses(world.poses())
        second = r.render()

ShowBase is not used: no ``builtins.base``, no task manager, no PRC changes, so any number of
renderers can live in one process, next to code that does use ShowBase. The look:

- every item is flat-shaded (one normal per face); polycube faces carry a faint groove texture
  so the single cubes of a piece show; plain wooden blocks and the table carry a plank grain;
  pictures (dice pips, tile faces, boards, the score pad) are textures on their faces;
- an ambient, a key and a fill light; a sky gradient behind the table;
- shadows: the gl backend turns on Panda3D's shader generator and a 2048^2 shadow map on the key
  light; the tiny backend has no shaders and fakes soft shadows (:mod:`tablesim.sim.view.shadows`);
- ``supersample`` renders at that many times the size and downscales (box filter) for smooth
  edges, since multisampling has no effect on screenshots.

The renderer only reads layouts and poses; it never changes a game state or a world.
"""

from __future__ import annotations

import math
import os
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from tablesim.sim.view.art import grain_texture, groove_texture, wood_color
from tablesim.sim.view.backend import BackendUnavailableError, make_pipe
from tablesim.sim.view.camera import NEAR, CameraView, camera_for_scene
from tablesim.sim.view.layout import Item, Pose, TableLayout
from tablesim.sim.view.shadows import (
    SHADOW_BLUR,
    SHADOW_TEXEL,
    face_rows,
    grid_mask,
    light_direction,
    shadow_mask,
)

__all__ = ["SKY_BOTTOM", "SKY_TOP", "TABLE_COLOR", "Renderer", "collect_state_garbage"]

SKY_TOP: tuple[int, int, int] = (150, 190, 230)
"""Background colour (sRGB 0-255) at the top edge of the picture."""
SKY_BOTTOM: tuple[int, int, int] = (226, 236, 244)
"""Background colour at the bottom edge (the gradient runs top to bottom behind the table)."""
TABLE_COLOR: tuple[int, int, int] = (182, 132, 90)
"""Mean colour of the wooden table top before lighting."""
SOFTWARE_GL: tuple[str, ...] = ("llvmpipe", "softpipe", "swrast", "software rasterizer")
"""OpenGL renderer names (lower case, substrings) of software rasterisers: a window on
``auto`` uses the tiny backend instead."""
MOVING_SHADOW_COARSE = 4
"""Texel size factor of the tiny backend's faked shadows in a frame whose poses changed."""
SHADOW_MAP = 2048
"""Shadow map size (texels per side) of the gl backend."""
LAYER_MAX_TEXELS = 512
"""Largest side (texels) of a moving item's own shadow decal; past it the moving items go into
the baked decals, coarse."""
GEOM_CACHE = 512
"""Meshes (shape, finish, faces) whose triangles a renderer keeps for items drawn again."""
DECAL_TILE = 64
"""Side (texels) of the tiles a shadow decal is cut into; tiles without shadow are not drawn."""
TABLE_SPLITS = 4
"""Times the table top's triangles are split in four before drawing (4: 512 triangles).
p3tinydisplay interpolates texture coordinates across a triangle in fixed point: across the
one quad of a 1-2 m table top seen at a slant they drift by several texels (the plank joints
bent), and the drift depends on where the triangle was clipped, so a rectangle drawn on its
own (:meth:`Renderer._draw_rects`) showed seams. Small triangles keep both right."""
MAX_TEXTURED_EDGE = 0.03
"""Longest triangle edge (m) of the other wooden or printed surfaces (boards, pads, tiles),
for the same reason as :data:`TABLE_SPLITS`; cube faces with grooves are small already."""
RECT_MAX_AREA = 0.5
"""Incremental drawing: the largest share of the picture a change may cover and still be
drawn as a rectangle of its own; past it the whole picture is drawn."""
RECT_MARGIN = 2
"""Pixels added round the screen bounds of what changed (rounding of edges and filters)."""

_AMBIENT = (0.40, 0.40, 0.43)
_KEY = (0.72, 0.70, 0.65)
_FILL = (0.24, 0.25, 0.28)


def _check_size(size: Sequence[int]) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in size)
    except (TypeError, ValueError):
        raise ValueError(f"size must be (width, height) in pixels, got {size!r}") from None
    if w < 1 or h < 1 or w > 8192 or h > 8192:
        raise ValueError(f"size must be 1..8192 pixels per side, got {w}x{h}")
    return w, h


def _frame_buffer(window: bool = False) -> Any:
    """24-bit colour and depth; a window asks for one back buffer: without it Mesa/llvmpipe
    under Xvfb shows a black window (nothing is ever swapped to the front)."""
    from panda3d.core import FrameBufferProperties

    fb = FrameBufferProperties()
    fb.set_rgb_color(True)
    fb.set_color_bits(24)
    fb.set_depth_bits(24)
    if window:
        fb.set_back_buffers(1)
    return fb


def _rgb_rows(tex: Any, width: int, height: int) -> np.ndarray:
    """A screenshot texture as (H, W, 3) uint8 RGB, row 0 at the top.

    Panda3D stores images bottom row first in BGR(A) order; the channels are copied one by one
    from the flipped view (0.9 ms at 960x540, against 1.4 ms for ``get_ram_image_as("RGB")``
    and 4.5 ms for one copy of a reversed channel slice)."""
    comps = tex.get_num_components()
    if comps not in (3, 4) or tex.get_component_width() != 1:
        data = np.frombuffer(bytes(tex.get_ram_image_as("RGB")), dtype=np.uint8)
        return np.ascontiguousarray(data.reshape(height, width, 3)[::-1])
    raw = np.frombuffer(memoryview(tex.get_ram_image()), dtype=np.uint8)
    src = raw.reshape(height, width, comps)[::-1]
    out = np.empty((height, width, 3), dtype=np.uint8)
    out[..., 0] = src[..., 2]
    out[..., 1] = src[..., 1]
    out[..., 2] = src[..., 0]
    return out


@lru_cache(maxsize=1)
def _over_baked() -> np.ndarray:
    """(256, 256) uint8: [baked alpha s, moving alpha g] -> the alpha that, blended over the
    baked decal, makes the two as dark as the darker one: ``1 - (1 - max(s, g)) / (1 - s)``
    (the faked shadows' alpha never reaches 255)."""
    s = np.arange(256, dtype=float)[:, None] / 255.0
    g = np.arange(256, dtype=float)[None, :] / 255.0
    out = 1.0 - (1.0 - np.maximum(s, g)) / np.maximum(1.0 - s, 1.0 / 255.0)
    return np.clip(np.rint(out * 255), 0, 255).astype(np.uint8)


def _pow2(n: int) -> int:
    return 1 << max(1, math.ceil(math.log2(max(n, 2))))


def _texture(name: str, pixels: np.ndarray, *, repeat: bool, fmt: str = "RGB") -> Any:
    """A Panda3D texture from an (H, W, C) uint8 array whose row 0 is the **top** of the picture.

    Resized to powers of two (p3tinydisplay takes nothing else); uv still spans [0, 1]."""
    from panda3d.core import SamplerState, Texture
    from PIL import Image

    h, w = pixels.shape[:2]
    pw, ph = _pow2(w), _pow2(h)
    if (pw, ph) != (w, h):
        mode = "RGBA" if fmt == "RGBA" else "RGB"
        pixels = np.asarray(
            Image.fromarray(pixels, mode).resize((pw, ph), Image.Resampling.LANCZOS)
        )
    tex = Texture(name)
    formats = {"RGB": Texture.F_rgb, "RGBA": Texture.F_rgba}
    tex.setup_2d_texture(pw, ph, Texture.T_unsigned_byte, formats[fmt])
    tex.set_ram_image_as(np.ascontiguousarray(pixels[::-1]).tobytes(), fmt)
    wrap = SamplerState.WM_repeat if repeat else SamplerState.WM_clamp
    tex.set_wrap_u(wrap)
    tex.set_wrap_v(wrap)
    tex.set_minfilter(SamplerState.FT_linear_mipmap_linear)
    tex.set_magfilter(SamplerState.FT_linear)
    return tex


def _geom(name: str, rows: np.ndarray) -> Any:
    """A ``Geom`` of un-indexed triangles from vertex rows (3F, 8) (position, normal, uv)."""
    from panda3d.core import Geom, GeomTriangles, GeomVertexData, GeomVertexFormat

    vdata = GeomVertexData(name, GeomVertexFormat.get_v3n3t2(), Geom.UH_static)
    vdata.unclean_set_num_rows(len(rows))
    memoryview(vdata.modify_array(0)).cast("B")[:] = np.ascontiguousarray(rows).tobytes()
    prim = GeomTriangles(Geom.UH_static)
    prim.set_nonindexed_vertices(0, len(rows))
    geom = Geom(vdata)
    geom.add_primitive(prim)
    return geom


def _geom_node(name: str, rows: np.ndarray) -> Any:
    """A ``GeomNode`` of un-indexed triangles from vertex rows (3F, 8) (position, normal, uv)."""
    from panda3d.core import GeomNode

    node = GeomNode(name)
    node.add_geom(_geom(name, rows))
    return node


def _material(rgb: Sequence[float], alpha: float = 1.0) -> Any:
    """A material of ambient and diffuse colour ``rgb`` (0-1), opacity ``alpha`` (the lit
    colour's alpha is the diffuse alpha).

    Surface colours go through a material, not ``set_color``: p3tinydisplay applies a node's
    flat colour (or colour scale) twice when lighting is on, so 0.5 grey comes out 0.25.
    """
    from panda3d.core import Material

    mat = Material()
    mat.set_ambient((*rgb, 1))
    mat.set_diffuse((*rgb, alpha))
    return mat


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


def _decal_rows(
    alpha: np.ndarray,
    texel: float,
    lo: np.ndarray,
    z: float,
    hidden: Sequence[tuple[np.ndarray, np.ndarray]] = (),
) -> np.ndarray:
    """Vertex rows (position, normal, uv) of a decal at height ``z`` covering only the tiles
    of ``alpha`` (rows bottom-up) that carry some shadow and can be seen.

    A full-area decal is alpha-blended over every pixel of its rectangle, mostly where its
    alpha is 0 or where a board lying on the table hides it (p3tinydisplay pays per pixel: the
    table's decal was 5 ms of a 12 ms frame at 960x540). Tiles of :data:`DECAL_TILE` texels
    with no shadow in them or in a neighbouring tile (the texture filter reads across tile
    borders) are left out, and so are those wholly inside a rectangle of ``hidden`` (x, y
    lo..hi: what boards resting on the plane cover). The uv of a tile's corners are those of
    the whole quad at that place, so the picture is the same."""
    h, w = alpha.shape
    t = DECAL_TILE
    ny, nx = -(-h // t), -(-w // t)
    padded = np.zeros((ny * t, nx * t), dtype=bool)
    padded[:h, :w] = alpha > 0
    lit = np.asarray(padded.reshape(ny, t, nx, t).any(axis=(1, 3)), dtype=bool)
    # and the neighbours of a shadowed tile: the filter reads across tile borders
    keep = lit.copy()
    keep[1:] |= lit[:-1]
    keep[:-1] |= lit[1:]
    keep[:, 1:] |= keep[:, :-1].copy()
    keep[:, :-1] |= keep[:, 1:].copy()
    x0 = lo[0] + np.arange(nx) * t * texel
    y0 = lo[1] + np.arange(ny) * t * texel
    for hlo, hhi in hidden:
        inside_x = (x0 >= hlo[0]) & (x0 + t * texel <= hhi[0])
        inside_y = (y0 >= hlo[1]) & (y0 + t * texel <= hhi[1])
        keep &= ~(inside_y[:, None] & inside_x[None, :])
    # one quad per run of kept tiles in a column: p3tinydisplay draws the pixels of a shared
    # edge running across the picture twice (a dark line where two blended tiles of a column
    # met), not those of the edges between columns; runs of a column never touch
    quads: list[tuple[int, int, int]] = []
    for c in np.nonzero(keep.any(axis=0))[0]:
        col = np.concatenate([[False], keep[:, c], [False]]).astype(np.int8)
        starts = np.nonzero(np.diff(col) == 1)[0]
        ends = np.nonzero(np.diff(col) == -1)[0]
        quads.extend((int(c), int(s0), int(e0)) for s0, e0 in zip(starts, ends, strict=True))
    q: np.ndarray = np.array(quads, dtype=np.int64).reshape(-1, 3)
    cx = np.minimum(np.stack([q[:, 0], q[:, 0] + 1], axis=1) * t, w)  # (n, 2) texel columns
    cy = np.minimum(q[:, 1:3] * t, h)
    corner = ((0, 0), (1, 0), (1, 1), (0, 0), (1, 1), (0, 1))
    out = np.zeros((len(q), 6, 8), dtype=np.float32)
    for k, (ci, cj) in enumerate(corner):
        out[:, k, 0] = lo[0] + cx[:, ci] * texel
        out[:, k, 1] = lo[1] + cy[:, cj] * texel
        out[:, k, 6] = cx[:, ci] / w
        out[:, k, 7] = cy[:, cj] / h
    out[:, :, 2] = z
    out[:, :, 5] = 1.0
    return out.reshape(-1, 8)


def _decal(
    name: str,
    alpha: np.ndarray,
    texel: float,
    lo: np.ndarray,
    z: float,
    hidden: Sequence[tuple[np.ndarray, np.ndarray]] = (),
) -> Any:
    """A translucent black decal at height ``z`` from ``lo`` carrying a shadow ``alpha`` map
    (rows bottom-up, as :func:`tablesim.sim.view.shadows.shadow_mask` returns it), drawn only over the
    tiles that hold some shadow and are not ``hidden`` (:func:`_decal_rows`); None when none
    does."""
    from panda3d.core import NodePath, SamplerState, Texture, TransparencyAttrib

    rows = _decal_rows(alpha, texel, lo, z, hidden)
    if len(rows) == 0:
        return None
    h, w = alpha.shape
    # an alpha-only texture, uploaded as is (rows already bottom-up): converting RGBA to
    # Panda3D's BGRA order cost 26 ms per 1024^2 decal, more than the shadow itself
    tex = Texture(name)
    tex.setup_2d_texture(w, h, Texture.T_unsigned_byte, Texture.F_alpha)
    tex.set_ram_image(np.ascontiguousarray(alpha).tobytes())
    tex.set_wrap_u(SamplerState.WM_clamp)
    tex.set_wrap_v(SamplerState.WM_clamp)
    tex.set_minfilter(SamplerState.FT_linear_mipmap_linear)
    tex.set_magfilter(SamplerState.FT_linear)
    np_ = NodePath(_geom_node(name, rows))
    np_.set_texture(tex)
    np_.set_transparency(TransparencyAttrib.M_alpha)
    np_.set_color(0, 0, 0, 1)
    np_.set_light_off()
    np_.set_depth_test(False)
    np_.set_depth_write(False)
    return np_


def _split_to(v: np.ndarray, f: np.ndarray, max_edge: float) -> tuple[np.ndarray, np.ndarray]:
    """Vertices and faces of a mesh whose triangles are split until no edge is longer than
    ``max_edge`` (m); the mesh as it is when none is."""
    tri = v[f]
    longest = float(np.linalg.norm(tri - np.roll(tri, 1, axis=1), axis=2).max())
    if longest <= max_edge:
        return v, f
    from trimesh.remesh import subdivide_to_size

    out_v, out_f = subdivide_to_size(v, f, max_edge)
    return np.asarray(out_v, dtype=float), np.asarray(out_f)


def _item_box(item: Item) -> np.ndarray:
    """(2, 3) world box (lo, hi) of an item as posed."""
    v = item.world_vertices()
    return np.stack([v.min(axis=0), v.max(axis=0)])


def _bounds_of(node: Any) -> np.ndarray:
    """(2, 3) box of a node's vertices in its parent's frame (a decal: the table's)."""
    lo, hi = node.get_tight_bounds()
    return np.array([tuple(lo), tuple(hi)], dtype=float)


def _sub_lens(full: Any, size: tuple[int, int], rect: tuple[int, int, int, int]) -> Any:
    """A copy of ``full`` (perspective or orthographic) that, drawn in a display region
    covering only ``rect`` (x0, x1, y0, y1 buffer pixels, row 0 at the top) of a ``size``
    output, puts every point on the pixel the full lens puts it on in the whole output.

    p3tinydisplay maps a viewport of ``n`` pixels from ``m`` as ``m + (n - 0.5) / 2 (1 + x)``
    (``vertex.c``, ``gl_eval_viewport``; rows downwards with ``-y``), so the sub-frustum is the
    full one scaled by ``(N - 0.5) / (n - 0.5)`` and shifted, not simply cut at the pixels."""
    big_w, big_h = size
    x0, x1, y0, y1 = rect
    a_x = (big_w - 0.5) / (x1 - x0 - 0.5)
    b_x = (big_w - 0.5 - 2 * x0) / (x1 - x0 - 0.5) - 1
    a_y = (big_h - 0.5) / (y1 - y0 - 0.5)
    b_y = 1 - (big_h - 0.5 - 2 * y0) / (y1 - y0 - 0.5)
    film = full.get_film_size()
    off = full.get_film_offset()
    sub = full.make_copy()
    fw, fh = film[0] / a_x, film[1] / a_y
    sub.set_film_size(fw, fh)
    if full.is_perspective():
        sub.set_focal_length(full.get_focal_length())
    sub.set_film_offset(off[0] - b_x * fw / 2, off[1] - b_y * fh / 2)
    return sub


def _node_path(node: Any) -> Any:
    """``NodePath(node)``."""
    from panda3d.core import NodePath

    return NodePath(node)


def _merge_rects(rects: list[list[int]]) -> list[list[int]]:
    """Rectangles (x0, x1, y0, y1) merged until none overlap (a merged pair is replaced by
    the rectangle holding both)."""
    out = [list(r) for r in rects]
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]:
                    out[i] = [min(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), max(a[3], b[3])]
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def collect_state_garbage() -> None:
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


def _text_node(corner: str, text: str, w: int, h: int, px: float) -> Any:
    """A detached Panda3D text node of ``text`` placed in ``corner`` of a ``w`` x ``h`` buffer,
    ``px`` pixels per line: white on a dark card, wrapped at about half the width."""
    from panda3d.core import NodePath, TextNode

    node = TextNode(corner)
    node.set_wordwrap(0.48 * w / px)
    node.set_text(text)
    node.set_text_color(1, 1, 1, 1)
    node.set_card_color(0, 0, 0, 0.68)  # white on a dark card: readable on any table
    node.set_card_as_margin(0.4, 0.4, 0.3, 0.3)
    node.set_align(TextNode.A_right if corner.endswith("right") else TextNode.A_left)
    tnp = NodePath(node)
    tnp.set_scale(px)
    lines = node.get_num_rows()
    x = w / 2 - px if corner.endswith("right") else -w / 2 + px
    y = h / 2 - 1.4 * px if corner.startswith("top") else -h / 2 + (lines - 0.6) * px
    tnp.set_pos(x, 0, y)
    return tnp


class Renderer:
    """One Panda3D output drawing a table; see the module docstring.

    Parameters
    ----------
    size:
        (width, height) of the frames in pixels.
    backend:
        ``auto``, ``tiny`` or ``gl`` (:mod:`tablesim.sim.view.backend`); :attr:`backend` is the one used.
    supersample:
        Render at this many times the size and downscale (1 = off).
    window:
        Open an on-screen window instead of an offscreen buffer (``render_mode="human"``): needs
        the gl backend and an X display; :meth:`render` then returns None.

    Raises ValueError for a bad size or supersample, :class:`BackendUnavailableError` when the
    backend (or a window) cannot run here.
    """

    _engine: Any  # a GraphicsEngine: made by the window or by the offscreen set-up below

    def __init__(
        self,
        size: Sequence[int] = (1280, 720),
        *,
        backend: str = "auto",
        supersample: int = 1,
        window: bool = False,
        title: str = "tablesim",
    ) -> None:
        from panda3d.core import (
            Camera,
            GraphicsEngine,
            GraphicsPipe,
            OrthographicLens,
            WindowProperties,
        )

        self.size = _check_size(size)
        if isinstance(supersample, bool) or not isinstance(supersample, int) or supersample < 1:
            raise ValueError(f"supersample must be an integer >= 1, got {supersample!r}")
        self.supersample = supersample
        self.software_gl = ""
        """The software OpenGL renderer a window on ``auto`` left for tiny (empty: none)."""
        self.coarse_motion = False
        """Tiny backend: frames whose poses changed get coarse shadows (the interactive app
        turns it on; pictures and films keep full shadows in every frame)."""
        self.readback = True
        """Offscreen: :meth:`render` reads the frame back into RAM and returns it; False
        draws only (what a window costs: the benches time both)."""
        self.incremental = False
        """Tiny backend: draw only what changed (the interactive app turns it on). A frame in
        which nothing changed is not drawn again (the picture stays; offscreen
        :meth:`render` returns the last frame); a change that covers a small part of the
        picture (a ghost and its shadow) is drawn in that rectangle only (:meth:`_draw_rect`),
        the rest of the frame buffer staying as it was."""
        self.stats = {"full": 0, "rect": 0, "skipped": 0}
        """Frames drawn whole, drawn as rectangles, and not drawn (nothing changed)."""
        self.last_rects: tuple[tuple[int, int, int, int], ...] = ()
        """The rectangles (x0, x1, y0, y1 buffer pixels, row 0 at the top) the last frame
        drew; empty when it was drawn whole or not at all."""
        self.window = bool(window)
        if self.window:
            self._buf = self._open_window(backend, title)
            # a frame is shown as soon as it is drawn: without this the engine flips it at the
            # start of the next render_frame, and a window that draws only on change would
            # always show the frame before the last
            self._engine.set_auto_flip(True)
        else:
            self.backend, pipe = make_pipe(backend)
            self._engine = GraphicsEngine(pipe)
            w, h = (v * supersample for v in self.size)
            flags = GraphicsPipe.BF_refuse_window
            if self.backend == "tiny":
                flags |= GraphicsPipe.BF_resizeable  # to shrink it before removal, see close()
            self._buf = self._engine.make_output(pipe, "tablesim-view", 0, _frame_buffer(),
                                                 WindowProperties.size(w, h), flags)  # fmt: skip
            if self._buf is None:
                self._engine.remove_all_windows()
                raise BackendUnavailableError(
                    f"Panda3D could not create an offscreen buffer on the {self.backend} backend"
                )
        self._buf.set_clear_color_active(True)
        self._buf.set_clear_color((*(c / 255 for c in SKY_BOTTOM), 1))
        self._sky = _sky()
        sky_lens = OrthographicLens()
        sky_lens.set_film_size(2, 2)
        sky_lens.set_near_far(-10, 10)
        dr_sky = self._buf.make_display_region()
        dr_sky.set_sort(0)
        dr_sky.set_camera(self._sky.attach_new_node(Camera("sky-cam", sky_lens)))
        self._dr_sky = dr_sky
        self._table_top: tuple[np.ndarray, np.ndarray] | None = None
        self._dr = self._buf.make_display_region()
        self._dr.set_sort(1)
        self._dr.set_clear_depth_active(True)
        self._root: Any = None
        self._nodes: dict[str, Any] = {}
        self._parts: dict[str, list[tuple[str, Any]]] = {}
        self._shape: dict[str, int] = {}
        self._geom_cache: OrderedDict[tuple[Any, ...], tuple[int, tuple[tuple[str, Any], ...]]]
        self._geom_cache = OrderedDict()
        self._geom_tokens = 0
        self._wood_tex = _texture("wood", grain_texture(), repeat=True)
        self._groove_tex = _texture("groove", groove_texture(), repeat=False)
        self._decals: list[Any] = []
        self._layer: list[Any] = []
        self._static_maps: dict[str, tuple[np.ndarray, float, np.ndarray, float]] = {}
        self._baked: dict[str, tuple[Any, ...]] = {}
        self._layer_key: frozenset[Any] = frozenset()
        self._moving = False
        self._coarse = False
        self._layout: TableLayout | None = None
        self.view: CameraView | None = None
        self._shadows_dirty = False
        self._closed = False
        self._frames = 0
        self._whole = True  # the next frame is drawn whole (incremental mode)
        self._damage: list[np.ndarray] = []  # world boxes (2, 3) of what changed since
        self._damage_px: list[tuple[float, float, float, float]] = []  # and text rectangles
        self._last: np.ndarray | None = None  # the last frame read back
        self._dr_text: Any = None
        self._rect_drs: list[list[tuple[Any, Any]]] = []  # display regions of rectangles

    def _open_window(self, backend: str, title: str) -> Any:
        """Open the on-screen window (``$DISPLAY``) on ``backend``: ``gl``, ``tiny``
        (p3tinydisplay draws into an X window too) or ``auto`` -- gl, unless its OpenGL is a
        software rasteriser (Mesa llvmpipe, softpipe, swrast: no GPU), where tiny draws the
        same table several times faster (``docs/view-interactive.md``). Sets
        :attr:`backend` and the engine; returns the window."""
        from panda3d.core import GraphicsEngine, GraphicsPipe, WindowProperties

        display = bool(os.environ.get("DISPLAY"))
        want = "gl" if backend == "auto" else backend
        if want == "tiny" and not display:
            # gl can open its window on a private Xvfb (sim.view.backend); tiny cannot
            raise BackendUnavailableError("a tiny window needs a display ($DISPLAY is not set)")
        w, h = (v * self.supersample for v in self.size)
        props = WindowProperties()
        props.set_size(w, h)
        props.set_title(title)
        self.backend, pipe = make_pipe(want)
        self._engine = GraphicsEngine(pipe)
        win = self._engine.make_output(pipe, "tablesim-window", 0, _frame_buffer(window=True),
                                       props, GraphicsPipe.BF_require_window)  # fmt: skip
        if win is not None and backend == "auto" and self.backend == "gl" and display:
            self._engine.open_windows()
            gsg = win.get_gsg()
            name = gsg.get_driver_renderer().lower() if gsg is not None else ""
            if any(soft in name for soft in SOFTWARE_GL):
                self._engine.remove_all_windows()
                self.software_gl = name
                return self._open_window("tiny", title)
        if win is None:
            self._engine.remove_all_windows()
            raise BackendUnavailableError(
                f"Panda3D could not open a window on the {self.backend} backend "
                f"(display {os.environ.get('DISPLAY')})"
            )
        return win

    # ------------------------------------------------------------------ lifecycle
    def __enter__(self) -> Renderer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def output(self) -> Any:
        """The Panda3D output drawn into (the window of ``window=True``, for its events)."""
        return self._buf

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run."""
        return self._closed

    def close(self) -> None:
        """Free the output, the scene graph and their textures (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self._clear_graph()
        self._buf.remove_all_display_regions()
        if self.backend == "tiny" and not self.window:
            # p3tinydisplay never frees a buffer's frame buffer when the buffer is closed
            # (Panda3D 1.10: TinyGraphicsBuffer::close_buffer has no ZB_close), leaking 8 bytes
            # per pixel; resizing does free the old one, so shrink to 1x1 before removing it.
            self._buf.set_size(1, 1)
        self._engine.remove_all_windows()
        self._sky.remove_node()
        if getattr(self, "_text_root", None) is not None:
            self._text_root.remove_node()
        collect_state_garbage()

    def _clear_graph(self) -> None:
        if self._root is not None:
            # the root's LightAttrib holds NodePaths of lights under the root: a reference
            # cycle that would keep the whole graph (textures included) alive
            self._root.clear_light()
            self._root.remove_node()
            self._root = None
        self._nodes = {}
        self._parts = {}
        self._shape = {}
        self._decals = []
        self._layer = []
        collect_state_garbage()

    # ------------------------------------------------------------------ building
    def show(self, layout: TableLayout, camera: Mapping[str, Any] | None = None) -> CameraView:
        """Build the graph of ``layout`` and place the camera (``camera`` spec, else the
        layout's, else the automatic 3/4 view framing every item). Returns the camera used."""
        from panda3d.core import Camera, NodePath, PerspectiveLens

        if self._closed:
            raise RuntimeError("this renderer is closed")
        self._clear_graph()
        w, h = self.size
        pts = layout.points()
        spec = layout.camera if camera is None else camera
        view = camera_for_scene(spec, pts, w / h)
        self.view, self._layout = view, layout
        self._light = light_direction(view)
        root = NodePath("table-view")
        self._root = root

        lo_s, hi_s = pts.min(axis=0), pts.max(axis=0)
        radius = float(np.linalg.norm(hi_s[:2] - lo_s[:2])) / 2
        height = max(float(hi_s[2]), 0.0)
        half_table = max(4 * radius, 2.5 * height, 0.05)
        cxy = (lo_s[:2] + hi_s[:2]) / 2
        thickness = max(0.02, half_table * 0.06)
        self._bounds = (lo_s, hi_s)

        from tablesim.sim.view.layout import box_item

        table = box_item(
            "__table__",
            (2 * half_table, 2 * half_table, thickness),
            (cxy[0] - half_table, cxy[1] - half_table, -thickness),
            wood_color(TABLE_COLOR),
            finish="wood",
            casts_shadow=False,
        )
        order = 0
        self._receivers: list[tuple[str, int]] = []
        for item in (table, *layout.items):
            receiver = item.id == "__table__" or (item.receives_shadow and item.is_level())
            node = self._attach(item, root, order + 1 if receiver else None)
            if receiver:
                node.set_bin("background", order)
                self._receivers.append((item.id, order + 2))
                order += 10
        self._items = {it.id: it for it in (table, *layout.items)}
        self._static_maps = {}
        self._baked = {}
        self._layer_key = frozenset()
        self._half_table = half_table
        self._table_top = (cxy - half_table, cxy + half_table)
        self._add_lights(root)
        cam = root.attach_new_node(Camera("cam", PerspectiveLens()))
        self._dr.set_camera(cam)
        self._place_camera(view)
        if self.backend == "gl":
            # the shadow buffer (and the sky) only appear from the second frame on: draw one now
            self._engine.render_frame()
        return view

    def set_camera(self, camera: Mapping[str, Any] | None = None) -> CameraView:
        """Place the camera of the table shown (``camera`` spec, else the layout's, else the
        automatic view) without building the table again: the lens, the lights (the key light
        follows the camera), the sky and the faked shadows follow. Returns the camera used.
        The same picture as :meth:`show` of the same layout with that camera."""
        if self._layout is None or self._closed:
            raise RuntimeError("show() a layout before moving the camera")
        w, h = self.size
        spec = self._layout.camera if camera is None else camera
        view = camera_for_scene(spec, self._layout.points(), w / h)
        self._place_camera(view)
        self._moving = True  # the shadows turn with the light: coarse until the camera stops
        return view

    def _place_camera(self, view: CameraView) -> None:
        """Put the scene's camera, the lights that follow it, and the sky at ``view``."""
        w, h = self.size
        self.view = view
        self._light = light_direction(view)
        self._aim_lights()
        cam = self._dr.get_camera()
        lens = cam.node().get_lens()
        hfov = math.degrees(2 * math.atan(math.tan(math.radians(view.fov) / 2) * w / h))
        lens.set_fov(hfov, view.fov)
        cam_dist = float(np.linalg.norm(np.subtract(view.pos, view.look_at)))
        far = cam_dist + 4 * self._half_table + float(np.linalg.norm(view.pos)) + 1.0
        lens.set_near_far(NEAR, far)
        cam.set_pos(*view.pos)
        cam.look_at(*view.look_at)
        self._update_sky()
        self._shadows_dirty = True
        self._whole = True

    def _geoms(self, item: Item) -> tuple[int, tuple[tuple[str, Any], ...]]:
        """(shape token, ((face key, Geom), ...)) of ``item``: cached by the mesh's content,
        finish, cube edge and printed faces, so a ghost drawn again at another place or in
        another colour builds nothing (the table's own planks are scaled apart)."""
        v = np.ascontiguousarray(item.mesh.vertices, dtype=float)
        f = np.ascontiguousarray(item.mesh.faces)
        key = (item.id == "__table__", v.tobytes(), f.tobytes(), item.finish, item.edge,
               tuple(item.faces))  # fmt: skip
        hit = self._geom_cache.get(key)
        if hit is not None:
            self._geom_cache.move_to_end(key)
            return hit
        if item.id == "__table__" and TABLE_SPLITS > 0:
            mesh = item.mesh
            for _ in range(TABLE_SPLITS):  # the top only: the sides are thin, the bottom unseen
                mesh = mesh.subdivide(np.nonzero(mesh.face_normals[:, 2] > 0.999)[0])
            v, f = np.asarray(mesh.vertices, dtype=float), np.asarray(mesh.faces)
        elif item.finish != "groove" and len(f):
            v, f = _split_to(v, f, MAX_TEXTURED_EDGE)
        groups = face_rows(v, f, finish=item.finish, edge=item.edge, printed=tuple(item.faces))
        if item.id == "__table__":  # wider planks on the table than on blocks
            groups[""][:, 6:8] *= 0.3 / 0.45
        self._geom_tokens += 1
        made = (
            self._geom_tokens,
            tuple((k, _geom(k or "body", rows)) for k, rows in groups.items()),
        )
        self._geom_cache[key] = made
        while len(self._geom_cache) > GEOM_CACHE:
            self._geom_cache.popitem(last=False)
        return made

    def _surface(self, key: str, item: Item) -> tuple[Any, Any]:
        """(material, texture) of one part of ``item``: a printed face (key), else its finish."""
        if key:
            return _material((1.0, 1.0, 1.0)), _texture(
                f"{item.id}{key}", item.faces[key], repeat=False
            )
        if item.finish == "groove":
            return _material(item.color, item.alpha), self._groove_tex
        if item.finish == "wood":
            return _material(wood_color(item.color), item.alpha), self._wood_tex
        return _material(item.color, item.alpha), None

    def _attach(self, item: Item, parent: Any, picture_bin: int | None = None) -> Any:
        """Build the node of ``item`` under ``parent`` (posed, its parts coloured); pictures
        of a shadow receiver go to ``picture_bin`` of the background bin."""
        from panda3d.core import GeomNode, LQuaternionf, TransparencyAttrib

        token, geoms = self._geoms(item)
        node = parent.attach_new_node(item.id)
        node.set_pos(*item.position)
        x, y, z, qw = item.quat
        node.set_quat(LQuaternionf(qw, x, y, z))
        parts = []
        for key, geom in geoms:
            gn = GeomNode(f"{item.id}{key}")
            gn.add_geom(geom)  # shared with every item of the same shape
            child = node.attach_new_node(gn)
            mat, tex = self._surface(key, item)
            child.set_material(mat)
            if tex is not None:
                child.set_texture(tex)
            if key and picture_bin is not None:
                child.set_bin("background", picture_bin)
            if item.alpha < 1.0:  # blended over the opaque scene, drawn after it
                child.set_transparency(TransparencyAttrib.M_alpha)
            parts.append((key, child))
        self._nodes[item.id] = node
        self._parts[item.id] = parts
        self._shape[item.id] = token
        return node

    def _restyle(self, old: Item, new: Item) -> None:
        """Move and recolour the node of ``old`` to show ``new`` (same shape and finish)."""
        from panda3d.core import LQuaternionf, TransparencyAttrib

        node = self._nodes[new.id]
        if new.position != old.position or new.quat != old.quat or new.color != old.color:
            self._damage.extend((_item_box(old), _item_box(new)))
        if new.position != old.position:
            node.set_pos(*new.position)
        if new.quat != old.quat:
            x, y, z, qw = new.quat
            node.set_quat(LQuaternionf(qw, x, y, z))
        if new.color != old.color or new.alpha != old.alpha:
            if new.alpha != old.alpha:
                self._damage.extend((_item_box(old), _item_box(new)))
            for key, child in self._parts[new.id]:
                if not key:
                    child.set_material(self._surface(key, new)[0])
                if new.alpha != old.alpha:
                    if new.alpha < 1.0:
                        child.set_transparency(TransparencyAttrib.M_alpha)
                    else:
                        child.clear_transparency()

    def _update_sky(self) -> None:
        """Draw the sky only when some of it shows: when the rays through the four corners of
        the picture all hit the table top in front of the near plane, the table covers the
        whole picture (the picture's rectangle lies below the horizon, and its image on the
        table plane is the convex hull of the four hits, inside the convex table top), and
        the full-frame sky quad under it would be drawn for nothing (0.8 ms at 960x540 on
        tiny)."""
        covered = self.view is not None and self._table_top is not None
        if covered:
            lo, hi = self._table_top  # type: ignore[misc]
            w, h = self.size
            fwd = np.asarray(self.view.forward, float)  # type: ignore[union-attr]
            for x, y in ((0, 0), (w, 0), (0, h), (w, h)):
                o, d = self.ray(x, y)
                if d[2] >= -1e-9:
                    covered = False
                    break
                t = -o[2] / d[2]
                p = o + t * d
                if t * float(d @ fwd) <= 2 * NEAR or not (
                    (p[:2] > lo).all() and (p[:2] < hi).all()
                ):
                    covered = False
                    break
        if self._dr_sky.is_active() == covered:
            self._whole = True
        self._dr_sky.set_active(not covered)

    def _add_lights(self, root: Any) -> None:
        """An ambient, a key and a fill light under ``root`` (aimed by :meth:`_aim_lights`)."""
        from panda3d.core import AmbientLight, DirectionalLight

        ambient = AmbientLight("ambient")
        ambient.set_color((*_AMBIENT, 1))
        key = DirectionalLight("key")
        key.set_color((*_KEY, 1))
        fill = DirectionalLight("fill")
        fill.set_color((*_FILL, 1))
        key_np = root.attach_new_node(key)
        if self.backend == "gl":
            key.set_shadow_caster(True, SHADOW_MAP, SHADOW_MAP)
            root.set_shader_auto()
        self._key_np, self._fill = key_np, fill
        for node in (root.attach_new_node(ambient), key_np, root.attach_new_node(fill)):
            root.set_light(node)

    def _aim_lights(self) -> None:
        """Aim the key light along :attr:`_light` and the fill light against it."""
        from panda3d.core import LVector3f

        light = self._light
        key_np, key = self._key_np, self._key_np.node()
        fill_dir = -light * np.array([1.0, 1.0, 0.0])  # horizontal: lights the shaded sides only
        self._fill.set_direction(LVector3f(*(fill_dir / np.linalg.norm(fill_dir))))
        if self.backend == "gl":
            # a real shadow map: the light's lens must be placed and sized explicitly (P16)
            lo, hi = self._bounds
            centre = (lo + hi) / 2
            reach = float(np.linalg.norm(hi - lo)) / 2 + 0.02
            lens = key.get_lens()
            lens.set_film_size(2.6 * reach, 2.6 * reach)
            lens.set_near_far(0.01, 8 * reach + 0.1)
            key_np.set_pos(*(centre - light * 4 * reach))
            key_np.look_at(*centre)
        else:
            key.set_direction(LVector3f(*light))

    # ------------------------------------------------------------------ on-screen text
    def set_text(self, blocks: Mapping[str, str], *, scale: float = 15.0) -> None:
        """Text drawn over the picture (the interactive app's help, score, verdict): corner
        (``top-left``, ``top-right``, ``bottom-left``, ``bottom-right``) -> text (lines split
        at newlines), ``scale`` in pixels per line; an empty mapping clears it."""
        from panda3d.core import Camera, NodePath, OrthographicLens

        corners = ("top-left", "top-right", "bottom-left", "bottom-right")
        bad = sorted(set(blocks) - set(corners))
        if bad:
            raise ValueError(f"text corners {bad} (allowed: {', '.join(corners)})")
        if getattr(self, "_text_root", None) is None:
            w, h = (v * self.supersample for v in self.size)
            self._text_root = NodePath("text-root")
            self._text_root.set_depth_test(False)
            self._text_root.set_depth_write(False)
            lens = OrthographicLens()
            lens.set_film_size(w, h)
            lens.set_near_far(-10, 10)
            dr = self._buf.make_display_region()
            dr.set_sort(2)
            dr.set_camera(self._text_root.attach_new_node(Camera("text-cam", lens)))
            self._dr_text = dr
        root = self._text_root
        w, h = (v * self.supersample for v in self.size)
        px = scale * self.supersample
        shown: dict[str, tuple[tuple[Any, ...], Any]] = getattr(self, "_text_shown", {})
        self._text_shown = {}
        for corner, text in blocks.items():
            if not text:
                continue
            key = (text, w, h, px)
            old = shown.pop(corner, None)
            if old is not None and old[0] == key:  # the same words at the same size: kept
                self._text_shown[corner] = old
                continue
            if old is not None:
                self._damage_px.append(self._text_rect(old[1]))
                old[1].remove_node()
            tnp = _text_node(corner, text, w, h, px)
            tnp.reparent_to(root)
            tnp.set_tag("text", "1")
            tnp.set_transparency(True)
            # in the scene-graph order (the card, then the letters): the transparent bin
            # sorts by depth, and card and letters lie in one plane, so which came first
            # followed the text's bounds -- a text with an "i" had its card drawn over the
            # letters (white under 68 % black: the dark-on-dark panel)
            tnp.set_bin("unsorted", 0)
            self._text_shown[corner] = (key, tnp)
            self._damage_px.append(self._text_rect(tnp))
        for _, tnp in shown.values():  # corners no longer written
            self._damage_px.append(self._text_rect(tnp))
            tnp.remove_node()

    def text_box(
        self, corner: str, text: str, *, scale: float = 15.0
    ) -> tuple[float, float, float, float]:
        """(x0, x1, y0, y1) picture pixels, row 0 at the top, that :meth:`set_text` would cover
        with ``text`` in ``corner`` (its card included), without drawing anything."""
        w, h = (v * self.supersample for v in self.size)
        x0, x1, y0, y1 = self._text_rect(_text_node(corner, text, w, h, scale * self.supersample))
        s = self.supersample
        return (x0 / s, x1 / s, y0 / s, y1 / s)

    def _text_rect(self, tnp: Any) -> tuple[float, float, float, float]:
        """(x0, x1, y0, y1) buffer pixels, row 0 at the top, of a text node and its card."""
        w, h = (v * self.supersample for v in self.size)
        lo, hi = tnp.get_tight_bounds()
        return (lo[0] + w / 2, hi[0] + w / 2, h / 2 - hi[2], h / 2 - lo[2])

    def resize(self, size: Sequence[int]) -> None:
        """Draw at ``size`` (width, height) pixels from now on: an offscreen buffer is resized,
        a window has been (by its user); the camera's lens, the text and :meth:`ray` follow.
        ValueError for a bad size."""
        new = _check_size(size)
        if new == self.size or self._closed:
            return
        self.size = new
        self._whole = True
        w, h = (v * self.supersample for v in new)
        if not self.window:
            self._buf.set_size(w, h)
        if self.view is not None and not self._dr.get_camera().is_empty():
            # the vertical field of view stays, the horizontal one follows the new aspect
            lens = self._dr.get_camera().node().get_lens()
            hfov = math.degrees(2 * math.atan(math.tan(math.radians(self.view.fov) / 2) * w / h))
            lens.set_fov(hfov, self.view.fov)
            self._update_sky()
        if getattr(self, "_text_root", None) is not None:
            self._text_root.find("**/+Camera").node().get_lens().set_film_size(w, h)

    def ray(self, x: float, y: float) -> tuple[np.ndarray, np.ndarray]:
        """The world ray (origin, unit direction) through pixel (column ``x``, row ``y``, row 0
        at the top) of the picture, for the camera shown (picking)."""
        from tablesim.sim.view.camera import pixel_ray

        if self.view is None:
            raise RuntimeError("show() a layout before asking for rays")
        return pixel_ray(self.view, self.size, x, y)

    def replace_items(self, remove: Sequence[str], add: Sequence[Any]) -> None:
        """Take items ``remove`` (ids) off the table shown and put ``add`` (layout items) on,
        without rebuilding the table, its lights or its camera (the interactive app's ghosts).
        Added items carry no pictures and receive no shadows; ValueError otherwise, KeyError for
        an id not shown, ValueError for an id already shown.

        An item taken off and put back under the same id with the same shape and finish keeps
        its node: it is only moved and recoloured (a ghost following the pointer); shapes
        already drawn once reuse their triangles. On the tiny backend the faked shadows of the
        items that stay put are kept, and only those of the items that moved are drawn again
        (:meth:`render`)."""
        from dataclasses import replace as _replace

        if self._layout is None or self._root is None:
            raise RuntimeError("show() a layout before replacing items")
        missing = [i for i in remove if i not in self._nodes]
        if missing:
            raise KeyError(f"items not shown: {', '.join(missing)}")
        gone = set(remove)
        for it in add:
            if it.faces or it.receives_shadow:
                raise ValueError(f"item {it.id!r}: replace_items takes items without pictures "
                                 "that receive no shadows")  # fmt: skip
            if it.id in self._nodes and it.id not in gone:
                raise ValueError(f"item {it.id!r} is already on the table")
        back = {it.id: it for it in add}
        kept: set[str] = set()
        for rid in remove:
            new = back.get(rid)
            old = self._items[rid]
            if (
                new is not None
                and new.finish == old.finish
                and self._geoms(new)[0] == self._shape[rid]
            ):
                self._restyle(old, new)
                self._items[rid] = new
                kept.add(rid)
                continue
            self._damage.append(_item_box(old))
            self._nodes.pop(rid).remove_node()
            self._parts.pop(rid, None)
            self._shape.pop(rid, None)
            self._items.pop(rid, None)
        for item in add:
            if item.id not in kept:
                self._attach(item, self._root)
                self._items[item.id] = item
                self._damage.append(_item_box(item))
        left = tuple(it for it in self._layout.items if it.id not in gone)
        self._layout = _replace(self._layout, items=left + tuple(add))

    # ------------------------------------------------------------------ poses and frames
    def set_poses(self, poses: Mapping[str, Pose]) -> None:
        """Move items: id -> (position (3,) m, quaternion (4,) x, y, z, w). KeyError names ids
        that are not items of the layout shown."""
        from panda3d.core import LQuaternionf

        if self._layout is None:
            raise RuntimeError("show() a layout before setting poses")
        unknown = sorted(set(poses) - set(self._layout.ids))
        if unknown:
            raise KeyError(
                f"poses for items not on table {self._layout.name!r}: {', '.join(unknown)}"
            )
        for item_id, pose in poses.items():
            old = self._items[item_id]
            moved = old.posed(pose)
            if self.incremental and (moved.position != old.position or moved.quat != old.quat):
                self._damage.extend((_item_box(old), _item_box(moved)))
            self._items[item_id] = moved
            node = self._nodes[item_id]
            node.set_pos(*moved.position)
            x, y, z, w = moved.quat
            node.set_quat(LQuaternionf(w, x, y, z))
        self._shadows_dirty = True
        self._moving = True

    def _caster_keys(self) -> dict[str, tuple[Any, ...]]:
        """id -> (shape token, position, quat) of every item that casts a shadow."""
        return {i: (self._shape.get(i), it.position, it.quat)
                for i, it in self._items.items() if it.casts_shadow}  # fmt: skip

    @staticmethod
    def _drop_decals(decals: list[Any]) -> None:
        for d in decals:
            # free the texture's copy in the renderer and its RAM image: otherwise every old
            # decal stays alive (measured: 8 MB a frame in a film)
            tex = d.get_texture()
            d.remove_node()
            if tex is not None:
                tex.release_all()
                tex.clear_ram_image()
        decals.clear()

    def _update_shadows(self, coarse: int = 1, exclude: frozenset[str] = frozenset()) -> None:
        """Faked shadows (tiny backend): one decal per receiving plane; ``coarse`` texels
        (:data:`MOVING_SHADOW_COARSE` while pieces move, full detail once they stop). The
        casters in ``exclude`` are left to the moving layer (:meth:`_update_layer`)."""
        self._drop_decals(self._decals)
        self._drop_decals(self._layer)
        self._layer_key = frozenset()
        self._static_maps = {}
        keys = self._caster_keys()
        casters = {i: it for i, it in self._items.items() if it.casts_shadow and i not in exclude}
        tris = {i: it.world_triangles() for i, it in casters.items()}
        light = self._light
        for rid, order in self._receivers:
            item = self._items[rid]
            others = [t for i, t in tris.items() if i != rid]
            if not others:
                continue
            tri = np.concatenate(others)
            if rid == "__table__":
                z = 0.0
                pts = tri.reshape(-1, 3)
                lo_c, hi_c = pts.min(axis=0), pts.max(axis=0)
                shift = max(float(hi_c[2]), 0.0) * light[:2] / -light[2]
                margin = 4 * SHADOW_BLUR
                lo = np.minimum(lo_c[:2], lo_c[:2] + shift) - margin
                hi = np.maximum(hi_c[:2], hi_c[:2] + shift) + margin
            else:
                v = item.world_vertices()
                z = float(v[:, 2].max())
                lo, hi = v[:, :2].min(axis=0), v[:, :2].max(axis=0)
            made = shadow_mask(tri, light, z, lo, hi, coarse)
            if made is None:
                continue
            self._static_maps[rid] = (made[0], made[1], np.asarray(lo, float), z)
            decal = _decal(f"shadow-{rid}", made[0], made[1], lo, z, self._hidden_on(rid))
            if decal is None:
                continue
            decal.reparent_to(self._root)
            decal.set_bin("background", order)
            self._decals.append(decal)
        self._baked = {i: k for i, k in keys.items() if i not in exclude}
        self._shadows_dirty = False
        self._whole = True

    def _update_layer(self) -> None:
        """The moving layer of the faked shadows: the casters that are not baked into the
        receivers' decals (a ghost following the pointer) get small decals of their own, on
        the grid of the baked map, whose alpha makes the two together as dark as the darker of
        the two (``1 - (1 - max(s, g)) / (1 - s)``): no doubled darkness where shadows meet.
        A baked caster that moved or left has the baked decals drawn again without the
        casters that changed."""
        keys = self._caster_keys()
        stale = {i for i, k in self._baked.items() if keys.get(i) != k}
        if stale:
            self._update_shadows(
                1, exclude=frozenset((stale | (set(keys) - set(self._baked))) & set(keys))
            )
        moving = {i: k for i, k in keys.items() if i not in self._baked}
        key = frozenset(moving.items())
        if key == self._layer_key:
            return
        self._damage.extend(_bounds_of(d) for d in self._layer)
        self._drop_decals(self._layer)
        self._layer_key = key
        if not moving:
            return
        light = self._light
        tris = {i: self._items[i].world_triangles() for i in moving}
        for rid, order in self._receivers:
            others = [t for i, t in tris.items() if i != rid]
            if others:
                self._layer_decal(rid, order, np.concatenate(others), light)

    def _hidden_on(self, rid: str) -> list[tuple[np.ndarray, np.ndarray]]:
        """The x, y rectangles of the table that boards resting on it hide (none for a
        board's own top)."""
        if rid != "__table__":
            return []
        out = []
        for other, _ in self._receivers:
            if other == rid:
                continue
            v = self._items[other].world_vertices()
            if float(v[:, 2].min()) <= 1e-6:
                out.append((v[:, :2].min(axis=0), v[:, :2].max(axis=0)))
        return out

    def _covers(self, rid: str, lo: np.ndarray, hi: np.ndarray) -> bool:
        """True when receiver ``rid`` (a level board) covers the table's rectangle lo..hi."""
        v = self._items[rid].world_vertices()
        return bool((v[:, :2].min(axis=0) <= lo).all() and (v[:, :2].max(axis=0) >= hi).all())

    def _layer_decal(self, rid: str, order: int, tri: np.ndarray, light: np.ndarray) -> None:
        """One receiver's decal of the moving layer (see :meth:`_update_layer`)."""
        item = self._items[rid]
        if rid == "__table__":
            z, area = 0.0, None
        else:
            v = item.world_vertices()
            z = float(v[:, 2].max())
            area = (v[:, :2].min(axis=0), v[:, :2].max(axis=0))
        tri = tri[(tri[..., 2] >= z - 1e-6).all(axis=1)]
        if len(tri) == 0:
            return
        pts = tri.reshape(-1, 3)
        flat = pts[:, :2] + ((pts[:, 2] - z) / -light[2])[:, None] * light[:2]
        margin = 4 * SHADOW_BLUR
        lo, hi = flat.min(axis=0) - margin, flat.max(axis=0) + margin
        if area is not None:
            lo, hi = np.maximum(lo, area[0]), np.minimum(hi, area[1])
            if (hi <= lo).any():
                return
        else:
            for other, _ in self._receivers:
                # a board lying on the table hides the table's shadow under it: not drawn
                if other != rid and self._covers(other, lo, hi):
                    return
        static = self._static_maps.get(rid)
        if static is not None:
            texel, origin = static[1], static[2]
        else:
            texel = SHADOW_TEXEL
            origin = area[0] if area is not None else np.zeros(2)
        # the layer's texels are 2 x 2 baked texels (the shadow is blurred over 1.6 mm, far
        # wider than both): a quarter of the work, on the baked grid (even texel indices)
        i0 = 2 * np.floor((lo - origin) / texel / 2).astype(int)
        n = np.ceil((hi - origin) / texel / 2).astype(int) - i0 // 2
        w, h = (1 << max(1, math.ceil(math.log2(max(int(k), 2)))) for k in n)
        if max(w, h) > LAYER_MAX_TEXELS:
            # a long shadow (a piece held high): draw the moving items into the baked decals
            self._update_shadows(MOVING_SHADOW_COARSE)
            return
        sub_lo = origin + i0 * texel
        coarse = 2 * texel
        g = grid_mask(tri, light, z, sub_lo, coarse, (w, h))
        if g is None:
            return
        s = np.zeros((h, w), dtype=np.uint8)
        if static is not None:
            # the darkest baked texel of each 2 x 2 block
            sa = static[0]
            fine = np.zeros((2 * h, 2 * w), dtype=np.uint8)
            y0, x0 = max(0, i0[1]), max(0, i0[0])
            y1, x1 = min(sa.shape[0], i0[1] + 2 * h), min(sa.shape[1], i0[0] + 2 * w)
            if y1 > y0 and x1 > x0:
                fine[y0 - i0[1] : y1 - i0[1], x0 - i0[0] : x1 - i0[0]] = sa[y0:y1, x0:x1]
                s = np.maximum(np.maximum(fine[0::2, 0::2], fine[0::2, 1::2]),
                               np.maximum(fine[1::2, 0::2], fine[1::2, 1::2]))  # fmt: skip
        if area is not None:
            # nothing past the receiver's top face
            cx = sub_lo[0] + (np.arange(w) + 0.5) * coarse
            cy = sub_lo[1] + (np.arange(h) + 0.5) * coarse
            g[(cy < area[0][1]) | (cy > area[1][1]), :] = 0
            g[:, (cx < area[0][0]) | (cx > area[1][0])] = 0
        alpha = _over_baked()[s, g]
        if not alpha.any():
            return
        decal = _decal(f"shadow-moving-{rid}", alpha, coarse, sub_lo, z, self._hidden_on(rid))
        if decal is None:
            return
        decal.reparent_to(self._root)
        decal.set_bin("background", order + 1)
        self._layer.append(decal)
        self._damage.append(_bounds_of(decal))

    def render(self) -> np.ndarray | None:
        """Draw one frame: (H, W, 3) uint8, row 0 at the top; None for a window (or with
        :attr:`readback` off)."""
        if self._closed:
            raise RuntimeError("this renderer is closed")
        if self._layout is None:
            raise RuntimeError("show() a layout before rendering")
        if self.backend == "tiny":
            # a frame with new poses gets quick coarse shadows; the first frame without a
            # change redraws them in full (a still picture always has the full shadows)
            moving = self.coarse_motion and self._moving
            if self._shadows_dirty or (not moving and self._coarse):
                self._update_shadows(MOVING_SHADOW_COARSE if moving else 1)
                self._coarse = moving
            else:
                self._update_layer()
            self._moving = False
        plan = self._plan()
        self.last_rects = plan if isinstance(plan, tuple) else ()  # type: ignore[assignment]
        if plan == "skip":
            self.stats["skipped"] += 1
            if self.window:
                self._idle_frame()
                return None
            if not self.readback:
                return None
            return self._last.copy()  # type: ignore[union-attr]  # _plan checked it
        self._frames += 1
        if self._frames % 32 == 0:  # nobody else collects Panda3D's state cache (no ShowBase)
            collect_state_garbage()
        if plan == "whole":
            self.stats["full"] += 1
            self._engine.render_frame()
        else:
            self.stats["rect"] += 1
            self._draw_rects(plan)  # type: ignore[arg-type]
        if self.window or not self.readback:
            self._last = None
            return None
        pixels = self._read_back()
        self._last = pixels if self.incremental else None
        return pixels.copy() if self.incremental else pixels

    def _idle_frame(self) -> None:
        """A window's frame with nothing to draw: the engine still runs, with every display
        region off and no clear, because it is the engine's frame that reads the window's
        events (keys, pointer, resizes) from the X server; the picture stays as it is."""
        self._render_keeping([d for d in self._buf.get_display_regions() if d.is_active()], [])

    def _render_keeping(self, off: Sequence[Any], on: Sequence[Any]) -> None:
        """One engine frame that keeps the frame buffer (no whole-output clear) with display
        regions ``off`` turned off and ``on`` turned on for it only."""
        for d in off:
            d.set_active(False)
        for d in on:
            d.set_active(True)
        self._buf.set_clear_color_active(False)
        try:
            self._engine.render_frame()
        finally:
            self._buf.set_clear_color_active(True)
            for d in on:
                d.set_active(False)
            for d in off:
                d.set_active(True)

    def invalidate(self) -> None:
        """Draw the whole picture at the next :meth:`render` (incremental mode: after the
        window was uncovered, or when a caller wants a frame drawn from scratch)."""
        self._whole = True

    def _plan(self) -> str | tuple[int, int, int, int]:
        """What the next frame draws: ``"whole"``, ``"skip"`` (incremental, nothing changed)
        or a rectangle (x0, x1, y0, y1) of buffer pixels, row 0 at the top, holding the
        screen bounds of everything that changed (incremental mode, tiny backend).

        A rectangle needs every changed box in front of the camera (its corners projected)
        and all of them together covering at most :data:`RECT_MAX_AREA` of the picture."""
        damage, self._damage = self._damage, []
        flat, self._damage_px = self._damage_px, []
        whole, self._whole = self._whole, False
        if not self.incremental or self.backend != "tiny" or whole or self.view is None:
            return "whole"
        if not damage and not flat:
            if self.window or not self.readback or self._last is not None:
                return "skip"
            return "whole"
        if not (self.window or not self.readback or self._last is not None):
            return "whole"  # the last frame was not read back: nothing to keep
        boxes = np.asarray(damage, dtype=float).reshape(-1, 2, 3)  # (K, 2, 3)
        corners = np.stack([boxes[:, [i, j, k], [0, 1, 2]]
                            for i in (0, 1) for j in (0, 1) for k in (0, 1)], axis=1)  # fmt: skip
        pts = corners.reshape(-1, 3)
        depth = (pts - np.asarray(self.view.pos, float)) @ np.asarray(self.view.forward, float)
        if (depth <= 2 * NEAR).any():
            return "whole"
        px = self.view.project(pts, self.size) * self.supersample
        if not np.isfinite(px).all():
            return "whole"
        if flat:
            r = np.asarray(flat, dtype=float)
            px = np.concatenate([px, r[:, [0, 2]], r[:, [1, 3]]])
        big_w, big_h = (v * self.supersample for v in self.size)
        m = RECT_MARGIN * self.supersample
        groups = [px[: len(pts)]] if len(pts) else []
        groups += [np.asarray([[r[0], r[2]], [r[1], r[3]]], float) for r in flat]
        rects: list[list[int]] = []
        for g in groups:
            x0 = max(0, int(math.floor(g[:, 0].min())) - m)
            x1 = min(big_w, int(math.ceil(g[:, 0].max())) + m)
            y0 = max(0, int(math.floor(g[:, 1].min())) - m)
            y1 = min(big_h, int(math.ceil(g[:, 1].max())) + m)
            if x1 - x0 >= 2 and y1 - y0 >= 2:
                rects.append([x0, x1, y0, y1])
        rects = _merge_rects(rects)
        if not rects:
            return "skip"
        if sum((r[1] - r[0]) * (r[3] - r[2]) for r in rects) > RECT_MAX_AREA * big_w * big_h:
            return "whole"
        return tuple(tuple(r) for r in rects)  # type: ignore[return-value]

    def _draw_rects(self, rects: Sequence[tuple[int, int, int, int]]) -> None:
        """Draw only ``rects`` (each x0, x1, y0, y1 buffer pixels, row 0 at the top; apart)
        in one frame: each gets display regions of its own (sky, table, text, at the sorts of
        the whole picture's) narrowed to it, whose cameras are children of the whole
        picture's cameras with a lens that keeps every point on its pixel (:func:`_sub_lens`).
        The frame buffer outside keeps the last frame (tiny keeps its frame buffer between
        frames; the whole-output clear is off for this frame; each rectangle's table region
        clears its own depth). Inside, the rasteriser starts its spans at the rectangle's edge
        instead of the triangle's, so texture samples there can land one texel apart from
        the whole frame's (``docs/performance.md``)."""
        from panda3d.core import Camera

        big = tuple(v * self.supersample for v in self.size)
        mains = [self._dr_sky, self._dr, self._dr_text]
        live = [d is not None and d.is_active() and not d.get_camera().is_empty() for d in mains]
        while len(self._rect_drs) < len(rects):
            slot = []
            for kind in ("sky", "table", "text"):
                sub = self._buf.make_display_region()
                sub.set_sort(0 if kind == "sky" else 1 if kind == "table" else 2)
                sub.set_clear_depth_active(kind == "table")
                sub.set_active(False)
                slot.append((sub, _node_path(Camera(f"rect-{kind}"))))
            self._rect_drs.append(slot)
        used = []
        for rect, slot in zip(rects, self._rect_drs, strict=False):
            x0, x1, y0, y1 = rect
            dims = (x0 / big[0], x1 / big[0], 1 - y1 / big[1], 1 - y0 / big[1])
            for (sub, cam), dr, on in zip(slot, mains, live, strict=True):
                if not on:
                    continue
                main_cam = dr.get_camera()
                cam.reparent_to(main_cam)
                cam.node().set_lens(_sub_lens(main_cam.node().get_lens(), big, rect))  # type: ignore[arg-type]
                sub.set_camera(cam)
                sub.set_dimensions(*dims)
                used.append(sub)
        self._render_keeping([d for d, on in zip(mains, live, strict=True) if on], used)

    def _read_back(self) -> np.ndarray:
        """The frame drawn, (H, W, 3) uint8, row 0 at the top (downscaled when supersampled)."""
        from PIL import Image

        tex = self._buf.get_screenshot()
        if tex is None:
            raise RuntimeError("Panda3D returned no screenshot")
        tw, th = tex.get_x_size(), tex.get_y_size()
        w, h = (v * self.supersample for v in self.size)
        pixels = _rgb_rows(tex, tw, th)[:h, :w]
        if self.supersample > 1:
            img = Image.fromarray(pixels, "RGB").resize(self.size, Image.Resampling.BOX)
            pixels = np.asarray(img)
        return pixels
