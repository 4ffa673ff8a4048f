"""A wait simulated as it happens: the table's world runs on while a person thinks.

The Kozo table (:mod:`tablesim.sim.slices.kozo.referee`) measures a slow player's placement by running its
world, watched, through every second the player waited past the 5-second window. Done when the
piece is dropped, an hour's thought would cost a minute of simulation before the verdict. An
:class:`IdleWatch` runs that same :func:`tablesim.sim.referees.persistent_world.watch` in a worker
thread as the person's clock runs, a check interval at a time and never ahead of the person's
clock (less :data:`MARGIN`): when the piece is dropped, the length of the wait becomes known and
the watch is finished to exactly that many check intervals. The world sees the same steps in
the same order as the watch made at the drop, so the report and the bits are the same (tested
against a table without it).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from tablesim.sim.referees.persistent_world import FallReport, PersistentWorld, watch
from tablesim.sim.verdict import ToppleRule

MARGIN = 0.3
"""Seconds the simulated wait stays behind the person's clock: a time to place is rounded to
0.1 s (it may read up to 0.05 s less than the clock did), so the watch never steps an interval
the placement will not have."""


class IdleWatch:
    """The watch of a wait of unknown length, in a daemon thread.

    ``waited()`` is the seconds waited so far (None while the person's clock is not running);
    ``on_start()`` runs in the thread just before the first interval is stepped (the table
    forgets its snapshots of the window then: a placement inside the window never comes).
    :meth:`finish` ends it."""

    def __init__(
        self,
        world: PersistentWorld,
        waited: Callable[[], float | None],
        on_start: Callable[[], None] | None = None,
        *,
        limit_s: float = 3600.0,
    ) -> None:
        self.world = world
        self._waited = waited
        self._on_start = on_start
        rule = ToppleRule()
        self._interval = max(1, round(rule.check_every / world.time_step)) * world.time_step
        """Seconds of one check interval of :func:`watch`."""
        self._limit = limit_s
        self._cond = threading.Condition()
        self._target: int | None = None
        self.stepped = 0
        """Check intervals stepped so far."""
        self.report: FallReport | None = None
        self._thread = threading.Thread(target=self._run, daemon=True, name="tablesim-idle")
        self._thread.start()

    def _allowed(self, k: int) -> bool:
        """Whether interval ``k`` (0-based) lies behind the person's clock (less the margin)."""
        w = self._waited()
        return w is not None and (k + 1) * self._interval + MARGIN <= w

    def _gate(self, k: int) -> bool:
        """``watch``'s stop: wait until interval ``k`` may be stepped; True to stop."""
        with self._cond:
            while True:
                if self._target is not None and k >= self._target:
                    return True
                if self._target is not None or self._allowed(k):
                    self.stepped = k + 1
                    return False
                self._cond.wait(timeout=0.05)

    def _run(self) -> None:
        with self._cond:  # the watch starts only once its first interval is due
            while self._target is None and not self._allowed(0):
                self._cond.wait(timeout=0.05)
            if self._target == 0:
                return
        if self._on_start is not None:
            self._on_start()
        self.report = watch(self.world, self._limit, stop=self._gate)

    def finish(self, target: int) -> FallReport | None:
        """End the watch after ``target`` check intervals (0: never started) and return its
        report -- None when it had already stepped more than ``target`` (the world is then
        ahead of the placement: the caller rebuilds it)."""
        with self._cond:
            self._target = int(target)
            self._cond.notify_all()
        self._thread.join()
        if self.stepped > target:
            return None
        return self.report if self.report is not None else FallReport()
