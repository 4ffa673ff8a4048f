"""The game controllers of the interactive table, driven through the offscreen input harness.

Expected values are worked out from the rules: the Kozo board is 3 x 3 cube edges with the
chimney on the centre square (1..2 x 1..2); the domino 2a in orientation r2 lies along x (cells
(0,0,0) and (1,0,0) of the catalogue); a Katamino piece placed on its hinted cells covers exactly
those cells.
"""

from __future__ import annotations

import numpy as np
import pytest

from tablesim.games.kozo.blocks import piece_orientations
from tablesim.sim.slices.common.towers import ILLEGAL, LEGAL, snap_half
from tablesim.sim.slices.kozo.referee import KozoReferee
from tablesim.sim.view.harness import Harness
from tablesim.sim.view.interact import BaseController, Controller, controller_for

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _grid_world(h: Harness, gx: float, gy: float) -> tuple[float, float, float]:
    """World point of grid (gx, gy) on the Kozo board's top."""
    table = KozoReferee(h.app.state.config, h.app.state.seed)
    p = np.asarray(table.origin) + np.array([gx, gy, 0.0]) * table.edge
    return tuple(float(v) for v in p)  # type: ignore[return-value]


def _ghost(h: Harness):  # noqa: ANN202
    return next(it for it in h.app.items() if it.id == "ghost")


def _take_domino_along_x(h: Harness) -> None:
    assert h.click_item("supply-2a")  # touch-move: taking is a move of the game
    assert h.app.state.touched == "2a"
    # r0 stands up, r1 lies along y, r2 along x (the premise); the start camera looks along
    # +y, so its left-right axis is x: t tips the standing domino about x (along y), r then
    # turns it a quarter about the vertical (along x)
    assert piece_orientations("kozo-standard", "2a") == (
        ((0, 0, 0), (0, 0, 1)), ((0, 0, 0), (0, 1, 0)), ((0, 0, 0), (1, 0, 0)))  # fmt: skip
    h.key("t")
    assert h.app.controller.rot == 1
    h.key("r")
    assert h.app.controller.rot == 2


def test_snap_half() -> None:
    assert [snap_half(v) for v in (0.24, 0.26, -0.26, 1.74, 1.76)] == [0, 0.5, -0.5, 1.5, 2.0]


def test_registry_gives_controllers() -> None:
    for name in ("kozo", "kataboom", "katamino"):
        c = controller_for(name)
        assert isinstance(c, Controller)
        assert type(c) is not BaseController
    assert type(controller_for("no-such-game")) is BaseController


def test_kozo_ghost_over_the_chimney_is_marked_illegal_with_the_rule() -> None:
    with Harness("kozo", options={"table": "stand-in"}, seed=5) as h:
        _take_domino_along_x(h)
        # footprint centred on the board's centre (1.5, 1.5): the domino covers 0.5..2.5 x 1..2
        h.hover_world(_grid_world(h, 1.5, 1.5))
        c = h.app.controller
        assert c.ghost_move is not None and c.ghost_move.pos[:2] == (0.5, 1.0)
        assert not c.legal
        assert "chimney" in c.reason
        assert _ghost(h).color == ILLEGAL
        assert any("ILLEGAL" in line for line in c.overlay())
        # a refused drop changes nothing and says why
        before = h.app.game.state_digest(h.app.state)
        assert not h.click()
        assert h.app.game.state_digest(h.app.state) == before
        assert "chimney" in h.app.explanation


def test_kozo_drop_is_measured_by_the_physics_table_and_played() -> None:
    with Harness("kozo", seed=5) as h:  # table=physics: the referee measures the drop
        _take_domino_along_x(h)
        # footprint centre (1.0, 0.5) -> minimum corner (0, 0): squares (0,0) and (1,0)
        h.hover_world(_grid_world(h, 1.0, 0.5))
        c = h.app.controller
        assert c.legal and c.ghost_move.pos == (0.0, 0.0, 0.0)
        assert _ghost(h).color == LEGAL
        assert h.click()
        move = h.app.moves[-1]
        assert (move.kind, move.piece, move.rot, move.pos) == ("place", "2a", 2, (0.0, 0.0, 0.0))
        assert move.outcome is not None and move.outcome.judge == "physics"
        state = h.app.state
        assert [it.name for it in state.tower] == ["2a"] and state.phase == "cube"
        assert h.app.busy  # the judged run is being shown
        assert h.settle() > 0 and not h.app.busy
        assert "physics table" in h.app.explanation


