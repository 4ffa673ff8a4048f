"""``tablesim plot RESULTS -o plot.png``: collapse probability or win rates, as a PNG."""

from __future__ import annotations

import argparse

from sim.cli import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``plot`` subcommand."""
    p = sub.add_parser(
        "plot",
        help="plot a sweep (collapse probability vs a parameter) or a tournament (win rates)",
        description="RESULTS is a file written by `tablesim sweep` or `tablesim tournament`.",
    )
    p.add_argument("results", metavar="RESULTS")
    p.add_argument("--output", "-o", required=True, help="the PNG to write")
    p.add_argument("--x", default=None, help="sweep: the parameter on the x axis")
    p.add_argument("--by", default=None, help="sweep: one line per value of this parameter")
    p.add_argument("--bins", type=int, default=10, help="sweep: bins for a sampled x (default 10)")
    p.add_argument("--title", default="", help="the figure title")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Draw the figure."""
    from sim.experiments.plot import plot_file
    from sim.experiments.results import ResultsError

    try:
        kind = plot_file(
            args.results, args.output, x=args.x, by=args.by, title=args.title, bins=args.bins
        )
    except ResultsError as exc:
        raise UsageError(str(exc)) from None
    print(f"{args.output}: {kind} plot of {args.results}")
    return 0
