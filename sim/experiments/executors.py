"""Executors: compute the runs of a job on a local process pool or on a Ray cluster.

A *job* (:class:`Job`) knows how many runs it has and computes run ``i`` from ``i`` alone, so the
executor and the number of workers cannot change a row. An executor calls
``on_result(index, row, wall_s, worker)`` in the main process as each run finishes, in any
order; the caller journals the rows and sorts them at the end.

- ``local``: a pool of forked worker processes (default: all cores). Each worker computes one
  run at a time, and every PyBullet client is opened inside the worker that uses it (the
  parent opens none), so no client is ever shared between processes. If a worker dies (killed,
  out of memory), the pool is rebuilt and the runs it had not delivered are queued again; a run
  is delivered at most once, so nothing is lost or duplicated. With one worker, runs are
  computed in the calling process.
- ``ray``: Ray tasks (``pip install -e '.[ray]' in a tablesim checkout``), on a local Ray instance with ``workers``
  CPUs, or on the cluster at ``address``. Ray re-runs a task whose worker died (up to 3 times).
"""

from __future__ import annotations

import multiprocessing as mp
import os
import socket
import time
from collections import deque
from collections.abc import Callable, Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from tablesim.sim.lifeline import bind_to_parent, stop_pool

EXECUTORS = ("local", "ray")
MAX_BREAKS_WITHOUT_PROGRESS = 3

OnResult = Callable[[int, dict[str, Any], float, str], None]


class Job(Protocol):
    """What executors run: ``count`` runs, each computed by ``run(index)`` into a row dict."""

    kind: str
    count: int

    def run(self, index: int) -> dict[str, Any]:
        """The row of run ``index`` (a pure function of the job and ``index``)."""
        ...


class ExecutorError(RuntimeError):
    """An executor that cannot run (Ray missing, workers that keep dying)."""


def worker_name() -> str:
    """``host:pid`` of the calling process (for the ``worker`` timing column)."""
    return f"{socket.gethostname()}:{os.getpid()}"


def timed_run(job: Job, index: int) -> tuple[int, dict[str, Any], float, str]:
    """Run ``index`` of ``job`` with its wall time and the worker's name."""
    t0 = time.perf_counter()
    row = job.run(index)
    return index, row, time.perf_counter() - t0, worker_name()


# ---------------------------------------------------------------------------------------
# Local process pool
# ---------------------------------------------------------------------------------------
_WORKER_JOB: Job | None = None


def _init_worker(job: Job, parent: int) -> None:
    global _WORKER_JOB
    bind_to_parent(parent)  # die with the parent; Ctrl-C is the parent's (sim.lifeline)
    _WORKER_JOB = job


def _pool_task(index: int) -> tuple[int, dict[str, Any], float, str]:
    assert _WORKER_JOB is not None  # set by _init_worker; not input validation
    return timed_run(_WORKER_JOB, index)


def run_local(
    job: Job,
    indices: Iterable[int],
    on_result: OnResult,
    workers: int | None = None,
    *,
    on_event: Callable[[str], None] | None = None,
) -> None:
    """Compute ``indices`` on ``workers`` forked processes (see the module docstring)."""
    pending = deque(indices)
    n = max(1, workers or os.cpu_count() or 1)
    if n == 1 or len(pending) <= 1:
        for i in pending:
            on_result(*timed_run(job, i))
        return
    n = min(n, len(pending))
    window = 2 * n
    breaks = 0
    while pending:
        pool = ProcessPoolExecutor(
            n,
            mp_context=mp.get_context("fork"),
            initializer=_init_worker,
            initargs=(job, os.getpid()),
        )
        clean = False
        inflight: dict[Future[Any], int] = {}
        delivered_since_start = 0
        try:
            while pending or inflight:
                while pending and len(inflight) < window:
                    i = pending.popleft()
                    inflight[pool.submit(_pool_task, i)] = i
                finished, _ = wait(list(inflight), return_when=FIRST_COMPLETED)
                for fut in sorted(finished, key=lambda f: inflight[f]):
                    exc = fut.exception()
                    if isinstance(exc, BrokenProcessPool):
                        raise exc
                    inflight.pop(fut)
                    if exc is not None:
                        raise exc
                    on_result(*fut.result())
                    delivered_since_start += 1
            clean = True
        except BrokenProcessPool:
            clean = True
            # A worker died. Deliver what finished, queue the rest again (in index order).
            lost = []
            for fut, i in sorted(inflight.items(), key=lambda kv: kv[1]):
                if fut.done() and not fut.cancelled() and fut.exception() is None:
                    on_result(*fut.result())
                    delivered_since_start += 1
                else:
                    lost.append(i)
            pending.extendleft(reversed(lost))
            breaks = 0 if delivered_since_start else breaks + 1
            if on_event is not None:
                on_event(
                    f"a worker process died; {len(lost)} unfinished run(s) queued again "
                    f"({', '.join(map(str, lost[:8]))}{' ...' if len(lost) > 8 else ''})"
                )
            if breaks >= MAX_BREAKS_WITHOUT_PROGRESS:
                raise ExecutorError(
                    f"worker processes died {breaks} times in a row without finishing a run "
                    f"(runs {lost[:8]}); giving up"
                ) from None
        finally:
            stop_pool(pool, kill=not clean)  # interrupted or failed: kill, do not wait


