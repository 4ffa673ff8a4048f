"""Stapeltje endings and winners (issue 33): the printed ends only, never an invented winner.

The rulebook's ends: levels 1-2 "when one of the players has made their home stack four tiles
high" (level 2: the agreed height); level 4 "If your playing time has run out, you are out of
the game ... the winner is the player whose playing time ran out last". Our guards (a true
stalemate, a dead position, the turn cap) are draws at levels 1-2, and the cap never decides a
winner. Expected winners below are derived by hand from the printed clocks.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from tablesim.games.bots import RandomBot
from tablesim.games.katoiz import GAME
from tablesim.games.katoiz.bots import SmartBot, _position
from tablesim.games.katoiz.components import BLANK_FACE, PURPLE
from tablesim.games.katoiz.stapeltje import (
    SIDES,
    _moves_for,
    end_kind,
    geo,
    home_frozen,
    relaxed_moves,
    target_reachable,
)
from tablesim.games.session import Session, make_seats


def session_result(values: dict[str, Any], roles: list[str], seed: int) -> tuple[Any, Any]:
    """Play the game ``tablesim play katoiz ... --players ROLES --seed SEED`` plays."""
    cfg = GAME.make_config({"type": "stapeltje", **values}, players=len(roles))
    with Session(GAME, cfg, seed, make_seats("katoiz", roles, seed)) as session:
        result = session.run()
        return session.state, result


def test_level_4_seed_16_the_player_out_of_time_does_not_win() -> None:
    # Issue 33: P1's clock is at -3 s (out), P2 still has 2 s when no roll can move a tile;
    # P2 passes until its time runs out, so P2's time runs out last: P2 wins.
    state, res = session_result({"level": 4, "height": 5}, ["random", "random"], 16)
    assert end_kind(state) == "stalemate"
    assert res.detail["clocks"] == [-3, 2] and res.detail["out_order"] == [0]
    assert res.winners == (1,)
    assert res.detail["then_out"] == [1]


def test_level_4_seed_0_the_clock_with_more_time_runs_out_last() -> None:
    # Clocks 104 s and 122 s at the stalemate: passing (5 s a turn) P1 is out after 21 passes,
    # P2 after 25: P2's time runs out last (the highest home stack, P1's, does not decide).
    state, res = session_result({"level": 4, "height": 5}, ["random", "random"], 0)
    assert res.detail["clocks"] == [104, 122]
    assert res.detail["homes"][0] > res.detail["homes"][1]
    assert res.winners == (1,) and res.detail["then_out"] == [0, 1]


@pytest.mark.parametrize(("level", "seed"), [(1, 3), (2, 8)])
def test_levels_1_2_issue_seeds_end_without_the_cap_or_a_winner_by_height(
    level: int, seed: int
) -> None:
    # Issue 33: both reached the 300-turn cap (the smart bot shuttling) and the cap named the
    # higher home stack the winner (level 2 seed 8: "P2 (random) won").
    state, res = session_result({"level": level}, ["smart", "random"], seed)
    assert end_kind(state) != "cap", res.detail["end"]
    target = 4 if level == 1 else 5
    if res.winners:
        assert res.detail["homes"][res.winners[0]] >= target
    else:
        assert "a draw" in res.detail["end"]


def test_the_turn_cap_never_names_a_winner() -> None:
    for seed in range(6):
        state, res = session_result({"level": 1, "max_turns": 6}, ["random", "random"], seed)
        if end_kind(state) == "cap":
            assert res.winners == () and "no winner" in res.detail["end"]


def play_bots(cfg: Any, bots: list[Any], seed: int) -> tuple[Any, dict[int, Counter[Any]]]:
    """Play to the end; per seat, how often each position followed that seat's unforced move."""
    state = GAME.new_game(cfg, seed)
    made: dict[int, Counter[Any]] = {p: Counter() for p in range(cfg.players)}
    while not GAME.is_terminal(state):
        seat, forced = state.seat, len(GAME.legal_moves(state)) == 1
        state = GAME.apply(state, bots[seat].choose(state))
        if not forced:
            made[seat][_position(state)] += 1
    return state, made


