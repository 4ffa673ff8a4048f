"""Environment overhead benchmark: what the PettingZoo environment costs on top of the rules.

Run ``python bench/envs.py`` (``--json`` ends with one JSON object line; ``--games`` picks
games, ``--plies`` the positions per game). For each game it replays one seeded random game
of ``--plies`` positions three ways in one process, each timed in CPU seconds
(``time.process_time``; the machine is shared):

- ``rules``: the game API alone (``legal_moves`` and ``apply``): the baseline;
- ``env_planes``: ``tablesim.env`` stepping the same moves by their action ids, reading each
  step's observation (feature planes) and mask as an agent does;
- ``env_json``: the same with ``observation="json"``.

The game is the longest of ten seeded random games (seeds ``--seed`` ..).

The figures are per step and ``ratio = env / rules``. The rules' caches are warmed by a first
untimed pass, so every side sees the same warm rules. Kozo and Kataboom on the stand-in.

``rollouts`` (issue 36's figure; :func:`rollout_figure`, also a figure of ``bench/all.py``):
masked random rollouts of each game's PettingZoo environment as
``examples/rl_rollouts.py --episodes 20`` plays them (observations built, a seeded uniform
choice among the mask's actions), in CPU steps per second, beside the same number of random
steps of the rules alone (``legal_moves`` + ``apply``) in the same process
(``env_over_rules``: the environment's cost as a multiple of the rules') and the issue's
anchors measured on a quiet machine (``x_anchor``: not the same process, so only a guide).

``reference`` (:func:`reference_figure`, issue 36 round 10): Katamino and Kozo rollouts with
the rules' move tables beside the same rollouts on the reference path the tables replaced
(``legal_moves_reference``, every move encoded), in the same process, and their ratio.
``--baseline ROOT`` times another checkout (the tree before a change) against this one
(``--rounds``: how many alternations, best of; on a loaded machine take more rounds and
episodes).

``vector`` (:func:`vector_figure`, also in ``bench/all.py``): ``tablesim.vector_env(game, n)``
for Catego, Kaito and Katoiz (Stapeltoren) at n = 256 and 1024, masked random actions drawn by numpy over all n games (their cost
counted), in CPU game steps per second (one process, one core), beside the single
environment's masked random rollouts in the same process (``x_single``) and the issue's anchor.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import tablesim  # noqa: E402
from tablesim.games.registry import get_game  # noqa: E402

STAND_IN = {"kozo": {"table": "stand-in"}, "kataboom": {"table": "stand-in"}}


def _moves(game: str, plies: int, seed: int) -> list:
    """A seeded random game's moves (at most ``plies``)."""
    g = get_game(game)
    cfg = g.make_config(STAND_IN.get(game, {}), players=max(2, g.min_players))
    state, rng = g.new_game(cfg, seed), random.Random(seed)
    out: list = []
    while len(out) < plies and not g.is_terminal(state):
        move = rng.choice(g.legal_moves(state))
        out.append(move)
        state = g.apply(state, move)
    return out


def _rules(game: str, moves: list, seed: int) -> float:
    g = get_game(game)
    cfg = g.make_config(STAND_IN.get(game, {}), players=max(2, g.min_players))
    t = time.process_time()
    state = g.new_game(cfg, seed)
    for move in moves:
        g.legal_moves(state)
        state = g.apply(state, move)
    return time.process_time() - t


def _env(game: str, moves: list, seed: int, observation: str) -> float:
    env = tablesim.env(game, observation=observation, **STAND_IN.get(game, {}))
    t = time.process_time()
    env.reset(seed=seed)
    for move in moves:
        obs, *_ = env.last()
        assert obs["action_mask"].any()
        env.step(env.codec.encode(move))
    env.close()
    return time.process_time() - t


# issue 36: examples/rl_rollouts.py --episodes 20, quiet machine, 2026-12-02 (steps/s)
ANCHORS = {"catego": 9909, "kaito": 12042, "katoiz": 14970, "katamino": 457, "kozo": 345,
           "kataboom": 54.5}  # fmt: skip
