"""The ``tablesim`` command line.

Each subcommand lives in ``sim/commands/<name>.py`` and exposes ``register(subparsers)``, which
adds its parser and sets ``func`` (taking the parsed namespace, returning an exit code).
Exit codes: 0 done, 1 checked and failed, 2 bad input (the message names what was wrong).
Heavy modules (pybullet, panda3d, trimesh) are imported inside the commands that use them, so
``tablesim --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS = ("demo", "list", "play", "replay", "balance", "simulate", "meshes", "sweep", "tournament", "plot", "solve", "render", "record", "katamino", "view")


class UsageError(Exception):
    """Bad input detected by a command: printed as ``tablesim: error: ...``, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2 itself; keep its message format
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def version() -> str:
    """The installed distribution's version (or the source tree's when not installed)."""
    try:
        from importlib.metadata import version as _v

        return _v("tablesim")
    except Exception:
        return "0+unknown"


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every subcommand registered."""
    parser = _Parser(prog="tablesim", description="A physics table for five family board games.")
    parser.add_argument("--version", action="version", version=f"tablesim {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        try:
            mod = importlib.import_module(f"sim.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"sim.commands.{name}":
                continue  # command not written yet
            raise
        mod.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tablesim`` command; returns the exit code."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and not getattr(args, "accepts_extra", False):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    args.extra = extra
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    from games.core import GameError
    from games.play import LogError
    from games.polycubes import PieceError

    try:
        return int(args.func(args) or 0)
    except (UsageError, GameError, LogError, PieceError) as exc:
        print(f"tablesim {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    # Run as `python -m sim.cli`: call the imported module's main, so the exception classes
    # the commands raise are the ones main() catches (this file is otherwise loaded twice).
    from sim.cli import main as _main

    sys.exit(_main())
