"""``tablesim balance`` and ``tablesim tournament`` play the same games for the same players
and seed (issue 21: catego random,strong, 30 games, seed 0 gave 21 vs 30 wins for strong)."""

from __future__ import annotations

import pytest

from tablesim.games.balance import balance
from tablesim.games.core import ConfigError
from tablesim.games.registry import bot_classes, game_names, get_game
from tablesim.sim.experiments.tournament import TournamentJob, summarize

GAMES = 2  # both seatings
BUDGET = 16  # small bot budgets: the test compares, it does not rank


def _setup(name: str) -> tuple[list[str], dict]:
    """The game's best bot against random on its rules-only table (one seat for a solo mode)."""
    game = get_game(name)
    options = dict(game.playout_options)
    best = sorted(b for b in bot_classes(name) if b != "random")[0]
    if name == "kataboom":  # its careful bot plays many physics-free trials: keep it quick
        best = "random"
    try:
        game.make_config(options, players=2)
    except ConfigError:
        return [best], options
    return [best, "random"], options


@pytest.mark.parametrize(
    "name",
    # katamino's duels take 5 s: the slow step (the default step's 5-minute budget)
    [pytest.param(n, marks=pytest.mark.slow) if n == "katamino" else n for n in game_names()],
)
def test_same_wins_per_player_on_the_same_seeds(name: str) -> None:
    roles, options = _setup(name)
    rep = balance(name, roles, GAMES, 0, options=options, budget=BUDGET)
    job = TournamentJob(name, roles, GAMES, 0, seats=len(roles), options=options, budget=BUDGET)
    rows = [job.run(i) for i in range(job.count)]
    summary = summarize(rows, roles, len(roles))
    assert [p["wins"] for p in summary["players"]] == rep["wins"]
    assert summary["seat_wins"] == rep["wins_by_seat"]
    assert summary["draws"] == rep["draws"]
    assert summary["mean_length"] == rep["mean_length"]
