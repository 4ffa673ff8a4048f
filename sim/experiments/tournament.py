"""Bot tournaments: seeded round-robins over any registered game, with seats rotated.

``players`` is a list of bot names; an entry is identified by its position, so the same bot may
be listed twice (``random,random`` measures the seat advantage between equals). With ``k`` seats
per game (default 2, or the game's minimum where 2 cannot play), every *table* (each set of
``k`` entries, ``itertools.combinations`` order) plays ``games`` games; game ``g`` of a table
seats its entries rotated by ``g`` (seat ``s`` gets the table's entry ``(s + g) % k``), so over
``k`` games each entry sits in each seat once.

Run ``i`` is game ``i % games`` of table ``i // games``; its seed is derived from the tournament
seed and ``i`` only, and the bots' seeds from the game seed (as in ``tablesim play``), so a row
does not depend on the worker or the executor. Its row: ``run``, ``table``, ``game``, ``seed``,
``seats`` (entry index per seat, ``|``-separated), ``roles`` (bot per seat), ``winners`` (entry
indices, empty for a draw), ``winner_seats``, ``scores`` (per seat) and ``turns``.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tablesim.games.balance import series_seed
from tablesim.games.core import ConfigError, canonical_json, counted
from tablesim.games.limits import MAX_TOURNAMENT_GAMES
from tablesim.games.registry import bot_classes, get_game
from tablesim.games.session import Session, make_seats
from tablesim.games.stats import wilson_interval

COLUMNS = (
    "run",
    "table",
    "game",
    "seed",
    "seats",
    "roles",
    "winners",
    "winner_seats",
    "scores",
    "turns",
)


def _join(values: Iterable[Any]) -> str:
    return "|".join(str(v) for v in values)


def _split(text: Any) -> list[str]:
    if text is None or text == "":
        return []
    return str(text).split("|")


def _score(x: float) -> int | float:
    return int(x) if float(x).is_integer() else round(float(x), 6)


class TournamentJob:
    """The games of a round-robin (picklable; each row depends on the arguments and index)."""

    kind = "tournament"

    def __init__(
        self,
        game_name: str,
        players: Sequence[str],
        games: int,
        seed: int = 0,
        *,
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        budget: int | None = None,
    ) -> None:
        game = get_game(game_name)
        if seats is None:  # two seats where the game allows them (a solo game has none)
            k = 2 if game.min_players <= 2 <= game.max_players else game.min_players
        else:
            k = int(seats)
        game.check_players(k)
        if games < 1:
            raise ConfigError(f"--games must be >= 1, got {games}")
        players = [p.strip() for p in players]
        if len(players) < k:
            raise ConfigError(
                f"{game_name} seats {k} players per game; --players lists {len(players)} "
                f"(the same bot may be listed twice, e.g. {players[0] if players else 'random'},"
                f"{players[0] if players else 'random'})"
            )
        known = bot_classes(game_name)
        for p in players:
            if p not in known:
                raise ConfigError(
                    f"unknown bot {p!r} for {game_name} (available: {', '.join(sorted(known))}; "
                    "a tournament has no human seats)"
                )
        self.config = game.make_config(dict(options or {}), players=k)
        self.game_name = game_name
        self.players = list(players)
        self.games = int(games)
        self.seed = int(seed)
        self.seats = k
        self.options = dict(options or {})
        self.budget = budget
        count = math.comb(len(players), k) * self.games  # counted before anything is built
        if count > MAX_TOURNAMENT_GAMES:
            raise ConfigError(
                f"{len(players)} players in tables of {k} with --games {self.games} is "
                f"{count:.3g} games; at most {MAX_TOURNAMENT_GAMES:.0e} per tournament "
                "(fewer players or games)"
            )
        self.tables = list(itertools.combinations(range(len(players)), k))
        self.count = len(self.tables) * self.games

    def columns(self) -> list[str]:
        """The row columns (see the module docstring)."""
        return list(COLUMNS)

    def fingerprint(self) -> str:
        """Digest of the game, config, players, games, seed and budget."""
        game = get_game(self.game_name)
        text = canonical_json(
            {
                "game": self.game_name,
                "config": game.config_to_json(self.config),
                "players": self.players,
                "games": self.games,
                "seed": self.seed,
                "budget": self.budget,
                "columns": self.columns(),
            }
        )
        return hashlib.sha256(text.encode()).hexdigest()

    def game_seed(self, index: int) -> int:
        """The seed of game ``index`` (63 bits)."""
        return series_seed(self.seed, index)

    def seating(self, index: int) -> list[int]:
        """Entry index of each seat in run ``index``."""
        table = self.tables[index // self.games]
        g = index % self.games
        k = self.seats
        return [table[(s + g) % k] for s in range(k)]

    def expected(self, index: int) -> dict[str, Any]:
        """The cells of game ``index`` the arguments fix (table, seed, seats, roles), for
        checking a resumed journal's rows (:mod:`tablesim.sim.experiments.rows`)."""
        order = self.seating(index)
        return {
            "run": index,
            "table": index // self.games,
            "game": index % self.games,
            "seed": self.game_seed(index),
            "seats": _join(order),
            "roles": _join(self.players[j] for j in order),
        }

    def allowed(self) -> dict[str, tuple[Any, ...]]:
        """No column with a closed set of values beyond :meth:`expected`."""
        return {}

    def run(self, index: int) -> dict[str, Any]:
        """Play game ``index`` and return its row."""
        game = get_game(self.game_name)
        order = self.seating(index)
        roles = [self.players[j] for j in order]
        gseed = self.game_seed(index)
        seats = make_seats(self.game_name, roles, gseed, self.budget)
        with Session(game, self.config, gseed, seats) as session:
            result = session.run()
        winners = sorted(result.winners)
        return {
            "run": index,
            "table": index // self.games,
            "game": index % self.games,
            "seed": gseed,
            "seats": _join(order),
            "roles": _join(roles),
            "winners": _join(sorted(order[s] for s in winners)),
            "winner_seats": _join(winners),
            "scores": _join(_score(s) for s in result.scores),
            "turns": session.turns,
        }


