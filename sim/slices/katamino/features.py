"""The Katamino observation planes (``docs/envs.md``;
the scheme: :mod:`tablesim.sim.slices.common.features`)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tablesim.sim.slices.common.features import F32, Features


class KataminoFeatures(Features):
    """Over the anchor box (X, Y, Z layers): planes ``z`` target cells of the observer's
    board, ``Z + z`` covered cells of it, ``2Z + z`` covered cells of the opponent's board
    (duels; zero in solo); then constant planes: per piece (18, catalogue order) how many the
    observer has left to place, how many the opponent has left, whether it lies on the table
    (duels: may be given); phase (replace, draft, give, race, over); own turn; own score,
    opponent's score (duels: duels won / 4)."""

    PHASES = ("replace", "draft", "give", "race", "over")

    def __init__(self, game: Any, config: Any, codec: Any) -> None:
        places = codec.places
        self.box = places.table.box
        self.pieces = places.table.pieces
        x, y, z = self.box
        self.z = z
        self.base = 3 * z
        self.n_pieces = len(self.pieces)
        self.shape = (self.base + 3 * self.n_pieces + len(self.PHASES) + 3, x, y)
        super().__init__(game, config, codec)
        self.high[self.base : self.base + 2 * self.n_pieces] = 2
        self.high[-2:] = 2  # duels won (a tie-break adds one) / 4

    def _board(self, out: np.ndarray, plane: int, cells: Any) -> None:
        x, y, z = self.box
        for cx, cy, cz in cells:
            if 0 <= cx < x and 0 <= cy < y and 0 <= cz < z:
                out[plane + cz, cx, cy] = 1

    def _pieces(self, out: np.ndarray, block: int, names: Any) -> None:
        for n in names:
            out[self.base + block * self.n_pieces + self.pieces.index(n)] += 1

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        from tablesim.games.katamino.game import family

        out = np.zeros(self.shape, F32)
        fam: Any = family(state.mode)
        tail = self.base + 3 * self.n_pieces
        if hasattr(state, "seats"):  # a duel
            from tablesim.games.katamino import Target

            for k, plane in ((0, self.z), (1, 2 * self.z)):
                p = state.seats[(seat + k) % 2]
                if k == 0 and (p.size or state.phase != "draft"):
                    self._board(out, 0, Target.parse(fam.target(p)).cells)
                self._board(out, plane, fam.covered(p))
                self._pieces(out, k, fam.remaining(p))
            if state.phase in ("give", "draft"):
                from tablesim.games.katamino.duel import DRAFT

                kind = DRAFT[len(state.gifts)] if state.phase == "draft" else "P"
                self._pieces(out, 2, fam.table(state, kind))
            out[tail + self.PHASES.index(state.phase)] = 1
            out[tail + 6] = state.scores[seat] / 4
            out[tail + 7] = state.scores[1 - seat] / 4
        else:
            if not state.outcome:
                self._board(out, 0, fam.stage_target(state).cells)
                self._board(out, self.z, (c for _, cells in state.placed for c in cells))
                self._pieces(out, 0, fam.remaining(state))
                out[tail + 3] = 1
            else:
                out[tail + 4] = 1
            out[tail + 6] = state.stage / max(1, len(fam.challenge_of(state).stages))
        out[tail + 5] = float(self.game.current_player(state) == seat)
        return out
