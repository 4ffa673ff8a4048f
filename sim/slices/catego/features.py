"""The Catego observation planes (``docs/envs.md``;
the scheme: :mod:`tablesim.sim.slices.common.features`)."""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from tablesim.sim.slices.common.features import F32, Features

_F = tuple(float(v) for v in range(13))  # an entry or roll sum as a float
_MEMO_LIMIT = 50_000  # entries a memo keeps before it starts again (a long run's memory)


class CategoFeatures(Features):
    """Rows 0-3 entries (0 = empty) of seats +0..+3; 4 label; 5 won by the own side; 6 won by
    another side; 7 void; constant rows 8 roll sum (0 at the end), 9 own turn, 10 own side's
    score, 11 best other side's score, 12 turns played / total.

    The planes are joined from float32 byte rows remembered by what they show: a player's
    row of the pad (the rows a move does not write are the same tuples in the next state), the
    column winners seen from a side (they change only when a column completes) and the
    constant rows' values (made once); a row's bytes are packed by ``struct``, whose ``f`` rounds a
    double to float32 as numpy's cast does (tests/test_envs_light_fast.py holds every seat's
    planes equal to numpy's, built the plain way)."""

    def __init__(self, game: Any, config: Any, codec: Any) -> None:
        self.columns = tuple(config.columns)
        self.shape = (13, len(self.columns))
        super().__init__(game, config, codec)
        h = self.high
        h[0:4] = 12
        h[4] = max(self.columns)
        h[8] = 12
        h[10:12] = config.points_at_stake
        from tablesim.games.catego import VOID

        self._void = VOID
        ncols = len(self.columns)
        self._pack_row = struct.Struct(f"={ncols}f").pack
        self._pack_wins = struct.Struct(f"={3 * ncols}f").pack
        self._pack_const = struct.Struct(f"={5 * ncols}f").pack
        self._labels = self._pack_row(*(float(c) for c in self.columns))
        self._blank = bytes(4 * ncols * (4 - min(4, config.players)))
        self._total = config.players * ncols
        self._row_memo: dict[tuple[int | None, ...], bytes] = {}
        self._wins_memo: dict[tuple[tuple[int, ...], int], tuple[bytes, int, int]] = {}

        # the constant rows' bytes by value: roll sums, the turn flag, scores, turns played
        def rep(value: float) -> bytes:
            return self._pack_row(*([value] * ncols))

        self._sums = tuple(rep(_F[v]) for v in range(13))
        self._flags = (rep(0.0), rep(1.0))
        self._scores = tuple(rep(float(v)) for v in range(config.points_at_stake + 1))
        self._turns = tuple(rep(t / self._total) for t in range(self._total + 1))

    def _row(self, row: tuple[int | None, ...]) -> bytes:
        memo = self._row_memo
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        out = memo[row] = self._pack_row(*(_F[v] if v else 0.0 for v in row))
        return out

    def _wins(self, sides: tuple[int, ...], mine: int) -> tuple[bytes, int, int]:
        """Rows 5-7 seen from side ``mine``, its score and the best other side's."""
        ncols = len(self.columns)
        scores = [0] * len(self.config.sides)
        won, lost, void = [0.0] * ncols, [0.0] * ncols, [0.0] * ncols
        for j, side in enumerate(sides):
            if side >= 0:
                (won if side == mine else lost)[j] = 1.0
                scores[side] += self.columns[j]
            elif side == self._void:
                void[j] = 1.0
        best = max(s for i, s in enumerate(scores) if i != mine)
        memo = self._wins_memo
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        out = memo[sides, mine] = (self._pack_wins(*won, *lost, *void), scores[mine], best)
        return out

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        # the pad and the state's column_sides (games.catego.column_results and side_scores,
        # kept per state: the observation is built every step)
        rows = state.rows
        n = len(rows)
        parts: list[bytes] = []
        memo = self._row_memo
        for k in range(min(4, n)):
            row = rows[(seat + k) % n]
            parts.append(memo.get(row) or self._row(row))
        parts.append(self._blank)
        parts.append(self._labels)
        cfg = state.config
        mine = seat % 2 if cfg.partnerships else seat
        sides = state.column_sides
        wins = self._wins_memo.get((sides, mine)) or self._wins(sides, mine)
        parts.append(wins[0])
        roll = state.roll
        turn = len(state.history)
        parts.append(self._sums[0 if roll is None else roll[0] + roll[1]])
        parts.append(self._flags[turn < self._total and turn % n == seat])
        parts.append(self._scores[wins[1]])
        parts.append(self._scores[wins[2]])
        parts.append(self._turns[turn])
        return np.ndarray(self.shape, F32, bytearray(b"".join(parts)))
