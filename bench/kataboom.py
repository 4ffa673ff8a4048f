"""Kataboom and Katamino-in-physics benchmark.

Run ``python bench/kataboom.py`` (``--json`` ends with one JSON object line; ``--quick`` plays
one game and times one assembly). Figures, not pass/fail; the machine is shared, so the
1-minute load average is printed with them.

Figures:

- ``careful``: seeded ``careful`` vs ``careful`` games at the physics table (model 1 and 9):
  wall time per ``careful`` decision (mean, median, max; the goal is about 3 s) and per game,
  pieces placed, how the game ended;
- ``measure``: wall time of the table measuring one move (a placement watched for 3 s);
- ``candidates``: legal placements per position and the time to list them;
- ``assembly``: ``tablesim katamino assemble --board 3x3x4`` end to end (solve, order search
  with every partial structure judged in physics, piece-by-piece build, final ensemble), with
  its parts; ``stand``: the free-standing verdicts of 2x2x7, 2x2x6 and 3x3x6.
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

from bench._timings import time_stats  # noqa: E402
from tablesim.games.kataboom import GAME, CarefulBot  # noqa: E402
from tablesim.games.kataboom.rules import _candidates  # noqa: E402
from tablesim.games.session import make_seats, play_game  # noqa: E402
from tablesim.sim.assembly import DEFAULT_PIECES, TALL, assemble, free_standing  # noqa: E402


def careful_games(models: list[int]) -> dict[str, Any]:
    """Careful vs careful at the table: per-decision and per-game wall times."""
    decisions: list[float] = []
    measures: list[float] = []
    games = []
    orig_choose = CarefulBot.choose

    def timed(self: CarefulBot, state: Any) -> Any:
        t = time.perf_counter()
        move = orig_choose(self, state)
        decisions.append(time.perf_counter() - t)
        return move

    CarefulBot.choose = timed  # type: ignore[method-assign]
    from tablesim.sim.slices.kataboom.referee import KataboomReferee

    orig_measure = KataboomReferee.measure

    def timed_measure(self: KataboomReferee, state: Any, move: Any) -> Any:
        t = time.perf_counter()
        out = orig_measure(self, state, move)
        measures.append(time.perf_counter() - t)
        return out

    KataboomReferee.measure = timed_measure  # type: ignore[method-assign]
    try:
        for i, model in enumerate(models):
            cfg = GAME.make_config({"model": model}, players=2)
            t = time.perf_counter()
            rec = play_game(GAME, cfg, make_seats("kataboom", ["careful", "careful"], i), i)
            res = rec.result.to_json() if rec.result else {}
            games.append(
                {
                    "model": model,
                    "seconds": round(time.perf_counter() - t, 2),
                    "turns": rec.turns,
                    "end": res.get("detail", {}).get("end"),
                    "winner": res.get("winner"),
                }
            )
    finally:
        CarefulBot.choose = orig_choose  # type: ignore[method-assign]
        KataboomReferee.measure = orig_measure  # type: ignore[method-assign]
    return {"decision": time_stats(decisions), "measure": time_stats(measures), "games": games}


def candidates() -> dict[str, Any]:
    """Legal placements of each model's first position and the time to list them."""
    out = []
    for model in (1, 9, 18):
        state = GAME.new_game(GAME.make_config({"model": model}, players=2), 0)
        _candidates.cache_clear()
        t = time.perf_counter()
        n = len(GAME.legal_moves(state))
        out.append({"model": model, "moves": n, "seconds": round(time.perf_counter() - t, 4)})
    return {"first_position": out}


def assembly(quick: bool) -> dict[str, Any]:
    """The 3x3x4 assembly end to end, and the tall constructions' verdicts."""
    t = time.perf_counter()
    rep = assemble("3x3x4", DEFAULT_PIECES["3x3x4"], seed=0)
    total = time.perf_counter() - t
    out: dict[str, Any] = {
        "board": "3x3x4",
        "ok": rep.ok,
        "seconds": round(total, 2),
        "solutions_tried": rep.tried,
        "judge_calls": rep.judge_calls,
        "build_seconds": round(rep.build.wall_s, 2) if rep.build else None,
        "table_seconds": round(rep.build.table_s, 2) if rep.build else None,
        "pieces": len(rep.plan.steps) if rep.plan else 0,
    }
    if out["pieces"]:
        out["seconds_per_piece"] = round(total / out["pieces"], 3)
    stand = []
    for board in () if quick else TALL:
        t = time.perf_counter()
        v = free_standing(board, DEFAULT_PIECES[board])
        stand.append(
            {
                "board": board,
                "verdict": None if v is None else v.verdict,
                "method": None if v is None else v.method,
                "seconds": round(time.perf_counter() - t, 2),
            }
        )
    return {"assemble": out, "stand": stand}


def main() -> int:
    """Run the benchmark and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="end with one JSON object line")
    ap.add_argument("--quick", action="store_true", help="one game, no tall verdicts")
    args = ap.parse_args()
    load = os.getloadavg()[0]
    figures: dict[str, Any] = {"load_1min": round(load, 2)}
    figures["candidates"] = candidates()
    figures["careful"] = careful_games([1] if args.quick else [1, 9])
    figures["assembly"] = assembly(args.quick)
    c = figures["careful"]
    print(f"load (1 min): {load:.2f}")
    for row in figures["candidates"]["first_position"]:
        print(f"candidates: model {row['model']}: {row['moves']} placements in {row['seconds']} s")
    d, m = c["decision"], c["measure"]
    print(
        f"careful decision: mean {d.get('mean_s')} s, median {d.get('median_s')} s, "
        f"max {d.get('max_s')} s over {d.get('n')} decisions"
    )
    print(f"table measure (3 s window): mean {m.get('mean_s')} s over {m.get('n')} moves")
    for g in c["games"]:
        print(f"  game on model {g['model']}: {g['turns']} moves, {g['end']}, "
              f"{g['seconds']} s")  # fmt: skip
    a = figures["assembly"]["assemble"]
    print(
        f"assembly 3x3x4: ok={a['ok']} in {a['seconds']} s ({a.get('seconds_per_piece')} s a "
        f"piece; {a['solutions_tried']} solutions tried, {a['judge_calls']} partial "
        f"structures judged; build {a['build_seconds']} s for {a['table_seconds']} s of "
        "table time)"
    )
    for s in figures["assembly"]["stand"]:
        print(f"free-standing {s['board']}: {s['verdict']} ({s['method']}) in {s['seconds']} s")
    if args.json:
        print(json.dumps(figures, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
