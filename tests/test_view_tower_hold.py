"""Holding a piece at the Kozo and Kataboom tables as in Tabletop Simulator (offscreen harness):
the held piece floats above where it lands, with a drop preview at the landing pose; it snaps
to legal spots; the text of the ghost is exactly the move a click plays, at any pointer
position; the turn keys and the control+left drag turn it by 90 degrees about the view's axes.

Expected values come from the geometry, worked by hand: the Kozo board's top is the grid's
z = 0 and a cube edge is the referee's ``edge``; the domino 2a stands up in r0, lies along y
in r1 and along x in r2 (the catalogue's orientation list); a quarter turn about the vertical
keeps a piece's height and swaps its x and y extents, a tip about a horizontal axis swaps its
height with the extent along the other horizontal axis; four quarter turns about one axis are
no turn, nor are a turn and its opposite.
"""

from __future__ import annotations

import colorsys
import re

import numpy as np
import pytest

from tablesim.sim.slices.common.towers import (
    GHOST_ALPHA,
    ILLEGAL,
    LEGAL,
    LIFT,
    PREVIEW_ALPHA,
    SNAP,
    SPOT,
    TURN_DRAG_PX,
)  # fmt: skip
from tablesim.sim.view.harness import Harness
from tablesim.sim.view.interact import Pointer

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _frame(h: Harness) -> tuple[np.ndarray, float]:
    return h.app.controller.frame()


def _hover_grid(h: Harness, gx: float, gy: float, gz: float = 0.0) -> None:
    origin, edge = _frame(h)
    h.hover_world(origin + np.array([gx, gy, gz]) * edge)


def _items(h: Harness, prefix: str) -> list:  # noqa: ANN001
    h.app.frame()
    return [it for it in h.app.items() if it.id.startswith(prefix)]


def _take_2a_along_x(h: Harness) -> None:
    assert h.click_item("supply-2a")
    h.key("t", "r")  # standing -> along y (tip about the view's x) -> along x (about z)
    assert h.app.controller.rot == 2


def test_the_held_piece_floats_over_its_landing_pose_and_the_preview_lies_there() -> None:
    with Harness("kozo", options={"table": "stand-in"}, seed=5, size=(320, 180)) as h:
        origin, edge = _frame(h)
        _take_2a_along_x(h)
        _hover_grid(h, 1.0, 0.5)  # footprint centre (1, 0.5): minimum corner (0, 0), on the board
        c = h.app.controller
        assert c.legal and tuple(c.ghost_move.pos) == (0.0, 0.0, 0.0)
        (ghost,) = _items(h, "ghost")[:1]
        assert ghost.id == "ghost" and not ghost.casts_shadow and ghost.alpha < 1
        assert np.allclose(ghost.position, origin + np.array([0.0, 0.0, LIFT]) * edge)
        plates = sorted(_items(h, "ghost-drop-"), key=lambda it: it.position[0])
        assert len(plates) == 2  # one under each column of the domino
        for k, plate in enumerate(plates):  # cell k's footprint, inset 3 %, 0.5 mm above z = 0
            want = origin + np.array([k + 0.03, 0.03, 0.0]) * edge + (0.0, 0.0, 0.0005)
            assert np.allclose(plate.position, want), (plate.position, want)
            assert plate.color == LEGAL and not plate.casts_shadow
        assert h.click()  # played where the preview lay
        assert tuple(h.app.moves[-1].pos) == (0.0, 0.0, 0.0)
        h.settle()
        g = h.app.game
        # the balance cube on the domino's far end (its centre past x = 1.3: clear of the
        # first cell, the cube being 0.57 edge wide)
        cube = max(g.legal_moves(h.app.state), key=lambda m: m.pos[0])
        assert cube.kind == "cube" and cube.pos[0] >= 1.3
        assert h.app.type_move(g.format_move(h.app.state, cube))
        h.settle()
        assert h.app.state.phase == "place" and h.app.type_move("take 2b")
        h.settle()
        # P2 holds 2b (standing, r0) over the domino: it lands on its top (z = 1 edge)
        _hover_grid(h, 0.5, 0.5, 1.0)
        c = h.app.controller
        assert c.ghost_move is not None and abs(c.ghost_move.pos[2] - 1.0) < 1e-9, c.ghost_move
        z_land = origin[2] + 1.0 * edge
        (ghost,) = _items(h, "ghost")[:1]
        assert abs(ghost.position[2] - (z_land + LIFT * edge)) < 1e-9
        for plate in _items(h, "ghost-drop-"):
            assert abs(plate.position[2] - (z_land + 0.0005)) < 1e-9


