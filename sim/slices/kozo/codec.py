"""The Kozo action codec: its fixed action ids (``docs/envs.md``;
the scheme: :mod:`tablesim.sim.slices.common.codecs`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tablesim.sim.slices.common.codecs import ActionCodec, EnvError, Layout, Segment

KOZO_LATTICE = 7  # half-cube positions 0, 0.5, ..., 3 along x and along y
KOZO_SPOTS = 13  # balance cube spots to the nearest quarter edge: 0, 0.25, ..., 3


def _half(v: float, game: str) -> int:
    """A coordinate on the half-cube lattice as its index (EnvError when off the lattice)."""
    k = round(v * 2)
    if abs(v * 2 - k) > 0.04:
        raise EnvError(f"{game}: position {v} is not on the half-cube lattice")
    return int(k)


class KozoCodec(ActionCodec):
    """``place`` (piece x rotation x x x y), ``take`` (piece), ``cube`` (x x y), ``nocube``."""

    game = "kozo"

    def __init__(self, config: Any) -> None:
        from tablesim.games.kozo.blocks import piece_orientations
        from tablesim.games.polycubes import get_catalogue

        self.pieces = tuple(p.name for p in get_catalogue(config.catalogue).pieces)
        self.piece_index = {n: i for i, n in enumerate(self.pieces)}
        self.rots = [len(piece_orientations(config.catalogue, n)) for n in self.pieces]
        self.base = [sum(self.rots[:i]) for i in range(len(self.pieces))]
        n = KOZO_LATTICE
        super().__init__(
            Layout(
                self.game,
                [
                    Segment("place", (sum(self.rots), n, n)),
                    Segment("take", (len(self.pieces),)),
                    Segment("cube", (KOZO_SPOTS, KOZO_SPOTS)),
                    Segment("nocube", (1,)),
                ],
            )
        )

    def encode(self, move: Any) -> int:
        if move.kind == "nocube":
            return self.layout.id("nocube", 0)
        if move.kind == "cube":
            # the centre of a settled cube's top face: settled poses drift off the lattice,
            # and legal spots lie a cube apart, so the nearest quarter edge names one spot
            x, y = (int(round(v * 4)) for v in move.pos[:2])
            return self.layout.id("cube", x, y)
        p = self.piece_index.get(move.piece)
        if p is None:
            raise EnvError(f"kozo: piece {move.piece!r} is not in the catalogue")
        if move.kind == "take":
            return self.layout.id("take", p)
        if not 0 <= move.rot < self.rots[p]:
            raise EnvError(f"kozo: {move.piece} has no rotation r{move.rot}")
        x, y = _half(move.pos[0], self.game), _half(move.pos[1], self.game)
        return self.layout.id("place", self.base[p] + move.rot, x, y)

    def legal_ids(self, state: Any) -> tuple[np.ndarray, Callable[[int], Any]] | None:
        """Place phase: the placements' ids from the rules' arrays
        (:func:`tablesim.games.kozo.rules.placement_table`) and the takes after them, a move
        made only when asked; None in the cube phase (a few spots, encoded one by one), with
        the cover option, or for a spot off the lattice (``encode`` then names it)."""
        from tablesim.games.kozo.rules import GAME, placement_table
        from tablesim.games.kozo.state import PLACE, TAKE, KozoMove

        if state.phase != PLACE:
            return None
        t = placement_table(state.config, state.tower, GAME.pieces_allowed(state))
        if t is None:
            return None
        x2, y2 = t.x * 2, t.y * 2
        xi, yi = np.rint(x2), np.rint(y2)
        if len(t) and (np.abs(x2 - xi).max() > 0.04 or np.abs(y2 - yi).max() > 0.04):
            return None
        n = KOZO_LATTICE
        base = np.array([self.base[self.piece_index[p]] for p in t.pieces], dtype=np.int64)
        ids = ((base[t.piece] + t.rot) * n + xi.astype(np.int64)) * n + yi.astype(np.int64)
        ids += self.layout.offsets["place"]
        takes: list[str] = []
        if state.touched is None:  # a take for each piece with a placement, by name
            takes = [t.pieces[i] for i in np.unique(t.piece).tolist()]
            take = [self.layout.offsets["take"] + self.piece_index[p] for p in takes]
            ids = np.concatenate([ids, np.asarray(take, dtype=np.int64)])
        places = len(t)

        def move_at(k: int) -> Any:
            return t.move(k) if k < places else KozoMove(TAKE, takes[k - places])

        return ids, move_at

    def decode(self, action: int, state: Any) -> Any:
        """The legal move of that id: its height is where the piece comes to rest when lowered
        straight down (or where the balance cube's spot is), which only the tower knows."""
        from tablesim.games.kozo.state import KozoMove

        name, c = self.layout.split(int(action))
        if name == "nocube":
            return KozoMove("nocube")
        if name == "take":
            return KozoMove("take", self.pieces[c[0]])
        return self._lookup(int(action), state)