def test_undo_rebuilds_and_restores_the_state() -> None:
    with Harness("kozo", options={"table": "stand-in"}, seed=5) as h:
        game = h.app.game
        start = game.state_digest(h.app.state)
        _take_domino_along_x(h)
        after_take = game.state_digest(h.app.state)
        h.hover_world(_grid_world(h, 1.0, 0.5))
        assert h.click()
        h.settle()
        assert len(h.app.moves) == 2
        h.key("u")
        assert game.state_digest(h.app.state) == after_take
        h.key("u")
        assert game.state_digest(h.app.state) == start and h.app.moves == []
        assert not h.app.undo()  # nothing left


def test_kozo_balance_cube_snaps_to_a_legal_spot() -> None:
    with Harness("kozo", options={"table": "stand-in"}, seed=5) as h:
        _take_domino_along_x(h)
        h.hover_world(_grid_world(h, 1.0, 0.5))
        assert h.click()
        h.settle()
        # the domino's top is at z = 1 edge; aim at the middle of its top face (1.0, 0.5)
        table = KozoReferee(h.app.state.config, h.app.state.seed)
        top = np.asarray(table.origin) + np.array([1.0, 0.5, 1.0]) * table.edge
        h.hover_world(top)
        c = h.app.controller
        assert c.ghost_move.kind == "cube" and c.legal
        assert abs(c.ghost_move.pos[2] - 1.0) < 1e-6  # resting on the domino
        assert h.click()
        assert h.app.state.phase == "place" and h.app.state.to_move == 1


def test_kozo_against_a_bot_the_bot_moves_after_the_person() -> None:
    with Harness("kozo", options={"table": "stand-in"}, players=("human", "random"), seed=5) as h:
        _take_domino_along_x(h)
        h.hover_world(_grid_world(h, 1.0, 0.5))
        assert h.click()
        h.settle()
        table = KozoReferee(h.app.state.config, h.app.state.seed)
        h.hover_world(np.asarray(table.origin) + np.array([1.0, 0.5, 1.0]) * table.edge)
        assert h.click()
        frames = h.settle()
        # the bot took its turn (take, place, cube) and it is the person's turn again
        assert h.app.state.to_move == 0 and frames > 0
        seats = [it.seat for it in h.app.state.tower]
        assert seats.count(1) >= 1 or h.app.state.round == 2
        # undo takes back the bot's moves and the person's last move (the cube): left are
        # the person's take and place, and the person is to place the cube again
        h.key("u")
        assert len(h.app.moves) == 2
        assert h.app.state.to_move == 0 and h.app.state.phase == "cube"


def test_kataboom_ghost_and_nudge() -> None:
    with Harness("kataboom", options={"table": "stand-in"}, seed=1) as h:
        names = [it.name for it in h.app.state.structure]
        assert h.app.controller.selected is None
        h.click_item(f"supply-{h.app.state.supply[0]}")
        assert h.app.controller.selected == h.app.state.supply[0]
        # 0.3 m from the model the piece would rest on the table, not on the structure:
        # Kataboom's rule forbids it
        h.hover_world((0.3, 0.3, 0.0))
        c = h.app.controller
        assert c.ghost_move is not None and c.ghost_move.pos[2] == 0.0
        assert not c.legal and "placed on the structure" in c.reason
        h.key("n")  # nudge mode: push a piece of the starting model (the highest: nothing
        # lies on it, so the pointer aimed at its top hits it)
        drawn = {it.id: it for it in h.app.items()}
        top = max(names, key=lambda n: drawn[n].top())
        assert h.click_item(top)
        move = h.app.moves[-1]
        assert move.kind == "nudge" and move.piece == top
        assert 0 < float(np.linalg.norm(move.push)) <= 5.0
        assert h.app.state.nudged == 1


def _katamino(h: Harness):  # noqa: ANN202
    from tablesim.games.katamino.game import family

    return family(h.app.state.mode)


def _turn_to(h: Harness, name: str, want: tuple[tuple[int, int, int], ...]) -> None:
    """Press turn keys (r: a quarter turn about the vertical, t: about the x axis, f: flip)
    until the held piece ``name`` has the cells ``want``: a breadth-first search over what the
    keys do, as a person would try them."""
    c = h.app.controller
    ors = c.orientations(name)
    start = c.orient
    paths: dict[int, str] = {start: ""}
    frontier = [start]
    while frontier and ors.index(want) not in paths:
        nxt = []
        for o in frontier:
            for k in "rtf":
                c.orient = o
                h.key(k)
                if c.orient not in paths:
                    paths[c.orient] = paths[o] + k
                    nxt.append(c.orient)
        frontier = nxt
    c.orient = start
    for k in paths[ors.index(want)]:
        h.key(k)
    assert ors[c.orient] == want


