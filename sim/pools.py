"""How a verdict's replicas are run: warm PyBullet clients, a warm pool of worker processes,
the interpreter's switch interval while it runs (the stopping rule they obey:
:mod:`tablesim.sim.stopping`).

Warm PyBullet clients (:func:`lease_client`)
--------------------------------------------
Connecting a DIRECT PyBullet client costs 16-23 ms of CPU and 60-85 ms of wall time on the
2-core test machine, disconnecting 10-15 ms more: as much as simulating a settled tower's
0.2 s. A replica therefore borrows its thread's *warm* client: :class:`tablesim.sim.world.World` always
starts with ``resetSimulation``, and a world rebuilt by the same commands in a reset client
gives the same bits as one in a fresh client (tested in ``tests/test_ensemble.py``).

Warm pool (:func:`warm_pool`)
-----------------------------
With ``workers`` = W > 1, W processes simulate: the calling process and W - 1 workers of a
process pool kept alive between verdicts (the caller runs a replica whenever it would otherwise
wait, and collects the pool's results at that replica's rule checks; a worker whose replica
ends is handed the next one at once, from the pool's result thread). The pool is per process,
for the main thread; other threads get a pool of their own for one verdict (a worker bound to
its parent with ``PR_SET_PDEATHSIG`` dies with the *thread* that started it). Each worker keeps
its warm client, so a later verdict pays neither the fork nor the connection. A shared
cancellation counter ends a worker's replica at its next rule check once the parent no longer
needs it. :func:`close_pool` ends the pool (also at interpreter exit). While an ensemble has
a pool, the interpreter's switch interval is :data:`SWITCH_INTERVAL` (Bullet's step holds the
GIL that the pool's threads here need for a hand-over).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from tablesim.sim.lifeline import bind_to_parent, stop_pool

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

    from tablesim.sim.stopping import SequentialStop


# ---------------------------------------------------------------------------------------
# Warm PyBullet clients
# ---------------------------------------------------------------------------------------
_LOCAL = threading.local()


class _Client:
    """A thread's warm client; disconnected when the thread ends (its locals are dropped)."""

    def __init__(self) -> None:
        from tablesim.sim.bullet import connect_direct

        self.pid = os.getpid()
        self.id = connect_direct()
        self.busy = False

    def __del__(self) -> None:
        if self.pid == os.getpid():
            with contextlib.suppress(Exception):
                from tablesim.sim.bullet import pybullet_module

                pybullet_module().disconnect(physicsClientId=self.id)


@contextlib.contextmanager
def lease_client() -> Iterator[int | None]:
    """This thread's warm PyBullet client for one world, or None (the world connects its own)
    when the warm one is already lent (a world inside a world)."""
    warm: _Client | None = getattr(_LOCAL, "client", None)
    if warm is not None and warm.pid != os.getpid():  # a forked child: not ours to use
        warm = None
    if warm is None:
        warm = _LOCAL.client = _Client()
    if warm.busy:
        yield None
        return
    warm.busy = True
    try:
        yield warm.id
    finally:
        warm.busy = False


# ---------------------------------------------------------------------------------------
# Worker side: cancellation
# ---------------------------------------------------------------------------------------
class ReplicaCancelled(Exception):
    """Raised in a worker when the parent no longer needs the replica it is running."""


_CANCEL: Any = None  # the pool's shared counter (a multiprocessing RawValue), in workers
_CURRENT = 0  # the token of the verdict whose replica this worker runs


def _init_worker(parent: int, cancel: Any) -> None:
    global _CANCEL
    bind_to_parent(parent)  # die with the parent; Ctrl-C is the parent's (sim.lifeline)
    _CANCEL = cancel
    _LOCAL.abort = None  # forked while the parent ran a replica of its own: not ours


def _task(token: int, fn: Callable[[Any], Any], args: Any) -> Any:
    global _CURRENT
    _CURRENT = token
    return fn(args)


