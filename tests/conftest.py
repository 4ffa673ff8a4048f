"""Shared test helpers: the repository root, the command line in a fresh process, and a private
Xvfb (:func:`tablesim.sim.view.backend.start_xvfb`, the product's own starter)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tablesim.sim.view.backend import start_xvfb

__all__ = ["ROOT", "run_cli", "start_xvfb"]

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
