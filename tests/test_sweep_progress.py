"""The progress bar: rate and ETA from this session's runs, redrawn on a terminal, one line per
tenth elsewhere."""

from __future__ import annotations

import io

from sim.experiments.progress import Progress, format_duration


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
    bar = Progress(50, 20, label="sweep", stream=out, clock=clock, width=10)
    assert bar.line().endswith("ETA --:--:--")
    for _ in range(10):
        clock.t += 0.5
        bar.advance()
    # 10 runs in 5 s: 2 runs/s; 20 runs left: 10 s
    assert bar.rate() == 2.0
    assert bar.eta() == 10.0
    assert bar.line() == "sweep: [######....] 30/50  60%  2 runs/s  ETA 0:00:10"
    assert out.getvalue().startswith("\rsweep: [####")  # redrawn in place
    for _ in range(20):
        clock.t += 0.5
        bar.advance()
    assert out.getvalue().endswith("50/50 100%  done in 0:00:15\n")


def test_without_a_terminal_one_line_per_tenth():
    clock, out = Clock(), io.StringIO()
    bar = Progress(200, stream=out, clock=clock)
    for _ in range(200):
        clock.t += 0.01
        bar.advance()
    lines = out.getvalue().splitlines()
    assert len(lines) == 10
    assert lines[0].startswith("[###...") and " 20/200  10%" in lines[0]
    assert "\r" not in out.getvalue()


def test_format_duration():
    assert format_duration(3725) == "1:02:05"
    assert format_duration(float("inf")) == "--:--:--"
