"""The PettingZoo AEC environment of a tablesim game (see :mod:`tablesim.envs`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from tablesim.envs.core import EnvError, Match, Picture, agent_name, decode_observation


class TableGameEnv(AECEnv):
    """One tablesim game as a PettingZoo AEC environment.

    Agents ``player_0``..``player_{N-1}`` are the seats; ``agent_selection`` is the seat to
    move. ``observe(agent)`` is ``{"observation": float32 planes seen from that agent's seat
    (or the JSON bytes with ``observation="json"``), "action_mask": int8[N]}``; ``step(a)``
    plays action ``a``, a fixed move id (:mod:`sim.slices.common.codecs`); an illegal action
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
        observation: str = "planes", **options: Any,
    ) -> None:  # fmt: skip
        super().__init__()
        self.match = Match(game, options, observation)
        self.metadata = dict(self.metadata, name=f"tablesim_{self.match.game.name}")
        self.render_mode = render_mode
        self._picture = Picture(self.match.game.name, render_mode, size)
        self.possible_agents = [agent_name(s) for s in range(self.match.players)]
        obs = self.match.observation_space()
        self._obs_spaces = {a: obs for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(self.match.n_actions) for a in self.possible_agents}
        self.match.reset(0)
        self._start()

    # ---- spaces -----------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        """The same Dict space for every agent."""
        return self._obs_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(N)``: N fixed by the game and its options (:mod:`sim.slices.common.codecs`)."""
        return self._act_spaces[agent]

    # ---- episode ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game: the game of ``seed`` (default: the next seed after the last game's)."""
        self.match.reset(self.match.seed + 1 if seed is None else seed)
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
            self.agent_selection = agent_name(seat)
        elif not hasattr(self, "agent_selection") or self.agent_selection not in self.agents:
            self.agent_selection = self.agents[0]

    def _set_infos(self) -> None:
        here = {
            "legal_moves": self.match.lazy_move_texts(),
            "legal_actions": self.match.legal_actions,
        }
        self.infos = {a: (dict(here) if a == self.agent_selection else {}) for a in self.agents}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The public table and, for the agent to move, the legal actions."""
        mask = self.match.mask()
        if agent != self.agent_selection or self.terminations.get(agent, False):
            mask = np.zeros_like(mask)
        seat = self.possible_agents.index(agent)
        return {"observation": self.match.observation(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play ``action`` for ``agent_selection`` (None for an agent that is done)."""
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        if action is None:
            raise EnvError(f"{agent}: None is only for agents that are done")
        self._cumulative_rewards[agent] = 0.0
        self.match.play(action)
        self.rewards = {a: 0.0 for a in self.agents}
        if self.match.terminal():
            for seat, r in enumerate(self.match.scores()):
                self.rewards[agent_name(seat)] = r
            self.terminations = {a: True for a in self.agents}
        self._select()
        self._accumulate_rewards()
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
