"""The JSONL game log: its format, a strict reader and the writer.

A log is JSON Lines, one object per line, keys sorted, compact (:func:`tablesim.games.core.canonical_json`),
format ``tablesim-log/1``:

- line 1, the header: ``{"type": "header", "format", "game", "config", "seed", "players",
  "version"}``. ``config`` is the game's ``config_to_json`` object, ``seed`` the game seed (an
  integer), ``players`` one object per seat: ``{"role": "human"}`` or ``{"role": BOT,
  "bot_seed": int, "budget": int | null}``; ``version`` is the tablesim version that wrote it;
  an optional ``"undone": N`` (N >= 1) marks a game in which undo took back N moves
  (practice, not rated play; replay says so);
- one line per move: ``{"type": "move", "n", "seat", "move", "state"}``: ``n`` counts from 1,
  ``seat`` is the seat that moved, ``move`` the move's canonical text (``format_move``; for a
  move a physics table measured, the *intended* move: replay measures it again) and ``state``
  the 16-hex-digit :meth:`~games.core.Game.state_digest` of the state after it;
- the last line, the result: ``{"type": "result", "turns", "winner", "winners", "scores",
  "state"}``: the number of moves, the winning seat (or null), every winning seat, the scores
  and the digest of the final state (null when no move was made).

Only finished games are logged, so the result line is required. :func:`read_log` checks the
structure (every key present and of its type, no unknown key, moves numbered 1, 2, ..., one
result line and nothing after it) and raises :class:`LogError` naming the file, the line and
the key: bad input, exit 2. Whether the moves *reproduce* is for the replay
(:func:`tablesim.games.session.replay_log`): exit 1 naming the first divergence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tablesim.games.core import Result, canonical_json

LOG_FORMAT = "tablesim-log/1"

HEADER_KEYS = ("type", "format", "game", "config", "seed", "players", "version")
MOVE_KEYS = ("type", "n", "seat", "move", "state")
RESULT_KEYS = ("type", "turns", "winner", "winners", "scores", "state")


class LogError(ValueError):
    """A log file that cannot be read: names the file, the line and what was wrong."""


@dataclass(frozen=True)
class SeatEntry:
    """One seat of a log header: ``role`` (``human`` or a bot name), and for bots the bot's
    seed and budget."""

    role: str
    bot_seed: int | None = None
    budget: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The header form of the seat."""
        if self.role == "human":
            return {"role": self.role}
        return {"role": self.role, "bot_seed": self.bot_seed, "budget": self.budget}


@dataclass(frozen=True)
class LogHeader:
    """A checked header: the game's name, its config as JSON, the seed, the seats."""

    game: str
    config: Mapping[str, Any]
    seed: int
    players: tuple[SeatEntry, ...]
    version: str | None = None
    undone: int = 0
    """Moves taken back by undo while the game was played (optional key ``undone``; 0 when
    absent): such a game is practice, not rated play."""


@dataclass(frozen=True)
class MoveEntry:
    """One move line: number, seat, canonical text and the digest of the state after it."""

    n: int
    seat: int
    move: str
    state: str
    line: int = 0
    """The line of the file it was read from (0 when not read from a file)."""


@dataclass(frozen=True)
class ResultEntry:
    """The result line."""

    turns: int
    winner: int | None
    winners: tuple[int, ...]
    scores: tuple[float, ...]
    state: str | None
    line: int = 0


@dataclass(frozen=True)
class GameLog:
    """A parsed log: the header, the moves, the result (None when the file has none: replay
    reports such a log as cut short)."""

    header: LogHeader
    moves: tuple[MoveEntry, ...]
    result: ResultEntry | None
    source: str = "<log>"


@dataclass
class Record:
    """What a game leaves for its log: move texts, seats, digests, the result once over."""

    moves: list[str] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)
    result: Result | None = None
    final_state: Any = None

    @property
    def turns(self) -> int:
        """Number of moves played."""
        return len(self.moves)


# ---------------------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------------------
def header_json(
    game: str, config: Mapping[str, Any], seed: int, players: Sequence[Any], version: str
) -> dict[str, Any]:
    """The header object (``players``: :class:`SeatEntry` or anything with ``to_json``)."""
    return {
        "type": "header",
        "format": LOG_FORMAT,
        "game": game,
        "config": dict(config),
        "seed": int(seed),
        "players": [p.to_json() for p in players],
        "version": version,
    }


def move_json(n: int, seat: int, text: str, digest: str) -> dict[str, Any]:
    """A move line's object."""
    return {"type": "move", "n": n, "seat": seat, "move": text, "state": digest}


def result_json(turns: int, result: Result, digest: str | None) -> dict[str, Any]:
    """The result line's object."""
    res = result.to_json()
    return {
        "type": "result",
        "turns": turns,
        "winner": res["winner"],
        "winners": res["winners"],
        "scores": res["scores"],
        "state": digest,
    }


