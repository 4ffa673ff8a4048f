"""What the interactive frame keeps between frames, and that the picture is still right.

The app no longer rebuilds the table for a ghost that follows the pointer: the renderer moves
and recolours the ghost's node, builds a new one only for a new shape (a turn, another piece),
keeps the faked shadows of what stays put and draws the moving items' shadows in a layer of
their own. These tests drive the real app offscreen (tiny backend) and check the pixels and
the nodes; expected places come from the rules (the Kozo board is 3 x 3 cube edges with the
chimney on 1..2 x 1..2; domino 2a: r0 stands, r1 lies along y, r2 along x). The held ghost
floats :data:`LIFT` cube edges above its landing pose, so its top is LIFT higher.
"""

from __future__ import annotations

import numpy as np
import pytest

from tablesim.sim.slices.common.towers import ILLEGAL, LEGAL, LIFT, view_axes
from tablesim.sim.slices.kozo.referee import KozoReferee
from tablesim.sim.view.harness import Harness
from tablesim.sim.view.layout import TableLayout, box_item

pytest.importorskip("panda3d.core")
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _grid(h: Harness, gx: float, gy: float, gz: float) -> np.ndarray:
    """World point of grid (gx, gy, gz) (cube edges from the board's origin)."""
    table = KozoReferee(h.app.state.config, h.app.state.seed)
    return np.asarray(table.origin, float) + np.array([gx, gy, gz]) * table.edge


def _colour_at(h: Harness, point: np.ndarray) -> np.ndarray:
    col, row = h.pixel_of(point)
    return h.app.frame()[int(round(row)), int(round(col))].astype(int)


def _is(rgb: np.ndarray, colour: tuple[float, float, float]) -> bool:
    """The pixel has the hue of ``colour``: lighting scales all three channels, so the pixel
    and the colour, each divided by its strongest channel, agree within 0.25 (and the pixel is
    not dark). A ghost colour (towers.LEGAL / ILLEGAL) is drawn translucent: its pixel is the
    blend GHOST_ALPHA * colour + (1 - GHOST_ALPHA) * the wooden table behind it (195, 139, 94
    as drawn, read off a window picture)."""
    from tablesim.sim.slices.common.towers import GHOST_ALPHA, ILLEGAL, LEGAL

    px = np.asarray(rgb, float)
    if px.max() < 60:
        return False
    want = np.asarray(colour, float)
    if tuple(colour) in (LEGAL, ILLEGAL):
        want = GHOST_ALPHA * want + (1 - GHOST_ALPHA) * np.array([195, 139, 94]) / 255
    return bool(np.abs(px / px.max() - want / want.max()).max() < 0.25)


def _counting_shows(h: Harness) -> list[int]:
    r = h.app.renderer
    calls: list[int] = []
    show = r.show

    def counted(*a, **k):  # noqa: ANN002, ANN003, ANN202
        calls.append(1)
        return show(*a, **k)

    r.show = counted  # type: ignore[method-assign]
    return calls


def test_kozo_ghost_moves_to_the_new_cell_in_its_own_node_with_the_right_colour() -> None:
    with Harness("kozo", options={"table": "stand-in"}, seed=5, size=(480, 270)) as h:
        assert h.click_item("supply-2a")
        h.key("t", "r")  # standing -> along y (a tip about the view's x) -> along x (about z)
        assert h.app.controller.rot == 2
        h.hover_world(_grid(h, 1.0, 0.5, 0.0))  # footprint 0..2 x 0..1: legal
        assert h.app.controller.legal
        r = h.app.renderer
        node = r._nodes["ghost"]
        shows = _counting_shows(h)
        top_a = _grid(h, 0.5, 0.5, 1.0 + LIFT)  # on the ghost's top over square (0, 0)
        assert _is(_colour_at(h, top_a), LEGAL)

        h.hover_world(_grid(h, 1.0, 2.5, 0.0))  # footprint 0..2 x 2..3: legal too
        assert h.app.controller.legal and h.app.controller.ghost_move.pos[:2] == (0.0, 2.0)
        assert _is(_colour_at(h, _grid(h, 0.5, 2.5, 1.0 + LIFT)), LEGAL)
        assert not _is(_colour_at(h, top_a), LEGAL)  # nothing left at the old place
        assert r._nodes["ghost"] == node  # moved, not rebuilt
        ghost = next(it for it in h.app.items() if it.id == "ghost")
        assert np.allclose(ghost.world_vertices().min(axis=0)[:2], _grid(h, 0.0, 2.0, 0.0)[:2])

        h.hover_world(_grid(h, 1.5, 1.5, 0.0))  # 0.5..2.5 x 1..2: over the chimney
        assert not h.app.controller.legal
        assert _is(_colour_at(h, _grid(h, 1.5, 1.5, 1.0 + LIFT)), ILLEGAL)
        assert r._nodes["ghost"] == node  # recoloured, not rebuilt
        assert shows == []  # the table itself was never built again


