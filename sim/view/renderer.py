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
- an ambient, a key and a fill light; a sky gradient behind the table (and, with
  :attr:`Renderer.floor`, a grey floor under it fading into the sky at the horizon);
- the table top, the faked shadows' area and the gl shadow camera follow a
  :class:`~tablesim.sim.view.table_extent.TableExtent`: the one :meth:`Renderer.show` is
  given (the interactive apps fix one per table), else that of the layout shown;
- shadows: the gl backend turns on Panda3D's shader generator and a 2048^2 shadow map on the key
  light; the tiny backend has no shaders and fakes soft shadows (:mod:`tablesim.sim.view.shadows`);
- ``supersample`` renders at that many times the size and downscales (box filter) for smooth
  edges, since multisampling has no effect on screenshots.

The renderer only reads layouts and poses; it never changes a game state or a world.

The class is a thin composition; its collaborators, each in a module of its own, share its
output, items and camera:

- :class:`~tablesim.sim.view.scene_nodes.NodeBuilder` (``builder``): the items' nodes, triangles
  cached by shape, materials and textures;
- :class:`~tablesim.sim.view.lights.Lights` (``lights``): ambient, key and fill lights, the gl
  shadow map, the sky turned off when the table covers the picture;
- :class:`~tablesim.sim.view.shadow_decals.FakeShadows` (``shadows``): the tiny backend's
  shadow decals, baked and moving;
- :class:`~tablesim.sim.view.text_overlay.TextOverlay` (``text``): the text in the corners;
- :class:`~tablesim.sim.view.frame_draw.FrameDrawer` (``drawer``): what each frame draws (whole,
  nothing, rectangles round what changed) and the read-back;
- :mod:`tablesim.sim.view.panda_nodes`: the stateless Panda3D helpers they share.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tablesim.sim.view.art import wood_color
from tablesim.sim.view.backend import BackendUnavailableError, make_pipe
from tablesim.sim.view.camera import NEAR, CameraView, camera_for_scene
from tablesim.sim.view.frame_draw import FrameDrawer
from tablesim.sim.view.layout import Pose, TableLayout
from tablesim.sim.view.lights import Lights
from tablesim.sim.view.panda_nodes import (
    FLOOR_HALF,
    SKY_BOTTOM,
    SKY_TOP,
    _check_size,
    _floor,
    _frame_buffer,
    _item_box,
    _sky,
    collect_state_garbage,
)
from tablesim.sim.view.scene_nodes import NodeBuilder
from tablesim.sim.view.shadow_decals import MOVING_SHADOW_COARSE, FakeShadows
from tablesim.sim.view.shadows import light_direction
from tablesim.sim.view.table_extent import TableExtent, table_extent
from tablesim.sim.view.text_overlay import TextOverlay

__all__ = ["SKY_BOTTOM", "SKY_TOP", "TABLE_COLOR", "Renderer", "collect_state_garbage"]