# issue 36's goals for the single environment (goal 1: light games; goal 2: 10x the anchor)
GOALS = {"catego": 30000, "kaito": 30000, "katoiz": 30000, "katamino": 4500, "kozo": 3500,
         "kataboom": 550}  # fmt: skip


def _env_rollouts(game: str, episodes: int, seed: int) -> tuple[int, float]:
    """Steps and CPU seconds of ``episodes`` masked random episodes: the loop of
    ``examples/rl_rollouts.py`` itself."""
    if str(ROOT / "examples") not in sys.path:
        sys.path.insert(0, str(ROOT / "examples"))
    from rl_rollouts import rollouts

    r = rollouts(game, episodes, seed, physics=False)
    return int(r["steps"]), r["steps"] / r["steps_per_s"]


def _rules_rollouts(game: str, steps: int, seed: int) -> float:
    """CPU seconds of ``steps`` random steps of the rules alone (new games as needed)."""
    g = get_game(game)
    cfg = g.make_config(STAND_IN.get(game, {}), players=max(2, g.min_players))
    rng = random.Random(seed)
    done, k = 0, 0
    t0 = time.process_time()
    while done < steps:
        state = g.new_game(cfg, seed + k)
        k += 1
        while done < steps and not g.is_terminal(state):
            state = g.apply(state, rng.choice(g.legal_moves(state)))
            done += 1
    return time.process_time() - t0


def rollout_figure(games: list[str], episodes: int = 20, seed: int = 0) -> dict[str, Any]:
    """Per game: environment steps/s of masked random rollouts, the rules' steps/s over as
    many steps in the same process, their ratio, and the speed-up over the issue's anchor."""
    out: dict[str, Any] = {}
    for game in games:
        _env_rollouts(game, 1, seed)  # imports, first-use caches
        steps, cpu = _env_rollouts(game, episodes, seed)
        rules = _rules_rollouts(game, steps, seed)
        sps = steps / cpu if cpu > 0 else float("inf")
        out[game] = {
            "steps": steps,
            "cpu_s": round(cpu, 4),
            "steps_per_s": round(sps, 1),
            "rules_steps_per_s": round(steps / rules, 1) if rules > 0 else None,
            "env_over_rules": round(cpu / rules, 2) if rules > 0 else None,
            "anchor_steps_per_s": ANCHORS.get(game),
            "x_anchor": round(sps / ANCHORS[game], 2) if game in ANCHORS else None,
            "goal_steps_per_s": GOALS.get(game),
        }
    return out


REFERENCE_GAMES = ("katamino", "kozo")
"""Games whose rules keep a reference path (``legal_moves_reference``: the definitions the
round-10 tables replace) that :func:`reference_figure` times beside the tables."""


class _ReferenceRules:
    """A game listing its moves by ``legal_moves_reference`` (everything else its own)."""

    def __init__(self, game: Any, legal: Any) -> None:
        self._game, self._legal = game, legal

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def legal_moves(self, state: Any) -> Any:
        return self._legal(state)


def _reference_legal(game: str) -> Any:
    if game == "katamino":
        from tablesim.games.katamino.solo import SOLO_GAME

        return SOLO_GAME.legal_moves_reference
    rules: Any = get_game(game)
    return rules.legal_moves_reference


def _loop(env: Any, episodes: int, seed: int) -> tuple[int, float]:
    """``examples/rl_rollouts.py``'s loop on ``env``: steps and CPU seconds."""
    if str(ROOT / "examples") not in sys.path:
        sys.path.insert(0, str(ROOT / "examples"))
    from rl_rollouts import masked_random

    t0 = time.process_time()
    steps = masked_random(env, episodes, seed)
    return steps, time.process_time() - t0


