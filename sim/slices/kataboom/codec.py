"""The Kataboom action codec: its fixed action ids (``docs/envs.md``;
the scheme: :mod:`tablesim.sim.slices.common.codecs`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tablesim.sim.slices.common.codecs import ActionCodec, EnvError, Layout, Segment

KATABOOM_HALF = 10
"""Kataboom placements' minimum corners are integer (x, y) in ``-10..9`` (cube edges from the
structure's origin; the models span -1.25..4, a piece reaches 5 edges)."""


class KataboomCodec(ActionCodec):
    """``place``: piece x rotation x x x y (the height: where it rests, lowered straight down)."""

    game = "kataboom"

    def __init__(self, config: Any) -> None:
        from tablesim.games.kataboom.geometry import orientations
        from tablesim.games.kataboom.rules import kataboom_pieces

        self.pieces = kataboom_pieces()
        self.piece_index = {n: i for i, n in enumerate(self.pieces)}
        self.rots = [len(orientations(n)) for n in self.pieces]
        self.base = [sum(self.rots[:i]) for i in range(len(self.pieces))]
        w = 2 * KATABOOM_HALF
        super().__init__(Layout(self.game, [Segment("place", (sum(self.rots), w, w))]))

    def encode(self, move: Any) -> int:
        if move.kind != "place":
            raise EnvError("kataboom: nudges are not in the action space (never listed)")
        p = self.piece_index.get(move.piece)
        if p is None or not 0 <= move.rot < self.rots[p]:
            raise EnvError(f"kataboom: {move.piece} r{move.rot} is not in the action space")
        # the place segment's mixed radix inline (thousands of candidates a position)
        x, y = move.pos[0], move.pos[1]
        i, j = round(x), round(y)
        if abs(x - i) > 1e-3 or abs(y - j) > 1e-3:
            raise EnvError(f"kataboom: position {x}, {y} is not on the lattice")
        i, j, w = i + KATABOOM_HALF, j + KATABOOM_HALF, 2 * KATABOOM_HALF
        if not (0 <= i < w and 0 <= j < w):
            raise EnvError(
                f"kataboom: placement at {x}, {y} is outside the action space's window "
                f"(-{KATABOOM_HALF}..{KATABOOM_HALF - 1})"
            )
        return ((self.base[p] + move.rot) * w + i) * w + j

    def decode(self, action: int, state: Any) -> Any:
        """The legal placement of that id (its height depends on the structure)."""
        return self._lookup(int(action), state)

    def legal_ids(self, state: Any) -> tuple[np.ndarray, Callable[[int], Any]] | None:
        """The candidate placements' ids from the rules' arrays
        (:func:`tablesim.games.kataboom.rules.placement_table`), the moves made only when
        asked; None when one lies off the lattice or outside the window (``encode`` then names
        it)."""
        from tablesim.games.kataboom.rules import placement_table

        t = placement_table(state.config, state.structure, state.supply)
        i, j = np.rint(t.x), np.rint(t.y)
        h, w = KATABOOM_HALF, 2 * KATABOOM_HALF
        if len(t) and (
            np.abs(t.x - i).max() > 1e-3
            or np.abs(t.y - j).max() > 1e-3
            or min(i.min(), j.min()) < -h
            or max(i.max(), j.max()) >= h
        ):
            return None
        base = np.array([self.base[self.piece_index[p]] for p in t.pieces], dtype=np.int64)
        ids = ((base[t.piece] + t.rot) * w + (i.astype(np.int64) + h)) * w + (
            j.astype(np.int64) + h
        )
        return ids, t.move
