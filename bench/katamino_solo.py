"""Katamino solo benchmark: the smart bot solving challenges of each mode (ms per move, s per
challenge), a hint on an empty Penta 10, and ``legal_moves`` on the first stage.

Run ``python bench/katamino_solo.py`` (``--per-mode N`` challenges per mode, default 3;
``--json`` for one JSON object on the last line). Figures, not pass/fail: the machine is
shared, so wall time is given next to CPU time and the 1-minute load average. The first
solver call compiles the numba kernel; it is made (and timed) before anything else.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tablesim.games.katamino.solo import SOLO_GAME as G  # noqa: E402
from tablesim.games.katamino.solo import SmartSoloBot  # noqa: E402
from tablesim.games.katamino.solo_data import SOLO_MODES, challenges  # noqa: E402


def _new(mode: str, card: int, number: int):  # noqa: ANN202
    cfg = G.make_config({"mode": mode, "card": card, "challenge": number}, players=1)
    return G.new_game(cfg, 0)


def solve_mode(mode: str, per_mode: int) -> dict[str, Any]:
    """The smart bot solves ``per_mode`` challenges spread over the mode's table."""
    chs = challenges(mode)
    step = max(1, len(chs) // per_mode)
    picked = chs[::step][:per_mode]
    moves = 0
    w0, c0 = time.perf_counter(), time.process_time()
    for ch in picked:
        state = _new(mode, ch.card, ch.number)
        bot = SmartSoloBot(G, 0)
        while not G.is_terminal(state):
            state = G.apply(state, bot.choose(state))
            moves += 1
        assert G.result(state).winners == (0,)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    return {
        "mode": mode,
        "challenges": len(picked),
        "moves": moves,
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "ms_per_move_wall": round(1000 * wall / moves, 2),
        "s_per_challenge_wall": round(wall / len(picked), 3),
    }


def timed(fn, repeat: int = 5) -> float:  # noqa: ANN001
    """Best wall time of ``repeat`` calls, in ms."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return round(1000 * best, 2)


def main(argv: list[str] | None = None) -> int:
    """Print the figures (and a JSON line with ``--json``)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--per-mode", type=int, default=3, help="challenges per mode (default 3)")
    p.add_argument("--json", action="store_true", help="print one JSON object at the end")
    args = p.parse_args(argv)
    if args.per_mode < 1:
        p.error("--per-mode must be at least 1")
    solo = _new("solo", 1, 1)
    t0 = time.perf_counter()
    G.solver_hint(solo)
    first_ms = round(1000 * (time.perf_counter() - t0), 1)
    penta10 = replace(solo, stage=5)
    figures = {
        "first_solver_call_ms": first_ms,
        "hint_empty_penta10_ms": timed(lambda: G.solver_hint(penta10)),
        "legal_moves_empty_penta10_ms": timed(lambda: G.legal_moves(penta10)),
        "legal_moves_empty_3x3x3_ms": timed(lambda: G.legal_moves(solo)),
        "placements_empty_penta10": len(G.legal_moves(penta10)) - 1,
    }
    rows = [solve_mode(m, args.per_mode) for m in SOLO_MODES]
    print(f"load (1 min): {os.getloadavg()[0]:.2f}")
    for k, v in figures.items():
        print(f"{k:32} {v}")
    print(
        f"{'mode':12} {'chall.':>6} {'moves':>6} {'wall s':>8} {'cpu s':>8} {'ms/move':>8} "
        f"{'s/chall.':>8}"
    )
    for r in rows:
        print(
            f"{r['mode']:12} {r['challenges']:>6} {r['moves']:>6} {r['wall_s']:>8} "
            f"{r['cpu_s']:>8} {r['ms_per_move_wall']:>8} {r['s_per_challenge_wall']:>8}"
        )
    if args.json:
        print(json.dumps({"load_1min": os.getloadavg()[0], **figures, "modes": rows}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