def check_ending(state: Any, smart_only: bool) -> str:
    """The ending's invariants; returns its kind."""
    cfg, res, kind = state.config, GAME.result(state), end_kind(state)
    if kind == "cap" or cfg.players == 1:
        assert res.winners == ()
    for w in res.winners:  # nobody already out wins while another still had time
        assert w not in state.out or len(state.out) == cfg.players
    if kind == "target":
        assert res.winners == (state.winner,)
        assert len(state.homes[state.winner]) >= cfg.height
    elif not cfg.clock and not cfg.highest_stack and cfg.players > 1:
        assert res.winners == ()  # levels 1-2 name a winner only at the target
    return kind


@pytest.mark.parametrize(
    "level",
    # level 2's games (4 players, target 5) take 5 s: the slow step; its issue seed runs here
    [1, pytest.param(2, marks=pytest.mark.slow), 3, 4, 5],
)
def test_seeded_smart_games_over_every_level(level: int) -> None:
    ends: Counter[str] = Counter()
    for g in range(6):
        players = 2 + g % 3
        cfg = GAME.make_config({"type": "stapeltje", "level": level}, players=players)
        smart_only = g % 2 == 0
        bots = [
            SmartBot(GAME, 100 * g + p) if smart_only or p == g % players else RandomBot(GAME, p)
            for p in range(players)
        ]
        state, made = play_bots(cfg, bots, 1000 * level + g)
        ends[check_ending(state, smart_only)] += 1
        for p, bot in enumerate(bots):
            if isinstance(bot, SmartBot):  # no shuttle: no position thrice by its own choice
                assert max(made[p].values(), default=0) <= 2, (level, g, p)
    assert sum(ends.values()) == 6


def test_the_smart_bot_does_not_repeat_a_position_a_third_time() -> None:
    # Level 1 seed 3 (issue 33): turns 113-297 were only b6-a4/a4-b6 and b1-b2/b2-b1.
    cfg = GAME.make_config({"type": "stapeltje", "level": 1}, players=2)
    for seed in range(3, 9):
        bots = [SmartBot(GAME, seed), RandomBot(GAME, seed + 1)]
        _, made = play_bots(cfg, bots, seed)
        assert max(made[0].values(), default=0) <= 2


@pytest.mark.slow
@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_100_two_player_games_per_level_count_their_ends(level: int) -> None:
    # 50 smart-vs-smart and 50 smart-vs-random games per level, two players: the invariants of
    # check_ending; the ends are counted (docs/rules/katoiz.md reports the figures). The cap is
    # a safety net for unattended bot games: no game with a smart bot reaches it (issue 33:
    # level 2 had 1 of these 100 there, and 8 of 201 in the scan below).
    cfg = GAME.make_config({"type": "stapeltje", "level": level}, players=2)
    ends: Counter[str] = Counter()
    for g in range(100):
        smart_only = g < 50
        bots = [
            SmartBot(GAME, 7 * g),
            SmartBot(GAME, 7 * g + 1) if smart_only else RandomBot(GAME, g),
        ]
        if not smart_only and g % 2:
            bots.reverse()
        state, _ = play_bots(cfg, bots, 5000 + g)
        ends[check_ending(state, smart_only)] += 1
    print(level, dict(ends))
    assert ends["cap"] == 0


# Level 2 games of the scan over seeds 0..200 (the scheme below) that reached the 300-turn cap
# before the smart bot counted progress towards its home and kept corners fed (issue 33:
# 8 of 201, seed 146 with a position thrice after the bot's own moves); none did after, nor
# any of seeds 201..400.
CAPPED_BEFORE = (3, 14, 41, 87, 107, 146, 157, 178)


