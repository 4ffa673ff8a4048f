"""Kaito's captured tiles are in the picture and clear of the status text at the end of a game
(issue 32: they lay at the picture's top and bottom edges, under the text). The start camera
frames the rows they are laid in (``KaitoController.framing_points``). Expected from geometry:
every captured tile's corners project inside the picture, and outside the box the status text
covers (``Renderer.text_box``). A seeded game of two random bots, offscreen (tiny backend)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("panda3d.core")

from tablesim.sim.view.harness import Harness  # noqa: E402
from tablesim.sim.view.interact.tiles_app import app_for  # noqa: E402
from tablesim.sim.view.picking import _BOX_CORNERS  # noqa: E402


def test_captured_tiles_lie_in_the_picture_and_clear_of_the_text() -> None:
    app = app_for("kaito", players=("random", "random"), seed=21, size=(960, 540),
                  backend="tiny")  # fmt: skip
    with Harness(app=app) as h:
        while not app.game.is_terminal(app.state):  # the bots' game, without its animations
            app.session.play(app.session.bot_move())
        app._set_state()
        h.frame()
        captured = [it for it in app.items() if it.id.startswith("captured")]
        assert len(captured) >= 8  # both rows hold tiles (the game's own captures)
        w, ht = app.size
        blocks = app.text_blocks()
        x0, x1, y0, y1 = app.renderer.text_box("top-left", blocks["top-left"],
                                               scale=app.text_scale())  # fmt: skip
        for it in captured:
            lo, hi = np.asarray(it.mesh.bounds, float)
            corners = lo + _BOX_CORNERS * (hi - lo)
            world = corners @ it.rotation().T + np.asarray(it.position)
            px = app.renderer.view.project(world, app.size)
            assert (px >= 0).all() and (px[:, 0] <= w).all() and (px[:, 1] <= ht).all(), it.id
            under = (px[:, 0].min() < x1) and (px[:, 0].max() > x0) and (px[:, 1].min() < y1)
            assert not under, (it.id, px.min(axis=0), (x0, x1, y0, y1))