# ---------------------------------------------------------------------------------------
# Ray
# ---------------------------------------------------------------------------------------
def _ray_task(job: Job, index: int) -> tuple[int, dict[str, Any], float, str]:
    return timed_run(job, index)


def import_ray() -> Any:
    """The ray module, or ExecutorError saying how to install it."""
    try:
        import ray
    except ImportError:
        from tablesim.games.extras import install_hint

        raise ExecutorError(
            f"the Ray executor needs ray, an optional extra; {install_hint('ray')}"
        ) from None
    return ray


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast for a ``host:port`` (or ``ray://host:port``) nobody listens on: ``ray.init``
    would otherwise retry for minutes. ``auto`` and other forms are left to Ray."""
    import socket as _socket

    text = address.removeprefix("ray://")
    host, sep, port = text.rpartition(":")
    if not sep or not port.isdigit() or not host:
        return
    try:
        with _socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except OSError as exc:
        raise ExecutorError(
            f"cannot reach the Ray cluster at {address}: {exc.strerror or exc} "
            "(is `ray start --head` running there?)"
        ) from None


def run_ray(
    job: Job,
    indices: Iterable[int],
    on_result: OnResult,
    workers: int | None = None,
    *,
    address: str | None = None,
    on_event: Callable[[str], None] | None = None,
) -> None:
    """Compute ``indices`` as Ray tasks (a local instance unless ``address`` is given)."""
    import logging

    ray = import_ray()
    pending = deque(indices)
    if not pending:
        return
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "logging_level": logging.WARNING,
        }
        if address:
            _check_reachable(address)
            kwargs["address"] = address
        else:
            kwargs["num_cpus"] = max(1, workers or os.cpu_count() or 1)
        try:
            ray.init(**kwargs)
        except Exception as exc:  # ray raises ConnectionError, RuntimeError, ValueError ...
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            raise ExecutorError(f"cannot start or reach {where}: {exc}") from None
        started = True
        if on_event is not None:
            on_event(f"ray: {'connected to ' + address if address else 'started a local instance'}")
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        slots = min(cpus, workers) if (workers and address) else cpus
        window = 2 * max(1, slots)
        task = ray.remote(num_cpus=1, max_retries=3)(_ray_task)
        job_ref = ray.put(job)
        inflight: dict[Any, int] = {}
        while pending or inflight:
            while pending and len(inflight) < window:
                i = pending.popleft()
                inflight[task.remote(job_ref, i)] = i
            ready, _ = ray.wait(list(inflight), num_returns=1)
            for ref in ready:
                inflight.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    raise exc.as_instanceof_cause() from None
                except ray.exceptions.RayError as exc:
                    raise ExecutorError(f"ray: a run failed in the cluster: {exc}") from None
                on_result(*result)
    finally:
        if started:
            ray.shutdown()


def execute(
    job: Job,
    indices: Iterable[int],
    on_result: OnResult,
    *,
    executor: str = "local",
    workers: int | None = None,
    address: str | None = None,
    on_event: Callable[[str], None] | None = None,
) -> None:
    """Compute ``indices`` of ``job`` with the named executor (``local`` or ``ray``)."""
    if executor == "local":
        if address:
            raise ExecutorError("--address is for --executor ray")
        run_local(job, indices, on_result, workers, on_event=on_event)
    elif executor == "ray":
        run_ray(job, indices, on_result, workers, address=address, on_event=on_event)
    else:
        raise ExecutorError(f"unknown executor {executor!r} (allowed: {', '.join(EXECUTORS)})")