def _rate(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson_interval(k, n)
    return {
        "wins": k,
        "games": n,
        "rate": round(k / n, 6) if n else None,
        "low": round(lo, 6),
        "high": round(hi, 6),
    }


def summarize(rows: Sequence[Mapping[str, Any]], players: Sequence[str], seats: int) -> dict:
    """Win rates with Wilson 95 % intervals, seat advantage and mean length, from the rows.

    A game with several winners (a team, a shared win) counts as a win for each of them; a
    game with none is a draw. ``first_player`` is seat 0's win rate against ``1/seats``, the
    rate without a seat advantage. For two seats, ``head_to_head`` lists each table's wins.
    """
    n = len(rows)
    played = [0] * len(players)
    wins = [0] * len(players)
    seat_wins = [0] * seats
    draws = 0
    turns = 0
    pairs: dict[tuple[int, int], list[int]] = {}
    for r in rows:
        entries = [int(x) for x in _split(r["seats"])]
        winners = [int(x) for x in _split(r["winners"])]
        for e in entries:
            played[e] += 1
        for e in winners:
            wins[e] += 1
        for s in _split(r["winner_seats"]):
            seat_wins[int(s)] += 1
        if not winners:
            draws += 1
        turns += int(r["turns"])
        if seats == 2:
            a, b = sorted(entries)
            tally = pairs.setdefault((a, b), [0, 0, 0])
            if not winners:
                tally[2] += 1
            else:
                for w in winners:
                    tally[0 if w == a else 1] += 1
    out: dict[str, Any] = {
        "games": n,
        "seats": seats,
        "players": [
            {"entry": i, "bot": p, **_rate(wins[i], played[i])} for i, p in enumerate(players)
        ],
        "draws": draws,
        "first_player": {**_rate(seat_wins[0], n), "no_advantage": round(1 / seats, 6)},
        "seat_wins": seat_wins,
        "mean_length": round(turns / n, 6) if n else None,
    }
    if seats == 2:
        out["head_to_head"] = [
            {"a": a, "b": b, "a_wins": t[0], "b_wins": t[1], "draws": t[2]}
            for (a, b), t in sorted(pairs.items())
        ]
    return out


def format_summary(summary: Mapping[str, Any], game: str) -> str:
    """The summary as a readable table."""
    lines = [
        f"{counted(summary['games'], 'game')} of {game}, {summary['seats']} seats, seats rotated",
        f"  {'entry':<5} {'bot':<12} {'games':>6} {'wins':>6} {'win rate':>9}  95% interval",
    ]
    for p in summary["players"]:
        rate = "-" if p["rate"] is None else f"{p['rate']:.3f}"
        lines.append(
            f"  {p['entry']:<5} {p['bot']:<12} {p['games']:>6} {p['wins']:>6} {rate:>9}"
            f"  {p['low']:.3f}-{p['high']:.3f}"
        )
    fp = summary["first_player"]
    rate = "-" if fp["rate"] is None else f"{fp['rate']:.3f}"
    lines.append(
        f"  first-player win rate: {rate} (95% interval {fp['low']:.3f}-{fp['high']:.3f}; "
        f"{fp['no_advantage']:.3f} without a seat advantage)"
    )
    lines.append(f"  draws: {summary['draws']}")
    if summary["mean_length"] is not None:
        lines.append(f"  mean length: {summary['mean_length']:.1f} moves")
    for h in summary.get("head_to_head", []):
        pa, pb = summary["players"][h["a"]]["bot"], summary["players"][h["b"]]["bot"]
        lines.append(
            f"  {h['a']}:{pa} vs {h['b']}:{pb}: {h['a_wins']}-{h['b_wins']}"
            + (f" ({h['draws']} draws)" if h["draws"] else "")
        )
    return "\n".join(lines)
