"""The ``tablesim`` command line.

Each subcommand lives in ``sim/commands/<name>.py`` and exposes ``register(subparsers)``, which
adds its parser and sets ``func`` (taking the parsed namespace, returning an exit code).
Exit codes: 0 done, 1 checked and failed (or the physics blew up), 2 bad input or an output that
cannot be written (the message names what was wrong), 130 interrupted (Ctrl-C); see
:func:`run_command`, the one place that maps failures to them.
Heavy modules (pybullet, panda3d, trimesh) are imported inside the commands that use them, so
``tablesim --help`` stays fast.
"""

# No ``from __future__ import annotations`` in this file: __future__ is a real module, and
# its import (before the handler below exists) is where CI's Ctrl-C once landed.
import _signal  # type: ignore[import-not-found]  # the C module: installable before any Python-level import can be interrupted
import sys

_EARLY: list[int] = []
"""Signals that came while tablesim started (see :func:`_early_signal`)."""


def _early_signal(signum: int, frame: object) -> None:
    """Ctrl-C or SIGTERM while tablesim starts (imports, before :func:`main`'s handlers): one
    line and 130/143, never a KeyboardInterrupt traceback (noted too, for an import that turns
    the exit into an ImportError)."""
    _EARLY.append(signum)
    try:  # noqa: SIM105 - contextlib is not imported yet (its import could be interrupted)
        sys.stderr.write("tablesim: interrupted\n" if signum == 2 else "tablesim: terminated\n")
    except (OSError, ValueError):
        pass
    raise SystemExit(128 + signum)


if __name__ != "__main__":  # installed first thing, before the heavier imports below
    for _sig in (_signal.SIGINT, _signal.SIGTERM):
        try:  # noqa: SIM105 - as above
            _signal.signal(_sig, _early_signal)
        except ValueError:  # not the main thread (a worker thread): leave it
            pass

import argparse  # noqa: E402
import errno  # noqa: E402
import importlib  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402
import threading  # noqa: E402
import traceback  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from typing import Any, NoReturn  # noqa: E402

COMMANDS = (
    "demo",
    "list",
    "play",
    "replay",
    "balance",
    "simulate",
    "meshes",
    "sweep",
    "tournament",
    "plot",
    "solve",
    "render",
    "record",
    "katamino",
    "view",
)
COMMAND_HELP = {
    "demo": "judge the shipped towers in physics, play a bot game, draw and film them",
    "list": "list games, bots, scenes, piece sets, game options or example sweep specs",
    "play": "play a game (headless: prints each turn and a result line)",
    "replay": "re-run a JSONL game log and check it reproduces",
    "balance": "play many seeded bot games and report win rates",
    "simulate": "judge a scene in physics: stands or topples, with probability and explanation",
    "meshes": "export piece meshes (GLB, OBJ, STL, URDF)",
    "sweep": "run a grid or seeded random sample of verdicts over scene and physics parameters",
    "tournament": "seeded round-robin of bots: win rates with 95%% intervals, seat advantage",
    "plot": "plot a sweep (collapse probability vs a parameter) or a tournament (win rates)",
    "solve": "Katamino solver: count, show or hint covers of a board or 3D box",
    "render": "a picture of a scene, a game log or an example table (offscreen, no display)",
    "record": "a GIF or MP4 film of a scene falling (World poses) or of a game log",
    "katamino": "Katamino 3D boxes in physics: assembly orders, piece-by-piece builds, verdicts",
    "view": "look at a scene in a window (orbit, zoom, pan; space runs the physics)",
}
"""Each command's one-line help, written once: ``tablesim --help`` lists the commands from it
without importing any command module, and each command module registers its parser with it
(``help=COMMAND_HELP[name]``)."""
_INDEX_ARGS = frozenset(("-h", "--help", "--version"))


class UsageError(Exception):
    """Bad input detected by a command: printed as ``tablesim: error: ...``, exit code 2."""


class _Parser(argparse.ArgumentParser):
    def _print_message(self, message: str, file: Any = None) -> None:
        """As argparse's, but a failed write (``--help > /dev/full``) is not swallowed: the
        caller (:func:`main`) answers it with exit 2."""
        if message:
            (file or sys.stderr).write(message)

    def error(self, message: str) -> NoReturn:  # argparse exits 2 itself; keep its format
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message}\n")


def version() -> str:
    """The installed distribution's version (or the source tree's when not installed)."""
    try:
        from importlib.metadata import version as _v

        return _v("tablesim")
    except Exception:
        return "0+unknown"


