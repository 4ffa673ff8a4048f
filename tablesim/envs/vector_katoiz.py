"""The batched Katoiz environment, game type Stapeltoren (the default type):
:mod:`tablesim.games.katoiz.stapeltoren` over arrays.

A slot's position is its supply as counts per picture kind (``(n, 30)``: duplicates are
interchangeable, the rules always take the lowest id of a kind), every seat's stacks as top
kind and height (``(n, players, S)``, S = the codec's stack count, the supply size), the turn,
the passes in a row and the dice (colour face, picture face; none in the first round, without
the colour die and at the end). Action ids, masks and planes are those of
:mod:`tablesim.sim.slices.katoiz.codec` and ``features``; the supply is drawn and the dice rolled
from the rules' stream (``Rng.from_seed(seed, "katoiz", "stapeltoren")``) on ``uint64`` arrays.
The types 3-set and Stapeltje-four have no batched environment (EnvError).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tablesim.envs.vector_base import VectorEnv, randbelow, shuffle
from tablesim.sim.slices.common.codecs import EnvError
from tablesim.sim.slices.common.features import F32

__all__ = ["KatoizVectorEnv"]

_KINDS = 30


def _tables() -> dict[str, np.ndarray]:
    """Kinds of the 40 picture tiles, matches between kinds, and which kinds show a roll."""
    from tablesim.games.katoiz.components import MATCH, PICTURE_TILES, fits
    from tablesim.sim.slices.katoiz.codec import tile_kind

    kind = np.asarray([tile_kind(t) for t in PICTURE_TILES], dtype=np.int64)
    match = np.asarray([[MATCH[a][b] for b in range(_KINDS)] for a in range(_KINDS)])
    # fit[colour face, picture face + 1, kind]: tiles 0..29 are one of each kind
    fit = np.asarray(
        [[[fits(k, (c, p)) for k in range(_KINDS)] for p in range(-1, 6)] for c in range(6)]
    )
    return {"kind": kind, "match": match, "fit": fit}


class KatoizVectorEnv(VectorEnv):
    """``n`` Katoiz Stapeltoren games stepped together (:mod:`tablesim.envs.vector`).

    Options as for ``tablesim.env("katoiz", ...)`` with ``type`` ``stapeltoren`` (``level``,
    ``two_matches``, ``colour_die``, ``picture_die``, ``supply``, ``players`` 1-4).
    Observations ``(n, 13, 30) float32``, masks ``(n, N) int8`` (:class:`VectorEnv`).
    """

    game = "katoiz"

    def __init__(self, n: int, seed: int = 0, **options: Any) -> None:
        kind = options.get("type", "stapeltoren")
        if kind != "stapeltoren":
            raise EnvError(
                f"vector_env: katoiz type {kind!r} has no batched environment (types: "
                "stapeltoren); use tablesim.env('katoiz', type=...) per game"
            )
        super().__init__(n, seed, **options)
        cfg = self.config
        self.t = _tables()
        lay = self.codec.layout
        self._off_add, self._off_new = lay.offsets["add"], lay.offsets["new"]
        self._off_pass = lay.offsets["pass"]
        from tablesim.sim.slices.katoiz.codec import KatoizCodec

        codec = self.codec
        assert isinstance(codec, KatoizCodec)  # the registered codec of katoiz
        self.stacks = s = codec.stacks
        self._need = 2 if cfg.two_matches else 1
        self._die, self._picture = cfg.colour_die, cfg.picture_die
        p = self.players
        self.supply = np.zeros((self.n, _KINDS), dtype=np.int64)
        self.top = np.zeros((self.n, p, s), dtype=np.int64)
        self.height = np.zeros((self.n, p, s), dtype=np.int64)  # 0 = no such stack
        self.count = np.zeros((self.n, p), dtype=np.int64)  # stacks per seat
        self.turn = np.zeros(self.n, dtype=np.int64)
        self.passes = np.zeros(self.n, dtype=np.int64)
        self.rolled = np.zeros(self.n, dtype=bool)
        self.colour = np.zeros(self.n, dtype=np.int64)
        self.picture = np.full(self.n, -1, dtype=np.int64)

    # ---- games ------------------------------------------------------------------------------
    def _start(self, slots: np.ndarray) -> None:
        rng = self._streams(slots, "katoiz", "stapeltoren")
        tiles = shuffle(rng, np.arange(40))[:, : self.config.supply]
        self.rng[slots] = rng
        kinds = self.t["kind"][tiles]  # (m, supply)
        self.supply[slots] = (kinds[:, :, None] == np.arange(_KINDS)).sum(axis=1)
        self.top[slots] = 0
        self.height[slots] = 0
        self.count[slots] = 0
        self.turn[slots] = 0
        self.passes[slots] = 0
        self.rolled[slots] = False
        self.picture[slots] = -1

    def _over(self) -> np.ndarray:
        """``TorenState``'s end: supply empty, or (without dice) a full round of passes."""
        over = np.asarray(~(self.supply > 0).any(axis=1))
        if not self._die:
            over |= np.asarray(self.passes >= self.players)
        return over

    def _apply(self, a: np.ndarray) -> np.ndarray:
        g = np.arange(self.n)
        seat = self.turn % self.players
        passed = a == self._off_pass
        take = ~passed
        add = take & (a >= self._off_add) & (a < self._off_new)
        fresh = take & ~add  # start or new: a new stack
        kind = np.where(a >= self._off_new, a - self._off_new, a)
        kind[add], dst = np.divmod(a[add] - self._off_add, self.stacks)
        self.supply[g[take], kind[take]] -= 1
        s, w = g[add], seat[add]
        self.top[s, w, dst] = kind[add]
        self.height[s, w, dst] += 1
        s, w = g[fresh], seat[fresh]
        c = self.count[s, w]
        self.top[s, w, c] = kind[fresh]
        self.height[s, w, c] = 1
        self.count[s, w] = c + 1
        self.passes = np.where(passed, self.passes + 1, 0)
        self.turn += 1
        done = self._over()
        self.rolled[:] = False
        if self._die:
            roll = np.flatnonzero(~done & (self.turn >= self.players))
            rng = self.rng[roll]
            self.colour[roll] = randbelow(rng, 6)
            if self._picture:
                self.picture[roll] = randbelow(rng, 6)
            self.rng[roll] = rng
            self.rolled[roll] = True
        return done

    def _rewards(self, ended: np.ndarray) -> np.ndarray:
        p = self.players
        if not self._die or p == 1:  # levels 1-2 and solo games name no winner
            return np.zeros((ended.size, p), dtype=F32)
        best = self.height[ended].max(axis=2)  # (m, players)
        top = best.max(axis=1)
        single = (best == top[:, None]).sum(axis=1) == 1
        return self._win_lose(np.where(single, best.argmax(axis=1), -1), p)

    # ---- what the agents see ----------------------------------------------------------------
    def _seat(self) -> np.ndarray:
        return np.where(self._over(), 0, self.turn % self.players)

    def _fitting(self, g: np.ndarray) -> np.ndarray:
        """``(m, 30) bool``: the kinds that show each game's roll (all without a roll)."""
        fit = self.t["fit"][self.colour[g], self.picture[g] + 1]
        fit[~self.rolled[g]] = True
        return fit

    def _legal_mask(self) -> np.ndarray:
        mask = np.zeros((self.n, self.n_actions), dtype=np.int8)
        over = self._over()
        present = self.supply > 0
        starting = self.turn < self.players
        first = np.flatnonzero(starting & ~over)
        mask[first, :_KINDS] = present[first]
        g = np.flatnonzero(~starting & ~over)
        if not g.size:
            return mask
        seat = self.turn[g] % self.players
        fitting = present[g] & self._fitting(g)
        k = max(1, int(self.count[g, seat].max()))  # stacks in use
        tops = self.top[g, seat, :k]  # (m, k)
        live = self.height[g, seat, :k] > 0
        ok = (self.t["match"][:, tops] >= self._need).transpose(1, 0, 2)  # (m, 30, k)
        ok &= fitting[:, :, None] & live[:, None, :]
        adds = np.zeros((g.size, _KINDS, self.stacks), dtype=bool)
        adds[:, :, :k] = ok
        mask[g, self._off_add : self._off_new] = adds.reshape(g.size, -1)
        none = ~ok.any(axis=(1, 2))
        if self._die:
            new = np.flatnonzero(none)
            mask[g[new], self._off_new : self._off_new + _KINDS] = fitting[new]
            none &= ~fitting.any(axis=1)
        mask[g[none], self._off_pass] = 1
        return mask

    def _planes(self, g: np.ndarray) -> np.ndarray:
        m, p = g.size, self.players
        over = self._over()[g]
        seat = np.where(over, 0, self.turn[g] % p)
        out = np.zeros((m, 13, _KINDS), dtype=F32)
        out[:, 0] = self.supply[g]
        k = max(1, int(self.count[g].max()))
        onehot = self.top[g, :, :k, None] == np.arange(_KINDS)  # (m, p, k, 30)
        onehot &= self.height[g, :, :k, None] > 0
        counts = onehot.sum(axis=2)  # (m, p, 30)
        highest = np.where(onehot, self.height[g, :, :k, None], 0).max(axis=2)
        rows = np.arange(m)[:, None]
        rel = (seat[:, None] + np.arange(min(4, p))) % p  # seats +0..+3
        out[:, 1 : 1 + rel.shape[1]] = counts[rows, rel]
        out[:, 5 : 5 + rel.shape[1]] = highest[rows, rel]
        starting = self.turn[g] < p
        fit = self._fitting(g)
        fit[starting] = True
        out[:, 9] = fit
        out[:, 10] = (~over)[:, None]
        out[:, 11] = starting[:, None]
        out[:, 12] = np.minimum(1.0, self.passes[g] / p)[:, None]
        return out
