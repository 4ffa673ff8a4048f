"""The window's line about the last move names the mover once (it read "P1: P1 take 4L")."""

from __future__ import annotations

import pytest

from tablesim.sim.view.harness import Harness


@pytest.mark.parametrize(
    ("game", "options", "move", "expected"),
    [
        ("kozo", {"table": "stand-in"}, "take 4L", "P1 take 4L"),
        ("katoiz", {}, None, "P1: "),  # Katoiz's sentence starts "P1: ..." on its own
        ("kaito", {}, None, "Black "),  # Kaito names its sides; Black opens
    ],
)
def test_the_last_move_line_names_the_mover_once(
    game: str, options: dict[str, str], move: str | None, expected: str
) -> None:
    with Harness(game, players=["human", "human"], options=options, size=(320, 180)) as h:
        app = h.app
        state = app.state
        mv = app.game.legal_moves(state)[0] if move is None else app.game.parse_move(state, move)
        app.play(mv)
        line = app.verdict
        assert line.startswith(expected)
        if move is not None:
            assert line == expected
        name = expected.split()[0].rstrip(":")
        assert line.count(name) == 1, line
