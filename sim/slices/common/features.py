"""Observations as arrays: per-game feature planes, seen from the observing seat.

Every game's observation is one ``float32`` Box (``docs/envs.md`` tables each plane). Seats are
*relative*: "seat +k" is the seat k places after the observer in turn order, so the same
position looks the same to whoever sits at it (as PettingZoo's chess flips the board for
black). Numbers that are not a place on the board (counts, scores, whose turn it is) are
constant planes, as in AlphaZero's inputs. The random stream (future dice, the stand-in
judge's draws) is never shown.

- Catego ``(13, C)``: per column (C columns): each relative seat's entry, the label, complete
  columns won by the own side / another side / void, then constant rows.
- Kaito ``(25, 6, 6)``: own / opponent tiles by kind, opening tiles, the Kaito, then counts.
- Katoiz: Stapeltoren ``(13, 30)`` per tile kind; 3-set ``(23, 6, 6)``; Stapeltje-four
  ``(28, 6, 6)``.
- Katamino ``(C, X, Y)`` over the action codec's anchor box: target and covered cells per
  layer (own board; a duel also the opponent's), pieces left, phase.
- Kozo ``(82, 6, 6)``: the settled tower as half-cube voxels (24 half-layers of polycubes and
  of balance cubes), then supply and turn planes.
- Kataboom ``(36, 20, 20)``: the settled structure as unit voxels (16 layers) in the codec's
  window, then supply and turn planes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

F32 = np.float32


class Features:
    """One game's observation: ``shape``, ``low``/``high`` bounds, ``__call__(state, seat)``."""

    shape: tuple[int, ...] = ()

    def __init__(self, game: Any, config: Any, codec: Any) -> None:
        self.game = game
        self.config = config
        self.codec = codec
        self.players = int(getattr(config, "players", 2))
        self.high = np.ones(self.shape, dtype=F32)

    def space(self) -> Any:
        """The Gymnasium Box of these observations."""
        from gymnasium import spaces

        return spaces.Box(np.zeros(self.shape, F32), self.high, dtype=F32)

    def relative(self, seat: int, k: int) -> int:
        """The seat ``k`` places after ``seat``."""
        return (seat + k) % self.players

    def __call__(self, state: Any, seat: int) -> np.ndarray:
        raise NotImplementedError


def _rows(high: np.ndarray, rows: slice, value: float) -> None:
    high[rows] = value


# ---- shared by Kozo and Kataboom --------------------------------------------------------


def voxels(
    lo: np.ndarray,
    hi: np.ndarray,
    origin: tuple[float, float],
    step: float,
    shape: tuple[int, int, int],
) -> np.ndarray:
    """``(Z, X, Y)`` occupancy of boxes ``lo``/``hi`` (n, 3): a voxel is 1 when its centre lies
    inside a box; voxels are ``step`` wide from ``origin`` in x, y and from 0 up in z."""
    nx, ny, nz = shape
    out = np.zeros((nz, nx, ny), dtype=bool)
    if not len(lo):
        return out
    lo_i = np.ceil((lo - (*origin, 0.0)) / step - 0.5).astype(int)
    hi_i = np.floor((hi - (*origin, 0.0)) / step - 0.5).astype(int)
    for (x0, y0, z0), (x1, y1, z1) in zip(lo_i, hi_i, strict=True):
        x0, y0, z0 = max(x0, 0), max(y0, 0), max(z0, 0)
        x1, y1, z1 = min(x1, nx - 1), min(y1, ny - 1), min(z1, nz - 1)
        if x0 <= x1 and y0 <= y1 and z0 <= z1:
            out[z0 : z1 + 1, x0 : x1 + 1, y0 : y1 + 1] = True
    return out