def cancelled() -> bool:
    """Whether the replica running here is no longer needed: in a pool worker, the parent gave
    up its verdict; in the parent, the ensemble settled without it (:class:`Replicas` asks at
    every rule check of a replica it runs itself, and collects the pool's results meanwhile).
    False elsewhere."""
    hook = getattr(_LOCAL, "abort", None)
    if hook is not None and hook[0] == os.getpid():  # never a hook inherited through a fork
        return bool(hook[1]())
    return _CANCEL is not None and _CANCEL.value >= _CURRENT


# ---------------------------------------------------------------------------------------
# Parent side: the warm pool
# ---------------------------------------------------------------------------------------
class _Pool:
    """A process pool, its cancellation counter and the last token handed out."""

    def __init__(self, workers: int) -> None:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor  # imported only when there are workers

        ctx = mp.get_context("fork")
        self.workers = workers
        self.pid = os.getpid()
        self.cancel = ctx.RawValue("q", 0)
        self.token = 0
        self.executor: ProcessPoolExecutor = ProcessPoolExecutor(
            workers, mp_context=ctx, initializer=_init_worker, initargs=(os.getpid(), self.cancel)
        )

    def next_token(self) -> int:
        self.token += 1
        return self.token

    def close(self, kill: bool = False) -> None:
        stop_pool(self.executor, kill=kill)

    def processes(self) -> list[Any]:
        """The executor's live worker processes (``multiprocessing.Process``; none before its
        first task): the one place that reads ``ProcessPoolExecutor``'s private table."""
        return list((getattr(self.executor, "_processes", None) or {}).values())

    @property
    def broken(self) -> bool:
        """Whether the executor saw a worker die (it then refuses new work)."""
        return bool(getattr(self.executor, "_broken", False))


_WARM: _Pool | None = None
_WARM_LOCK = threading.Lock()

SWITCH_INTERVAL: float | None = 2e-4
"""The interpreter's thread switch interval (s) while a verdict has pool work in flight (None:
leave it alone). Bullet's step holds the GIL, and each hand-over to a pool worker passes
through two of the pool's threads in this process (the executor's manager thread takes the
result and submits the next replica, the call queue's feeder thread pickles it to the worker);
each waits for the switch interval, 5 ms by default, before the stepping thread gives the GIL
up. At 0.2 ms a wait ends after the step in progress (docs/performance.md, Round 6)."""
_SWITCH_LOCK = threading.Lock()
_SWITCH_USERS = 0
_SWITCH_SAVED = 0.005


def _quick_switch(on: bool) -> None:
    """Enter (``on``) or leave the short switch interval; nested uses count, the last one out
    puts the previous interval back."""
    global _SWITCH_USERS, _SWITCH_SAVED
    import sys

    with _SWITCH_LOCK:
        if on:
            if _SWITCH_USERS == 0:
                _SWITCH_SAVED = sys.getswitchinterval()
                if SWITCH_INTERVAL is not None:
                    sys.setswitchinterval(min(SWITCH_INTERVAL, _SWITCH_SAVED))
            _SWITCH_USERS += 1
        elif _SWITCH_USERS > 0:
            _SWITCH_USERS -= 1
            if _SWITCH_USERS == 0:
                sys.setswitchinterval(_SWITCH_SAVED)


def warm_pool(workers: int) -> tuple[_Pool, bool]:
    """A pool of ``workers`` processes and whether it is the warm, shared one (main thread
    only); a pool of another size replaces the warm one."""
    global _WARM
    if threading.current_thread() is not threading.main_thread():
        return _Pool(workers), False
    with _WARM_LOCK:
        if _WARM is not None and _WARM.pid != os.getpid():
            _WARM = None  # inherited through a fork: not ours to use or stop
        if _WARM is not None and _WARM.broken:
            _WARM.close(kill=True)  # a worker died between verdicts (killed, out of memory)
            _WARM = None
        if _WARM is not None and _WARM.workers != workers:
            _WARM.close()
            _WARM = None
        if _WARM is None:
            _WARM = _Pool(workers)
        return _WARM, True


