"""ASCII pictures of solo boards: 2D targets as a grid, 3D targets as layers side by side.

Columns are lettered ``a..`` and rows numbered from 1 (the cell names of moves); a covered
cell shows its piece's label, an empty target cell ``.``, a cell outside the target a blank.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from tablesim.games.core import counted
from tablesim.games.katamino import Target
from tablesim.games.katamino.solo_data import card_titles, challenges, piece
from tablesim.games.polycubes import Cells

if TYPE_CHECKING:
    from tablesim.games.katamino.solo import KataminoSolo, SoloState

_COLS = "abcdefghijklmnopqrstuvwxyz"


def draw_board(target: Target, placed: Sequence[tuple[str, Cells]]) -> str:
    """The target with ``placed`` pieces, one text block (layers left to right, bottom first)."""
    owner = {c: piece(n).label for n, cells in placed for c in cells}
    ex, ey, ez = target.extent
    blocks = []
    for z in range(ez):
        lines = ["   " + " ".join(_COLS[x] for x in range(ex))]
        for y in range(ey):
            row = []
            for x in range(ex):
                c = (x, y, z)
                row.append(owner.get(c, ".") if c in target.cell_set else " ")
            lines.append(f"{y + 1:>2} " + " ".join(row))
        if ez > 1:
            title = f"layer {z + 1}" + (" (bottom)" if z == 0 else "")
            lines.insert(0, title)
        blocks.append(lines)
    width = max(len(line) for b in blocks for line in b)
    height = max(len(b) for b in blocks)
    out = []
    for i in range(height):
        out.append("   ".join((b[i] if i < len(b) else "").ljust(width) for b in blocks).rstrip())
    return "\n".join(out)


def describe_state(game: KataminoSolo, state: SoloState) -> str:
    """Header (challenge, stage, difficulty), the board, the pieces left, the last note."""
    ch = game.challenge_of(state)
    card = card_titles(state.mode).get(state.card, "")
    # No solver level in the header: the solver's absolute levels reach "expert" on most
    # staged challenges, card 1 ("easiest") included; the card order is the scale
    # (docs/rules/katamino-duo.md), and `generate_solo --list` prints the measured figures.
    on_card = sum(1 for c in challenges(state.mode) if c.card == state.card)
    head = (
        f"Katamino {state.mode}: card {state.card}{f' ({card})' if card else ''}, "
        f"challenge {state.challenge} of {on_card}{f' - {ch.title}' if ch.title else ''}"
        + (f", swap {state.swap}" if state.swap else "")
    )
    if state.outcome:
        return head + f"\n{state.outcome}: {len(state.done)}/{counted(len(ch.stages), 'stage')}"
    stage = ch.stages[state.stage]
    lines = [
        head,
        f"stage {state.stage + 1}/{len(ch.stages)}: {stage.name} ({stage.target.describe()})",
        draw_board(stage.target, state.placed),
        "pieces left: " + ", ".join(_piece_word(n) for n in sorted(game.remaining(state))),
        draw_shapes(sorted(set(game.remaining(state)))),
    ]
    if state.note:
        lines.append(state.note)
    example = example_move(game, state)
    lines.append(f"moves: PIECE CELLS{f' (e.g. {example})' if example else ''}, hint, undo, quit")
    return "\n".join(lines)


def example_move(game: KataminoSolo, state: SoloState) -> str:
    """A placement of a piece in hand on the free cells, as typed (the first piece in name
    order, its first placement in cell order); "" when no piece in hand fits anywhere."""
    from tablesim.games.katamino.solo import cell_text, placements

    target, free = game.stage_target(state), game.free_cells(state)
    for name in sorted(set(game.remaining(state))):
        for cells in placements(target, free, name, state.straight_horizontal):
            return " ".join([name, *(cell_text(c, target.dims) for c in cells)])
    return ""


def draw_shapes(names: Sequence[str]) -> str:
    """Each piece's shape (as catalogued, lying flat) under its name, side by side."""
    blocks = []
    for name in names:
        cells = piece(name).cells
        w = max(c[0] for c in cells) + 1
        h = max(c[1] for c in cells) + 1
        rows = ["".join("#" if (x, y, 0) in cells else " " for x in range(w)) for y in range(h)]
        blocks.append([name, *rows])
    height = max((len(b) for b in blocks), default=0)
    out = []
    for i in range(height):
        out.append("  ".join((b[i] if i < len(b) else "").ljust(max(map(len, b)))
                             for b in blocks).rstrip())  # fmt: skip
    return "\n".join(out)


def _piece_word(name: str) -> str:
    p = piece(name)
    return f"{name}({p.size})"
