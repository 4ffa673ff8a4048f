"""One game API for every tablesim game.

A game is a :class:`Game` object (stateless rules) plus its own frozen ``State`` and ``Move``
values. Everything generic (the play loop, logs, replay, balance runs, conformance tests, the
command line) talks to games only through this interface:

- ``make_config(values, players=n)`` validates options and returns the game's frozen config;
- ``new_game(config, seed)`` returns the initial state; all chance (dice, shuffles, noise) is
  drawn from a :class:`tablesim.games.rng.Rng` stored *inside* the state when a move is applied, so a
  replay of the same moves reproduces the game exactly and bots cannot see future draws;
- ``legal_moves(state)`` returns a sorted tuple; ``apply(state, move)`` returns a new state and
  never mutates its input; ``current_player``, ``is_terminal`` and ``result``;
- moves and states have a text form and a JSON form that round-trip.

Errors are typed and subclass ``ValueError``; they say what was wrong and what is allowed.
"""

from __future__ import annotations

import hashlib
import json
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from tablesim.games.rng import Rng

S = TypeVar("S")  # a game's state type
M = TypeVar("M")  # a game's move type
C = TypeVar("C")  # a game's config type
S_contra = TypeVar("S_contra", contravariant=True)  # a state a protocol only reads


class GameError(ValueError):
    """Base class of every rules error."""


class IllegalMoveError(GameError):
    """A well-formed move that the rules forbid in this state."""


class TableRefused(IllegalMoveError):
    """A move the physics table could not make as the rules allow (a placement with no pose
    within the rule's tolerance that touches, never enters, its neighbours). Nothing was
    played: the player chooses again (a bot another move, a person is told why). The table's
    referee raised it from ``measure``; the message gives the rule's reason."""


class MoveParseError(GameError):
    """Text that is not a move of this game."""


class ConfigError(GameError):
    """A bad game option: names the key, the value, and what is allowed."""


class StateFormatError(GameError):
    """A state text or JSON object that is not a valid state of this game."""


@dataclass(frozen=True)
class Option:
    """A game option, as shown by the command line (``--name value``) and in logs.

    ``kind`` is one of ``int``, ``float``, ``str``, ``bool`` or ``list[int]`` (written
    ``1..10`` or ``2,3,5``). ``choices`` restricts ``str`` options.
    """

    name: str
    kind: str
    default: Any
    help: str
    choices: tuple[str, ...] = ()

    def parse(self, text: str) -> Any:
        """Parse a command-line string into this option's value (raises ConfigError)."""
        try:
            if self.kind == "int":
                return int(text)
            if self.kind == "float":
                return float(text)
            if self.kind == "bool":
                low = text.strip().lower()
                if low in ("1", "true", "yes", "on"):
                    return True
                if low in ("0", "false", "no", "off"):
                    return False
                raise ValueError(text)
            if self.kind == "list[int]":
                return parse_int_list(text)
            return text
        except ValueError:
            raise ConfigError(
                f"option --{self.name.replace('_', '-')}: {text!r} is not a valid {self.kind}"
                + (f" (allowed: {', '.join(self.choices)})" if self.choices else "")
            ) from None


MAX_INT_LIST = 1000
"""The most integers a list option (``"2..12"``) may name: a range is refused before it is
expanded (``1..1000000`` would build a game of a million columns)."""


