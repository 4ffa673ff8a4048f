"""The README's Python blocks run as written, from a folder that is not the repository (one
with a ``scenes/`` folder of its own, which must not hide the shipped scenes)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)


def test_readme_has_python_blocks() -> None:
    assert len(BLOCKS) >= 3


# Blocks that run physics ensembles or count tilings take seconds each: the slow step runs them.
HEAVY = ("simulate(", "count_distinct(")
CASES = [
    pytest.param(i, marks=pytest.mark.slow) if any(h in b for h in HEAVY) else i
    for i, b in enumerate(BLOCKS)
]


@pytest.mark.parametrize("index", CASES)
def test_readme_block_runs_from_any_folder(index: int, tmp_path: Path) -> None:
    decoy = tmp_path / "scenes"
    decoy.mkdir()
    (decoy / "__init__.py").write_text("")
    (decoy / "kozo-overhang.toml").write_text("this is not a scene\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-c", BLOCKS[index]],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    for expected in re.findall(r"#\s*(\d+ \d+)\s*$", BLOCKS[index], re.M):
        assert expected in proc.stdout  # a printed figure the README states
