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
  light; the tiny backend has no shaders and fakes soft shadows (:mod:`sim.view.shadows`);
- ``supersample`` renders at that many times the size and downscales (box filter) for smooth
  edges, since multisampling has no effect on screenshots.

The renderer only reads layouts and poses; it never changes a game state or a world.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from sim.view.art import grain_texture, groove_texture, wood_color
from sim.view.backend import BackendUnavailableError, make_pipe
from sim.view.camera import NEAR, CameraView, camera_for_scene
from sim.view.layout import Pose, TableLayout
from sim.view.shadows import SHADOW_BLUR, face_rows, light_direction, shadow_mask

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
        pixels = np.asarray(Image.fromarray(pixels, mode).resize((pw, ph), Image.LANCZOS))
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


def _material(rgb: Sequence[float]) -> Any:
    """A material of ambient and diffuse colour ``rgb`` (0-1).

    Surface colours go through a material, not ``set_color``: p3tinydisplay applies a node's
    flat colour (or colour scale) twice when lighting is on, so 0.5 grey comes out 0.25.
    """
    from panda3d.core import Material

    mat = Material()
    mat.set_ambient((*rgb, 1))
    mat.set_diffuse((*rgb, 1))
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


def _decal(name: str, alpha: np.ndarray, texel: float, lo: np.ndarray, z: float) -> Any:
    """A translucent black quad at height ``z`` from ``lo`` carrying a shadow ``alpha`` map
    (rows bottom-up, as :func:`sim.view.shadows.shadow_mask` returns it)."""
    from panda3d.core import NodePath, SamplerState, Texture, TransparencyAttrib

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
    np_.set_texture(tex)
    np_.set_transparency(TransparencyAttrib.M_alpha)
    np_.set_color(0, 0, 0, 1)
    np_.set_light_off()
    np_.set_depth_test(False)
    np_.set_depth_write(False)
    return np_


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