def parse_int_list(text: str, max_items: int = MAX_INT_LIST) -> list[int]:
    """Parse ``"2..12"`` or ``"1,2,5"`` (or a mix, ``"1..3,7"``) into a list of ints; ValueError
    for anything else or more than ``max_items`` numbers."""
    if len(text) > 100_000:
        raise ValueError("list too long")
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if ".." in part:
            a, b = part.split("..", 1)
            lo, hi = int(a), int(b)
            if hi < lo or hi - lo + 1 + len(out) > max_items:
                raise ValueError(f"{text[:200]}: at most {max_items} numbers")
            out.extend(range(lo, hi + 1))
        elif part:
            out.append(int(part))
            if len(out) > max_items:
                raise ValueError(f"{text[:200]}: at most {max_items} numbers")
    if not out:
        raise ValueError(text)
    return out


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game.

    ``scores`` has one entry per seat. ``winners`` lists the winning seats (several for a team
    win); it is empty for a draw.
    """

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    detail: Mapping[str, Any] = field(default_factory=dict)

    @property
    def winner(self) -> int | None:
        """The winning seat (the lowest seat of a winning team), or None for a draw."""
        return min(self.winners) if self.winners else None

    def to_json(self) -> dict[str, Any]:
        """JSON form (plain numbers, lists; stable key order)."""
        return {
            "winner": self.winner,
            "winners": list(self.winners),
            "scores": [_num(s) for s in self.scores],
            "detail": dict(self.detail),
        }


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else float(x)


def counted(n: int, noun: str, many: str | None = None) -> str:
    """``n`` and ``noun`` as a person reads them: ``1 turn``, ``0 turns``, ``3 turns``
    (``many``: the plural where it is not ``noun + "s"``)."""
    return f"{n} {noun}" if n == 1 else f"{n} {many or noun + 's'}"


def canonical_json(obj: Any) -> str:
    """Compact JSON with sorted keys: the byte-stable text form used for hashing and logs."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


