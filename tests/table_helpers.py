"""Helpers shared by the physics-table tests (Kozo's and Kataboom's)."""

from __future__ import annotations

from typing import Any


def measure_and_apply(game: Any, table: Any, state: Any, *moves: Any) -> tuple[Any, list[Any]]:
    """Measure each move at ``table`` and apply it with ``game``'s rules, as the session does;
    the last state and the measured moves."""
    measured = []
    for m in moves:
        mm = table.measure(state, m)
        measured.append(mm)
        state = game.apply(state, mm)
    return state, measured
