"""The Katoiz state drawn: its state -> the neutral table description (the scheme:
:mod:`tablesim.sim.slices.common.adapters`)."""

from __future__ import annotations

from typing import Any

from tablesim.sim.slices.katoiz.drawing import (
    DISC_COLOURS,
    KatoizDisc,
    KatoizStack,
    KatoizTable,
    KatoizTile,
    katoiz_layout,
)
from tablesim.sim.view.layout import TableLayout


def _katoiz_tile(tile: int) -> KatoizTile:
    from tablesim.games.katoiz.components import COLOURS, SHAPES, SIZES, TILES

    c, s, z = TILES[tile]
    if s < 0:
        return KatoizTile(COLOURS[c])
    return KatoizTile(COLOURS[c], SHAPES[s], SIZES[z])


def _katoiz_roll(roll: tuple[int, int] | None) -> tuple[str, str | None] | None:
    from tablesim.games.katoiz.components import COLOUR_FACES, PICTURE_FACES

    if roll is None:
        return None
    colour, picture = roll
    return COLOUR_FACES[colour], (PICTURE_FACES[picture] if picture >= 0 else None)


def _in_front(seat: int, k: int, rows: int = 6) -> tuple[int, int]:
    """The ``k``-th cell in front of ``seat``, outside a 6-wide grid of ``rows`` rows: seat 0
    at the near side, 1 the far side, 2 the left, 3 the right."""
    x, y = ((0, -2), (0, rows + 1), (-2, 0), (7, 0))[seat % 4]
    return (x + k, y) if seat % 4 < 2 else (x, y + k)


def katoiz_state_table(state: Any) -> KatoizTable:
    """The :class:`KatoizTable` of a Katoiz state of any of the three game types."""
    from tablesim.games.katoiz.components import SIDE

    stacks: list[KatoizStack] = []
    discs: list[KatoizDisc] = []
    colours = list(DISC_COLOURS)
    kind = type(state).__name__
    rows = SIDE
    if kind == "SetState":
        for cell, tile in enumerate(state.board):
            if tile >= 0:
                xy = (cell % SIDE, cell // SIDE)
                stacks.append(KatoizStack(xy, (_katoiz_tile(tile),)))
                if state.discs[cell] >= 0:
                    discs.append(KatoizDisc(xy, colours[state.discs[cell] % 4]))
        for seat, pile in enumerate(state.piles):
            if pile:
                tiles = tuple(_katoiz_tile(t) for t in pile)
                stacks.append(KatoizStack(_in_front(seat, 2), tiles))
    elif kind == "StapelState":
        from tablesim.games.katoiz.stapeltje import SIDES, geo

        for cell, tiles in enumerate(state.stacks):
            if tiles:
                stacks.append(
                    KatoizStack((cell % SIDE, cell // SIDE), tuple(_katoiz_tile(t) for t in tiles))
                )
        g = geo(state.config)
        for seat, home in enumerate(state.homes):
            if home:
                side = SIDES[g.sides[seat]]
                stacks.append(KatoizStack((side[2], side[3]), tuple(_katoiz_tile(t) for t in home)))
    elif kind == "TorenState":
        rows = max(1, -(-len(state.supply) // SIDE))
        for k, tile in enumerate(state.supply):  # the face-up supply on the 6-wide grid
            stacks.append(KatoizStack((k % SIDE, k // SIDE), (_katoiz_tile(tile),)))
        for seat, own in enumerate(state.stacks):
            for k, tiles in enumerate(own):
                if tiles:
                    spot = _in_front(seat, k, rows)
                    stacks.append(KatoizStack(spot, tuple(_katoiz_tile(t) for t in tiles)))
    else:
        raise ValueError(f"katoiz: no table drawing for a {kind} (3-set, Stapeltje, Stapeltoren)")
    return KatoizTable(tuple(stacks), tuple(discs), SIDE, rows, _katoiz_roll(state.roll))


def katoiz_state_layout(state: Any) -> TableLayout:
    """The table of a Katoiz state."""
    return katoiz_layout(katoiz_state_table(state))
