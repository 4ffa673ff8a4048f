"""The terminal player: an illegal move is refused with the game's own reason, then re-asked."""

from __future__ import annotations

import io

from tablesim.games.registry import get_game
from tablesim.games.terminal import TerminalHuman


def _kaito_after_opening() -> tuple[object, object]:
    game = get_game("kaito")
    state = game.new_game(game.make_config({}, players=2), seed=1)
    while game.current_player(state) != 0:  # black (seat 1) plays the two opening moves
        state = game.apply(state, game.legal_moves(state)[0])
    return game, state


def test_illegal_move_is_explained_by_the_rules_then_a_legal_one_is_taken() -> None:
    game, state = _kaito_after_opening()
    legal = game.legal_moves(state)
    legal_texts = {game.format_move(state, m) for m in legal}
    # A diagonal step is never a Kaito move (the rulebook: straight lines only).
    start = game.format_move(state, legal[0]).split("-")[0]
    col, row = start[0], int(start[1])
    diagonal = f"{start}-{chr(ord(col) + (1 if col < 'f' else -1))}{row + (1 if row < 6 else -1)}"
    assert diagonal not in legal_texts
    out = io.StringIO()
    human = TerminalHuman(
        game, io.StringIO(f"{diagonal}\n{game.format_move(state, legal[0])}\n"), out
    )
    move = human.choose(state)
    assert move == legal[0]
    text = out.getvalue()
    assert f"not accepted: '{diagonal}' is not legal here: " in text
    assert "straight line" in text  # the reason comes from the rules, not a generic refusal
