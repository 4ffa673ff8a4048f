"""``tablesim replay LOG``: re-run a game log; 0 reproduced, 1 diverged, 2 bad input.

Every move is measured and applied again from a fresh game, every bot chooses again, and every
recorded field is checked (seat, canonical move text, digest, the result line: turns, winner,
winners, scores, final digest); see :func:`tablesim.games.session.replay_log`.
"""

from __future__ import annotations

import argparse

from tablesim.games.log import read_log_file
from tablesim.games.session import replay_log
from tablesim.sim.cli import COMMAND_HELP


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``replay`` subcommand."""
    p = sub.add_parser("replay", help=COMMAND_HELP["replay"])
    p.add_argument("log", metavar="LOG", help="a log written by `tablesim play --log`")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Replay the log; print the outcome."""

    report = replay_log(read_log_file(args.log))
    print(("reproduced: " if report.ok else "diverged: ") + report.message)
    return 0 if report.ok else 1
