"""Kozo benchmark: the careful bot, its verdicts, the 8-replica goal, and the hand-noise calibration.

Run ``python bench/kozo.py`` (``--json`` ends with one JSON object line; ``--quick`` cuts the
calibration to 100 placements per noise level and the games to one). Figures, not pass/fail;
the machine is shared, so the 1-minute load average is printed with them.

Figures:

- ``careful``: seeded ``careful`` vs ``greedy`` games at the physics table (three rounds): wall
  time per ``careful`` decision (mean, median, max) and per game;
- ``verdicts``: every verdict the careful bot asked for during those games, timed, split into
  LP-settled (``method == "statics"``) and simulated ones, and the fraction settled by the LP;
- ``goal_8_replicas``: one simulated 8-replica verdict (``method="simulate"``, 5 s window) of a
  real mid-game tower (the first six items of ``scenes/kozo-tower.toml``) and of the whole shipped
  tower, with 1 and with 2 worker processes; the goal is under 1 s wall on 2 cores;
- ``calibration``: the shipped ``cantilever-safe`` placement (a 3I bar whose centre of mass is
  2 mm inside its pedestal's edge) made by hand: the bar is put down with the table's seeded
  hand noise and watched 5 s by the topple rule, over N seeded placements per noise level. The
  bar falls when the x offset pushes its centre of mass past the edge, so theory predicts a
  topple rate of ``1 - Phi(2 mm / sigma)`` (2.28 % at the default sigma = 1 mm); the measured
  rate comes with its Wilson 95 % interval.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import tablesim.sim.verdict as verdict_mod  # noqa: E402
from bench._timings import time_stats  # noqa: E402
from tablesim.games.kozo import GAME, CarefulBot  # noqa: E402
from tablesim.games.rng import Rng, derive_seed  # noqa: E402
from tablesim.games.session import make_seats, play_game  # noqa: E402
from tablesim.games.stats import wilson_interval  # noqa: E402
from tablesim.sim.model import Scene  # noqa: E402
from tablesim.sim.referees.persistent_world import Hand, PersistentWorld, hand_place, watch  # noqa: E402
from tablesim.sim.scene import load_scene, shipped_scene_path  # noqa: E402


def figure_careful(games: int, rounds: int = 3) -> dict[str, Any]:
    """Careful-vs-greedy physics games of ``rounds`` rounds: decision times (wall and CPU),
    verdict times and the LP fraction."""
    decisions: list[float] = []
    decisions_cpu: list[float] = []
    verdicts: list[tuple[str, float]] = []
    game_times: list[float] = []
    wins = 0
    real_choose = CarefulBot.choose
    real_simulate = verdict_mod.simulate

    def timed_choose(self: CarefulBot, state: Any) -> Any:
        t, c = time.perf_counter(), time.process_time()
        move = real_choose(self, state)
        decisions.append(time.perf_counter() - t)
        decisions_cpu.append(time.process_time() - c)
        return move

    def timed_simulate(*args: Any, **kw: Any) -> Any:
        t = time.perf_counter()
        v = real_simulate(*args, **kw)
        verdicts.append((v.method, time.perf_counter() - t))
        return v

    CarefulBot.choose = timed_choose  # type: ignore[method-assign]
    verdict_mod.simulate = timed_simulate
    try:
        config = GAME.make_config({"rounds": rounds}, players=2)
        for i in range(games):
            seed = derive_seed("bench-kozo", i)
            roles = ["careful", "greedy"] if i % 2 == 0 else ["greedy", "careful"]
            t = time.perf_counter()
            rec = play_game(GAME, config, make_seats("kozo", roles, seed), seed)
            game_times.append(time.perf_counter() - t)
            if rec.result is None:
                raise RuntimeError(f"the Kozo game of seed {seed} did not finish")
            wins += roles.index("careful") in rec.result.winners
    finally:
        CarefulBot.choose = real_choose  # type: ignore[method-assign]
        verdict_mod.simulate = real_simulate
    lp = [s for m, s in verdicts if m == "statics"]
    simulated = [s for m, s in verdicts if m != "statics"]
    return {
        "games": games,
        "rounds": rounds,
        "careful_wins": wins,
        "per_game": time_stats(game_times),
        "per_careful_move": time_stats(decisions),
        "per_careful_move_cpu": time_stats(decisions_cpu),
        "verdicts": len(verdicts),
        "verdict_lp_settled": time_stats(lp),
        "verdict_simulated": time_stats(simulated),
        "fraction_settled_by_lp": round(len(lp) / len(verdicts), 4) if verdicts else None,
    }


def _partial_tower(n: int) -> Scene:
    from dataclasses import replace

    scene = load_scene(shipped_scene_path("kozo-tower"))
    return replace(scene, pieces=scene.pieces[: 1 + n], name=f"kozo-tower[:{n}]")


def figure_goal(repeats: int = 2) -> dict[str, Any]:
    """Wall time of a simulated 8-replica, 5 s verdict with 1 and 2 workers."""
    out: dict[str, Any] = {"goal_s": 1.0}
    for label, scene in (
        ("mid_game_6_items", _partial_tower(6)),
        ("full_tower_24_items", load_scene(shipped_scene_path("kozo-tower"))),
    ):
        row = {}
        for workers in (1, 2):
            best = math.inf
            for _ in range(repeats):
                t = time.perf_counter()
                verdict_mod.simulate(scene, replicas=8, seed=1, method="simulate", workers=workers)
                best = min(best, time.perf_counter() - t)
            row[f"workers_{workers}_s"] = round(best, 3)
        out[label] = row
    return out


def _cantilever_trial(scene: Scene, hand: Hand, seed: int) -> bool:
    """One hand placement of the cantilever bar; True when it toppled within 5 s."""
    static = tuple(p for p in scene.pieces if p.static)
    bar = next(p for p in scene.pieces if not p.static)
    world = PersistentWorld(Scene("calibration", static, scene.physics))
    try:
        hand_place(world, bar, Rng.from_seed(seed, "kozo-hand-calibration"), hand, {"pedestal"})
        return bool(watch(world, 5.0).fell)
    finally:
        world.close()


def figure_calibration(n: int, sigmas: tuple[float, ...]) -> dict[str, Any]:
    """Topple rate of the cantilever-safe placement made by hand, against theory."""
    scene = load_scene(shipped_scene_path("cantilever-safe"))
    rows = []
    for sigma in sigmas:
        hand = Hand(sigma_mm=sigma, sigma_deg=1.0, lift_mm=0.3)
        t = time.perf_counter()
        falls = sum(_cantilever_trial(scene, hand, s) for s in range(n))
        lo, hi = wilson_interval(falls, n)
        theory = 0.5 * math.erfc((2.0 / sigma) / math.sqrt(2.0))
        rows.append(
            {
                "sigma_mm": sigma,
                "placements": n,
                "toppled": falls,
                "rate": round(falls / n, 4),
                "wilson95": [round(lo, 4), round(hi, 4)],
                "theory_1_minus_phi": round(theory, 4),
                "seconds": round(time.perf_counter() - t, 2),
            }
        )
    return {"scene": "cantilever-safe", "margin_mm": 2.0, "rows": rows}


def plot_calibration(calibration: dict[str, Any], path: str) -> None:
    """Write the calibration figure (PNG): measured topple rate with its 95 % interval at each
    noise level, and the theoretical curve ``1 - Phi(2 mm / sigma)``. Needs matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = calibration["rows"]
    xs = [r["sigma_mm"] for r in rows]
    ys = [r["rate"] * 100 for r in rows]
    lo = [y - r["wilson95"][0] * 100 for y, r in zip(ys, rows, strict=True)]
    hi = [r["wilson95"][1] * 100 - y for y, r in zip(ys, rows, strict=True)]
    grid = [0.3 + i * 0.02 for i in range(96)]
    theory = [50 * math.erfc((2.0 / g) / math.sqrt(2.0)) for g in grid]
    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    ax.plot(grid, theory, color="#2980b9", label="theory: 1 - Phi(2 mm / sigma)")
    ax.errorbar(
        xs,
        ys,
        yerr=[lo, hi],
        fmt="o",
        color="#c0392b",
        capsize=4,
        label=f"measured ({rows[0]['placements']} placements each, 95 % interval)",
    )
    ax.set_xlabel("hand noise sigma (mm, each horizontal axis)")
    ax.set_ylabel("topple rate (%)")
    ax.set_title("cantilever-safe placed by hand (centre of mass 2 mm in)", fontsize=10)
    ax.legend(loc="upper left", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    """Command line: ``--json``, ``--quick``, ``--placements N``, ``--games N``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="end with one JSON object line")
    ap.add_argument("--quick", action="store_true", help="fewer placements and games")
    ap.add_argument("--placements", type=int, default=None, help="per noise level (500)")
    ap.add_argument("--games", type=int, default=None, help="careful-vs-greedy games (4)")
    ap.add_argument(
        "--sigmas", default=None, help="hand noise levels in mm, comma-separated (0.5,1,1.5,2)"
    )
    ap.add_argument("--skip-goal", action="store_true", help="skip the 8-replica figure")
    ap.add_argument("--figure", metavar="PNG", help="write the calibration figure (matplotlib)")
    ap.add_argument(
        "--plot-from", metavar="LOG", help="only draw --figure from a --json run's output"
    )
    args = ap.parse_args(argv)
    if args.plot_from:
        if not args.figure:
            ap.error("--plot-from needs --figure PNG")
        last = Path(args.plot_from).read_text(encoding="utf-8").strip().splitlines()[-1]
        plot_calibration(json.loads(last)["calibration"], args.figure)
        return 0
    n = args.placements or (100 if args.quick else 500)
    games = args.games or (1 if args.quick else 4)
    res: dict[str, Any] = {"load_1min": round(os.getloadavg()[0], 2), "cpus": os.cpu_count()}
    if args.sigmas:
        try:
            sigmas = tuple(float(v) for v in args.sigmas.split(","))
        except ValueError:
            ap.error(f"--sigmas {args.sigmas!r}: give numbers in mm, e.g. 0.5,1")
    else:
        sigmas = (1.0,) if args.quick else (0.5, 1.0, 1.5, 2.0)
    res["calibration"] = figure_calibration(n, sigmas)
    for row in res["calibration"]["rows"]:
        print(
            f"hand sigma {row['sigma_mm']:.1f} mm: {row['toppled']}/{row['placements']} "
            f"toppled = {row['rate']:.2%} (95 % {row['wilson95'][0]:.2%}..{row['wilson95'][1]:.2%}"
            f"); theory 1 - Phi(2/sigma) = {row['theory_1_minus_phi']:.2%}  [{row['seconds']} s]"
        )
    if args.figure:
        plot_calibration(res["calibration"], args.figure)
    res["careful"] = figure_careful(games)
    c = res["careful"]
    print(
        f"careful vs greedy: {c['careful_wins']}/{c['games']} won; per game "
        f"{c['per_game'].get('mean_s')} s; per careful move mean {c['per_careful_move'].get('mean_s')}"
        f" s, max {c['per_careful_move'].get('max_s')} s"
    )
    print(
        f"verdicts: LP-settled {c['verdict_lp_settled']}, simulated {c['verdict_simulated']}, "
        f"fraction settled by the LP {c['fraction_settled_by_lp']}"
    )
    res["goal_8_replicas"] = {} if args.skip_goal else figure_goal()
    for label, row in res["goal_8_replicas"].items():
        if isinstance(row, dict):
            print(f"8-replica 5 s simulated verdict, {label}: {row}")
    print(f"load average {res['load_1min']} on {res['cpus']} cpus")
    if args.json:
        print(json.dumps(res, sort_keys=True))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
