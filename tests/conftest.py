"""Shared test helpers: the repository root and the command line in a fresh process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
"""The repository's root folder (scenes/, experiments/, docs/ are under it)."""


def run_cli(
    *args: str, cwd: str | Path | None = None, input: str = "", timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    """``python -m sim.cli ARGS`` in a fresh process importing this tree's code (so a test
    sees exactly what a person typing the command sees); stdout and stderr captured, ``input``
    on stdin (empty by default: a test never waits on a terminal)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return subprocess.run(
        [sys.executable, "-m", "sim.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        input=input,
        env=env,
        timeout=timeout,
        check=False,
    )


# Known issue (found at integration, 2026-12-01, issue #18's note): after a run whose in-process
# tests opened gl pipes on a private Xvfb, that server can be gone before the interpreter tears
# Panda3D down, and Xlib then ends the process with exit code 1 *after* every test passed
# (":display:x11display(fatal): X fatal error"). The programs themselves are tested as
# subprocesses with their exit codes; for the pytest process, end with pytest's own status
# before that teardown. One way the server went early is fixed (sim.view.backend: the
# parent-death signal fired when the *thread* that started Xvfb ended; forked children kept
# using the parent's X connections); the failing run was not reproduced since, so this stays
# as a safety net until a whole slow run passes without it.
_EXIT_STATUS: list[int] = []


def pytest_sessionfinish(session: object, exitstatus: int) -> None:
    _EXIT_STATUS.append(int(exitstatus))


def pytest_unconfigure(config: object) -> None:
    import os
    import sys

    if _EXIT_STATUS and "panda3d" in sys.modules:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_EXIT_STATUS[-1])
