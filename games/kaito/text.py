"""Human-readable text for Kaito: the terminal picture of a position and move sentences."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tablesim.games.kaito.rules import (
    BUY_KIND,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    FILES,
    KABUTO,
    KATANA,
    SIZE,
    KaitoState,
    Move,
    cell_name,
    mon_values,
    tile_colour,
    tile_name,
)

if TYPE_CHECKING:
    from tablesim.games.kaito.rules import Kaito

_REASONS = {
    "no-katana": "has no Katana left on the grid",
    "no-kabuto": "has no Kabuto left on the grid",
    "no-move": "cannot move the Kaito (no tile in its row or column to land on)",
}
_LEGEND = "S Katana, H Kabuto, 1-3 Mons (R red, B black); O opening tile; .. gap; [..] Kaito"


def _cell_text(state: KaitoState, cell: int) -> str:
    tile = state.board[cell]
    inner = ".." if tile is None else f"{tile:>2}"
    if cell == state.kaito:
        return "[" + ("  " if tile is None else inner) + "]"
    return f" {inner} "


def _tiles_text(tiles: tuple[str, ...]) -> str:
    return " ".join(tiles) if tiles else "none"


def describe_state(state: KaitoState) -> str:
    """The grid with row 6 on top, material per side, holdings, and the player to move."""
    cfg = state.config
    header = "     " + "".join(f" {f}   " for f in FILES).rstrip()
    lines = [
        f"Kaito: movement {cfg.movement}, end check {cfg.end_check}; turn {state.turn + 1}",
        header,
    ]
    for row in range(SIZE - 1, -1, -1):
        cells = "".join(_cell_text(state, row * SIZE + col) + " " for col in range(SIZE))
        lines.append(f" {row + 1}  {cells.rstrip()}")
    lines.append(header)
    lines.append(_LEGEND)
    for seat in (0, 1):
        held = state.held[seat]
        bank = sum(mon_values(held))
        lines.append(
            f"{COLOUR_NAMES[seat] + ':':<6} on the grid Katana "
            f"{state.on_board(seat, KATANA)}/7, Kabuto {state.on_board(seat, KABUTO)}/3; "
            f"holds {_tiles_text(held)} (Mons worth {bank})"
        )
    lines.append(f"Out of play: {_tiles_text(state.out_of_play)}")
    if state.outcome is not None:
        winner, reason = state.outcome
        lines.append(
            f"Game over after {state.turn} moves: {COLOUR_NAMES[1 - winner]} "
            f"{_REASONS[reason]}; {COLOUR_NAMES[winner]} wins"
        )
        return "\n".join(lines)
    who = COLOUR_NAMES[state.player]
    phase = state.phase
    if phase == "remove":
        cells = " ".join(cell_name(c) for c in state.moves[0].cells)
        lines.append(f"{who} (second player) removes the opening tiles: 'remove {cells}'")
    elif phase == "place":
        gaps = ", ".join(cell_name(m.to) for m in state.moves)
        lines.append(f"{who} (second player) places the Kaito on a gap: {gaps}")
    else:
        assert state.kaito is not None
        targets = ", ".join(cell_name(c) for c in state.targets)
        trades = sum(1 for m in state.moves if m.buy)
        extra = f" ({trades} move{'s' * (trades != 1)} with a Mons trade)" if trades else ""
        lines.append(
            f"{who} to move the Kaito from {cell_name(state.kaito)}: may land on {targets}{extra}"
        )
    return "\n".join(lines)


def describe_move(game: Kaito, state: KaitoState, move: Move) -> str:
    """A sentence for ``move`` in ``state``, with the ending when it ends the game."""
    who = COLOUR_NAMES[state.player]
    if move.kind == "remove":
        return f"{who} removes the opening tiles on " + " and ".join(
            cell_name(c) for c in move.cells
        )
    if move.kind == "place":
        return f"{who} places the Kaito on {cell_name(move.to)}, {COLOUR_NAMES[0].lower()} side up"
    after = game.apply(state, move)
    tile = state.board[move.to]
    assert tile is not None and state.kaito is not None
    text = f"{who} moves the Kaito {cell_name(state.kaito)}-{cell_name(move.to)}, captures "
    if tile_colour(tile) == state.player:
        text += f"own {tile_name(tile).split(' ', 1)[1]} (out of play)"
    else:
        text += f"{tile_name(tile)} (kept)"
    if move.buy:
        bought = COLOUR_LETTERS[state.player] + BUY_KIND[move.buy]
        text += (
            f"; pays Mons {'+'.join(map(str, move.pay))} for a {tile_name(bought)}, "
            "placed under the Kaito"
        )
    if after.outcome is not None:
        winner, reason = after.outcome
        text += f"; {COLOUR_NAMES[1 - winner]} {_REASONS[reason]}: {COLOUR_NAMES[winner]} wins"
    return text