def test_kozo_ghost_turned_is_built_anew_in_the_new_shape() -> None:
    with Harness("kozo", options={"table": "stand-in"}, seed=5, size=(480, 270)) as h:
        assert h.click_item("supply-2a")
        h.key("t", "r")  # along x, as above
        assert h.app.controller.rot == 2
        h.hover_world(_grid(h, 1.0, 0.5, 0.0))
        r = h.app.renderer
        lying_node, lying_shape = r._nodes["ghost"], r._shape["ghost"]
        ghost = next(it for it in h.app.items() if it.id == "ghost")
        assert ghost.top() == pytest.approx(_grid(h, 0, 0, 1.0 + LIFT)[2])
        # tipped up about the view's left-right axis (x or y as the camera looks): first
        # turned to lie across that axis. r0, the domino stands; centred on (1.0, 0.5) ->
        # corner (0.5, 0)
        across = view_axes(h.app.controller.ray)[1][0] == 0  # lying along x, tipping about x
        h.key(*(("r", "t") if across else ("t",)))
        h.move(h.x, h.y)
        c = h.app.controller
        assert c.rot == 0 and c.ghost_move.pos[:2] == (0.5, 0.0)
        assert r._shape["ghost"] != lying_shape and r._nodes["ghost"] != lying_node
        ghost = next(it for it in h.app.items() if it.id == "ghost")
        assert ghost.top() == pytest.approx(_grid(h, 0, 0, 2.0 + LIFT)[2])  # two cubes tall
        want = LEGAL if c.legal else ILLEGAL
        assert _is(_colour_at(h, _grid(h, 1.0, 0.5, 2.0 + LIFT)), want)
        # and back: the lying shape's triangles come from the cache, in a node of their own
        h.key(*(("g", "e") if across else ("g",)))  # the turns undone
        h.move(h.x, h.y)
        assert c.rot == 2 and r._shape["ghost"] == lying_shape


def test_a_moved_ghost_looks_as_if_the_table_had_been_built_with_it_there() -> None:
    from tablesim.sim.view.renderer import Renderer
    from tests.test_view_golden import FRACTION_TOL, MEAN_TOL, PIXEL_TOL

    board = box_item("board", (0.12, 0.12, 0.01), (-0.06, -0.06, 0.0), (0.8, 0.75, 0.6),
                     receives_shadow=True)  # fmt: skip
    block = box_item("block", (0.03, 0.03, 0.05), (-0.05, -0.05, 0.01), (0.2, 0.4, 0.8))
    base = TableLayout("t", (board, block))

    def ghost(x: float) -> object:
        return box_item("ghost", (0.03, 0.02, 0.02), (x, 0.0, 0.03), LEGAL)

    cam = {"target": (0.0, 0.0, 0.02), "distance": 0.35, "yaw": 20.0, "pitch": -40.0}
    with Renderer((320, 180), backend="tiny") as r:
        r.show(TableLayout("t", (*base.items, ghost(-0.04))), cam)
        r.render()
        for x in (-0.02, 0.0, 0.02):  # moved three times: only its node and its shadow layer
            r.replace_items(["ghost"], [ghost(x)])
            moved = r.render()
        with Renderer((320, 180), backend="tiny") as fresh:
            fresh.show(TableLayout("t", (*base.items, ghost(0.02))), cam)
            built = fresh.render()
        with Renderer((320, 180), backend="tiny") as bare:
            bare.show(base, cam)
            without = bare.render()
    diff = np.abs(moved.astype(int) - built.astype(int))
    assert diff.mean() <= MEAN_TOL and (diff.max(axis=-1) > PIXEL_TOL).mean() <= FRACTION_TOL
    # and the comparison can fail: without the ghost (and its shadow) the picture differs
    off = np.abs(without.astype(int) - built.astype(int)).max(axis=-1) > PIXEL_TOL
    assert off.mean() > FRACTION_TOL


