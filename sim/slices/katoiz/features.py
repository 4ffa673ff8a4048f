"""The Katoiz observation planes (``docs/envs.md``;
the scheme: :mod:`tablesim.sim.slices.common.features`)."""

from __future__ import annotations

import struct
from functools import cache
from typing import Any

import numpy as np

from tablesim.sim.slices.common.features import F32, Features
from tablesim.sim.slices.katoiz.codec import _tile_kinds, tile_kind


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
    11 first round (starting tiles), 12 passes in a row / players.

    Built as float32 bytes (``struct``'s ``f`` rounds a double as numpy's cast does;
    tests/test_envs_light_fast.py compares every seat's planes with the plain numpy build):
    a seat's two stack rows are remembered by its stacks (which change only on its own moves),
    row 9 by the roll, the constant rows by their values."""

    shape = (13, 30)

    def __init__(self, game: Any, config: Any, codec: Any) -> None:
        super().__init__(game, config, codec)
        self.high[0] = 2
        self.high[1:9] = config.supply
        self._pack = struct.Struct("=30f").pack
        self._blank = bytes(4 * 30 * (4 - min(4, self.players)))  # rows of absent seats
        self._stack_rows: dict[Any, tuple[bytes, bytes]] = {}
        self._dice_rows: dict[Any, bytes] = {}
        self._const_rows: dict[tuple[bool, bool, int], bytes] = {}

    def _stacks(self, stacks: Any) -> tuple[bytes, bytes]:
        """Rows 1+k and 5+k of a seat's ``stacks``: top kinds counted, the highest stack."""
        count, high = [0.0] * 30, [0.0] * 30
        for stack in stacks:
            j = tile_kind(stack[-1])
            count[j] += 1
            high[j] = max(high[j], float(len(stack)))
        memo = self._stack_rows
        if len(memo) > 50_000:  # bound the memory of a long run
            memo.clear()
        out = memo[stacks] = (self._pack(*count), self._pack(*high))
        return out

    def _dice(self, key: Any) -> bytes:
        starting, roll = key
        out = self._dice_rows[key] = (
            self._pack(*[1.0] * 30) if starting else _fitting_kinds(roll).tobytes()
        )
        return out

    def _consts(self, key: tuple[bool, bool, int]) -> bytes:
        turn, starting, passes = key
        values = (float(turn), float(starting), min(1.0, passes / self.players))
        out = self._const_rows[key] = b"".join(self._pack(*[v] * 30) for v in values)
        return out

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        kinds = _tile_kinds()
        supply = [0.0] * 30
        for t in state.supply:
            j = kinds[t]
            if j < 0:
                j = tile_kind(t)  # (the blank tile's error)
            supply[j] += 1
        parts = [self._pack(*supply)]
        memo, n = self._stack_rows, self.players
        rows = []
        for k in range(min(4, n)):
            stacks = state.stacks[(seat + k) % n]
            rows.append(memo.get(stacks) or self._stacks(stacks))
        parts += [r[0] for r in rows]
        parts.append(self._blank)
        parts += [r[1] for r in rows]
        parts.append(self._blank)
        key = (state.starting, None if state.starting else state.roll)
        parts.append(self._dice_rows.get(key) or self._dice(key))
        ckey = (self.game.current_player(state) == seat, state.starting, state.passes)
        parts.append(self._const_rows.get(ckey) or self._consts(ckey))
        return np.ndarray(self.shape, F32, bytearray(b"".join(parts)))


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
