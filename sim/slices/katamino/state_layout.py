"""The Katamino state drawn: its state -> the neutral table description (the scheme:
:mod:`tablesim.sim.slices.common.adapters`)."""

from __future__ import annotations

from typing import Any

from tablesim.sim.view.layout import TableLayout


def katamino_state_table(state: Any) -> Any:
    """The :class:`KataminoTable` of a Katamino state: a solo puzzle (see
    :func:`_katamino_solo_table`) or a duel (modes duel, child-adult, handicap, duel3d).

    Both players build on the one 5 x 12 board from their own end: seat 0 from the left (its
    column x is board column x), seat 1 from the right, its own frame turned half round (board
    column 11 - x, row 4 - y). Each player's slider stands at the end of their Penta; in the
    last duel both stand between 6 and 7 and are one slider. A 3-D duel's box is built on the
    board at the player's end, layer z up. Pieces not placed yet lie on the player's side.
    """
    from tablesim.games.katamino.duel import DUEL_GAME
    from tablesim.sim.slices.katamino.drawing import KataminoPlacement, KataminoTable

    kind = type(state).__name__
    if kind == "SoloState":
        return _katamino_solo_table(state)
    if kind != "DuelState":
        raise ValueError(f"katamino: no table drawing for a {kind} (DuelState, SoloState)")
    placed: list[KataminoPlacement] = []
    sliders: set[int] = set()
    loose: list[tuple[str, ...]] = []
    slots: list[tuple[str, ...]] = []
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
        slots.append(tuple(player.pieces))
    sliders.discard(0)
    sliders.discard(12)
    offered: tuple[str, ...] = ()
    if state.phase == "give":  # the gifts a click can give: the legal ones, to the right
        offered = tuple(m.piece for m in DUEL_GAME.legal_moves(state) if m.kind_name == "give")
    return KataminoTable(
        tuple(sorted(sliders)), tuple(placed), loose[0], loose[1], offered, slots[0], slots[1]
    )


def _katamino_solo_table(state: Any) -> Any:
    """A solo puzzle: a flat 5-row target up to 12 wide on the board with the slider at its
    width; any other target (pictures, 3-D boxes) on a board cut to the target's extent."""
    from tablesim.games.katamino.solo import SOLO_GAME
    from tablesim.sim.slices.katamino.drawing import KataminoPlacement, KataminoTable

    target = SOLO_GAME.stage_target(state)
    ex, ey, ez = target.extent
    # a solved game keeps its last board in ``done`` (``placed`` is emptied): draw it filled
    board = state.done[-1] if state.outcome == "solved" and state.done else state.placed
    placed = tuple(
        KataminoPlacement(name, tuple(tuple(int(v) for v in c) for c in cells))
        for name, cells in board
    )
    loose = list(SOLO_GAME.stage_pieces(state))
    for name, _ in board:
        loose.remove(name)
    slots = tuple(SOLO_GAME.stage_pieces(state))
    if target.dims == 2 and ey == 5 and ex <= 12:
        return KataminoTable((ex,) if ex < 12 else (), placed, tuple(loose), slots=slots)
    return KataminoTable((), placed, tuple(loose), columns=max(1, ex), rows=max(1, ey), slots=slots)


def katamino_state_layout(state: Any) -> TableLayout:
    """The table of a Katamino duel state."""
    from tablesim.sim.slices.katamino.drawing import katamino_layout

    return katamino_layout(katamino_state_table(state))
