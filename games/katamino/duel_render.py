"""Text pictures of a duel: both players' boards side by side (3D: layers side by side), the
pieces in hand drawn in their held orientation, clocks, scores and whose move it is."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tablesim.games.katamino import Target
from tablesim.games.katamino.duel_cards import TURNED, piece
from tablesim.games.katamino.solo import cell_text, parse_cell

__all__ = ["cell_text", "parse_cell", "describe_state"]

if TYPE_CHECKING:
    from tablesim.games.katamino.duel import DuelState, KataminoDuel, Player

_COLS = "abcdefghijklmnopqrstuvwxyz"


def board_lines(game: KataminoDuel, p: Player) -> list[str]:
    """One player's board: column letters, then a row per line (layers side by side)."""
    target = Target.parse(game.target(p))
    ex, ey, ez = target.extent
    at = {c: name for name, cells in p.placed for c in cells}
    head = "  ".join(_COLS[:ex] for _ in range(ez))
    lines = ["   " + head]
    for y in range(ey):
        parts = []
        for z in range(ez):
            parts.append("".join(piece(at[(x, y, z)]).label[:1] if (x, y, z) in at else "."
                                 for x in range(ex)))  # fmt: skip
        lines.append(f"{y + 1:>2} " + "  ".join(parts))
    if ez > 1:
        lines.append(("   " + "  ".join(f"z{z + 1}".ljust(ex) for z in range(ez))).rstrip())
    return lines


def hand_lines(game: KataminoDuel, p: Player) -> list[str]:
    """The pieces in hand, each drawn in its held orientation (the flat view of layer 1)."""
    drawings = []
    for name in game.remaining(p):
        cells = game.held(p, name)
        w = max(c[0] for c in cells) + 1
        h = max(c[1] for c in cells) + 1
        flat = {(c[0], c[1]) for c in cells}
        rows = ["".join(piece(name).label[:1] if (x, y) in flat else " " for x in range(w))
                for y in range(h)]  # fmt: skip
        if any(c[2] for c in cells):
            rows.append(f"(+{sum(1 for c in cells if c[2])} up)")
        drawings.append([name] + rows)
    height = max((len(d) for d in drawings), default=0)
    out = []
    for i in range(height):
        out.append("  ".join((d[i] if i < len(d) else "").ljust(max(map(len, d)))
                             for d in drawings).rstrip())  # fmt: skip
    return out


def describe_state(game: KataminoDuel, state: DuelState) -> str:
    """The whole table for the terminal."""
    seat = game.current_player(state)
    what = {"race": "race", "give": "giving", "draft": "3D draft", "replace": "handicap",
            "over": "game over"}[state.phase]  # fmt: skip
    duel = f"duel {state.duel + 1}" + (" (tie-break)" if state.tiebreak else "")
    card = state.card.removesuffix(TURNED)
    if card != state.card:
        card += f" (turned round: {game.player_name(0)} plays the printed half 2)"
    lines = [f"Katamino duel {card} [{state.mode}] {duel}, {what}; "
             f"score {state.scores[0]}-{state.scores[1]}"]  # fmt: skip
    if state.note:
        lines.append(state.note)
    for s, p in enumerate(state.seats):
        mark = " <- to move" if s == seat else ""
        status = f"done at {p.done:.1f} s" if p.done >= 0 else f"clock {p.clock:.1f} s"
        size = f"Penta {p.size}" if p.size else "2x3x5 box"
        lines.append(f"P{s + 1} ({state.speeds[s]}): {size}, {status}{mark}")
        if state.phase == "race":
            lines.extend(board_lines(game, p))
        lines.append("   hand: " + (", ".join(game.remaining(p)) or "-"))
        if s == seat and state.phase == "race":
            lines.extend("   " + x for x in hand_lines(game, p))
    if state.phase in ("give", "draft"):
        from tablesim.games.katamino.duel import DRAFT

        kind = "P" if state.phase == "give" else DRAFT[len(state.gifts)]
        lines.append("on the table: " + ", ".join(game.table(state, kind)))
    return "\n".join(lines)
