"""Reinforcement-learning environments for every tablesim game (``pip install -e '.[rl]' in a tablesim checkout``).

- :func:`env` (``tablesim.env("kaito")``): a PettingZoo AEC environment, one agent per seat
  (``player_0``, ``player_1``, ...), observations ``{"observation", "action_mask"}``: feature
  planes seen from the agent's seat (:mod:`tablesim.sim.slices.common.features`; ``observation="json"``
  for the state's JSON bytes), a fixed ``Discrete(N)`` per game whose action ``k`` is always
  the same move (:mod:`tablesim.sim.slices.common.codecs`; ``docs/envs.md``), ``render_mode`` ``"rgb_array"``
  (:class:`tablesim.sim.view.table_view.TableView`, offscreen) or ``"human"`` (a window).
- :func:`gym_env` (``tablesim.gym_env("catego", opponent="strong")``): a Gymnasium
  single-agent environment; the other seats are played by a named bot.

Kozo and Kataboom are judged by the physics table (``table="physics"``, the games' default) or
the seeded stand-in judge (``table="stand-in"``, fast rules-only playouts).
"""

from __future__ import annotations

from typing import Any

__all__ = ["GYMNASIUM_IDS", "env", "gym_env", "register_gymnasium_ids"]


def _need_rl() -> None:
    """ModuleNotFoundError naming the extra when PettingZoo or Gymnasium is missing."""
    import importlib.util

    missing = [m for m in ("gymnasium", "pettingzoo") if importlib.util.find_spec(m) is None]
    if missing:
        from tablesim.games.extras import install_hint

        raise ModuleNotFoundError(
            f"tablesim's environments need {' and '.join(missing)}; {install_hint('rl')}"
        )


def env(game: str, render_mode: str | None = None, **options: Any) -> Any:
    """A PettingZoo AEC environment of ``game`` with game ``options`` (see
    ``tablesim list options GAME``); ``players=N`` sets the number of seats,
    ``observation="json"`` gives the state's JSON bytes instead of feature planes and
    ``size=(W, H)`` the rendered frame's size."""
    _need_rl()
    from tablesim.envs.aec import TableGameEnv

    return TableGameEnv(game, render_mode=render_mode, **options)


def gym_env(
    game: str, opponent: str = "random", seat: int = 0, render_mode: str | None = None,
    **options: Any,
) -> Any:  # fmt: skip
    """A Gymnasium environment: the agent plays ``seat``; every other seat is the bot
    ``opponent`` (``tablesim list bots GAME``)."""
    _need_rl()
    from tablesim.envs.gym import SingleAgentEnv

    return SingleAgentEnv(game, opponent=opponent, seat=seat, render_mode=render_mode, **options)


def register_gymnasium_ids() -> list[str]:
    """Register ``tablesim/<Game>-v0`` (``tablesim/Catego-v0``, ...) with Gymnasium, so that
    ``gymnasium.make("tablesim/Catego-v0", opponent="greedy")`` builds :func:`gym_env`; done
    on ``import tablesim.envs`` when Gymnasium is installed. Returns the ids."""
    import importlib.util

    if importlib.util.find_spec("gymnasium") is None:
        return []
    import gymnasium

    from tablesim.games.registry import game_names

    ids = []
    for name in game_names():
        env_id = f"tablesim/{name.capitalize()}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id, entry_point="tablesim.envs.gym:SingleAgentEnv", kwargs={"game": name}
            )
        ids.append(env_id)
    return ids


GYMNASIUM_IDS = register_gymnasium_ids()
"""The Gymnasium ids registered here."""
