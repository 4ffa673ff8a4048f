"""``tablesim tournament GAME --players a,b,c --games N``: seeded round-robins of bots."""

from __future__ import annotations

import argparse
import sys

from tablesim.games.core import canonical_json
from tablesim.sim.cli import COMMAND_HELP, UsageError
from tablesim.sim.commands._common import MAX_GAMES, add_game_arguments, int_in, parse_game_options
from tablesim.sim.commands.sweep import (
    add_executor_arguments,
    check_executor_arguments,
    run_with_args,
)


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``tournament`` subcommand."""
    p = sub.add_parser(
        "tournament",
        help=COMMAND_HELP["tournament"],
        description=(
            "Every set of SEATS entries of --players plays --games games, seats rotated. The "
            "same bot may be listed more than once. Game options follow as --option value."
        ),
    )
    add_game_arguments(p)
    p.add_argument(
        "--games", type=int_in(1, MAX_GAMES), required=True, help="games per table (pairing)"
    )
    p.add_argument(
        "--seats",
        type=int_in(1, 16),
        default=None,
        help="players per game (default 2 where allowed)",
    )
    p.add_argument("--out", "-o", default=None, help="one row per game (.csv or .parquet)")
    add_executor_arguments(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play the tournament and print the summary (or one JSON line with --json)."""
    from tablesim.games.registry import get_game
    from tablesim.games.session import parse_players
    from tablesim.sim.experiments.executors import ExecutorError
    from tablesim.sim.experiments.results import ResultsError
    from tablesim.sim.experiments.tournament import TournamentJob, format_summary, summarize

    check_executor_arguments(args)
    if args.out is None and args.overwrite:
        raise UsageError("--force (--overwrite) needs --out")
    game = get_game(args.game)
    options = parse_game_options(game, args.extra)
    job = TournamentJob(
        game.name,
        parse_players(args.players),
        args.games,
        args.seed,
        seats=args.seats,
        options=options,
        budget=args.budget,
    )
    try:
        rep = run_with_args(job, args, "tournament")
    except ResultsError as exc:
        raise UsageError(str(exc)) from None
    except ExecutorError as exc:
        print(f"tablesim tournament: {exc}", file=sys.stderr)
        return 1
    summary = summarize(rep.rows, job.players, job.seats)
    if args.json:
        print(canonical_json({"game": game.name, "seed": args.seed, **summary}))
    else:
        print(format_summary(summary, game.name))
        if rep.out is not None:
            print(
                f"  rows: {rep.out} ({rep.kept} kept from an earlier start, {rep.computed} played)"
            )
    return 0
