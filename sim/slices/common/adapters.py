"""Adapters from the registered games' states to the neutral table descriptions.

One small function per game; each imports its game lazily, reads the state and never changes
it. When a game's state format changes, this is the one place to follow it (the tests in
``tests/test_view_games.py`` play seeded games and draw every state they reach).

- ``kaito``: :class:`games.kaito.rules.KaitoState` -> :class:`KaitoTable` (the Kaito shows the
  colour of the player to move: the mover flips it to the opponent's colour);
- ``katoiz``: the three game types' states -> :class:`KatoizTable` (3-set: the grid, discs by
  seat, each player's taken tiles as a pile in front of them; Stapeltje-four: stacks and home
  stacks; Stapeltoren: the face-up supply and each player's stacks), with the dice;
- ``kozo``: :class:`games.kozo.state.KozoState` -> the settled tower as a scene (the physics
  table's :meth:`sim.slices.kozo.referee.KozoReferee.tower_scene`), pieces in their catalogue colours;
- ``kataboom``: the settled structure (:meth:`sim.slices.kataboom.referee.KataboomReferee.structure_scene`);
- ``katamino``: the duel modes' :class:`games.katamino.duel.DuelState` and the solo modes'
  :class:`games.katamino.solo.SoloState` -> :class:`KataminoTable`.
"""

from __future__ import annotations

from typing import Any

from sim.slices.kaito.drawing import KaitoTable, KaitoTile, kaito_layout
from sim.slices.katoiz.drawing import (
    DISC_COLOURS,
    KatoizDisc,
    KatoizStack,
    KatoizTable,
    KatoizTile,
    katoiz_layout,
)
from sim.view.layout import TableLayout

__all__ = [
    "kaito_state_layout",
    "kataboom_state_layout",
    "katamino_state_layout",
    "katoiz_state_layout",
    "kozo_state_layout",
]

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


def _katoiz_tile(tile: int) -> KatoizTile:
    from games.katoiz.components import COLOURS, SHAPES, SIZES, TILES

    c, s, z = TILES[tile]
    if s < 0:
        return KatoizTile(COLOURS[c])
    return KatoizTile(COLOURS[c], SHAPES[s], SIZES[z])


def _katoiz_roll(roll: tuple[int, int] | None) -> tuple[str, str | None] | None:
    from games.katoiz.components import COLOUR_FACES, PICTURE_FACES

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
    from games.katoiz.components import SIDE

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
        from games.katoiz.stapeltje import SIDES, geo

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


def kozo_state_layout(state: Any) -> TableLayout:
    """The settled tower of a Kozo state on its board, as the physics table builds it."""
    from dataclasses import replace

    from games.polycubes import get_catalogue
    from sim.slices.kozo.referee import KozoReferee
    from sim.view.drawings.scene import scene_layout

    scene = KozoReferee(state.config, state.seed).tower_scene(state)
    colours = {p.name: p.color for p in get_catalogue(state.config.catalogue).pieces}
    balance = get_catalogue("kozo-balance").pieces[0].color
    pieces = []
    for p in scene.pieces:
        if p.static:
            pieces.append(p)
        elif p.cube == "balance":
            pieces.append(replace(p, color=balance))
        else:
            pieces.append(replace(p, color=colours.get(p.id, p.color)))
    layout = scene_layout(replace(scene, pieces=tuple(pieces)))
    return replace(layout, name=f"kozo round {state.round}, turn {state.turn}")


def katamino_state_table(state: Any) -> Any:
    """The :class:`KataminoTable` of a Katamino state: a solo puzzle (see
    :func:`_katamino_solo_table`) or a duel (modes duel, child-adult, handicap, duel3d).

    Both players build on the one 5 x 12 board from their own end: seat 0 from the left (its
    column x is board column x), seat 1 from the right, its own frame turned half round (board
    column 11 - x, row 4 - y). Each player's slider stands at the end of their Penta; in the
    last duel both stand between 6 and 7 and are one slider. A 3-D duel's box is built on the
    board at the player's end, layer z up. Pieces not placed yet lie on the player's side.
    """
    from games.katamino.duel import DUEL_GAME
    from sim.slices.katamino.drawing import KataminoPlacement, KataminoTable

    kind = type(state).__name__
    if kind == "SoloState":
        return _katamino_solo_table(state)
    if kind != "DuelState":
        raise ValueError(f"katamino: no table drawing for a {kind} (DuelState, SoloState)")
    placed: list[KataminoPlacement] = []
    sliders: set[int] = set()
    loose: list[tuple[str, ...]] = []
    for seat, player in enumerate(state.seats):
        for name, cells in player.placed:
            if seat == 0:
                board = tuple((x, y, z) for x, y, z in cells)
            else:
                board = tuple((11 - x, 4 - y, z) for x, y, z in cells)
            placed.append(KataminoPlacement(name, board))
        if player.size:
            sliders.add(player.size if seat == 0 else 12 - player.size)
        loose.append(tuple(DUEL_GAME.remaining(player)))
    sliders.discard(0)
    sliders.discard(12)
    return KataminoTable(tuple(sorted(sliders)), tuple(placed), loose[0], loose[1])


def _katamino_solo_table(state: Any) -> Any:
    """A solo puzzle: a flat 5-row target up to 12 wide on the board with the slider at its
    width; any other target (pictures, 3-D boxes) on a board cut to the target's extent."""
    from games.katamino.solo import SOLO_GAME
    from sim.slices.katamino.drawing import KataminoPlacement, KataminoTable

    target = SOLO_GAME.stage_target(state)
    ex, ey, ez = target.extent
    placed = tuple(
        KataminoPlacement(name, tuple(tuple(int(v) for v in c) for c in cells))
        for name, cells in state.placed
    )
    loose = tuple(SOLO_GAME.remaining(state))
    if target.dims == 2 and ey == 5 and ex <= 12:
        return KataminoTable((ex,) if ex < 12 else (), placed, loose)
    return KataminoTable((), placed, loose, columns=max(1, ex), rows=max(1, ey))


def katamino_state_layout(state: Any) -> TableLayout:
    """The table of a Katamino duel state."""
    from sim.slices.katamino.drawing import katamino_layout

    return katamino_layout(katamino_state_table(state))


def _recoloured(scene: Any) -> Any:
    """A scene whose catalogue pieces take their catalogue colours (the physics tables build
    pieces without colours), balance cubes theirs."""
    from dataclasses import replace

    from games.polycubes import catalogue_names, get_catalogue

    balance = get_catalogue("kozo-balance").pieces[0].color
    pieces = []
    for p in scene.pieces:
        if p.cube == "balance":
            p = replace(p, color=balance)
        elif ":" in p.source and p.source.split(":", 1)[0] in catalogue_names():
            cat, name = p.source.split(":", 1)
            known = {q.name: q.color for q in get_catalogue(cat).pieces}
            p = replace(p, color=known.get(name, p.color))
        pieces.append(p)
    return replace(scene, pieces=tuple(pieces))


def kataboom_state_layout(state: Any) -> TableLayout:
    """The settled structure of a Kataboom state, as its physics table builds it."""
    from dataclasses import replace

    from sim.slices.kataboom.referee import KataboomReferee
    from sim.view.drawings.scene import scene_layout

    scene = KataboomReferee(state.config, state.seed).structure_scene(state)
    layout = scene_layout(_recoloured(scene))
    return replace(layout, name=f"kataboom turn {state.turn}")
