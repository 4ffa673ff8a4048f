"""Experiments benchmark: the speed-up of a sweep and of a tournament from 1 to 2 workers.

Run ``python bench/experiments.py`` (``--json`` for one JSON object on the last line; ``--ray``
adds the Ray executor with 2 workers, started locally, when ``tablesim[ray]`` is installed).
Figures, not pass/fail: the machine is shared, so each figure is printed with the 1-minute load
average and the CPU time (this process and its workers); the speed-up is the ratio of wall times
measured in the same process, and CPU time / wall time with 2 workers shows how many cores the
pool really got.

- ``sweep``: the 50 runs of ``experiments/cantilever-cube-size.toml`` (0.6 s windows, 2 replicas,
  simulated), through :func:`tablesim.sim.experiments.runner.run_job` with a CSV output (journal included);
- ``tournament``: a Catego round-robin of ``random,strong,random`` (default budgets), 8 games per
  table, 24 games.

The rows of the 1- and 2-worker runs are checked to be byte-identical (the figure is void
otherwise).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tablesim.sim.experiments.runner import run_job  # noqa: E402
from tablesim.sim.experiments.spec import load_spec  # noqa: E402
from tablesim.sim.experiments.sweep import SweepJob  # noqa: E402
from tablesim.sim.experiments.tournament import TournamentJob  # noqa: E402


def _jobs() -> dict[str, Any]:
    return {
        "sweep": SweepJob(load_spec(ROOT / "experiments" / "cantilever-cube-size.toml")),
        "tournament": TournamentJob("catego", ["random", "strong", "random"], 8, seed=1),
    }


def _cpu() -> float:
    me, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def _timed(job: Any, folder: Path, name: str, **kw: Any) -> tuple[float, float, bytes]:
    out = folder / f"{name}.csv"
    t0, c0 = time.perf_counter(), _cpu()
    run_job(job, out, stream=io.StringIO(), overwrite=True, **kw)
    return time.perf_counter() - t0, _cpu() - c0, out.read_bytes()


def figure(name: str, job: Any, with_ray: bool) -> dict[str, Any]:
    """Wall time with 1 and 2 local workers (and Ray), speed-up, runs per second."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        t1, c1, b1 = _timed(job, folder, "w1", workers=1)
        t2, c2, b2 = _timed(job, folder, "w2", workers=2)
        res: dict[str, Any] = {
            "runs": job.count,
            "wall_s_1_worker": round(t1, 3),
            "wall_s_2_workers": round(t2, 3),
            "speedup_1_to_2": round(t1 / t2, 3),
            "runs_per_s_2_workers": round(job.count / t2, 2),
            "cpu_s_1_worker": round(c1, 3),
            "cpu_s_2_workers": round(c2, 3),
            "cores_busy_2_workers": round(c2 / t2, 2),
            "identical_output": b1 == b2,
            "load_1min": round(os.getloadavg()[0], 2),
        }
        if with_ray:
            tr, _, br = _timed(job, folder, "ray", workers=2, executor="ray")
            res["wall_s_ray_2_workers"] = round(tr, 3)
            res["identical_output_ray"] = br == b1
    return res


def main(argv: list[str] | None = None) -> int:
    """Command line: ``--json``, ``--ray``, ``--only sweep|tournament``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="end with one JSON object line")
    ap.add_argument("--ray", action="store_true", help="also time the Ray executor (2 workers)")
    ap.add_argument("--only", choices=("sweep", "tournament"), default=None)
    args = ap.parse_args(argv)
    res: dict[str, Any] = {"cpus": os.cpu_count()}
    for name, job in _jobs().items():
        if args.only and name != args.only:
            continue
        fig = figure(name, job, args.ray)
        res[name] = fig
        line = (
            f"{name:<11} {fig['runs']:>4} runs: 1 worker {fig['wall_s_1_worker']:.2f} s, "
            f"2 workers {fig['wall_s_2_workers']:.2f} s, speed-up {fig['speedup_1_to_2']:.2f}x "
            f"(CPU {fig['cpu_s_1_worker']:.2f} s / {fig['cpu_s_2_workers']:.2f} s, "
            f"{fig['cores_busy_2_workers']:.2f} cores busy with 2; identical rows: "
            f"{fig['identical_output']}; load {fig['load_1min']})"
        )
        if "wall_s_ray_2_workers" in fig:
            line += f"; ray 2 workers {fig['wall_s_ray_2_workers']:.2f} s"
        print(line, flush=True)
    if args.json:
        print(json.dumps(res, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
