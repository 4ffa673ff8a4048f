"""Issue 34, environment conventions: seeds, players, truncation, array actions, the human
mode without a display, channels-last, Gymnasium ids."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

import tablesim.envs as envs  # noqa: E402
from tablesim.envs.core import EnvError  # noqa: E402
from tablesim.games.core import ConfigError  # noqa: E402


def test_unseeded_resets_draw_fresh_games_and_a_seeded_one_makes_them_reproducible() -> None:
    a, b = envs.env("catego"), envs.env("catego")
    a.reset()
    b.reset()
    # two unseeded environments (two workers): 2^31 seeds, equal with chance 2^-31
    assert a.match.seed != b.match.seed
    seeds = []
    for e in (a, b):
        e.reset(seed=7)
        assert e.match.seed == 7
        e.reset()
        e.reset()
        seeds.append(e.match.seed)
    assert seeds[0] == seeds[1] and seeds[0] != 7


@pytest.mark.parametrize("players", [1, 5, 9])
def test_players_out_of_range_is_the_games_config_error(players: int) -> None:
    with pytest.raises(ConfigError, match=f"{players} players given"):
        envs.env("catego", players=players)


def test_katamino_episodes_are_truncated_at_max_cycles() -> None:
    """Seeded random play that never quits: with max_cycles=2 the episode is truncated (not
    terminated) after exactly 2 cycles, i.e. 2 * agents steps, before the board can fill."""
    e = envs.env("katamino", max_cycles=2)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    steps = 0
    while not any(e.terminations.values()) and not any(e.truncations.values()):
        texts = e.legal_moves()
        ids = e.infos[e.agent_selection]["legal_actions"]
        choices = [a for a, t in zip(ids, texts, strict=True) if t != "quit"]
        e.step(int(rng.choice(choices)))
        steps += 1
    assert all(e.truncations.values()) and not any(e.terminations.values())
    assert steps == 2 * len(e.possible_agents)
    assert envs.env("katamino").max_cycles == 10_000  # finite by default
    with pytest.raises(ValueError, match="max_cycles"):
        envs.env("katamino", max_cycles=0)


@pytest.mark.parametrize("game", ["catego", "kaito", "katoiz"])
def test_zero_d_array_actions_are_accepted_in_both_environments(game: str) -> None:
    e = envs.env(game)
    e.reset(seed=1)
    action = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0])
    e.step(np.array(action))
    g = envs.gym_env(game)
    obs, _ = g.reset(seed=1)
    g.step(np.array(int(np.flatnonzero(obs["action_mask"])[0])))


def test_human_mode_without_a_display_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DISPLAY", raising=False)
    for make in (envs.env, envs.gym_env):
        with pytest.raises(EnvError, match=r"needs a display \(\$DISPLAY is not set\)"):
            make("catego", render_mode="human")


def test_channels_last_moves_the_planes_axis_and_its_space() -> None:
    first, last = envs.env("kaito"), envs.env("kaito", channels="last")
    for e in (first, last):
        e.reset(seed=2)
    a = first.observe(first.agent_selection)["observation"]
    b = last.observe(last.agent_selection)["observation"]
    assert a.ndim == 3 and b.shape == (a.shape[1], a.shape[2], a.shape[0])
    assert np.array_equal(np.transpose(a, (1, 2, 0)), b)
    assert last.observation_space(last.agent_selection)["observation"].contains(b)
    with pytest.raises(ValueError, match="channels"):
        envs.env("kaito", channels="middle")


def test_gymnasium_ids_make_the_single_agent_env() -> None:
    assert "tablesim/Catego-v0" in envs.GYMNASIUM_IDS and len(envs.GYMNASIUM_IDS) == 6
    g = gymnasium.make("tablesim/Catego-v0", opponent="random")
    obs, _ = g.reset(seed=4)
    assert g.observation_space.contains(obs)
