"""``tablesim plot RESULTS -o plot.png``: collapse probability or win rates, as a PNG."""

from __future__ import annotations

import argparse

from tablesim.sim.cli import COMMAND_HELP, UsageError
from tablesim.sim.commands._common import add_force_argument, int_in


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``plot`` subcommand."""
    p = sub.add_parser(
        "plot",
        help=COMMAND_HELP["plot"],
        description="RESULTS is a file written by `tablesim sweep` or `tablesim tournament`.",
    )
    p.add_argument("results", metavar="RESULTS")
    p.add_argument(
        "-o",
        "--out",
        "--output",
        dest="output",
        required=True,
        help="the PNG to write (--output: the old spelling)",
    )
    add_force_argument(p)
    p.add_argument("--x", default=None, help="sweep: the parameter on the x axis")
    p.add_argument("--by", default=None, help="sweep: one line per value of this parameter")
    p.add_argument(
        "--bins", type=int_in(1, 1000), default=10, help="sweep: bins for a sampled x (default 10)"
    )
    p.add_argument("--title", default="", help="the figure title")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Draw the figure."""
    from tablesim.games.outputs import check_output
    from tablesim.sim.experiments.plot import plot_file
    from tablesim.sim.experiments.results import ResultsError

    check_output(args.output, force=args.force, option="-o")
    try:
        kind = plot_file(
            args.results, args.output, x=args.x, by=args.by, title=args.title, bins=args.bins
        )
    except ResultsError as exc:
        raise UsageError(str(exc)) from None
    print(f"{args.output}: {kind} plot of {args.results}")
    return 0
