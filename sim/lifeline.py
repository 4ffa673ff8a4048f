"""Worker processes that die with their parent, and pools stopped at once on every exit.

A sweep, a tournament or a verdict ensemble computes in forked worker processes. If the parent
is killed (``kill -9``, the OOM killer, a closed terminal) the workers must not live on: they
would keep computing for nobody and -- worse -- hold open the journal the parent had locked,
so the next run could not resume. :func:`bind_to_parent` (the pools' ``initializer``) asks the
Linux kernel to SIGKILL the worker when its parent dies (``PR_SET_PDEATHSIG``), lets Ctrl-C
reach only the parent (which then stops the pool) and restores the default SIGTERM action.
:func:`stop_pool` is how a parent interrupted by Ctrl-C or SIGTERM ends its pool: the workers
are killed at once instead of being waited for. Locked files are also closed in every forked
child (:func:`close_in_children`), so even a worker that outlived its parent cannot hold a lock.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
import weakref
from concurrent.futures import ProcessPoolExecutor
from typing import IO, Any

__all__ = ["bind_to_parent", "close_in_children", "stop_pool"]

_PR_SET_PDEATHSIG = 1
_PARENT: int | None = None
_LOCKED: weakref.WeakSet[Any] = weakref.WeakSet()


def _prctl_deathsig(sig: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return libc.prctl(_PR_SET_PDEATHSIG, sig, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def bind_to_parent(parent: int | None = None) -> None:
    """Make the calling (forked worker) process die when its parent does.

    ``parent`` is the parent's pid as seen before the fork (default: the current parent); if it
    has already gone, the worker exits at once (the kernel signal only covers a later death).
    Ctrl-C is ignored here (the parent handles it and stops the pool); SIGTERM kills.
    """
    expected = parent if parent is not None else os.getppid()
    _prctl_deathsig(signal.SIGKILL)
    if os.getppid() != expected:
        os._exit(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def stop_pool(pool: ProcessPoolExecutor, *, kill: bool) -> None:
    """Shut ``pool`` down; with ``kill`` (an interrupt, an error) its workers are killed first
    rather than waited for, so Ctrl-C and SIGTERM end a run in well under a second."""
    if kill:
        procs = getattr(pool, "_processes", None) or {}  # no public API before Python 3.14
        for proc in list(procs.values()):
            with contextlib.suppress(Exception):
                proc.kill()
    pool.shutdown(wait=True, cancel_futures=True)


def close_in_children(fh: IO[bytes]) -> None:
    """Have every process forked from now on drop its copy of ``fh``'s descriptor (pointed at
    /dev/null), so a lock taken on ``fh`` (``flock``) is held by this process alone."""
    _LOCKED.add(fh)


def _after_fork_in_child() -> None:
    for fh in list(_LOCKED):
        with contextlib.suppress(OSError, ValueError):
            fd = fh.fileno()
            null = os.open(os.devnull, os.O_RDWR)
            os.dup2(null, fd)
            os.close(null)
    _LOCKED.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_after_fork_in_child)
