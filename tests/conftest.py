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
    """``python -m tablesim.sim.cli ARGS`` in a fresh process importing this tree's code (so a test
    sees exactly what a person typing the command sees); stdout and stderr captured, ``input``
    on stdin (empty by default: a test never waits on a terminal)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return subprocess.run(
        [sys.executable, "-m", "tablesim.sim.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        input=input,
        env=env,
        timeout=timeout,
        check=False,
    )


def start_xvfb(screen: str = "1280x800x24") -> tuple[subprocess.Popen[bytes], str] | None:
    """A private Xvfb on a display number it picks itself (``-displayfd``, so parallel runs
    never collide): (the process, ``":N"``), or None when it did not start."""
    read_fd, write_fd = os.pipe()
    proc = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", screen, "-nolisten", "tcp"],
        pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    os.close(write_fd)
    with os.fdopen(read_fd) as fh:
        number = fh.readline().strip()
    if not number.isdigit():
        proc.kill()
        proc.wait()
        return None
    return proc, f":{number}"