def log_lines(header: Mapping[str, Any], rec: Record) -> list[str]:
    """The whole log of a game as JSON lines (without newlines); the result line only when
    ``rec.result`` is set."""
    lines = [canonical_json(dict(header))]
    for i, (mv, seat, dg) in enumerate(zip(rec.moves, rec.seats, rec.digests, strict=True)):
        lines.append(canonical_json(move_json(i + 1, seat, mv, dg)))
    if rec.result is not None:
        last = rec.digests[-1] if rec.digests else None
        lines.append(canonical_json(result_json(rec.turns, rec.result, last)))
    return lines


# ---------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------
def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_digest(v: Any) -> bool:
    return isinstance(v, str) and len(v) == 16 and all(c in "0123456789abcdef" for c in v)


class _Line:
    """One object of the log being read, with where it came from for error messages."""

    def __init__(self, obj: dict[str, Any], where: str, what: str) -> None:
        self.obj, self.where, self.what = obj, where, what

    def keys(self, allowed: Sequence[str]) -> None:
        for key in allowed:
            if key not in self.obj:
                raise LogError(f"{self.where}: {self.what} lacks key {key!r}")
        for key in self.obj:
            if key not in allowed:
                raise LogError(
                    f"{self.where}: {self.what} has unknown key {key!r} "
                    f"(keys: {', '.join(allowed)})"
                )

    def bad(self, key: str, wanted: str) -> LogError:
        return LogError(
            f"{self.where}: {self.what} {key!r} must be {wanted}, got {_quote(self.obj[key])}"
        )


from tablesim.games.limits import MAX_BUDGET, MAX_SEED  # noqa: E402  (as the command line's)

MAX_BOT_SEED = 2**64 - 1
"""The largest bot seed (bots' seeds are 64-bit digests of the game seed and the seat)."""
_VERSION_RE = re.compile(r"^(\d{1,9})((?:\.\d{1,9}){0,5})([-+.a-zA-Z0-9]{0,40})$")


def _quote(value: Any) -> str:
    """``repr`` of a value cut to 200 characters (messages never repeat a huge value)."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**200 else "a huge integer"
    return text if len(text) <= 200 else text[:200] + f"... ({len(text)} characters)"


def _release(version: str) -> tuple[int, ...] | None:
    m = _VERSION_RE.match(version)
    if m is None:
        return None
    return tuple(int(x) for x in (m.group(1) + m.group(2)).split("."))


def running_version() -> str:
    """The installed tablesim's version (``0+unknown`` from a bare source tree)."""
    try:
        from importlib.metadata import version

        return version("tablesim")
    except Exception:
        return "0+unknown"


def version_problem(value: Any) -> str | None:
    """Why ``value`` cannot be a log header's ``version``, or None: a non-empty string of at
    most 64 printable characters (``0.1.0``; tools may write a label such as ``test``), and a
    release number not newer than the tablesim reading it (whose rules may differ)."""
    if not isinstance(value, str) or not value.strip():
        return "expected the tablesim version that wrote the log, such as '0.1.0'"
    if len(value) > 64 or not value.isprintable():
        return "not a version (at most 64 printable characters, such as '0.1.0')"
    mine = running_version()
    theirs, ours = _release(value), _release(mine)
    if theirs is not None and ours is not None and "unknown" not in mine and theirs > ours:
        return f"written by a newer tablesim than this one ({mine}); upgrade to replay it"
    return None


def _header(line: _Line) -> LogHeader:
    obj = line.obj
    if "format" in obj and obj["format"] != LOG_FORMAT:
        raise LogError(f"{line.where}: format {obj['format']!r}, expected {LOG_FORMAT!r}")
    undone = obj.get("undone", 0)
    if "undone" in obj and (not _is_int(undone) or undone < 1):
        raise line.bad("undone", "a positive integer (moves taken back by undo)")
    line.keys(HEADER_KEYS + (("undone",) if "undone" in obj else ()))
    if not isinstance(obj["game"], str):
        raise line.bad("game", "a game name")
    if not isinstance(obj["config"], dict):
        raise line.bad("config", "an object (the game's options)")
    if not _is_int(obj["seed"]) or not 0 <= obj["seed"] <= MAX_SEED:
        raise line.bad("seed", f"an integer in 0..{MAX_SEED}")
    problem = version_problem(obj["version"])
    if problem:
        raise LogError(f"{line.where}: header 'version' {_quote(obj['version'])}: {problem}")
    if not isinstance(obj["players"], list) or not obj["players"]:
        raise line.bad("players", "a list with one object per seat")
    seats = []
    for i, p in enumerate(obj["players"]):
        at = f"{line.where}: header players[{i}]"
        if not isinstance(p, dict) or not isinstance(p.get("role"), str) or not p["role"]:
            raise LogError(f"{at} must be an object with a 'role' (human or a bot name), got {p!r}")
        if p["role"] == "human":
            extra = sorted(set(p) - {"role"})
            if extra:
                raise LogError(f"{at}: a human seat has only 'role', not {extra[0]!r}")
            seats.append(SeatEntry("human"))
            continue
        for key in ("bot_seed", "budget"):
            if key not in p:
                raise LogError(f"{at}: the bot {p['role']!r} lacks key {key!r}")
        extra = sorted(set(p) - {"role", "bot_seed", "budget"})
        if extra:
            raise LogError(f"{at}: unknown key {extra[0]!r} (role, bot_seed, budget)")
        if not _is_int(p["bot_seed"]) or not 0 <= p["bot_seed"] <= MAX_BOT_SEED:
            raise LogError(
                f"{at}: 'bot_seed' must be an integer in 0..{MAX_BOT_SEED}, "
                f"got {_quote(p['bot_seed'])}"
            )
        if p["budget"] is not None and (
            not _is_int(p["budget"]) or not 1 <= p["budget"] <= MAX_BUDGET
        ):
            raise LogError(
                f"{at}: 'budget' must be an integer in 1..{MAX_BUDGET} (as --budget) or null, "
                f"got {_quote(p['budget'])}"
            )
        seats.append(SeatEntry(p["role"], p["bot_seed"], p["budget"]))
    return LogHeader(obj["game"], obj["config"], obj["seed"], tuple(seats), obj["version"], undone)


