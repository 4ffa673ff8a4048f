"""What the batched vector environments share: the seeded streams on arrays, the input checks,
the step with its same-step auto-reset (:mod:`tablesim.envs.vector` documents the contract).

A game's vector environment subclasses :class:`VectorEnv` and supplies ``_start`` (deal the
next game of some slots), ``_apply`` (play one action per slot, return which games ended),
``_rewards`` (per seat, of ended games), ``_legal_mask`` and ``_planes``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tablesim.games.rng import Rng
from tablesim.sim.slices.common.codecs import EnvError
from tablesim.sim.slices.common.features import F32

__all__ = ["VectorEnv", "randbelow", "shuffle", "splitmix"]

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


def splitmix(state: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:meth:`tablesim.games.rng.Rng.next_u64` on a ``uint64`` array: (draws, next states)."""
    s = state + _GOLDEN  # uint64 arrays wrap modulo 2**64
    z = (s ^ (s >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31)), s


ALL_AT_ONCE = True
""":func:`shuffle` draws every stream's shuffle at once (False: draw by draw, for the tests)."""


def _limit(k: int) -> np.uint64 | None:
    """``Rng.randbelow(k)``'s rejection bound (None: every draw is accepted)."""
    rest = (1 << 64) % k
    return None if rest == 0 else np.uint64((1 << 64) - rest)


def randbelow(rng: np.ndarray, k: int) -> np.ndarray:
    """``Rng.randbelow(k)`` for every stream of ``rng`` (advanced in place): the draws."""
    limit = _limit(k)
    v, rng[:] = splitmix(rng)
    out = (v % np.uint64(k)).astype(np.int64)
    if limit is not None and (v >= limit).any():  # the rules' rejection: draw again
        todo = np.flatnonzero(v >= limit)
        sub = rng[todo]
        out[todo] = randbelow(sub, k)
        rng[todo] = sub
    return out


def shuffle(rng: np.ndarray, items: np.ndarray) -> np.ndarray:
    """``Rng.shuffle(items)`` (Fisher-Yates) for every stream of ``rng`` (advanced in place):
    ``(len(rng), len(items))``, one shuffled row per stream.

    SplitMix64's ``d``-th draw is a function of ``state + d * golden``, so all the draws of a
    shuffle are made at once; a stream where one would be rejected (odds about 2**-58) is
    shuffled draw by draw instead."""
    m, size = rng.size, len(items)
    out = np.tile(np.asarray(items), (m, 1))
    if not m or size < 2:
        return out
    bounds = np.arange(size, 1, -1, dtype=np.uint64)  # i + 1 for i = size-1 .. 1
    steps = np.arange(1, size, dtype=np.uint64) * _GOLDEN  # wraps modulo 2**64
    v, _ = splitmix(rng[:, None] + (steps - _GOLDEN))
    limits = np.asarray(
        [_limit(int(b)) or np.uint64((1 << 64) - 1) for b in bounds], dtype=np.uint64
    )
    draws = (v % bounds).astype(np.int64)
    advance = np.uint64((size - 1) * int(_GOLDEN) % (1 << 64))
    slow = (v >= limits).any(axis=1) | (not ALL_AT_ONCE)
    start = rng.copy()
    rng[:] = rng + advance
    if slow.any():  # redo those streams draw by draw with the rules' rejection
        idx = np.flatnonzero(slow)
        sub = start[idx]
        for d, b in enumerate(bounds):
            draws[idx, d] = randbelow(sub, int(b))
        rng[idx] = sub
    if m <= 64:  # a few rows (the games that end in one step): swaps on lists are cheaper
        rows_out = []
        for row, js in zip(out.tolist(), draws.tolist(), strict=True):
            for i, j in zip(range(size - 1, 0, -1), js, strict=True):
                row[i], row[j] = row[j], row[i]
            rows_out.append(row)
        return np.asarray(rows_out, dtype=out.dtype)
    rows = np.arange(m)
    for d, i in enumerate(range(size - 1, 0, -1)):
        j = draws[:, d]
        out[rows, i], out[rows, j] = out[rows, j], out[rows, i].copy()
    return out