def reference_env(game: str) -> Any:
    """``tablesim.env(game)`` on the reference path: moves listed by the rules'
    ``legal_moves_reference`` and encoded one by one (no ``legal_ids``)."""
    env = tablesim.env(game, **STAND_IN.get(game, {}))
    env.match.game = _ReferenceRules(env.match.game, _reference_legal(game))
    env.match.codec.legal_ids = lambda state: None
    env.match.codec.encode_many = lambda moves: None
    return env


_REFERENCE_RUN = """
import json, sys
sys.path[:0] = [sys.argv[1]]
from bench.envs import STAND_IN, _loop, reference_env
import tablesim
game, episodes, seed = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
env = reference_env(game) if sys.argv[5] == 'reference' else tablesim.env(game, **STAND_IN.get(game, {}))
_loop(env, 1, seed)
print(json.dumps(_loop(env, episodes, seed)))
"""


def reference_figure(games: list[str], episodes: int = 20, seed: int = 0,
                     rounds: int = 2) -> dict[str, Any]:  # fmt: skip
    """Per game of :data:`REFERENCE_GAMES`: masked random rollouts (``examples/rl_rollouts.py``'s
    loop after one warm-up episode, as :func:`rollout_figure`) of the environment as it is and
    on its reference path (:func:`reference_env`: the move lists before the tables), each in a
    fresh process (no cache of one warms the other), alternately ``rounds`` times, best of
    each, and their ratio (``x_reference``). Both paths share the rest of the step (apply,
    observation, the rules' other caches), so this understates the speed-up over the tree
    before the change; ``--baseline`` measures that."""
    import subprocess

    out: dict[str, Any] = {}
    for game in games:
        if game not in REFERENCE_GAMES:
            continue
        best = {"fast": 0.0, "reference": 0.0}
        steps = 0
        for _ in range(rounds):
            for side in ("reference", "fast"):
                run = subprocess.run(
                    [sys.executable, "-c", _REFERENCE_RUN, str(ROOT), game, str(episodes),
                     str(seed), side],
                    capture_output=True, text=True, check=True, cwd=str(ROOT),
                    env={**os.environ, "PYTHONPATH": str(ROOT)},
                )  # fmt: skip
                steps, cpu = json.loads(run.stdout.strip().splitlines()[-1])
                best[side] = max(best[side], steps / cpu if cpu > 0 else float("inf"))
        out[game] = {
            "steps": steps,
            "reference_steps_per_s": round(best["reference"], 1),
            "steps_per_s": round(best["fast"], 1),
            "x_reference": round(best["fast"] / best["reference"], 2),
            "goal_steps_per_s": GOALS.get(game),
        }
    return out


_BASELINE_RUN = """
import json, sys, time
sys.path[:0] = [sys.argv[1], sys.argv[1] + '/examples']
import tablesim
from rl_rollouts import rollouts
out = {}
for game in sys.argv[3].split(','):
    rollouts(game, 1, int(sys.argv[4]), False)
    r = rollouts(game, int(sys.argv[2]), int(sys.argv[4]), False)
    out[game] = [r['steps'], r['steps'] / r['steps_per_s']]
print(json.dumps({'file': tablesim.__file__, 'games': out}))
"""


