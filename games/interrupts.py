"""Signals that arrived while library code was running: a note the command line's handlers
leave, so that code that swallows exceptions (trimesh's exporters catch BaseException) cannot
swallow Ctrl-C or SIGTERM: long loops call :func:`check` between steps, which raises again.
"""

from __future__ import annotations

import signal

_PENDING: list[int] = []


def note(signum: int) -> None:
    """Record that ``signum`` arrived (called by the CLI's SIGINT/SIGTERM handlers)."""
    _PENDING.append(signum)


def clear() -> None:
    """Forget the signals noted so far (a command starts with none)."""
    _PENDING.clear()


def pending() -> int | None:
    """The last signal noted since :func:`clear`, or None."""
    return _PENDING[-1] if _PENDING else None


def check() -> None:
    """Raise again a signal that arrived since :func:`clear` (its handler raises the
    KeyboardInterrupt or SIGTERM exception the CLI maps to 130/143); no-op otherwise."""
    if _PENDING:
        signum = _PENDING[-1]
        _PENDING.clear()
        signal.raise_signal(signum)