class Renderer:
    """One Panda3D output drawing a table; see the module docstring.

    Parameters
    ----------
    size:
        (width, height) of the frames in pixels.
    backend:
        ``auto``, ``tiny`` or ``gl`` (:mod:`sim.view.backend`); :attr:`backend` is the one used.
    supersample:
        Render at this many times the size and downscale (1 = off).
    window:
        Open an on-screen window instead of an offscreen buffer (``render_mode="human"``): needs
        the gl backend and an X display; :meth:`render` then returns None.

    Raises ValueError for a bad size or supersample, :class:`BackendUnavailableError` when the
    backend (or a window) cannot run here.
    """

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
        self.window = bool(window)
        if self.window:
            self._buf = self._open_window(backend, title)
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
        self._dr = self._buf.make_display_region()
        self._dr.set_sort(1)
        self._dr.set_clear_depth_active(True)
        self._root: Any = None
        self._nodes: dict[str, Any] = {}
        self._decals: list[Any] = []
        self._layout: TableLayout | None = None
        self.view: CameraView | None = None
        self._shadows_dirty = False
        self._closed = False
        self._frames = 0

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
        self._decals = []
        collect_state_garbage()

    # ------------------------------------------------------------------ building
    def show(self, layout: TableLayout, camera: Mapping[str, Any] | None = None) -> CameraView:
        """Build the graph of ``layout`` and place the camera (``camera`` spec, else the
        layout's, else the automatic 3/4 view framing every item). Returns the camera used."""
        from panda3d.core import Camera, LQuaternionf, NodePath, PerspectiveLens

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

        from sim.view.layout import box_item

        table = box_item(
            "__table__",
            (2 * half_table, 2 * half_table, thickness),
            (cxy[0] - half_table, cxy[1] - half_table, -thickness),
            wood_color(TABLE_COLOR),
            finish="wood",
            casts_shadow=False,
        )
        wood = _texture("wood", grain_texture(), repeat=True)
        groove = _texture("groove", groove_texture(), repeat=False)
        self._wood_tex, self._groove_tex = wood, groove  # for replace_items
        order = 0
        self._receivers: list[tuple[str, int]] = []
        for item in (table, *layout.items):
            groups = face_rows(
                np.asarray(item.mesh.vertices),
                np.asarray(item.mesh.faces),
                finish=item.finish,
                edge=item.edge,
                printed=tuple(item.faces),
            )
            if item.id == "__table__":  # wider planks on the table than on blocks
                groups[""][:, 6:8] *= 0.3 / 0.45
            node = root.attach_new_node(item.id)
            node.set_pos(*item.position)
            x, y, z, qw = item.quat
            node.set_quat(LQuaternionf(qw, x, y, z))
            receiver = item.id == "__table__" or (item.receives_shadow and item.is_level())
            if receiver:
                node.set_bin("background", order)
                order += 10
            for key, rows in groups.items():
                child = node.attach_new_node(_geom_node(f"{item.id}{key}", rows))
                if key:
                    child.set_material(_material((1.0, 1.0, 1.0)))
                    child.set_texture(_texture(f"{item.id}{key}", item.faces[key], repeat=False))
                    if receiver:
                        child.set_bin("background", order - 9)
                elif item.finish == "groove":
                    child.set_material(_material(item.color))
                    child.set_texture(groove)
                elif item.finish == "wood":
                    child.set_material(_material(wood_color(item.color)))
                    child.set_texture(wood)
                else:
                    child.set_material(_material(item.color))
            self._nodes[item.id] = node
            if receiver:
                self._receivers.append((item.id, order - 8))
        self._items = {it.id: it for it in (table, *layout.items)}
        self._add_lights(root, half_table)

        lens = PerspectiveLens()
        hfov = math.degrees(2 * math.atan(math.tan(math.radians(view.fov) / 2) * w / h))
        lens.set_fov(hfov, view.fov)
        cam_dist = float(np.linalg.norm(np.subtract(view.pos, view.look_at)))
        lens.set_near_far(NEAR, cam_dist + 4 * half_table + float(np.linalg.norm(view.pos)) + 1.0)
        cam = root.attach_new_node(Camera("cam", lens))
        cam.set_pos(*view.pos)
        cam.look_at(*view.look_at)
        self._dr.set_camera(cam)
        self._shadows_dirty = True
        if self.backend == "gl":
            # the shadow buffer (and the sky) only appear from the second frame on: draw one now
            self._engine.render_frame()
        return view

    def _add_lights(self, root: Any, half_table: float) -> None:
        from panda3d.core import AmbientLight, DirectionalLight, LVector3f

        light = self._light
        ambient = AmbientLight("ambient")
        ambient.set_color((*_AMBIENT, 1))
        key = DirectionalLight("key")
        key.set_color((*_KEY, 1))
        fill = DirectionalLight("fill")
        fill.set_color((*_FILL, 1))
        fill_dir = -light * np.array([1.0, 1.0, 0.0])  # horizontal: lights the shaded sides only
        fill.set_direction(LVector3f(*(fill_dir / np.linalg.norm(fill_dir))))
        key_np = root.attach_new_node(key)
        if self.backend == "gl":
            # a real shadow map: the light's lens must be placed and sized explicitly (P16)
            lo, hi = self._bounds
            centre = (lo + hi) / 2
            reach = float(np.linalg.norm(hi - lo)) / 2 + 0.02
            key.set_shadow_caster(True, SHADOW_MAP, SHADOW_MAP)
            lens = key.get_lens()
            lens.set_film_size(2.6 * reach, 2.6 * reach)
            lens.set_near_far(0.01, 8 * reach + 0.1)
            key_np.set_pos(*(centre - light * 4 * reach))
            key_np.look_at(*centre)
            root.set_shader_auto()
        else:
            key.set_direction(LVector3f(*light))
        for node in (root.attach_new_node(ambient), key_np, root.attach_new_node(fill)):
            root.set_light(node)

    # ------------------------------------------------------------------ on-screen text
    def set_text(self, blocks: Mapping[str, str], *, scale: float = 15.0) -> None:
        """Text drawn over the picture (the interactive app's help, score, verdict): corner
        (``top-left``, ``top-right``, ``bottom-left``, ``bottom-right``) -> text (lines split
        at newlines), ``scale`` in pixels per line; an empty mapping clears it."""
        from panda3d.core import Camera, NodePath, OrthographicLens, TextNode

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
        root = self._text_root
        for child in root.find_all_matches("=text"):
            child.remove_node()
        w, h = (v * self.supersample for v in self.size)
        px = scale * self.supersample
        for corner, text in blocks.items():
            if not text:
                continue
            node = TextNode(corner)
            node.set_wordwrap(0.48 * w / px)
            node.set_text(text)
            node.set_text_color(1, 1, 1, 1)
            node.set_card_color(0, 0, 0, 0.68)  # white on a dark card: readable on any table
            node.set_card_as_margin(0.4, 0.4, 0.3, 0.3)
            node.set_align(TextNode.A_right if corner.endswith("right") else TextNode.A_left)
            tnp = root.attach_new_node(node)
            tnp.set_tag("text", "1")
            tnp.set_scale(px)
            lines = node.get_num_rows()
            x = w / 2 - px if corner.endswith("right") else -w / 2 + px
            y = h / 2 - 1.4 * px if corner.startswith("top") else -h / 2 + (lines - 0.6) * px
            tnp.set_pos(x, 0, y)
            tnp.set_transparency(True)

    def resize(self, size: Sequence[int]) -> None:
        """Draw at ``size`` (width, height) pixels from now on: an offscreen buffer is resized,
        a window has been (by its user); the camera's lens, the text and :meth:`ray` follow.
        ValueError for a bad size."""
        new = _check_size(size)
        if new == self.size or self._closed:
            return
        self.size = new
        w, h = (v * self.supersample for v in new)
        if not self.window:
            self._buf.set_size(w, h)
        if self.view is not None and not self._dr.get_camera().is_empty():
            # the vertical field of view stays, the horizontal one follows the new aspect
            lens = self._dr.get_camera().node().get_lens()
            hfov = math.degrees(2 * math.atan(math.tan(math.radians(self.view.fov) / 2) * w / h))
            lens.set_fov(hfov, self.view.fov)
        if getattr(self, "_text_root", None) is not None:
            self._text_root.find("**/+Camera").node().get_lens().set_film_size(w, h)

    def ray(self, x: float, y: float) -> tuple[np.ndarray, np.ndarray]:
        """The world ray (origin, unit direction) through pixel (column ``x``, row ``y``, row 0
        at the top) of the picture, for the camera shown (picking)."""
        from sim.view.camera import pixel_ray

        if self.view is None:
            raise RuntimeError("show() a layout before asking for rays")
        return pixel_ray(self.view, self.size, x, y)

    def replace_items(self, remove: Sequence[str], add: Sequence[Any]) -> None:
        """Take items ``remove`` (ids) off the table shown and put ``add`` (layout items) on,
        without rebuilding the table, its lights or its camera (the interactive app's ghosts).
        Added items carry no pictures and receive no shadows; ValueError otherwise, KeyError for
        an id not shown, ValueError for an id already shown."""
        from dataclasses import replace as _replace

        from panda3d.core import LQuaternionf

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
        for rid in remove:
            self._nodes.pop(rid).remove_node()
            self._items.pop(rid, None)
        for item in add:
            groups = face_rows(np.asarray(item.mesh.vertices), np.asarray(item.mesh.faces),
                               finish=item.finish, edge=item.edge, printed=())  # fmt: skip
            node = self._root.attach_new_node(item.id)
            node.set_pos(*item.position)
            x, y, z, qw = item.quat
            node.set_quat(LQuaternionf(qw, x, y, z))
            for key, rows in groups.items():
                child = node.attach_new_node(_geom_node(f"{item.id}{key}", rows))
                if item.finish == "groove":
                    child.set_material(_material(item.color))
                    child.set_texture(self._groove_tex)
                elif item.finish == "wood":
                    child.set_material(_material(wood_color(item.color)))
                    child.set_texture(self._wood_tex)
                else:
                    child.set_material(_material(item.color))
            self._nodes[item.id] = node
            self._items[item.id] = item
        kept = tuple(it for it in self._layout.items if it.id not in gone)
        self._layout = _replace(self._layout, items=kept + tuple(add))
        self._shadows_dirty = True
        self._moving = True  # a ghost following the pointer: quick shadows (coarse_motion)

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
            moved = self._items[item_id].posed(pose)
            self._items[item_id] = moved
            node = self._nodes[item_id]
            node.set_pos(*moved.position)
            x, y, z, w = moved.quat
            node.set_quat(LQuaternionf(w, x, y, z))
        self._shadows_dirty = True
        self._moving = True

    def _update_shadows(self, coarse: int = 1) -> None:
        """Faked shadows (tiny backend): one decal per receiving plane; ``coarse`` texels
        (:data:`MOVING_SHADOW_COARSE` while pieces move, full detail once they stop)."""
        for d in self._decals:
            # free the texture's copy in the renderer and its RAM image: otherwise every old
            # decal stays alive (measured: 8 MB a frame in a film)
            tex = d.get_texture()
            d.remove_node()
            if tex is not None:
                tex.release_all()
                tex.clear_ram_image()
        self._decals = []
        casters = {i: it for i, it in self._items.items() if it.casts_shadow}
        tris = {i: it.world_triangles() for i, it in casters.items()}
        light = self._light
        lo_s, hi_s = self._bounds
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
            decal = _decal(f"shadow-{rid}", made[0], made[1], lo, z)
            decal.reparent_to(self._root)
            decal.set_bin("background", order)
            self._decals.append(decal)
        self._shadows_dirty = False

    def render(self) -> np.ndarray | None:
        """Draw one frame: (H, W, 3) uint8, row 0 at the top; None for a window."""
        from PIL import Image

        if self._closed:
            raise RuntimeError("this renderer is closed")
        if self._layout is None:
            raise RuntimeError("show() a layout before rendering")
        if self.backend == "tiny":
            # a frame with new poses gets quick coarse shadows; the first frame without a
            # change redraws them in full (a still picture always has the full shadows)
            moving = self.coarse_motion and getattr(self, "_moving", False)
            if self._shadows_dirty or (not moving and getattr(self, "_coarse", False)):
                self._update_shadows(MOVING_SHADOW_COARSE if moving else 1)
                self._coarse = moving
            self._moving = False
        self._frames += 1
        if self._frames % 32 == 0:  # nobody else collects Panda3D's state cache (no ShowBase)
            collect_state_garbage()
        self._engine.render_frame()
        if self.window:
            return None
        tex = self._buf.get_screenshot()
        if tex is None:
            raise RuntimeError("Panda3D returned no screenshot")
        data = np.frombuffer(bytes(tex.get_ram_image_as("RGB")), dtype=np.uint8)
        tw, th = tex.get_x_size(), tex.get_y_size()
        # Panda3D images are stored bottom row first (pitfall: the picture comes out upside down)
        w, h = (v * self.supersample for v in self.size)
        pixels = np.ascontiguousarray(data.reshape(th, tw, 3)[::-1][:h, :w])
        if self.supersample > 1:
            img = Image.fromarray(pixels, "RGB").resize(self.size, Image.BOX)
            pixels = np.asarray(img)
        return pixels
