"""Players at a terminal, the generic play loop and balance runs.

Nothing here knows any particular game: it talks to :class:`tablesim.games.core.Game` only, and plays
through :class:`tablesim.games.session.Session` (the one checked path: parse, measure, apply, record).
The log format is in :mod:`tablesim.games.log`; replay is :func:`tablesim.games.session.replay_log`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any, Generic

from tablesim.games.core import C, ConfigError, Game, GameError, M, Referee, Result, S
from tablesim.games.log import LOG_FORMAT, LogError, Record, header_json, log_lines
from tablesim.games.registry import get_game
from tablesim.games.rng import derive_seed
from tablesim.games.session import (
    Observer,
    Played,
    Seat,
    Session,
    UndoRequest,
    bot_seed_for,
    make_seats,
)
from tablesim.games.stats import wilson_interval

__all__ = [
    "LOG_FORMAT",
    "LogError",
    "Record",
    "Seat",
    "Resignation",
    "TerminalHuman",
    "UndoRequest",
    "balance",
    "bot_seed_for",
    "log_header",
    "log_lines",
    "make_seats",
    "parse_players",
    "play_game",
    "wilson_interval",
]


def parse_players(text: str) -> list[str]:
    """Split ``"human,strong"`` into roles; ConfigError on empty names."""
    roles = [r.strip() for r in text.split(",")]
    if not roles or any(not r for r in roles):
        raise ConfigError(f"--players {text!r}: give a comma-separated list such as human,random")
    return roles


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


class TerminalHuman:
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

    def __init__(self, game: Game[Any, Any, Any], inp: IO[str], out: IO[str],
                 roles: Sequence[str] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.game, self.inp, self.out, self.clock = game, inp, out, clock
        self.roles = list(roles) if roles is not None else None

    def who(self, seat: int) -> str:
        """``P1 (human)``: the board's name for ``seat`` and its role."""
        name = self.game.player_name(seat)
        return f"{name} ({self.roles[seat]})" if self.roles else name

    def _listing(self, state: Any, legal: Sequence[Any]) -> str | None:
        """What the prompt lists instead of the legal moves, where the game says (a
        ``prompt_listing(state)`` hook: a Katamino race lists none, since its legal moves are
        the placements the solver kept completable and would give the puzzle away)."""
        hook = getattr(self.game, "prompt_listing", None)
        return None if hook is None else hook(state)

    def _command(self, text: str, state: Any, legal: Sequence[Any], seat: int) -> bool:
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

    def _is_game_move(self, state: Any, text: str, legal: Sequence[Any]) -> bool:
        """True when the game reads ``text`` as one of its moves (legal now or not: a game
        with its own ``undo`` explains why there is nothing to undo)."""
        try:
            self.game.parse_move(state, text)
        except GameError:
            return False
        return True

    def choose(self, state: Any) -> Any:
        """Prompt until a legal move is typed (EOF raises GameError; ``undo`` and ``quit``
        raise UndoRequest and Resignation); stamped with the seconds it took, where timed."""
        shown = self.clock()
        move = self._ask(state)
        stamp = getattr(self.game, "stamp_seconds", None)
        return move if stamp is None else stamp(state, move, self.clock() - shown)

    def _ask(self, state: Any) -> Any:
        legal = self.game.legal_moves(state)
        seat = self.game.current_player(state)
        if seat is None:
            raise GameError(f"{self.game.name}: the game is over; no move to choose")
        forced = getattr(self.game, "forced_move", None)
        only = forced(state) if forced is not None else None
        if only is not None:  # a blocked turn: nothing to choose, played for the person
            print(self.game.describe(state), file=self.out)
            print(f"{self.who(seat)}: no move is possible; "
                  f"{self.game.format_move(state, only)} is played for you", file=self.out)  # fmt: skip
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
            print(f"{self.who(seat)}, your move [{shown}{more}] (help: commands): ", end="",
                  file=self.out, flush=True)  # fmt: skip
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


# ---------------------------------------------------------------------------------------
# The loop
# ---------------------------------------------------------------------------------------
class _OnMove(Observer, Generic[S, M]):
    """Calls ``on_move(state_before, seat, move, state_after)`` after every move."""

    def __init__(self, on_move: Callable[[S, int, M, S], None]) -> None:
        self.on_move = on_move

    def move_played(self, session: Session[Any, Any, Any], played: Played[S, M]) -> None:
        self.on_move(played.before, played.seat, played.move, played.after)


