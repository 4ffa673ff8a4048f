"""A translucent item (the ghost of a held piece) lets what lies behind it show through.

Expected values from alpha blending, not from the renderer: where a ghost of opacity ``a``
covers a red block, the pixel is ``a * ghost + (1 - a) * block``, with ``ghost`` the same ghost
drawn opaque and ``block`` the picture without the ghost (same camera, same lighting).
"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("panda3d.core")

from tablesim.sim.view.layout import Item, LayoutError, TableLayout, box_item  # noqa: E402
from tablesim.sim.view.renderer import Renderer  # noqa: E402

TOP = {"yaw": 0.0, "pitch": -89.0, "target": (0.0, 0.0, 0.02), "distance": 0.5}
BLOCK = box_item("block", (0.04, 0.04, 0.04), (-0.02, -0.02, 0.0), (0.85, 0.1, 0.1))


def _ghost(alpha: float) -> Item:
    g = box_item("ghost", (0.08, 0.08, 0.02), (-0.04, -0.04, 0.06), (0.2, 0.95, 1.0),
                 casts_shadow=False)  # fmt: skip
    return Item(g.id, g.mesh, g.position, g.quat, g.color, casts_shadow=False, alpha=alpha)


def _centre(items: tuple[Item, ...]) -> np.ndarray:
    with Renderer((160, 90), backend="tiny") as r:
        r.show(TableLayout("t", items), TOP)
        img = r.render().astype(float)
    return img[40:50, 75:85].reshape(-1, 3).mean(axis=0)  # the block's middle, seen from above


def test_a_translucent_ghost_blends_over_the_block_behind_it() -> None:
    a = 0.5
    block = _centre((BLOCK,))
    opaque = _centre((BLOCK, _ghost(1.0)))
    seen = _centre((BLOCK, _ghost(a)))
    expected = a * opaque + (1 - a) * block
    assert np.abs(seen - expected).max() < 12, (seen, expected)  # 8-bit rounding, lighting
    assert seen[0] - opaque[0] > 40  # the red block shows through (an opaque ghost hides it)


def test_alpha_outside_0_1_is_refused() -> None:
    with pytest.raises(LayoutError, match="alpha"):
        Item("x", BLOCK.mesh, alpha=0.0)