class VectorEnv:
    """``n`` games of ``game`` stepped together (:mod:`tablesim.envs.vector`: seeds, auto-reset).

    ``reset()`` returns ``(obs, info)`` and ``step(actions)`` returns ``(obs, rewards,
    terminated, truncated, info)``: ``obs = {"observation": (n, *planes) float32,
    "action_mask": (n, N) int8}``, ``rewards`` ``(n, players) float32``, ``terminated`` and
    ``truncated`` ``(n,) bool``; ``info["seat"]`` is each game's seat to move (0 at the end)
    and ``info["episode"]`` its game count ``k``.
    """

    game = ""

    def __init__(self, n: int, seed: int = 0, **options: Any) -> None:
        from tablesim.envs.core import _part, codec_for
        from tablesim.games.registry import get_game

        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
            raise EnvError(
                f"vector_env: n (the number of games) must be an integer >= 1, got {n!r}"
            )
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise EnvError(f"vector_env: seed must be an integer, got {seed!r}")
        self.rules = get_game(self.game)
        opts = dict(options)
        players = opts.pop("players", max(2, self.rules.min_players))
        self.config = cfg = self.rules.make_config(opts, players=players)
        self.codec = codec_for(self.game, cfg)
        self.features = _part(self.game, "features")(self.rules, cfg, self.codec)
        self.n, self.seed = int(n), int(seed)
        self.players = int(cfg.players)
        self.n_actions = self.codec.n
        self.rng = np.zeros(self.n, dtype=np.uint64)
        self.episode = np.zeros(self.n, dtype=np.int64)
        self._mask = np.zeros((self.n, self.n_actions), dtype=np.int8)

    # ---- spaces -----------------------------------------------------------------------------
    def single_observation_space(self) -> Any:
        """One game's Gymnasium space, as ``tablesim.env(game)``'s observation space."""
        from gymnasium import spaces

        return spaces.Dict(
            {
                "observation": self.features.space(),
                "action_mask": spaces.Box(0, 1, (self.n_actions,), dtype=np.int8),
            }
        )

    # ---- games ------------------------------------------------------------------------------
    def game_seed(self, slot: int, episode: int) -> int:
        """The game seed of slot ``slot``'s game number ``episode``."""
        return self.seed + slot + self.n * episode

    def _streams(self, slots: np.ndarray, *labels: object) -> np.ndarray:
        """``Rng.from_seed(game seed, *labels).state`` of each slot's current game."""
        return np.asarray(
            [
                Rng.from_seed(self.game_seed(int(i), int(self.episode[i])), *labels).state
                for i in slots
            ],
            dtype=np.uint64,
        )

    def reset(self, seed: int | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start every slot's first game (``seed``: a new base seed)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
                raise EnvError(f"vector_env.reset: seed must be an integer, got {seed!r}")
            self.seed = int(seed)
        self.episode[:] = 0
        self._start(np.arange(self.n))
        return self._obs(), self._info()

    def step(
        self, actions: Any
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Play ``actions[i]`` in game ``i`` for its seat to move (EnvError naming the first
        game where the action is not legal); auto-reset in the same step."""
        a = np.asarray(actions)
        if a.shape != (self.n,) or not np.issubdtype(a.dtype, np.integer):
            raise EnvError(
                f"{self.game} vector env: actions must be {self.n} integers (one per game), "
                f"got shape {a.shape} of {a.dtype}"
            )
        a = a.astype(np.int64)
        bad = (a < 0) | (a >= self.n_actions)
        bad[~bad] = self._mask[np.flatnonzero(~bad), a[~bad]] == 0
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            legal = np.flatnonzero(self._mask[i]).tolist()
            shown = ", ".join(map(str, legal[:20])) + (" ..." if len(legal) > 20 else "")
            raise EnvError(
                f"{self.game} vector env: action {int(a[i])} is not legal in game {i} (legal: "
                f"{shown}; see obs['action_mask'])"
            )
        done = self._apply(a)
        rewards = np.zeros((self.n, self.players), dtype=F32)
        extra: dict[str, Any] = {}
        if done.any():
            ended = np.flatnonzero(done)
            final = np.zeros((self.n, *self.features.shape), dtype=F32)
            final[ended] = self._planes(ended)
            rewards[ended] = self._rewards(ended)
            self.episode[ended] += 1
            self._start(ended)
            extra["final_observation"] = final
        obs = self._obs()
        return obs, rewards, done, np.zeros(self.n, dtype=bool), {**self._info(), **extra}

    # ---- what the agents see ----------------------------------------------------------------
    def _seat(self) -> np.ndarray:
        """Each game's seat to move (0 once over)."""
        raise NotImplementedError

    def _info(self) -> dict[str, Any]:
        return {"seat": self._seat(), "episode": self.episode.copy()}

    def _obs(self) -> dict[str, np.ndarray]:
        self._mask = self._legal_mask()
        return {"observation": self._planes(np.arange(self.n)), "action_mask": self._mask.copy()}

    @staticmethod
    def _win_lose(winner: np.ndarray, players: int) -> np.ndarray:
        """``(m, players)`` rewards: +1 for seat ``winner[i]``, -1 for the others, 0 for all
        where ``winner[i] < 0`` (no winner)."""
        r = np.where(winner[:, None] == np.arange(players), 1.0, -1.0).astype(F32)
        r[winner < 0] = 0.0
        return r

    def _start(self, slots: np.ndarray) -> None:
        raise NotImplementedError

    def _apply(self, a: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _rewards(self, ended: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _legal_mask(self) -> np.ndarray:
        raise NotImplementedError

    def _planes(self, g: np.ndarray) -> np.ndarray:
        raise NotImplementedError