def test_katamino_piece_taken_keeps_its_orientation_and_r_turns_a_quarter() -> None:
    from tablesim.games.polycubes import get_catalogue
    from tablesim.sim.slices.katamino.controller import turned

    # by hand: the L of cells (0,0) (1,0) (2,0) (0,1) turned anticlockwise seen from above
    # ((x, y) -> (-y, x)) is (0,0) (0,1) (0,2) (-1,0), shifted by +1 in x: (1,0) (1,1) (1,2) (0,0)
    ell = ((0, 0, 0), (0, 1, 0), (1, 0, 0), (2, 0, 0))  # sorted, as cells are kept
    assert turned(ell, "r") == ((0, 0, 0), (1, 0, 0), (1, 1, 0), (1, 2, 0))
    assert turned(turned(ell, "r"), "e") == ell
    cat = get_catalogue("katamino-duo")
    with Harness("katamino", options={"mode": "traditional"}, players=("human",), seed=0) as h:
        c = h.app.controller
        for name in c.loose():
            h.click_item(f"piece-{name}")
            held = c.orientations(name)[c.orient]
            lying = tuple(sorted(tuple(int(v) for v in p) for p in cat.piece(name).cells))
            assert held == lying, name  # picked up as it lies, not in the list's first way
            cells = held
            for _ in range(4):  # four quarter turns: back where it started
                h.key("r")
                now = c.orientations(name)[c.orient]
                assert now == turned(cells, "r"), name
                cells = now
            assert cells == held
            h.key("x")


def test_katamino_piece_dragged_onto_the_board_is_placed() -> None:
    from tablesim.sim.slices.katamino.drawing import cell_centre

    with Harness("katamino", options={"mode": "traditional"}, players=("human",), seed=0) as h:
        fam = _katamino(h)
        hint = fam.solver_hint(h.app.state).placement
        cells = np.asarray(hint.cells)
        c = h.app.controller
        h.move(*h.item_pixel(f"piece-{hint.name}"))
        h.app.mouse_down(h.x, h.y, "left")
        assert c.selected == hint.name
        want = tuple(sorted(map(tuple, cells - cells.min(axis=0))))
        _turn_to(h, hint.name, want)
        shape = np.asarray(want)
        mid = shape[np.argmin(np.linalg.norm(shape - shape.mean(axis=0), axis=1))]
        cell = mid + cells.min(axis=0)
        played = h.drag(h.pixel_of(cell_centre(c.table(), cell)))
        assert played, h.app.explanation
        placed = h.app.state.placed
        assert placed == ((hint.name, tuple(sorted(map(tuple, cells)))),)
        h.settle()
        drawn = next(it for it in h.app.items() if it.id == f"piece-{hint.name}")
        assert drawn.position[2] > 0.005  # on the board's top, not on the table


def test_katamino_drop_off_the_board_is_refused() -> None:
    from tablesim.sim.slices.katamino.drawing import cell_centre

    with Harness("katamino", options={"mode": "traditional"}, players=("human",), seed=0) as h:
        c = h.app.controller
        name = c.loose()[0]
        h.click_item(f"piece-{name}")
        # column 9 is far right of the 3-wide target
        h.hover_world(cell_centre(c.table(), (9, 2)))
        assert c.ghost_move is not None and not c.legal and "off the target" in c.reason
        assert not h.click()
        assert h.app.state.placed == ()


def test_katamino_hint_and_watch_the_solver_finish() -> None:
    with Harness("katamino", options={"mode": "traditional"}, players=("human",), seed=0) as h:
        fam = _katamino(h)
        stage_pieces = len(fam.stage_pieces(h.app.state))
        assert h.key("h")
        assert h.app.state.hints == 1 and h.app.state.note.startswith("hint:")
        assert any(it.id == "ghost-hint" for it in h.app.items())
        h.key("w")
        for _ in range(stage_pieces * 40):
            h.app.tick(0.05)
            if h.app.state.stage > 0 or h.app.game.is_terminal(h.app.state):
                break
        # the first stage was filled by exactly its pieces, one move each
        assert h.app.state.stage > 0 or h.app.game.is_terminal(h.app.state)
        places = [m for m in h.app.moves if getattr(m, "kind", None) == 3]
        assert len(places) >= stage_pieces


