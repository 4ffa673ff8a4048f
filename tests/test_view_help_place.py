"""The key help of a scene view and of the sandbox never covers a piece (issue #18, item 5);
a game's goes to the right-hand corner where it hides less of the game.

The help's panel is found from the pixels (the frame with the help shown against the frame
without it); each piece's place on the screen from its own triangles projected through the
camera the frame was drawn with. No piece's pixels may lie in the panel's box.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from tablesim.sim.scene import resolve_scene
from tablesim.sim.view.app import SceneApp
from tablesim.sim.view.harness import Harness
from tablesim.sim.view.sandbox import SandboxApp

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


# ---------------------------------------------------------------------- the games' help
KOZO_TOWER_MOVES = ("take 4L", "4L r0 at 0,0", "cube at 0.5,0.5", "take 3I", "3I r2 at 0,2")


def _help_frame(h: Harness) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """The frame with the help shown and the help panel's pixel box: the pixels that differ
    from the frame with the one-line hint (top right), in the half of the picture holding
    most of them (the hint's own pixels, gone when the help is at the bottom, left out)."""
    hidden = h.frame().copy()
    h.key("f1")
    shown = h.frame().copy()
    h.key("f1")
    changed = np.abs(shown.astype(int) - hidden.astype(int)).sum(axis=2) > 30
    half = SIZE[1] // 2
    if changed[half:].sum() > changed[:half].sum():
        shown_half, hidden_half = shown.copy(), hidden.copy()
        shown_half[:half] = hidden_half[:half] = 0
        return shown, _panel_box(shown_half, hidden_half)
    return shown, _panel_box(shown, hidden)


def _hidden_pixels(h: Harness, box: tuple[int, int, int, int]) -> dict[str, int]:
    """Per drawn item, how many of its pixels (its triangles projected) lie in ``box``."""
    x0, y0, x1, y1 = box
    return {
        k: int(m[y0 : y1 + 1, x0 : x1 + 1].sum())
        for k, m in _piece_masks(h).items()
        if m[y0 : y1 + 1, x0 : x1 + 1].any()
    }


def _game_help_cases(h: Harness) -> tuple[dict[str, int], dict[str, int]]:
    """(pieces hidden by the help where the app puts it, where the other right-hand corner
    would put it): each found from the pixels of a frame drawn with the help there."""
    _, box = _help_frame(h)
    here = _hidden_pixels(h, box)
    at = "top-right" if box[1] < SIZE[1] / 2 else "bottom-right"
    other = "bottom-right" if at == "top-right" else "top-right"
    h.app.help_corner = lambda text="": other  # type: ignore[method-assign]
    _, other_box = _help_frame(h)
    assert (other_box[1] < SIZE[1] / 2) == (other == "top-right")
    return here, _hidden_pixels(h, other_box)


@pytest.mark.slow
def test_kozo_help_leaves_the_tower_free_and_hides_less_than_the_other_corner() -> None:
    """A built Kozo tower (two turns): the help goes where it hides none of the tower and
    fewer supply pixels than the other right-hand corner would (top right, where it always
    was, covers the supply behind the tower)."""
    with Harness("kozo", seed=7, backend="tiny", size=SIZE) as h:
        for text in KOZO_TOWER_MOVES:
            h.app.type_move(text)
            h.settle()
        here, there = _game_help_cases(h)
    tower = {k: n for k, n in here.items() if not k.startswith("supply")}
    assert not tower, f"the help hides the tower: {tower}"
    assert sum(here.values()) < sum(there.values()), (here, there)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "options"),
    [("kataboom", {}), ("katamino", {"mode": "traditional"}), ("katoiz", {}), ("kaito", {})],
)
def test_game_help_hides_no_more_than_the_other_corner(game: str, options: dict) -> None:
    """At the start of each game the help goes to the right-hand corner where it hides fewer
    pixels of pieces, boards and tiles (equal: top right)."""
    with Harness(game, seed=1, backend="tiny", size=SIZE, options=options or None) as h:
        here, there = _game_help_cases(h)
    assert sum(here.values()) <= sum(there.values()), (here, there)