def play_game(
    game: Game[S, M, C],
    config: C,
    seats: Sequence[Seat[S, M]],
    seed: int,
    *,
    human: Callable[[S], M] | None = None,
    on_move: Callable[[S, int, M, S], None] | None = None,
    max_turns: int = 100_000,
    referee: Referee[S, M] | None = None,
) -> Record:
    """Play one game to the end in a :class:`~games.session.Session` and return its record.

    ``human(state)`` chooses for human seats; ``on_move(state_before, seat, move, state_after)``
    is called after every move (printing, logging) with the move as measured. Games whose
    ``referee_name(config)`` is set have every move measured by ``referee`` (made from the
    registry and closed here when not given). Raises GameError if a bot returns an illegal
    move or the game exceeds ``max_turns``.
    """
    observers = [_OnMove(on_move)] if on_move is not None else []
    with Session(
        game, config, seed, seats, referee=referee, observers=observers, max_turns=max_turns
    ) as session:
        session.run(human)
        return session.record()


def log_header(
    game: Game[S, M, C], config: C, seed: int, seats: Sequence[Seat[S, M]], version: str
) -> dict[str, Any]:
    """The header object of a log (see :mod:`tablesim.games.log`)."""
    return header_json(game.name, game.config_to_json(config), seed, seats, version)


# ---------------------------------------------------------------------------------------
# Balance
# ---------------------------------------------------------------------------------------
def balance(
    game_name: str,
    roles: Sequence[str],
    games: int,
    seed: int,
    *,
    options: Mapping[str, Any] | None = None,
    budget: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    on_game: Callable[[int, Result], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` seeded games with seats rotated, and summarise them.

    Game ``i`` uses seed ``series_seed(seed, i)`` and seats the players rotated by ``i`` (seat
    s gets player ``(s + i) % n``), so each player sits in each seat equally often: the same
    games as ``tablesim tournament`` with the same players and seed.
    Returns a JSON-ready dict: ``games``, ``players``, ``wins`` (per entry of ``roles``),
    ``wins_by_seat``, ``draws``, ``first_player_win_rate`` (rate and Wilson 95 % interval),
    ``mean_length`` (moves), ``ends`` (games per way of ending, :func:`end_label`).
    ``on_game(i, result)`` sees each game's result (seats as played) as it ends.
    Deterministic: no timings.
    """
    if games < 1:
        raise ConfigError(f"--games must be >= 1, got {games}")
    game = get_game(game_name)
    n = len(roles)
    config = game.make_config(options or {}, players=n)
    wins = [0] * n
    wins_seat = [0] * n
    draws = 0
    total_len = 0
    ends: dict[str, int] = {}
    for i in range(games):
        gseed = series_seed(seed, i)
        order = [(s + i) % n for s in range(n)]
        seats = make_seats(game_name, [roles[j] for j in order], gseed, budget)
        if any(s.bot is None for s in seats):
            raise ConfigError("balance needs bots in every seat (no 'human')")
        with Session(game, config, gseed, seats) as session:
            result = session.run()
        total_len += session.turns
        if not result.winners:
            draws += 1
        end = end_label(result)
        ends[end] = ends.get(end, 0) + 1
        for seat in result.winners:
            wins_seat[seat] += 1
            wins[order[seat]] += 1
        if on_game is not None:
            on_game(i, result)
        if progress is not None:
            progress(i + 1, games)
    lo, hi = wilson_interval(wins_seat[0], games)
    return {
        "game": game_name,
        "games": games,
        "players": list(roles),
        "wins": wins,
        "wins_by_seat": wins_seat,
        "draws": draws,
        "first_player_win_rate": {
            "rate": round(wins_seat[0] / games, 6),
            "low": round(lo, 6),
            "high": round(hi, 6),
        },
        "mean_length": round(total_len / games, 6),
        "ends": dict(sorted(ends.items())),
    }


def end_label(result: Result) -> str:
    """How a game ended, for counting: the result's ``end`` text (Kaito's ``reason``) with
    seat names (``P2``) and numbers made ``#``, so games ending the same way count together; a
    number inside a word stays ("no 3-set can be formed", not "no #-set")."""
    text = str(result.detail.get("end", result.detail.get("reason", "(no end given)")))
    return re.sub(r"(?<![\w-])\d+(?![\w-])", "#", re.sub(r"\bP\d+\b", "P#", text))


def series_seed(seed: int, index: int) -> int:
    """The seed (63 bits) of game ``index`` of a seeded series: ``balance`` and ``tournament``
    share it, so the same players and seed give the same games in both."""
    return derive_seed("tournament", int(seed), index) & ((1 << 63) - 1)
