"""The 3D construction's home view frames the box to be built, not only the empty table
(issue 32: a tall tower's top was cut off at the top of the picture). Expected from geometry:
the eight corners of the box (the target's cells' bounds at full height, on the board drawn)
project inside the picture, at the start and after ``home``. Offscreen (tiny backend)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("panda3d.core")

from tablesim.sim.view.harness import Harness  # noqa: E402


def _box_corners(app) -> tuple[np.ndarray, tuple[int, ...]]:  # noqa: ANN001
    from tablesim.sim.slices.katamino.drawing import _edge, board_origin

    c = app.controller
    cells = np.asarray(c.family().stage_target(app.state).cells)
    lo, hi = cells.min(axis=0), cells.max(axis=0) + 1
    corners = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                        for z in (lo[2], hi[2])], float)  # fmt: skip
    return board_origin(c.table()) + corners * _edge(), tuple(int(v) for v in hi - lo)


@pytest.mark.parametrize("seed", [3, 5, 0])  # boxes 2x2x7, 2x2x6, 3x2x3
def test_the_home_view_frames_the_whole_box_to_build(seed: int) -> None:
    with Harness("katamino", options={"mode": "construction"}, players=("human",), seed=seed,
                 size=(960, 540), backend="tiny") as h:  # fmt: skip
        corners, dims = _box_corners(h.app)
        for when in ("start", "home"):
            if when == "home":
                h.key("arrow_up", "arrow_up", "+", "+")  # look elsewhere, then come home
                h.key("home")
                h.frame()
            px = h.app.renderer.view.project(corners, h.app.size)
            w, ht = h.app.size
            assert (px[:, 0] >= 0).all() and (px[:, 0] <= w).all(), (when, dims, px)
            assert (px[:, 1] >= 0).all() and (px[:, 1] <= ht).all(), (when, dims, px)
