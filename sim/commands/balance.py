"""``tablesim balance GAME --players A,B --games N``: seeded games with rotated seats."""

from __future__ import annotations

import argparse

from tablesim.games.balance import balance
from tablesim.games.core import canonical_json, counted
from tablesim.games.registry import get_game
from tablesim.games.session import parse_players
from tablesim.games.stats import wilson_interval
from tablesim.sim.cli import COMMAND_HELP
from tablesim.sim.commands._common import MAX_GAMES, add_game_arguments, int_in, parse_game_options
from tablesim.sim.commands.list import GameHelpAction
from tablesim.sim.experiments.progress import progress_callback


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``balance`` subcommand."""
    p = sub.add_parser("balance", help=COMMAND_HELP["balance"], add_help=False)
    p.add_argument("-h", "--help", action=GameHelpAction)
    add_game_arguments(p)
    p.add_argument("--games", type=int_in(1, MAX_GAMES), required=True, help="number of games")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the games and print the summary (a table, or one JSON line with --json)."""
    game = get_game(args.game)
    roles = parse_players(args.players)
    options = parse_game_options(game, args.extra)
    rep = balance(
        game.name,
        roles,
        args.games,
        args.seed,
        options=options,
        budget=args.budget,
        progress=progress_callback(f"balance {game.name}"),
    )
    if args.json:
        print(canonical_json(rep))
        return 0
    print(
        f"{counted(rep['games'], 'game')} of {game.name}, seed {args.seed}, seats rotated every game "
        "(the games of tablesim tournament with the same players and seed)"
    )
    for i, role in enumerate(roles):
        won = rep["wins"][i]
        lo, hi = wilson_interval(won, rep["games"])
        print(
            f"  player {i + 1} ({role}): {counted(won, 'win')} ({won / rep['games']:.1%}, "
            f"95% CI {lo:.1%}-{hi:.1%})"
        )
    for s, w in enumerate(rep["wins_by_seat"]):
        print(f"  wins as {game.player_name(s)}: {w}")
    fp = rep["first_player_win_rate"]
    print(f"  draws: {rep['draws']}")
    print(f"  first-player win rate: {fp['rate']:.3f} (95% CI {fp['low']:.3f}-{fp['high']:.3f})")
    print(f"  mean length: {rep['mean_length']:.1f} moves")
    print("  ends:")
    for end, count in rep["ends"].items():
        print(f"    {count:>5}  {end}")
    return 0
