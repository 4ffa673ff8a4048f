"""The Kozo table simulating a slow player's wait while they think (sim.referees.idle): the
verdict of a drop after any wait comes at once, and every outcome is the one of a table that
simulates the wait at the drop (bit for bit)."""

from __future__ import annotations

import time
from dataclasses import replace

import numpy as np
import pytest

from tablesim.games.kozo import GAME
from tablesim.games.kozo.state import PLACE
from tablesim.games.registry import make_bot
from tablesim.sim.referees.idle import MARGIN
from tablesim.sim.slices.kozo.referee import KozoReferee


class Clock:
    """A person's clock a test sets by hand (seconds since the previous turn ended)."""

    def __init__(self) -> None:
        self.value: float | None = None

    def __call__(self) -> float | None:
        return self.value


def settle(table: KozoReferee, waited: float, timeout: float = 20.0) -> None:
    """Wait until the table's idle watch caught up with ``waited`` s on the clock."""
    idle = table._idle
    if idle is None:
        return
    window = table.config.window_s
    want = int((waited - window - MARGIN) / idle._interval) - 1
    end = time.monotonic() + timeout
    while idle.stepped < want and idle._thread.is_alive() and time.monotonic() < end:
        time.sleep(0.01)


def game(waits: list[float], seed: int, bots: tuple[str, str] = ("greedy", "greedy")):
    """Measured moves of a seeded bot game whose placements after a turn wait ``waits`` (in
    turn), on a table that simulates the waits as they happen and on one that does not."""
    cfg = GAME.make_config({}, players=2)
    state = GAME.new_game(cfg, seed)
    plain = KozoReferee(cfg, seed)
    live = KozoReferee(cfg, seed)
    clock = Clock()
    live.idle_clock = clock
    players = [make_bot("kozo", name, seed + i) for i, name in enumerate(bots)]
    out: list[tuple[object, object]] = []
    ahead: list[int] = []
    k = 0
    try:
        while not GAME.is_terminal(state) and len(out) < 12:
            move = players[GAME.current_player(state)].choose(state)
            if move.kind == PLACE and move.secs is not None:
                move = replace(move, secs=waits[k % len(waits)])
                k += 1
                clock.value = move.secs + 0.04  # the clock reads a little more than the @
                settle(live, clock.value)
                if live._idle is not None:
                    ahead.append(live._idle.stepped)
            a = plain.measure(state, move)
            b = live.measure(state, move)
            clock.value = None
            out.append((a, b))
            state = GAME.apply(state, a)
    finally:
        plain.close()
        live.close()
    assert sum(1 for n in ahead if n > 0) >= 2  # the waits were simulated ahead
    return out


@pytest.mark.slow  # two tables through a seeded bot game: about 8 s of CPU
def test_a_wait_simulated_while_the_person_thinks_judges_as_at_the_drop() -> None:
    waits = [7.3, 2.0, 9.0, 0.4]
    pairs = game(waits, seed=5)
    placed = [a for a, _ in pairs if a.kind == PLACE]
    assert len(placed) >= 4
    for a, b in pairs:
        assert a == b  # every pose of every piece, who fell and when: the same bits


def test_the_wait_is_stepped_before_the_drop() -> None:
    """After 12 s on the clock, the idle watch has stepped at least the 12 - 5 - margin
    seconds past the window, so the drop leaves at most the margin to simulate."""
    cfg = GAME.make_config({}, players=2)
    state = GAME.new_game(cfg, 3)
    table = KozoReferee(cfg, 3)
    clock = Clock()
    table.idle_clock = clock
    bot = make_bot("kozo", "careful", 3)
    try:
        for _ in range(2):  # the round's first turn: place, cube
            move = bot.choose(state)
            state = GAME.apply(state, table.measure(state, move))
        assert table._idle is not None
        clock.value = 12.0
        settle(table, 12.0)
        interval = table._idle._interval
        assert table._idle.stepped * interval >= 12.0 - 5.0 - MARGIN - interval
    finally:
        table.close()


@pytest.mark.slow
def test_a_minute_s_wait_judges_as_at_the_drop() -> None:
    pairs = game([60.0, 3.0], seed=8)
    for a, b in pairs:
        assert a == b


@pytest.mark.parametrize(("wait", "stop_at"), [(3.0, None), (0.5, None), (3.0, 1.2)])
def test_an_idle_watch_stopped_at_the_drop_reports_what_watch_reports(
    wait: float, stop_at: float | None
) -> None:
    """A 3I bar let go in the air above the board falls while the player waits: the idle
    watch, finished at the wait's check count (its clock run up to the drop when
    ``stop_at`` is None, else only to ``stop_at`` s before the drop), gives the report and the
    poses of one ``watch`` over the wait, bit for bit."""
    from tablesim.sim.config import VERDICT
    from tablesim.sim.model import Scene, ScenePiece
    from tablesim.sim.referees.idle import IdleWatch
    from tablesim.sim.referees.persistent_world import PersistentWorld, checks, watch
    from tablesim.sim.slices.kozo.referee import base_piece

    cfg = GAME.make_config({}, players=2)
    phys = KozoReferee(cfg, 1).phys
    bar = ScenePiece("3I", ((0, 0, 0), (1, 0, 0), (2, 0, 0)), "kozo", (-0.02, -0.01, 0.05))

    def world() -> PersistentWorld:
        return PersistentWorld(Scene("drop", (base_piece(phys), bar), phys), VERDICT.name)

    a, b = world(), world()
    try:
        want = watch(a, wait)
        clock = Clock()
        clock.value = (wait + 0.04) if stop_at is None else stop_at  # the clock at the drop
        idle = IdleWatch(b, clock)
        deadline = time.monotonic() + 30
        due = int((clock.value - MARGIN) / idle._interval) - 1  # intervals behind the clock
        while idle._thread.is_alive() and idle.stepped < due and time.monotonic() < deadline:
            time.sleep(0.01)
        got = idle.finish(checks(b, wait))
        assert got is not None
        assert (got.fell, got.first, got.reasons) == (want.fell, want.first, want.reasons)
        assert want.fell == ["3I"]  # it fell: the test sees a fall and the watch after it
        assert np.array_equal(a.pose_array(), b.pose_array())
        assert a.steps == b.steps
    finally:
        a.close()
        b.close()
