"""Katamino solo3d at the window (issue 32): the solved box is drawn filled on the table (not
an empty box with every piece back in the supply); the start view shows the board at a useful
size; the table's extent stays put as pieces are placed (no shrinking table showing its edge
and the sky). Offscreen (tiny backend) at 960 x 540."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("panda3d.core")

from tablesim.sim.view.harness import Harness  # noqa: E402

SIZE = (960, 540)


def _solo3d() -> Harness:
    return Harness("katamino", options={"mode": "solo3d"}, players=("human",), seed=0, size=SIZE)


def _extent(h: Harness) -> np.ndarray:
    pts = np.concatenate(
        [it.world_vertices() for it in h.app.items() if not it.id.startswith("ghost")]
    )
    return np.round(np.concatenate([pts[:, :2].min(axis=0), pts[:, :2].max(axis=0)]), 6)


def _board_pixels(h: Harness) -> float:
    """The board's drawn width in pixels (its near corners projected)."""
    board = next(it for it in h.app.items() if it.id == "board").world_vertices()
    lo, hi = board.min(axis=0), board.max(axis=0)
    a = h.pixel_of((lo[0], lo[1], hi[2]))
    b = h.pixel_of((hi[0], lo[1], hi[2]))
    return abs(b[0] - a[0])


def test_the_start_view_shows_the_board_at_a_useful_size() -> None:
    """The 3-column board of the 3x3x4 box drawn at least 120 px wide at 960 x 540 (the old
    view laid the supply out in one long column, three cubes wide, and drew the board 82 px
    wide from nearly overhead); and every loose piece is in the picture."""
    with _solo3d() as h:
        assert _board_pixels(h) >= 120, _board_pixels(h)
        for it in h.app.items():
            if it.id.startswith("piece-"):
                x, y = h.item_pixel(it.id)
                assert 0 <= x < SIZE[0] and 0 <= y < SIZE[1], it.id


def test_the_solved_box_is_drawn_full_and_the_table_keeps_its_extent() -> None:
    with _solo3d() as h:
        game = h.app.game
        fam = game._family_of(h.app.state)
        pieces = set(fam.stage_pieces(h.app.state))
        start = _extent(h)
        while not game.is_terminal(h.app.state):
            hint = fam.solver_hint(h.app.state).placement
            h.app.play(h.app.controller._move(hint.name, hint.cells))
            h.settle()
            assert np.array_equal(_extent(h), start), (_extent(h), start)
        assert h.app.state.outcome == "solved"
        items = {it.id: it for it in h.app.items()}
        board = items["board"].world_vertices()
        lo, hi = board.min(axis=0), board.max(axis=0)
        for name in pieces:  # every piece drawn, inside the board's outline, none in the supply
            v = items[f"piece-{name}"].world_vertices()
            assert (v[:, :2] >= lo[:2] - 1e-6).all() and (v[:, :2] <= hi[:2] + 1e-6).all(), name
            assert f"label-{name}" not in items
        # the box is full: its top layer, drawn, shows pieces, not the board's pale wood
        top = max(float(it.world_vertices()[:, 2].max()) for k, it in items.items()
                  if k.startswith("piece-"))  # fmt: skip
        img = h.frame().astype(int)
        x, y = h.pixel_of(((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, top))
        seen = img[int(y), int(x)]
        wood = np.array([0xE3, 0xCF, 0xA4])
        assert np.abs(seen - wood).max() > 40, seen


def test_a_two_stage_solo3d_ends_with_its_box_drawn_full() -> None:
    """Issue 32, checked again with the flat Penta 4 played first (``--penta4-first``, card 5:
    two stages): at the end the text says the 3x3x4 is complete and the table shows it so,
    every piece of the last stage inside the board's outline, none left in the supply (the
    report: "... complete" over an empty box, every piece back in the supply)."""
    opts = {"mode": "solo3d", "card": 5, "challenge": 1, "penta4_first": True}
    with Harness("katamino", options=opts, players=("human",), seed=0, size=SIZE) as h:
        game = h.app.game
        fam = game._family_of(h.app.state)
        while not game.is_terminal(h.app.state):
            hint = fam.solver_hint(h.app.state).placement
            h.app.play(h.app.controller._move(hint.name, hint.cells))
            h.settle()
        state = h.app.state
        assert state.outcome == "solved" and len(state.done) == 2
        assert "3x3x4 complete" in h.text()["top-left"]
        items = {it.id: it for it in h.app.items()}
        board = items["board"].world_vertices()
        lo, hi = board.min(axis=0), board.max(axis=0)
        last = [name for name, _ in state.done[-1]]
        assert sum(len(cells) for _, cells in state.done[-1]) == 36  # the 3x3x4, full
        for name in last:
            v = items[f"piece-{name}"].world_vertices()
            assert (v[:, :2] >= lo[:2] - 1e-6).all() and (v[:, :2] <= hi[:2] + 1e-6).all(), name
            assert f"label-{name}" not in items
