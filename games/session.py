"""One game being played: the single checked path for play, replay, undo, films and renders.

A :class:`Session` holds the game (rules), its config and seed, the seats (humans and bots),
the referee that measures moves on a physics table (injected, as dm_control's ``Environment``
wraps a physics and a task; made from the registry when not given) and the log of measured
moves. It knows no physics, no window and no terminal: it is the rules layer, so this module
imports nothing from ``sim``.

Playing a move is always the same four steps, in :meth:`Session.play`::

    text  -> game.parse_move          (Session.play_text; a log's move, a typed move)
    move  -> referee.measure          (games judged by a physics table; else unchanged)
    moved -> game.apply               (the rules; raises IllegalMoveError)
    Played(n, seat, move, before, after) appended to Session.played (its digest of
    the state after, computed when first read)

and then every observer hears :meth:`Observer.move_played` (and :meth:`Observer.game_over`
once the game ends). :meth:`Session.undo` takes moves back (to the last human turn when asked)
by returning to the state before them: states are frozen values, nothing is re-measured, and
a referee asked about an earlier position rebuilds its world from that state (the
:class:`~games.core.Referee` contract). :meth:`Session.follow` plays one move of a log and
checks every recorded field (seat, canonical text, the bot's choice, the digest);
:func:`replay_log` follows a whole log and its result line; :meth:`Session.log_lines` writes
the log (format: :mod:`tablesim.games.log`).

How the window app uses it (``sim/view/app.py``)::

    session = Session.new(game, roles, seed, options=options, budget=budget,
                          observers=[app])          # app implements Observer hooks it needs
    if isinstance(session.referee, PhysicsTable):    # the physics table's read-only pose hook
        session.referee.knock = app._observe
    session.check(move)                              # GameError: why the move is refused
    played = session.play(move)                      # measured, applied, logged, observed
    session.bot_move()                               # the bot's choice for the seat to move
    session.undo(to_human=True)                      # back to the last human turn
    session.log_lines(version())                     # the JSONL log (play --log format)
    session.close()                                  # closes the referee it made

and draws ``session.state``; ``session.played[-1].move`` carries the table's outcome.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Generic

from tablesim.games.core import (
    Bot,
    C,
    ConfigError,
    Game,
    GameError,
    M,
    Referee,
    Result,
    S,
    TableRefused,
    canonical_json,
    make_referee,
)
from tablesim.games.log import (
    GameLog,
    LogError,
    LogHeader,
    MoveEntry,
    Record,
    ResultEntry,
    header_json,
    move_json,
    result_json,
)
from tablesim.games.registry import get_game, make_bot
from tablesim.games.rng import derive_seed

__all__ = [
    "Observer",
    "Played",
    "ReplayReport",
    "Seat",
    "Session",
    "Divergence",
    "UndoRefused",
    "UndoRequest",
    "bot_seed_for",
    "log_header",
    "make_seats",
    "parse_players",
    "play_game",
    "replay_log",
]

MAX_REFUSED = 64
"""How many moves the table may refuse a bot in one state before :meth:`Session.step` gives
up (raising the last :class:`~tablesim.games.core.TableRefused`): a bound, never met in play."""


# ---------------------------------------------------------------------------------------
# Seats
# ---------------------------------------------------------------------------------------
@dataclass
class Seat(Generic[S, M]):
    """One seat at the table: a human or a bot (``bot`` set) of a game with states ``S`` and
    moves ``M``."""

    role: str
    bot: Bot[S, M] | None = None
    bot_seed: int | None = None
    budget: int | None = None

    def to_json(self) -> dict[str, Any]:
        """Log form of the seat."""
        out: dict[str, Any] = {"role": self.role}
        if self.bot is not None:
            out["bot_seed"] = self.bot_seed
            out["budget"] = self.budget
        return out


def bot_seed_for(seed: int, seat: int, role: str) -> int:
    """The seed of the bot in ``seat``: derived from the game seed, so logs replay exactly."""
    return derive_seed("bot", int(seed), seat, role)


def make_seats(
    game_name: str, roles: Sequence[str], seed: int, budget: int | None = None
) -> list[Seat[Any, Any]]:
    """Seats for ``roles`` (``human`` or bot names); raises ConfigError for unknown bots."""
    seats: list[Seat[Any, Any]] = []
    for i, role in enumerate(roles):
        role = role.strip()
        if role == "human":
            seats.append(Seat("human"))
        else:
            s = bot_seed_for(seed, i, role)
            seats.append(Seat(role, make_bot(game_name, role, s, budget), s, budget))
    return seats


def parse_players(text: str) -> list[str]:
    """Split ``"human,strong"`` into roles; ConfigError on empty names."""
    roles = [r.strip() for r in text.split(",")]
    if not roles or any(not r for r in roles):
        raise ConfigError(f"--players {text!r}: give a comma-separated list such as human,random")
    return roles


# ---------------------------------------------------------------------------------------
# What happened, and who is told
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True, init=False)
class Played(Generic[S, M]):
    """One move as played: its number (from 1), the seat, the measured move, the states
    before and after it, its canonical text and the digest of the state after."""

    n: int
    seat: int
    move: M
    before: S
    after: S
    game: Game[S, M, Any] = field(repr=False, compare=False)

    def __init__(
        self, n: int, seat: int, move: M, before: S, after: S, game: Game[S, M, Any]
    ) -> None:
        # the fields written straight into the instance (a frozen dataclass's own __init__
        # pays object.__setattr__ per field, every move of every rollout)
        d = self.__dict__
        d["n"], d["seat"], d["move"], d["before"], d["after"], d["game"] = (
            n, seat, move, before, after, game,
        )  # fmt: skip

    @cached_property
    def text(self) -> str:
        """The move's canonical text (``format_move`` in the state before it), formatted on
        first read (an environment's rollout never reads it; a log, a replay and a terminal
        do, and get the same text)."""
        return self.game.format_move(self.before, self.move)

    @cached_property
    def digest(self) -> str:
        """The digest of the state after the move, computed on first read (an environment's
        rollout never reads it; a log, a replay and undo do, and get the same text)."""
        return self.game.state_digest(self.after)


class Observer:
    """What a session tells the code around it (a terminal, a window, a film, a log writer).

    Subclass and override the hooks you need; each does nothing by default. Observers only
    look: they must not play or undo from inside a hook.
    """

    def move_played(self, session: Session[Any, Any, Any], played: Played[Any, Any]) -> None:
        """``played`` was measured, applied and recorded."""

    def undone(self, session: Session[Any, Any, Any], moves: Sequence[Played[Any, Any]]) -> None:
        """``moves`` (oldest first) were taken back; ``session.state`` is the state before
        the first of them."""

    def game_over(self, session: Session[Any, Any, Any], result: Result) -> None:
        """The game ended with ``result`` (after the move that ended it)."""


class UndoRequest(GameError):
    """Raised by a human input (``human(state)`` in :meth:`Session.step` / :meth:`Session.run`;
    :class:`tablesim.games.terminal.TerminalHuman` when a person types ``undo``) to take back
    moves instead of choosing one: :meth:`Session.run` then calls ``undo(to_human=True)`` and
    asks again. The only undo request of the project."""


class Divergence(GameError):
    """A log that does not reproduce: ``n`` is the first move that differs (None: the
    result line)."""

    def __init__(self, message: str, n: int | None) -> None:
        super().__init__(message)
        self.n = n


# ---------------------------------------------------------------------------------------
# The session
# ---------------------------------------------------------------------------------------
class UndoRefused(GameError):
    """Undo asked where the game refuses it (the message says why); nothing was changed."""


class Session(Generic[S, M, C]):
    """One game: rules, seats, referee, the measured moves so far (see the module docstring).

    ``referee``: the referee to measure moves with (the caller keeps ownership); when None
    and the game's ``referee_name(config)`` is set, one is made from the registry and closed
    by :meth:`close`. ``max_turns`` bounds :meth:`run`.
    """

    def __init__(
        self,
        game: Game[S, M, C],
        config: C,
        seed: int,
        seats: Sequence[Seat[S, M]],
        *,
        referee: Referee[S, M] | None = None,
        observers: Iterable[Observer] = (),
        max_turns: int = 100_000,
    ) -> None:
        self.game = game
        self.config = config
        self.seed = int(seed)
        self.state: S = game.new_game(config, self.seed)
        n = game.num_players(self.state)
        if len(seats) != n:
            raise ConfigError(f"{game.name}: {len(seats)} seats given for {n} players")
        self.seats = list(seats)
        self.observers = list(observers)
        self.max_turns = max_turns
        self.played: list[Played[S, M]] = []
        """Every move played so far, oldest first (undo removes from the end)."""
        self.undone_moves = 0
        """How many moves undo took back in this session: a log of such a game says so in
        its header (``undone``), since a take-back is practice, not rated play."""
        self._own_referee = False
        name = game.referee_name(config)
        if referee is None and name is not None:
            referee = make_referee(name, game, config, self.seed)
            self._own_referee = True
        self.referee = referee
        self.closed = False
        self._refused: tuple[S | None, list[M]] = (None, [])
        """The state and the moves the table refused in it (see :attr:`refused`)."""

    @classmethod
    def new(
        cls,
        game: str,
        roles: Sequence[str],
        seed: int,
        *,
        options: Mapping[str, Any] | None = None,
        budget: int | None = None,
        referee: Referee[S, M] | None = None,
        observers: Iterable[Observer] = (),
    ) -> Session[Any, Any, Any]:
        """A session of the registered ``game`` with ``roles`` (``human`` or bot names) and
        game ``options`` by name (ConfigError for bad options, players or bots)."""
        g = get_game(game)
        config = g.make_config(dict(options or {}), players=len(roles))
        seats = make_seats(g.name, roles, seed, budget)
        return cls(g, config, seed, seats, referee=referee, observers=observers)

    @classmethod
    def from_header(
        cls,
        header: LogHeader,
        *,
        referee: Referee[S, M] | None = None,
        observers: Iterable[Observer] = (),
        source: str = "<log>",
    ) -> Session[Any, Any, Any]:
        """The session a log's header describes, its bots re-made from their logged seeds.
        LogError / ConfigError (bad input) name the key."""
        game = get_game(header.game)
        try:
            config = game.config_from_json(header.config)
        except ConfigError as exc:
            raise LogError(f"{source}: header 'config': {exc}") from None
        seats: list[Seat[Any, Any]] = []
        for i, p in enumerate(header.players):
            if p.role == "human":
                seats.append(Seat("human"))
                continue
            assert p.bot_seed is not None  # parse_log checked it
            try:
                bot = make_bot(game.name, p.role, p.bot_seed, p.budget)
            except ConfigError as exc:
                raise LogError(f"{source}: header players[{i}]: {exc}") from None
            seats.append(Seat(p.role, bot, p.bot_seed, p.budget))
        n = game.num_players(game.new_game(config, header.seed))
        if len(seats) != n:
            raise LogError(
                f"{source}: header 'players' lists {len(seats)} seats; the config is for {n}"
            )
        return cls(game, config, header.seed, seats, referee=referee, observers=observers)

    # ------------------------------------------------------------------ lifecycle
    def close(self) -> None:
        """Close the referee if this session made it (idempotent)."""
        if self.closed:
            return
        self.closed = True
        if self._own_referee and self.referee is not None:
            self.referee.close()

    def __enter__(self) -> Session[S, M, C]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ who and what
    @property
    def over(self) -> bool:
        """True once the game is over."""
        return bool(self.game.is_terminal(self.state))

    @property
    def turns(self) -> int:
        """Number of moves played."""
        return len(self.played)

    @property
    def seat(self) -> int | None:
        """The seat to move, or None when the game is over."""
        return None if self.over else self.game.current_player(self.state)

    @property
    def result(self) -> Result | None:
        """The result once the game is over, else None."""
        return self.game.result(self.state) if self.over else None

    def is_bot(self, seat: int) -> bool:
        """True when a bot sits in ``seat``."""
        return self.seats[seat].bot is not None

    @property
    def has_humans(self) -> bool:
        """True when a person sits in any seat."""
        return any(s.bot is None for s in self.seats)

    # ------------------------------------------------------------------ moves
    def check(self, move: M) -> None:
        """Raise the game's GameError when ``move`` may not be played now (nothing measured,
        nothing applied)."""
        if self.over:
            raise GameError(f"{self.game.name}: the game is over")
        self.game.check_move(self.state, move)

    def bot_move(self) -> M:
        """The move the bot in the seat to move chooses (GameError when it is a human's turn
        or the game is over), leaving out the moves the table refused in this state
        (:attr:`refused`)."""
        seat = self._seat_to_move()
        bot = self.seats[seat].bot
        if bot is None:
            raise GameError(f"{self.game.player_name(seat)} is human: no bot to choose")
        refused = self.refused
        return bot.choose_avoiding(self.state, refused) if refused else bot.choose(self.state)

    @property
    def refused(self) -> tuple[M, ...]:
        """The moves the physics table refused in the current state (:class:`TableRefused`:
        nothing was played), oldest first; empty once a move is played or taken back."""
        at, moves = self._refused
        return tuple(moves) if at is self.state else ()

    def _note_refused(self, move: M) -> None:
        at, moves = self._refused
        self._refused = (self.state, [*moves, move] if at is self.state else [move])

    def _seat_to_move(self) -> int:
        if self.over:
            raise GameError(f"{self.game.name}: the game is over")
        seat = self.game.current_player(self.state)
        if seat is None:
            raise GameError(f"{self.game.name}: no player to move in a non-terminal state")
        return int(seat)

    def play(self, move: M) -> Played[S, M]:
        """Measure (when a referee judges this game), apply and record ``move`` for the seat
        to move; observers are told. Raises GameError (nothing changed) for a move the rules
        refuse."""
        return self.play_as(self._seat_to_move(), move)

    def play_as(self, seat: int, move: M) -> Played[S, M]:
        """:meth:`play` for a caller that has just read the seat to move of the current
        state (``game.current_player(session.state)``: an environment reads it once a step);
        the rules' ``apply`` still checks the move."""
        before = self.state
        if self.referee is not None:
            try:
                move = self.referee.measure(before, move)
            except TableRefused:
                self._note_refused(move)
                raise
        after = self.game.apply(before, move)
        played = Played(len(self.played) + 1, seat, move, before, after, self.game)
        self.played.append(played)
        self.state = after
        if not self.observers:  # (an environment's rollout: nobody to tell)
            return played
        for obs in self.observers:
            obs.move_played(self, played)
        if self.over:  # (the result only when someone is told it)
            result = self.game.result(after)
            for obs in self.observers:
                obs.game_over(self, result)
        return played

    def play_text(self, text: str) -> Played[S, M]:
        """Parse ``text`` (MoveParseError) and play it."""
        return self.play(self.game.parse_move(self.state, text))

    def step(self, human: Callable[[S], M] | None = None) -> Played[S, M]:
        """Play one move for the seat to move: its bot's choice, or ``human(state)`` for a
        human seat (GameError when no human input is connected)."""
        seat = self._seat_to_move()
        if self.seats[seat].bot is not None:
            while True:  # a move the table refuses is not played: the bot chooses another
                try:
                    return self.play(self.bot_move())
                except TableRefused:
                    if len(self.refused) >= MAX_REFUSED:
                        raise
        if human is None:
            raise GameError(
                f"{self.game.player_name(seat)} is human but no human input is connected"
            )
        return self.play(human(self.state))

    def run(self, human: Callable[[S], M] | None = None) -> Result:
        """Play to the end (bots choose; ``human`` for human seats) and return the result;
        GameError when the game exceeds ``max_turns``. A ``human`` that raises
        :class:`UndoRequest` takes back the last move and the bots' replies after it."""
        while not self.over:
            if self.turns >= self.max_turns:
                raise GameError(f"{self.game.name}: no end after {self.max_turns} turns")
            try:
                self.step(human)
            except UndoRequest:
                with contextlib.suppress(UndoRefused):  # asked again; the terminal says why
                    self.undo(to_human=True)
        return self.game.result(self.state)

    def undo(self, *, to_human: bool = False) -> list[Played[S, M]]:
        """Take back the last move; with ``to_human``, also the bots' moves before it until a
        human has the turn (when any seat is human). Returns the moves taken back, oldest
        first (empty when there was nothing to undo); observers are told. Raises
        :class:`UndoRefused` (nothing changed) where the game refuses to take back a move
        that revealed chance or a physical outcome (:meth:`undo_refusal`)."""
        if not self.played:
            return []
        keep = len(self.played) - 1
        if to_human and self.has_humans:
            while keep > 0 and self.seats[self.played[keep].seat].bot is not None:
                keep -= 1
        refusal = self.undo_refusal(keep)
        if refusal is not None:
            raise UndoRefused(refusal)
        return self.undo_to(keep)

    def undo_refusal(self, n: int) -> str | None:
        """Why going back to the state after move ``n`` is refused, or None: the first taken
        back move the game's ``undo_refusal(played)`` hook objects to (a move after which
        dice were rolled, a tower that toppled: taking it back would show the future)."""
        hook = getattr(self.game, "undo_refusal", None)
        if hook is None:
            return None
        for played in self.played[n:]:
            why = hook(played)
            if why is not None:
                return f"undo refused: {why}"
        return None

    def undo_to(self, n: int) -> list[Played[S, M]]:
        """Go back to the state after move ``n`` (0: the start); the moves after it are
        returned (oldest first) and observers told."""
        if not 0 <= n <= len(self.played):
            raise GameError(f"undo to move {n}: {len(self.played)} moves were played")
        gone = self.played[n:]
        if not gone:
            return []
        del self.played[n:]
        self.undone_moves += len(gone)
        self.state = gone[0].before
        for obs in self.observers:
            obs.undone(self, gone)
        return gone

    # ------------------------------------------------------------------ logs
    def follow(self, entry: MoveEntry) -> Played[S, M]:
        """Play the logged move ``entry`` and check every field it recorded: it is the move
        after the ones played (``n``), the game is not over, ``seat`` is the seat to move,
        the text is legal and canonical (``format_move`` gives it back), a bot in that seat
        chooses it again, and the digest of the state after it matches. Divergence (n set)
        when anything differs; nothing is changed then."""
        n, text = entry.n, entry.move
        if n != len(self.played) + 1:
            raise Divergence(f"move {n}: {len(self.played)} moves were played before it", n)
        if self.over:
            raise Divergence(f"move {n} ({text!r}): the game was already over", n)
        seat = self._seat_to_move()
        if entry.seat != seat:
            raise Divergence(
                f"move {n} ({text!r}): the log has a move by "
                f"{self.game.player_name(entry.seat)}, {self.game.player_name(seat)} is to move",
                n,
            )
        try:
            move = self.game.parse_move(self.state, text)
        except GameError as exc:
            raise Divergence(f"move {n} ({text!r}) is not legal on replay: {exc}", n) from None
        canonical = self.game.format_move(self.state, move)
        if canonical != text:
            raise Divergence(
                f"move {n}: the log has {text!r}, whose canonical text is {canonical!r}", n
            )
        bot = self.seats[seat].bot
        if bot is not None:
            self._bot_chooses_again(bot, seat, n, text)
        before = list(self.played)
        try:
            played = self._play_quiet(move)
        except GameError as exc:
            raise Divergence(f"move {n} ({text!r}) is not legal on replay: {exc}", n) from None
        if played.digest != entry.state:
            self.played, self.state = before, played.before
            raise Divergence(
                f"move {n} ({text!r}): state digest {played.digest} differs from the log's "
                f"{entry.state}",
                n,
            )
        self._announce(played)
        return played

    def _bot_chooses_again(self, bot: Bot[S, M], seat: int, n: int, text: str) -> None:
        """Divergence unless the bot in ``seat`` chooses the logged move ``text`` again: as in
        :meth:`step`, a choice the table refuses (measured again: the same seeded table
        refuses it again) is left out and the bot chooses among the rest."""
        refused: list[M] = []
        while True:
            choice = bot.choose_avoiding(self.state, refused) if refused else bot.choose(self.state)
            again = self.game.format_move(self.state, choice)
            if again == text:
                return
            if self.referee is not None and len(refused) < MAX_REFUSED:
                try:
                    self.referee.measure(self.state, choice)
                except TableRefused:
                    refused.append(choice)
                    continue
            raise Divergence(
                f"move {n}: the bot of {self.game.player_name(seat)} now plays {again!r}, the log has "
                f"{text!r}",
                n,
            )

    def _play_quiet(self, move: M) -> Played[S, M]:
        """:meth:`play` without telling the observers (follow tells them once checked)."""
        observers, self.observers = self.observers, []
        try:
            return self.play(move)
        finally:
            self.observers = observers

    def _announce(self, played: Played[S, M]) -> None:
        for obs in self.observers:
            obs.move_played(self, played)
        if self.over:
            result = self.game.result(self.state)
            for obs in self.observers:
                obs.game_over(self, result)

    def check_result(self, entry: ResultEntry | None) -> None:
        """Check the log's result line against the game: it is there, the game is over, and
        turns, winner, winners, scores and the final digest match. Divergence (n None)."""
        last = self.played[-1].digest if self.played else None
        if entry is None:
            state = "the game is over there" if self.over else "the game is not over there"
            raise Divergence(
                f"the log ends after move {self.turns} without its result line ({state})", None
            )
        if not self.over:
            raise Divergence(
                f"the log has a result after move {self.turns} but the game is not over", None
            )
        got = result_json(self.turns, self.game.result(self.state), last)
        logged = {
            "turns": entry.turns,
            "winner": entry.winner,
            "winners": list(entry.winners),
            "scores": list(entry.scores),
            "state": entry.state,
        }
        for key, value in logged.items():
            if got[key] != value:
                raise Divergence(
                    f"result {key}: replay gives {got[key]!r}, the log has {value!r}", None
                )

    def record(self) -> Record:
        """The game so far as a :class:`tablesim.games.log.Record` (texts, seats, digests, result)."""
        rec = Record(
            moves=[p.text for p in self.played],
            seats=[p.seat for p in self.played],
            digests=[p.digest for p in self.played],
        )
        if self.over:
            rec.result = self.game.result(self.state)
            rec.final_state = self.state
        return rec

    def header(self, version: str) -> dict[str, Any]:
        """The log header object of this session (with ``undone``, the number of moves
        taken back, when undo was used: such a game is practice, and a replay says so)."""
        head = header_json(
            self.game.name, self.game.config_to_json(self.config), self.seed, self.seats, version
        )
        if self.undone_moves:
            head["undone"] = self.undone_moves
        return head

    def log_lines(self, version: str) -> list[str]:
        """The log so far as JSON lines (no newlines); the result line once the game is over."""
        lines = [canonical_json(self.header(version))]
        lines.extend(canonical_json(move_json(p.n, p.seat, p.text, p.digest)) for p in self.played)
        if self.over:
            last = self.played[-1].digest if self.played else None
            lines.append(
                canonical_json(result_json(self.turns, self.game.result(self.state), last))
            )
        return lines


