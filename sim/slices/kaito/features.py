"""The Kaito observation planes (``docs/envs.md``;
the scheme: :mod:`tablesim.sim.slices.common.features`)."""

from __future__ import annotations

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

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        out = np.zeros(self.shape, F32)
        flat = out.reshape(-1)
        at = _AT[seat]  # a tile's flat offset of its plane, seen from ``seat``
        cells = [at[t] + c for c, t in enumerate(state.board) if t is not None]
        if state.kaito is not None:
            cells.append(11 * 36 + state.kaito)
        flat[cells] = 1
        # the constant planes 12-24 in one assignment (counts of held tiles by kind, then the
        # turn and phase flags)
        consts = [0.0] * 13
        for base, held in ((0, state.held[seat]), (5, state.held[1 - seat])):
            for tile in held:
                consts[base + _KIND[tile[1]]] += 1
        consts[10] = float(self.game.current_player(state) == seat)
        consts[11] = float(state.phase == "remove")
        consts[12] = float(state.phase == "place")
        out[12:] = np.array(consts, F32)[:, None, None]
        return out
