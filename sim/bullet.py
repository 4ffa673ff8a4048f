"""Quiet access to pybullet.

Importing pybullet prints ``pybullet build time: ...`` on the process's standard error (file
descriptor 2). Every process that judges a scene (the replica workers included) would print
it, so pybullet is imported through :func:`pybullet_module`, which points fd 2 at /dev/null for
the duration of the first import only (errors after it still show). PyBullet also
``printf()``s to standard output when the constraint solver is changed ("switched solver"), which
would corrupt ``--json`` output: :func:`quiet_stdout` silences that call.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
from collections.abc import Iterator
from types import ModuleType


def pybullet_module() -> ModuleType:
    """The pybullet module, imported lazily and without its build-time banner."""
    mod = sys.modules.get("pybullet")
    if mod is not None:
        return mod
    sys.stderr.flush()
    saved = os.dup(2)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        import pybullet
    except ModuleNotFoundError as exc:  # the light install: the 'physics' extra is missing
        from tablesim.games.extras import raise_missing

        raise_missing(exc)
    finally:
        os.dup2(saved, 2)
        os.close(devnull)
        os.close(saved)
    return pybullet


def connect_direct() -> int:
    """Connect a new DIRECT (headless) physics client; its client id."""
    p = pybullet_module()
    return int(p.connect(p.DIRECT))


@contextlib.contextmanager
def quiet_stdout() -> Iterator[None]:
    """Point file descriptor 1 at /dev/null for the block (C ``printf`` output included: the C
    library's buffer is flushed before descriptor 1 is put back)."""
    sys.stdout.flush()
    libc = ctypes.CDLL(None)
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        yield
    finally:
        libc.fflush(None)
        os.dup2(saved, 1)
        os.close(devnull)
        os.close(saved)
