"""tablesim.games.session.Session: play, observers, undo, follow a log, the log it writes."""

from __future__ import annotations

import json

import pytest

from tablesim.games.core import GameError, IllegalMoveError
from tablesim.games.log import MoveEntry, parse_log
from tablesim.games.session import Divergence, Observer, Played, Session, UndoRequest, replay_log


class Tape(Observer):
    """Writes down what the session told it."""

    def __init__(self) -> None:
        self.events: list[tuple[str, object]] = []

    def move_played(self, session: Session, played: Played) -> None:
        self.events.append(("played", played.n))

    def undone(self, session: Session, moves: list[Played]) -> None:  # type: ignore[override]
        self.events.append(("undone", [p.n for p in moves]))

    def game_over(self, session: Session, result: object) -> None:
        self.events.append(("over", session.turns))


def test_a_catego_game_to_the_end_tells_the_observer_every_move_and_the_end() -> None:
    tape = Tape()
    with Session.new("catego", ["random", "random"], 4, observers=[tape]) as s:
        result = s.run()
        # Catego: each of 2 players fills each of the 11 columns (2..12) once -> 22 moves.
        assert s.turns == 22 and s.over and s.seat is None
        assert result.winners == s.result.winners  # type: ignore[union-attr]
    assert tape.events == [("played", n) for n in range(1, 23)] + [("over", 22)]


def test_undo_returns_to_the_exact_earlier_state_and_play_resumes_identically() -> None:
    with (
        Session.new("kaito", ["random", "random"], 3) as a,
        Session.new("kaito", ["random", "random"], 3) as b,
    ):
        for _ in range(6):
            a.step()
        digest_4 = a.played[3].digest
        tape = Tape()
        a.observers.append(tape)
        gone = a.undo_to(4)
        assert [p.n for p in gone] == [5, 6] and tape.events == [("undone", [5, 6])]
        assert a.game.state_digest(a.state) == digest_4 and a.turns == 4
        # the same moves again give the same states as a session that never undid
        for p in gone:
            a.play(p.move)
        for _ in range(6):
            b.step()
        assert [p.digest for p in a.played] == [p.digest for p in b.played]


def test_undo_to_human_takes_back_the_bots_replies_too() -> None:
    # Kaito (no chance, no physics: undo is allowed): Black (seat 1) opens with two removals
    with Session.new("kaito", ["human", "random"], 1) as s:
        while s.seat != 0:
            s.step()
        start = s.turns
        s.play(s.game.legal_moves(s.state)[0])  # seat 0 (human)
        while s.seat != 0:
            s.step()  # the bot replies
        assert s.turns > start + 1
        gone = s.undo(to_human=True)
        # back to the human's turn before their own move: their move and the replies gone
        assert gone[0].seat == 0 and all(p.seat == 1 for p in gone[1:])
        assert s.turns == start and s.seat == 0
        assert s.undone_moves == len(gone)


def test_a_refused_move_changes_nothing_and_check_names_the_rule() -> None:
    with Session.new("kaito", ["human", "human"], 1) as s:
        while s.seat != 0:
            s.play(s.game.legal_moves(s.state)[0])
        before, turns = s.state, s.turns
        legal = s.game.legal_moves(s.state)
        start = s.game.format_move(s.state, legal[0]).split("-")[0]
        col, row = start[0], int(start[1])
        diagonal = (
            f"{start}-{chr(ord(col) + (1 if col < 'f' else -1))}{row + (1 if row < 6 else -1)}"
        )
        move = s.game.parse_move(s.state, diagonal)
        with pytest.raises(IllegalMoveError, match="straight line"):
            s.check(move)
        with pytest.raises(GameError):
            s.play(move)
        assert s.state is before and s.turns == turns


def test_human_seat_without_input_is_an_error_not_a_hang() -> None:
    with (
        Session.new("catego", ["human", "random"], 0) as s,
        pytest.raises(GameError, match="human"),
    ):
        s.step()


def _catego_log() -> list[str]:
    with Session.new("catego", ["random", "random"], 7) as s:
        s.run()
        return s.log_lines("test")


def test_the_log_a_session_writes_replays_and_follow_checks_each_field() -> None:
    lines = _catego_log()
    log = parse_log(lines)
    assert replay_log(log).ok
    with Session.from_header(log.header) as s:
        first = log.moves[0]
        wrong_seat = MoveEntry(1, 1 - first.seat, first.move, first.state)
        # players named as the terminal names them (P1 is seat 0), not by 0-based seat
        by, to_move = f"P{2 - first.seat}", f"P{first.seat + 1}"
        with pytest.raises(Divergence, match=f"a move by {by}, {to_move} is to move") as exc:
            s.follow(wrong_seat)
        assert exc.value.n == 1 and s.turns == 0
        wrong_digest = MoveEntry(1, first.seat, first.move, "0" * 16)
        with pytest.raises(Divergence, match="digest"):
            s.follow(wrong_digest)
        assert s.turns == 0  # nothing kept of a move that did not reproduce
        s.follow(first)
        assert s.turns == 1


def test_log_lines_match_the_record_format() -> None:
    lines = _catego_log()
    objs = [json.loads(x) for x in lines]
    assert [o["type"] for o in objs] == ["header"] + ["move"] * 22 + ["result"]
    assert objs[-1]["turns"] == 22 and objs[-1]["state"] == objs[-2]["state"]
    assert all(" " not in x for x in lines)  # compact, as canonical_json writes


def test_a_human_input_can_ask_to_undo_during_run() -> None:
    """The terminal's "undo": the human's input raises UndoRequest; run takes back the human's
    last move and the bot's reply, and asks the human again in the same position."""
    with Session.new("kaito", ["random", "human"], 2) as s:
        asked: list[int] = []

        def human(state: object) -> object:
            asked.append(s.turns)
            if len(asked) == 2:  # on the second turn: take back the first
                raise UndoRequest
            return s.game.legal_moves(state)[0]

        s.max_turns = 4  # stop early: the point is the undo, not the whole game
        with pytest.raises(GameError, match="no end after 4 turns"):
            s.run(human)
    # first ask, second ask -> undo back to the first -> asked there again, then the second
    assert asked[:4] == [asked[0], asked[1], asked[0], asked[1]] and asked[1] > asked[0]


def test_an_undo_typed_at_the_terminal_is_handled_by_run() -> None:
    """``TerminalHuman`` (``tablesim play``'s terminal) raises the undo request that
    :meth:`Session.run` handles: a person who types ``undo`` gets their position back
    instead of an error (two UndoRequest classes made it escape run before)."""
    import io

    from tablesim.games.terminal import TerminalHuman

    with Session.new("kaito", ["random", "human"], 2) as s:
        asked: list[int] = []

        class Script(io.StringIO):
            def readline(self, size: int | None = -1) -> str:
                asked.append(s.turns)
                if len(asked) == 2:
                    return "undo\n"
                return s.game.format_move(s.state, s.game.legal_moves(s.state)[0]) + "\n"

        terminal = TerminalHuman(s.game, Script(), io.StringIO())
        s.max_turns = 4
        with pytest.raises(GameError, match="no end after 4 turns"):
            s.run(terminal.choose)
    # asked first, then second ("undo": back to the first), there again, then second
    assert asked[:4] == [asked[0], asked[1], asked[0], asked[1]] and asked[1] > asked[0]
