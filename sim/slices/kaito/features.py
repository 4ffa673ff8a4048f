"""The Kaito observation planes (``docs/envs.md``;
the scheme: :mod:`tablesim.sim.slices.common.features`)."""

from __future__ import annotations

import struct
from itertools import compress
from operator import is_not
from typing import Any

import numpy as np

from tablesim.sim.slices.common.features import F32, Features

KAITO_KINDS = ("S", "H", "3", "2", "1")
KAITO_COUNTS = (7, 3, 2, 2, 3)
_KIND = {kind: i for i, kind in enumerate(KAITO_KINDS)}


_AT: tuple[dict[str, int], ...] = tuple(
    {"O": 10 * 36}
    | {
        colour + kind: 36 * ((0 if colour == "RB"[seat] else 5) + k)
        for colour in "RB"
        for k, kind in enumerate(KAITO_KINDS)
    }
    for seat in (0, 1)
)


_BOARD_BYTES = bytes(4 * 12 * 36)  # planes 0-11, float32 zeros
_PLANE_OF = tuple(struct.pack("=36f", *[float(v)] * 36) for v in range(max(KAITO_COUNTS) + 1))
"""A constant plane of value 0, 1, ... as float32 bytes (the counts are whole numbers)."""


class KaitoFeatures(Features):
    """Planes 0-4 own tiles (Katana, Kabuto, 3-, 2-, 1-Mon), 5-9 the opponent's, 10 opening
    tiles, 11 the Kaito; constant planes 12-16 opponent tiles the observer holds (counts by
    kind), 17-21 own tiles the opponent holds, 22 own turn, 23 remove phase, 24 place phase."""

    shape = (25, 6, 6)

    def __init__(self, game: Any, config: Any, codec: Any) -> None:
        super().__init__(game, config, codec)
        for i, n in enumerate(KAITO_COUNTS):
            self.high[12 + i] = n
            self.high[17 + i] = n
        self._consts_memo: dict[tuple[Any, ...], bytes] = {}
        # per seat: the last board and Kaito cell seen, and their planes 0-11 as float32 bytes
        self._kept: dict[int, list[Any]] = {}

    def _consts(self, key: tuple[Any, ...]) -> bytes:
        """The constant planes 12-24 (held tiles by kind, the turn and phase flags) as float32
        values, remembered by what they show (a handful of combinations a game)."""
        mine, theirs, turn, phase = key
        consts = [0.0] * 13
        for base, held in ((0, mine), (5, theirs)):
            for tile in held:
                consts[base + _KIND[tile[1]]] += 1
        consts[10] = float(turn)
        consts[11] = float(phase == "remove")
        consts[12] = float(phase == "place")
        out = b"".join([_PLANE_OF[int(c)] for c in consts])
        memo = self._consts_memo
        if len(memo) > 10_000:
            memo.clear()
        memo[key] = out
        return out

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        # float32 bytes (the same values as numpy's planes: tests/test_envs_light_fast.py
        # compares every seat's planes with the plain build). Planes 0-11 are kept per seat
        # for the last board seen and updated on the cells that differ (a move changes one or
        # two), found by a C-level comparison of the two boards.
        board, kaito = state.board, state.kaito
        kept = self._kept.get(seat)
        if kept is None:
            kept = self._kept[seat] = [(None,) * len(board), None, bytearray(_BOARD_BYTES)]
        last, last_kaito, part = kept
        if last is not board:
            at = _AT[seat]  # a tile's flat offset of its plane, seen from ``seat``
            flat = memoryview(part).cast("f")
            for c in compress(range(len(board)), map(is_not, last, board)):
                old, new = last[c], board[c]
                if old is not None:
                    flat[at[old] + c] = 0.0
                if new is not None:
                    flat[at[new] + c] = 1.0
            kept[0] = board
        if last_kaito != kaito:
            flat = memoryview(part).cast("f")
            if last_kaito is not None:
                flat[11 * 36 + last_kaito] = 0.0
            if kaito is not None:
                flat[11 * 36 + kaito] = 1.0
            kept[1] = kaito
        held = state.held
        key = (held[seat], held[1 - seat], self.game.current_player(state) == seat, state.phase)
        out = bytearray(part)
        out += self._consts_memo.get(key) or self._consts(key)
        return np.ndarray(self.shape, F32, out)
