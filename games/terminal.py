"""A person at a terminal: :class:`TerminalHuman` asks for moves, re-prompts on a bad one and
understands ``help``, ``moves``, ``undo`` and ``quit``.

Nothing here knows any particular game: it talks to :class:`tablesim.games.core.Game` only
(and to the optional hooks a game may offer, named on each method). The play loop it answers is
:class:`tablesim.games.session.Session`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import IO, Generic

from tablesim.games.core import C, Game, GameError, M, S
from tablesim.games.session import UndoRequest

__all__ = ["COMMANDS", "MAX_MOVE_CHARS", "Resignation", "TerminalHuman", "prompt_summary"]


class Resignation(GameError):
    """A person at the terminal typed ``quit`` (or ``resign``): ``seat`` gives up the game."""

    def __init__(self, seat: int, name: str | None = None) -> None:
        super().__init__(f"{name or f'P{seat + 1}'} resigned")
        self.seat = seat


COMMANDS = {
    "help": "these commands and examples of moves (also '?')",
    "moves": "every legal move",
    "undo": "take back your last move (and the bots' moves after it)",
    "quit": "resign the game (also 'resign')",
}


MAX_MOVE_CHARS = 1000
"""The longest move text read from a person or a log (the longest real move is a few dozen)."""


class TerminalHuman(Generic[S, M, C]):
    """Asks a person for moves on a terminal; re-prompts on a bad or illegal move.

    Besides moves it understands ``help``, ``moves``, ``undo`` and ``quit``/``resign``
    (:data:`COMMANDS`); ``help``, ``moves`` and ``undo`` yield to a game that reads the word as
    its own move (Katamino's ``hint`` and ``undo``), ``quit`` always raises Resignation (the
    play loop then plays the game's own ``resign`` or ``quit`` move when it has one). ``undo`` and ``quit`` raise :class:`UndoRequest` and
    :class:`Resignation` for the play loop. Players are called by the board's own names
    (:meth:`tablesim.games.core.Game.player_name`), with their role when ``roles`` is given.

    Games that time a person's moves (a ``stamp_seconds(state, move, seconds)`` hook, e.g. a
    Katamino duel race) get the seconds since the position was first shown, measured here by
    ``clock``: rules never read a clock themselves.
    """

    def __init__(
        self,
        game: Game[S, M, C],
        inp: IO[str],
        out: IO[str],
        roles: Sequence[str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.game, self.inp, self.out, self.clock = game, inp, out, clock
        self.roles = list(roles) if roles is not None else None

    def who(self, seat: int) -> str:
        """``P1 (human)``: the board's name for ``seat`` and its role."""
        name = self.game.player_name(seat)
        return f"{name} ({self.roles[seat]})" if self.roles else name

    def _listing(self, state: S, legal: Sequence[M]) -> str | None:
        """What the prompt lists instead of the legal moves, where the game says (a
        ``prompt_listing(state)`` hook: a Katamino race lists none, since its legal moves are
        the placements the solver kept completable and would give the puzzle away)."""
        hook = getattr(self.game, "prompt_listing", None)
        return None if hook is None else hook(state)

    def _command(self, text: str, state: S, legal: Sequence[M], seat: int) -> bool:
        """Handle a command word; True when ``text`` was one (and was not a move)."""
        word = text.lower()
        listing = self._listing(state, legal)
        if word in ("help", "?", "h"):
            examples = ", ".join(self.game.format_move(state, m) for m in legal[:3])
            commands = dict(COMMANDS)
            own_undo = getattr(self.game, "undo_help", None)
            if own_undo is not None and self._is_game_move(state, "undo", legal):
                commands["undo"] = own_undo(state)  # the game's own move, not the loop's
            elif getattr(self.game, "undo_limit", ""):  # what the game refuses to take back
                commands["undo"] += f", {self.game.undo_limit}"  # type: ignore[attr-defined]
            print(
                "  commands: " + "; ".join(f"{k}: {v}" for k, v in commands.items()), file=self.out
            )
            extra = getattr(self.game, "help_lines", None)
            if listing is not None and extra is not None:
                for line in extra(state):
                    print("  " + line, file=self.out)
            else:
                print(f"  a move is typed as the game writes it, e.g. {examples}", file=self.out)
                for line in getattr(self.game, "move_help", lambda _s: [])(state):
                    print("  " + line, file=self.out)
            return True
        if word == "moves":
            shown = listing
            if shown is None:
                shown = ", ".join(self.game.format_move(state, m) for m in legal)
            print("  " + shown, file=self.out)
            return True
        if word == "undo":
            raise UndoRequest("undo")
        if word in ("quit", "resign", "exit"):
            raise Resignation(seat, self.game.player_name(seat))
        return False

    def _is_game_move(self, state: S, text: str, legal: Sequence[M]) -> bool:
        """True when the game reads ``text`` as one of its moves (legal now or not: a game
        with its own ``undo`` explains why there is nothing to undo)."""
        try:
            self.game.parse_move(state, text)
        except GameError:
            return False
        return True

    def choose(self, state: S) -> M:
        """Prompt until a legal move is typed (EOF raises GameError; ``undo`` and ``quit``
        raise UndoRequest and Resignation); stamped with the seconds it took, where timed."""
        shown = self.clock()
        move = self._ask(state)
        stamp = getattr(self.game, "stamp_seconds", None)
        return move if stamp is None else stamp(state, move, self.clock() - shown)

    def _ask(self, state: S) -> M:
        legal = self.game.legal_moves(state)
        seat = self.game.current_player(state)
        if seat is None:
            raise GameError(f"{self.game.name}: the game is over; no move to choose")
        forced = getattr(self.game, "forced_move", None)
        only = forced(state) if forced is not None else None
        if only is not None:  # a blocked turn: nothing to choose, played for the person
            print(self.game.describe(state), file=self.out)
            print(
                f"{self.who(seat)}: no move is possible; "
                f"{self.game.format_move(state, only)} is played for you",
                file=self.out,
            )
            return only
        first = True
        while True:
            if first:
                print(self.game.describe(state), file=self.out)
            first = False
            shown, more = self._listing(state, legal), ""
            if shown is None and getattr(self.game, "summarise_prompt", False):
                shown = prompt_summary([self.game.format_move(state, m) for m in legal])
            if shown is None:
                shown = ", ".join(self.game.format_move(state, m) for m in legal[:40])
                more = f" (+{len(legal) - 40} more)" if len(legal) > 40 else ""
            print(
                f"{self.who(seat)}, your move [{shown}{more}] (help: commands): ",
                end="",
                file=self.out,
                flush=True,
            )
            line = self.inp.readline(MAX_MOVE_CHARS + 1)
            if not line:
                raise GameError("input ended before the game did")
            if len(line) > MAX_MOVE_CHARS:  # a move is short: drop the rest of the line
                while line and not line.endswith("\n"):
                    line = self.inp.readline(1 << 16)
                print(f"  not accepted: a line over {MAX_MOVE_CHARS} characters "
                      "(help: commands and examples)", file=self.out)  # fmt: skip
                continue
            text = line.strip()
            if not text:
                continue
            quitting = text.lower() in ("quit", "resign", "exit")
            if (quitting or not self._is_game_move(state, text, legal)) and self._command(
                text, state, legal, seat
            ):
                continue
            try:
                move = self.game.parse_move(state, text)
                if move not in legal:
                    # Games whose legal_moves is a candidate set accept any move their
                    # check_move passes; touch-move games then bind what was named.
                    try:
                        self.game.check_move(state, move)
                    except GameError as exc:
                        commit = getattr(self.game, "commitment", None)
                        bound = commit(state, move) if commit is not None else None
                        if bound is not None and bound in legal:
                            print(f"  not accepted: {exc}; touch-move: you now hold it",
                                  file=self.out)  # fmt: skip
                            return bound
                        raise
                return move
            except GameError as exc:
                print(f"  not accepted: {exc} (help: commands and examples)", file=self.out)


def prompt_summary(texts: Sequence[str], limit: int = 8) -> str:
    """A short prompt for a game with hundreds of legal moves (Kozo, Kataboom: a
    ``summarise_prompt`` attribute): the moves counted by their first word (the piece, or
    ``take``/``cube``/``nudge``), e.g. ``364 moves: 2a (40), 3b (52), ...; 'moves' lists them``;
    a handful of moves are shown as they are."""
    if len(texts) <= limit:
        return ", ".join(texts)
    counts: dict[str, int] = {}
    for t in texts:
        word = t.split(" ", 1)[0]
        counts[word] = counts.get(word, 0) + 1
    groups = ", ".join(f"{w} ({n})" for w, n in counts.items())
    return f"{len(texts)} moves: {groups}; 'moves' lists them, 'help' explains them"
