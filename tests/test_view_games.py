"""The registered games' states on the table: seeded playouts, every state drawn as a layout
(counted against the state), one frame per game checked in its pixels against the state.

The games are being written alongside; the adapters (``sim/view/drawings/adapters.py``) are the
one place that follows their state formats, and these tests are what tells when one moved.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("panda3d.core")

from tablesim.games.registry import game_names, get_game  # noqa: E402
from tablesim.games.rng import Rng  # noqa: E402
from tablesim.sim.view.art import hex_rgb  # noqa: E402
from tablesim.sim.view.drawings import drawing_for, layout_for_state  # noqa: E402
from tablesim.sim.view.renderer import Renderer  # noqa: E402

TOP = {"yaw": 0.0, "pitch": -89.0, "fill": 0.9}


def _playout(name: str, options: dict[str, Any], moves: int, seed: int = 3) -> list[Any]:
    """States of a seeded random playout (the choices from tablesim.games.rng, so it is repeatable)."""
    game = get_game(name)
    state = game.new_game(game.make_config(options, players=2), seed)
    rng = Rng.from_seed(seed, "view-test", name)
    states = [state]
    for _ in range(moves):
        if game.is_terminal(state):
            break
        move, rng = rng.choice(game.legal_moves(state))
        state = game.apply(state, move)
        states.append(state)
    return states


def _frame(layout, size=(360, 360)):  # noqa: ANN001, ANN202
    with Renderer(size, backend="tiny", supersample=2) as r:
        view = r.show(layout, TOP)
        return r.render().astype(float), view


def _like(px: np.ndarray, rgb, tol: float = 40.0) -> np.ndarray:  # noqa: ANN001
    c = np.asarray(rgb, dtype=float)
    k = px @ c / (c @ c)
    return (np.linalg.norm(px - k[..., None] * c, axis=-1) < tol) & (k > 0.5) & (k < 1.15)


def _at(px: np.ndarray, xy: np.ndarray, r: int = 1) -> np.ndarray:
    c, row = (int(round(v)) for v in xy)
    return px[row - r : row + r + 1, c - r : c + r + 1].reshape(-1, 3)


def test_every_registered_game_is_drawn() -> None:
    """Every registered game has a table adapter (a new game shows up here)."""
    assert all(callable(drawing_for(name)) for name in game_names())


def test_kaito_states_drawn_tile_for_tile() -> None:
    from tablesim.sim.slices.kaito.drawing import SIDE_COLOURS, TILE, cell_centre, kaito_layout
    from tablesim.sim.slices.kaito.state_layout import kaito_state_table

    states = _playout("kaito", {}, 14)
    for st in states[::3] + states[-1:]:
        lay = layout_for_state("kaito", st)
        tiles = sum(t is not None for t in st.board)
        held = len(st.held[0]) + len(st.held[1])
        kaito = 0 if st.kaito is None else 2  # the two halves of the disc
        labels = 6 + 6  # files a-f and ranks 1-6 beside the grid
        assert len(lay.items) == tiles + held + kaito + labels
        assert sum(it.id.startswith("label-") for it in lay.items) == labels
    st = states[-1]
    table = kaito_state_table(st)
    px, view = _frame(kaito_layout(table))
    checked = 0
    for cell, code in enumerate(st.board):
        if code is None or code == "O" or cell == st.kaito:
            continue
        xy = (cell % 6, cell // 6)
        p = cell_centre(table, xy) + np.array([-0.33 * TILE, 0.33 * TILE, 0.0])
        colour = np.asarray(hex_rgb(SIDE_COLOURS["red" if code[0] == "R" else "black"])) * 255
        assert _like(_at(px, view.project(p[None], (360, 360))[0]), colour).mean() > 0.7, code
        checked += 1
    assert checked > 20
    # the Kaito shows the colour of the player to move (the mover flipped it)
    assert table.kaito_up == ("red" if st.player == 0 else "black")


@pytest.mark.parametrize("kind", ["3-set", "stapeltje", "stapeltoren"])
def test_katoiz_states_drawn(kind: str) -> None:
    from tablesim.games.katoiz.components import COLOURS as GAME_COLOURS
    from tablesim.games.katoiz.components import TILES
    from tablesim.sim.slices.katoiz.drawing import COLOURS, cell_centre, katoiz_layout
    from tablesim.sim.slices.katoiz.state_layout import katoiz_state_table

    states = _playout("katoiz", {"type": kind}, 12)
    for st in states:
        table = katoiz_state_table(st)
        lay = katoiz_layout(table)
        n_tiles = sum(len(s.tiles) for s in table.stacks)
        dice = 0 if table.roll is None else 1 + (table.roll[1] is not None)
        assert len(lay.items) == n_tiles + len(table.discs) + dice
        if kind == "3-set":  # every tile still on the board, plus the players' piles
            assert n_tiles == sum(t >= 0 for t in st.board) + sum(len(p) for p in st.piles)
            assert len(table.discs) == sum(d >= 0 for d in st.discs)
        elif kind == "stapeltje":  # 36 on the board and the home stacks: nothing is lost
            assert n_tiles == sum(len(s) for s in st.stacks) + sum(len(h) for h in st.homes)
        else:
            assert n_tiles == len(st.supply) + sum(len(s) for own in st.stacks for s in own)
    if kind != "3-set":
        return
    st = states[-1]
    table = katoiz_state_table(st)
    px, view = _frame(katoiz_layout(table))
    discs = {d.cell for d in table.discs}
    checked = 0
    for cell, tile in enumerate(st.board):
        xy = (cell % 6, cell // 6)
        if tile < 0 or xy in discs:
            continue
        colour = np.asarray(hex_rgb(COLOURS[GAME_COLOURS[TILES[tile][0]]])) * 255
        p = view.project(cell_centre(table, xy)[None], (360, 360))[0]
        assert _like(_at(px, p), colour).mean() > 0.7, (xy, tile)
        checked += 1
    assert checked > 20


def test_kozo_state_drawn_as_its_tower() -> None:
    """A stand-in-judged Kozo game: the board plus one item per piece on the tower, each
    polycube in its catalogue colour at the pose the state holds."""
    from tablesim.games.polycubes import get_catalogue

    states = _playout("kozo", {"table": "stand-in"}, 6)
    colours = {p.name: p.color for p in get_catalogue("kozo-standard").pieces}
    for st in states:
        lay = layout_for_state("kozo", st)
        assert len(lay.items) == 1 + len(st.tower)
        for it in st.tower:
            if not it.is_balance:
                assert lay.item(it.name).color == pytest.approx(hex_rgb(colours[it.name]))
    px, _ = _frame(layout_for_state("kozo", states[-1]), (160, 90))
    assert px.shape == (90, 160, 3)


@pytest.mark.parametrize(
    ("name", "players", "items"),
    [
        pytest.param("kozo", "greedy,greedy", "tower", marks=pytest.mark.slow),  # 4 s
        ("kataboom", "random,random", "structure"),
    ],
)
def test_film_of_a_move_is_the_judged_run(name: str, players: str, items: str, tmp_path) -> None:  # noqa: ANN001
    """A game on the physics table: the film of a move replays the run its referee measured --
    its last sampled poses are the settled poses the game state recorded for that move."""
    import json

    from tablesim.games.core import make_referee
    from tablesim.games.log import read_log_file
    from tablesim.sim.cli import main
    from tablesim.sim.view.film import judged_move_run

    log = tmp_path / f"{name}.jsonl"
    args = ["play", name, "--players", players, "--seed", "2", "--headless", "--log", str(log)]
    assert main(args + (["--rounds", "1"] if name == "kozo" else [])) == 0
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    game = get_game(name)
    config = game.config_from_json(lines[0]["config"])
    seed = lines[0]["seed"]
    texts = [x["move"] for x in lines if x["type"] == "move"]
    number = next(i for i, t in enumerate(texts, 1) if not t.startswith(("take", "nocube")))
    state, samples = judged_move_run(read_log_file(str(log)), number)
    assert samples[0][0] == pytest.approx(0.01)  # one sample per 10 ms check of the watch
    table = make_referee(game.referee_name(config), game, config, seed)  # as the game was played
    last = samples[-1][1]
    assert {it.name for it in getattr(state, items)} <= set(last)  # every piece was filmed
    for item in getattr(state, items):
        pos, quat = last[item.name]
        assert table.to_grid(pos, quat) == pytest.approx(item.pose, abs=1e-9), item.name
    out = tmp_path / "move.gif"
    code = main(["record", str(log), "--at", str(number), "-o", str(out), "--size", "64x36",
                 "--fps", "10", "--backend", "tiny"])  # fmt: skip
    assert code == 0 and out.is_file()


@pytest.mark.parametrize("mode", ["duel", "duel3d"])
def test_katamino_duel_states_drawn(mode: str) -> None:
    """Both players' pieces, placed (on the board, seat 1 turned half round) or in hand, each
    once; a slider at the end of each flat Penta."""
    from tablesim.games.katamino.duel import DUEL_GAME
    from tablesim.sim.config import PhysicsConfig
    from tablesim.sim.slices.katamino.drawing import board_origin, katamino_layout
    from tablesim.sim.slices.katamino.state_layout import katamino_state_table

    states = _playout("katamino", {"mode": mode}, 20)
    assert any(p.placed for st in states for p in st.seats)  # something got placed
    for st in states[::5] + states[-1:]:
        table = katamino_state_table(st)
        lay = katamino_layout(table)
        pieces = [i for i in lay.ids if i.startswith("piece-")]
        want = sum(len(p.placed) + len(DUEL_GAME.remaining(p)) for p in st.seats)
        assert len(pieces) == want
        flat = {p.size if k == 0 else 12 - p.size for k, p in enumerate(st.seats) if p.size}
        assert set(table.sliders) == flat
        # where each placed piece lies: seat 0 in its own frame, seat 1 turned half round
        origin, a = board_origin(table), PhysicsConfig().katamino_cube
        for k, p in enumerate(st.seats):
            for name, cells in p.placed:
                xs, ys, zs = (np.array([c[i] for c in cells]) for i in range(3))
                col, row = (xs.min(), ys.min()) if k == 0 else (11 - xs.max(), 4 - ys.max())
                want_corner = origin + np.array([col, row, zs.min()]) * a
                assert lay.item(f"piece-{name}").position == pytest.approx(want_corner), name


def test_kataboom_state_drawn() -> None:
    states = _playout("kataboom", {"table": "stand-in"}, 6)
    for st in states:
        lay = layout_for_state("kataboom", st)
        assert len(lay.items) == len(st.structure)
    px, _ = _frame(layout_for_state("kataboom", states[-1]), (160, 90))
    assert px.shape == (90, 160, 3)


@pytest.mark.parametrize("mode", ["traditional", "solo3d", "picture"])
def test_katamino_solo_states_drawn(mode: str) -> None:
    """A solo puzzle: every piece of the stage once, placed ones where the state has them."""
    from tablesim.games.katamino.solo import SOLO_GAME
    from tablesim.sim.config import PhysicsConfig
    from tablesim.sim.slices.katamino.drawing import board_origin, katamino_layout
    from tablesim.sim.slices.katamino.state_layout import katamino_state_table

    game = get_game("katamino")
    state = game.new_game(game.make_config({"mode": mode}, players=1), 2)
    rng = Rng.from_seed(2, "view-test", mode)
    for _ in range(4):
        if game.is_terminal(state):
            break
        move, rng = rng.choice(game.legal_moves(state))
        state = game.apply(state, move)
    assert state.placed
    table = katamino_state_table(state)
    lay = katamino_layout(table)
    pieces = [i for i in lay.ids if i.startswith("piece-")]
    assert len(pieces) == len(state.placed) + len(SOLO_GAME.remaining(state))
    origin, a = board_origin(table), PhysicsConfig().katamino_cube
    for name, cells in state.placed:
        corner = origin + np.min(np.asarray(cells), axis=0) * a
        assert lay.item(f"piece-{name}").position == pytest.approx(corner), name
