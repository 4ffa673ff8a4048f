"""Faster environments play the same games: seeded masked-random rollouts of every game's
PettingZoo environment give the same masks, observations and rewards, step for step, as the
environment before the speed-ups (issue 36).

``tests/data/env_rollouts.json`` was written by ``python tests/test_envs_rollout_record.py``
run against main's code *before* the speed-ups (``PYTHONPATH=/work/main``): per game and seed,
the number of steps and a SHA-256 over every step's action mask, observation and reward
bytes, and the chosen actions. Re-running the writer against the current code must change
nothing; the test recomputes the digests and compares.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

RECORD = Path(__file__).with_name("data") / "env_rollouts.json"
# light games: several episodes; the mask-heavy ones: fewer (their steps cost milliseconds)
EPISODES = {"catego": 4, "kaito": 4, "katoiz": 4, "katamino": 4, "kozo": 2, "kataboom": 10}
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "catego": [{}, {"players": 4, "partnerships": True}],
    "kaito": [{}],
    "katoiz": [{}, {"type": "3-set"}, {"type": "stapeltje"}],
    "katamino": [{}],
    "kozo": [{"table": "stand-in"}],
    "kataboom": [{"table": "stand-in"}],
}


def rollout(game: str, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """One seeded masked-random episode: steps, chosen actions and the digest of every
    step's (mask, observation, rewards) of the agent to move."""
    import tablesim

    env = tablesim.env(game, **options)
    rng = np.random.default_rng(seed)
    h = hashlib.sha256()
    actions: list[int] = []
    env.reset(seed=seed)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        h.update(agent.encode())
        h.update(np.ascontiguousarray(obs["action_mask"], dtype=np.int8).tobytes())
        h.update(np.ascontiguousarray(obs["observation"], dtype=np.float32).tobytes())
        h.update(np.float64(reward).tobytes())
        if terminated or truncated:
            env.step(None)
            continue
        a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        actions.append(a)
        env.step(a)
    env.close()
    return {"steps": len(actions), "actions": actions, "sha256": h.hexdigest()}


def cases() -> list[tuple[str, int, int]]:
    """(game, variant index, seed) of every recorded episode."""
    return [
        (g, v, seed)
        for g, variants in VARIANTS.items()
        for v in range(len(variants))
        for seed in range(EPISODES[g])
    ]


def _key(game: str, v: int, seed: int) -> str:
    return f"{game}/{v}/{seed}"


@pytest.mark.parametrize(("game", "v", "seed"), cases(), ids=[_key(*c) for c in cases()])
def test_rollout_matches_record(game: str, v: int, seed: int) -> None:
    record = json.loads(RECORD.read_text())
    got = rollout(game, VARIANTS[game][v], seed)
    want = record[_key(game, v, seed)]
    assert got["actions"] == want["actions"]
    assert got["sha256"] == want["sha256"]


def test_record_has_real_games() -> None:
    """The record holds played games (not empty episodes): every game at least 5 steps."""
    record = json.loads(RECORD.read_text())
    assert set(record) == {_key(*c) for c in cases()}
    for game in VARIANTS:
        assert max(r["steps"] for k, r in record.items() if k.startswith(game + "/")) >= 5


if __name__ == "__main__":
    out = {_key(*c): rollout(c[0], VARIANTS[c[0]][c[1]], c[2]) for c in cases()}
    RECORD.parent.mkdir(exist_ok=True)
    RECORD.write_text(json.dumps(out, sort_keys=True, indent=0) + "\n")
    print(f"wrote {RECORD} ({len(out)} episodes)", file=sys.stderr)