def baseline_figure(
    baseline: str, games: list[str], episodes: int, seed: int, rounds: int = 2
) -> dict[str, Any]:
    """Masked random rollouts (``examples/rl_rollouts.py``'s loop, ``episodes`` per game) of
    another checkout ``baseline`` (e.g. main's tree before a change) and of this one, each in
    a fresh process, alternately ``rounds`` times in the same minutes: per game the best CPU
    steps/s of each and their ratio (``x_baseline``: this tree over the baseline)."""
    import subprocess

    best: dict[str, dict[str, float]] = {"baseline": {}, "this": {}}
    for _ in range(rounds):
        for side, root in (("baseline", baseline), ("this", str(ROOT))):
            env = {**os.environ, "PYTHONPATH": root}
            run = subprocess.run(
                [sys.executable, "-c", _BASELINE_RUN, root, str(episodes), ",".join(games),
                 str(seed)],
                capture_output=True, text=True, check=True, env=env, cwd=root,
            )  # fmt: skip
            got = json.loads(run.stdout.strip().splitlines()[-1])
            if not got["file"].startswith(str(Path(root).resolve())) and not got["file"].startswith(
                root
            ):
                raise RuntimeError(f"{side}: imported tablesim from {got['file']}, not {root}")
            for game, (steps, cpu) in got["games"].items():
                sps = steps / cpu if cpu > 0 else float("inf")
                best[side][game] = max(best[side].get(game, 0.0), sps)
    return {
        game: {
            "baseline_steps_per_s": round(best["baseline"][game], 1),
            "steps_per_s": round(best["this"][game], 1),
            "x_baseline": round(best["this"][game] / best["baseline"][game], 2),
            "goal_steps_per_s": GOALS.get(game),
        }
        for game in games
    }


VECTOR_GAMES = ("catego", "kaito", "katoiz")


def vector_figure(
    sizes: tuple[int, ...] = (256, 1024),
    steps: int = 200,
    seed: int = 0,
    games: tuple[str, ...] = VECTOR_GAMES,
) -> dict[str, Any]:
    """Per game and size n: CPU game steps/s of ``steps`` batched steps of the game's vector
    env with masked random actions (drawn by numpy, counted; ``env_steps_per_s`` leaves the
    agent's draw out: the environment alone), its ratio to the single env's
    masked random rollouts measured just before in the same process, and to the issue's
    anchor."""
    import numpy as np

    out: dict[str, Any] = {}
    for game in games:
        _env_rollouts(game, 1, seed)
        one, one_cpu = _env_rollouts(game, 10, seed)
        single = one / one_cpu if one_cpu > 0 else float("inf")
        fig: dict[str, Any] = {"single_steps_per_s": round(single, 1)}
        for n in sizes:
            venv = tablesim.vector_env(game, n, seed=seed)
            obs, _ = venv.reset()
            pick = np.random.default_rng(seed)
            t0, picking = time.process_time(), 0.0
            for _ in range(steps):
                t1 = time.process_time()
                mask = obs["action_mask"]
                u = np.where(mask == 1, pick.random(mask.shape, dtype=np.float32), -1.0)
                actions = u.argmax(axis=1)
                picking += time.process_time() - t1
                obs, *_ = venv.step(actions)
            cpu = time.process_time() - t0
            sps = n * steps / cpu if cpu > 0 else float("inf")
            env = cpu - picking
            fig[str(n)] = {
                "game_steps": n * steps,
                "cpu_s": round(cpu, 4),
                "pick_cpu_s": round(picking, 4),
                "steps_per_s": round(sps, 1),
                "env_steps_per_s": round(n * steps / env, 1) if env > 0 else None,
                "x_single": round(sps / single, 1),
                "x_anchor": round(sps / ANCHORS[game], 1),
            }
        out[game] = fig
    return out


