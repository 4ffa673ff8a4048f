"""Seeded random playouts timed for the benchmarks (shared by bench/kaito.py, bench/katoiz.py).

A playout is a new game, then a uniformly random legal move drawn from a seeded stream until
the game ends. Wall time is given next to CPU time (``time.process_time``): the machine is
shared.
"""

from __future__ import annotations

import time
from typing import Any

from tablesim.games.core import C, Game, M, S
from tablesim.games.rng import Rng


def random_playouts(game: Game[S, M, C], config: C, games: int, stream: str) -> dict[str, Any]:
    """Play ``games`` playouts (seeds 0..games-1; moves drawn from ``Rng.from_seed(seed,
    stream)``); return wall and CPU seconds, playouts per second, the mean number of moves per
    game and the mean time of one ``legal_moves`` call in microseconds."""
    moves = legal_calls = 0
    legal_time = 0.0
    w0, c0 = time.perf_counter(), time.process_time()
    for seed in range(games):
        state = game.new_game(config, seed)
        rng = Rng.from_seed(seed, stream)
        while not game.is_terminal(state):
            t0 = time.perf_counter()
            legal = game.legal_moves(state)
            legal_time += time.perf_counter() - t0
            legal_calls += 1
            move, rng = rng.choice(legal)
            state = game.apply(state, move)
            moves += 1
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    return {
        "games": games,
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "playouts_per_s_wall": round(games / wall, 1),
        "playouts_per_s_cpu": round(games / cpu, 1) if cpu else None,
        "moves_per_game": round(moves / games, 1),
        "legal_moves_us": round(1e6 * legal_time / max(1, legal_calls), 1),
    }
