"""The words the window's move line answers besides moves: ``moves`` and ``help`` (``?``),
as the terminal's prompt answers them (:mod:`tablesim.games.terminal`): the legal moves (or the
game's own listing where listing them would give a puzzle away), the syntax and examples."""

from __future__ import annotations

from typing import Any

__all__ = ["MOVE_LINE_WORDS", "move_line_answer"]

MOVE_LINE_WORDS = ("moves", "help", "?")
"""Words the move line answers when the game does not read them as a move."""

LISTED = 12
"""Moves listed at most (the rest counted), so the answer fits the status panel."""


def move_line_answer(game: Any, state: Any, text: str) -> tuple[str, str] | None:
    """(headline, explanation) answering ``text`` when it is one of :data:`MOVE_LINE_WORDS`,
    else None. Call it only after ``game.parse_move`` refused ``text`` (a game's own move of
    that name wins)."""
    word = text.strip().lower()
    if word not in MOVE_LINE_WORDS:
        return None
    legal = list(game.legal_moves(state))
    listing = getattr(game, "prompt_listing", lambda _s: None)(state)
    if word == "moves":
        if listing is not None:
            return "moves:", listing
        shown = ", ".join(game.format_move(state, m) for m in legal[:LISTED])
        more = f" (and {len(legal) - LISTED} more)" if len(legal) > LISTED else ""
        return f"moves ({len(legal)}):", (shown + more) or "none: the game is over"
    lines: list[str] = []
    extra = getattr(game, "help_lines", None)
    if listing is not None and extra is not None:
        lines += list(extra(state))
    else:
        examples = ", ".join(game.format_move(state, m) for m in legal[:3])
        if examples:
            lines.append(f"a move is typed as the game writes it, e.g. {examples}")
        lines += list(getattr(game, "move_help", lambda _s: [])(state))
    lines.append("'moves' lists the legal moves; escape closes the line")
    return "help: enter opens the move line", "\n".join(lines)
