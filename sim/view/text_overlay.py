"""Text over the picture (:class:`TextOverlay`): the interactive app's status, prompts and
help, white on a dark card in the corners, in a 2-D display region above the table.

A corner whose words did not change keeps its node; every change adds the screen rectangles
of the old and new cards to the renderer's damage (incremental drawing redraws only those).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tablesim.sim.view.renderer import Renderer


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


class TextOverlay:
    """The on-screen text of one renderer ``r`` (its output, size and supersampling)."""

    def __init__(self, r: Renderer) -> None:
        self.r: Renderer = weakref.proxy(r)  # no cycle: a closed renderer is freed at once
        self._text_root: Any = None
        self._text_shown: dict[str, tuple[tuple[Any, ...], Any]] = {}
        self._dr_text: Any = None

    def set_text(self, blocks: Mapping[str, str], *, scale: float = 15.0) -> None:
        """Text drawn over the picture (the interactive app's help, score, verdict): corner
        (``top-left``, ``top-right``, ``bottom-left``, ``bottom-right``) -> text (lines split
        at newlines), ``scale`` in pixels per line; an empty mapping clears it."""
        from panda3d.core import Camera, NodePath, OrthographicLens

        corners = ("top-left", "top-right", "bottom-left", "bottom-right")
        bad = sorted(set(blocks) - set(corners))
        if bad:
            raise ValueError(f"text corners {bad} (allowed: {', '.join(corners)})")
        if self._text_root is None:
            w, h = (v * self.r.supersample for v in self.r.size)
            self._text_root = NodePath("text-root")
            self._text_root.set_depth_test(False)
            self._text_root.set_depth_write(False)
            lens = OrthographicLens()
            lens.set_film_size(w, h)
            lens.set_near_far(-10, 10)
            dr = self.r._buf.make_display_region()
            dr.set_sort(2)
            dr.set_camera(self._text_root.attach_new_node(Camera("text-cam", lens)))
            self._dr_text = dr
        root = self._text_root
        w, h = (v * self.r.supersample for v in self.r.size)
        px = scale * self.r.supersample
        shown = self._text_shown
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
                self.r._damage_px.append(self._text_rect(old[1]))
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
            self.r._damage_px.append(self._text_rect(tnp))
        for _, tnp in shown.values():  # corners no longer written
            self.r._damage_px.append(self._text_rect(tnp))
            tnp.remove_node()

    def text_box(
        self, corner: str, text: str, *, scale: float = 15.0
    ) -> tuple[float, float, float, float]:
        """(x0, x1, y0, y1) picture pixels, row 0 at the top, that :meth:`set_text` would cover
        with ``text`` in ``corner`` (its card included), without drawing anything."""
        w, h = (v * self.r.supersample for v in self.r.size)
        x0, x1, y0, y1 = self._text_rect(_text_node(corner, text, w, h, scale * self.r.supersample))
        s = self.r.supersample
        return (x0 / s, x1 / s, y0 / s, y1 / s)

    def _text_rect(self, tnp: Any) -> tuple[float, float, float, float]:
        """(x0, x1, y0, y1) buffer pixels, row 0 at the top, of a text node and its card."""
        w, h = (v * self.r.supersample for v in self.r.size)
        lo, hi = tnp.get_tight_bounds()
        return (lo[0] + w / 2, hi[0] + w / 2, h / 2 - hi[2], h / 2 - lo[2])

    def resize(self, w: int, h: int) -> None:
        """The output is now ``w`` x ``h`` buffer pixels: the text's lens follows."""
        if self._text_root is not None:
            self._text_root.find("**/+Camera").node().get_lens().set_film_size(w, h)

    def close(self) -> None:
        """Free the text's scene graph."""
        if self._text_root is not None:
            self._text_root.remove_node()
