"""The physics tables are keyed on the moves, not their text (issue 35 item 4).

A table asked about a position it has not cached rebuilds its world from the state's moves
(``state.moves``, the values the rules applied); it never parses ``state.history`` nor formats
a move. Tested by making the game's text functions raise while a fresh table rebuilds a
position and measures the next move: the outcome must equal the one the table that played
the game measured (the same operations in the same order give the same bits).
"""

from __future__ import annotations

from typing import Any

import pytest

from tablesim.games.registry import get_game
from tablesim.games.session import Session, make_seats


def _no_text(mp: pytest.MonkeyPatch, game: Any) -> None:
    def refuse(*args: object, **kw: object) -> None:
        raise AssertionError("the table read or wrote a move's text")

    mp.setattr(type(game), "parse_move", refuse)
    mp.setattr(type(game), "format_move", refuse)


@pytest.mark.parametrize(
    ("name", "bot", "options", "moves"),
    [
        ("kozo", "greedy", {"rounds": 1, "hand_mm": 0.5, "bot_place_s": 2.0}, 4),
        ("kataboom", "widest", {"model": 1}, 2),
    ],
)
def test_a_fresh_table_rebuilds_from_the_moves_without_their_text(
    name: str, bot: str, options: dict[str, Any], moves: int
) -> None:
    from tablesim.games.core import make_referee

    game = get_game(name)
    config = game.make_config(options, players=2)
    seats = make_seats(name, [bot if bot != "widest" else "random"] * 2, 5)
    with Session(game, config, 5, seats) as s:

        def choice() -> Any:  # greedy Kozo; Kataboom's placement of the widest support
            if bot != "widest":
                return s.bot_move()
            margins = game.placement_margins(s.state)  # type: ignore[attr-defined]
            return max(sorted(margins), key=lambda m: margins[m])

        for _ in range(moves):
            s.play(choice())
        assert not s.over
        state = s.state
        assert len(state.moves) == len(state.history)
        # the state keeps the moves as values: their texts are the history (time to place too)
        assert tuple(game.format_move(state, m) for m in state.moves) == state.history
        nxt = choice()
        assert s.referee is not None
        expected = s.referee.measure(state, nxt).outcome
        fresh = make_referee(game.referee_name(config), game, config, 5)  # type: ignore[arg-type]
        try:
            with pytest.MonkeyPatch.context() as mp:
                _no_text(mp, game)
                got = fresh.measure(state, nxt).outcome
        finally:
            fresh.close()
    assert fresh.rebuilds == 1  # type: ignore[attr-defined]
    assert got == expected


@pytest.mark.parametrize("name", ["kozo", "kataboom"])
def test_a_state_from_json_carries_its_moves(name: str) -> None:
    game = get_game(name)
    config = game.make_config({"table": "stand-in"}, players=2)
    with Session(game, config, 2, make_seats(name, ["random", "random"], 2)) as s:
        while s.turns < 5 and not s.over:
            s.step()
        state = s.state
    back = game.state_from_json(game.state_to_json(state))
    assert back.moves == state.moves and len(back.moves) == len(state.history) >= 1
    secs = [getattr(m, "secs", None) for m in back.moves]
    assert secs == [getattr(m, "secs", None) for m in state.moves]