def scan_game(level: int, g: int) -> tuple[Any, dict[int, Counter[Any]], list[Any]]:
    """Game ``g`` of the scan: even ``g`` smart against smart, odd smart against random
    (the random bot first when ``g % 4 == 1``), two players, board seed ``g``."""
    cfg = GAME.make_config({"type": "stapeltje", "level": level}, players=2)
    smart_only = g % 2 == 0
    bots: list[Any] = [
        SmartBot(GAME, 7 * g),
        SmartBot(GAME, 7 * g + 1) if smart_only else RandomBot(GAME, g),
    ]
    if g % 4 == 1:
        bots.reverse()
    state, made = play_bots(cfg, bots, g)
    return state, made, bots


@pytest.mark.parametrize(
    ("level", "seeds"),
    [(1, tuple(range(24))), (2, tuple(sorted({*range(40), *CAPPED_BEFORE})))],
)
def test_no_smart_game_reaches_the_cap_nor_shuttles(level: int, seeds: tuple[int, ...]) -> None:
    # The cap is a safety net for unattended bot games only: a game with a smart bot ends as
    # printed (the target) or by a guard (dead position, stalemate), never at the cap; and the
    # smart bot never makes a position a third time by its own (unforced) moves.
    for g in seeds:
        state, made, bots = scan_game(level, g)
        assert end_kind(state) != "cap", (level, g, state.turn)
        check_ending(state, g % 2 == 0)
        for p, bot in enumerate(bots):
            if isinstance(bot, SmartBot):
                assert max(made[p].values(), default=0) <= 2, (level, g, p)


def test_a_home_is_frozen_by_an_empty_corner_or_an_empty_corner_neighbour() -> None:
    # Level 2, two players, target 5: the last tile may arrive only with the corner at 3 or
    # more afterwards (home 5, difference at most 2, both in the seat's own position).
    cfg = GAME.make_config({"type": "stapeltje", "level": 2}, players=2)
    start = GAME.new_game(cfg, 0)
    g = geo(cfg)
    corner = SIDES[g.sides[0]][1]
    near = [n for n in g.hnb[corner] if n < 36]  # the corner's two board neighbours
    assert len(near) == 2

    def with_heights(heights: dict[int, int]) -> tuple[tuple[int, ...], ...]:
        stacks = [list(s) for s in start.stacks]
        for cell, high in heights.items():
            stacks[cell] = (stacks[cell] * 9)[:high]  # any tiles: only heights matter here
        return tuple(tuple(s) for s in stacks)

    homes = start.homes
    # an empty corner can never refill (routes end on non-empty stacks): frozen
    assert home_frozen(cfg, with_heights({corner: 0}), homes, 0)
    # corner 1, a neighbour empty: the corner stays at most 2 (only P1 can reach it), frozen
    assert home_frozen(cfg, with_heights({corner: 1, near[0]: 0, near[1]: 2}), homes, 0)
    # corner 3, the diagonal feeder (b1) empty: every tile comes home from the corner, the
    # last (home 4 -> 5) only with the corner at 4 before; it stays at most 3: frozen
    assert near[0] == 1  # b1
    assert home_frozen(cfg, with_heights({corner: 3, near[0]: 0, near[1]: 2}), homes, 0)
    # corner 3, a2 empty, b1 stacked: the last tile may come from b1 with the corner at 3
    assert not home_frozen(cfg, with_heights({corner: 3, near[0]: 1, near[1]: 0}), homes, 0)
    # fewer tiles joined to the corner than 4 to bring home plus 3 to keep under them: frozen
    few = {c: 0 for c in range(36)} | {corner: 1, near[0]: 1, near[1]: 2, 12: 1}
    assert home_frozen(cfg, with_heights(few), homes, 0)  # 5 tiles in a1, b1, a2, a3
    # both neighbours stacked: the corner may grow, not frozen
    assert not home_frozen(cfg, with_heights({corner: 1, near[0]: 1, near[1]: 2}), homes, 0)
    # every home frozen: no position can reach the target, the search says so at once
    other = SIDES[g.sides[1]][1]
    assert not target_reachable(replace(start, stacks=with_heights({corner: 0, other: 0})))


