"""Katoiz benchmark: seeded random playouts per second for each game type (and level), the
time of one ``legal_moves`` call, and the smart bot's time per move.

Run ``python bench/katoiz.py`` (``--games N`` playouts per case, default 300; ``--json`` for
one JSON object on the last line). Figures, not pass/fail: the machine is shared, so wall
time is given next to CPU time (``time.process_time``) and the 1-minute load average.

The 3-set level-2 score (``longest_stack`` with two matches) is timed on the 40 picture tiles
and on random piles of 6..40 tiles (each with a cold cache), and the smart bot's move time is
given for 3-set level 2 with ``stack_matches`` 2 (the case that used to hang).

A playout here is what the default test suite does without its checks: a new game, then a
uniformly random legal move drawn from a seeded stream until the game ends (two players).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._playouts import random_playouts  # noqa: E402
from tablesim.games.katoiz import GAME  # noqa: E402
from tablesim.games.katoiz.bots import SmartBot  # noqa: E402
from tablesim.games.katoiz.config import PRESETS  # noqa: E402


def playouts(kind: str, level: int, games: int, players: int = 2) -> dict[str, Any]:
    """Play ``games`` random playouts; return rates and mean game length."""
    cfg = GAME.make_config({"type": kind, "level": level}, players=players)
    return {"type": kind, "level": level, **random_playouts(GAME, cfg, games, "bench")}


def smart_move_time(kind: str, level: int, games: int) -> dict[str, Any]:
    """Mean time of one smart-bot decision over ``games`` smart-vs-smart games."""
    cfg = GAME.make_config({"type": kind, "level": level}, players=2)
    decisions = 0
    c0 = time.process_time()
    for seed in range(games):
        bots = [SmartBot(GAME, seed), SmartBot(GAME, seed + 1)]
        state = GAME.new_game(cfg, seed)
        while not GAME.is_terminal(state):
            state = GAME.apply(state, bots[state.seat].choose(state))
            decisions += 1
    cpu = time.process_time() - c0
    return {
        "type": kind,
        "level": level,
        "games": games,
        "smart_ms_per_move_cpu": round(1000 * cpu / max(1, decisions), 3),
    }


def stack_times(piles: int) -> dict[str, Any]:
    """CPU time of one cold ``longest_stack(..., 2)``: all 40 tiles, and ``piles`` random piles
    of every size 6..40 (median, 99th percentile and maximum, in ms)."""
    from tablesim.games.katoiz.stack import _two_matches, longest_stack
    from tablesim.games.rng import Rng

    def cold(pile: list[int]) -> float:
        _two_matches.cache_clear()
        c0 = time.process_time()
        longest_stack(pile, 2)
        return 1000 * (time.process_time() - c0)

    full = min(cold(list(range(40))) for _ in range(3))
    rng = Rng.from_seed(0, "bench-katoiz-stack")
    times = []
    for n in range(6, 41):
        for _ in range(piles):
            tiles, rng = rng.shuffle(list(range(40)))
            times.append(cold(list(tiles[:n])))
    times.sort()
    return {
        "all_40_ms_cpu": round(full, 3),
        "random_piles": len(times),
        "random_p50_ms_cpu": round(times[len(times) // 2], 3),
        "random_p99_ms_cpu": round(times[99 * len(times) // 100], 3),
        "random_max_ms_cpu": round(times[-1], 3),
        "random_over_10ms": sum(1 for t in times if t > 10),
    }


def smart_stack_move_time(games: int) -> dict[str, Any]:
    """Mean and worst smart-bot decision (CPU) in 3-set level 2 with two matches, vs random."""
    from tablesim.games.bots import RandomBot

    cfg = GAME.make_config({"type": "3-set", "level": 2, "stack_matches": 2}, players=2)
    times = []
    for seed in range(games):
        bots = [SmartBot(GAME, seed), RandomBot(GAME, seed + 1)]
        state = GAME.new_game(cfg, seed)
        while not GAME.is_terminal(state):
            c0 = time.process_time()
            move = bots[state.seat].choose(state)
            if state.seat == 0:
                times.append(time.process_time() - c0)
            state = GAME.apply(state, move)
    return {
        "games": games,
        "smart_mean_ms_cpu": round(1000 * sum(times) / max(1, len(times)), 3),
        "smart_max_ms_cpu": round(1000 * max(times, default=0.0), 3),
    }


def main(argv: list[str] | None = None) -> int:
    """Print the figures (and a JSON line with ``--json``)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=300, help="playouts per case (default 300)")
    p.add_argument("--json", action="store_true", help="print one JSON object at the end")
    args = p.parse_args(argv)
    if args.games < 1:
        print("bench/katoiz.py: --games must be at least 1", file=sys.stderr)
        return 2
    rows = [
        playouts(kind, level, args.games) for kind, levels in PRESETS.items() for level in levels
    ]
    smart = [smart_move_time(kind, 1, max(1, args.games // 10)) for kind in PRESETS]
    stack = stack_times(max(1, args.games // 30))
    stack_smart = smart_stack_move_time(max(1, args.games // 30))
    print(f"load average (1 min): {os.getloadavg()[0]:.2f}")
    print(f"{'type':<12}{'lvl':>4}{'playouts/s':>12}{'(cpu)':>9}{'moves':>8}{'legal us':>10}")
    for r in rows:
        print(
            f"{r['type']:<12}{r['level']:>4}{r['playouts_per_s_wall']:>12}"
            f"{r['playouts_per_s_cpu']:>9}{r['moves_per_game']:>8}{r['legal_moves_us']:>10}"
        )
    for s in smart:
        print(f"smart bot, {s['type']} level 1: {s['smart_ms_per_move_cpu']} ms CPU per move")
    print(
        f"longest_stack (2 matches, cold): all 40 tiles {stack['all_40_ms_cpu']} ms CPU; "
        f"{stack['random_piles']} random piles: median {stack['random_p50_ms_cpu']} ms, "
        f"99% {stack['random_p99_ms_cpu']} ms, max {stack['random_max_ms_cpu']} ms, "
        f"{stack['random_over_10ms']} over 10 ms"
    )
    print(
        f"smart bot, 3-set level 2 (2 matches) vs random, {stack_smart['games']} games: "
        f"mean {stack_smart['smart_mean_ms_cpu']} ms, max {stack_smart['smart_max_ms_cpu']} ms CPU"
    )
    if args.json:
        print(
            json.dumps(
                {
                    "load_1min": os.getloadavg()[0],
                    "playouts": rows,
                    "smart": smart,
                    "stack": stack,
                    "stack_smart": stack_smart,
                }
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
