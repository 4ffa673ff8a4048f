"""Slow: ``demo``, ``record`` and ``render`` with the gl backend, run in overlapping pairs,
never abort (no signal 6, no "X fatal error") and leave no temporary file of theirs.

Each pair starts 0.3 s apart, so the first process ends (and its private Xvfb with it) while
the second still draws: the case that aborted 4 in 6 ``record`` pairs before the gl pipe was
given its own display (sim.view.backend). CI runs a few pairs (about 70 s on 2 busy cores);
``TABLESIM_GL_PAIRS=25`` runs 50 of each.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="no Xvfb here"),
]

_SCENE = str(ROOT / "scenes" / "kozo-overhang.toml")
_PAIRS = {"demo": 1, "record": 2, "render": 3}


def _argv(command: str, out: Path) -> list[str]:
    if command == "demo":
        return ["demo", "--replicas", "1", "--backend", "gl", "-o", str(out)]
    suffix = ".gif" if command == "record" else ".png"
    return [command, _SCENE, "-o", str(out.with_suffix(suffix)), "--backend", "gl"]


def _start(argv: list[str], cwd: Path) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return subprocess.Popen(
        [sys.executable, "-m", "tablesim.sim.cli", *argv], cwd=cwd, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


@pytest.mark.parametrize("command", sorted(_PAIRS))
def test_gl_runs_in_overlapping_pairs_never_abort(command: str, tmp_path: Path) -> None:
    pairs = int(os.environ.get("TABLESIM_GL_PAIRS", _PAIRS[command]))
    failures = []
    for i in range(pairs):
        procs = []
        for j in (0, 1):
            procs.append(_start(_argv(command, tmp_path / f"out{i}_{j}"), tmp_path))
            time.sleep(0.3)
        for proc in procs:
            out, err = proc.communicate(timeout=600)
            if proc.returncode != 0 or "fatal" in err:
                failures.append((proc.returncode, err[-500:]))
    assert not failures, f"{len(failures)} of {2 * pairs} {command} runs failed: {failures[:3]}"
    left = [p.name for p in tmp_path.rglob(".*") if p.is_file()]
    assert not left, f"temporary files left behind: {left}"
