"""Sequential stopping, warm PyBullet clients and the warm pool of verdict ensembles
(:mod:`tablesim.sim.stopping`, :mod:`tablesim.sim.pools`; issue #24)."""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import pickle
import time
from pathlib import Path
from statistics import NormalDist

import pytest

from tablesim.games.stats import wilson_interval
from tablesim.sim.config import get_profile
from tablesim.sim.pools import Replicas, lease_client, warm_pool
from tablesim.sim.scene import load_scene, shipped_scene_path
from tablesim.sim.stopping import SequentialStop
from tablesim.sim.verdict import Perturbation, ToppleRule, perturb_scene, run_once, simulate

Z2 = NormalDist().inv_cdf(0.975) ** 2
"""The squared two-sided 95 % normal quantile, from the normal distribution itself."""


def test_wilson_interval_at_the_ends_matches_its_closed_form() -> None:
    """For 0 of n the Wilson interval is [0, z^2 / (n + z^2)]; for n of n, [n / (n + z^2), 1]
    (the square root term is z / 2 there)."""
    for n in range(1, 12):
        lo, hi = wilson_interval(0, n)
        assert lo == pytest.approx(0.0, abs=1e-15) and hi == pytest.approx(Z2 / (n + Z2))
        lo, hi = wilson_interval(n, n)
        assert lo == pytest.approx(n / (n + Z2)) and hi == pytest.approx(1.0)
    # 5 of 10: centred on 0.5, half width z sqrt(2.5 + z^2/4) / (10 + z^2).
    lo, hi = wilson_interval(5, 10)
    half = math.sqrt(Z2) * math.sqrt(2.5 + Z2 / 4) / (10 + Z2)
    assert (lo, hi) == pytest.approx((0.5 - half, 0.5 + half))