def _ghost_words(h: Harness) -> str | None:
    """The move text of the ghost as the overlay shows it (None: no ghost line)."""
    for line in h.app.controller.overlay():
        m = re.match(r"(.+?): (legal|ILLEGAL)", line)
        if m:
            return m.group(1)
    return None


def _clicked(h: Harness, x: float, y: float) -> str | None:
    """The move a click at (x, y) plays (the app's play intercepted: nothing is played)."""
    played: list = []
    app = h.app
    real = app.play
    app.play = lambda m: played.append(m) or False  # type: ignore[method-assign]
    try:
        app.mouse_down(x, y, "left")
        app.mouse_up(x, y, "left")
    finally:
        app.play = real  # type: ignore[method-assign]
    if not played:
        return None
    return re.sub(r" @[\d.]+$", "", app.game.format_move(app.state, played[-1]))


@pytest.mark.parametrize("phase", ["place", "cube"])
def test_the_ghost_says_exactly_what_a_click_plays_at_any_pointer_position(phase: str) -> None:
    rng = np.random.default_rng(32)
    with Harness("kozo", options={"table": "stand-in"}, seed=5, size=(320, 180)) as h:
        app = h.app
        _take_2a_along_x(h)
        if phase == "cube":
            _hover_grid(h, 1.0, 0.5)
            assert h.click()
            h.settle()
            assert app.state.phase == "cube"
        width, height = app.size
        pixels = [
            (float(x), float(y))
            for x, y in zip(rng.uniform(0, width, 70), rng.uniform(0, height, 70), strict=True)
        ]
        # and where the board and the tower are (the centre of the picture's lower half)
        pixels += [(float(x), float(y)) for x in np.linspace(0.2 * width, 0.6 * width, 6)
                   for y in np.linspace(0.45 * height, 0.8 * height, 5)]  # fmt: skip
        said = 0
        for x, y in pixels:
            app.mouse_move(x, y)
            app.frame()
            words = _ghost_words(h)
            played = _clicked(h, x, y)
            assert played == words, (x, y, words, played)
            said += words is not None
        assert said > 30  # most positions show a ghost (a test that never compares fails)


def test_the_ghost_snaps_to_a_legal_spot_near_the_pointer() -> None:
    with Harness("kozo", options={"table": "stand-in"}, seed=5, size=(320, 180)) as h:
        _take_2a_along_x(h)
        c = h.app.controller
        spots = {tuple(m.pos[:2]) for m in c.spots()}
        assert (0.0, 0.0) in spots
        # the footprint centre 0.6 edges off (0, 0)'s (which is (1, 0.5)): still snapped
        for dx, dy in ((0.6, 0.0), (0.0, -0.6), (-0.4, 0.4)):
            assert np.hypot(dx, dy) <= SNAP
            _hover_grid(h, 1.0 + dx, 0.5 + dy)
            assert c.legal and tuple(c.ghost_move.pos[:2]) in spots, (dx, dy, c.ghost_move)
        # over the chimney (the board's centre square): no legal spot of the domino within
        # SNAP: the ghost stays there, illegal, with the rule's words
        _hover_grid(h, 1.5, 1.5)
        near = [s for s in spots if np.hypot(s[0] + 1.0 - 1.5, s[1] + 0.5 - 1.5) <= SNAP]
        if not near:
            assert not c.legal and "chimney" in c.reason


