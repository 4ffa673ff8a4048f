"""Signals that arrived while library code was running: a note the command line's handlers
leave, so that code that swallows exceptions (trimesh's exporters catch BaseException) cannot
swallow Ctrl-C or SIGTERM: long loops call :func:`check` between steps, which raises again.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

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


@contextlib.contextmanager
def deferred() -> Iterator[list[int]]:
    """Within the block SIGINT and SIGTERM are only noted in the yielded list, never raised,
    so a short step that must finish or be undone whole (moving an export's set into place)
    is not cut in two; the previous handlers are back on leaving. The caller undoes its step
    when the list is not empty, then calls :func:`note` and :func:`check` to raise it.
    Outside the main thread (where handlers cannot be set) nothing changes."""
    arrived: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield arrived
        return
    sigs = (signal.SIGINT, signal.SIGTERM)
    old = {s: signal.getsignal(s) for s in sigs}

    def hold(signum: int, _frame: object) -> None:
        arrived.append(signum)

    for s in sigs:
        signal.signal(s, hold)
    try:
        yield arrived
    finally:
        for s, handler in old.items():
            signal.signal(s, handler)
