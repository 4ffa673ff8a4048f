"""Katamino duel benchmark: smart against random per mode (games and duels won after a gift),
the time of a whole bot game, of one race ``legal_moves`` call (2D and 3D) and of verifying
every reachable game of one card side.

Run ``python bench/katamino_duel.py`` (``--games N`` per mode, default 10; ``--json`` for one
JSON object on the last line). Figures, not pass/fail: the machine is shared, so wall time is
given next to CPU time (``time.process_time``) and the 1-minute load average.
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

from tablesim.games.bots import RandomBot  # noqa: E402
from tablesim.games.katamino.duel import BOTS, DUEL_GAME  # noqa: E402
from tablesim.games.katamino.duel_cards import LEVELS, cards, failures  # noqa: E402
from tablesim.games.katamino.duel_race import _completable, good_placements  # noqa: E402
from tablesim.games.session import Seat, play_game  # noqa: E402

CASES = (
    ("duel", "easy"),
    ("duel", "normal"),
    ("duel", "expert"),
    ("child-adult", "normal"),
    ("handicap", "difficult"),
    ("duel3d", "normal"),
)


def match(mode: str, level: str, games: int) -> dict[str, Any]:
    """Smart against random, seats alternating, seeds 0..games-1."""
    cfg = DUEL_GAME.make_config({"mode": mode, "level": level}, players=2)
    won = later = later_won = turns = 0
    w0, c0 = time.perf_counter(), time.process_time()
    for seed in range(games):
        smart = seed % 2
        seats = [Seat("random", RandomBot(DUEL_GAME, seed))] * 2
        seats[smart] = Seat("smart", BOTS["smart"](DUEL_GAME, seed))
        rec = play_game(DUEL_GAME, cfg, seats, seed)
        if rec.result is None:
            raise RuntimeError(f"the duel of seed {seed} did not finish")
        turns += rec.turns
        won += rec.result.winner == smart
        for d in rec.result.detail["duels"][1:]:
            later += 1
            later_won += d["winner"] == smart
    return {
        "mode": mode,
        "level": level,
        "games": games,
        "smart_games": won,
        "later_duels": later,
        "smart_later_duels": later_won,
        "wall_s_per_game": round((time.perf_counter() - w0) / games, 3),
        "cpu_s_per_game": round((time.process_time() - c0) / games, 3),
        "moves_per_game": round(turns / games, 1),
    }


def legal_time(mode: str, seed: int = 0) -> dict[str, Any]:
    """One cold race ``legal_moves`` call (caches cleared) at the start of a race."""
    cfg = DUEL_GAME.make_config({"mode": mode}, players=2)
    st = DUEL_GAME.new_game(cfg, seed)
    while st.phase != "race":
        st = DUEL_GAME.apply(st, DUEL_GAME.legal_moves(st)[0])
    _completable.cache_clear()
    w0, c0 = time.perf_counter(), time.process_time()
    moves = DUEL_GAME.legal_moves(st)
    seat = DUEL_GAME.current_player(st)
    if seat is None:
        raise RuntimeError("no player to move at the start of the race")
    p = st.seats[seat]
    assert moves and good_placements(DUEL_GAME.target(p), DUEL_GAME.remaining(p), p.placed)
    return {
        "mode": mode,
        "moves": len(moves),
        "wall_ms": round(1e3 * (time.perf_counter() - w0), 1),
        "cpu_ms": round(1e3 * (time.process_time() - c0), 1),
    }


def verify_time(level: str) -> dict[str, Any]:
    """Verify one card side of ``level`` (every reachable puzzle, solver caches warm or not)."""
    card = cards(level)[0]
    w0, c0 = time.perf_counter(), time.process_time()
    bad = failures(card.halves, LEVELS[level])
    return {
        "card": card.id,
        "failures": len(bad),
        "wall_s": round(time.perf_counter() - w0, 3),
        "cpu_s": round(time.process_time() - c0, 3),
    }


def main() -> int:
    """Print the figures (and a JSON line with ``--json``)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=10, help="games per mode (default 10)")
    p.add_argument("--json", action="store_true", help="print one JSON object at the end")
    args = p.parse_args()
    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    verify = [verify_time(lv) for lv in ("beginner", "expert")]
    for v in verify:
        print(f"verify {v['card']}: {v['failures']} failures, {v['cpu_s']} s CPU ({v['wall_s']} s)")
    legal = [legal_time(m) for m in ("duel", "duel3d")]
    for row in legal:
        print(
            f"legal_moves {row['mode']}: {row['moves']} moves, {row['cpu_ms']} ms CPU "
            f"({row['wall_ms']} ms wall)"
        )
    rows = [match(m, lv, args.games) for m, lv in CASES]
    for r in rows:
        print(
            f"{r['mode']:<11} {r['level']:<9} smart won {r['smart_games']}/{r['games']} games, "
            f"{r['smart_later_duels']}/{r['later_duels']} duels after a gift; "
            f"{r['cpu_s_per_game']} s CPU a game ({r['wall_s_per_game']} s wall), "
            f"{r['moves_per_game']} moves"
        )
    print(f"load average (1 min): {os.getloadavg()[0]:.2f}")
    if args.json:
        print(
            json.dumps(
                {"load_1min": os.getloadavg()[0], "verify": verify, "legal": legal, "matches": rows}
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