def test_the_moving_layer_is_as_dark_as_the_darker_shadow() -> None:
    from tablesim.sim.view.shadow_decals import _over_baked

    lut = _over_baked()
    for s, g in ((0, 80), (100, 50), (100, 200), (107, 107), (0, 0)):
        a = int(lut[s, g])
        # the black layer of alpha a blended over the baked one of alpha s leaves
        # (1 - s)(1 - a) of the light: that is 1 - max(s, g), to a rounding step
        left = (1 - s / 255) * (1 - a / 255)
        assert left == pytest.approx(1 - max(s, g) / 255, abs=1 / 255)


def test_decal_covers_the_shadowed_tiles_and_their_neighbours_only() -> None:
    from tablesim.sim.view.shadow_decals import DECAL_TILE, _decal_rows

    t = DECAL_TILE
    alpha = np.zeros((4 * t, 4 * t), dtype=np.uint8)
    alpha[t + 5 : t + 9, 2 * t + 3 : 2 * t + 7] = 90  # a blob in tile (row 1, column 2)
    texel = 1e-3
    rows = _decal_rows(alpha, texel, np.zeros(2), 0.0)
    tris = rows.reshape(-1, 3, 8)
    # tiles rows 0..2 x columns 1..3 (the blob's tile and its neighbours): 3 column quads of
    # 1 x 3 tiles, 2 triangles each
    assert len(tris) == 6
    xy = rows[:, :2]
    assert np.allclose(xy.min(axis=0), (t * texel, 0.0))
    assert np.allclose(xy.max(axis=0), (4 * t * texel, 3 * t * texel))
    area = sum(abs(np.cross(tr[1, :2] - tr[0, :2], tr[2, :2] - tr[0, :2])) / 2 for tr in tris)
    assert area == pytest.approx(9 * (t * texel) ** 2)
    # uv follow the whole quad: texel (i, j) of the map at u = i / width
    assert np.allclose(rows[:, 6], rows[:, 0] / (4 * t * texel))
    # a board lying over tiles of columns 1..3, rows 0..1 hides them: only row 2 is left
    hidden = [(np.array([t * texel, 0.0]), np.array([4 * t * texel, 2 * t * texel]))]
    rows = _decal_rows(alpha, texel, np.zeros(2), 0.0, hidden)
    assert np.allclose(rows[:, 1].min(), 2 * t * texel) and len(rows) == 18


def test_sky_is_drawn_only_when_the_table_leaves_some_of_it_in_view() -> None:
    from tablesim.sim.view.renderer import SKY_TOP, Renderer

    # a 30 cm board: the table drawn round it is 1.7 m across
    layout = TableLayout("t", (box_item("b", (0.3, 0.3, 0.01), (-0.15, -0.15, 0.0), (0.6,) * 3),))
    with Renderer((160, 90), backend="tiny") as r:
        r.show(layout, {"target": (0, 0, 0), "distance": 0.3, "yaw": 0.0, "pitch": -60.0})
        down = r.render()
        assert not r._dr_sky.is_active()
        r.show(layout, {"target": (0, 0, 0.02), "distance": 0.3, "yaw": 0.0, "pitch": -3.0})
        level = r.render()
        assert r._dr_sky.is_active()
    # looking at the horizon the top row is the sky's top colour; looking down it is table
    assert np.abs(level[0].astype(int) - SKY_TOP).max(axis=-1).mean() < 12
    assert np.abs(down[0].astype(int) - SKY_TOP).max(axis=-1).mean() > 40


def test_text_kept_while_its_words_stay_and_redrawn_when_they_change() -> None:
    from tablesim.sim.view.renderer import Renderer

    layout = TableLayout("t", (box_item("b", (0.04, 0.04, 0.04), (-0.02, -0.02, 0.0), (0.6,) * 3),))
    with Renderer((320, 180), backend="tiny") as r:
        r.show(layout)
        r.set_text({"top-left": "hello", "bottom-left": "one"})
        first = r.text._text_shown["top-left"][1]
        a = r.render()
        r.set_text({"top-left": "hello", "bottom-left": "two words"})
        assert r.text._text_shown["top-left"][1] == first  # same words: the same node
        b = r.render()
        assert not np.array_equal(a[-40:], b[-40:])  # the changed corner is redrawn
        assert np.array_equal(a[:40], b[:40])
        r.set_text({"bottom-left": "two words"})
        assert "top-left" not in r.text._text_shown and first.is_empty()
