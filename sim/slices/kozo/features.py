"""The Kozo observation planes (``docs/envs.md``;
the scheme: :mod:`tablesim.sim.slices.common.features`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tablesim.sim.slices.common.features import F32, Features, voxels


class KozoFeatures(Features):
    """Half-cube voxels over the 3 x 3 base (6 x 6 columns): planes 0-23 polycubes in
    half-layers 0..23 (12 cube edges), 24-47 balance cubes; constant planes 48-59 pieces in
    the supply (catalogue order), 60-71 the piece taken (touch-move), 72 cube phase, 73 own
    turn, 74 round / rounds, 75-80 tile points earned this round by seat +0..+5 / 10,
    81 face-down size demanded / 5."""

    LAYERS = 24

    def __init__(self, game: Any, config: Any, codec: Any) -> None:
        self.pieces = codec.pieces
        self.shape = (2 * self.LAYERS + 2 * len(self.pieces) + 10, 6, 6)
        super().__init__(game, config, codec)
        self.high[-7:-1] = 10
        self._tower: Any = None
        self._config: Any = None
        self._planes: tuple[np.ndarray, np.ndarray] | None = None

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        from tablesim.games.kozo.rules import tower_blocks

        out = np.zeros(self.shape, F32)
        tower = state.tower
        if self._tower is not tower or self._config is not state.config:
            # the voxel planes of the tower, kept while the same tower is observed; a tower
            # one item taller adds that item's voxels (a voxel is set by any box holding it)
            grown = (
                self._config is state.config
                and self._planes is not None
                and len(tower) == len(self._tower) + 1
                and tower[:-1] == self._tower
            )
            blocks = tower_blocks(state.config, tower)
            rows = blocks.owner == len(tower) - 1 if grown else slice(None)
            lo, hi, bal = blocks.lo[rows], blocks.hi[rows], blocks.balance[rows]
            grid = (6, 6, self.LAYERS)
            planes = (
                voxels(lo[~bal], hi[~bal], (0.0, 0.0), 0.5, grid),
                voxels(lo[bal], hi[bal], (0.0, 0.0), 0.5, grid),
            )
            if grown and self._planes is not None:
                planes = (self._planes[0] | planes[0], self._planes[1] | planes[1])
            self._tower, self._config = tower, state.config
            self._planes = planes if blocks.size else None
        if self._planes is not None:
            out[: self.LAYERS] = self._planes[0]
            out[self.LAYERS : 2 * self.LAYERS] = self._planes[1]
        b = 2 * self.LAYERS
        n = len(self.pieces)
        for p in state.supply:
            out[b + self.pieces.index(p)] = 1
        if state.touched is not None:
            out[b + n + self.pieces.index(state.touched)] = 1
        t = b + 2 * n
        out[t] = float(state.phase == "cube")
        out[t + 1] = float(self.game.current_player(state) == seat)
        out[t + 2] = state.round / max(1, state.config.rounds)
        for k in range(min(6, self.players)):
            if state.earned:
                out[t + 3 + k] = state.earned[self.relative(seat, k)] / 10
        out[t + 9] = (state.next_size or 0) / 5
        return out
