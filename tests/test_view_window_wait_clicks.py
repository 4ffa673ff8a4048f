"""A person who takes a Kozo piece with the mouse, holds it, drops it by a click and thinks
12 s over the balance cube, in the real window (Xvfb + xdotool, at a person's pace): the bot's
turn and the person's next turn come, and the program never dies.

The steps of the crash seen after round 11's CI (``RuntimeError: kozo table: the simulated
wait ran past the placement``): the wait the table simulates for the next turn started in the
worker thread that measured the cube, before the window applied the cube, and read the
cube-phase clock (12 s): it stepped the world ahead of the bot, who placed within the
5-second window (greedy) or just after it (careful, 6.2 s). Where to click comes from an
offscreen twin of the same game (same seed and size: the same start camera and supply).
"""

from __future__ import annotations

import re
import time

import numpy as np
import pytest
from test_view_window import NEEDS_X, Window, shots, xdisplay  # noqa: F401  (fixtures)
from test_view_window_hold import SIZE, _point_px, _wait_line
from test_view_window_wait import stats_events

from tablesim.sim.view.harness import Harness

SEED = 3


@NEEDS_X
@pytest.mark.slow  # a real window at a person's pace: about 40 s
@pytest.mark.parametrize("bot", ["greedy", "careful"])
def test_a_clicked_drop_and_a_slow_cube_then_the_bot_and_the_next_turn(
    bot: str,
    xdisplay: str,  # noqa: F811
    shots,  # noqa: ANN001, F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TABLESIM_WINDOW_STATS", "1")
    twin = Harness("kozo", players=("human", bot), seed=SEED, size=SIZE)
    w = Window(xdisplay, ["play", "kozo", "--players", f"human,{bot}", "--seed", str(SEED),
                          "--window"], "tablesim kozo", shots)  # fmt: skip
    try:
        assert w.box[2:] == SIZE
        origin, edge = twin.app.controller.frame()

        def grid_px(gx: float, gy: float, gz: float) -> tuple[float, float]:
            return twin.pixel_of(origin + np.array([gx, gy, gz]) * edge)

        _wait_line(w, r"^yours P1")
        _point_px(w, twin.item_pixel("supply-2a"))  # take 2a from the supply
        time.sleep(0.5)
        w.xdotool("click", "1")
        _wait_line(w, r"^played take 2a")
        for k in range(24):  # over the board, as a person who thinks (about 6 s)
            _point_px(w, grid_px(0.2 + 0.13 * (k % 7), 0.3 + 0.11 * (k % 5), 0.0))
            time.sleep(0.25)
        n = len(stats_events(w.lines))
        _point_px(w, grid_px(1.0, 0.5, 0.0))
        _wait_line(w, r"^ghost 2a r\d+ at .*: legal$", after=n)
        time.sleep(0.5)
        n = len(stats_events(w.lines))
        w.xdotool("click", "1")
        _wait_line(w, r"^played 2a ", after=n)
        _wait_line(w, r"^yours P1", after=n)
        _point_px(w, grid_px(0.5, 0.5, 1.0))  # the balance cube on the domino's top
        time.sleep(12.0)  # thinking over the cube
        n = len(stats_events(w.lines))
        w.xdotool("click", "1")
        for k in range(12):  # the pointer moves on while the cube is judged and filmed
            _point_px(w, grid_px(0.5 + 0.05 * (k % 4), 0.5, 1.0))
            time.sleep(0.1)
        _wait_line(w, r"^played cube ", after=n)

        # the bot's placement and its cube, then the table is P1's again
        def cubes() -> list[int]:
            ev = stats_events(w.lines)
            return [i for i in range(n, len(ev)) if re.match(r"played (cube|nocube)", ev[i][1])]

        w.wait(lambda: len(cubes()) >= 2, "no balance cube from the bot", 120)
        events = [e for _, e in stats_events(w.lines)[n:]]
        assert any(re.match(r"played \S+ r\d+ at .*@", e) for e in events), events
        _wait_line(w, r"^yours P1", after=cubes()[1])
        w.grab(f"slow-cube-{bot}")
        assert w.proc.poll() is None, "the program died"
        w.keys("Escape")
        code, out, err = w.finish()
        assert code == 0, err[-3000:]
        assert "Traceback" not in err, err[-3000:]
    finally:
        w.kill()
        twin.close()
