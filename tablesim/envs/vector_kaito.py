"""The batched Kaito environment: :mod:`tablesim.games.kaito.rules` over arrays.

A slot's position is its grid ``board`` (``(n, 37) int8`` tile codes, column 36 an always-empty
pad for the rays), the Kaito's cell (-1 before it is placed), the seat to move, the turn and
``held[slot, seat, kind]``: how many of the opponent's tiles of kind ``kind`` (Katana, Kabuto,
3-, 2-, 1-Mon: :data:`tablesim.sim.slices.kaito.features.KAITO_KINDS`) that seat holds. Tile
code ``1 + 5 * colour + kind`` (red 0, black 1), 11 an opening tile, 0 a gap. Action ids, masks
and planes are those of :mod:`tablesim.sim.slices.kaito.codec` and ``features``; the grid is
shuffled from the rules' stream (``Rng.from_seed(seed, "kaito")``) on ``uint64`` arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tablesim.envs.vector_base import VectorEnv, shuffle
from tablesim.sim.slices.common.features import F32

__all__ = ["KaitoVectorEnv"]

_OPEN = 11
_EMPTY_PAD = 36  # the pad column of ``board``: a cell that never holds a tile


def _tables() -> dict[str, np.ndarray]:
    """The fixed lookup tables of the Kaito rules on arrays."""
    from tablesim.games.kaito.rules import FULL_SET, RAYS
    from tablesim.sim.slices.kaito.codec import KAITO_PAIRS, kaito_trades
    from tablesim.sim.slices.kaito.features import KAITO_KINDS

    code = {"O": _OPEN}
    for colour, letter in enumerate("RB"):
        for k, kind in enumerate(KAITO_KINDS):
            code[letter + kind] = 1 + 5 * colour + k
    pair = np.zeros((36, 36), dtype=np.int64)
    for i, (a, b) in enumerate(KAITO_PAIRS):
        pair[a, b] = i
    ray = np.full((36, 4, 5), _EMPTY_PAD, dtype=np.int64)  # nearest first, padded
    line = np.zeros((36, 36), dtype=bool)  # the cells in the row and column (pass)
    for cell in range(36):
        for d, cells in enumerate(RAYS[cell]):
            ray[cell, d, : len(cells)] = cells
            line[cell, list(cells)] = True
    trades = kaito_trades()
    buy = np.asarray([{"": -1, "katana": 0, "kabuto": 1}[b] for b, _ in trades], dtype=np.int64)
    # pay_ok[h, t]: trade t's payment fits the Mons counted by h = 12 * n3 + 4 * n2 + n1
    pay_ok = np.zeros((36, len(trades)), dtype=bool)
    for h in range(36):
        n3, n2, n1 = h // 12, h // 4 % 3, h % 4
        for t, (_, pay) in enumerate(trades):
            pay_ok[h, t] = pay.count(3) <= n3 and pay.count(2) <= n2 and pay.count(1) <= n1
    pays = np.asarray([[p.count(3), p.count(2), p.count(1)] for _, p in trades], dtype=np.int64)
    # rel[seat, code]: the plane of a tile seen from ``seat`` (0-4 own, 5-9 the opponent's,
    # 10 opening, 11 no tile); mon[seat, code]: the Mons index step when seat captures it
    rel = np.full((2, 12), 11, dtype=np.int64)
    mon = np.zeros((2, 12), dtype=np.int64)
    for seat in (0, 1):
        rel[seat, _OPEN] = 10
        for colour in (0, 1):
            for k in range(5):
                c = 1 + 5 * colour + k
                rel[seat, c] = k + (0 if colour == seat else 5)
                if colour != seat and k >= 2:
                    mon[seat, c] = (12, 4, 1)[k - 2]
    return {
        "deal": np.asarray([code[t] for t in FULL_SET], dtype=np.int8),
        "pair": pair, "ray": ray, "line": line, "buy": buy, "pay_ok": pay_ok, "pay": pays,
        "rel": rel, "mon": mon,
    }  # fmt: skip


class KaitoVectorEnv(VectorEnv):
    """``n`` Kaito games stepped together (:mod:`tablesim.envs.vector`: seeds, auto-reset).

    Options as for ``tablesim.env("kaito", ...)`` (``movement``, ``end_check``). Observations
    ``(n, 25, 6, 6) float32``, masks ``(n, N) int8`` (:class:`VectorEnv`).
    """

    game = "kaito"

    def __init__(self, n: int, seed: int = 0, **options: Any) -> None:
        super().__init__(n, seed, **options)
        self.t = _tables()
        lay = self.codec.layout
        self._off_place = lay.offsets["place"]
        self._off_move = lay.offsets["move"]
        from tablesim.sim.slices.kaito.codec import KaitoCodec

        assert isinstance(self.codec, KaitoCodec)  # the registered codec of kaito
        self._trades = len(self.codec.trades)
        self._pass = self.config.movement == "pass"
        self._capture = self.config.end_check == "capture"
        self.board = np.zeros((self.n, 37), dtype=np.int8)
        self.kaito = np.full(self.n, -1, dtype=np.int64)
        self.player = np.ones(self.n, dtype=np.int64)
        self.turn = np.zeros(self.n, dtype=np.int64)
        self.held = np.zeros((self.n, 2, 5), dtype=np.int64)
        self._targets = np.zeros((self.n, 36), dtype=bool)
        self._over = np.zeros(self.n, dtype=bool)
        self._winner = np.full(self.n, -1, dtype=np.int64)

    # ---- games ------------------------------------------------------------------------------
    def _start(self, slots: np.ndarray) -> None:
        rng = self._streams(slots, "kaito")
        self.board[slots, :36] = shuffle(rng, self.t["deal"])
        self.board[slots, 36] = 0
        self.rng[slots] = rng
        self.kaito[slots] = -1
        self.player[slots] = 1  # black does the opening
        self.turn[slots] = 0
        self.held[slots] = 0
        self._refresh(slots)

    def _refresh(self, g: np.ndarray) -> None:
        """The Kaito's targets, the end and the winner of games ``g`` (``KaitoState.outcome``)."""
        board = self.board[g]
        occ = board != 0
        k = np.maximum(self.kaito[g], 0)
        if self._pass:
            targets = occ[:, :36] & self.t["line"][k]
        else:
            r = self.t["ray"][k]  # (m, 4, 5)
            rows = np.arange(g.size)[:, None, None]
            hit = occ[rows, r]
            first = r[rows[:, :, 0], np.arange(4), hit.argmax(axis=2)]  # (m, 4)
            first[~hit.any(axis=2)] = _EMPTY_PAD
            t37 = np.zeros((g.size, 37), dtype=bool)
            t37[rows[:, :, 0], first] = True
            targets = t37[:, :36]
        playing = self.kaito[g] >= 0
        targets &= playing[:, None]
        red_lost = ~(board == 1).any(axis=1) | ~(board == 2).any(axis=1)
        black_lost = ~(board == 6).any(axis=1) | ~(board == 7).any(axis=1)
        stuck = ~targets.any(axis=1)
        winner = np.where(red_lost, 1, np.where(black_lost, 0, 1 - self.player[g]))
        over = playing & (red_lost | black_lost | stuck)
        self._targets[g] = targets
        self._over[g] = over
        self._winner[g] = np.where(over, winner, -1)

    def _apply(self, a: np.ndarray) -> np.ndarray:
        g = np.arange(self.n)
        board, me = self.board, self.player
        rem = a < self._off_place
        if rem.any():
            b = board[rem]
            b[b == _OPEN] = 0
            board[rem] = b
        place = ~rem & (a < self._off_move)
        self.kaito[place] = a[place] - self._off_place
        self.player[place] = 0  # red starts the game proper
        mv = g[a >= self._off_move]
        if mv.size:
            cell, trade = np.divmod(a[mv] - self._off_move, self._trades)
            seat = me[mv]
            tile = board[mv, cell].astype(np.int64)
            board[mv, cell] = 0
            colour, kind = (tile - 1) // 5, (tile - 1) % 5
            caught = colour != seat
            self.held[mv[caught], seat[caught], kind[caught]] += 1
            buy = self.t["buy"][trade]
            bought = buy >= 0
            if bought.any():
                s, w, b = mv[bought], seat[bought], buy[bought]
                self.held[s, w, 2:] -= self.t["pay"][trade[bought]]
                self.held[s, 1 - w, b] -= 1
                board[s, cell[bought]] = 1 + 5 * w + b
            self.kaito[mv] = cell
            self.player[mv] = 1 - seat
        self.turn += 1
        self._refresh(g)
        return self._over.copy()

    def _rewards(self, ended: np.ndarray) -> np.ndarray:
        return self._win_lose(self._winner[ended], 2)

    # ---- what the agents see ----------------------------------------------------------------
    def _seat(self) -> np.ndarray:
        return np.where(self._over, 0, self.player)

    def _legal_mask(self) -> np.ndarray:
        n, t, tt = self.n, self.t, self._trades
        mask = np.zeros((n, self.n_actions), dtype=np.int8)
        board = self.board[:, :36]
        opening = board == _OPEN
        rem = np.flatnonzero(opening.any(axis=1))
        if rem.size:
            cells = np.flatnonzero(opening[rem]) % 36  # row-major: two per game, ascending
            mask[rem, t["pair"][cells[0::2], cells[1::2]]] = 1
        place = np.flatnonzero((self.kaito < 0) & ~opening.any(axis=1))
        if place.size:
            mask[place, self._off_place : self._off_place + 36] = board[place] == 0
        play = np.flatnonzero((self.kaito >= 0) & ~self._over)
        if play.size:  # one row per (game, target cell): its trades
            rows, cells = np.nonzero(self._targets[play])
            slot = play[rows]
            me = self.player[slot]
            held = self.held[slot]  # (k, 2, 5)
            r = np.arange(slot.size)
            mine, theirs = held[r, me], held[r, 1 - me]
            tile = board[slot, cells]
            h = mine[:, 2] * 12 + mine[:, 3] * 4 + mine[:, 4] + t["mon"][me, tile]
            ok = t["pay_ok"][h]  # (k, T): the payment fits the Mons after the capture
            avail = np.concatenate([np.ones((slot.size, 1), dtype=bool), theirs[:, :2] > 0], 1)
            ok &= avail[:, t["buy"] + 1]  # the bought tile is held by the opponent
            if self._capture:  # a capture that ends the game allows no trade
                ends = np.zeros(slot.size, dtype=bool)
                for c in (1, 2, 6, 7):
                    last = (board[play] == c).sum(axis=1) == 1
                    ends |= (tile == c) & last[rows]
                ok[ends, 1:] = False
            ok[:, 0] = True
            ids = self._off_move + cells[:, None] * tt + np.arange(tt)
            mask[slot[:, None], ids] = ok
        return mask

    def _planes(self, g: np.ndarray) -> np.ndarray:
        m = g.size
        seat = np.where(self._over[g], 0, self.player[g])
        out = np.empty((m, 25 * 36), dtype=F32)
        out[:, : 12 * 36] = 0  # planes 12-24 are written whole below
        rel = self.t["rel"][seat[:, None], self.board[g, :36]]  # (m, 36) plane per cell
        rows, cells = np.nonzero(rel < 11)
        out[rows, rel[rows, cells] * 36 + cells] = 1
        k = self.kaito[g]
        on = np.flatnonzero(k >= 0)
        out[on, 11 * 36 + k[on]] = 1
        planes = out.reshape(m, 25, 36)
        planes[:, 12:17] = self.held[g, seat][:, :, None]
        planes[:, 17:22] = self.held[g, 1 - seat][:, :, None]
        planes[:, 22] = (~self._over[g])[:, None]
        opening = (self.board[g, :36] == _OPEN).any(axis=1)
        planes[:, 23] = opening[:, None]
        planes[:, 24] = ((k < 0) & ~opening)[:, None]
        return planes.reshape(m, 25, 6, 6)
