"""A Gymnasium single-agent environment: one seat learns, the others are a named bot."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from tablesim.envs.aec import check_render_mode
from tablesim.envs.core import EnvError, Match, Picture


class SingleAgentEnv(gym.Env):
    """The agent plays ``seat``; every other seat is played by bot ``opponent``.

    Observations and actions are those of :class:`tablesim.envs.aec.TableGameEnv` (a Dict with
    ``observation``, seen from ``seat``, and ``action_mask``; ``Discrete(N)`` fixed move ids). ``reset`` plays the bots'
    moves up to the agent's first turn; ``step`` plays the agent's move and then the bots'
    until it is the agent's turn again or the game ends. Reward at the end: +1 win, -1 loss,
    0 draw. An action outside the mask ends the episode as a loss (reward -1,
    ``info["illegal_action"]``), as PettingZoo's ``TerminateIllegalWrapper`` does. The bots' seeds derive from the reset
    seed and their seat, so a seeded episode is reproducible.
    """

    metadata = {"render_modes": ["human", "rgb_array"], "render_fps": 2}

    def __init__(
        self, game: str, opponent: str = "random", seat: int = 0,
        render_mode: str | None = None, size: tuple[int, int] = (640, 360),
        observation: str = "planes", **options: Any,
    ) -> None:  # fmt: skip
        from tablesim.games.registry import make_bot

        check_render_mode(render_mode)
        self.match = Match(game, options, observation)
        if not 0 <= seat < self.match.players:
            raise EnvError(
                f"{game}: seat {seat} does not exist (seats 0..{self.match.players - 1})"
            )
        make_bot(self.match.game.name, opponent, seed=0)  # ConfigError naming the bots
        self.opponent = opponent
        self.seat = seat
        self.render_mode = render_mode
        self._picture = Picture(self.match.game.name, render_mode, size)
        self.observation_space = self.match.observation_space()
        self.action_space = spaces.Discrete(self.match.n_actions)
        self._bots: dict[int, Any] = {}
        self._forfeit = False

    def _obs(self) -> dict[str, np.ndarray]:
        return {"observation": self.match.observation(self.seat), "action_mask": self.match.mask()}

    def _info(self) -> dict[str, Any]:
        return {
            "legal_moves": self.match.lazy_move_texts(),
            "legal_actions": self.match.legal_actions,
        }

    def _play_bots(self) -> None:
        while not self.match.terminal() and self.match.current_seat() != self.seat:
            seat = self.match.current_seat()
            assert seat is not None  # not terminal
            bot, refused = self._bots[seat], self.match.refused
            state = self.match.state
            self.match.play_move(
                bot.choose_avoiding(state, refused) if refused else bot.choose(state)
            )

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start the game of ``seed`` (default: drawn from Gymnasium's ``np_random``)."""
        from tablesim.games.registry import make_bot

        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(2**31))
        self.match.reset(game_seed)
        self._forfeit = False
        self._bots = {
            s: make_bot(self.match.game.name, self.opponent, seed=game_seed * 1009 + s)
            for s in range(self.match.players)
            if s != self.seat
        }
        self._play_bots()
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Play ``action``, then the bots; returns (obs, reward, terminated, truncated, info)."""
        if self.match.terminal() or self._forfeit:
            raise EnvError("the episode is over: call reset()")
        if not self.action_space.contains(action) or not self.match.mask()[int(action)]:
            self._forfeit = True
            info = dict(self._info(), illegal_action=True)
            return self._obs(), -1.0, True, False, info
        self.match.play(int(action))
        self._play_bots()
        done = self.match.terminal()
        reward = self.match.scores()[self.seat] if done else 0.0
        if self.render_mode == "human":
            self.render()
        return self._obs(), float(reward), done, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (the method sb3-contrib's ``MaskablePPO`` calls)."""
        return self.match.mask().astype(bool)

    def action_of(self, text: str) -> int:
        """The action that plays the move ``text`` now (``"12"``, ``"c6-c4"``)."""
        return self.match.action_of(text)

    def move_of(self, action: int) -> Any:
        """The move (the game's move value) action ``action`` names now (see the mask)."""
        return self.match.move_of(action)

    def render(self) -> np.ndarray | None:
        """``rgb_array``: ``(H, W, 3) uint8``; ``human``: draws the window; None without a mode."""
        return self._picture.render(self.match.state)

    def close(self) -> None:
        """Close the view and the physics table."""
        self._picture.close()
        self.match.close_referee()