class Game(ABC, Generic[S, M, C]):
    """The rules of one game. Subclasses are stateless; states and moves are frozen values."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options: ClassVar[tuple[Option, ...]] = ()
    playout_options: ClassVar[Mapping[str, Any]] = {}
    """Options for rules-only playouts with no referee (conformance tests), e.g. a stand-in
    judge instead of a physics table."""

    # ---- configuration -------------------------------------------------------------------
    @abstractmethod
    def make_config(self, values: Mapping[str, Any] | None = None, *, players: int) -> C:
        """Validate option ``values`` for ``players`` seats; raise ConfigError naming the key."""

    @abstractmethod
    def config_to_json(self, config: C) -> dict[str, Any]:
        """The config as a JSON object (the inverse of ``make_config``)."""

    def config_from_json(self, obj: Mapping[str, Any]) -> C:
        """Rebuild a config from ``config_to_json`` output."""
        values = dict(obj)
        players = values.pop("players", None)
        if isinstance(players, bool) or not isinstance(players, int):
            raise ConfigError(f"config: key 'players' must be an integer, got {players!r}")
        return self.make_config(values, players=players)

    def check_option_keys(self, values: Mapping[str, Any]) -> None:
        """Raise ConfigError for keys that are not options of this game."""
        known = {o.name for o in self.options}
        for key in values:
            if key not in known:
                allowed = ", ".join(sorted(known)) or "none"
                raise ConfigError(f"{self.name}: unknown option {key!r} (allowed: {allowed})")

    def check_players(self, players: int) -> None:
        """Raise ConfigError unless ``players`` is within this game's seat range."""
        if not self.min_players <= players <= self.max_players:
            raise ConfigError(
                f"{self.name}: {players} players given; it is played by "
                f"{self.min_players} to {self.max_players}"
            )

    # ---- rules ---------------------------------------------------------------------------
    @abstractmethod
    def new_game(self, config: C, seed: int) -> S:
        """The initial state; every chance event later comes from the state's own stream."""

    @abstractmethod
    def legal_moves(self, state: S) -> tuple[M, ...]:
        """All legal moves, sorted; empty only when the state is terminal."""

    @abstractmethod
    def apply(self, state: S, move: M) -> S:
        """The state after ``move``; raises IllegalMoveError; never mutates ``state``."""

    @abstractmethod
    def current_player(self, state: S) -> int | None:
        """The seat to move, or None when the game is over."""

    @abstractmethod
    def is_terminal(self, state: S) -> bool:
        """True once the game is over."""

    @abstractmethod
    def result(self, state: S) -> Result:
        """The result of a terminal state (raises GameError before the end)."""

    @abstractmethod
    def num_players(self, state: S) -> int:
        """Number of seats."""

    def check_move(self, state: S, move: M) -> object:
        """Raise the GameError (usually IllegalMoveError) of the rule ``move`` breaks in
        ``state``, without measuring or applying it; return normally when it may be played.

        The default accepts exactly ``legal_moves(state)`` and takes its reason from
        ``apply``, whose typed error names the rule. Games whose ``legal_moves`` is a
        candidate set (any real pose may be played: Kozo, Kataboom) or which accept moves off
        the list (Katamino's hints) override it; what they return (Kataboom: the margin) is
        theirs.
        """
        if move in self.legal_moves(state):
            return None
        text = self.format_move(state, move)
        try:
            self.apply(state, move)
        except GameError as exc:
            raise IllegalMoveError(f"{text!r} is not legal here: {exc}") from exc
        raise IllegalMoveError(f"{text!r} is not legal here")

    def referee_name(self, config: C) -> str | None:
        """The referee (see :class:`Referee`) that must measure moves under ``config``, or None
        for games whose moves need no measuring (every game without a physical table)."""
        return None

    def turn_number(self, state: S) -> int:
        """Number of moves applied so far (games override if they store it differently)."""
        return int(getattr(state, "turn", 0))

    # ---- text and JSON -------------------------------------------------------------------
    @abstractmethod
    def format_move(self, state: S, move: M) -> str:
        """The move's text form (parsed back by ``parse_move``)."""

    @abstractmethod
    def parse_move(self, state: S, text: str) -> M:
        """Parse a move typed by a person or read from a log; raises MoveParseError."""

    @abstractmethod
    def state_to_json(self, state: S) -> dict[str, Any]:
        """The whole state, including the random stream, as JSON."""

    @abstractmethod
    def state_from_json(self, obj: Mapping[str, Any]) -> S:
        """Rebuild a state from ``state_to_json`` output; raises StateFormatError."""

    def state_to_text(self, state: S) -> str:
        """Canonical one-line text form (sorted, compact JSON)."""
        return canonical_json(self.state_to_json(state))

    def state_from_text(self, text: str) -> S:
        """Inverse of ``state_to_text``."""
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise StateFormatError(f"{self.name}: state text is not JSON: {exc}") from None
        if not isinstance(obj, dict):
            raise StateFormatError(f"{self.name}: state text must be a JSON object")
        return self.state_from_json(obj)

    def state_digest(self, state: S) -> str:
        """A short, stable digest of the canonical text (for logs and replays)."""
        return hashlib.sha256(self.state_to_text(state).encode()).hexdigest()[:16]

    def describe(self, state: S) -> str:
        """A human-readable picture of the state for the terminal (games override)."""
        return self.state_to_text(state)

    def describe_move(self, state: S, move: M) -> str:
        """A short sentence for a move in headless output (games may override)."""
        return self.format_move(state, move)

    def player_name(self, seat: int) -> str:
        """The name the board uses for ``seat`` (``P1`` for seat 0 unless the game names its
        sides, as Kaito's Red and Black); prompts and result lines use the same name."""
        return f"P{seat + 1}"


