"""The Kataboom action codec: its fixed action ids (``docs/envs.md``;
the scheme: :mod:`sim.slices.common.codecs`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from sim.slices.common.codecs import ActionCodec, EnvError, Layout, Segment

KATABOOM_HALF = 10
"""Kataboom placements' minimum corners are integer (x, y) in ``-10..9`` (cube edges from the
structure's origin; the models span -1.25..4, a piece reaches 5 edges)."""


class KataboomCodec(ActionCodec):
    """``place``: piece x rotation x x x y (the height: where it rests, lowered straight down)."""

    game = "kataboom"

    def __init__(self, config: Any) -> None:
        from games.kataboom.geometry import orientations
        from games.kataboom.rules import kataboom_pieces

        self.pieces = kataboom_pieces()
        self.piece_index = {n: i for i, n in enumerate(self.pieces)}
        self.rots = [len(orientations(n)) for n in self.pieces]
        self.base = [sum(self.rots[:i]) for i in range(len(self.pieces))]
        w = 2 * KATABOOM_HALF
        super().__init__(Layout(self.game, [Segment("place", (sum(self.rots), w, w))]))
        self._ids_of: Any = None  # the state legal_ids last read, its ids and their columns
        self._ids = np.zeros(0, dtype=np.int64)
        self._rows: tuple[np.ndarray, ...] = ()
        # a piece's place in the rules' order of moves (by name)
        self._rank = np.argsort(np.argsort(np.asarray(self.pieces)))

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

    def legal_ids(self, state: Any) -> np.ndarray:
        """The action ids of ``state``'s legal placements in the rules' order
        (``Kataboom.legal_moves``: piece name, rotation, x, y), computed from the rules' arrays
        of candidate spots without building a move per candidate; :meth:`move_at` builds the
        move of one id. ``tests/test_envs_kataboom_ids.py`` holds both equal to encoding the
        rules' legal moves."""
        from games.kataboom.rules import _spots

        if self._ids_of is state:
            return self._ids
        w = 2 * KATABOOM_HALF
        names, rots, xs, ys, zs = [], [], [], [], []
        for pieces, r, sp in _spots(state.config, state.structure, state.supply):
            idx = np.flatnonzero(sp.ok)
            for p in pieces:
                names.append(np.full(idx.size, self.piece_index[p], dtype=np.int64))
                rots.append(np.full(idx.size, r, dtype=np.int64))
                xs.append(sp.xy[idx, 0])
                ys.append(sp.xy[idx, 1])
                zs.append(sp.z[idx])
        if not names:
            ids = np.zeros(0, dtype=np.int64)
            self._ids_of, self._ids, self._rows = state, ids, ()
            return ids
        x, y = np.concatenate(xs), np.concatenate(ys)
        i, j = np.round(x), np.round(y)
        if (np.abs(x - i) > 1e-3).any() or (np.abs(y - j) > 1e-3).any():
            raise EnvError("kataboom: a candidate position is not on the lattice")
        i, j = i.astype(np.int64) + KATABOOM_HALF, j.astype(np.int64) + KATABOOM_HALF
        if ((i < 0) | (i >= w) | (j < 0) | (j >= w)).any():
            raise EnvError(
                f"kataboom: a candidate placement is outside the action space's window "
                f"(-{KATABOOM_HALF}..{KATABOOM_HALF - 1})"
            )
        piece, rot = np.concatenate(names), np.concatenate(rots)
        # the rules' order: (piece name, rot, pos); one spot per (x, y) of a piece and rotation
        order = np.lexsort((y, x, rot, self._rank[piece]))
        ids = (((np.asarray(self.base)[piece] + rot) * w + i) * w + j)[order]
        if np.unique(ids).size != ids.size:
            raise EnvError(
                "kataboom: two legal moves share an action id in this position "
                "(sim.slices.common.codecs); please report it"
            )
        self._ids_of, self._ids = state, ids
        self._rows = (piece[order], rot[order], x[order], y[order], np.concatenate(zs)[order])
        return ids

    def move_at(self, action: int, state: Any) -> Any:
        """The legal placement of id ``action`` in ``state`` (after :meth:`legal_ids` of that
        state): the rules' move value, its position rounded as the rules round it."""
        from games.kataboom.state import PLACE, KataboomMove

        ids = self.legal_ids(state)
        k = np.flatnonzero(ids == int(action))
        if not k.size:
            raise EnvError(f"{self.game}: action {action} names no legal move in this position")
        piece, rot, x, y, z = (col[int(k[0])].item() for col in self._rows)
        pos = (round(float(x), 4) + 0.0, round(float(y), 4) + 0.0, round(float(z), 4) + 0.0)
        return KataboomMove(PLACE, self.pieces[int(piece)], int(rot), pos)
