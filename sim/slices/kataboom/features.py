"""The Kataboom observation planes (``docs/envs.md``;
the scheme: :mod:`tablesim.sim.slices.common.features`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tablesim.sim.slices.common.features import F32, Features, voxels


class KataboomFeatures(Features):
    """Unit voxels in the codec's window (x, y from -10, 20 x 20 columns): planes 0-15 the
    settled structure in layers 0..15; constant planes 16-31 pieces in the supply (16), 32 own
    turn, 33 nudges made this turn, 34 pieces placed / 16, 35 the last piece was the
    observer's."""

    LAYERS = 16

    def __init__(self, game: Any, config: Any, codec: Any) -> None:
        from tablesim.sim.slices.kataboom.codec import KATABOOM_HALF

        self.half = KATABOOM_HALF
        self.pieces = codec.pieces
        w = 2 * self.half
        self.shape = (self.LAYERS + len(self.pieces) + 4, w, w)
        super().__init__(game, config, codec)
        self.high[-3] = max(1, config.nudges)

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        from tablesim.games.kataboom.rules import structure_blocks_of

        out = np.zeros(self.shape, F32)
        blocks = structure_blocks_of(state.structure)  # (the rules' cached boxes)
        w = 2 * self.half
        if blocks.size:
            origin = (-float(self.half), -float(self.half))
            out[: self.LAYERS] = voxels(blocks.lo, blocks.hi, origin, 1.0, (w, w, self.LAYERS))
        b = self.LAYERS
        for p in state.supply:
            out[b + self.pieces.index(p)] = 1
        t = b + len(self.pieces)
        out[t] = float(self.game.current_player(state) == seat)
        out[t + 1] = min(state.nudged, self.high[t + 1, 0, 0])
        out[t + 2] = sum(1 for it in state.structure if it.seat >= 0) / len(self.pieces)
        out[t + 3] = float(state.last_placer == seat)
        return out