class Bot(ABC, Generic[S, M]):
    """A computer player of a game with states ``S`` and moves ``M``. Its choices depend only
    on its seed and the state it is shown.

    ``budget`` counts nodes, playouts or iterations (never seconds), so a bot is reproducible.
    """

    name: ClassVar[str]

    def __init__(self, game: Game[S, M, Any], seed: int, budget: int | None = None) -> None:
        self.game = game
        self.seed = int(seed)
        self.budget = budget

    @abstractmethod
    def choose(self, state: S) -> M:
        """Return one legal move for the current player of ``state``."""

    avoid: frozenset[M] = frozenset()
    """Moves the physics table refused in the state being chosen for (:class:`TableRefused`),
    set by :meth:`choose_avoiding`: a bot that lists its moves leaves these out."""

    def choose_avoiding(self, state: S, refused: Iterable[M]) -> M:
        """:meth:`choose` with the moves ``refused`` at the table left out: the bot's own
        choice among the rest (bots that list their moves honour :attr:`avoid`), else the first
        legal move in the rules' order that was not refused. IllegalMoveError when every
        legal move was refused."""
        avoid = frozenset(refused)
        self.avoid = avoid
        try:
            move = self.choose(state)
        finally:
            self.avoid = frozenset()
        if move not in avoid:
            return move
        rest = [m for m in self.game.legal_moves(state) if m not in avoid]
        if not rest:
            raise IllegalMoveError(
                f"{self.game.name}: the table refused every legal move ({len(avoid)})"
            )
        return rest[0]


class Referee(Protocol[S_contra, M]):
    """The table of a physics-judged game: turns an *intended* move into a *measured* move.

    Rules stay pure: ``Game.apply`` never runs physics. A game whose ``referee_name(config)`` is
    not None expects every move that touches the table to arrive measured (carrying what the
    table saw: settled poses, falls); the play loop calls :meth:`measure` between the player's
    choice and ``apply``. Logs keep the intended move's text; replay measures it again, so a
    referee must be deterministic given the game seed and the moves so far (it may cache a
    world between calls and rebuild it from ``state`` when asked about another position).
    Each game's spec names its referees' factories by ``"module:attr"`` string
    (:mod:`tablesim.games.registry`), imported when first asked for, so ``games`` never imports them.

    A typed protocol: any class with these methods is a referee; subclassing it (as the
    physics tables do) inherits the defaults of :meth:`close` and the context manager.
    """

    def measure(self, state: S_contra, move: M) -> M:
        """The move as played at the table (with its measured outcome)."""
        ...

    def close(self) -> None:
        """Release the table's resources (worlds, clients); nothing by default."""

    def __enter__(self) -> Referee[S_contra, M]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


Knock = Callable[[Any, int, float], None]
"""``knock(world, move_index, t)``: called by a physics table at every check instant of every
move it measures (the window draws the fall as it is simulated; tests push pieces)."""


@runtime_checkable
class PhysicsTable(Referee[S_contra, M], Protocol[S_contra, M]):
    """A referee with a simulated world (Kozo's and Kataboom's tables): besides measuring, it
    estimates a move's risk for bots (:meth:`assess`) and lets an observer watch its world
    (:attr:`knock`). ``isinstance(referee, PhysicsTable)`` tells the two kinds apart."""

    knock: Knock | None
    """The observer of the world at every check instant (None: nobody watches)."""

    def assess(
        self, state: S_contra, move: M, *, replicas: int, seconds: float, seed: int
    ) -> float:
        """The probability that ``move`` (intended pose, no hand noise) makes the table fall:
        an estimate for bots, seeded by ``seed``, never touching the table's own world."""
        ...


class RefereeFactory(Protocol[S, M, C]):
    """What a game spec declares per referee name (:class:`tablesim.games.registry.GameSpec`,
    ``referees``): ``factory(game, config, seed)`` makes a new referee of that game's states
    and moves, seeded by ``seed``."""

    def __call__(self, game: Game[S, M, C], config: C, seed: int) -> Referee[S, M]:
        """A new referee for one game of ``game`` under ``config``."""
        ...


def make_referee(name: str, game: Game[S, M, C], config: C, seed: int) -> Referee[S, M]:
    """A new referee ``name`` for one game: the factory its game spec declares
    (:class:`tablesim.games.registry.GameSpec`, ``referees``), ConfigError when it declares none."""
    from tablesim.games import registry  # the registry imports this module

    referee: Referee[S, M] = registry.referee_factory(name, game.name)(game, config, seed)
    return referee


