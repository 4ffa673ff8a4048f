"""The real window draws only what changed, and what changed at once: ``tablesim play kozo
--window`` on an Xvfb display with the periodic whole redraw turned off
(``TABLESIM_WINDOW_REFRESH=0``), so every picture seen comes from the incremental frames.

Expected values come from what a person sees: a ghost held over the board is legal (the
rules accept it there: cyan), moved far off the board it is magenta and no cyan is left anywhere (the
old ghost erased, no trail); a still window is mostly not drawn again (the program's own count
of frames, printed with ``TABLESIM_WINDOW_DEBUG``).
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import numpy as np
import pytest
from conftest import start_xvfb
from test_view_window import (  # noqa: F401  (fixtures)
    NEEDS_X,
    OVER_THE_BOARD,
    Window,
    ghost_share,
    kozo_holding_4l,
    shots,
    xdisplay,
)

from tablesim.sim.slices.common.towers import ILLEGAL, LEGAL


def _share(img: np.ndarray, rgb: tuple[float, float, float]) -> float:
    return ghost_share(img, rgb)


@NEEDS_X
@pytest.mark.slow
def test_window_draws_a_moved_ghost_at_once_and_a_still_table_not_again(
    xdisplay: str,  # noqa: F811
    shots,  # noqa: ANN001, F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TABLESIM_WINDOW_REFRESH", "0")
    monkeypatch.setenv("TABLESIM_WINDOW_DEBUG", "1")
    w = kozo_holding_4l(xdisplay, shots)  # r1: it fits on the board somewhere
    try:
        w.point(0.1, 0.9)  # far off the board: a red ghost
        time.sleep(0.7)
        base = w.grab("incremental-ghost-off-board")
        supply_green = _share(base, LEGAL)  # the green pieces of the supply
        assert _share(base, ILLEGAL) > 0.002
        extra = 0.0
        for fy, fx in OVER_THE_BOARD:  # over the board: a legal ghost somewhere
            w.point(fx, fy)
            time.sleep(0.7)
            extra = _share(w.grab(), LEGAL) - supply_green
            if extra > 0.002:
                break
        w.grab("incremental-ghost-on-board")
        assert extra > 0.002
        w.point(0.1, 0.9)  # off the board again: red, and the green ghost gone (no trail)
        time.sleep(0.7)
        img = w.grab("incremental-ghost-off-again")
        assert _share(img, ILLEGAL) > 0.002
        assert abs(_share(img, LEGAL) - supply_green) < extra / 10, (
            _share(img, LEGAL),
            supply_green,
        )
        time.sleep(2.0)  # nothing changes: frames not drawn
        w.keys("Escape")
        code, out, err = w.finish()
        assert code == 0, err
        m = re.search(r"drawn whole (\d+), as rectangles (\d+), not drawn (\d+)", err)
        assert m, err
        whole, rects, skipped = (int(v) for v in m.groups())
        assert rects > 0 and skipped > whole, err
    finally:
        w.kill()


def _cpu_s(pid: int) -> float:
    """CPU time (user + system, s) of process ``pid`` so far (/proc: Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@NEEDS_X
@pytest.mark.slow  # a real window watched for 4.5 s: about 12 s
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_an_idle_window_sends_the_x_server_nothing(shots) -> None:  # noqa: ANN001, F811
    """A still table costs the X server (nearly) nothing: the idle frames neither draw nor
    flip. Before, every idle frame flipped, and the tiny window sent its whole frame buffer
    (2 MB at 960x540) to the X server 60 times a second: its own Xvfb's CPU was 40 ms a
    second (0.7 ms a frame, measured). Expected: at most 10 ms a second over 3 s, the whole
    redraw every 0.5 s (``REFRESH_S``, about 1.5 ms of the server's each) included. CPU time,
    not wall time, so a loaded machine does not change it much."""
    started = start_xvfb()
    if started is None:
        pytest.skip("Xvfb did not start")
    server, display = started
    try:
        w = Window(display, ["play", "kozo", "--players", "human,human", "--table", "stand-in",
                             "--window"], "tablesim kozo", shots)  # fmt: skip
        try:
            w.point(0.02, 0.02)  # the pointer still, over the bare table
            time.sleep(1.5)
            c0, t0 = _cpu_s(server.pid), time.monotonic()
            time.sleep(3.0)
            used = (_cpu_s(server.pid) - c0) / (time.monotonic() - t0)
            assert w.proc.poll() is None
            assert used <= 0.010, f"the X server spent {used * 1e3:.0f} ms a second"
        finally:
            w.kill()
    finally:
        server.terminate()
        server.wait(10)
