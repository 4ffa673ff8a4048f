"""Holding a Kozo piece in the real window (Xvfb + xdotool, at a person's pace): the lifted
piece and its drop preview are on the screen, a key turns it by 90 degrees, what the ghost
says is the move the click plays, and the pointer over the tower from the default camera
reaches the tower's top (not the table behind it).

Where to point comes from an offscreen twin of the same game (same seed, size and moves, so
the same start camera): the pixel of a world point is the twin's projection. What the ghost
says comes from the program itself (``TABLESIM_WINDOW_STATS``: a ``ghost TEXT`` line whenever
its words change, ``played TEXT`` for each move). Expected moves are worked by hand: the
domino 2a tipped once with ``t`` (about the world axis nearest the start camera's
left-right) lies along y (r1) or x (r2); centred on its footprint at corner (0, 0) it lies
there on the board (z = 0); the balance cube aimed at the domino's top centre rests on it
(z = 1); the standing 2b aimed at the domino's top over its second cell lands on the tower
(z >= 1), legal.
"""

from __future__ import annotations

import colorsys
import re
import time

import numpy as np
import pytest
from test_view_window import NEEDS_X, Window, shots, xdisplay  # noqa: F401  (fixtures)
from test_view_window_wait import stats_events

from tablesim.sim.slices.common.towers import LEGAL, LIFT
from tablesim.sim.view.harness import Harness

SEED = 5
SIZE = (960, 540)


def _words(w: Window, after: int) -> list[str]:
    return [e for _, e in stats_events(w.lines)[after:]]


def _last_ghost(w: Window) -> str:
    ghosts = [e[len("ghost ") :] for e in _words(w, 0) if e.startswith("ghost ")]
    return ghosts[-1] if ghosts else ""


def _wait_line(w: Window, pattern: str, after: int = 0) -> str:
    found: list[str] = []

    def seen() -> bool:
        found[:] = [e for e in _words(w, after) if re.search(pattern, e)]
        return bool(found)

    w.wait(seen, f"no {pattern!r} line from the window", 60)
    return found[0]


def _point_px(w: Window, px: tuple[float, float]) -> None:
    x, y, _, _ = w.box
    w.xdotool("mousemove", str(int(round(x + px[0]))), str(int(round(y + px[1]))))


def _type_move(w: Window, text: str) -> None:
    w.keys("Return")
    w.type(text)
    w.keys("Return")


def _blend_hue(img: np.ndarray, px: tuple[float, float], rgb: tuple[float, float, float]) -> float:
    """Share of the 7x7 pixels around ``px`` of ``img`` showing a translucent ``rgb`` over
    the wood (hue within 12 degrees of its blend over the table's colour, saturated)."""
    from tablesim.sim.slices.common.towers import GHOST_ALPHA

    f = img.astype(float) / 255.0
    table = np.median(f[-40:, -40:].reshape(-1, 3), axis=0)
    want = colorsys.rgb_to_hsv(*(GHOST_ALPHA * np.asarray(rgb) + (1 - GHOST_ALPHA) * table))[0]
    x, y = int(round(px[0])), int(round(px[1]))
    patch = f[y - 3 : y + 4, x - 3 : x + 4].reshape(-1, 3)
    ok = 0
    for p in patch:
        h, s, v = colorsys.rgb_to_hsv(*p)
        off = abs((h - want + 0.5) % 1.0 - 0.5) * 360
        ok += off < 12 and s > 0.35 and v > 0.2
    return ok / len(patch)


