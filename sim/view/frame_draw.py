"""Drawing and reading back frames (:class:`FrameDrawer`): what the next frame draws (the whole
picture, nothing, or only rectangles round what changed: the tiny backend's incremental mode),
drawing rectangles in display regions of their own, a window's idle frame, and the read-back
of the picture as an (H, W, 3) uint8 array (box-filtered when supersampled).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tablesim.sim.view.camera import NEAR
from tablesim.sim.view.panda_nodes import _merge_rects, _node_path, _rgb_rows, _sub_lens

if TYPE_CHECKING:
    from tablesim.sim.view.renderer import Renderer

RECT_MAX_AREA = 0.5
"""Incremental drawing: the largest share of the picture a change may cover and still be
drawn as a rectangle of its own; past it the whole picture is drawn."""


RECT_MARGIN = 2
"""Pixels added round the screen bounds of what changed (rounding of edges and filters)."""


class FrameDrawer:
    """Frames of one renderer ``r``: its damage (world boxes and text rectangles changed since
    the last frame) decides what is drawn."""

    def __init__(self, r: Renderer) -> None:
        self.r: Renderer = weakref.proxy(r)  # no cycle: a closed renderer is freed at once
        self._rect_drs: list[list[tuple[Any, Any]]] = []  # display regions of rectangles

    def plan(self) -> str | tuple[int, int, int, int]:
        """What the next frame draws: ``"whole"``, ``"skip"`` (incremental, nothing changed)
        or a rectangle (x0, x1, y0, y1) of buffer pixels, row 0 at the top, holding the
        screen bounds of everything that changed (incremental mode, tiny backend).

        A rectangle needs every changed box in front of the camera (its corners projected)
        and all of them together covering at most :data:`RECT_MAX_AREA` of the picture."""
        damage, self.r._damage = self.r._damage, []
        flat, self.r._damage_px = self.r._damage_px, []
        whole, self.r._whole = self.r._whole, False
        if not self.r.incremental or self.r.backend != "tiny" or whole or self.r.view is None:
            return "whole"
        if not damage and not flat:
            if self.r.window or not self.r.readback or self.r._last is not None:
                return "skip"
            return "whole"
        if not (self.r.window or not self.r.readback or self.r._last is not None):
            return "whole"  # the last frame was not read back: nothing to keep
        boxes = np.asarray(damage, dtype=float).reshape(-1, 2, 3)  # (K, 2, 3)
        corners = np.stack([boxes[:, [i, j, k], [0, 1, 2]]
                            for i in (0, 1) for j in (0, 1) for k in (0, 1)], axis=1)  # fmt: skip
        pts = corners.reshape(-1, 3)
        depth = (pts - np.asarray(self.r.view.pos, float)) @ np.asarray(self.r.view.forward, float)
        if (depth <= 2 * NEAR).any():
            return "whole"
        px = self.r.view.project(pts, self.r.size) * self.r.supersample
        if not np.isfinite(px).all():
            return "whole"
        if flat:
            r = np.asarray(flat, dtype=float)
            px = np.concatenate([px, r[:, [0, 2]], r[:, [1, 3]]])
        big_w, big_h = (v * self.r.supersample for v in self.r.size)
        m = RECT_MARGIN * self.r.supersample
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

    def draw_rects(self, rects: Sequence[tuple[int, int, int, int]]) -> None:
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

        big = tuple(v * self.r.supersample for v in self.r.size)
        mains = [self.r._dr_sky, self.r._dr, self.r.text._dr_text]
        live = [d is not None and d.is_active() and not d.get_camera().is_empty() for d in mains]
        while len(self._rect_drs) < len(rects):
            slot = []
            for kind in ("sky", "table", "text"):
                sub = self.r._buf.make_display_region()
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
        self.render_keeping([d for d, on in zip(mains, live, strict=True) if on], used)

    def render_keeping(self, off: Sequence[Any], on: Sequence[Any]) -> None:
        """One engine frame that keeps the frame buffer (no whole-output clear) with display
        regions ``off`` turned off and ``on`` turned on for it only."""
        for d in off:
            d.set_active(False)
        for d in on:
            d.set_active(True)
        self.r._buf.set_clear_color_active(False)
        try:
            self.r._engine.render_frame()
        finally:
            self.r._buf.set_clear_color_active(True)
            for d in on:
                d.set_active(False)
            for d in off:
                d.set_active(True)

    def idle_frame(self) -> None:
        """A window's frame with nothing to draw: the engine still runs, because it is the
        engine's frame that reads the window's events (keys, buttons, resizes) from the X
        server, but with the window inactive for it, so it neither draws nor flips: the
        picture stays as it is on the screen. Flipped, the tiny backend would send its whole
        frame buffer to the X server every frame (2 MB at 960x540): measured under Xvfb, 0.8
        ms of the idle window's CPU and 0.7 ms of the X server's a frame, and the X server
        answering everyone late (``docs/performance.md``). (``GraphicsEngine.open_windows``
        does not read key events: not a substitute.)"""
        self.r._buf.set_active(False)
        try:
            self.r._engine.render_frame()
        finally:
            self.r._buf.set_active(True)

    def read_back(self) -> np.ndarray:
        """The frame drawn, (H, W, 3) uint8, row 0 at the top (downscaled when supersampled)."""
        from PIL import Image

        tex = self.r._buf.get_screenshot()
        if tex is None:
            raise RuntimeError("Panda3D returned no screenshot")
        tw, th = tex.get_x_size(), tex.get_y_size()
        w, h = (v * self.r.supersample for v in self.r.size)
        pixels = _rgb_rows(tex, tw, th)[:h, :w]
        if self.r.supersample > 1:
            img = Image.fromarray(pixels, "RGB").resize(self.r.size, Image.Resampling.BOX)
            pixels = np.asarray(img)
        return pixels