def test_katamino_duel_race_move_costs_the_real_seconds_since_the_board_was_shown() -> None:
    from tablesim.sim.slices.katamino.controller import _norm
    from tablesim.sim.slices.katamino.drawing import cell_centre

    with Harness("katamino", options={"mode": "duel"}, players=("human", "human"), seed=0) as h:
        c = h.app.controller
        assert h.app.state.phase == "race" and h.app.seat == 0
        clock = [100.0]
        c.now = lambda: clock[0]
        c.shown_at = 100.0
        clock[0] = 112.34  # the person took 12.34 s: the rules count 12.3 (one decimal)
        move = next(m for m in h.app.game.legal_moves(h.app.state) if m.kind == 2)
        h.click_item(f"piece-{move.piece}")
        want = _norm(move.cells)
        _turn_to(h, move.piece, want)
        cells = np.asarray(move.cells)
        shape = np.asarray(want)
        mid = shape[np.argmin(np.linalg.norm(shape - shape.mean(axis=0), axis=1))]
        assert h.click_world(cell_centre(c.table(), c.to_board(mid + cells.min(axis=0))))
        assert h.app.moves[-1].secs == 12.3
        assert h.app.state.seats[0].clock == 12.3
        assert any("P1 12.3 s" in line for line in c.overlay())


def test_katamino_piece_goes_into_a_3d_box_at_the_lowest_layer_it_fits() -> None:
    from tablesim.sim.slices.katamino.controller import _norm
    from tablesim.sim.slices.katamino.drawing import cell_centre

    with Harness("katamino", options={"mode": "construction"}, players=("human",), seed=0) as h:
        fam = _katamino(h)
        assert fam.stage_target(h.app.state).dims == 3
        hint = fam.solver_hint(h.app.state).placement
        cells = np.asarray(hint.cells)
        assert cells[:, 2].min() == 0  # premise: on an empty box it stands on the bottom layer
        c = h.app.controller
        h.click_item(f"piece-{hint.name}")
        want = _norm(hint.cells)
        _turn_to(h, hint.name, want)
        shape = np.asarray(want)
        mid = shape[np.argmin(np.linalg.norm(shape - shape.mean(axis=0), axis=1))]
        col, row = (mid + cells.min(axis=0))[:2]
        assert h.click_world(cell_centre(c.table(), (col, row))), h.app.explanation
        assert h.app.state.placed == ((hint.name, tuple(sorted(map(tuple, cells)))),)


def test_kozo_legal_spots_of_a_domino_on_the_empty_board() -> None:
    # a domino along x (2 x 1) on the 3 x 3 board, half-cube steps, off the chimney (the
    # centre square 1..2 x 1..2): its y-range must avoid 1..2 -> y in {0, 2} (y = 0.5 or 1.5
    # overlaps, and every x in 0..1 overlaps the chimney's x-range); x in {0, 0.5, 1}
    with Harness("kozo", options={"table": "stand-in"}, seed=5) as h:
        _take_domino_along_x(h)
        h.key("l")
        c = h.app.controller
        got = sorted(m.pos for m in c.spots())
        want = sorted((x, y, 0.0) for x in (0.0, 0.5, 1.0) for y in (0.0, 2.0))
        assert got == want
        drawn = [it.id for it in h.app.items() if it.id.startswith("ghost-spot-")]
        assert len(drawn) == 6


def test_the_nudged_piece_is_marked_through_its_film_until_the_next_move() -> None:
    """A push of 2.5 mN s moves a piece about a millimetre (under a pixel at the start view):
    the piece pushed is drawn white (PUSHED) from the click on, and not after the next move."""
    from tablesim.sim.slices.kataboom.controller import PUSHED

    with Harness("kataboom", options={"table": "stand-in"}, seed=1) as h:
        names = [it.name for it in h.app.state.structure]
        drawn = {it.id: it for it in h.app.items()}
        top = max(names, key=lambda n: drawn[n].top())
        assert tuple(drawn[top].color) != PUSHED
        h.key("n")
        assert h.click_item(top)
        h.app.frame()
        assert tuple(next(it for it in h.app.items() if it.id == top).color) == PUSHED
        img = h.app.renderer.render().astype(int)
        x, y = h.item_pixel(top)
        assert img[int(y), int(x)].min() > 150  # a light piece on the screen
        h.settle()
        legal = h.app.game.legal_moves(h.app.state)
        assert h.app.play(next(m for m in legal if m.kind != "nudge"))
        h.settle()
        h.app.frame()
        assert tuple(next(it for it in h.app.items() if it.id == top).color) != PUSHED
