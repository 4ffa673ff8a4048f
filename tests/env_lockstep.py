"""Lockstep comparison of an environment against its reference path (issue 36, round 10):
the same seeded masked random rollouts played by ``tablesim.env`` as it is and by an
environment whose rules list moves by their plain definition and whose codec encodes those
moves one by one (no ``legal_ids``). Every step must agree: the agent to move, every agent's
observation and mask, rewards, terminations, truncations, ``legal_actions`` and (every few
steps) the legal moves' texts, the move an action plays, and the state after it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import tablesim


class ReferenceRules:
    """A game whose ``legal_moves`` is ``legal`` (the reference definition); every other
    attribute is the game's own."""

    def __init__(self, game: Any, legal: Callable[[Any], tuple[Any, ...]]) -> None:
        self._game, self._legal = game, legal

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def legal_moves(self, state: Any) -> tuple[Any, ...]:
        return self._legal(state)


def reference_env(game: str, legal: Callable[[Any], tuple[Any, ...]], **options: Any) -> Any:
    """``tablesim.env(game)`` on the reference path."""
    env = tablesim.env(game, **options)
    env.match.game = ReferenceRules(env.match.game, legal)
    env.match.codec.legal_ids = lambda state: None  # every legal move encoded one by one
    env.match.codec.encode_many = lambda moves: None  # (not by the codec's arithmetic)
    return env


def lockstep(
    game: str,
    legal: Callable[[Any], tuple[Any, ...]],
    seeds: range,
    options: dict[str, Any] | None = None,
    pick: Callable[[Any, np.ndarray, np.random.Generator], int] | None = None,
    texts_every: int = 7,
) -> int:
    """Play ``seeds`` episodes in both environments side by side; the number of steps.
    ``pick(env, legal_ids, rng)`` chooses an action (default: uniform over the mask)."""
    options = options or {}
    fast, ref = tablesim.env(game, **options), reference_env(game, legal, **options)
    steps = 0
    for seed in seeds:
        fast.reset(seed=seed)
        ref.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in fast.agent_iter():
            assert agent == ref.agent_selection
            for a in fast.agents:
                of, orf = fast.observe(a), ref.observe(a)
                assert of["action_mask"].tobytes() == orf["action_mask"].tobytes(), (seed, a)
                assert of["observation"].tobytes() == orf["observation"].tobytes(), (seed, a)
            assert fast.rewards == ref.rewards and fast.terminations == ref.terminations
            assert fast.truncations == ref.truncations
            assert fast._cumulative_rewards == ref._cumulative_rewards
            info, rinfo = fast.infos.get(agent, {}), ref.infos.get(agent, {})
            assert sorted(info) == sorted(rinfo)
            if "legal_actions" in info:
                assert info["legal_actions"] == rinfo["legal_actions"], seed
            if "legal_moves" in info and steps % texts_every == 0:
                assert list(info["legal_moves"]) == list(rinfo["legal_moves"])
            if fast.terminations[agent] or fast.truncations[agent]:
                fast.step(None)
                ref.step(None)
                continue
            ids = np.flatnonzero(fast.observe(agent)["action_mask"])
            action = int(rng.choice(ids)) if pick is None else pick(fast, ids, rng)
            assert fast.move_of(action) == ref.move_of(action)
            fast.step(action)
            ref.step(action)
            s, r = fast.match.state, ref.match.state
            assert fast.match.game.state_to_json(s) == ref.match.game.state_to_json(r)
            steps += 1
        assert ref.agents == fast.agents
    fast.close()
    ref.close()
    return steps
