"""Progress of long commands: a tqdm bar on a terminal whose rate and ETA count only this
session's work, nothing at all when stderr is not a terminal."""

from __future__ import annotations

import io
import re
import subprocess
import sys

from conftest import ROOT

from tablesim.sim.experiments.progress import Progress, format_duration, progress_callback


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_eta_counts_only_this_sessions_runs():
    clock, out = Clock(), Tty()
    # a resumed run: 20 of 50 already done before this session started
    bar = Progress(50, 20, label="sweep", stream=out, clock=clock)
    assert bar.eta() == float("inf")
    for _ in range(10):
        clock.t += 0.5
        bar.advance()
    # 10 runs in 5 s: 2 runs/s; 20 runs left: 10 s
    assert bar.rate() == 2.0
    assert bar.eta() == 10.0
    for _ in range(20):
        bar.advance()
    text = out.getvalue()
    assert text.startswith("\r") and "sweep:" in text  # redrawn in place
    assert "50/50" in text.split("\r")[-1]  # the last redraw shows the whole count


def test_redraws_leave_no_stale_digits():
    """Each redraw overwrites the whole previous one (the old bar printed 'ETA 0:00:246'
    when a shorter ETA followed a longer one)."""
    import time

    out = Tty()
    bar = Progress(1000, stream=out)
    for i in range(1000):
        bar.advance()
        if i in (0, 1, 200):  # the ETA goes from minutes to seconds: shorter text
            time.sleep(0.11)
    frames = [f for f in out.getvalue().split("\r") if f]
    assert len(frames) >= 3
    for prev, cur in zip(frames, frames[1:], strict=False):
        assert len(cur.rstrip("\n")) >= len(prev.rstrip("\n"))


def test_without_a_terminal_nothing_is_drawn():
    out = io.StringIO()
    bar = Progress(200, stream=out)
    for _ in range(200):
        bar.advance()
    bar.finish_line()
    assert out.getvalue() == ""


def test_format_duration():
    assert format_duration(3725) == "1:02:05"
    assert format_duration(float("inf")) == "--:--:--"


def test_balance_progress_has_an_eta(monkeypatch):
    out = Tty()
    monkeypatch.setattr(sys, "stderr", out)
    cb = progress_callback("balance catego")
    for i in range(1, 6):
        cb(i, 5)
    text = out.getvalue()
    assert "balance catego" in text and "5/5" in text
    assert re.search(r"<\d\d:\d\d", text)  # tqdm's remaining-time field


def test_balance_is_quiet_in_a_pipe():
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "tablesim.sim.cli",
            "balance",
            "catego",
            "--players",
            "random,random",
            "--games",
            "4",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 0, p.stderr
    assert p.stderr == "" and "4 games of catego" in p.stdout
