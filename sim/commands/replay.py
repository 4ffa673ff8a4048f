"""``tablesim replay LOG``: re-run a game log; 0 reproduced, 1 diverged, 2 bad input."""

from __future__ import annotations

import argparse
from pathlib import Path

from games.play import read_log, replay
from sim.cli import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``replay`` subcommand."""
    p = sub.add_parser("replay", help="re-run a JSONL game log and check it reproduces")
    p.add_argument("log", metavar="LOG", help="a log written by `tablesim play --log`")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Replay the log; print the outcome."""
    import sim.tables  # noqa: F401  (registers the physics referees, e.g. kozo-physics)

    path = Path(args.log)
    if not path.is_file():
        raise UsageError(f"{path}: no such file")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: cannot read: {exc}") from None
    header, moves, result = read_log(text.splitlines(), str(path))
    report = replay(header, moves, result)
    print(("reproduced: " if report.ok else "diverged: ") + report.message)
    return 0 if report.ok else 1