def close_pool(kill: bool = False) -> None:
    """Stop the warm pool (idempotent); the next verdict with workers starts a new one."""
    global _WARM
    with _WARM_LOCK:
        pool, _WARM = _WARM, None
    if pool is not None and pool.pid == os.getpid():
        pool.close(kill=kill)


def _drop_broken(pool: _Pool) -> None:
    global _WARM
    with _WARM_LOCK:
        if _WARM is pool:
            _WARM = None
    pool.close(kill=True)


atexit.register(close_pool, True)


def pool_cpu_seconds() -> float:
    """CPU seconds (user + system) used so far by the live workers of the warm pool, read from
    ``/proc`` (0 without a pool or off Linux): what ``RUSAGE_CHILDREN`` cannot count yet, since
    it only counts children that have ended. For benchmarks."""
    pool = _WARM
    if pool is None or pool.pid != os.getpid():
        return 0.0
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for proc in pool.processes():
        try:
            with open(f"/proc/{proc.pid}/stat", encoding="ascii") as fh:
                fields = fh.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15 of stat)
    return total / tick


# ---------------------------------------------------------------------------------------
# The ensemble
# ---------------------------------------------------------------------------------------
Run = Callable[[Any], Any]
"""A replica function ``run(args)``, picklable (a module-level function)."""

NO_SPECULATION: Any = object()
"""``Replicas(speculate=...)``'s default: start nothing before :meth:`Replicas.results`
(``speculate=None`` starts replicas at once without an early stop)."""


