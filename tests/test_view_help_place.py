"""The key help of a scene view and of the sandbox never covers a piece (issue #18, item 5).

The help's panel is found from the pixels (the frame with the help shown against the frame
without it); each piece's place on the screen from its own triangles projected through the
camera the frame was drawn with. No piece's pixels may lie in the panel's box.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from sim.scene import resolve_scene
from sim.view.app import SceneApp
from sim.view.harness import Harness
from sim.view.sandbox import SandboxApp

SIZE = (960, 540)


def _panel_box(with_help: np.ndarray, without: np.ndarray) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1) of the pixels the help changes, inclusive."""
    changed = np.abs(with_help.astype(int) - without.astype(int)).sum(axis=2) > 30
    ys, xs = np.nonzero(changed)
    if len(xs) < 500:
        raise AssertionError(f"the help changed only {len(xs)} pixels: is it drawn?")
    return int(xs.min()), int(ys.min()), int(xs.max()), int(ys.max())


def _piece_masks(h: Harness) -> dict[str, np.ndarray]:
    """Each drawn item's screen pixels: its triangles projected and filled."""
    from PIL import Image, ImageDraw

    view = h.app.renderer.view
    w, hgt = h.app.size
    out = {}
    for item in h.app.items():
        tri = item.world_triangles()
        px = view.project(tri.reshape(-1, 3), h.app.size).reshape(-1, 3, 2)
        img = Image.new("1", (w, hgt), 0)
        draw = ImageDraw.Draw(img)
        for t in px[np.isfinite(px).all(axis=(1, 2))]:
            draw.polygon([tuple(p) for p in t], fill=1)
        out[item.id] = np.asarray(img, bool)
    return out


def _check(h: Harness) -> None:
    h.key("f1")
    time.sleep(0.15)  # a live table (the sandbox) rewrites its text a few times a second
    first = h.frame().copy()
    h.key("f1")
    time.sleep(0.15)
    second = h.frame().copy()
    # one of the two frames shows the full help (the other the one-line "f1: help" hint)
    shown, hidden = (first, second) if h.app.show_help is False else (second, first)
    x0, y0, x1, y1 = _panel_box(shown, hidden)
    pieces = _piece_masks(h)
    assert pieces, "no pieces drawn"
    covered = [k for k, m in pieces.items() if m[y0 : y1 + 1, x0 : x1 + 1].any()]
    box = (x0, y0, x1, y1)
    assert not covered, f"the help panel {box} covers {covered}"


@pytest.mark.parametrize("name", ["kozo-tower", "kozo-overhang", "cantilever-tips"])
def test_scene_help_leaves_every_piece_free(name: str) -> None:
    with SceneApp(resolve_scene(name), size=SIZE, replicas=1) as app:
        _check(Harness(app=app))


@pytest.mark.parametrize("name", ["kozo-tower", "kozo-overhang"])
def test_sandbox_help_leaves_every_piece_free(name: str) -> None:
    with SandboxApp(resolve_scene(name), size=SIZE, replicas=1) as app:
        assert app.show_help  # the sandbox shows its help until the first piece is let go
        _check(Harness(app=app))
