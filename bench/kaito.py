"""Kaito benchmark: seeded random playouts per second (rules only) and the strong bot's nodes
per second and time per move.

Run ``python bench/kaito.py`` (``--playouts N``, default 500; ``--positions M`` positions for the
bot, default 30; ``--budget B`` nodes per decision, default the bot's own; ``--json`` for one
JSON object on the last line). Figures, not pass/fail: the machine is shared, so wall time is
given next to CPU time (``time.process_time``) and the 1-minute load average.

A playout is a new game, then a uniformly random legal move drawn from a seeded stream until
the game ends. The bot's positions are taken from seeded random games (the position after a
random number of moves, 2 to 20, so the opening and the middle game are both covered); each
decision is one ``StrongBot.search`` call from a fresh bot.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench._playouts import random_playouts  # noqa: E402
from tablesim.games.kaito import GAME, KaitoState  # noqa: E402
from tablesim.games.kaito.strong import StrongBot  # noqa: E402
from tablesim.games.rng import Rng  # noqa: E402


def playouts(games: int, options: dict[str, str]) -> dict[str, Any]:
    """Play ``games`` random playouts; return rates, mean length and ``legal_moves`` time."""
    cfg = GAME.make_config(options, players=2)
    return {"options": options, **random_playouts(GAME, cfg, games, "bench-kaito")}


def bot_positions(count: int) -> list[KaitoState]:
    """``count`` positions from seeded random games, 2 to 20 moves in, not finished."""
    cfg = GAME.make_config({}, players=2)
    out: list[KaitoState] = []
    seed = 0
    while len(out) < count:
        rng = Rng.from_seed(seed, "bench-kaito-positions")
        depth, rng = rng.randint(2, 20)
        state = GAME.new_game(cfg, seed)
        for _ in range(depth):
            if GAME.is_terminal(state):
                break
            move, rng = rng.choice(GAME.legal_moves(state))
            state = GAME.apply(state, move)
        if not GAME.is_terminal(state) and len(GAME.legal_moves(state)) > 1:
            out.append(state)
        seed += 1
    return out


def bot_speed(count: int, budget: int | None) -> dict[str, Any]:
    """Nodes per second, depth reached and time per decision of the strong bot."""
    positions = bot_positions(count)
    walls, nodes, depths = [], 0, []
    c0 = time.process_time()
    for i, state in enumerate(positions):
        bot = StrongBot(GAME, i, budget)
        t0 = time.perf_counter()
        report = bot.search(state)
        walls.append(time.perf_counter() - t0)
        nodes += report.nodes
        depths.append(report.depth)
    cpu = time.process_time() - c0
    wall = sum(walls)
    return {
        "positions": count,
        "budget": budget if budget is not None else StrongBot.default_budget,
        "nodes": nodes,
        "nodes_per_s_wall": round(nodes / wall),
        "nodes_per_s_cpu": round(nodes / cpu) if cpu else None,
        "ms_per_move_mean": round(1000 * statistics.mean(walls), 1),
        "ms_per_move_max": round(1000 * max(walls), 1),
        "depth_mean": round(statistics.mean(depths), 2),
        "depth_min": min(depths),
    }


def main(argv: list[str] | None = None) -> int:
    """Print the figures (and a JSON line with ``--json``)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--playouts", type=int, default=500, help="playouts per case (default 500)")
    p.add_argument("--positions", type=int, default=30, help="bot positions (default 30)")
    p.add_argument("--budget", type=int, default=None, help="bot nodes per decision")
    p.add_argument("--json", action="store_true", help="print one JSON object at the end")
    args = p.parse_args(argv)
    for name in ("playouts", "positions"):
        if getattr(args, name) < 1:
            print(f"bench/kaito.py: --{name} must be at least 1", file=sys.stderr)
            return 2
    if args.budget is not None and args.budget < 1:
        print("bench/kaito.py: --budget must be at least 1", file=sys.stderr)
        return 2
    cases = [{}, {"movement": "first-tile"}, {"end_check": "capture"}]
    rows = [playouts(args.playouts, options) for options in cases]
    bot = bot_speed(args.positions, args.budget)
    print(f"load average (1 min): {os.getloadavg()[0]:.2f}")
    print(f"{'options':<24}{'playouts/s':>12}{'(cpu)':>9}{'moves':>8}{'legal us':>10}")
    for r in rows:
        label = ",".join(f"{k}={v}" for k, v in r["options"].items()) or "default"
        print(
            f"{label:<24}{r['playouts_per_s_wall']:>12}{r['playouts_per_s_cpu']:>9}"
            f"{r['moves_per_game']:>8}{r['legal_moves_us']:>10}"
        )
    print(
        f"strong bot, budget {bot['budget']} nodes, {bot['positions']} positions: "
        f"{bot['nodes_per_s_wall']} nodes/s ({bot['nodes_per_s_cpu']} per CPU s), "
        f"{bot['ms_per_move_mean']} ms per move (max {bot['ms_per_move_max']} ms), "
        f"depth {bot['depth_mean']} on average (min {bot['depth_min']})"
    )
    if args.json:
        print(json.dumps({"load_1min": os.getloadavg()[0], "playouts": rows, "strong": bot}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