def _move(line: _Line, n_expected: int, lineno: int) -> MoveEntry:
    obj = line.obj
    line.keys(MOVE_KEYS)
    if not _is_int(obj["n"]):
        raise line.bad("n", "an integer")
    if obj["n"] != n_expected:
        raise LogError(f"{line.where}: move number {obj['n']}, expected {n_expected}")
    if not _is_int(obj["seat"]) or obj["seat"] < 0:
        raise line.bad("seat", "a seat number (an integer >= 0)")
    if not isinstance(obj["move"], str) or len(obj["move"]) > 1000:
        raise line.bad("move", "the move's text (at most 1000 characters, as play reads them)")
    if not _is_digest(obj["state"]):
        raise line.bad("state", "a digest of 16 hex digits")
    return MoveEntry(obj["n"], obj["seat"], obj["move"], obj["state"], lineno)


def _result(line: _Line, lineno: int) -> ResultEntry:
    obj = line.obj
    line.keys(RESULT_KEYS)
    if not _is_int(obj["turns"]) or obj["turns"] < 0:
        raise line.bad("turns", "an integer >= 0")
    if obj["winner"] is not None and not _is_int(obj["winner"]):
        raise line.bad("winner", "a seat number or null")
    if not isinstance(obj["winners"], list) or not all(_is_int(w) for w in obj["winners"]):
        raise line.bad("winners", "a list of seat numbers")
    if not isinstance(obj["scores"], list) or not all(_is_num(s) for s in obj["scores"]):
        raise line.bad("scores", "a list of numbers")
    if obj["state"] is not None and not _is_digest(obj["state"]):
        raise line.bad("state", "a digest of 16 hex digits or null")
    return ResultEntry(
        obj["turns"],
        obj["winner"],
        tuple(obj["winners"]),
        tuple(obj["scores"]),
        obj["state"],
        lineno,
    )


def parse_log(lines: Iterable[str], source: str = "<log>") -> GameLog:
    """Parse and check a log's structure (see the module docstring); LogError names the line.

    Blank lines are skipped. The result line may be missing (replay reports that log as cut
    short, exit 1); a second header, a second result line or a move after the result are
    errors here.
    """
    import json

    header: LogHeader | None = None
    moves: list[MoveEntry] = []
    result: ResultEntry | None = None
    for lineno, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        where = f"{source}:{lineno}"
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise LogError(f"{where}: not JSON ({exc.msg})") from None
        except RecursionError:
            raise LogError(f"{where}: not JSON (nested too deeply)") from None
        except ValueError as exc:  # an integer of over 4300 digits (Python's int-str limit)
            raise LogError(f"{where}: not a usable JSON line ({str(exc)[:120]})") from None
        if not isinstance(obj, dict) or "type" not in obj:
            raise LogError(f"{where}: expected an object with a 'type' key")
        kind = obj["type"]
        if kind == "header":
            if header is not None:
                raise LogError(f"{where}: a second header")
            header = _header(_Line(obj, where, "header"))
        elif header is None:
            raise LogError(f"{where}: the first line must be the header")
        elif result is not None:
            raise LogError(
                f"{where}: a {kind!r} line after the result line (line {result.line}); "
                "the result is the last line"
            )
        elif kind == "move":
            moves.append(_move(_Line(obj, where, "move"), len(moves) + 1, lineno))
        elif kind == "result":
            result = _result(_Line(obj, where, "result"), lineno)
        else:
            raise LogError(f"{where}: unknown line type {kind!r} (header, move, result)")
    if header is None:
        raise LogError(f"{source}: empty log (no header)")
    return GameLog(header, tuple(moves), result, source)


def read_log_file(path: str) -> GameLog:
    """Read and parse a log file (LogError for a missing, unreadable or non-UTF-8 file)."""
    from tablesim.games.inputs import InputTooLargeError, read_limited

    try:
        text = read_limited(path, "log").decode("utf-8")
    except InputTooLargeError as exc:
        raise LogError(str(exc)) from None
    except FileNotFoundError:
        raise LogError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise LogError(f"{path}: is a directory, expected a log file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise LogError(f"{path}: cannot read: {exc}") from None
    return parse_log(text.splitlines(), path)
