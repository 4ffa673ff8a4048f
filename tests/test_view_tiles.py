"""Click controllers of Kaito, Katoiz and Catego (sim/view/interact/tiles.py).

Clicks are made as the app makes them: a pixel of the picture the game's table is drawn in
(the table's own camera), turned into a world ray (``camera.pixel_ray``). The pixel of a place
is the projection of the place's centre as the *table modules* compute it (``cell_centre``,
``pad_cell_centre``), so picking is checked against the drawing, not against itself. The
expected moves come from the games' ``legal_moves`` and the expected reasons from the games'
``apply``.
"""

from __future__ import annotations

import numpy as np
import pytest

from tablesim.games.core import IllegalMoveError
from tablesim.games.registry import get_game
from tablesim.games.rng import Rng
from tablesim.sim.view.camera import camera_for_scene, pixel_ray
from tablesim.sim.view.drawings import layout_for_state
from tablesim.sim.view.interact import Pointer, controller_for

SIZE = (960, 540)


def pointer(game: str, state, world, button: str = "left") -> Pointer:  # noqa: ANN001
    """A click at the pixel where world point ``world`` is drawn on ``state``'s table."""
    layout = layout_for_state(game, state)
    view = camera_for_scene(layout.camera, layout.points(), SIZE[0] / SIZE[1])
    px = view.project(np.array([world], dtype=float), SIZE)[0]
    o, d = pixel_ray(view, SIZE, float(px[0]), float(px[1]))
    return Pointer(float(px[0]), float(px[1]), tuple(o), tuple(d), button=button)


