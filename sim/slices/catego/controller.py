"""Catego with clicks: a column of the pad (see :mod:`tablesim.sim.slices.common.tiles`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tablesim.sim.slices.common.tiles import PASS, Loc, Path, PathController
from tablesim.sim.view.interact import Pointer

__all__ = ["CategoController"]


class CategoController(PathController):
    """Catego: click a column of the pad to write the roll there."""

    mark_radius = 0.0025

    def paths(self) -> list[tuple[Path, Any]]:
        """One click per legal column."""
        return [((("col", m),), m) for m in self.game.legal_moves(self.state)]

    def locate(self, p: Pointer) -> Loc | None:
        """The pad column under the pointer (anywhere on the pad's height)."""
        from tablesim.sim.slices.catego.drawing import (
            PAD_THICKNESS,
            PAD_WIDTH,
            ROW_HEIGHT,
            _geometry,
        )

        cfg = self.state.config
        xy = p.point[:2] if p.item == "pad" and p.point is not None else p.on_plane(PAD_THICKNESS)
        if xy is None:
            return None
        height, x0, col_w = _geometry(cfg.players, len(cfg.columns))
        if not (0.0 <= xy[1] <= height and -PAD_WIDTH / 2 <= xy[0] <= PAD_WIDTH / 2):
            return None
        if xy[1] > height - ROW_HEIGHT:  # the title row
            return None
        k = int((xy[0] - x0) // col_w)
        if not 0 <= k < len(cfg.columns):
            return None
        return ("col", cfg.columns[k])

    def prompt(self) -> str:
        """Whose row and the roll."""
        seat = self.game.current_player(self.state)
        a, b = self.state.roll
        return f"P{seat + 1} rolled {a}+{b}={a + b}: click a green column"

    def probe(self, clicks: Sequence[Loc]) -> Any | None:
        """Writing in the clicked column."""
        last = clicks[-1]
        return last[1] if last != PASS else None  # type: ignore[index]

    def marker(self, loc: Loc) -> np.ndarray | None:
        """In the current player's cell of the column, near its lower edge."""
        from tablesim.sim.slices.catego.drawing import ROW_HEIGHT, pad_cell_centre

        cfg = self.state.config
        seat = self.game.current_player(self.state)
        at = pad_cell_centre(cfg.players, len(cfg.columns), seat, cfg.columns.index(loc[1]))  # type: ignore[index]
        return at - np.array([0.0, 0.3 * ROW_HEIGHT, 0.0])

    def name(self, loc: Loc) -> str:
        """Columns by their label."""
        return f"column {loc[1]}" if loc != PASS else "pass"  # type: ignore[index]
