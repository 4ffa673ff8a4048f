"""The Catego observation planes (``docs/envs.md``;
the scheme: :mod:`tablesim.sim.slices.common.features`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tablesim.sim.slices.common.features import F32, Features


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

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        # one pass over the pad (games.catego.column_results and side_scores, inlined: the
        # observation is built every step; tests/test_envs_rollout_record.py holds it equal)
        from tablesim.games.catego import column_winner

        cfg = state.config
        out = np.zeros(self.shape, F32)
        rows = state.rows
        n = cfg.players
        for k in range(min(4, n)):
            out[k] = [v or 0 for v in rows[(seat + k) % n]]
        out[4] = self.columns
        mine = cfg.side_of(seat)
        sides, tie_rule = cfg.sides, cfg.tie_rule
        scores = [0] * len(sides)
        for j, cells in enumerate(zip(*rows, strict=True)):
            if None in cells:
                continue
            side = column_winner([sum(cells[s] for s in team) for team in sides], tie_rule)
            if side is None:
                out[7, j] = 1
            else:
                out[5 if side == mine else 6, j] = 1
                scores[side] += self.columns[j]
        if state.roll is not None:
            out[8] = state.roll[0] + state.roll[1]
        out[9] = float(state.turn < n * len(self.columns) and state.turn % n == seat)
        out[10] = scores[mine]
        out[11] = max(s for i, s in enumerate(scores) if i != mine)
        out[12] = state.turn / (n * len(self.columns))
        return out
