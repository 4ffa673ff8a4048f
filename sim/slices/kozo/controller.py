"""Kozo's window controller: touch-move takes, the placement (the held piece of
:mod:`tablesim.sim.slices.common.towers`), then the balance cube; the person's clock for the
5-second rule."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from tablesim.sim.slices.common.towers import (
    GHOST_ALPHA,
    ILLEGAL,
    LEGAL,
    LIFT,
    SNAP,
    TowerController,
    drop_plate,
    snap_half,
)
from tablesim.sim.view.interact import Pointer
from tablesim.sim.view.layout import Item, box_item

if TYPE_CHECKING:
    from tablesim.sim.slices.kozo.referee import KozoReferee

__all__ = ["KozoController"]


@lru_cache(maxsize=16)
def _cube_shape(size: float) -> Item:
    return replace(
        box_item("ghost-cube", (size,) * 3, (0.0, 0.0, 0.0), LEGAL, casts_shadow=False),
        alpha=GHOST_ALPHA,
    )


class KozoController(TowerController):
    """Kozo: touch-move takes, the placement, then the balance cube."""

    catalogue = "kozo-standard"
    now: Callable[[], float] = staticmethod(time.monotonic)
    """The wall clock of a person's time to place (replaceable, e.g. by tests)."""
    shown_at: float | None = None
    """When the person's clock started (None: not yet: the table is not theirs yet)."""
    _table: KozoReferee | None = None
    _stamped = False
    """A placement was stamped with the person's time this turn (:meth:`idle_waited`)."""

    def reset(self, game: Any, state: Any) -> None:
        """Follow the touched piece and the phase; a new turn stops the person's clock until
        :meth:`start_clock` (a take keeps it: the placement's time runs from the start of the
        turn)."""
        self.catalogue = state.config.catalogue
        self._table = None
        self._stamped = False
        if state.touched is not None:
            self.selected = state.touched
        else:
            self.shown_at = None
        super().reset(game, state)

    def start_clock(self) -> None:
        """The table is the person's (the previous move's film is over): their time to place
        runs from now (idempotent within a turn). Watching a bot's move never counts."""
        if self.shown_at is None:
            self.shown_at = self.now()

    def waited(self) -> float | None:
        """Seconds on the person's clock (None before :meth:`start_clock`)."""
        return None if self.shown_at is None else self.now() - self.shown_at

    def idle_waited(self) -> float | None:
        """The clock the table's simulated wait may read: :meth:`waited`, until a placement
        is stamped (None from then on, until a new turn or :meth:`resume_clock`). Every
        reading it gives is at most the stamped time, so the wait simulated ahead never
        passes the placement (``@`` rounds to 0.1 s; the watch keeps a margin behind)."""
        return None if self._stamped else self.waited()

    def resume_clock(self) -> None:
        """The stamped move was refused: the person thinks on (their clock never stopped)."""
        self._stamped = False

    def rule_line(self) -> str:
        """The 5-second rule on screen: who answers for the tower now, with the seconds left
        of the previous mover's window while a person's clock runs (docs/rules/kozo.md)."""
        st = self.state
        if st is None or st.over or self.game is None:
            return ""
        seat = self.game.current_player(st)
        if seat is None:
            return ""
        if st.phase != "place":
            return f"5-second rule: P{seat + 1} answers for the tower (their turn)"
        clock = self.game.clock(st)
        if not clock.ends:
            return ""
        mover = clock.ends[-1][1]
        waited = self.waited()
        window = float(st.config.window_s)
        if waited is None:
            return f"5-second rule: P{mover + 1} answers for the tower"
        left = window - waited
        if left > 0:
            return f"5-second rule: P{mover + 1} answers for the tower, {left:.1f} s left"
        return f"5-second rule: P{seat + 1} (to move) answers for the tower"

    def stamp(self, move: Any) -> Any:
        """A placement with the person's time to place: the seconds since the table became
        theirs (the rules never read a clock)."""
        if move is None or self.state is None:
            return move
        if getattr(move, "kind", None) == "place":
            self._stamped = True  # before the clock is read: no later reading reaches the wait
        self.start_clock()
        return self.game.stamp_seconds(self.state, move, self.now() - (self.shown_at or 0.0))

    def on_click(self, p: Pointer) -> Any | None:
        """As for every tower game, the dropped placement stamped with its time to place."""
        return self.stamp(super().on_click(p))

    def orientations(self, piece: str) -> Sequence[Sequence[Sequence[int]]]:
        """The catalogue's orientations (the move's ``rN``)."""
        from tablesim.games.kozo.blocks import piece_orientations

        return piece_orientations(self.state.config.catalogue, piece)

    def frame(self) -> tuple[np.ndarray, float]:
        """The physics table's grid origin and cube edge."""
        if self._table is None:
            from tablesim.sim.slices.kozo.referee import KozoReferee

            self._table = KozoReferee(self.state.config, self.state.seed)
        return np.asarray(self._table.origin, float), float(self._table.edge)

    def top_level(self) -> float:
        """The top of the settled tower (cube edges above the board)."""
        tops = [
            it.pose[2] + (self.state.config.balance_edge if it.is_balance else 1.0)
            for it in (self.state.tower if self.state is not None else ())
        ]
        return float(max(tops, default=0.0))

    def supply(self) -> Sequence[str]:
        """The supply (only the touched piece once one is taken)."""
        if self.state is None or self.state.over:
            return ()
        return tuple(self.state.supply)

    def candidates(self) -> Sequence[Any]:
        """Kozo's candidate set (half-cube lattice, every rotation, straight drops)."""
        return self.game.allowed_placements(self.state) if self.state.phase == "place" else ()

    def select(self, piece: str) -> Any:
        """Touch-move: taking a piece is a move of the game."""
        if self.state.phase != "place":
            self.message = "place the balance cube first"
            return None
        if self.state.touched is not None:
            self.selected = self.state.touched
            self.message = f"touch-move: you hold {self.state.touched}"
            return None
        self.selected, self.rot = piece, 0
        return self.game.parse_move(self.state, f"take {piece}")

    def target_move(self) -> Any:
        """The placement, or in the cube phase the balance cube at the nearest legal spot."""
        if self.state.phase != "cube":
            return self.piece_move()
        if self.hover is None:
            return None
        if self._spot_cache is None:  # the cube spots, asked once per position
            self._spot_cache = {
                ("cube", 0): [m for m in self.game.legal_moves(self.state) if m.kind == "cube"]
            }
        spots = self._spot_cache.get(("cube", 0), [])
        hx, hy = self.hover
        best = min(spots, key=lambda m: (m.pos[0] - hx) ** 2 + (m.pos[1] - hy) ** 2, default=None)
        if best is not None and math.hypot(best.pos[0] - hx, best.pos[1] - hy) <= SNAP:
            return best
        return self.game.parse_move(self.state, f"cube at {snap_half(hx):g},{snap_half(hy):g}")

    def on_key(self, key: str) -> Any | None:
        """``n``: nocube (when no spot is legal); else the orientation keys."""
        if key == "n" and self.state.phase == "cube":
            return self.game.parse_move(self.state, "nocube")
        return super().on_key(key)

    def ghost_items(self) -> list[Item]:
        """The balance cube in the cube phase, else the piece."""
        if self.state.phase != "cube":
            return super().ghost_items()
        if self.ghost_move is None or self.ghost_move.kind != "cube":
            return []
        origin, edge = self.frame()
        e = self.state.config.balance_edge
        x, y, z = self.ghost_move.pos
        corner = origin + np.array([x - e / 2, y - e / 2, z]) * edge
        colour = LEGAL if self.legal else ILLEGAL
        at = (float(corner[0]), float(corner[1]), float(corner[2] + LIFT * edge))
        cube = replace(_cube_shape(float(e * edge)), position=at, color=colour)
        return [cube, drop_plate("ghost-drop-0", corner, e * edge, colour)]

    def overlay(self) -> list[str]:
        """The cube phase has its own words."""
        if self.state is not None and not self.state.over and self.state.phase == "cube":
            lines = ["place the balance cube (n: nocube when no spot is legal)"]
            if self.ghost_move is not None:
                text = self.game.format_move(self.state, self.ghost_move)
                lines.append(f"{text}: legal, click" if self.legal else f"{text}: ILLEGAL")
            if self.reason:
                lines.append(self.reason)
            return lines
        return ([self.message] if self.message else []) + super().overlay()

    def help(self) -> list[str]:
        """Bindings."""
        return [*super().help(), "then the balance cube: click a spot; n: nocube"]
