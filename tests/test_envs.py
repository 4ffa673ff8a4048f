"""PettingZoo and Gymnasium environments of every game (tablesim.env, tablesim.gym_env)."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

import tablesim  # noqa: E402
from tablesim.envs.core import EnvError, decode_observation  # noqa: E402
from tablesim.games.registry import game_names, get_game  # noqa: E402

# Kozo and Kataboom on the seeded stand-in judge (fast); the physics table is a slow case.
FAST = {"kozo": {"table": "stand-in"}, "kataboom": {"table": "stand-in"}}


def _options(game: str) -> dict:
    return dict(FAST.get(game, {}))


# Kataboom's rules (even on the stand-in) take seconds a game: its cases run in the slow step.
GAMES = [g if g != "kataboom" else pytest.param(g, marks=pytest.mark.slow) for g in game_names()]


def test_every_game_has_an_env() -> None:
    from tablesim.games.registry import game_spec

    assert [n for n in game_names() if None in (game_spec(n).codec, game_spec(n).features)] == []


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api(game: str) -> None:
    from pettingzoo.test import api_test

    env = tablesim.env(game, **_options(game))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=60)
    env.close()


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env(game: str) -> None:
    from gymnasium.utils.env_checker import check_env

    env = tablesim.gym_env(game, opponent="random", **_options(game))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env, skip_render_check=True)
    assert not [w for w in caught if "tablesim" in str(w.filename)], caught
    env.close()


def _masked_random_episode(game: str, seed: int) -> tuple[list[str], dict, dict]:
    env = tablesim.env(game, observation="json", **_options(game))
    env.reset(seed=seed)
    rng = random.Random(seed)
    texts: list[str] = []
    final_rewards: dict[str, float] = {}
    for agent in env.agent_iter(max_iter=400):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final_rewards[agent] = reward
            final_obs = decode_observation(obs["observation"])
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        # the mask marks exactly the rules' legal moves; info names them with their ids
        assert sorted(info["legal_actions"]) == legal.tolist()
        assert len(info["legal_moves"]) == len(legal)
        a = int(rng.choice(list(legal)))
        text = info["legal_moves"][info["legal_actions"].index(a)]
        texts.append(text)
        assert env.action_of(text) == a
        env.step(a)
    return texts, final_rewards, final_obs


@pytest.mark.parametrize("game", GAMES)
def test_env_replays_like_the_rules(game: str) -> None:
    """The moves an env episode played, applied by the rules directly, give the same final
    state and the result the env rewarded."""
    texts, rewards, final = _masked_random_episode(game, seed=3)
    g = get_game(game)
    opts = _options(game)
    players = max(2, g.min_players)
    state = g.new_game(g.make_config(opts, players=players), 3)
    for t in texts:
        state = g.apply(state, g.parse_move(state, t))
    assert g.is_terminal(state)
    expected = dict(g.state_to_json(state))
    expected.pop("rng", None)
    assert final == expected
    res = g.result(state)
    for seat in range(players):
        want = 0.0 if not res.winners else (1.0 if seat in res.winners else -1.0)
        assert rewards[f"player_{seat}"] == want


@pytest.mark.parametrize("game", ["catego", "kaito", "katoiz"])
def test_same_seed_same_episode(game: str) -> None:
    assert _masked_random_episode(game, 5)[0] == _masked_random_episode(game, 5)[0]


def test_json_observations_pass_both_checkers() -> None:
    from gymnasium.utils.env_checker import check_env
    from pettingzoo.test import api_test

    env = tablesim.env("kaito", observation="json")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=20)
        check_env(tablesim.gym_env("kaito", observation="json"), skip_render_check=True)


def test_json_observation_hides_the_random_stream() -> None:
    env = tablesim.env("catego", observation="json")
    env.reset(seed=1)
    obs = decode_observation(env.observe("player_0")["observation"])
    assert "rng" not in obs and obs["game"] == "catego"
    with pytest.raises(EnvError, match="observation 'text' is not one of planes, json"):
        tablesim.env("catego", observation="text")


def test_illegal_actions() -> None:
    env = tablesim.env("kaito")
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask.sum() == 1  # the opening: removing the two opening tiles is the only move
    with pytest.raises(EnvError, match="not legal"):
        env.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(EnvError, match="an action is an integer"):
        env.step(1.5)
    g = tablesim.gym_env("kaito", opponent="random")
    obs, _ = g.reset(seed=0)
    _, reward, terminated, _, info = g.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)


def test_gym_opponent_plays_the_other_seat() -> None:
    """After reset and after each step it is the agent's seat to move (or the game is over)."""
    env = tablesim.gym_env("kaito", opponent="random", seat=1)
    obs, info = env.reset(seed=2)
    rng = random.Random(2)
    done = False
    while not done:
        assert env.match.current_seat() == 1
        a = int(rng.choice(list(np.flatnonzero(obs["action_mask"]))))
        obs, reward, done, _, info = env.step(a)
    assert reward in (-1.0, 0.0, 1.0)


def test_gym_action_masks_match_the_observation() -> None:
    env = tablesim.gym_env("kaito", opponent="random")
    obs, info = env.reset(seed=3)
    masks = env.action_masks()
    assert masks.dtype == bool and (masks == obs["action_mask"].astype(bool)).all()
    assert sorted(np.flatnonzero(masks).tolist()) == sorted(info["legal_actions"])


def test_info_texts_are_lazy_and_pickle_as_a_list() -> None:
    import pickle

    env = tablesim.gym_env("catego")
    _, info = env.reset(seed=0)
    texts = info["legal_moves"]
    assert len(texts) == 11 and texts[0] == "2" and list(texts) == [str(c) for c in range(2, 13)]
    back = pickle.loads(pickle.dumps(info))
    assert type(back["legal_moves"]) is list and back["legal_moves"] == list(texts)


def test_unknown_bot_and_seat() -> None:
    from tablesim.games.core import ConfigError

    with pytest.raises(ConfigError, match="unknown bot"):
        tablesim.gym_env("catego", opponent="nobody")
    with pytest.raises(EnvError, match="seat 5"):
        tablesim.gym_env("catego", seat=5)


def test_rgb_array_render() -> None:
    env = tablesim.env("catego", render_mode="rgb_array", size=(160, 90))
    env.reset(seed=0)
    frame = env.render()
    env.close()
    assert frame.shape == (90, 160, 3) and frame.dtype == np.uint8
    assert frame.std() > 5  # a picture, not a blank frame


@pytest.mark.slow
@pytest.mark.parametrize(("game", "cycles"), [("kozo", 10), ("kataboom", 6)])
def test_the_physics_games_on_their_table(game: str, cycles: int) -> None:
    from pettingzoo.test import api_test

    env = tablesim.env(game)  # table = physics, the game's default
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=cycles)
    env.close()


@pytest.mark.slow
def test_rollout_example_is_seeded() -> None:
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]

    def run() -> dict:
        p = subprocess.run(
            [sys.executable, str(root / "examples" / "rl_rollouts.py"), "--episodes", "1", "--json"],
            capture_output=True, text=True, timeout=600, cwd=root,
        )  # fmt: skip
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout)

    a, b = run(), run()
    assert sorted(a["games"]) == game_names()
    # the same seeds play the same moves: equal step counts, whatever the speed
    assert {g: r["steps"] for g, r in a["games"].items()} == {
        g: r["steps"] for g, r in b["games"].items()
    }
    assert all(r["steps"] > 0 for r in a["games"].values())