def test_sequential_rule_of_an_ensemble_of_eight() -> None:
    """N = 8, "topples" at 4 or more. All standing: after 4, 4 more topples could still make it
    topple; after 5 it cannot, and 0 of 5 has an upper bound of z^2/(5 + z^2) = 0.434 < 0.5.
    All toppling: 4 of 4 settles it, lower bound 4/(4 + z^2) = 0.510 > 0.5."""
    rule = SequentialStop()
    assert [rule.settled(0, n, 8) for n in range(1, 9)] == [False] * 4 + [True] * 4
    assert [rule.settled(n, n, 8) for n in range(1, 9)] == [False] * 3 + [True] * 5
    # 1 toppled of 6: the verdict is certain (1 + 2 < 4) but 1/6's upper bound is 0.56.
    assert not rule.settled(1, 6, 8) and rule.settled(1, 8, 8)
    # Half and half never stops before the end.
    assert not any(rule.settled(n // 2, n, 8) for n in range(1, 8))
    assert not any(rule.settled((n + 1) // 2, n, 8) for n in range(1, 8))


def test_small_ensembles_never_stop_early() -> None:
    """With 4 or fewer replicas no interval is narrow enough: 0 of 3 reaches 3.84/6.84 = 0.56,
    3 of 3 only 0.44 (so the careful bot's 2-replica verdicts are untouched)."""
    rule = SequentialStop()
    for total in range(1, 5):
        for run in range(1, total):
            for k in range(run + 1):
                assert not rule.settled(k, run, total), (k, run, total)


# A replica function for the scheduler alone: outcome from the index, slow early indices so
# that later replicas finish first (consumption must still follow index order).
class _Out:
    def __init__(self, toppled: bool, pid: int) -> None:
        self.toppled, self.settled, self.pid = toppled, False, pid


def _fake_run(args: tuple) -> _Out:
    k, pattern, stop = args
    time.sleep(0.05 if k % 2 == 0 else 0.0)
    return _Out(pattern[k % len(pattern)] == "T", os.getpid())


@pytest.mark.parametrize("workers", [1, 2])
def test_replicas_are_consumed_in_index_order_whatever_finishes_first(workers: int) -> None:
    # All standing stops at 5, all toppling at 4, half and half runs all 8; one topple at
    # index 2 too: 1 of 5 could still become 4 of 8, 1 of 6 and 1 of 7 are certain "stands"
    # but their upper bounds are 0.56 and 0.51.
    cases = {"SSSSSSSS": 5, "TTTTTTTT": 4, "TSTSTSTS": 8, "SSTSSSSS": 8}
    for pattern, expect in cases.items():
        jobs = [(k, pattern) for k in range(8)]
        runs = Replicas(_fake_run, jobs, workers, sequential=SequentialStop()).results(None)
        assert [r.toppled for r in runs] == [c == "T" for c in pattern[:expect]], pattern
        every = Replicas(_fake_run, jobs, workers, sequential=None).results(None)
        assert len(every) == 8


def _logged_run(args: tuple) -> _Out:
    """:func:`_fake_run` that first appends its index to a file (a worker's start is seen
    even when the parent cancels it later)."""
    k, pattern, log, stop = args
    with open(log, "a", encoding="ascii") as fh:
        fh.write(f"{k}\n")
    time.sleep(0.05)
    return _Out(pattern[k % len(pattern)] == "T", os.getpid())


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_no_replica_is_started_that_the_likely_outcome_does_not_need(
    workers: int, tmp_path: Path
) -> None:
    """All standing settles after replicas 0-4: no sixth is started beside the fifth (with 2
    or 3 processes the old scheduler started 5, and 6 too). All toppling settles after 0-3. A
    topple at 2 among standing ones needs all 8, so all 8 start."""
    for pattern, started in {"SSSSSSSS": 5, "TTTTTTTT": 4, "SSTSSSSS": 8}.items():
        log = tmp_path / f"{pattern}-{workers}.log"
        jobs = [(k, pattern, str(log)) for k in range(8)]
        runs = Replicas(_logged_run, jobs, workers, sequential=SequentialStop()).results(None)
        assert len(runs) == started
        assert sorted(int(x) for x in log.read_text().split()) == list(range(started)), pattern


def _logged_run_slow_here(args: tuple) -> _Out:
    """:func:`_logged_run`, replica 2 (the one the caller's thread takes with 3 workers: the
    pool's two processes get 0 and 1) taking 1 s: a loaded machine's slow caller, made sure."""
    if args[0] == 2:
        time.sleep(1.0)
    return _logged_run(args)


def test_replicas_ended_in_the_pool_count_before_the_caller_collects_them(tmp_path: Path) -> None:
    """All toppling settles after 0-3. With the caller's own replica (2) slow, the pool's 0 and
    1 end first and the freed workers ask for more before the caller has collected anything:
    their outcomes must count (the old scheduler saw no finished replica, so no guess, and
    started 4 too)."""
    log = tmp_path / "slow-here.log"
    jobs = [(k, "TTTTTTTT", str(log)) for k in range(8)]
    runs = Replicas(_logged_run_slow_here, jobs, 3, sequential=SequentialStop()).results(None)
    assert len(runs) == 4
    assert sorted(int(x) for x in log.read_text().split()) == [0, 1, 2, 3]


def test_speculation_without_an_early_stop_starts_the_pool_at_once(tmp_path: Path) -> None:
    """``speculate=None`` (a whole-window verdict) starts the pool's first replica when the
    ensemble is made, before :meth:`Replicas.results` is called (the caller's static check
    then runs beside it); the default starts nothing."""
    for speculate, expect in ((None, ["0"]), ("default", [])):
        log = tmp_path / f"{speculate}.log"
        jobs = [(k, "S", str(log)) for k in range(8)]
        kw = {} if speculate == "default" else {"speculate": speculate}
        ens = Replicas(_logged_run, jobs, 2, sequential=SequentialStop(), **kw)
        time.sleep(0.5)
        assert (log.read_text().split() if log.exists() else []) == expect
        assert len(ens.results(None)) == 5


def _slow_second_run(args: tuple) -> _Out:
    """Replica 1 does not end before replica 2 has started (it waits for its line in the log,
    at most 30 s, and logs whether it saw it); the others take 0.05 s. Starts and ends are
    logged in the order they happen."""
    k, log, stop = args
    with open(log, "a", encoding="ascii") as fh:
        fh.write(f"{k} start\n")
    seen = k != 1
    deadline = time.monotonic() + 30.0
    while not seen and time.monotonic() < deadline:
        time.sleep(0.01)
        seen = "2 start" in Path(log).read_text(encoding="ascii")
    if k != 1:
        time.sleep(0.05)
    with open(log, "a", encoding="ascii") as fh:
        fh.write(f"{k} end {'saw-2' if seen else 'alone'}\n")
    return _Out(False, os.getpid())


def test_a_pool_worker_gets_its_next_replica_when_it_ends_not_at_the_callers_check(
    tmp_path: Path,
) -> None:
    """With 2 processes the caller runs replica 1 (no rule check to collect results at; it
    ends only once replica 2 has started) while the pool worker runs 0: the worker must start
    2 as soon as 0 ends, not after the caller's replica (a hand-over that waited for the
    caller's next rule check would leave replica 1 alone until its 30 s give-up)."""
    log = tmp_path / "times.log"
    jobs = [(k, str(log)) for k in range(8)]
    runs = Replicas(_slow_second_run, jobs, 2, sequential=SequentialStop()).results(None)
    assert len(runs) == 5
    lines = log.read_text().splitlines()
    assert "1 end saw-2" in lines
    assert lines.index("2 start") < lines.index("1 end saw-2")


def _failing_run(args: tuple) -> _Out:
    k, bad, stop = args
    time.sleep(0.02)
    if k == bad:
        raise ArithmeticError(f"replica {k} blew up")
    return _Out(False, os.getpid())


@pytest.mark.parametrize("workers", [1, 2])
def test_a_replica_error_is_raised_only_when_its_index_is_needed(workers: int) -> None:
    """All standing stops after 5 of 8: an error in replica 6 (past the stop) is never seen,
    one in replica 2 is raised, whichever process ran it."""
    runs = Replicas(_failing_run, [(k, 6) for k in range(8)], workers, sequential=SequentialStop())
    assert len(runs.results(None)) == 5
    with pytest.raises(ArithmeticError, match="replica 2 blew up"):
        Replicas(_failing_run, [(k, 2) for k in range(8)], workers).results(None)


def test_with_two_workers_this_process_runs_replicas_beside_one_pool_worker() -> None:
    """workers = 2 means two processes simulate: the caller and one warm-pool worker."""
    jobs = [(k, "S") for k in range(8)]
    runs = Replicas(_fake_run, jobs, 2, sequential=None).results(None)
    pids = {r.pid for r in runs}
    assert os.getpid() in pids and len(pids) == 2
    children = {p.pid for p in multiprocessing.active_children()}
    assert pids - {os.getpid()} <= children  # the other one is a process this one started


def test_an_all_standing_scene_stops_after_five_of_eight_with_the_same_bytes_per_worker_count() -> (
    None
):
    """cantilever-safe stands (statics: 2 mm inside its pedestal), and its replicas come to rest
    at once (early stop after 0.2 s): the ensemble of 8 stops after 5, says so, and 1 and 2
    workers give the same JSON; without sequential stopping all 8 run, same verdict."""
    scene = load_scene(shipped_scene_path("cantilever-safe"))
    one, two = (simulate(scene, method="simulate", replicas=8, workers=w) for w in (1, 2))
    assert json.dumps(one.to_json(), sort_keys=True) == json.dumps(two.to_json(), sort_keys=True)
    doc = one.to_json()
    assert (doc["replicas"], doc["replicas_requested"], doc["replicas_toppled"]) == (5, 8, 0)
    sequential = dict(doc["sequential"])
    z = sequential.pop("z")
    assert sequential == {"interval": "wilson", "threshold": 0.5}
    assert z == pytest.approx(NormalDist().inv_cdf(0.975), rel=1e-15)  # the 95 % quantile
    assert "Sequential stop after 5 of 8 replicas" in doc["explanation"]
    full = simulate(scene, method="simulate", replicas=8, workers=2, sequential=None)
    assert full.replicas == 8 and full.verdict == one.verdict == "stands"
    assert full.replica_toppled[:5] == one.replica_toppled
    assert full.to_json()["sequential"] is None


def test_a_toppling_scene_stops_after_four_of_eight() -> None:
    """cantilever-tips: the bar's centre of mass is outside its pedestal, every replica topples
    at once, so 4 of 4 settle the verdict of 8 (the whole-ensemble answer, topples)."""
    scene = load_scene(shipped_scene_path("cantilever-tips"))
    v = simulate(scene, method="simulate", replicas=8, seconds=1.0, workers=2)
    assert (v.verdict, v.replicas, v.replicas_requested) == ("topples", 4, 8)
    assert v.replica_toppled == (True,) * 4 and v.topple_probability == 1.0


def test_a_world_in_a_warm_client_gives_the_bits_of_a_fresh_one() -> None:
    """The same replica run in a fresh PyBullet client and in the thread's warm client after
    another scene was simulated in it (resetSimulation, then the same commands)."""
    tower = load_scene(shipped_scene_path("kozo-tower"))
    other = load_scene(shipped_scene_path("kozo-overhang"))
    prof, rule = get_profile("verdict"), ToppleRule()

    def run(scene, k: int) -> bytes:
        return pickle.dumps(run_once(perturb_scene(scene, 3, k, Perturbation()), prof, 0.3, rule))

    with lease_client() as held:  # the warm client is taken: these build fresh clients
        assert held is not None
        fresh_tower, fresh_other = run(tower, 1), run(other, 2)
    warm = [run(other, 2), run(tower, 1), run(other, 2)]  # these lease the warm client
    assert warm == [fresh_other, fresh_tower, fresh_other]


def test_the_warm_pool_serves_later_verdicts_with_the_same_workers() -> None:
    """A 2-worker verdict runs in this process and one pool worker (warm_pool(1))."""
    scene = load_scene(shipped_scene_path("cantilever-safe"))
    pool, shared = warm_pool(1)
    assert shared
    simulate(scene, method="simulate", replicas=2, workers=2)
    before = sorted(p.pid for p in pool.processes())
    again = simulate(scene, method="simulate", replicas=2, workers=2)
    assert warm_pool(1)[0] is pool
    assert sorted(p.pid for p in pool.processes()) == before
    assert again.verdict == "stands"


def test_a_threads_warm_client_is_disconnected_when_the_thread_ends() -> None:
    import gc
    import threading

    from tablesim.sim.bullet import pybullet_module

    seen: list[int | None] = []

    def work() -> None:
        with lease_client() as cid:
            seen.append(cid)

    t = threading.Thread(target=work)
    t.start()
    t.join()
    gc.collect()
    p = pybullet_module()
    assert seen[0] is not None and not p.isConnected(physicsClientId=seen[0])
    with lease_client() as mine:  # this thread's own stays connected between worlds
        assert mine is not None and p.isConnected(physicsClientId=mine)
    assert p.isConnected(physicsClientId=mine)


def test_a_warm_pool_whose_worker_died_between_verdicts_is_replaced() -> None:
    import signal

    scene = load_scene(shipped_scene_path("cantilever-safe"))
    simulate(scene, method="simulate", replicas=2, workers=2)
    pool, _ = warm_pool(1)
    victim = next(iter(pool.processes()))
    os.kill(victim.pid, signal.SIGKILL)
    victim.join(10)
    deadline = time.monotonic() + 10
    while not pool.broken and time.monotonic() < deadline:
        time.sleep(0.05)  # the executor notices the death in its own thread
    v = simulate(scene, method="simulate", replicas=2, workers=2)
    assert v.verdict == "stands" and warm_pool(1)[0] is not pool


def _switch_run(args: tuple) -> _Out:
    """Records the interpreter's switch interval in the process that runs the replica."""
    import sys

    k, log, bad, stop = args
    with open(log, "a", encoding="ascii") as fh:
        fh.write(f"{os.getpid()} {sys.getswitchinterval()!r}\n")
    time.sleep(0.02)
    if k == bad:
        raise ArithmeticError(f"replica {k} blew up")
    return _Out(False, os.getpid())


def test_the_switch_interval_is_short_while_the_pool_works_and_put_back_after(
    tmp_path: Path,
) -> None:
    """Bullet's step holds the GIL, and a hand-over to a pool worker passes two threads of this
    process that wait for it: while an ensemble has a pool the interval is ``SWITCH_INTERVAL``
    (the default 5 ms made each hand-over wait 5-10 ms); afterwards, after an error too, and
    with no pool at all, it is the caller's own."""
    import sys

    from tablesim.sim import pools

    before = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.004)
        for workers, bad, want in ((2, -1, pools.SWITCH_INTERVAL), (1, -1, 0.004)):
            log = tmp_path / f"{workers}.log"
            jobs = [(k, str(log), bad) for k in range(8)]
            ens = Replicas(_switch_run, jobs, workers, sequential=SequentialStop())
            assert len(ens.results(None)) == 5
            here = [float(v) for pid, v in (r.split() for r in log.read_text().splitlines())
                    if int(pid) == os.getpid()]  # fmt: skip
            assert here and all(v == pytest.approx(want, rel=1e-6) for v in here), (workers, here)
            assert sys.getswitchinterval() == 0.004
        jobs = [(k, str(tmp_path / "bad.log"), 1) for k in range(8)]
        with pytest.raises(ArithmeticError, match="replica 1 blew up"):
            Replicas(_switch_run, jobs, 2, sequential=SequentialStop()).results(None)
        assert sys.getswitchinterval() == 0.004
    finally:
        sys.setswitchinterval(before)
