"""The wait a Kozo table simulates while a person thinks belongs to the next turn only,
whatever the threads' interleaving.

A real window once died after a balance cube placed after 12 s of thought: the table started
simulating the next player's wait in the worker thread that had just measured the cube, before
the window applied it, so the wait read the cube-phase clock (12 s) and ran ahead of the bot,
who placed 6.2 s after the turn (``RuntimeError: the simulated wait ran past the
placement``). These tests put the threads in that order on purpose: the worker done and the
main thread not yet there; a clock that reads far ahead of the placement; an undo while a
wait is being simulated.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pytest

from tablesim.games.kozo import GAME
from tablesim.games.kozo.state import PLACE
from tablesim.games.registry import make_bot
from tablesim.sim.slices.kozo.referee import KozoReferee
from tablesim.sim.view.harness import Harness


def first(app, kinds: tuple[str, ...]) -> str:  # noqa: ANN001
    m = next(m for m in app.game.legal_moves(app.state) if m.kind in kinds)
    return app.game.format_move(app.state, m)


def until(app, done, timeout: float = 60.0) -> None:  # noqa: ANN001
    """Tick and draw the app (1/30 s a frame) until ``done()``."""
    end = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < end, "the table never got there"
        app.tick(1 / 30)
        app.frame()
        time.sleep(0.002)


def test_the_next_wait_never_reads_the_clock_of_the_move_being_judged() -> None:
    """The worker has measured P1's balance cube (12 s on P1's clock) and the main thread
    has not taken it yet: the wait the table simulates for the next turn must not step (the
    old code stepped at once on P1's 12 s; the bot's placement then found the world past its
    moment: the slow real-window test plays on through the bot's turn)."""
    with Harness("kozo", players=("human", "greedy"), seed=3, size=(160, 90)) as h:
        app = h.app
        app.threaded = True  # as in a window: judged in a worker thread
        app.referee.idle_clock = app._person_waited  # as the window wires it
        clock = [1000.0]
        app.controller.now = lambda: clock[0]
        until(app, app.human_to_move)
        assert app.type_move(first(app, ("place",)))
        until(app, lambda: app.human_to_move() and app.state.phase == "cube")
        app.tick(1 / 30)  # the table is P1's: the cube phase's clock runs
        clock[0] += 12.0
        assert app.type_move(first(app, ("cube",)))
        work = app._work
        assert work is not None
        end = time.monotonic() + 30
        while not work.done() and time.monotonic() < end:
            time.sleep(0.01)
        idle = app.referee._idle
        assert idle is not None  # the next turn's wait exists, waiting for its clock
        time.sleep(0.5)  # the old code stepped some 100 intervals in this time
        assert idle.stepped == 0


def tables() -> tuple[Any, Any, KozoReferee, KozoReferee, list[float | None], Any]:
    """A seeded two-player game (seed 3), a plain table, a live one whose simulated wait reads
    ``reading[0]`` (None: no clock), and the greedy bot that plays it."""
    cfg = GAME.make_config({}, players=2)
    state = GAME.new_game(cfg, 3)
    plain, live = KozoReferee(cfg, 3), KozoReferee(cfg, 3)
    reading: list[float | None] = [None]
    live.idle_clock = lambda: reading[0]
    return cfg, state, plain, live, reading, make_bot("kozo", "greedy", 3)


@pytest.mark.parametrize("secs", [None, pytest.param(6.2, marks=pytest.mark.slow)])
def test_a_wait_simulated_past_the_placement_is_redone_not_fatal(secs: float | None) -> None:
    """Whatever a clock told the simulated wait (here 12 s), the bot to move placing inside
    the 5-second window (its own time, None) or after it (6.2 s) is judged as on a table that
    simulates the wait at the drop, bit for bit: the world that ran ahead is rebuilt (the
    old code died: "no snapshot 2.4 s into the window", "ran past the placement")."""
    cfg, state, plain, live, reading, bot = tables()
    try:
        for _ in range(2):  # the round's first turn: a placement, its balance cube
            move = bot.choose(state)
            a = plain.measure(state, move)
            assert live.measure(state, move) == a
            state = GAME.apply(state, a)
        move = bot.choose(state)
        assert move.kind == PLACE and move.secs is not None
        if secs is not None:
            move = replace(move, secs=secs)
        idle = live._idle
        assert idle is not None
        reading[0] = 12.0  # a clock far past the placement
        past = max(0, round((move.secs - cfg.window_s) / idle._interval)) + 5
        end = time.monotonic() + 60
        while idle.stepped < past and time.monotonic() < end:
            time.sleep(0.01)
        assert idle.stepped >= past  # the world now stands past the placement's moment
        reading[0] = None
        rebuilt = live.rebuilds
        assert live.measure(state, move) == plain.measure(state, move)
        assert live.rebuilds == rebuilt + 1
    finally:
        plain.close()
        live.close()


@pytest.mark.slow  # a guard (the old code rebuilt here too): about 2.5 s
def test_an_undo_while_a_wait_is_simulated_rebuilds_the_table() -> None:
    """P2's wait runs ahead (12 s on a clock) when P1 takes the balance cube back and puts
    another: that cube is judged as on a table that never simulated a wait (the world the
    wait stepped is stale and rebuilt), and the next wait starts from the new cube."""
    _, start, plain, live, reading, bot = tables()
    try:
        place = bot.choose(start)
        a = plain.measure(start, place)
        assert live.measure(start, place) == a
        cube_phase = GAME.apply(start, a)
        cubes = [m for m in GAME.legal_moves(cube_phase) if m.kind == "cube"]
        assert len(cubes) >= 2
        assert live.measure(cube_phase, cubes[0]) == plain.measure(cube_phase, cubes[0])
        idle = live._idle
        assert idle is not None
        reading[0] = 12.0
        end = time.monotonic() + 60
        while idle.stepped < 5 and time.monotonic() < end:
            time.sleep(0.01)
        assert idle.stepped >= 5
        reading[0] = None  # undo: P1's cube phase again, another cube
        again = live.measure(cube_phase, cubes[-1])
        assert again == plain.measure(cube_phase, cubes[-1])
        assert live._idle is not None and live._idle is not idle
    finally:
        plain.close()
        live.close()
