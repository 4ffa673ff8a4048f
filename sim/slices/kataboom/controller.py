"""Kataboom's window controller: placements (the held piece of
:mod:`tablesim.sim.slices.common.towers`) and nudges."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tablesim.sim.slices.common.towers import TowerController
from tablesim.sim.view.interact import Pointer

__all__ = ["PUSHED", "KataboomController"]

PUSHED = (0.97, 0.97, 0.97)
"""Colour of the piece just nudged: a bright white no Katamino piece has."""


def _num(v: float) -> str:
    return f"{round(v, 4):g}"


class KataboomController(TowerController):
    """Kataboom: placements and nudges."""

    catalogue = "katamino-duo"
    push_mns = 2.5
    pushed: tuple[str, int] | None = None
    """The piece last nudged and the turn of the nudge: drawn in :data:`PUSHED` through the
    nudge's film and until the next move (a push of a few mN s moves a piece about a
    millimetre, under a pixel at the start view: the colour shows which piece was pushed)."""

    def reset(self, game: Any, state: Any) -> None:
        """As for every tower game; the nudged piece stays marked until the next move."""
        if self.pushed is not None and state.turn > self.pushed[1] + 1:
            self.pushed = None
        super().reset(game, state)

    def highlights(self) -> Mapping[str, tuple[float, float, float]]:
        """The piece just nudged, in :data:`PUSHED`."""
        if self.pushed is None or self.state is None:
            return {}
        return {self.pushed[0]: PUSHED}

    def orientations(self, piece: str) -> Sequence[Sequence[Sequence[int]]]:
        """The game's orientations (the move's ``rN``)."""
        from tablesim.games.kataboom.geometry import orientations

        return orientations(piece)

    def frame(self) -> tuple[np.ndarray, float]:
        """Grid origin at the table's origin; the Katamino cube edge."""
        from tablesim.sim.config import PhysicsConfig

        return np.zeros(3), float(PhysicsConfig().katamino_cube)

    def supply(self) -> Sequence[str]:
        """Pieces left to place."""
        if self.state is None or self.state.end is not None:
            return ()
        return tuple(self.state.supply)

    def candidates(self) -> Sequence[Any]:
        """Kataboom's candidate placements."""
        return self.game.placements(self.state)

    def on_key(self, key: str) -> Any | None:
        """``n`` toggles nudge mode; ``[``/``]`` change the push."""
        from tablesim.games.kataboom.rules import MAX_PUSH

        if key == "n":
            self.nudging = not self.nudging
            self.message = "nudge mode: click a piece to push it" if self.nudging else ""
            return None
        if key == "[":
            self.push_mns = max(0.1, self.push_mns / 2)
        elif key == "]":
            self.push_mns = min(MAX_PUSH, self.push_mns * 2)
        return super().on_key(key)

    def on_click(self, p: Pointer) -> Any | None:
        """In nudge mode: push the piece clicked."""
        if not self.nudging or p.button != "left":
            return super().on_click(p)
        if p.item is None or p.point is None or p.item.startswith("supply-"):
            self.message = "nudge mode: click a piece of the structure (n: back to placing)"
            return None
        _, edge = self.frame()
        d = np.array([p.direction[0], p.direction[1], 0.0])
        if np.linalg.norm(d) < 1e-9:
            d = np.array([0.0, 1.0, 0.0])
        push = d / np.linalg.norm(d) * self.push_mns
        at = np.asarray(p.point) / edge
        text = (
            f"nudge {p.item} at {','.join(_num(v) for v in at)} "
            f"push {','.join(_num(v) for v in push)}"
        )
        self.nudging = False
        self.message = ""
        move = self.game.parse_move(self.state, text)
        self.pushed = (p.item, int(self.state.turn))
        return move

    def overlay(self) -> list[str]:
        """Nudge mode, then the placement's lines."""
        head = [self.message] if self.message else []
        if self.nudging:
            return [*head, f"push {self.push_mns:g} mN s ([ / ] change)"]
        return head + super().overlay()

    def help(self) -> list[str]:
        """Bindings."""
        return [*super().help(), "n: nudge mode (click a piece to push it); [ / ]: push"]
