"""The Kaito state drawn: its state -> the neutral table description (the scheme:
:mod:`tablesim.sim.slices.common.adapters`)."""

from __future__ import annotations

from typing import Any

from tablesim.sim.slices.kaito.drawing import KaitoTable, KaitoTile, kaito_layout
from tablesim.sim.view.layout import TableLayout

_KAITO_KINDS = {"S": "katana", "H": "kabuto"}


def _kaito_tile(code: str) -> KaitoTile:
    """A Kaito tile code (``RS``, ``BH``, ``R3``, ``O``) as a :class:`KaitoTile`."""
    if code == "O":
        return KaitoTile(None, "opening")
    colour = {"R": "red", "B": "black"}[code[0]]
    if code[1] in _KAITO_KINDS:
        return KaitoTile(colour, _KAITO_KINDS[code[1]])
    return KaitoTile(colour, "mon", int(code[1]))


def kaito_state_table(state: Any) -> KaitoTable:
    """The :class:`KaitoTable` of a Kaito state (cell index ``row * 6 + column``; row 1, red's
    side, nearest)."""
    size = 6
    tiles = tuple(
        ((i % size, i // size), _kaito_tile(code))
        for i, code in enumerate(state.board)
        if code is not None
    )
    kaito = None if state.kaito is None else (state.kaito % size, state.kaito // size)
    up = "red" if state.player == 0 else "black"
    held = tuple(tuple(_kaito_tile(c) for c in seat) for seat in state.held)
    return KaitoTable(tiles, kaito, up, (held[0], held[1]))


def kaito_state_layout(state: Any) -> TableLayout:
    """The table of a Kaito state."""
    return kaito_layout(kaito_state_table(state))
