"""The Katoiz observation planes (``docs/envs.md``;
the scheme: :mod:`tablesim.sim.slices.common.features`)."""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from tablesim.sim.slices.common.features import F32, Features


def _kind_planes(out: np.ndarray, base: int, cell: int, tile: int) -> None:
    """Colour (5), shape (3) and size (2) one-hots of ``tile`` at ``cell`` from plane ``base``
    (a blank tile has only its colour)."""
    from tablesim.games.katoiz.components import TILES

    c, s, z = TILES[tile]
    flat = out.reshape(out.shape[0], -1)
    flat[base + c, cell] = 1
    if s >= 0:
        flat[base + 5 + s, cell] = 1
        flat[base + 8 + z, cell] = 1


@cache
def _fitting_kinds(roll: tuple[int, int] | None) -> np.ndarray:
    """1 for each picture kind showing ``roll`` (tiles 0..29 are one of each kind)."""
    from tablesim.games.katoiz.components import fits

    return np.array([float(fits(t, roll)) for t in range(30)], dtype=F32)


class StapeltorenFeatures(Features):
    """Per tile kind (30 columns: colour x shape x size): row 0 supply count; rows 1-4 how
    many stacks of seat +0..+3 have this kind on top; rows 5-8 the highest such stack of seat
    +0..+3; row 9 the kind shows the dice (all 1 without dice); constant rows 10 own turn,
    11 first round (starting tiles), 12 passes in a row / players."""

    shape = (13, 30)

    def __init__(self, game: Any, config: Any, codec: Any) -> None:
        super().__init__(game, config, codec)
        self.high[0] = 2
        self.high[1:9] = config.supply

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        from tablesim.sim.slices.katoiz.codec import tile_kind

        out = np.zeros(self.shape, F32)
        for t in state.supply:
            out[0, tile_kind(t)] += 1
        for k in range(min(4, self.players)):
            for stack in state.stacks[self.relative(seat, k)]:
                j = tile_kind(stack[-1])
                out[1 + k, j] += 1
                out[5 + k, j] = max(out[5 + k, j], len(stack))
        out[9] = 1.0 if state.starting else _fitting_kinds(state.roll)
        out[10] = float(self.game.current_player(state) == seat)
        out[11] = float(state.starting)
        out[12] = min(1.0, state.passes / self.players)
        return out


class ThreeSetFeatures(Features):
    """Planes 0-9 the tile on each cell (colour 5, shape 3, size 2); 10 a tile lies there; 11
    own discs; 12-14 discs of seats +1..+3; 15 a free tile showing the roll; constant planes
    16-19 tiles taken by seat +0..+3 (count / 36), 20 extra turn, 21 forfeits in a row / 3,
    22 own turn."""

    shape = (23, 6, 6)

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        from tablesim.games.katoiz.components import fits

        out = np.zeros(self.shape, F32)
        flat = out.reshape(23, 36)
        for cell, tile in enumerate(state.board):
            if tile < 0:
                continue
            _kind_planes(out, 0, cell, tile)
            flat[10, cell] = 1
            d = state.discs[cell]
            if d >= 0:
                flat[11 + (d - seat) % self.players, cell] = 1
            elif fits(tile, state.roll):
                flat[15, cell] = 1
        for k in range(min(4, self.players)):
            out[16 + k] = len(state.piles[self.relative(seat, k)]) / 36
        out[20] = float(state.bonus)
        out[21] = min(1.0, state.forfeits / 3)
        out[22] = float(self.game.current_player(state) == seat)
        return out


class StapeltjeFeatures(Features):
    """Planes 0-9 the top tile of each stack (colour, shape, size); 10 stack height / 8; 11 the
    tile moved last; 12 a top tile that shows the roll (or the ladder colour); 13 the own
    position; constant planes 14-17 home stack heights of seat +0..+3 / target; 18-27 the own
    home stack's top tile (colour, shape, size)."""

    shape = (28, 6, 6)

    def __init__(self, game: Any, config: Any, codec: Any) -> None:
        super().__init__(game, config, codec)
        self.high[10] = 45 / 8
        self.high[14:18] = 45 / max(1, config.height)

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        from tablesim.games.katoiz.components import fits
        from tablesim.games.katoiz.stapeltje import geo

        out = np.zeros(self.shape, F32)
        flat = out.reshape(28, 36)
        req = state.requirement()
        for cell, stack in enumerate(state.stacks):
            if not stack:
                continue
            top = stack[-1]
            _kind_planes(out, 0, cell, top)
            flat[10, cell] = len(stack) / 8
            if top == state.last:
                flat[11, cell] = 1
            if fits(top, req):
                flat[12, cell] = 1
        for cell in geo(state.config).pos[seat]:
            if cell < 36:
                flat[13, cell] = 1
        for k in range(min(4, self.players)):
            out[14 + k] = len(state.homes[self.relative(seat, k)]) / max(1, state.config.height)
        home = state.homes[seat]
        if home:
            from tablesim.games.katoiz.components import TILES

            c, s, z = TILES[home[-1]]
            out[18 + c] = 1
            if s >= 0:
                out[23 + s] = 1
                out[26 + z] = 1
        return out


def _katoiz(game: Any, config: Any, codec: Any) -> Features:
    cls = {"stapeltoren": StapeltorenFeatures, "3-set": ThreeSetFeatures}.get(
        config.type, StapeltjeFeatures
    )
    return cls(game, config, codec)