class Replicas:
    """The replica runs of one verdict: ``run((*jobs[k], stop))`` for k in index order, on
    ``workers`` processes -- this one and ``workers - 1`` workers of the warm pool -- stopped by
    ``sequential`` (None: every replica).

    This process takes part: whenever it waits for the pool it runs the next replica no one has
    started itself (its rule checks collect the pool's results, keep the pool busy and drop the
    replica once the ensemble settled without it), so ``workers`` processes simulate, not
    ``workers`` plus an idle parent. Results are consumed in index order whoever ran them.

    ``speculate``: start the pool's first replicas at once with that early stop (None: the whole
    window), before the caller knows whether statics allows it, so the static check runs in
    the calling process while the workers simulate. :meth:`results` keeps their early ends if
    the caller's ``stop`` is the same object and otherwise redoes, with ``stop``, those that
    did end early. A replica
    that never settled is bit-identical to one run without early stop (the quiet check only
    reads the state), so the result never depends on speculation, nor on the worker count.
    Outcomes must have boolean ``toppled`` and ``settled`` attributes. A replica's error (a
    blow-up) is raised when its index is consumed, as if the replicas ran one by one.

    A replica is started only while it is *likely needed* (:meth:`_wanted`): should the
    replicas before it that are still running end as most of the finished ones did, the
    ensemble would not have settled without it. So the all-standing tower runs replicas 0-4
    and no sixth beside the fifth (it cost a whole replica's CPU and, on a busy machine, slowed
    the fifth); a surprise in the fifth starts the sixth when the fifth ends. Only scheduling
    depends on it, never an outcome.
    """

    def __init__(
        self,
        run: Run,
        jobs: Sequence[tuple[Any, ...]],
        workers: int,
        speculate: Any = NO_SPECULATION,
        sequential: SequentialStop | None = None,
    ) -> None:
        self._run = run
        self._jobs = list(jobs)
        self._n = max(1, min(workers, len(self._jobs)))
        self._sequential = sequential
        self._pool: _Pool | None = None
        self._shared = False
        self._token = 0
        self._inflight: dict[int, tuple[Future[Any], Any]] = {}
        self._next = 0  # every index below it has been started (or finished)
        self._done: dict[int, tuple[bool, Any]] = {}  # index -> (ok, outcome or error)
        self._runs: list[Any] = []  # consumed outcomes, index order
        self._toppled = 0
        self._settled = False
        self._stop: Any = None  # the early stop results() runs with (hand-overs use it)
        self._lock = threading.RLock()  # the pool's result thread submits too (_handed_over)
        self._busy = False  # inside _advance or _fill: a nested hand-over leaves it to them
        self._collecting = False  # results() has begun
        if speculate is not NO_SPECULATION and self._n > 1:
            with self._lock:
                self._open()
                self._fill(speculate)

    def _open(self) -> _Pool:
        if self._pool is None:
            self._pool, self._shared = warm_pool(self._n - 1)
            self._token = self._pool.next_token()
            _quick_switch(True)  # until close(): hand-overs need the GIL (SWITCH_INTERVAL)
        return self._pool

    def _submit(self, k: int, stop: Any) -> None:
        pool = self._open()
        fut = pool.executor.submit(_task, self._token, self._run, (*self._jobs[k], stop))
        self._inflight[k] = (fut, stop)
        fut.add_done_callback(self._handed_over)

    def _handed_over(self, _fut: Future[Any]) -> None:
        """A pool replica ended (called in the pool's result thread): give the freed worker the
        next likely-needed replica at once, rather than at this process's next rule check (5-7
        ms on a quiet machine, 30-50 ms measured at load 6, twice on the early stop's longest
        chain). Results are still collected and consumed by the caller's thread alone."""
        with self._lock:
            if self._busy or self._pool is None or self._settled or not self._collecting:
                return  # before results() no outcome is read: the caller's thread decides
            with contextlib.suppress(Exception):  # a broken pool: the caller's thread sees it
                self._fill(self._stop)

    def _wanted(self, j: int) -> bool:
        """Whether replica ``j`` is likely needed: the unconsumed replicas before it are given
        their outcomes where known and otherwise the majority outcome of the finished replicas
        (none, or a tie: needed), and the ensemble must still be unsettled after them all."""
        seq, total = self._sequential, len(self._jobs)
        if seq is None:
            return True
        known = {k: out.toppled for k, (ok, out) in self._done.items() if ok}
        for k, (fut, _) in self._inflight.items():  # ended, not yet collected: the pool's
            # result thread asks (_handed_over) before the caller's thread has collected them
            if fut.done() and not fut.cancelled() and fut.exception() is None:
                known.setdefault(k, bool(fut.result().toppled))
        finished = [r.toppled for r in self._runs] + list(known.values())
        ups = sum(bool(t) for t in finished)
        if 2 * ups == len(finished):
            return True  # nothing finished yet, or a tie: no guess
        guess = 2 * ups > len(finished)
        toppled = self._toppled
        for i in range(len(self._runs), j):
            if i in self._done and not self._done[i][0]:
                return False  # its error ends the ensemble when it is consumed
            toppled += bool(known.get(i, guess))
            if seq.settled(toppled, i + 1, total):
                return False
        return True

    def _fill(self, stop: Any) -> None:
        """Keep the pool's ``workers - 1`` processes busy with the next replicas in order,
        those likely needed (:meth:`_wanted`)."""
        if self._n < 2:
            return
        with self._lock:
            busy, self._busy = self._busy, True
            try:
                while self._next < len(self._jobs):
                    running = sum(1 for fut, _ in self._inflight.values() if not fut.done())
                    if running >= self._n - 1:
                        return
                    if self._next not in self._inflight and self._next not in self._done:
                        if not self._wanted(self._next):
                            return
                        self._submit(self._next, stop)
                    self._next += 1
            finally:
                self._busy = busy

    def _advance(self, stop: Any) -> bool:
        """Collect the pool's finished replicas (redoing speculated early ends ``stop`` does not
        allow), consume outcomes in index order, keep the pool busy; True once settled."""
        with self._lock:
            busy, self._busy = self._busy, True
            try:
                return self._advance_locked(stop)
            finally:
                self._busy = busy

    def _advance_locked(self, stop: Any) -> bool:
        for k, (fut, used) in list(self._inflight.items()):
            if not fut.done():
                continue
            del self._inflight[k]
            exc = fut.exception()
            if exc is None and used is not stop and fut.result().settled:
                self._submit(k, stop)  # speculated early stop not allowed: redo
                continue
            self._done[k] = (exc is None, fut.result() if exc is None else exc)
        total = len(self._jobs)
        while not self._settled and len(self._runs) in self._done:
            ok, out = self._done.pop(len(self._runs))
            if not ok:
                raise out  # a replica's own error (a blow-up), raised in index order
            self._runs.append(out)
            self._toppled += bool(out.toppled)
            seq = self._sequential
            self._settled = len(self._runs) >= total or (
                seq is not None and seq.settled(self._toppled, len(self._runs), total)
            )
        if not self._settled:
            self._fill(stop)
        return self._settled

    def _run_here(self, k: int, stop: Any) -> None:
        """Run replica ``k`` in this process; dropped if the ensemble settles before ``k``."""
        from concurrent.futures import CancelledError

        failed: list[BaseException] = []  # another replica's error, met while collecting

        def needless() -> bool:
            try:
                return self._advance(stop) and len(self._runs) <= k
            except BaseException as exc:  # end this replica, then raise it as it is
                failed.append(exc)
                return True

        previous = getattr(_LOCAL, "abort", None)
        _LOCAL.abort = (os.getpid(), needless) if self._n > 1 else None
        try:
            out = self._run((*self._jobs[k], stop))
        except (ReplicaCancelled, CancelledError):
            out = None
        except Exception as exc:  # its own blow-up: raised when k is consumed (if it is)
            with self._lock:
                self._done[k] = (False, exc)
            out = None
        finally:
            _LOCAL.abort = previous
        if failed:
            raise failed[0]
        if out is not None:
            with self._lock:  # the pool's result thread reads it (_wanted)
                self._done[k] = (True, out)

    def results(self, stop: Any) -> list[Any]:
        """The consumed replicas' outcomes in index order, each as if run with ``stop``: all
        of them, or the first n once :class:`tablesim.sim.stopping.SequentialStop` settles the verdict."""
        from concurrent.futures import FIRST_COMPLETED, wait

        with self._lock:
            self._stop, self._collecting = stop, True
        try:
            while not self._advance(stop):
                with self._lock:
                    running = [f for f, _ in self._inflight.values() if not f.done()]
                    idle = not running and not any(f.done() for f, _ in self._inflight.values())
                    k = self._next
                    here = k < len(self._jobs) and (self._wanted(k) or idle)
                    if here:
                        self._next = k + 1  # the next replica no one has started
                if here:
                    self._run_here(k, stop)
                    continue
                if idle:
                    raise RuntimeError("ensemble: no replica left to run or wait for")
                if running:
                    wait(running, return_when=FIRST_COMPLETED)
        except BaseException:
            self.close(kill=True)  # Ctrl-C, SIGTERM, a blow-up: do not wait for the others
            raise
        self.close()
        return list(self._runs)

    def close(self, kill: bool = False) -> None:
        """Give up the replicas still running (idempotent). A warm pool stays up unless
        ``kill`` (an interrupt, an error: its workers are killed); a pool of its own is shut."""
        with self._lock:
            pool, self._pool = self._pool, None
            inflight = list(self._inflight.values())
            self._inflight.clear()
        if pool is None:
            return
        _quick_switch(False)
        pool.cancel.value = max(pool.cancel.value, self._token)
        for fut, _ in inflight:
            fut.cancel()
        if kill:
            _drop_broken(pool) if self._shared else pool.close(kill=True)
        elif not self._shared:
            pool.close()
