"""``tablesim demo`` end to end: what it prints, the files it writes, and that its Kozo log replays."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image


@pytest.mark.slow
def test_demo_writes_its_pictures_and_a_replayable_kozo_round(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "tablesim.sim.cli",
            "demo",
            "--replicas",
            "2",
            "--backend",
            "tiny",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert p.returncode == 0, p.stderr
    # The shipped tower stands and the overhang topples (docs/rules/kozo.md, by hand).
    assert "=== kozo-tower" in p.stdout and "verdict: STANDS" in p.stdout
    assert "=== kozo-overhang" in p.stdout and "verdict: TOPPLES" in p.stdout
    for name in ("kozo-tower.png", "catego.png"):
        assert Image.open(out / name).size in {(1280, 720), (960, 540)}
    for name in ("kozo-overhang-fall.gif", "kozo-game-fall.gif"):
        assert Image.open(out / name).n_frames > 5
    # Every picture it names is the size (and film the frame count) it says.
    import re

    named = re.findall(r"^  (\S+\.(?:png|gif)): .*?(\d+)x(\d+)(?:, (\d+) frames)?", p.stdout, re.M)
    assert {n for n, *_ in named} == {
        "kozo-tower.png",
        "catego.png",
        "kozo-overhang-fall.gif",
        "kozo-game-fall.gif",
    }
    for name, w, h, frames in named:
        img = Image.open(out / name)
        assert img.size == (int(w), int(h)), name
        assert getattr(img, "n_frames", 1) == int(frames or 1), name
    # The Kozo round's log reproduces every pose, verdict and score.
    r = subprocess.run(
        [sys.executable, "-m", "tablesim.sim.cli", "replay", str(out / "kozo-game.jsonl")],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stdout + r.stderr