def _pointer(direction: tuple[float, float, float]) -> Pointer:
    d = np.asarray(direction, float) / np.linalg.norm(direction)
    return Pointer(10.0, 10.0, (0.0, 0.0, 1.0), tuple(float(v) for v in d))


def _extent(cells) -> tuple[int, int, int]:  # noqa: ANN001
    a = np.asarray(cells)
    return tuple(int(v) for v in a.max(axis=0) - a.min(axis=0) + 1)  # type: ignore[return-value]


def test_turn_keys_turn_a_quarter_about_the_view_axes() -> None:
    with Harness("kozo", options={"table": "stand-in"}, seed=5, size=(320, 180)) as h:
        assert h.click_item("supply-2a")
        c = h.app.controller
        views = {"+y": (0.0, 1.0, -1.0), "+x": (1.0, 0.0, -1.0), "-y": (0.0, -1.0, -0.7),
                 "down": (0.0, 0.0, -1.0)}  # fmt: skip
        # the standing domino tipped about the screen's left-right axis lies along the view
        for view, along in (("+y", 1), ("-y", 1), ("+x", 2), ("down", 1)):  # down: right is x
            c.rot = 0
            c.on_mouse_move(_pointer(views[view]))
            h.key("t")
            assert c.rot == along, view
            h.key("g")
            assert c.rot == 0, view
            h.key("r")  # turning a standing domino about the vertical changes nothing
            assert c.rot == 0, view
        h.key("t", "r")  # from the last view: along y, then a quarter about z: along x
        assert c.rot == 2
    with Harness("kozo", options={"table": "stand-in"}, seed=5, size=(320, 180)) as h:
        assert h.click_item("supply-4L")
        c = h.app.controller
        shapes = c.orientations("4L")
        rng = np.random.default_rng(7)
        for _ in range(40):
            c.rot = int(rng.integers(len(shapes)))
            c.on_mouse_move(_pointer(views[str(rng.choice(list(views)))]))
            start = c.rot
            ex = _extent(shapes[start])
            h.key("r")
            turned = _extent(shapes[c.rot])
            assert turned == (ex[1], ex[0], ex[2])  # height kept, x and y swapped
            h.key("r", "r", "r")
            assert c.rot == start  # four quarters: no turn
            h.key("t")
            tipped = _extent(shapes[c.rot])
            assert tipped[2] != ex[2] or sorted(tipped) == sorted(ex)
            assert sorted(tipped) == sorted(ex)
            h.key("g")
            assert c.rot == start


def test_a_control_drag_turns_the_held_piece_and_plays_nothing() -> None:
    with Harness("kozo", options={"table": "stand-in"}, seed=5, size=(320, 180)) as h:
        app = h.app
        _take_2a_along_x(h)  # along x
        _hover_grid(h, 1.0, 0.5)
        c = app.controller
        hover = c.hover
        x, y = h.x, h.y
        app.modifiers(["control"])
        n = len(app.moves)
        assert not app.mouse_down(x, y, "left")
        app.mouse_move(x + TURN_DRAG_PX + 5, y)  # sideways: a quarter about the vertical
        assert c.rot == 1  # along y
        assert not app.mouse_up(x + TURN_DRAG_PX + 5, y, "left")
        assert len(app.moves) == n  # the drag played nothing
        app.modifiers([])
        assert c.hover == hover  # the ghost stayed where it was, turned
        assert c.ghost_move is not None and c.ghost_move.rot == 1


def _hue(rgb) -> float:  # noqa: ANN001
    return colorsys.rgb_to_hsv(*rgb)[0] * 360.0