# ---- state JSON readers ------------------------------------------------------------------
# Shared by the games' ``state_from_json``: each raises StateFormatError that says where the
# bad value is (``where``, e.g. ``"kozo state: tower[2].rot"``), what it was and what is allowed.


def state_head(game: Game[Any, Any, C], version: int, config: C, rng: Rng) -> dict[str, Any]:
    """The first keys of a state's JSON: ``game``, ``version``, ``config`` and ``rng`` (16
    lowercase hex digits), read back by :func:`check_state_header`, :func:`state_config` and
    :func:`state_rng`."""
    return {
        "game": game.name,
        "version": version,
        "config": game.config_to_json(config),
        "rng": f"{rng.state:016x}",
    }


def check_state_header(obj: Any, game: str, version: int) -> None:
    """StateFormatError unless ``obj`` is a JSON object with ``game`` and ``version`` as given."""
    if not isinstance(obj, Mapping):
        raise StateFormatError(f"{game} state: must be a JSON object")
    if obj.get("game") != game or obj.get("version") != version:
        raise StateFormatError(
            f"{game} state: expected game {game!r} version {version}, got "
            f"{obj.get('game')!r} version {obj.get('version')!r}"
        )


def state_config(game: Game[Any, Any, C], obj: Mapping[str, Any]) -> C:
    """The config stored under ``obj["config"]``; StateFormatError when missing or invalid."""
    config_obj = obj.get("config")
    if not isinstance(config_obj, Mapping):
        raise StateFormatError(f"{game.name} state: 'config' must be an object")
    try:
        return game.config_from_json(config_obj)
    except ConfigError as exc:
        raise StateFormatError(f"{game.name} state: bad config: {exc}") from None


def state_rng(game: str, value: Any) -> Rng:
    """The random stream stored as 16 lowercase hex digits (``state["rng"]``)."""
    if not isinstance(value, str) or not re.fullmatch(r"[0-9a-f]{16}", value):
        raise StateFormatError(
            f"{game} state: 'rng' must be 16 lowercase hex digits, got {value!r}"
        )
    return Rng(int(value, 16))


def json_int(value: Any, where: str, lo: int | None = None, hi: int | None = None) -> int:
    """An integer (not a bool), within ``lo..hi`` when both are given."""
    ranged = lo is not None and hi is not None
    ok = isinstance(value, int) and not isinstance(value, bool)
    if ok and lo is not None and hi is not None:
        ok = lo <= value <= hi
    if not ok:
        allowed = f" in {lo}..{hi}" if ranged else ""
        raise StateFormatError(f"{where} must be an integer{allowed}, got {value!r}")
    return int(value)


def json_opt_int(value: Any, where: str) -> int | None:
    """None (JSON null) or an integer."""
    return None if value is None else json_int(value, where)


def json_ints(
    value: Any,
    where: str,
    length: int | None = None,
    lo: int | None = None,
    hi: int | None = None,
) -> tuple[int, ...]:
    """A list of integers (each within ``lo..hi`` when given), of ``length`` when given."""
    if not isinstance(value, list) or (length is not None and len(value) != length):
        size = f" of length {length}" if length is not None else ""
        raise StateFormatError(f"{where} must be a list{size}, got {value!r}")
    return tuple(json_int(v, f"{where}[{i}]", lo, hi) for i, v in enumerate(value))


def json_floats(value: Any, where: str, length: int) -> tuple[float, ...]:
    """A list of ``length`` numbers (ints or floats, not bools), returned as floats."""
    if not isinstance(value, list) or len(value) != length:
        raise StateFormatError(f"{where} must be a list of {length} numbers, got {value!r}")
    for i, v in enumerate(value):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise StateFormatError(f"{where}[{i}] must be a number, got {v!r}")
    return tuple(float(v) for v in value)
