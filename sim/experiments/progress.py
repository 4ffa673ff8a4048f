"""A progress bar with rate and ETA on stderr.

On a terminal the bar is redrawn in place (at most ten times a second); elsewhere (a log file,
CI) one line is printed at every tenth of the work, so logs stay short. The ETA is the remaining
runs divided by the rate of the runs done *in this session* (resumed rows do not count).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO


def format_duration(seconds: float) -> str:
    """``h:mm:ss`` (``--:--:--`` when unknown)."""
    if seconds != seconds or seconds < 0 or seconds == float("inf"):
        return "--:--:--"
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


class Progress:
    """Counts finished runs and draws ``[####......] 23/50  46%  1.9 runs/s  ETA 0:00:14``."""

    def __init__(
        self,
        total: int,
        done: int = 0,
        *,
        label: str = "",
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        width: int = 30,
    ) -> None:
        self.total = total
        self.done = done
        self.start_done = done
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.width = width
        self.t0 = clock()
        self._last_draw = float("-inf")
        self._last_tenth = done * 10 // total if total else 10
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def rate(self) -> float:
        """Runs per second in this session (0 before the first run finishes)."""
        elapsed = self.clock() - self.t0
        n = self.done - self.start_done
        return n / elapsed if elapsed > 0 and n > 0 else 0.0

    def eta(self) -> float:
        """Seconds left at the current rate (inf before the first run finishes)."""
        r = self.rate()
        return (self.total - self.done) / r if r > 0 else float("inf")

    def line(self) -> str:
        """The bar as text (without carriage return or newline)."""
        frac = self.done / self.total if self.total else 1.0
        filled = int(self.width * frac)
        bar = "#" * filled + "." * (self.width - filled)
        head = f"{self.label}: " if self.label else ""
        rate = self.rate()
        tail = (
            f"  {rate:.3g} runs/s  ETA {format_duration(self.eta())}"
            if self.done < self.total
            else f"  done in {format_duration(self.clock() - self.t0)}"
        )
        return f"{head}[{bar}] {self.done}/{self.total} {frac:4.0%}" + (
            tail if rate or self.done == self.total else "  ETA --:--:--"
        )

    def advance(self, n: int = 1) -> None:
        """Count ``n`` more finished runs and redraw when due."""
        self.done += n
        if self.tty:
            now = self.clock()
            if now - self._last_draw >= 0.1 or self.done >= self.total:
                self._last_draw = now
                self.stream.write("\r" + self.line())
                if self.done >= self.total:
                    self.stream.write("\n")
                self.stream.flush()
        else:
            tenth = self.done * 10 // self.total if self.total else 10
            if tenth > self._last_tenth:
                self._last_tenth = tenth
                self.stream.write(self.line() + "\n")
                self.stream.flush()

    def start(self) -> None:
        """Draw the bar once before any run finishes."""
        if self.tty:
            self.stream.write("\r" + self.line())
            self.stream.flush()

    def finish_line(self) -> None:
        """End an unfinished bar's line (after an interruption) so later text starts afresh."""
        if self.tty and self.done < self.total:
            self.stream.write("\n")
            self.stream.flush()
