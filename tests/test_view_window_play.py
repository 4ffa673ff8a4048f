"""``tablesim play GAME --window`` with bots: the real program on an Xvfb display. Catego and
Katoiz open the tile-games app (thrown dice, clocks, ladder); bots think in a worker thread
while the window keeps drawing, and every move played is printed when the window closes."""

from __future__ import annotations

import re
import time

import numpy as np
import pytest
from test_view_window import NEEDS_X, Window, shots, xdisplay  # noqa: F401  (fixtures)

from tablesim.sim.view.interact.tiles_app import TilesApp, app_for


def test_catego_and_katoiz_get_the_dice_app() -> None:
    for game in ("catego", "katoiz"):
        with app_for(game, players=("random", "random"), seed=3, size=(64, 36)) as app:
            assert isinstance(app, TilesApp)
    with app_for("kaito", players=("random", "random"), seed=3, size=(64, 36)) as app:
        assert not isinstance(app, TilesApp)


@NEEDS_X
@pytest.mark.slow
def test_bots_play_in_the_window_while_it_draws(xdisplay: str, shots) -> None:  # noqa: ANN001, F811
    w = Window(xdisplay, ["play", "catego", "--players", "random,random", "--seed", "3",
                          "--window"], "tablesim catego", shots)  # fmt: skip
    try:
        first = w.grab("catego-first")
        w.wait(lambda: (np.abs(w.grab().astype(int) - first).sum(axis=2) > 30).mean() > 0.01,
               "the bots' moves never showed")  # fmt: skip
        time.sleep(3.0)
        w.grab("catego-later")
        w.keys("Escape")
        code, out, err = w.finish()
        assert code == 0, err
        assert re.search(r"move 1: P1 \(random\): ", out), out
    finally:
        w.kill()