def kaito_point(state, cell: int):  # noqa: ANN001
    from tablesim.sim.slices.kaito.drawing import cell_centre
    from tablesim.sim.slices.kaito.state_layout import kaito_state_table

    on_tile = state.board[cell] is not None
    return cell_centre(kaito_state_table(state), (cell % 6, cell // 6), 1 if on_tile else 0)


def katoiz_point(state, xy):  # noqa: ANN001
    from tablesim.sim.slices.katoiz.drawing import cell_centre
    from tablesim.sim.slices.katoiz.state_layout import katoiz_state_table

    table = katoiz_state_table(state)
    h = next((len(s.tiles) for s in table.stacks if tuple(s.cell) == tuple(xy)), 0)
    return cell_centre(table, xy, h)


def catego_point(state, label: int):  # noqa: ANN001
    from tablesim.sim.slices.catego.drawing import pad_cell_centre

    cfg = state.config
    seat = state.turn % cfg.players
    return pad_cell_centre(cfg.players, len(cfg.columns), seat, cfg.columns.index(label))


# ---- Kaito -----------------------------------------------------------------------------


def _kaito_click(c, state, cell):  # noqa: ANN001, ANN202
    return c.on_click(pointer("kaito", state, kaito_point(state, cell)))


def test_kaito_game_played_by_clicks_matches_the_moves() -> None:
    """A seeded Kaito game, every move made by clicks (the Kaito then the target), trades by
    the numbered choice, reaches the same state as applying the moves directly."""
    game = get_game("kaito")
    state = game.new_game(game.make_config({}, players=2), 11)
    c = controller_for("kaito")
    rng = Rng.from_seed(5, "test")
    for _ in range(30):
        if game.is_terminal(state):
            break
        c.reset(game, state)
        move, rng = rng.choice(game.legal_moves(state))
        if move.kind == "remove":
            got = _kaito_click(c, state, move.cells[1])
        elif move.kind == "place":
            got = _kaito_click(c, state, move.to)
        else:
            assert _kaito_click(c, state, state.kaito) is None  # select the Kaito
            assert c.clicks == [("kaito",)]
            targets = {(m.to % 6, m.to // 6) for m in game.legal_moves(state) if m.kind == "move"}
            assert c.next_places() == targets
            got = _kaito_click(c, state, move.to)
            same_cell = [m for m in game.legal_moves(state) if m.to == move.to]
            if len(same_cell) > 1:  # a capture with trades: a numbered choice
                assert got is None and c.choices == same_cell
                got = c.on_key(str(same_cell.index(move)))
        assert got == move
        state = game.apply(state, got)


def test_kaito_trade_is_a_numbered_choice() -> None:
    """A capture that allows trades: clicking the target offers every legal move landing
    there (no trade first), numbered; a key picks one."""
    game = get_game("kaito")
    state = game.new_game(game.make_config({}, players=2), 0)
    rng = Rng.from_seed(0, "x")  # seeded random play reaches a trade at turn 6
    while not any(m.buy for m in game.legal_moves(state)):
        move, rng = rng.choice(game.legal_moves(state))
        state = game.apply(state, move)
    trade = next(m for m in game.legal_moves(state) if m.buy)
    same_cell = [m for m in game.legal_moves(state) if m.to == trade.to]
    assert same_cell[0].buy == ""  # sorted: the plain capture first
    c = controller_for("kaito")
    c.reset(game, state)
    assert _kaito_click(c, state, trade.to) is None
    assert c.choices == same_cell
    for k, m in enumerate(same_cell):
        assert f"{k}: {game.format_move(state, m)}" in c.message
    assert c.on_key(str(len(same_cell))) is None and "there are" in c.message  # out of range
    assert c.on_key(str(same_cell.index(trade))) == trade


def test_kaito_illegal_click_explained_and_changes_nothing() -> None:
    game = get_game("kaito")
    state = game.new_game(game.make_config({}, players=2), 4)
    for m in (game.legal_moves(state)[0],):
        state = game.apply(state, m)
    state = game.apply(state, game.legal_moves(state)[0])  # the Kaito is placed
    c = controller_for("kaito")
    c.reset(game, state)
    targets = set(state.targets)
    bad = next(
        i for i in range(36) if i not in targets and i != state.kaito and state.board[i]
    )  # a tile off the Kaito's lines
    from tablesim.games.kaito.rules import Move

    with pytest.raises(IllegalMoveError) as info:
        game.apply(state, Move("move", (bad,)))
    assert _kaito_click(c, state, bad) is None
    assert c.message == str(info.value)
    assert c.clicks == [] and game.legal_moves(state) == c.game.legal_moves(c.state)
    # the highlights still show the legal targets (and the Kaito, to select), nothing selected
    assert c.next_places() == {(t % 6, t // 6) for t in targets} | {("kaito",)}


# ---- Katoiz ----------------------------------------------------------------------------


def _katoiz_path(state, move) -> list:  # noqa: ANN001
    """The places to click for ``move``, from the adapter's geometry (not the controller)."""
    kind = type(state).__name__
    board = lambda cell: (cell % 6, cell // 6)  # noqa: E731
    if kind == "SetState":
        path = [board(move.rem)] if move.rem >= 0 else []
        if move.kind == "move":
            path.append(board(move.src))
        return [*path, board(move.dst)]
    if kind == "StapelState":
        from tablesim.games.katoiz.stapeltje import HOME, SIDES, geo

        if move.dst == HOME:
            side = SIDES[geo(state.config).sides[state.seat]]
            return [board(move.src), (side[2], side[3])]
        return [board(move.src), board(move.dst)]
    from tablesim.sim.slices.katoiz.state_layout import _in_front, katoiz_state_table

    k = state.supply.index(move.tile)
    rows = katoiz_state_table(state).rows
    first = (k % 6, k // 6)
    if move.kind == "start":
        return [first]
    dst = move.dst if move.kind == "add" else len(state.stacks[state.seat])
    return [first, _in_front(state.seat, dst, rows)]


@pytest.mark.parametrize(
    ("options", "seed"),
    [
        ({"type": "3-set"}, 2),
        ({"type": "stapeltje"}, 3),
        ({"type": "stapeltoren"}, 4),
        ({"type": "3-set", "level": 4}, 6),
    ],  # fmt: skip
)
def test_katoiz_moves_played_by_clicks(options: dict, seed: int) -> None:
    """Seeded Katoiz games of each type, every move but a pass made by clicking its places;
    a pass by the key ``p``."""
    game = get_game("katoiz")
    state = game.new_game(game.make_config(options, players=2), seed)
    c = controller_for("katoiz")
    rng = Rng.from_seed(seed, "test")
    clicked = 0
    for _ in range(14):
        if game.is_terminal(state):
            break
        c.reset(game, state)
        moves = game.legal_moves(state)
        real = [m for m in moves if m.kind != "pass"]
        move, rng = rng.choice(real or moves)
        if move.kind == "pass":
            for place in _katoiz_path(state, move)[:-1] if move.rem >= 0 else []:
                c.on_click(pointer("katoiz", state, katoiz_point(state, place)))
            got = c.on_key("p")
        else:
            got = None
            for place in _katoiz_path(state, move):
                assert got is None
                got = c.on_click(pointer("katoiz", state, katoiz_point(state, place)))
            if got is None and c.choices:  # equivalent duplicates: any is the move
                got = c.on_key(str(c.choices.index(move)))
            clicked += 1
        assert got == move, (c.message, c.clicks)
        state = game.apply(state, got)
    assert clicked >= 5


def test_katoiz_illegal_click_explained() -> None:
    """Stapeltje: clicking a stack whose top does not show the dice gives apply's reason."""
    from tablesim.games.katoiz.components import Move, fits

    game = get_game("katoiz")
    state = game.new_game(game.make_config({"type": "stapeltje"}, players=2), 3)
    c = controller_for("katoiz")
    c.reset(game, state)
    bad = next(
        i for i in range(36) if state.stacks[i] and not fits(state.stacks[i][-1], state.roll)
    )
    with pytest.raises(IllegalMoveError) as info:
        game.apply(state, Move("move", src=bad, dst=bad))
    got = c.on_click(pointer("katoiz", state, katoiz_point(state, (bad % 6, bad // 6))))
    assert got is None and c.clicks == []
    assert c.message == str(info.value)
    assert "does not show" in c.message


# ---- Catego ----------------------------------------------------------------------------


def test_catego_entries_by_clicking_columns() -> None:
    """A whole 2-player Catego game written by clicking pad columns."""
    game = get_game("catego")
    state = game.new_game(game.make_config({}, players=2), 9)
    c = controller_for("catego")
    rng = Rng.from_seed(9, "test")
    while not game.is_terminal(state):
        c.reset(game, state)
        move, rng = rng.choice(game.legal_moves(state))
        got = c.on_click(pointer("catego", state, catego_point(state, move)))
        assert got == move
        state = game.apply(state, got)
    assert state.turn == 2 * len(state.config.columns)


def test_catego_closed_column_click_explained() -> None:
    game = get_game("catego")
    state = game.new_game(game.make_config({"first_entry": "off"}, players=2), 1)
    first = game.legal_moves(state)[0]
    state = game.apply(state, first)
    state = game.apply(state, game.legal_moves(state)[0])  # seat 0 to move again
    c = controller_for("catego")
    c.reset(game, state)
    with pytest.raises(IllegalMoveError) as info:
        game.apply(state, first)
    assert c.on_click(pointer("catego", state, catego_point(state, first))) is None
    assert c.message == str(info.value) and "closed" in c.message
    assert ("col", first) not in c.next_places()


def test_a_click_off_the_table_changes_nothing() -> None:
    game = get_game("catego")
    state = game.new_game(game.make_config({}, players=2), 1)
    c = controller_for("catego")
    c.reset(game, state)
    a, b = state.roll
    assert c.overlay() == [f"P1 rolled {a}+{b}={a + b}: click a green column"]
    assert c.on_click(pointer("catego", state, (0.5, 0.5, 0.0))) is None
    assert c.clicks == [] and "no tile" in c.message


def test_hover_brightens_a_green_place_only() -> None:
    from tablesim.sim.slices.common.tiles import HOVER, TARGET

    game = get_game("kaito")
    state = game.new_game(game.make_config({}, players=2), 4)
    state = game.apply(state, game.legal_moves(state)[0])
    state = game.apply(state, game.legal_moves(state)[0])
    c = controller_for("kaito")
    c.reset(game, state)
    t = state.targets[0]
    c.on_mouse_move(pointer("kaito", state, kaito_point(state, t), button=None))
    lit = c.highlights()
    assert lit[f"tile-{t % 6}-{t // 6}"] == HOVER
    assert sum(1 for v in lit.values() if v == TARGET) == len(state.targets) - 1 + 1  # + Kaito
    bad = next(i for i in range(36) if state.board[i] and i not in state.targets)
    c.on_mouse_move(pointer("kaito", state, kaito_point(state, bad), button=None))
    assert HOVER not in c.highlights().values()


@pytest.mark.parametrize("name", ["kaito", "katoiz", "catego"])
def test_the_tile_games_markers_are_translucent_like_the_tower_ghosts(name: str) -> None:
    """Issue 32: the tile games' ghosts (the markers on green places and on the selection) are
    drawn translucent at the tower games' GHOST_ALPHA and cast no shadow, so the tile under
    a marker shows through (the blend itself: tests/test_view_translucent.py)."""
    from tablesim.sim.slices.common.towers import GHOST_ALPHA

    game = get_game(name)
    state = game.new_game(game.make_config({}, players=2), 3)
    c = controller_for(name)
    c.reset(game, state)
    marks = list(c.ghosts())
    assert marks, "the start position marks its green places"
    assert GHOST_ALPHA < 1.0
    assert all(m.alpha == GHOST_ALPHA and not m.casts_shadow for m in marks), marks[:1]
