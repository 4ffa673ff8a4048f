"""The batched vector environments (Catego, Kaito, Katoiz) against the single environment,
move for move.

Each case steps ``n`` games of ``tablesim.vector_env`` with seeded random legal actions
through more than two games per slot (so the auto-reset is crossed) and replays every slot on
its own :class:`tablesim.envs.core.Match` (the engine of ``tablesim.env``) from the game seed
the module docstring states (``seed + i + n * k``): every step's mask, observation, reward and
termination must be equal, and the ended game's observation too.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import tablesim
from tablesim.envs.core import Match
from tablesim.sim.slices.common.codecs import EnvError

CASES = [
    ("catego", {}, 5, 3),
    ("catego", {"players": 3, "tie_rule": "any-duplicate"}, 4, 11),
    ("catego", {"players": 4, "partnerships": True}, 3, 5),
    ("catego", {"players": 4, "first_entry": "everyone", "columns": "1..10"}, 3, 2),
    ("catego", {"players": 2, "first_entry": "off", "columns": [1, 2, 3]}, 4, 9),
    ("kaito", {}, 6, 1),
    ("kaito", {"movement": "first-tile"}, 6, 4),
    ("kaito", {"end_check": "capture"}, 6, 8),
    ("kaito", {"movement": "first-tile", "end_check": "capture"}, 5, 12),
    ("katoiz", {}, 5, 2),
    ("katoiz", {"players": 3, "level": 2}, 4, 6),
    ("katoiz", {"players": 4, "level": 3}, 3, 1),
    ("katoiz", {"level": 4, "supply": 12}, 5, 7),
    ("katoiz", {"players": 3, "level": 5}, 3, 3),
    ("katoiz", {"players": 1, "colour_die": True, "supply": 9}, 4, 5),
]


@pytest.mark.parametrize(("game", "options", "n", "seed"), CASES)
def test_vector_equals_single_env(game: str, options: dict, n: int, seed: int) -> None:
    """Stepped until every slot has crossed two auto-resets."""
    venv = tablesim.vector_env(game, n, seed=seed, **options)
    obs, info = venv.reset()
    singles = [Match(game, options) for _ in range(n)]
    for i, m in enumerate(singles):
        m.reset(seed + i)
    episodes = [0] * n
    rng = random.Random(seed)
    ended = 0
    for _ in range(10_000):
        if min(episodes) >= 2:
            break
        for i, m in enumerate(singles):
            assert np.array_equal(obs["action_mask"][i], m.mask()), i
            assert np.array_equal(obs["observation"][i], m.observation()), i
            assert info["seat"][i] == m.current_seat()
            assert info["episode"][i] == episodes[i]
        actions = [rng.choice(np.flatnonzero(obs["action_mask"][i]).tolist()) for i in range(n)]
        obs, rewards, term, trunc, info = venv.step(np.asarray(actions))
        assert not trunc.any()
        for i, m in enumerate(singles):
            m.play(actions[i])
            assert bool(term[i]) == m.terminal()
            if m.terminal():
                ended += 1
                assert rewards[i].tolist() == m.scores()
                assert sorted(set(m.scores())) in ([0.0], [-1.0, 1.0])
                assert np.array_equal(info["final_observation"][i], m.observation())
                episodes[i] += 1
                m.reset(seed + i + n * episodes[i])
            else:
                assert not rewards[i].any()
    assert ended >= 2 * n  # every slot crossed two auto-resets


def test_vector_env_checks_its_input() -> None:
    venv = tablesim.vector_env("catego", 2, seed=1)
    obs, _ = venv.reset()
    illegal = (
        int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
        if (obs["action_mask"][1] == 0).any()
        else 99
    )
    with pytest.raises(EnvError, match="game 1"):
        venv.step(np.asarray([int(np.flatnonzero(obs["action_mask"][0])[0]), illegal]))
    with pytest.raises(EnvError, match="2 integers"):
        venv.step(np.asarray([0.0, 1.0]))
    with pytest.raises(EnvError, match="no batched environment"):
        tablesim.vector_env("kozo", 2)
    with pytest.raises(EnvError, match="n .the number of games"):
        tablesim.vector_env("catego", 0)
    with pytest.raises(EnvError, match="katoiz type '3-set' has no batched environment"):
        tablesim.vector_env("katoiz", 2, type="3-set")
    kaito = tablesim.vector_env("kaito", 3, seed=2)
    obs, _ = kaito.reset()
    first = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
    assert obs["action_mask"].sum(axis=1).tolist() == [1, 1, 1]  # the forced opening removal
    wrong = f"action {first[2] + 1} is not legal in game 2 .legal: {first[2]};"
    with pytest.raises(EnvError, match=wrong):
        kaito.step(np.asarray([first[0], first[1], first[2] + 1]))
    with pytest.raises(EnvError, match="is not legal in game 0"):
        kaito.step(np.asarray([-1, first[1], first[2]]))


def test_the_first_roll_is_the_rules_roll() -> None:
    """The dice stream on arrays gives the rules' first roll for many seeds (games.rng)."""
    from tablesim.games.registry import get_game

    g = get_game("catego")
    cfg = g.make_config({}, players=2)
    venv = tablesim.vector_env("catego", 300, seed=1000)
    obs, _ = venv.reset()
    want = [sum(g.new_game(cfg, 1000 + i).roll) for i in range(300)]
    assert obs["observation"][:, 8, 0].tolist() == want


@pytest.mark.parametrize("at_once", [True, False])
def test_the_array_streams_are_the_rules_streams(
    at_once: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``randbelow`` and ``shuffle`` on arrays draw what ``Rng`` draws, stream by stream:
    a bound rejecting about half the draws (2**63 + 1), and Fisher-Yates over 2..40 items
    both at once and draw by draw, swapped on arrays (many rows) and on lists (a few)."""
    from tablesim.envs import vector_base
    from tablesim.games.rng import Rng

    monkeypatch.setattr(vector_base, "ALL_AT_ONCE", at_once)
    seeds = [Rng.from_seed(s, "test").state for s in range(100)]  # > 64: the array swaps
    k = 2**63 + 1
    states = np.asarray(seeds, dtype=np.uint64)
    got = vector_base.randbelow(states, k)
    for i, s in enumerate(seeds):
        want, after = Rng(s).randbelow(k)
        assert (int(got[i]), int(states[i])) == (want, after.state)
    for size in (2, 3, 7, 36, 40):
        for few in (len(seeds), 5):  # 5 rows: the list swaps
            states = np.asarray(seeds[:few], dtype=np.uint64)
            rows = vector_base.shuffle(states, np.arange(size))
            for i, s in enumerate(seeds[:few]):
                want, after = Rng(s).shuffle(range(size))
                assert (tuple(rows[i].tolist()), int(states[i])) == (want, after.state)
