"""Slow: ``demo``, ``record`` and ``render`` with the gl backend never abort (no signal 6, no
"X fatal error"), write valid outputs and leave no temporary file of theirs.

Issue #34 asks for 50 runs of each with 0 aborts; the slow step runs fewer to stay within
its budget (:data:`_PAIRS`: 10 renders, 8 records and 4 demos in overlapping pairs, plus the
six concurrent records below: about 170 CPU seconds on the Xeon of 2026-12-03, twice that on
the AMD EPYC of round 12; round 11's 20/16/10 were cut to keep ``.ci/run`` within its budget on
the slower machine, after the full 50 x 3 ran by hand with 0 aborts). ``TABLESIM_GL_PAIRS=25``
runs the full 50 of each (about 25 CPU minutes).

Each pair starts 0.3 s apart, so the first process ends (and its private Xvfb with it) while
the second still draws: the case that aborted 4 in 6 ``record`` pairs before the gl pipe was
given its own display (``tablesim.sim.view.backend``). The concurrent-record test (issue #37:
two gl ``record -o f.gif`` started 0.3 s apart, one aborted in 5 of 9 tries) starts three at
once, each on its own private Xvfb (``DISPLAY`` unset, as the product does then) and all on one
shared X display.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("Xvfb") is None, reason="no Xvfb here"),
]

Image = pytest.importorskip("PIL.Image")

_SCENE = str(ROOT / "scenes" / "kozo-overhang.toml")
_PAIRS = {"demo": 2, "record": 4, "render": 5}
"""Pairs per command in the slow step (CPU seconds a run, 2026-12-03: demo 24, record 6.5,
render 1.8)."""

_FRAMES = 61
"""Frames of ``record scenes/kozo-overhang.toml``: 2 s of physics at 30 fps, and the first."""

_DEMO_FILES = {"catego.png", "kozo-tower.png", "kozo-game.jsonl", "kozo-game-fall.gif",
               "kozo-overhang-fall.gif"}  # fmt: skip


def _argv(command: str, out: Path) -> list[str]:
    if command == "demo":
        return ["demo", "--replicas", "1", "--backend", "gl", "-o", str(out)]
    return [command, _SCENE, "-o", str(_output(command, out)), "--backend", "gl"]


def _output(command: str, out: Path) -> Path:
    return out if command == "demo" else out.with_suffix(".gif" if command == "record" else ".png")


def _start(argv: list[str], cwd: Path, display: str | None = None) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    if display is not None:
        env["DISPLAY"] = display
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    return subprocess.Popen(
        [sys.executable, "-m", "tablesim.sim.cli", *argv], cwd=cwd, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip


def _problem(command: str, out: Path) -> str | None:
    """What is wrong with a run's output (None: a valid picture, film or demo folder)."""
    path = _output(command, out)
    try:
        if command == "demo":
            names = {p.name for p in path.iterdir()}
            if names != _DEMO_FILES:
                return f"demo wrote {sorted(names)}"
            for name in _DEMO_FILES - {"kozo-game.jsonl"}:
                with Image.open(path / name) as img:
                    img.verify()
            return None
        with Image.open(path) as img:
            frames = getattr(img, "n_frames", 1)
            img.seek(frames - 1)
            img.load()
        want = _FRAMES if command == "record" else 1
        return None if frames == want else f"{path.name}: {frames} frames, not {want}"
    except (OSError, SyntaxError) as exc:
        return f"{path.name}: {exc}"


def _finish(runs: list[tuple[str, Path, subprocess.Popen[str]]]) -> list[str]:
    """The failures of started runs: a non-zero exit, a fatal X or assertion message, a bad
    output."""
    failures = []
    for command, out, proc in runs:
        _, err = proc.communicate(timeout=600)
        if proc.returncode != 0 or "fatal" in err or "Assertion" in err:
            failures.append(f"exit {proc.returncode}: {err[-400:]!r}")
        elif (problem := _problem(command, out)) is not None:
            failures.append(problem)
    return failures


def _leftovers(folder: Path) -> list[str]:
    """Temporary files of ours (``.NAME.PID.XXXX.ext``, dot-named) left under ``folder``."""
    return [p.name for p in folder.rglob(".*")]


@pytest.mark.parametrize("command", sorted(_PAIRS))
def test_gl_runs_in_overlapping_pairs_never_abort(command: str, tmp_path: Path) -> None:
    pairs = int(os.environ.get("TABLESIM_GL_PAIRS", _PAIRS[command]))
    failures = []
    for i in range(pairs):
        runs = []
        for j in (0, 1):
            out = tmp_path / f"out{i}_{j}"
            runs.append((command, out, _start(_argv(command, out), tmp_path)))
            time.sleep(0.3)
        failures += _finish(runs)
    assert not failures, f"{len(failures)} of {2 * pairs} {command} runs failed: {failures[:3]}"
    assert not _leftovers(tmp_path), f"temporary files left behind: {_leftovers(tmp_path)}"


@pytest.fixture
def shared_display() -> Iterator[str]:
    """One Xvfb for the test (``-displayfd``: it picks a free number), ended afterwards."""
    from tablesim.sim.view.backend import start_xvfb

    started = start_xvfb()
    if started is None:
        pytest.skip("Xvfb did not start")
    proc, display = started
    try:
        yield display
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.mark.parametrize("where", ["private", "shared"])
def test_concurrent_gl_records_never_abort(
    where: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Three ``record -o`` with the gl backend started 0.3 s apart into one folder, each on
    its own private Xvfb (no DISPLAY) or all on one shared display: all exit 0 with no fatal
    message, every film has its 61 frames, and no temporary file is left. Which display each
    pipe opens is tested by tests/test_view_backend_display.py (which fails before the fix);
    this end-to-end run aborted before it only where display :0 was served by one of the runs'
    own Xvfbs (here another user's long-lived server held :0 and it passed)."""
    display = request.getfixturevalue("shared_display") if where == "shared" else None
    runs = []
    for j in range(3):
        out = tmp_path / f"f{j}"
        runs.append(("record", out, _start(_argv("record", out), tmp_path, display)))
        time.sleep(0.3)
    failures = _finish(runs)
    assert not failures, f"{len(failures)} of 3 concurrent records failed: {failures}"
    assert not _leftovers(tmp_path), f"temporary files left behind: {_leftovers(tmp_path)}"
