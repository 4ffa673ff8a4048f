"""Panda3D building blocks of the table view: sizes, frame buffers, screenshots, textures,
triangle geoms, materials, the sky quad, boxes of items and nodes, the lens of a sub-rectangle
of the picture and the merging of rectangles, and the collection of Panda3D's state cache.

Plain functions, no state: :class:`tablesim.sim.view.renderer.Renderer` and its collaborators
(:mod:`~tablesim.sim.view.scene_nodes`, :mod:`~tablesim.sim.view.shadow_decals`,
:mod:`~tablesim.sim.view.frame_draw`) build their nodes with them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from tablesim.sim.view.layout import Item

SKY_TOP: tuple[int, int, int] = (150, 190, 230)
"""Background colour (sRGB 0-255) at the top edge of the picture."""


SKY_BOTTOM: tuple[int, int, int] = (226, 236, 244)
"""Background colour at the bottom edge (the gradient runs top to bottom behind the table)."""


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


FLOOR_NEAR: tuple[int, int, int] = (112, 110, 106)
"""Colour of the floor round the table (a neutral grey: not wood, not a piece, not sky)."""


FLOOR_HALF = 25.0
"""Half side (m) of the floor under the interactive table: past the farthest zoom (20 m)."""


def _floor(lo: Sequence[float] | np.ndarray, hi: Sequence[float] | np.ndarray, z: float) -> Any:
    """The floor round a table top ``lo``..``hi`` (x, y) at height ``z``: rings of quads out
    to :data:`FLOOR_HALF` from the table's centre, :data:`FLOOR_NEAR` at the table's edge
    fading (with the cube of the log of the distance: grey most of the way) to the sky's
    bottom colour at the far edge, so the horizon melts into the sky. Unlit, drawn before the table without depth (nothing lies
    under it), with a hole where the table top is (p3tinydisplay pays per pixel)."""
    from panda3d.core import (
        Geom,
        GeomNode,
        GeomTriangles,
        GeomVertexData,
        GeomVertexFormat,
        GeomVertexWriter,
        NodePath,
    )

    lo_a, hi_a = np.asarray(lo, float), np.asarray(hi, float)
    centre, half = (lo_a + hi_a) / 2, float((hi_a - lo_a).max()) / 2
    far = max(FLOOR_HALF, 4 * half)
    rings = [half]
    while rings[-1] < far:
        rings.append(min(far, rings[-1] * 2))
    near = np.asarray(FLOOR_NEAR, float) / 255
    sky = np.asarray(SKY_BOTTOM, float) / 255
    vdata = GeomVertexData("floor", GeomVertexFormat.get_v3c4(), Geom.UH_static)
    vw, cw = GeomVertexWriter(vdata, "vertex"), GeomVertexWriter(vdata, "color")
    corners = ((-1, -1), (1, -1), (1, 1), (-1, 1))
    for rad in rings:
        f = (math.log(rad / half) / math.log(far / half)) ** 3 if far > half else 1.0
        c = (1 - f) * near + f * sky
        for sx, sy in corners:
            vw.add_data3(centre[0] + sx * rad, centre[1] + sy * rad, z)
            cw.add_data4(*c, 1.0)
    prim = GeomTriangles(Geom.UH_static)
    for k in range(len(rings) - 1):
        a, b = 4 * k, 4 * (k + 1)
        for j in range(4):
            i0, i1 = a + j, a + (j + 1) % 4
            o0, o1 = b + j, b + (j + 1) % 4
            prim.add_vertices(i0, o0, o1)
            prim.add_vertices(i0, o1, i1)
    geom = Geom(vdata)
    geom.add_primitive(prim)
    node = GeomNode("floor")
    node.add_geom(geom)
    out = NodePath(node)
    out.set_depth_test(False)
    out.set_depth_write(False)
    out.set_light_off()
    out.set_two_sided(True)
    return out


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


def _split_to(v: np.ndarray, f: np.ndarray, max_edge: float) -> tuple[np.ndarray, np.ndarray]:
    """Vertices and faces of a mesh whose triangles are split until no edge is longer than
    ``max_edge`` (m); the mesh as it is when none is.

    Each round bisects every edge longer than ``max_edge`` at one midpoint shared by the faces
    on both sides (a face with one long edge becomes 2 triangles, with two 3 -- the quad cut
    along its shorter diagonal --, with three the regular 4), so a closed surface stays closed:
    no T-junction, no crack a background pixel shows through. This is the algorithm of
    ``trimesh.remesh.subdivide_to_size`` from trimesh 5.0 on (MIT licence), kept here so the
    pictures do not depend on the installed trimesh: trimesh 4.x split every face with a long
    edge into four, leaving T-junctions where a split face meets an unsplit one, and the
    golden frame ``katamino`` differed on the board's and mats' edges (1.04 % of the pixels
    off by more than 40)."""
    vertices = np.array(v, dtype=np.float64)
    faces = np.array(f, dtype=np.int64).reshape((-1, 3))
    for _ in range(11):  # an edge at most 2^10 times max_edge: far past any table's size
        edges = np.sort(faces[:, [0, 1, 1, 2, 2, 0]].reshape((-1, 2)), axis=1)
        unique, inverse = np.unique(edges, axis=0, return_inverse=True)
        lengths = np.sqrt(((vertices[unique[:, 0]] - vertices[unique[:, 1]]) ** 2).sum(axis=1))
        long_edge = lengths > max_edge
        if not long_edge.any():
            return vertices, faces
        midpoint = np.full(len(unique), -1, dtype=np.int64)
        midpoint[long_edge] = np.arange(int(long_edge.sum())) + len(vertices)
        vertices = np.vstack((vertices, vertices[unique[long_edge]].mean(axis=1)))
        face_mid = midpoint[inverse.reshape(-1)].reshape((-1, 3))  # edges (v0v1, v1v2, v2v0)
        split = face_mid >= 0
        count = split.sum(axis=1)
        parts = [faces[count == 0]]
        one = count == 1  # the split edge rotated to (a, b): [a, p, c], [p, b, c]
        j = np.argmax(split[one], axis=1)
        r = np.arange(len(j))
        f1, m1 = faces[one], face_mid[one]
        a, b, c, p = f1[r, j], f1[r, (j + 1) % 3], f1[r, (j + 2) % 3], m1[r, j]
        parts.append(np.column_stack((a, p, c, p, b, c)).reshape((-1, 3)))
        two = count == 2  # the unsplit edge rotated to (c, a): corner [p, b, q] and a quad
        j = (np.argmin(split[two], axis=1) + 1) % 3
        r = np.arange(len(j))
        f2, m2 = faces[two], face_mid[two]
        a, b, c = f2[r, j], f2[r, (j + 1) % 3], f2[r, (j + 2) % 3]
        p, q = m2[r, j], m2[r, (j + 1) % 3]
        use_aq = (
            ((vertices[a] - vertices[q]) ** 2).sum(axis=1)
            <= ((vertices[p] - vertices[c]) ** 2).sum(axis=1)
        )[:, None]
        parts.append(np.column_stack((p, b, q)))
        parts.append(np.where(use_aq, np.column_stack((a, p, q)), np.column_stack((a, p, c))))
        parts.append(np.where(use_aq, np.column_stack((a, q, c)), np.column_stack((p, q, c))))
        v0, v1, v2 = faces[count == 3].T
        e0, e1, e2 = face_mid[count == 3].T
        parts.append(
            np.column_stack((v0, e0, e2, e0, v1, e1, e2, e1, v2, e0, e1, e2)).reshape((-1, 3))
        )
        faces = np.vstack(parts).astype(np.int64)
    raise ValueError(f"an edge over 2^10 times {max_edge} m: not split")


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
