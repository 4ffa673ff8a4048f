"""The interactive app draws only what changed (``Renderer.incremental``, tiny backend).

A frame in which nothing changed is not drawn again; a ghost following the pointer (and the
move line's text) is drawn in screen rectangles of its own, the rest of the frame buffer kept.
These tests drive the real app offscreen and compare its frames with the same table drawn from
scratch (``Renderer.invalidate``), with the golden frames' tolerances. Expected places come from
the rules (the Kozo board is 3 x 3 cube edges with the chimney on 1..2 x 1..2; domino 2a
turned twice lies along x).
"""

from __future__ import annotations

import numpy as np
import pytest

from tablesim.sim.slices.common.towers import LEGAL
from tablesim.sim.view.harness import Harness
from tests.test_view_frame_caches import _grid, _is
from tests.test_view_golden import FRACTION_TOL, MEAN_TOL, PIXEL_TOL

pytest.importorskip("panda3d.core")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _close(a: np.ndarray, b: np.ndarray) -> bool:
    diff = np.abs(a.astype(int) - b.astype(int))
    return bool(diff.mean() <= MEAN_TOL and (diff.max(axis=-1) > PIXEL_TOL).mean() <= FRACTION_TOL)


def _at(frame: np.ndarray, h: Harness, point: np.ndarray) -> np.ndarray:
    view = h.app.renderer.view
    col, row = view.project(np.asarray([point], float), h.app.size)[0]
    return frame[int(round(row)), int(round(col))].astype(int)


def test_an_unchanged_frame_is_not_drawn_again_and_a_key_is_drawn_at_once() -> None:
    with Harness("kozo", options={"table": "stand-in"}, seed=5, size=(480, 270)) as h:
        r = h.app.renderer
        first = h.app.frame()
        before = dict(r.stats)
        again = h.app.frame()
        assert r.stats == {**before, "skipped": before["skipped"] + 1}
        assert np.array_equal(first, again)
        h.app.key("f1")  # the help opens: new words, drawn in the very next frame
        helped = h.app.frame()
        assert r.stats["skipped"] == before["skipped"] + 1  # this one was drawn
        assert not _close(helped, first)
        r.invalidate()
        assert _close(h.app.frame(), helped)  # as the help drawn from scratch


def test_a_ghost_move_is_drawn_at_once_in_its_rectangles_as_a_whole_frame_would_be() -> None:
    with Harness("kozo", options={"table": "stand-in"}, seed=5, size=(480, 270)) as h:
        r = h.app.renderer
        assert h.click_item("supply-2a")
        h.key("r", "r")  # r2: along x
        h.hover_world(_grid(h, 1.0, 0.5, 0.0))  # footprint 0..2 x 0..1: legal
        old = h.app.frame()
        top_a, top_b = _grid(h, 0.5, 0.5, 1.0), _grid(h, 0.5, 2.5, 1.0)
        assert _is(_at(old, h, top_a), LEGAL) and not _is(_at(old, h, top_b), LEGAL)
        whole_before = r.stats["full"]

        h.hover_world(_grid(h, 1.0, 2.5, 0.0))  # footprint 0..2 x 2..3: legal too
        rects = r.last_rects
        moved = h.app.frame()
        assert rects and r.stats["full"] == whole_before  # drawn as rectangles, not whole
        assert _is(_at(moved, h, top_b), LEGAL)  # the ghost at once at its new place
        assert not _is(_at(moved, h, top_a), LEGAL)  # and nothing left at the old one

        r.invalidate()
        whole = h.app.frame()
        assert r.stats["full"] == whole_before + 1
        outside = np.ones(whole.shape[:2], dtype=bool)
        for x0, x1, y0, y1 in rects:
            outside[y0:y1, x0:x1] = False
        assert outside.any() and np.array_equal(moved[outside], whole[outside])
        assert _close(moved, whole)
        # and the comparison can fail: the frame before the move is not that table
        assert not _close(old, whole)


def test_sub_lens_puts_points_on_the_pixels_of_the_whole_lens() -> None:
    from panda3d.core import LPoint2f, LPoint3f, PerspectiveLens

    from tablesim.sim.view.panda_nodes import _sub_lens

    big = (960, 540)
    full = PerspectiveLens()
    full.set_fov(70, 42)
    rect = (300, 520, 150, 330)
    sub = _sub_lens(full, big, rect)

    def pixel(
        lens: PerspectiveLens, p: LPoint3f, size: tuple[int, int], x0: int, y0: int
    ) -> tuple[float, float]:
        film = LPoint2f()
        assert lens.project(p, film)
        # p3tinydisplay's viewport: m + (n - 0.5) / 2 (1 + x), rows downwards with -y
        w, h = size
        return (x0 + (w - 0.5) / 2 * (1 + film[0]), y0 + (h - 0.5) / 2 * (1 - film[1]))

    x0, x1, y0, y1 = rect
    tan_h, tan_v = np.tan(np.radians(35.0)), np.tan(np.radians(21.0))
    for col, row, depth in ((310.2, 160.7, 1.0), (410.0, 240.0, 0.6), (515.5, 325.1, 2.0)):
        # the point seen at that pixel centre of the whole picture (ndc from the pixel)
        nx, ny = 2 * col / big[0] - 1, 1 - 2 * row / big[1]
        p = LPoint3f(nx * tan_h * depth, depth, ny * tan_v * depth)
        whole = pixel(full, p, big, 0, 0)
        part = pixel(sub, p, (x1 - x0, y1 - y0), x0, y0)
        assert part == pytest.approx(whole, abs=1e-3)


def test_orbiting_moves_the_camera_without_building_the_table_again() -> None:
    from tests.test_view_frame_caches import _counting_shows

    with Harness("kozo", options={"table": "stand-in"}, seed=5, size=(480, 270)) as h:
        before = h.app.frame()
        shows = _counting_shows(h)
        h.app.key("arrow_left")  # orbit 10 degrees
        h.app.frame()  # while the camera moves the faked shadows are coarse
        turned = h.app.frame()  # the camera stopped: full shadows
        assert shows == []  # the camera moved, the table was not built again
        assert not _close(turned, before)  # and the picture did turn
        h.app._shown_key = None  # the same table built from scratch with that camera
        h.app._dirty = True
        built = h.app.frame()
        assert shows == [1]
        assert _close(turned, built)