@pytest.mark.slow
@pytest.mark.parametrize(("level", "seed"), [(1, 8423031862502617157), (2, 3079806505923914669)])
def test_four_smart_bots_do_not_reach_the_cap(level: int, seed: int) -> None:
    # Found by the full count (docs/balance-ends.md): `balance katoiz --type stapeltje --level
    # 1 --players smart,smart,smart,smart` seed 1, game 3 (level 2: seed 0, game 33) reaches
    # the 300-turn cap: homes 3, 3, 3, 3, 229 of 300 turns blocked, one tile handed back and
    # forth by two different seats (c3-a4 by P2, a4-c3 by P4: no bot repeats its own
    # position). The dead-position search proves the end only past REACH_LIMIT (600
    # positions; 5,000 prove it at turn 299), so the game is taken to be alive until the cap.
    state, res = session_result({"level": level}, ["smart"] * 4, seed)
    assert end_kind(state) != "cap", res.detail["end"]


def table_repeats(level: int, seed: int) -> list[int]:
    """Four smart bots, ``balance``'s seeds: for each unforced smart move, how often its
    position had already followed a tile move of anyone at the table (counted here from the
    positions seen, not from the state's own record), when the bot had a fresher move."""
    cfg = GAME.make_config({"type": "stapeltje", "level": level}, players=4)
    bots = [seat.bot for seat in make_seats("katoiz", ["smart"] * 4, seed)]
    state = GAME.new_game(cfg, seed)
    seen: Counter[Any] = Counter()
    stale: list[int] = []
    while not GAME.is_terminal(state):
        moves = GAME.legal_moves(state)
        bot = bots[state.seat]
        assert bot is not None
        choice = bot.choose(state)
        if len(moves) > 1:
            fresher = min(seen[_position(GAME.apply(state, m))] for m in moves)
            before = seen[_position(GAME.apply(state, choice))]
            if before >= 2 and before > fresher:
                stale.append(before)
        state = GAME.apply(state, choice)
        if choice.kind == "move":
            seen[_position(state)] += 1
    return stale


def test_four_smart_bots_never_make_a_table_position_a_third_time() -> None:
    # The confirmed reading: a smart bot never shuttles, also when the tile goes round through
    # other seats' moves. Before, each bot counted only the positions after its own moves:
    # level 2, seed 9 (as balance seeds the bots), a bot made a position the table had seen
    # twice while it had a fresher move (as did seed 13; none of seeds 0-39 at level 1).
    assert table_repeats(2, 9) == []


@pytest.mark.parametrize(("players", "farthest"), [(2, True), (4, True), (4, False)])
def test_the_search_moves_are_every_seats_moves_with_any_roll(players: int, farthest: bool) -> None:
    # relaxed_moves finds a tile's route once for all seats; it must give exactly what the
    # rules' own move list gives each seat with the roll that allows every tile, no tile
    # barred and the undo rule off, over positions of seeded random games (level 4: the same
    # moves as levels 1-2, and its end test runs no search, so the test stays quick).
    values = {"type": "stapeltje", "level": 4, "farthest": farthest}
    cfg = GAME.make_config(values, players=players)
    checked = 0
    for seed in range(2):
        state, bot = GAME.new_game(cfg, seed), RandomBot(GAME, seed)
        for _ in range(30):
            if GAME.is_terminal(state):
                break
            free = replace(state, roll=(PURPLE, BLANK_FACE), last=-1)
            want = sorted(
                (q, m.tile, m.src, m.dst)
                for q in range(players)
                for m in _moves_for(replace(free, seat=q), undo_rule=False)
                if m.kind == "move"
            )
            assert sorted(relaxed_moves(cfg, state.stacks, state.homes)) == want
            checked += bool(want)
            state = GAME.apply(state, bot.choose(state))
    assert checked >= 40
