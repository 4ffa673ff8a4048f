"""Katoiz benchmark: seeded random playouts per second for each game type (and level), the
time of one ``legal_moves`` call, and the smart bot's time per move.

Run ``python bench/katoiz.py`` (``--games N`` playouts per case, default 300; ``--json`` for
one JSON object on the last line). Figures, not pass/fail: the machine is shared, so wall
time is given next to CPU time (``time.process_time``) and the 1-minute load average.

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
from games.katoiz import GAME  # noqa: E402
from games.katoiz.bots import SmartBot  # noqa: E402
from games.katoiz.config import PRESETS  # noqa: E402


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
    print(f"load average (1 min): {os.getloadavg()[0]:.2f}")
    print(f"{'type':<12}{'lvl':>4}{'playouts/s':>12}{'(cpu)':>9}{'moves':>8}{'legal us':>10}")
    for r in rows:
        print(
            f"{r['type']:<12}{r['level']:>4}{r['playouts_per_s_wall']:>12}"
            f"{r['playouts_per_s_cpu']:>9}{r['moves_per_game']:>8}{r['legal_moves_us']:>10}"
        )
    for s in smart:
        print(f"smart bot, {s['type']} level 1: {s['smart_ms_per_move_cpu']} ms CPU per move")
    if args.json:
        print(json.dumps({"load_1min": os.getloadavg()[0], "playouts": rows, "smart": smart}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