class _VersionAction(argparse.Action):
    """``--version``: the version looked up only when asked (importlib.metadata is slow)."""

    def __init__(
        self,
        option_strings: Sequence[str],
        dest: str = argparse.SUPPRESS,
        default: Any = argparse.SUPPRESS,
        help: str | None = None,
    ) -> None:
        super().__init__(
            option_strings, dest, nargs=0, default=default, help=help or "show the version and exit"
        )

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        print(f"tablesim {version()}")
        parser.exit()


def build_parser(only: str | None = None, *, index: bool = False) -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered, or with just ``only`` (a command
    line that starts with a command needs no other command's module: start-up stays short).
    ``index``: every command by name and help line only (:data:`COMMAND_HELP`), no module
    imported: enough for ``tablesim``, ``tablesim --help`` and ``--version``."""
    parser = _Parser(prog="tablesim", description="A physics table for five family board games.")
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    if index:
        for name in COMMANDS:
            sub.add_parser(name, help=COMMAND_HELP[name])
        return parser
    for name in COMMANDS if only is None else (only,):
        importlib.import_module(f"tablesim.sim.commands.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``tablesim`` command; returns the exit code.

    Standard output that cannot be written (``> /dev/full``: exit 2, one line; a closed pipe,
    ``| head -c 1``: quietly 0) and Ctrl-C (130) are answered here too, for ``--help`` and
    ``--version`` as for every command."""
    _interrupts_note(clear=True)
    _LOST.clear()
    handlers = None
    unraisable = sys.unraisablehook
    if threading.current_thread() is threading.main_thread():
        handlers = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
        signal.signal(signal.SIGINT, _on_sigint)
        signal.signal(signal.SIGTERM, _on_sigterm)
        sys.unraisablehook = _keeping_lost_interrupts(unraisable)
    try:
        return _main_within_handlers(argv)
    finally:  # called in-process (tests, a host program): its handlers and notes are back
        for sig, handler in zip((signal.SIGINT, signal.SIGTERM), handlers or (), strict=False):
            if handler is not None:  # None: set outside Python, cannot be put back
                signal.signal(sig, handler)
        sys.unraisablehook = unraisable
        _interrupts_note(clear=True)


_LOST: list[int] = []
"""Signals whose handler raised where Python cannot raise (see :func:`_keeping_lost_interrupts`)."""


def _keeping_lost_interrupts(previous: Any) -> Any:
    """A ``sys.unraisablehook`` for while :func:`main` runs. A signal handler runs at whatever
    bytecode the main thread is at, also inside a weakref callback or a ``__del__`` (the import
    system's module-lock callback, seen in the start-up test), where Python cannot raise: it
    prints "Exception ignored in ..." with a traceback and the Ctrl-C is lost. This hook keeps
    it in :data:`_LOST` instead, quietly; :func:`_raise_lost` raises it when the command
    returns (one line, 130 / 143). Anything else goes to ``previous``."""

    def hook(info: Any) -> None:
        exc = info.exc_value
        if isinstance(exc, KeyboardInterrupt):
            _LOST.append(exc.signum if isinstance(exc, Terminated) else signal.SIGINT)
            return
        previous(info)

    return hook


def _raise_lost() -> None:
    """Raise the last signal :func:`_keeping_lost_interrupts` kept (as its handler would have),
    forgetting it; nothing when none was lost."""
    if _LOST:
        signum = _LOST[-1]
        _LOST.clear()
        raise Terminated(signum) if signum != signal.SIGINT else KeyboardInterrupt


def _main_within_handlers(argv: Sequence[str] | None) -> int:
    """:func:`main` within its signal handlers."""
    try:
        code = _parse_and_run(argv)
        _raise_lost()
        sys.stdout.flush()
        return code
    except KeyboardInterrupt as exc:
        signum = exc.signum if isinstance(exc, Terminated) else signal.SIGINT
        print(
            f"tablesim: {'terminated' if signum == signal.SIGTERM else 'interrupted'}",
            file=sys.stderr,
        )
        return 128 + signum if signum != signal.SIGINT else EXIT_INTERRUPTED
    except SystemExit as exc:  # the start-up handler's exit, from a signal before main
        return exc.code if isinstance(exc.code, int) else EXIT_FAILED
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_OK
    except OSError as exc:
        if exc.errno not in _WRITE_ERRNOS:
            raise
        _silence_stdout()
        print(
            f"tablesim: error: cannot write standard output: {exc.strerror or exc}", file=sys.stderr
        )
        return EXIT_BAD_INPUT
    except Exception:
        noted = _interrupts_note()
        if noted is None:
            raise
        # an import (numpy's C code) turned Ctrl-C into an ImportError: still an interrupt
        print(
            f"tablesim: {'terminated' if noted == signal.SIGTERM else 'interrupted'}",
            file=sys.stderr,
        )
        return 128 + noted


def _interrupts_note(*, clear: bool = False) -> int | None:
    """The signal noted since the last clear: by :mod:`tablesim.games.interrupts` when it is
    loaded (``--help`` imports no games module), else by :func:`_note`'s own list (None if
    none); ``clear`` forgets both first."""
    mod = sys.modules.get("tablesim.games.interrupts")
    pending = getattr(mod, "pending", None)
    reset = getattr(mod, "clear", None)
    if clear:
        _UNNOTED.clear()
        if reset is not None:
            reset()
    noted: int | None = pending() if pending is not None else None
    if noted is None and _UNNOTED:
        noted = _UNNOTED[-1]
    return noted


def _parse_and_run(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in COMMANDS:
        parser = build_parser(argv[0])
    else:
        parser = build_parser(index=_INDEX_ARGS.issuperset(argv))
    try:  # argparse exits (2 for a bad argument, 0 for --help): return its code instead
        args, extra = parser.parse_known_args(argv)
        if extra and not getattr(args, "accepts_extra", False):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_BAD_INPUT
    args.extra = extra
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return run_command(args)


# ---------------------------------------------------------------------------------------
# Expected failures -> exit codes (the one place; see docs/architecture.md "Exit codes")
# ---------------------------------------------------------------------------------------
EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130
"""0 done; 1 checked and failed (a verdict said no, or the physics blew up); 2 bad input or an
output that cannot be written; 130 interrupted (Ctrl-C; 143 for SIGTERM)."""

_WRITE_ERRNOS = frozenset(
    getattr(errno, n)
    for n in ("ENOSPC", "EDQUOT", "EFBIG", "EROFS", "EACCES", "EPERM", "EISDIR", "ENOTDIR")
    if hasattr(errno, n)
)
"""OSErrors of the machine, not of tablesim: a full disk, a read-only or forbidden place."""
_NAME_ERRNOS = frozenset(getattr(errno, n) for n in ("ENAMETOOLONG", "ELOOP") if hasattr(errno, n))
"""OSErrors of a file name given on the command line (pathlib's ``is_file`` raises them)."""


def _shorten_message(text: str, limit: int = 2000) -> str:
    """A message cut to ``limit`` characters: no error repeats a huge value in full."""
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


def _shorten(value: object) -> str:
    from tablesim.games.outputs import shorten

    return shorten("" if value is None else value)


REPORT_LINE = (
    "tablesim: this is a bug in tablesim, not a problem with your input; please report it "
    "with the command line and the traceback above"
)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread so the same clean-up as Ctrl-C runs (journals closed,
    workers stopped, no temporary files); exit 128 + the signal number."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_UNNOTED: list[int] = []
"""Signals main's handlers saw while :mod:`tablesim.games.interrupts` was not (fully) loaded."""


def _note(signum: int) -> None:
    """Note ``signum`` for :mod:`tablesim.games.interrupts` without importing anything: a handler
    that imports can land inside that very import (then the module is partly initialised and
    has no ``note`` yet: an AttributeError traceback, seen in the start-up test) and would load
    the games package from within a signal handler."""
    note = getattr(sys.modules.get("tablesim.games.interrupts"), "note", None)
    if note is None:
        _UNNOTED.append(signum)
    else:
        note(signum)


def _on_sigterm(signum: int, frame: Any) -> None:
    _note(signum)
    raise Terminated(signum)


def _on_sigint(signum: int, frame: Any) -> None:
    _note(signum)
    raise KeyboardInterrupt


def _expected_errors() -> tuple[type[BaseException], ...]:
    """The error classes a command turns into its own one-line message (exit 2). None after a
    signal during the command (run_command clears the notes when it starts): an import turned
    the interrupt into this exception, and importing the classes now would import again what
    the signal broke off (run_command's outer clause says interrupted)."""
    from tablesim.games import interrupts

    if interrupts.pending() is not None:
        return ()
    from tablesim.games.core import GameError
    from tablesim.games.log import LogError
    from tablesim.games.outputs import OutputError
    from tablesim.games.polycubes import PieceError

    return (UsageError, GameError, LogError, PieceError, OutputError)


STAND_IN_GAMES = ("kozo", "kataboom")
"""Games whose ``--table stand-in`` plays without the physics extra."""


def _missing_extra(exc: ModuleNotFoundError, args: argparse.Namespace | None = None) -> str | None:
    """The one-line install message for a package of an optional extra (None: another module);
    for a Kozo or Kataboom game on the physics table, also the stand-in judge that needs none."""
    from tablesim.games.extras import EXTRA_OF, missing_extra_message

    message = missing_extra_message(exc.name)
    game = getattr(args, "game", None)
    physics = EXTRA_OF.get((exc.name or "").partition(".")[0]) == "physics"
    if message is not None and physics and game in STAND_IN_GAMES:
        message += (
            f"; or play {game} without physics on the seeded stand-in judge: --table stand-in"
        )
    return message


def _silence_stdout() -> None:
    """Point a failed stdout at /dev/null so the interpreter's final flush stays quiet."""
    if sys.stdout is sys.__stdout__ and sys.stdout is not None:
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass


def run_command(args: argparse.Namespace) -> int:
    """Run ``args.func`` and map every expected failure to its exit code and one message.

    Bad input and unwritable outputs: ``tablesim CMD: error: ...``, 2. A physics blow-up that a
    command did not turn into its own message: 1. Ctrl-C: one line, 130 (SIGTERM: 143). A closed
    pipe (``| head``): quietly 0. Anything else is a bug: its traceback, then a line asking to
    report it, exit 1.
    """
    from tablesim.sim.guard import PhysicsBlowUpError

    name = f"tablesim {args.command}"
    from tablesim.games import interrupts

    old = old_int = None
    interrupts.clear()
    if threading.current_thread() is threading.main_thread():
        old = signal.signal(signal.SIGTERM, _on_sigterm)
        old_int = signal.signal(signal.SIGINT, _on_sigint)
    try:
        try:
            code = int(args.func(args) or 0)
            _raise_lost()  # a Ctrl-C that came where Python could not raise it
            sys.stdout.flush()
            return code
        except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM as Terminated: one line (first: the
            # clause below imports the games' error classes, and an import after an interrupted
            # one runs C module set-up twice: _decimal's warning on stderr)
            if not getattr(exc, "reported", False):  # a runner may have said where rows are
                what = "terminated" if isinstance(exc, Terminated) else "interrupted"
                print(f"{name}: {what}", file=sys.stderr)
            return 128 + exc.signum if isinstance(exc, Terminated) else EXIT_INTERRUPTED
        except _expected_errors() as exc:
            print(f"{name}: error: {_shorten_message(str(exc))}", file=sys.stderr)
            return EXIT_BAD_INPUT
        except PhysicsBlowUpError as exc:
            print(f"{name}: the physics blew up (an error, not a verdict): {exc}", file=sys.stderr)
            return EXIT_FAILED
        except BrokenPipeError:
            _silence_stdout()
            return EXIT_OK
        except OSError as exc:
            if exc.errno in _NAME_ERRNOS:  # a name over 255 bytes, a symlink loop: bad input
                print(
                    f"{name}: error: {_shorten(exc.filename)}: {exc.strerror or exc}",
                    file=sys.stderr,
                )
                return EXIT_BAD_INPUT
            if exc.errno not in _WRITE_ERRNOS:
                raise
            where = _shorten(exc.filename) if exc.filename else "standard output"
            _silence_stdout()
            print(f"{name}: error: cannot write {where}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_BAD_INPUT
        except ModuleNotFoundError as exc:  # a light install: the command needs an extra
            message = _missing_extra(exc, args)
            if message is None:
                raise
            print(f"{name}: error: {message}", file=sys.stderr)
            return EXIT_BAD_INPUT
        except RecursionError:  # input nested deeper than any reader allows
            print(f"{name}: error: the input is nested too deeply", file=sys.stderr)
            return EXIT_BAD_INPUT
        except MemoryError:
            print(
                f"{name}: error: out of memory (the input or the work is too large; "
                'see README "Limits")',
                file=sys.stderr,
            )
            return EXIT_BAD_INPUT
    except Exception:
        signum = interrupts.pending()
        if signum is not None or _EARLY:  # an import turned Ctrl-C into another exception
            signum = signum if signum is not None else _EARLY[-1]
            print(
                f"{name}: {'terminated' if signum == signal.SIGTERM else 'interrupted'}",
                file=sys.stderr,
            )
            return 128 + signum
        traceback.print_exc()
        print(REPORT_LINE, file=sys.stderr)
        return EXIT_FAILED
    finally:
        if old is not None:
            signal.signal(signal.SIGTERM, old)
        if old_int is not None:
            signal.signal(signal.SIGINT, old_int)


if __name__ == "__main__":
    # Run as `python -m tablesim.sim.cli`: call the imported module's main, so the exception classes
    # the commands raise are the ones main() catches (this file is otherwise loaded twice).
    from tablesim.sim.cli import main as _main

    sys.exit(_main())