@NEEDS_X
@pytest.mark.slow  # a real window at a person's pace: about 40 s
def test_hold_lift_preview_turn_snap_and_the_tower_from_the_default_camera(
    xdisplay: str,  # noqa: F811
    shots,  # noqa: ANN001, F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TABLESIM_WINDOW_STATS", "1")
    twin = Harness("kozo", options={"table": "stand-in"}, players=("human", "human"), seed=SEED,
                   size=SIZE)  # fmt: skip
    w = Window(xdisplay, ["play", "kozo", "--players", "human,human", "--table", "stand-in",
                          "--seed", str(SEED), "--window"], "tablesim kozo", shots)  # fmt: skip
    try:
        assert w.box[2:] == SIZE
        origin, edge = twin.app.controller.frame()

        def grid_px(gx: float, gy: float, gz: float) -> tuple[float, float]:
            return twin.pixel_of(origin + np.array([gx, gy, gz]) * edge)

        # take the domino (touch-move), point at the board and tip it once with t: about the
        # world axis nearest the screen's left-right (the ray crossed with +z), so it lies
        # along y (r1) when that is x, along x (r2) when it is y
        _type_move(w, "take 2a")
        _wait_line(w, r"^played take 2a")
        assert twin.app.type_move("take 2a")
        aim = grid_px(0.75, 0.75, 0.0)
        _, ray = twin.app.renderer.ray(*aim)
        right = np.cross(ray, (0.0, 0.0, 1.0))
        rot = 1 if abs(right[0]) >= abs(right[1]) else 2
        centre = (0.5, 1.0) if rot == 1 else (1.0, 0.5)  # the footprint at corner (0, 0)
        other = 3 - rot  # a quarter about the vertical swaps along-x and along-y
        _point_px(w, aim)
        time.sleep(0.8)
        w.xdotool("key", "t")  # the pointer stays where it is (focus follows it)
        time.sleep(0.5)
        _point_px(w, grid_px(*centre, 0.0))
        time.sleep(0.8)
        _wait_line(w, rf"^ghost 2a r{rot} at 0,0,0: legal$")
        img = w.grab("hold-lifted")
        # the lifted ghost: its top centre, LIFT + 1 edge above the board, shows its colour;
        # the drop preview: the footprint's front strip on the board (below the lifted
        # ghost's front on the screen) shows it too
        top = grid_px(*centre, LIFT + 1.0)
        front = grid_px(centre[0], 0.12, 0.0)
        assert _blend_hue(img, top, LEGAL) > 0.5, "no lifted ghost on the screen"
        assert _blend_hue(img, front, LEGAL) > 0.5, "no drop preview on the board"
        # a key turns it by 90 degrees about the vertical, and back
        w.xdotool("key", "r")
        _wait_line(w, rf"^ghost 2a r{other} at ")
        time.sleep(0.5)
        n = len(stats_events(w.lines))
        w.xdotool("key", "e")
        _wait_line(w, rf"^ghost 2a r{rot} at 0,0,0: legal$", after=n)
        time.sleep(0.8)
        said = _last_ghost(w)
        w.xdotool("click", "1")
        played = _wait_line(w, r"^played 2a ")
        assert re.sub(r" @[\d.]+$", "", played[len("played ") :]) + ": legal" == said
        # the balance cube: aimed at the domino's top from the default camera
        _wait_line(w, r"^yours P1", after=0)
        _point_px(w, grid_px(*centre, 1.0))  # the domino's top centre
        time.sleep(1.0)
        said = _last_ghost(w)
        m = re.match(r"cube at ([\d.]+),([\d.]+),([\d.]+): legal$", said)
        assert m is not None and abs(float(m.group(3)) - 1.0) < 1e-6, said  # on the tower
        w.grab("hold-cube-on-tower")
        w.xdotool("click", "1")
        played = _wait_line(w, r"^played cube ")
        assert played[len("played ") :] + ": legal" == said
        # P2 takes the standing 2b and holds it over the tower: it lands on the domino's top
        _wait_line(w, r"^yours P2")  # as a person: once the window gives P2 the turn
        _type_move(w, "take 2b")
        _wait_line(w, r"^played take 2b")
        # the domino's top over its second cell (the cube snapped onto its first): the front-
        # left camera sees that point (a side face hit would put the piece at that face)
        second = (1.6, 0.5) if rot == 2 else (0.5, 1.6)
        _point_px(w, grid_px(*second, 1.0))
        time.sleep(1.0)
        said = _last_ghost(w)
        w.grab("hold-on-tower")
        m = re.match(r"2b r0 at ([\d.-]+),([\d.-]+),([\d.]+): (legal|ILLEGAL)$", said)
        assert m is not None, said
        assert 0 <= float(m.group(1)) <= 2 and 0 <= float(m.group(2)) <= 2, said  # on the board
        assert float(m.group(3)) >= 1.0, said  # on the tower, not on the table behind
        assert m.group(4) == "legal", said
        w.keys("Escape")
        code, out, err = w.finish()
        assert code == 0, err
    finally:
        w.kill()
        twin.close()
