"""Balance runs: seeded bot games with the seats rotated, summarised (wins per player and
seat, the first player's win rate with its Wilson interval, lengths and ways of ending).

Nothing here knows any particular game: games are found by name in
:mod:`tablesim.games.registry` and played through :class:`tablesim.games.session.Session`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tablesim.games.core import ConfigError, Result
from tablesim.games.registry import get_game
from tablesim.games.rng import derive_seed
from tablesim.games.session import Session, make_seats
from tablesim.games.stats import wilson_interval

__all__ = ["balance", "end_label", "series_seed"]


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