def main() -> None:
    """Print one line per game (and a JSON object with ``--json``)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", default=",".join(tablesim.game_names()))
    ap.add_argument("--plies", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--episodes", type=int, default=20, help="rollout episodes per game")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--rounds", type=int, default=2, help="--baseline: alternations (best of)")
    ap.add_argument("--baseline", metavar="ROOT", help="also time another checkout's rollouts "
                    "against this one's, alternately in fresh processes (e.g. the tree before "
                    "a change: git archive <commit> | tar -x -C ROOT)")  # fmt: skip
    args = ap.parse_args()
    if args.baseline and not (Path(args.baseline) / "tablesim" / "__init__.py").is_file():
        print(f"bench/envs.py: --baseline {args.baseline!r} is not a tablesim checkout",
              file=sys.stderr)  # fmt: skip
        sys.exit(2)
    load0 = os.getloadavg()[0]
    out = {}
    for game in args.games.split(","):
        # the longest of ten seeded games (a random Kataboom game often collapses at once)
        seed = max(range(args.seed, args.seed + 10), key=lambda k: len(_moves(game, args.plies, k)))
        moves = _moves(game, args.plies, seed)
        _rules(game, moves, seed)  # warm the rules' caches
        _env(game, moves, seed, "planes")
        rules = _rules(game, moves, seed)
        planes = _env(game, moves, seed, "planes")
        js = _env(game, moves, seed, "json")
        n = max(1, len(moves))
        out[game] = {
            "steps": len(moves),
            "rules_ms": round(1e3 * rules / n, 3),
            "env_planes_ms": round(1e3 * planes / n, 3),
            "env_json_ms": round(1e3 * js / n, 3),
            "ratio_planes": round(planes / rules, 2) if rules > 0 else None,
            "ratio_json": round(js / rules, 2) if rules > 0 else None,
        }
        r = out[game]
        print(f"{game:9s} {r['steps']:3d} steps  rules {r['rules_ms']:8.3f} ms/step  env "
              f"planes {r['env_planes_ms']:8.3f} ({r['ratio_planes']}x)  json "
              f"{r['env_json_ms']:8.3f} ({r['ratio_json']}x)", flush=True)  # fmt: skip
    print("masked random rollouts (CPU steps/s; rules alone in the same process; issue anchor):")
    rolls = rollout_figure(args.games.split(","), args.episodes, args.seed)
    for game, r in rolls.items():
        print(f"{game:9s} {r['steps']:5d} steps {r['steps_per_s']:10.1f} steps/s  rules "
              f"{r['rules_steps_per_s']} ({r['env_over_rules']}x)  anchor "
              f"{r['anchor_steps_per_s']} ({r['x_anchor']}x)  goal {r['goal_steps_per_s']}",
              flush=True)  # fmt: skip
    refs = reference_figure(args.games.split(","), args.episodes, args.seed)
    if refs:
        print("tables against the reference path (fresh processes, alternately, best of 2):")
    for game, r in refs.items():
        print(f"{game:9s} {r['steps']:5d} steps  reference {r['reference_steps_per_s']:10.1f}  "
              f"tables {r['steps_per_s']:10.1f} steps/s ({r['x_reference']}x)  goal "
              f"{r['goal_steps_per_s']}", flush=True)  # fmt: skip
    base: dict[str, Any] = {}
    if args.baseline:
        games = args.games.split(",")
        print(f"against --baseline {args.baseline} (fresh processes, alternately, best of "
              f"{args.rounds}):")  # fmt: skip
        base = baseline_figure(args.baseline, games, args.episodes, args.seed, args.rounds)
        for game, b in base.items():
            print(f"{game:9s} baseline {b['baseline_steps_per_s']:10.1f}  this "
                  f"{b['steps_per_s']:10.1f} steps/s ({b['x_baseline']}x)  goal "
                  f"{b['goal_steps_per_s']}", flush=True)  # fmt: skip
    vec = vector_figure(games=tuple(g for g in VECTOR_GAMES if g in args.games.split(",")))
    for game, fig in vec.items():
        for size, v in fig.items():
            if size != "single_steps_per_s":
                print(f"{game:6s} vector n={size:5s} {v['steps_per_s']:12.1f} steps/s (env alone "
                      f"{v['env_steps_per_s']})  single "
                      f"env {fig['single_steps_per_s']} ({v['x_single']}x)  anchor "
                      f"{ANCHORS[game]} ({v['x_anchor']}x)", flush=True)  # fmt: skip
    loads = {"load_before": round(load0, 2), "load_after": round(os.getloadavg()[0], 2)}
    print(f"CPU ms per step; load {loads['load_before']} -> {loads['load_after']}")
    if args.json:
        extra = {"baseline": base} if base else {}
        extra["reference"] = refs
        print(json.dumps({**loads, "games": out, "rollouts": rolls, "vector": vec, **extra},
                         sort_keys=True))  # fmt: skip


if __name__ == "__main__":
    main()