# ---------------------------------------------------------------------------------------
# Replay
# ---------------------------------------------------------------------------------------
@dataclass
class ReplayReport:
    """Outcome of a replay: ``ok``, how many moves reproduced, and where and why it diverged."""

    ok: bool
    moves_checked: int
    message: str
    diverged_at: int | None = None
    session: Session | None = None
    """The session after the last reproduced move (closed; its states stay readable)."""


def replay_log(
    log: GameLog,
    *,
    upto: int | None = None,
    referee: Referee[S, M] | None = None,
    observers: Iterable[Observer] = (),
) -> ReplayReport:
    """Re-run ``log`` from a fresh game (never from a saved state): every move measured and
    applied again, every bot choosing again, every recorded field checked, then the result
    line. ``upto`` stops after that many moves (the result is then not checked).

    LogError / ConfigError for a log whose header is unusable (bad input, exit 2); a report
    with ``ok=False`` naming the first divergence otherwise (exit 1).
    """
    if upto is not None and not 0 <= upto <= len(log.moves):
        raise LogError(f"{log.source}: move {upto}: the log has moves 0..{len(log.moves)}")
    session = Session.from_header(
        log.header, referee=referee, observers=observers, source=log.source
    )
    try:
        for entry in log.moves[:upto]:
            session.follow(entry)
        if upto is None:
            session.check_result(log.result)
    except Divergence as exc:
        return ReplayReport(False, session.turns, str(exc), exc.n, session)
    finally:
        session.close()
    note = ""
    if log.header.undone:
        note = (
            f"; played with {log.header.undone} move(s) taken back by undo "
            "(practice, not rated play)"
        )
    if upto is not None:
        return ReplayReport(True, session.turns, f"moves 1..{upto} reproduced{note}", None, session)
    return ReplayReport(
        True,
        session.turns,
        f"all {session.turns} moves and the result reproduced{note}",
        None,
        session,
    )


# ---------------------------------------------------------------------------------------
# One game to the end
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
