"""Kaito, Katoiz and Catego at the interactive table, driven by the input harness offscreen.

The harness sends mouse and key events to the app exactly as a window does (tiny backend, no
display); the app picks the item under the pixel, the game's controller turns the click into
a move, the app plays it. Expected moves come from the games' ``legal_moves``, expected reasons
from their ``apply``.
"""

from __future__ import annotations

import numpy as np
import pytest

from tablesim.games.core import IllegalMoveError
from tablesim.sim.slices.catego.drawing import pad_cell_centre
from tablesim.sim.view.dice import up_face
from tablesim.sim.view.harness import Harness
from tablesim.sim.view.interact.tiles_app import TilesApp, app_for

SIZE = (480, 270)


def _harness(game: str, **kw) -> Harness:  # noqa: ANN003
    kw.setdefault("size", SIZE)
    kw.setdefault("backend", "tiny")
    return Harness(app=app_for(game, **kw))


def _kaito_opening(h: Harness):  # noqa: ANN202
    """Remove the opening tiles and place the Kaito by clicks; the state after."""
    app = h.app
    remove = app.game.legal_moves(app.state)[0]
    c = remove.cells[0]
    assert h.click_item(f"tile-{c % 6}-{c // 6}")  # one click removes both
    assert app.moves == [remove]
    h.settle(dt=0.2)
    place = app.game.legal_moves(app.state)[-1]
    from tablesim.sim.slices.kaito.drawing import cell_centre
    from tablesim.sim.slices.kaito.state_layout import kaito_state_table

    gap = cell_centre(kaito_state_table(app.state), (place.to % 6, place.to // 6), 0)
    assert h.click_world(gap)
    assert app.moves == [remove, place]
    h.settle(dt=0.2)
    return app.state


def test_kaito_tile_clicks_play_a_move_and_an_illegal_click_changes_nothing() -> None:
    with _harness("kaito", seed=5) as h:
        app = h.app
        state = _kaito_opening(h)
        # an illegal click: a tile off the Kaito's lines; the game's reason, nothing changes
        bad = next(i for i in range(36) if state.board[i] and i not in state.targets)
        from tablesim.games.kaito.rules import Move

        with pytest.raises(IllegalMoveError) as info:
            app.game.apply(state, Move("move", (bad,)))
        assert not h.click_item(f"tile-{bad % 6}-{bad // 6}")
        assert app.state is state and len(app.moves) == 2
        assert str(info.value) in h.text()["bottom-left"]
        # select the Kaito: its legal targets are highlighted (green), then click one
        assert not h.click_item("kaito")
        h.frame()
        drawn = {it.id: it for it in app.items()}
        green = {i for i, it in drawn.items() if it.color == pytest.approx((0.25, 0.85, 0.35))}
        want = {f"tile-{t % 6}-{t // 6}" for t in state.targets}
        assert want <= green
        target = state.targets[0]
        plain = [m for m in app.game.legal_moves(state) if m.to == target]
        played = h.click_item(f"tile-{target % 6}-{target // 6}")
        if not played:  # a capture with trades: the numbered choice, 0 = no trade
            assert len(plain) > 1
            played = h.key("0")
        assert played and app.moves[-1] == plain[0]
        assert app.state == app.game.apply(state, plain[0])


def test_katoiz_tile_click_plays_a_move() -> None:
    """3-set: a click on a tile showing the dice places a disc there."""
    with _harness("katoiz", options={"type": "3-set"}, seed=2) as h:
        app = h.app
        state = app.state
        place = next(m for m in app.game.legal_moves(state) if m.kind == "place")
        c = place.dst
        assert "dice:" in h.text()["top-left"]
        assert h.click_item(f"tile-{c % 6}-{c // 6}-0")
        assert app.moves == [place]
        assert app.state == app.game.apply(state, place)


def test_katoiz_stapeltje_two_clicks_and_an_illegal_source() -> None:
    from tablesim.games.katoiz.components import Move, fits

    with _harness("katoiz", options={"type": "stapeltje"}, seed=3) as h:
        app = h.app
        state = app.state
        bad = next(
            i for i in range(36) if state.stacks[i] and not fits(state.stacks[i][-1], state.roll)
        )
        with pytest.raises(IllegalMoveError) as info:
            app.game.apply(state, Move("move", src=bad, dst=bad))
        assert not h.click_item(f"tile-{bad % 6}-{bad // 6}-0")
        assert app.state is state and str(info.value) in h.text()["bottom-left"]
        move = next(m for m in app.game.legal_moves(state) if m.kind == "move" and m.dst < 36)
        s, d = move.src, move.dst
        assert not h.click_item(f"tile-{s % 6}-{s // 6}-{len(state.stacks[s]) - 1}")
        assert h.click_item(f"tile-{d % 6}-{d // 6}-{len(state.stacks[d]) - 1}")
        assert app.moves == [move]


def test_catego_entry_by_click_and_the_dice_tumble_to_the_new_roll() -> None:
    with _harness("catego", seed=3) as h:
        app = h.app
        assert isinstance(app, TilesApp)
        state = app.state
        cfg = state.config
        move = app.game.legal_moves(state)[1]
        assert h.click_world(pad_cell_centre(cfg.players, len(cfg.columns), 0,
                                             cfg.columns.index(move)))  # fmt: skip
        assert app.moves == [move] and app.busy  # the throw is being shown
        heights = []
        while app.busy:
            app.tick(1 / 15)
            h.frame()
            heights.append(min(it.position[2] for it in app.items() if it.id.startswith("die")))
        assert max(heights) > 0.02  # the dice came down from above the table
        drawn = {it.id: it for it in app.items()}
        shown = []
        roll = app.dice_roll()
        for k, die in enumerate(("die1", "die2")):
            key, z = up_face(drawn[die].quat)
            assert z > 0.99
            shown.append(roll.labels[k][key])
        assert tuple(shown) == app.state.roll  # the state decides, the dice show it


def test_catego_human_vs_bot_and_undo() -> None:
    with _harness("catego", players=("human", "random"), seed=4) as h:
        app = h.app
        first = app.game.legal_moves(app.state)[0]
        cfg = app.state.config
        h.click_world(pad_cell_centre(cfg.players, len(cfg.columns), 0, cfg.columns.index(first)))
        h.settle(dt=0.2)
        assert len(app.moves) == 2 and app.seat == 0  # the bot answered
        before = app.state
        # the next dice are on the table: the written rolls stand (undo refused, said why)
        assert h.key("u") is False
        assert len(app.moves) == 2 and app.state is before
        assert app.verdict.startswith("undo refused: catego: the dice rolled after")


def test_katoiz_clocks_and_colour_ladder_on_screen() -> None:
    with _harness("katoiz", options={"type": "stapeltje", "level": 4}, seed=1) as h:
        text = h.text()["top-left"]
        secs = h.app.config.clock_seconds
        assert f"clocks: P1 {secs // 60}:{secs % 60:02d}, P2 {secs // 60}:{secs % 60:02d}" in text
    with _harness("katoiz", options={"type": "stapeltje", "level": 5}, seed=1) as h:
        assert "colour ladder (bottom first): [yellow] > green" in h.text()["top-left"]
        ids = [it.id for it in h.app.items()]
        assert [i for i in ids if i[-1].isdigit() and i.startswith("ladder-")] == [
            f"ladder-{k}" for k in range(5)
        ]
        items = {it.id: it for it in h.app.items()}
        rungs = [items[f"ladder-{k}"].position[1] for k in range(5)]
        mark = items["ladder-now"].position[1]
        assert np.argmin(np.abs(np.asarray(rungs) - mark)) == 0  # turn 0: the bottom rung
        assert "colour-die" not in ids  # no dice with the ladder
        assert np.isfinite(h.frame()).all()


def test_catego_help_leaves_the_score_sheet_uncovered() -> None:
    """F1's help box goes where the table is free: on Catego every pixel of the score sheet
    (the bright paper at the top of the picture) is the same with the help shown."""
    with _harness("catego", seed=3, size=(960, 540)) as h:
        app = h.app
        plain = app.frame().astype(int)
        h.key("f1")
        assert "undo" in h.text()["bottom-right"]
        helped = app.frame().astype(int)
    sheet = plain.min(axis=2) > 215  # the sheet's white paper (the table is orange-brown wood)
    sheet[270:] = False  # the sheet lies in the top half; below are only the labels' white text
    assert sheet.sum() > 20_000  # the sheet is in the picture (about 360 x 120 px at 960x540)
    changed = np.abs(helped - plain).max(axis=2) > 8
    assert changed.sum() > 5_000  # the help box is drawn
    assert not (changed & sheet).any()


class _Clock:
    """A wall clock the test sets by hand (no sleeping)."""

    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def _click_move(h: Harness, move) -> bool:  # noqa: ANN001
    st = h.app.state
    s, d = move.src, move.dst
    assert not h.click_item(f"tile-{s % 6}-{s // 6}-{len(st.stacks[s]) - 1}")
    return h.click_item(f"tile-{d % 6}-{d // 6}-{len(st.stacks[d]) - 1}")


def test_katoiz_window_charges_a_persons_real_seconds_and_a_bots_simulated_ones() -> None:
    """Stapeltje level 4 at the window (issue 32): a person's move costs the seconds they
    had the table (from the moment it became theirs, rounded to whole seconds as the
    terminal's ``@SECS``), the running clock is on screen, and a bot's move keeps the
    simulated charge of THINK_SECONDS (5 s) plus STEP_SECONDS (2 s) per king step."""
    clock = _Clock(1000.0)
    opts = {"type": "stapeltje", "level": 4, "clock_seconds": 120}
    with _harness("katoiz", options=opts, players=("human", "random"), seed=3) as h:
        app = h.app
        app.controller.now = clock
        assert app.controller.shown_at is None  # nothing charged before the table is P1's
        app.tick(1 / 30)  # the table is the person's: their clock starts now (t = 1000)
        assert app.controller.shown_at == 1000.0
        clock.t = 1030.2  # 30 s gone: 120 - 30 = 90 s = 1:30 left on screen
        assert "P1's clock runs: 1:30 left" in h.text()["top-left"]
        clock.t = 1042.6  # 42.6 s: charged 43 whole seconds
        move = next(m for m in app.game.legal_moves(app.state) if m.kind == "move" and m.dst < 36)
        assert _click_move(h, move)
        assert app.moves[0].secs == 43 and app.state.clocks[0] == 120 - 43
        assert app.record().moves[0].endswith(" @43")  # the log's text, as the terminal's
        clock.t = 5000.0  # the bot's thinking is not charged by the wall clock
        h.settle()
        bot = app.moves[1]
        assert bot.secs == -1 and bot.kind == "move" and bot.dst < 36
        steps = max(abs(bot.src % 6 - bot.dst % 6), abs(bot.src // 6 - bot.dst // 6))
        assert app.state.clocks == (120 - 43, 120 - (5 + 2 * steps))


def test_katoiz_window_stamps_a_typed_move_and_no_clock_charges_nothing() -> None:
    """The move line is charged as a click is; without a clock (level 1) a move is never
    stamped (the rules refuse @SECS there) and no clock line is shown."""
    clock = _Clock(50.0)
    opts = {"type": "stapeltje", "level": 4, "clock_seconds": 120}
    with _harness("katoiz", options=opts, players=("human", "human"), seed=3) as h:
        app = h.app
        app.controller.now = clock
        app.tick(1 / 30)
        clock.t = 57.4  # 7.4 s: 7 charged
        move = next(m for m in app.game.legal_moves(app.state) if m.kind == "move" and m.dst < 36)
        assert app.type_move(app.game.format_move(app.state, move))
        assert app.moves[0].secs == 7 and app.state.clocks == (113, 120)
        h.settle()
        app.tick(1 / 30)  # P2's turn: their own clock starts at 57.4
        clock.t = 67.4
        assert "P2's clock runs: 1:50 left" in h.text()["top-left"]
    with _harness("katoiz", options={"type": "stapeltje"}, seed=3) as h:
        h.app.controller.now = clock
        h.app.tick(1 / 30)
        assert h.app.controller.shown_at is None
        move = next(m for m in h.app.game.legal_moves(h.app.state) if m.kind == "move")
        assert _click_move(h, move) and h.app.moves[0].secs == -1
        assert "clock runs" not in h.text()["top-left"]
