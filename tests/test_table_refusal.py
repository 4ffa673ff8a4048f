"""A move the physics table refuses (``TableRefused``: no touching pose within the rule's
tolerance) is not played: the bot chooses another, a person is told why, and a log of such a
game replays (issue 31: refusal wired through Session, the bots and the front ends).

The table is stood in for by a seeded stub referee that refuses the first ``k`` distinct moves
it is asked to measure in chosen positions, so the test knows by construction which moves were
refused and what the bots must have done instead.
"""

from __future__ import annotations

from typing import Any

import pytest

from tablesim.games.core import TableRefused
from tablesim.games.log import parse_log
from tablesim.games.registry import get_game
from tablesim.games.session import Divergence, Session, make_seats

REFUSE = {2: 1, 5: 2}
"""Turn number (moves played before it) -> how many distinct moves are refused there."""


class Refuser:
    """A referee that refuses the first REFUSE[turn] distinct moves asked in a turn."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.asked: dict[int, list[str]] = {}
        self.refused: dict[int, list[str]] = {}

    def measure(self, state: Any, move: Any) -> Any:
        turn = int(state.turn) if hasattr(state, "turn") else len(self.asked)
        text = self.game.format_move(state, move)
        seen = self.asked.setdefault(turn, [])
        if text not in seen:
            seen.append(text)
        if seen.index(text) < REFUSE.get(turn, 0):
            self.refused.setdefault(turn, []).append(text)
            raise TableRefused(f"stub table: {text} has no touching pose")
        return move

    def close(self) -> None:
        pass

    def __enter__(self) -> Refuser:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def _session(referee: Any, seed: int = 7) -> Session[Any, Any, Any]:
    game = get_game("kaito")
    config = game.make_config({}, players=2)
    return Session(
        game, config, seed, make_seats("kaito", ["random", "random"], seed), referee=referee
    )


def test_a_bot_whose_move_is_refused_plays_another_and_the_log_replays() -> None:
    game = get_game("kaito")
    ref = Refuser(game)
    with _session(ref) as s:
        for _ in range(8):
            s.step()
        lines = s.log_lines("test")
    # the turns with refusals: the refused moves were never played, the first choice was
    for turn, k in REFUSE.items():
        refused = ref.refused[turn]
        assert len(set(refused)) == k
        played = s.played[turn]
        assert played.text not in refused
        before = played.before
        bot = s.seats[played.seat].bot
        assert bot is not None
        first = game.format_move(before, bot.choose(before))
        assert first == refused[0]  # the bot's own first choice was the refused one
        assert played.text in [game.format_move(before, m) for m in game.legal_moves(before)]
    assert s.refused == ()  # nothing refused in the position after the last move
    log = parse_log(lines)
    # the same seeded table refuses the same moves again: following the log re-asks it
    with Session.from_header(log.header, referee=Refuser(game)) as again:
        for entry in log.moves:
            again.follow(entry)
        assert [p.text for p in again.played] == [p.text for p in s.played]
    # a table that refuses nothing: the bot now plays its first choice at turn 2
    with (
        Session.from_header(log.header, referee=Refuser(game)) as plain,
        pytest.MonkeyPatch.context() as mp,
    ):
        mp.setitem(REFUSE, 2, 0)
        with pytest.raises(Divergence, match="move 3: the bot"):
            for entry in log.moves:
                plain.follow(entry)


def test_a_persons_refused_move_is_not_played_and_says_why() -> None:
    game = get_game("kaito")
    ref = Refuser(game)
    with _session(ref) as s:
        s.step()
        s.step()  # turn 2 refuses its first move asked
        state = s.state
        move = game.legal_moves(state)[0]
        with pytest.raises(TableRefused, match="no touching pose"):
            s.play(move)
        assert s.state is state and s.turns == 2
        assert s.refused == (move,)
        s.play(game.legal_moves(state)[1])  # another move is played
        assert s.refused == ()


def test_choose_avoiding_falls_back_to_the_first_move_not_refused() -> None:
    """A bot that ignores ``avoid`` still gets a move that was not refused: the first legal
    one in the rules' order."""
    game = get_game("kaito")
    state = game.new_game(game.make_config({}, players=2), 3)
    while len(game.legal_moves(state)) < 3:
        state = game.apply(state, game.legal_moves(state)[-1])
    bot = make_seats("kaito", ["random", "random"], 3)[0].bot
    assert bot is not None
    legal = game.legal_moves(state)
    choice = bot.choose(state)
    bot.choose = lambda st: choice  # type: ignore[method-assign]  # ignores avoid
    again = bot.choose_avoiding(state, [choice])
    assert again == next(m for m in legal if m != choice)
