"""The PettingZoo AEC environment of a tablesim game (see :mod:`tablesim.envs`)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from tablesim.envs.core import EnvError, Match, Picture, agent_name, decode_observation

DEFAULT_MAX_CYCLES = 10_000
"""Truncation bound of an AEC episode, in cycles (a cycle: one step per agent; PettingZoo's
``max_cycles``): games whose moves can undo each other (Katamino's place/undo) would else run
forever. Far above any game's length without undo; ``max_cycles=None`` removes it."""


def check_render_mode(render_mode: str | None) -> None:
    """EnvError for ``render_mode="human"`` without a display (as ``tablesim view`` exits 2),
    rather than drawing into a hidden Xvfb and returning None."""
    if render_mode == "human" and not os.environ.get("DISPLAY"):
        raise EnvError(
            "render_mode='human' needs a display ($DISPLAY is not set); "
            "render_mode='rgb_array' returns the frames instead"
        )


def check_max_cycles(max_cycles: int | None) -> int | None:
    """``max_cycles`` as given, or ValueError naming what is allowed."""
    if max_cycles is None:
        return None
    if isinstance(max_cycles, bool) or not isinstance(max_cycles, int) or max_cycles < 1:
        raise ValueError(f"max_cycles must be a positive integer or None, got {max_cycles!r}")
    return max_cycles


def check_channels(channels: str) -> str:
    """``"first"`` (planes as (C, H, W), the default) or ``"last"`` ((H, W, C), as
    PettingZoo's classic boards and pgx lay them out); ValueError otherwise."""
    if channels not in ("first", "last"):
        raise ValueError(f"channels must be 'first' or 'last', got {channels!r}")
    return channels


def as_action(action: Any) -> Any:
    """A 0-d integer array (``np.array(641)``, what Gymnasium's ``Discrete.sample`` style
    code passes) as its Python int; anything else unchanged (the match checks it)."""
    if isinstance(action, np.ndarray) and action.ndim == 0 and action.dtype.kind in "iu":
        return int(action)
    return action


class TableGameEnv(AECEnv):
    """One tablesim game as a PettingZoo AEC environment.

    Agents ``player_0``..``player_{N-1}`` are the seats; ``agent_selection`` is the seat to
    move. ``observe(agent)`` is ``{"observation": float32 planes seen from that agent's seat
    (or the JSON bytes with ``observation="json"``), "action_mask": int8[N]}``; ``step(a)``
    plays action ``a``, a fixed move id (:mod:`tablesim.sim.slices.common.codecs`); an illegal action
    raises :class:`EnvError`. ``infos[agent_selection]`` has ``legal_moves`` (texts) and
    ``legal_actions`` (their ids, same order). Rewards come at the
    end: +1 to the winners, -1 to the others, 0 to all for a draw. ``reset(seed=K)`` starts the
    game of seed K (the same seed, the same game, as in ``tablesim play --seed K``).
    """

    metadata = {
        "render_modes": ["human", "rgb_array"],
        "name": "tablesim",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self, game: str, render_mode: str | None = None, size: tuple[int, int] = (640, 360),
        observation: str = "planes", max_cycles: int | None = DEFAULT_MAX_CYCLES,
        channels: str = "first", **options: Any,
    ) -> None:  # fmt: skip
        super().__init__()
        check_render_mode(render_mode)
        self.max_cycles = check_max_cycles(max_cycles)
        self.channels = check_channels(channels)
        self._np_random: np.random.Generator | None = None
        self._steps = 0
        self.match = Match(game, options, observation)
        self.metadata = dict(self.metadata, name=f"tablesim_{self.match.game.name}")
        self.render_mode = render_mode
        self._picture = Picture(self.match.game.name, render_mode, size)
        self.possible_agents = [agent_name(s) for s in range(self.match.players)]
        self._seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        self._agent_names = tuple(self.possible_agents)  # (a user may edit possible_agents)
        obs = self.match.observation_space()
        planes = obs["observation"]
        if self.channels == "last" and len(planes.shape) == 3:
            obs = spaces.Dict({
                "observation": spaces.Box(np.moveaxis(planes.low, 0, -1),
                                          np.moveaxis(planes.high, 0, -1), dtype=planes.dtype),
                "action_mask": obs["action_mask"],
            })  # fmt: skip
        self._obs_spaces = {a: obs for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(self.match.n_actions) for a in self.possible_agents}
        self.match.reset(0)
        self._start()

    # ---- spaces -----------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        """The same Dict space for every agent."""
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(N)``: N fixed by the game and its options (:mod:`tablesim.sim.slices.common.codecs`)."""
        return self._act_spaces[agent]

    # ---- episode ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game: the game of ``seed``; without one, a seed drawn as Gymnasium does
        (from the generator the last ``reset(seed=K)`` seeded, else from fresh OS entropy), so
        parallel workers that never pass a seed play different games, and a seeded first
        reset makes every later one reproducible."""
        if seed is not None:
            self._np_random = np.random.default_rng(int(seed))
            game_seed = int(seed)
        else:
            if self._np_random is None:
                self._np_random = np.random.default_rng()
            game_seed = int(self._np_random.integers(2**31))
        self.match.reset(game_seed)
        self._steps = 0
        self._start()

    def _start(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._select()
        self._set_infos()

    def _select(self) -> None:
        seat = self.match.current_seat()
        if seat is not None:
            self.agent_selection = self._agent_names[seat]
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    def _set_infos(self) -> None:
        sel = self.agent_selection
        infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        if sel in infos:
            match = self.match
            infos[sel] = {
                "legal_moves": match.lazy_move_texts(),
                "legal_actions": match.legal_actions,
            }
        self.infos = infos

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The public table and, for the agent to move, the legal actions."""
        match = self.match
        if agent != self.agent_selection or self.terminations.get(agent, False):
            mask = np.zeros(match.n_actions, dtype=np.int8)
        else:
            mask = match.mask()
        obs = match.observation(self._seat_of[agent])
        if self.channels == "last" and isinstance(obs, np.ndarray) and obs.ndim == 3:
            obs = np.ascontiguousarray(np.moveaxis(obs, 0, -1))
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play ``action`` for ``agent_selection`` (None for an agent that is done)."""
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        if action is None:
            raise EnvError(f"{agent}: None is only for agents that are done")
        self._cumulative_rewards[agent] = 0.0
        match = self.match
        match.play(action if type(action) is int else as_action(action))
        self._steps += 1
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if match.terminal():
            for seat, r in enumerate(match.scores()):
                self.rewards[agent_name(seat)] = r
            self.terminations = {a: True for a in self.agents}
            self._accumulate_rewards()
        else:  # (every reward 0.0: the cumulative rewards stay as they are)
            if self.max_cycles is not None and self._steps >= self.max_cycles * len(self.agents):
                self.truncations = {a: True for a in self.agents}
        self._select()
        self._set_infos()
        if self.render_mode == "human":
            self.render()

    # ---- pictures ---------------------------------------------------------------------------
    def render(self) -> np.ndarray | None:
        """``rgb_array``: the table as ``(H, W, 3) uint8``; ``human``: draws the window."""
        if self.render_mode is None:
            import warnings

            warnings.warn(
                "render() without a render_mode: pass render_mode='rgb_array'", stacklevel=2
            )
            return None
        return self._picture.render(self.match.state)

    def close(self) -> None:
        """Close the view and the physics table."""
        self._picture.close()
        self.match.close_referee()

    # ---- helpers for people -----------------------------------------------------------------
    def legal_moves(self) -> list[str]:
        """The legal moves' texts, in the order of ``infos[agent]["legal_actions"]``."""
        return self.match.move_texts()

    def action_of(self, text: str) -> int:
        """The action that plays the move ``text`` (``"c6-c4"``) now."""
        return self.match.action_of(text)

    def move_of(self, action: int) -> Any:
        """The move (the game's move value) action ``action`` names now (see the mask)."""
        return self.match.move_of(action)

    @property
    def codec(self) -> Any:
        """The game's action codec (``encode(move)``, ``decode(action, state)``, ``n``)."""
        return self.match.codec

    decode_observation = staticmethod(decode_observation)
