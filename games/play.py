"""The generic play loop, players, JSONL logs, replay and balance runs.

Nothing here knows any particular game: it talks to :class:`games.core.Game` only.

Log format (JSON Lines, one object per line, keys sorted, compact):

- header: ``{"type": "header", "format": "tablesim-log/1", "game", "config", "seed",
  "players", "version"}``; ``players`` lists each seat's role (``human`` or a bot name) and,
  for bots, ``bot_seed`` and ``budget``;
- one line per move: ``{"type": "move", "n", "seat", "move", "state"}`` where ``move`` is the
  move's text form and ``state`` the digest of the state *after* it;
- the end: ``{"type": "result", "turns", "winner", "winners", "scores", "state"}``.

Replaying re-applies every move from a fresh ``new_game`` (never from a saved state), asks every
bot seat to choose again, and compares moves, digests and the result.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from games.core import (
    Bot,
    ConfigError,
    Game,
    GameError,
    Referee,
    Result,
    canonical_json,
    make_referee,
)
from games.registry import get_game, make_bot
from games.rng import derive_seed

LOG_FORMAT = "tablesim-log/1"


class LogError(ValueError):
    """A log file that cannot be read: names the line and what was wrong."""


# ---------------------------------------------------------------------------------------
# Players
# ---------------------------------------------------------------------------------------
@dataclass
class Seat:
    """One seat at the table: a human or a bot (``bot`` set)."""

    role: str
    bot: Bot | None = None
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
) -> list[Seat]:
    """Seats for ``roles`` (``human`` or bot names); raises ConfigError for unknown bots."""
    seats = []
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


class TerminalHuman:
    """Asks a person for moves on a terminal; re-prompts on a bad or illegal move.

    Games that time a person's moves (a ``stamp_seconds(state, move, seconds)`` hook) get the
    seconds since the position was first shown, measured here by ``clock``: rules never read
    a clock themselves."""

    def __init__(self, game: Game[Any, Any, Any], inp: IO[str], out: IO[str],
                 clock: Callable[[], float] = time.monotonic) -> None:  # fmt: skip
        self.game, self.inp, self.out, self.clock = game, inp, out, clock

    def choose(self, state: Any) -> Any:
        """Prompt until a legal move is typed (EOF raises GameError)."""
        shown = self.clock()
        move = self._ask(state)
        stamp = getattr(self.game, "stamp_seconds", None)
        return move if stamp is None else stamp(state, move, self.clock() - shown)

    def _ask(self, state: Any) -> Any:
        legal = self.game.legal_moves(state)
        seat = self.game.current_player(state)
        while True:
            print(self.game.describe(state), file=self.out)
            shown = ", ".join(self.game.format_move(state, m) for m in legal[:40])
            more = f" (+{len(legal) - 40} more)" if len(legal) > 40 else ""
            print(f"seat {seat}, your move [{shown}{more}]: ", end="", file=self.out, flush=True)
            line = self.inp.readline()
            if not line:
                raise GameError("input ended before the game did")
            text = line.strip()
            try:
                move = self.game.parse_move(state, text)
                if move not in legal:
                    # Games whose legal_moves is a candidate set accept any move their
                    # check_move passes (a hook); touch-move games then bind what was named.
                    check = getattr(self.game, "check_move", None)
                    try:
                        if check is None:
                            _explain_illegal(self.game, state, move, text)
                        else:
                            check(state, move)
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
                print(f"  not accepted: {exc}", file=self.out)


def _explain_illegal(game: Game[Any, Any, Any], state: Any, move: Any, text: str) -> None:
    """Raise the game's own reason why ``move`` (parsed, not legal) is refused.

    ``apply`` validates its move in every game, so its typed error says why (which rule);
    a game whose ``apply`` accepts the move anyway still gets a plain refusal.
    """
    try:
        game.apply(state, move)
    except GameError as exc:
        raise GameError(f"{text!r} is not legal here: {exc}") from exc
    raise GameError(f"{text!r} is not legal here")


# ---------------------------------------------------------------------------------------
# The loop
# ---------------------------------------------------------------------------------------
@dataclass
class Record:
    """What a finished game leaves: moves (text), digests, result, number of turns."""

    moves: list[str] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)
    result: Result | None = None
    final_state: Any = None

    @property
    def turns(self) -> int:
        """Number of moves played."""
        return len(self.moves)


def play_game(
    game: Game[Any, Any, Any],
    config: Any,
    seats: Sequence[Seat],
    seed: int,
    *,
    human: Callable[[Any], Any] | None = None,
    on_move: Callable[[Any, int, Any, Any], None] | None = None,
    max_turns: int = 100_000,
    referee: Referee | None = None,
) -> Record:
    """Play one game to the end.

    ``human(state)`` chooses for human seats; ``on_move(state_before, seat, move, state_after)``
    is called after every move (printing, logging) with the move as measured. Games whose
    ``referee_name(config)`` is set have every move measured by ``referee`` (made from the
    registry and closed here when not given). Raises GameError if a bot returns an illegal
    move or the game exceeds ``max_turns``.
    """
    own = None
    name = game.referee_name(config)
    if referee is None and name is not None:
        referee = own = make_referee(name, game, config, seed)
    try:
        return _play(game, config, seats, seed, human, on_move, max_turns, referee)
    finally:
        if own is not None:
            own.close()


def _play(
    game: Game[Any, Any, Any],
    config: Any,
    seats: Sequence[Seat],
    seed: int,
    human: Callable[[Any], Any] | None,
    on_move: Callable[[Any, int, Any, Any], None] | None,
    max_turns: int,
    referee: Referee | None,
) -> Record:
    state = game.new_game(config, seed)
    rec = Record()
    while not game.is_terminal(state):
        if rec.turns >= max_turns:
            raise GameError(f"{game.name}: no end after {max_turns} turns")
        seat = game.current_player(state)
        if seat is None:
            raise GameError(f"{game.name}: no player to move in a non-terminal state")
        player = seats[seat]
        if player.bot is not None:
            move = player.bot.choose(state)
        elif human is not None:
            move = human(state)
        else:
            raise GameError(f"seat {seat} is human but no human input is connected")
        if referee is not None:
            move = referee.measure(state, move)
        after = game.apply(state, move)
        rec.moves.append(game.format_move(state, move))
        rec.seats.append(seat)
        rec.digests.append(game.state_digest(after))
        if on_move is not None:
            on_move(state, seat, move, after)
        state = after
    rec.result = game.result(state)
    rec.final_state = state
    return rec


# ---------------------------------------------------------------------------------------
# Logs
# ---------------------------------------------------------------------------------------
def log_header(
    game: Game[Any, Any, Any], config: Any, seed: int, seats: Sequence[Seat], version: str
) -> dict[str, Any]:
    """The header object of a log."""
    return {
        "type": "header",
        "format": LOG_FORMAT,
        "game": game.name,
        "config": game.config_to_json(config),
        "seed": int(seed),
        "players": [s.to_json() for s in seats],
        "version": version,
    }


def log_lines(header: Mapping[str, Any], rec: Record) -> list[str]:
    """The whole log of a finished game as JSON lines (without newlines)."""
    lines = [canonical_json(dict(header))]
    for i, (mv, seat, dg) in enumerate(zip(rec.moves, rec.seats, rec.digests, strict=True)):
        lines.append(
            canonical_json({"type": "move", "n": i + 1, "seat": seat, "move": mv, "state": dg})
        )
    if rec.result is not None:
        res = rec.result.to_json()
        lines.append(
            canonical_json(
                {
                    "type": "result",
                    "turns": rec.turns,
                    "winner": res["winner"],
                    "winners": res["winners"],
                    "scores": res["scores"],
                    "state": rec.digests[-1] if rec.digests else None,
                }
            )
        )
    return lines


def read_log(
    lines: Iterable[str], source: str = "<log>"
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any] | None]:
    """Parse a log into (header, moves, result); LogError names the line that is wrong."""
    header: dict[str, Any] | None = None
    moves: list[dict[str, Any]] = []
    result: dict[str, Any] | None = None
    for lineno, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise LogError(f"{source}:{lineno}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict) or "type" not in obj:
            raise LogError(f"{source}:{lineno}: expected an object with a 'type' key")
        kind = obj["type"]
        if kind == "header":
            if header is not None:
                raise LogError(f"{source}:{lineno}: a second header")
            for key in ("format", "game", "config", "seed", "players"):
                if key not in obj:
                    raise LogError(f"{source}:{lineno}: header lacks key {key!r}")
            if obj["format"] != LOG_FORMAT:
                raise LogError(
                    f"{source}:{lineno}: format {obj['format']!r}, expected {LOG_FORMAT!r}"
                )
            header = obj
        elif header is None:
            raise LogError(f"{source}:{lineno}: the first line must be the header")
        elif kind == "move":
            for key in ("n", "move"):
                if key not in obj:
                    raise LogError(f"{source}:{lineno}: move lacks key {key!r}")
            if obj["n"] != len(moves) + 1:
                raise LogError(
                    f"{source}:{lineno}: move number {obj['n']}, expected {len(moves) + 1}"
                )
            moves.append(obj)
        elif kind == "result":
            result = obj
        else:
            raise LogError(f"{source}:{lineno}: unknown line type {kind!r} (header, move, result)")
    if header is None:
        raise LogError(f"{source}: empty log (no header)")
    return header, moves, result


@dataclass
class ReplayReport:
    """Outcome of a replay: ``ok``, and where and why it diverged if not."""

    ok: bool
    moves_checked: int
    message: str
    diverged_at: int | None = None


def replay(
    header: Mapping[str, Any], moves: Sequence[Mapping[str, Any]], result: Mapping[str, Any] | None
) -> ReplayReport:
    """Re-run a parsed log from a fresh game; bots choose again and must agree.

    Raises ConfigError/LogError for a log whose header is unusable (bad input); returns a
    report with ``ok=False`` naming the first divergent move when the game does not reproduce.
    """
    game = get_game(str(header["game"]))
    config = game.config_from_json(header["config"])
    seed = int(header["seed"])
    players = header["players"]
    if not isinstance(players, list) or len(players) != game.num_players(
        game.new_game(config, seed)
    ):
        raise LogError("header 'players' must list one entry per seat")
    bots: list[Bot | None] = []
    for i, p in enumerate(players):
        role = p.get("role") if isinstance(p, dict) else None
        if not isinstance(role, str):
            raise LogError(f"header players[{i}] needs a 'role'")
        bots.append(
            None
            if role == "human"
            else make_bot(game.name, role, int(p["bot_seed"]), p.get("budget"))
        )
    name = game.referee_name(config)
    referee = make_referee(name, game, config, seed) if name is not None else None
    try:
        return _replay_moves(game, config, seed, bots, moves, result, referee)
    finally:
        if referee is not None:
            referee.close()


def _replay_moves(
    game: Game[Any, Any, Any],
    config: Any,
    seed: int,
    bots: Sequence[Bot | None],
    moves: Sequence[Mapping[str, Any]],
    result: Mapping[str, Any] | None,
    referee: Referee | None,
) -> ReplayReport:
    state = game.new_game(config, seed)
    for i, entry in enumerate(moves, start=1):
        text = str(entry["move"])
        if game.is_terminal(state):
            return ReplayReport(False, i - 1, f"move {i} ({text!r}): the game was already over", i)
        seat = game.current_player(state)
        try:
            move = game.parse_move(state, text)
            if referee is not None:
                move = referee.measure(state, move)
            after = game.apply(state, move)
        except GameError as exc:
            return ReplayReport(
                False, i - 1, f"move {i} ({text!r}) is not legal on replay: {exc}", i
            )
        bot = bots[seat] if seat is not None else None
        if bot is not None:
            again = game.format_move(state, bot.choose(state))
            if again != text:
                return ReplayReport(
                    False,
                    i - 1,
                    f"move {i}: the bot in seat {seat} now plays {again!r}, the log has {text!r}",
                    i,
                )
        digest = game.state_digest(after)
        if "state" in entry and entry["state"] != digest:
            return ReplayReport(
                False,
                i - 1,
                f"move {i} ({text!r}): state digest {digest} differs from the log's {entry['state']}",
                i,
            )
        state = after
    if result is not None:
        if not game.is_terminal(state):
            return ReplayReport(
                False,
                len(moves),
                "the log has a result but the game is not over after its moves",
                len(moves) + 1,
            )
        got = game.result(state).to_json()
        for key in ("winners", "scores"):
            if key in result and result[key] != got[key]:
                return ReplayReport(
                    False,
                    len(moves),
                    f"result {key}: replay gives {got[key]}, the log has {result[key]}",
                    None,
                )
    return ReplayReport(True, len(moves), f"all {len(moves)} moves and the result reproduced")


# ---------------------------------------------------------------------------------------
# Balance
# ---------------------------------------------------------------------------------------
def wilson_interval(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95 % by default); (0, 1) when n = 0."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def balance(
    game_name: str,
    roles: Sequence[str],
    games: int,
    seed: int,
    *,
    options: Mapping[str, Any] | None = None,
    budget: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` seeded games with seats rotated, and summarise them.

    Game ``i`` uses seed ``derive_seed("balance", seed, i)`` and seats the players rotated by
    ``i`` (seat s gets player ``(s + i) % n``), so each player sits in each seat equally often.
    Returns a JSON-ready dict: ``games``, ``players``, ``wins`` (per entry of ``roles``),
    ``wins_by_seat``, ``draws``, ``first_player_win_rate`` (rate and Wilson 95 % interval),
    ``mean_length`` (moves). Deterministic: no timings.
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
    for i in range(games):
        gseed = derive_seed("balance", int(seed), i)
        order = [(s + i) % n for s in range(n)]
        seats = make_seats(game_name, [roles[j] for j in order], gseed, budget)
        if any(s.bot is None for s in seats):
            raise ConfigError("balance needs bots in every seat (no 'human')")
        rec = play_game(game, config, seats, gseed)
        assert rec.result is not None
        total_len += rec.turns
        if not rec.result.winners:
            draws += 1
        for seat in rec.result.winners:
            wins_seat[seat] += 1
            wins[order[seat]] += 1
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
    }


def stderr_progress(done: int, total: int) -> None:
    """A one-line progress bar on stderr, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        return
    width = 30
    filled = int(width * done / total)
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()