TABLE_COLOR: tuple[int, int, int] = (182, 132, 90)
"""Mean colour of the wooden table top before lighting."""
SOFTWARE_GL: tuple[str, ...] = ("llvmpipe", "softpipe", "swrast", "software rasterizer")
"""OpenGL renderer names (lower case, substrings) of software rasterisers: a window on
``auto`` uses the tiny backend instead."""


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
        picture (a ghost and its shadow) is drawn in that rectangle only
        (:meth:`~tablesim.sim.view.frame_draw.FrameDrawer.draw_rects`), the rest of the frame
        buffer staying as it was."""
        self.floor = False
        """Lay the table on a floor (:func:`~tablesim.sim.view.panda_nodes._floor`) from the
        next :meth:`show` on: a neutral grey round the table fading into the sky at the horizon,
        so a camera zoomed out sees the table in a room, not floating in the sky's blue (the
        interactive apps turn it on; pictures and films keep the sky behind the table)."""
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
        self._cover: tuple[np.ndarray, np.ndarray, float] | None = None  # table or floor, z
        self.extent: TableExtent | None = None
        """The extent of the table shown (:meth:`show`)."""
        self._dr = self._buf.make_display_region()
        self._dr.set_sort(1)
        self._dr.set_clear_depth_active(True)
        self._root: Any = None
        self._nodes: dict[str, Any] = {}
        self._parts: dict[str, list[tuple[str, Any]]] = {}
        self._shape: dict[str, int] = {}
        self.builder = NodeBuilder(self)
        """Builds the items' nodes (:mod:`tablesim.sim.view.scene_nodes`)."""
        self.shadows = FakeShadows(self)
        """The tiny backend's faked shadows (:mod:`tablesim.sim.view.shadow_decals`)."""
        self.lights = Lights(self)
        """The lights and the sky (:mod:`tablesim.sim.view.lights`)."""
        self.text = TextOverlay(self)
        """The text over the picture (:mod:`tablesim.sim.view.text_overlay`)."""
        self.drawer = FrameDrawer(self)
        """What each frame draws, and its read-back (:mod:`tablesim.sim.view.frame_draw`)."""
        self._items: dict[str, Any] = {}
        self._receivers: list[tuple[str, int]] = []
        self._light = np.array([0.0, 0.0, -1.0])
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
        self.text.close()
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
        self.shadows = FakeShadows(self)
        collect_state_garbage()

    # ------------------------------------------------------------------ building
    def show(
        self,
        layout: TableLayout,
        camera: Mapping[str, Any] | None = None,
        extent: TableExtent | None = None,
    ) -> CameraView:
        """Build the graph of ``layout`` and place the camera (``camera`` spec, else the
        layout's, else the automatic 3/4 view framing every item). Returns the camera used.

        ``extent`` fixes the table top, the faked shadows' area and the gl shadow camera
        (:mod:`tablesim.sim.view.table_extent`: the interactive apps pass the one they computed
        when they built the table, so nothing grows or shrinks as pieces move); None sizes
        them from ``layout`` (:func:`~tablesim.sim.view.table_extent.table_extent`)."""
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

        ext = extent if extent is not None else table_extent(pts)
        self.extent = ext
        half_table, thickness = ext.half, ext.thickness
        cxy = np.asarray(ext.centre, float)
        self._bounds = (np.asarray(ext.play_lo, float), np.asarray(ext.play_hi, float))

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
        self._receivers = []
        for item in (table, *layout.items):
            receiver = item.id == "__table__" or (item.receives_shadow and item.is_level())
            node = self.builder.attach(item, root, order + 1 if receiver else None)
            if receiver:
                node.set_bin("background", order)
                self._receivers.append((item.id, order + 2))
                order += 10
        self._items = {it.id: it for it in (table, *layout.items)}
        self._half_table = half_table
        self._table_top = (cxy - half_table, cxy + half_table)
        self._cover = (*self._table_top, 0.0)
        if self.floor:
            floor = _floor(*self._table_top, -thickness)
            floor.reparent_to(root)
            floor.set_bin("background", -100)  # before the table and its decals
            reach = max(FLOOR_HALF, 4 * half_table)
            self._cover = (cxy - reach, cxy + reach, -thickness)
        self.lights.add_lights(root)
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
        self.lights.aim_lights()
        cam = self._dr.get_camera()
        lens = cam.node().get_lens()
        hfov = math.degrees(2 * math.atan(math.tan(math.radians(view.fov) / 2) * w / h))
        lens.set_fov(hfov, view.fov)
        cam_dist = float(np.linalg.norm(np.subtract(view.pos, view.look_at)))
        far = cam_dist + 4 * self._half_table + float(np.linalg.norm(view.pos)) + 1.0
        if self.floor:  # the floor's far edge too (it fades into the sky there)
            far = max(far, cam_dist + 1.5 * max(FLOOR_HALF, 4 * self._half_table))
        lens.set_near_far(NEAR, far)
        cam.set_pos(*view.pos)
        cam.look_at(*view.look_at)
        self.lights.update_sky()
        self._shadows_dirty = True
        self._whole = True

    # ------------------------------------------------------------------ on-screen text
    def set_text(self, blocks: Mapping[str, str], *, scale: float = 15.0) -> None:
        """Text drawn over the picture (the interactive app's help, score, verdict): corner
        (``top-left``, ``top-right``, ``bottom-left``, ``bottom-right``) -> text (lines split
        at newlines), ``scale`` in pixels per line; an empty mapping clears it
        (:meth:`tablesim.sim.view.text_overlay.TextOverlay.set_text`)."""
        self.text.set_text(blocks, scale=scale)

    def text_box(
        self, corner: str, text: str, *, scale: float = 15.0
    ) -> tuple[float, float, float, float]:
        """(x0, x1, y0, y1) picture pixels, row 0 at the top, that :meth:`set_text` would cover
        with ``text`` in ``corner`` (its card included), without drawing anything."""
        return self.text.text_box(corner, text, scale=scale)

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
            self.lights.update_sky()
        self.text.resize(w, h)

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
                and self.builder.geoms(new)[0] == self._shape[rid]
            ):
                self.builder.restyle(old, new)
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
                self.builder.attach(item, self._root)
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
        changed = False
        for item_id, pose in poses.items():
            old = self._items[item_id]
            moved = old.posed(pose)
            if moved.position == old.position and moved.quat == old.quat:
                continue  # a piece at rest (a live world sets every pose each frame)
            changed = True
            if self.incremental:
                self._damage.extend((_item_box(old), _item_box(moved)))
            self._items[item_id] = moved
            node = self._nodes[item_id]
            node.set_pos(*moved.position)
            x, y, z, w = moved.quat
            node.set_quat(LQuaternionf(w, x, y, z))
        if changed:  # poses that did not change leave the full shadows (no coarse ones)
            self._shadows_dirty = True
            self._moving = True

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
                self.shadows.update_shadows(MOVING_SHADOW_COARSE if moving else 1)
                self._coarse = moving
            else:
                self.shadows.update_layer()
            self._moving = False
        plan = self.drawer.plan()
        self.last_rects = plan if isinstance(plan, tuple) else ()  # type: ignore[assignment]
        if plan == "skip":
            self.stats["skipped"] += 1
            if self.window:
                self.drawer.idle_frame()
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
            self.drawer.draw_rects(plan)  # type: ignore[arg-type]
        if self.window or not self.readback:
            self._last = None
            return None
        pixels = self.drawer.read_back()
        self._last = pixels if self.incremental else None
        return pixels.copy() if self.incremental else pixels

    def invalidate(self) -> None:
        """Draw the whole picture at the next :meth:`render` (incremental mode: after the
        window was uncovered, or when a caller wants a frame drawn from scratch)."""
        self._whole = True