def test_ghost_and_preview_blends_stay_apart_from_every_piece_and_the_spot_plates() -> None:
    """A translucent ghost (or preview plate) of colour g and opacity a over a surface T shows
    a * g + (1 - a) * T; lighting scales brightness, not hue. Over the table and over the
    board (read from an offscreen picture) those hues must lie 12 degrees or more from every
    saturated piece colour of the tower games' catalogues and from the spot plates."""
    from tablesim.games.polycubes import CATALOGUES, get_catalogue
    from tablesim.sim.view.art import hex_rgb

    with Harness("kozo", options={"table": "stand-in"}, seed=5, size=(320, 180)) as h:
        img = h.app.frame()
        assert img is not None
        _, _edge = _frame(h)
        board_px = h.pixel_of(h.app.controller.frame()[0] + np.array([0.1, 0.1, 0.0]) * _edge)
    table = np.median(img[-20:, -20:].reshape(-1, 3), axis=0) / 255.0
    board = img[int(board_px[1]), int(board_px[0])] / 255.0
    colours = [hex_rgb(p.color) for name in CATALOGUES
               if name.startswith(("kozo", "katamino-duo"))
               for p in get_catalogue(name).pieces if isinstance(p.color, str)]  # fmt: skip
    colours = [c for c in colours + [SPOT] if colorsys.rgb_to_hsv(*c)[1] > 0.25]
    assert len(colours) > 20
    for g in (LEGAL, ILLEGAL):
        for a in {GHOST_ALPHA, PREVIEW_ALPHA}:
            for under in (table, board):
                hb = _hue(a * np.asarray(g) + (1 - a) * under)
                gap = min(min(abs(hb - _hue(c)), 360 - abs(hb - _hue(c))) for c in colours)
                assert gap >= 12.0, (g, a, under, hb, gap)


@pytest.mark.parametrize("game", ["kozo", "kataboom"])
def test_the_held_piece_leaves_its_supply_slot_empty_but_for_a_faint_mark(game: str) -> None:
    """A piece taken from the supply is in the hand: its slot shows the table under a faint
    pale mark (the blend, by hand, of SLOT at SLOT_ALPHA over the wood beside the slot), not
    a piece drawn there (it was: a yellow 2a stayed in the slot while the ghost was held)."""
    from tablesim.sim.slices.common.towers import SLOT, SLOT_ALPHA

    opts = {"table": "stand-in"} if game == "kozo" else {}
    with Harness(game, options=opts, seed=5, size=(480, 270)) as h:
        c = h.app.controller
        piece = next(it.id for it in h.app.items() if it.id.startswith("supply-"))[7:]
        _, edge = _frame(h)
        # a point of the slot's footprint: the bottom face's triangle centre nearest its middle
        tri = next(it for it in h.app.items() if it.id == f"supply-{piece}").world_triangles()
        cen = tri.mean(axis=1)
        bottom = cen[np.abs(cen[:, 2] - cen[:, 2].min()) < 1e-6]
        centre = bottom[np.argmin(np.linalg.norm(bottom - bottom.mean(axis=0), axis=1))]
        y = (centre[1] - bottom[:, 1].min()) / edge - 0.5  # cells behind it in the slot
        h.click_item(f"supply-{piece}")  # Kozo: a move (touch-move); Kataboom: a selection
        assert c.selected == piece
        h.app.frame()
        ids = {it.id for it in h.app.items()}
        assert f"supply-{piece}" not in ids
        img = h.app.renderer.render().astype(float)
        sx, sy = h.pixel_of(centre)
        fx, fy = h.pixel_of(centre + np.array([0.0, -(y + 1.3) * edge, 0.0]))  # bare table
        wood = img[int(fy), int(fx)]
        want = SLOT_ALPHA * np.asarray(SLOT) * 255 + (1 - SLOT_ALPHA) * wood
        got = img[int(sy), int(sx)]
        assert np.abs(got - want).max() < 16, (got, want, wood)
