"""The Catego observation planes (``docs/envs.md``;
the scheme: :mod:`tablesim.sim.slices.common.features`)."""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from tablesim.sim.slices.common.features import F32, Features

_F = tuple(float(v) for v in range(13))  # an entry or roll sum as a float


class CategoFeatures(Features):
    """Rows 0-3 entries (0 = empty) of seats +0..+3; 4 label; 5 won by the own side; 6 won by
    another side; 7 void; constant rows 8 roll sum (0 at the end), 9 own turn, 10 own side's
    score, 11 best other side's score, 12 turns played / total."""

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
        self._labels = [float(c) for c in self.columns]
        self._blank = [0.0] * (4 * len(self.columns))
        self._pack = struct.Struct(f"={13 * len(self.columns)}f").pack

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        # the pad and the state's column_sides (games.catego.column_results and side_scores,
        # kept per state: the observation is built every step; tests/test_envs_light_fast.py
        # and tests/test_envs_rollout_record.py hold it equal)
        cfg = state.config
        rows = state.rows
        n = cfg.players
        ncols = len(self.columns)
        top = min(4, n)
        vals: list[float] = []  # the planes row by row, packed into float32 at the end
        for k in range(top):
            vals += [_F[v] if v else 0.0 for v in rows[(seat + k) % n]]
        vals += self._blank[: (4 - top) * ncols]
        vals += self._labels
        mine = cfg.side_of(seat)
        scores = [0] * len(cfg.sides)
        won, lost, void = [0.0] * ncols, [0.0] * ncols, [0.0] * ncols
        nobody = self._void
        for j, side in enumerate(state.column_sides):  # (kept per state, extended per entry)
            if side >= 0:
                (won if side == mine else lost)[j] = 1.0
                scores[side] += self.columns[j]
            elif side == nobody:
                void[j] = 1.0
        vals += won
        vals += lost
        vals += void
        roll = 0.0 if state.roll is None else _F[state.roll[0] + state.roll[1]]
        turn = state.turn
        for c in (
            roll,
            1.0 if turn < n * ncols and turn % n == seat else 0.0,
            float(scores[mine]),
            float(max(s for i, s in enumerate(scores) if i != mine)),
            turn / (n * ncols),
        ):
            vals += [c] * ncols
        # struct's "f" rounds a double to float32 as numpy's cast does (the same bytes)
        return np.frombuffer(bytearray(self._pack(*vals)), F32).reshape(self.shape)
