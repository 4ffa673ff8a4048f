"""Progress of long commands (sweeps, tournaments, balance runs, films), drawn by tqdm.

On a terminal a bar with the count, rate and ETA is redrawn in place on stderr; when stderr is
not a terminal (a log file, a pipe, CI) nothing is drawn, so logs hold only results. The ETA
counts only the work done *in this session*: runs kept from an earlier, resumed start are shown
as done but do not speed up the rate (tqdm's ``initial`` with ``smoothing=0``).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, TextIO


def format_duration(seconds: float) -> str:
    """``h:mm:ss`` (``--:--:--`` when unknown)."""
    if seconds != seconds or seconds < 0 or seconds == float("inf"):
        return "--:--:--"
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def _is_tty(stream: Any) -> bool:
    return bool(getattr(stream, "isatty", lambda: False)())


class Progress:
    """Counts finished units of work; a tqdm bar on a terminal, silent elsewhere.

    ``rate()`` and ``eta()`` are measured on ``clock`` from this session's units only (the
    numbers the bar shows); ``stream`` defaults to stderr.
    """

    def __init__(
        self,
        total: int,
        done: int = 0,
        *,
        label: str = "",
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        unit: str = "run",
    ) -> None:
        from tqdm import tqdm

        self.total = total
        self.done = done
        self.start_done = done
        self.clock = clock
        self.t0 = clock()
        self.stream = stream if stream is not None else sys.stderr
        self.tty = _is_tty(self.stream)
        self._bar = tqdm(
            total=total,
            initial=done,
            desc=label or None,
            unit=unit,
            file=self.stream,
            disable=not self.tty,
            smoothing=0,
            mininterval=0.1,
            dynamic_ncols=True,
            leave=True,
        )

    def rate(self) -> float:
        """Units per second in this session (0 before the first one finishes)."""
        elapsed = self.clock() - self.t0
        n = self.done - self.start_done
        return n / elapsed if elapsed > 0 and n > 0 else 0.0

    def eta(self) -> float:
        """Seconds left at the current rate (inf before the first unit finishes)."""
        r = self.rate()
        return (self.total - self.done) / r if r > 0 else float("inf")

    def advance(self, n: int = 1) -> None:
        """Count ``n`` more finished units (the bar redraws at most ten times a second)."""
        self.done += n
        self._bar.update(n)
        if self.done >= self.total:
            self._bar.close()

    def start(self) -> None:
        """Draw the bar once before any unit finishes."""
        self._bar.refresh()

    def finish_line(self) -> None:
        """End the bar (after an interruption or before other text) so later text starts on
        a fresh line."""
        self._bar.close()


def progress_callback(label: str, unit: str = "game") -> Callable[[int, int], None]:
    """A ``progress(done, total)`` callback (as ``tablesim.games.balance.balance`` takes) drawing one bar
    with an ETA on stderr when it is a terminal."""
    state: dict[str, Progress] = {}

    def update(done: int, total: int) -> None:
        bar = state.get("bar")
        if bar is None:
            bar = state["bar"] = Progress(total, label=label, unit=unit)
        bar.advance(done - bar.done)

    return update
