"""Batched vector environments: ``n`` games of one game stepped at once by numpy in one process.

``tablesim.vector_env("catego", 256, seed=7)`` returns a :class:`CategoVectorEnv`: the rules of
:mod:`tablesim.games.catego` over arrays (pad, turns, first entries, dice streams) instead of one frozen
state per game, with the single environment's action ids (:mod:`tablesim.sim.slices.catego.codec`:
action ``i`` writes the roll in column ``columns[i]``), masks and observation planes
(:mod:`tablesim.sim.slices.catego.features`), seen from the seat to move (seat 0 once a game is over,
as :meth:`tablesim.envs.core.Match.observation`). ``"kaito"`` gives
:class:`tablesim.envs.vector_kaito.KaitoVectorEnv` and ``"katoiz"`` (type Stapeltoren)
:class:`tablesim.envs.vector_katoiz.KatoizVectorEnv`, on the same contract
(:class:`tablesim.envs.vector_base.VectorEnv`). ``tests/test_envs_vector.py`` holds each equal
move for move to the single environment.

Seeds. Game slot ``i`` plays its ``k``-th game (``k = 0, 1, ...``) from game seed
``seed + i + n * k``: the game ``tablesim.env(game).reset(seed=seed + i + n * k)`` and
``tablesim play GAME --seed ...`` play, chance included (the same SplitMix64 stream,
:class:`tablesim.games.rng.Rng`, run on ``uint64`` arrays).

Auto-reset (same step). When the move of slot ``i`` ends its game, ``step`` returns that move's
``rewards[i]`` (per seat: +1 to the winners, -1 to the others, 0 to all for a draw or a game
that names no winner; 0 on every other step) and ``terminated[i] = True``,
``info["final_observation"][i]`` holds the ended game's observation, and the returned
observation and mask of slot ``i`` are already those of its next game's first position. Games
never truncate.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tablesim.envs.vector_base import VectorEnv, randbelow
from tablesim.games.registry import game_names, game_spec
from tablesim.sim.slices.common.codecs import EnvError
from tablesim.sim.slices.common.features import F32

__all__ = ["CategoVectorEnv", "vector_env", "vector_game_names"]


class CategoVectorEnv(VectorEnv):
    """``n`` Catego games stepped together (module docstring: seeds, auto-reset).

    Parameters
    ----------
    n: the number of games (at least 1).
    seed: slot ``i``'s first game has game seed ``seed + i``.
    options: game options as for ``tablesim.env("catego", ...)`` (``players``, ``columns``,
        ``tie_rule``, ``partnerships``, ``first_entry``).

    Observations ``(n, 13, C) float32``, masks ``(n, C) int8`` (:class:`VectorEnv`).
    """

    game = "catego"

    def __init__(self, n: int, seed: int = 0, **options: Any) -> None:
        super().__init__(n, seed, **options)
        cfg = self.config
        p = self.players
        self.columns = c = len(cfg.columns)
        self.total = p * c
        self._labels = np.asarray(cfg.columns, dtype=np.int64)
        self._side_of = np.asarray([cfg.side_of(s) for s in range(p)], dtype=np.int64)
        self._sides = np.zeros((len(cfg.sides), p), dtype=np.int64)  # side x seat membership
        for k, team in enumerate(cfg.sides):
            self._sides[k, list(team)] = 1
        # _blocks[s, o]: seat o's first entry forbids seat s's first entry in that column
        self._blocks = np.asarray(
            [[o != s and (cfg.first_entry == "everyone" or cfg.side_of(o) != cfg.side_of(s))
              for o in range(p)] for s in range(p)], dtype=bool,
        ) if cfg.first_entry != "off" else np.zeros((p, p), dtype=bool)  # fmt: skip
        self._seats = np.arange(p)
        self.pad = np.zeros((self.n, p, c), dtype=np.int64)  # entries, 0 = empty
        self.first = np.full((self.n, p), -1, dtype=np.int64)  # first entry's column index
        self.turn = np.zeros(self.n, dtype=np.int64)
        self.roll = np.zeros(self.n, dtype=np.int64)  # the dice sum to write (0 at the end)

    def _start(self, slots: np.ndarray) -> None:
        """Start the next game of each slot in ``slots`` (``episode`` already counts it)."""
        self.pad[slots] = 0
        self.first[slots] = -1
        self.turn[slots] = 0
        self.rng[slots] = self._streams(slots, "catego")
        self._roll(slots)

    def _roll(self, slots: np.ndarray) -> None:
        """Draw the next roll of each slot in ``slots`` (``tablesim.games.catego._roll``: two dice)."""
        rng = self.rng[slots]
        a = randbelow(rng, 6) + 1
        b = randbelow(rng, 6) + 1
        self.rng[slots] = rng
        self.roll[slots] = a + b

    def _apply(self, a: np.ndarray) -> np.ndarray:
        g = np.arange(self.n)
        seat = self.turn % self.players
        self.pad[g, seat, a] = self.roll
        early = self.turn < self.players
        self.first[g[early], seat[early]] = a[early]
        self.turn += 1
        done = self.turn >= self.total
        self._roll(g[~done])
        self.roll[done] = 0
        return done

    def _rewards(self, ended: np.ndarray) -> np.ndarray:
        scores = self._scores(ended)
        top = scores.max(axis=1)
        single = (scores == top[:, None]).sum(axis=1) == 1
        winner = self._sides[scores.argmax(axis=1)]  # (m, players) seats of the top side
        r = np.where(winner == 1, 1.0, -1.0)
        r[~single] = 0.0
        return r

    # ---- what the agents see ----------------------------------------------------------------
    def _seat(self) -> np.ndarray:
        return self.turn % self.players

    def _legal_mask(self) -> np.ndarray:
        return self._legal(np.arange(self.n)).astype(np.int8)

    def _legal(self, g: np.ndarray) -> np.ndarray:
        """``(m, C) bool``: the legal columns of games ``g`` (``Catego.legal_moves``)."""
        turn = self.turn[g]
        seat = turn % self.players
        open_ = self.pad[g, seat] == 0
        open_[turn >= self.total] = False
        early = turn < self.players
        if not early.any() or not self._blocks.any():
            return open_
        block = self._blocks[seat] & (self.first[g] >= 0) & early[:, None]  # (m, players)
        cols = np.where(block, self.first[g], self.columns)
        blocked = np.zeros((g.size, self.columns + 1), dtype=bool)
        blocked[np.arange(g.size)[:, None], cols] = True
        legal = open_ & ~blocked[:, : self.columns]
        waived = ~legal.any(axis=1)  # the rule is waived rather than leave no move
        legal[waived] = open_[waived]
        return legal

    def _columns(self, g: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per game of ``g`` and column: (complete and won, winning side, complete and void)
        (``tablesim.games.catego.column_results``)."""
        pad = self.pad[g]
        full = (pad != 0).all(axis=1)
        values = np.einsum("sp,mpc->msc", self._sides, pad)  # each side's value
        top = values.max(axis=1)
        if self.config.tie_rule == "any-duplicate":
            srt = np.sort(values, axis=1)
            unique = ~(srt[:, 1:] == srt[:, :-1]).any(axis=1)
        else:
            unique = (values == top[:, None]).sum(axis=1) == 1
        return full & unique, values.argmax(axis=1), full & ~unique

    def _scores(self, g: np.ndarray) -> np.ndarray:
        """``(m, sides)``: each side's points (``tablesim.games.catego.side_scores``)."""
        won, winner, _ = self._columns(g)
        sides = np.arange(self._sides.shape[0])
        hit = won[:, None, :] & (winner[:, None, :] == sides[None, :, None])
        return (hit * self._labels).sum(axis=2)

    def _planes(self, g: np.ndarray) -> np.ndarray:
        """The observation planes of games ``g`` from their seat to move (seat 0 at the end):
        :class:`tablesim.sim.slices.catego.features.CategoFeatures` over arrays."""
        m, p = g.size, self.players
        turn = self.turn[g]
        seat = turn % p  # at the end turn = players * columns, so seat 0
        out = np.zeros((m, *self.features.shape), dtype=F32)
        order = (seat[:, None] + self._seats) % p
        out[:, :p] = self.pad[g[:, None], order]
        out[:, 4] = self._labels
        won, winner, void = self._columns(g)
        mine = self._side_of[seat]
        own = won & (winner == mine[:, None])
        out[:, 5] = own
        out[:, 6] = won & ~own
        out[:, 7] = void
        out[:, 8] = self.roll[g][:, None]
        out[:, 9] = (turn < self.total)[:, None]
        scores = self._scores(g)
        rows = np.arange(m)
        out[:, 10] = scores[rows, mine][:, None]
        others = scores.copy()
        others[rows, mine] = -1
        out[:, 11] = others.max(axis=1)[:, None]
        out[:, 12] = (turn / self.total)[:, None]
        return out


def vector_game_names() -> tuple[str, ...]:
    """The registered games with a batched vector environment (their spec's ``vector``,
    :class:`tablesim.games.registry.GameSpec`), sorted."""
    return tuple(n for n in game_names() if game_spec(n).vector is not None)


def vector_env(game: str, n: int, seed: int = 0, **options: Any) -> VectorEnv:
    """``n`` games of ``game`` stepped at once in this process (module docstring); call
    ``reset()`` first. Games: ``catego``, ``kaito``, ``katoiz`` (Katoiz: type
    ``stapeltoren``)."""
    cls: type[VectorEnv] | None = None
    if game in game_names():
        cls = game_spec(game).part("vector")
    if cls is None:
        raise EnvError(
            f"vector_env: no batched environment for game {game!r} (games: "
            f"{', '.join(vector_game_names())}); use tablesim.env({game!r}) per game"
        )
    return cls(n, seed=seed, **options)
