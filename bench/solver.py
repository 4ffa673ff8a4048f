"""Solver benchmark: count the 6x10 pentomino solutions with X in one quadrant (2339) with our
solver and with the ``xcover`` package (``pip install -e ".[bench]"``), same formulation.

Run ``python bench/solver.py`` (``--json`` ends with one JSON object line). Both sides are
warmed first (numba JIT compiled or loaded from cache), then timed ``--repeat`` times (default
9); the medians of wall and CPU time (``time.process_time``) and the minimum CPU time are
printed (the plain kernel and the one with its hole check interleaved, run by run) with
``ratio_to_xcover = ours / xcover`` (CPU medians: the machine is shared). The formulation: the
X pentomino restricted to the 8 placements with its centre in the quadrant x < 4.5, y < 2.5
(the symmetry group of the 6x10 has order 4 and no X placement is fixed by a non-identity
symmetry, so each class of solutions is counted exactly once), the 11 other pieces free.

Also measured: the kernel with its hole check on (``ours_hole_*``: same count, fewer nodes);
the kernel's first use in a fresh process, from an empty cache (numba builds the object file:
``kernel_build_s``) and from the file (llvmlite links it: ``kernel_load_s``); whole processes
(CPU of the child, process plus system), each beside ``python -c pass`` measured in the same
loop: ``tablesim --help`` and ``tablesim solve --board 6x10 --pieces pentominoes --count
--distinct --json`` (``--no-process`` skips them); the 1-minute load before and after. On
request: every distinct filling of the 3x4x5 box (``--box``, 3940, 10-15 s of CPU per cut
setting), our pure-Python backend (``--python``, about 9 s) and a plain-Python Algorithm X
with dict-of-sets (``--baseline``, about a minute).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tablesim.games.katamino import Problem, Target  # noqa: E402
from tablesim.games.katamino import search as ksearch  # noqa: E402

EXPECTED = 2339
PLAIN_NODES = 2_455_947
"""Nodes of the plain lowest-empty-cell tree of this problem (hole check off): the same as
the reference C solver's and as every earlier version of our kernel."""
BOX_DISTINCT = 3940


def quadrant_problem() -> tuple[Problem, int, list[int]]:
    """The 6x10 problem, the X type and the ids of the 8 quadrant placements of X."""
    p = Problem(Target.rectangle(6, 10), "pentominoes")
    xt = next(t.index for t in p.types if t.pieces[0].name == "X")
    quad = []
    for pid in p.placements_of(xt):
        cells = p.cells_of(p.masks[pid])
        cx = sum(c[0] for c in cells) / 5
        cy = sum(c[1] for c in cells) / 5
        if cx < 4.5 and cy < 2.5:
            quad.append(pid)
    return p, xt, quad


def ours(p: Problem, quad: list[int], backend: str = "numba", hole: bool = False) -> int:
    """Our count: X branched on first over its 8 quadrant placements, then the kernel."""
    return ours_nodes(p, quad, backend, hole)[0]


def ours_nodes(p: Problem, quad: list[int], backend: str = "numba",
               hole: bool = False) -> tuple[int, int]:  # fmt: skip
    """(solutions, nodes) of :func:`ours`."""
    s = ksearch.Search(p, backend=backend, roots=quad, hole=hole)
    s.run()
    return s.solutions, s.nodes


def xcover_options(p: Problem, xt: int, quad: list[int]) -> list[list]:
    """The same formulation for xcover: one option per placement, items = cells + piece."""
    opts = []
    for pid, m in enumerate(p.masks):
        t = p.ptypes[pid]
        if t == xt and pid not in quad:
            continue
        opts.append([f"p{t}"] + [f"c{x},{y}" for x, y, _ in p.cells_of(m)])
    return opts


def xcover_count(opts: list[list]) -> int:
    """Count with xcover's numba dancing-cells solver."""
    import warnings

    with warnings.catch_warnings():  # xcover's own ZDD module warns on import (not used here)
        warnings.simplefilter("ignore")
        from xcover import covers

    return sum(1 for _ in covers(opts))


def algorithm_x_count(opts: list[list]) -> int:
    """Plain-Python Algorithm X (dict of sets, MRV on items): the baseline."""
    cols: dict = {}
    rows = {i: o for i, o in enumerate(opts)}
    for i, o in rows.items():
        for it in o:
            cols.setdefault(it, set()).add(i)

    def select(r: int) -> list[set]:
        removed = []
        for j in rows[r]:
            for i in cols[j]:
                for k in rows[i]:
                    if k != j:
                        cols[k].remove(i)
            removed.append(cols.pop(j))
        return removed

    def deselect(r: int, removed: list[set]) -> None:
        for j in reversed(rows[r]):
            cols[j] = removed.pop()
            for i in cols[j]:
                for k in rows[i]:
                    if k != j:
                        cols[k].add(i)

    def solve() -> int:
        if not cols:
            return 1
        c = min(cols, key=lambda k: len(cols[k]))
        n = 0
        for r in list(cols[c]):
            removed = select(r)
            n += solve()
            deselect(r, removed)
        return n

    return solve()


def timed(fn, repeat: int) -> dict:
    """Median wall and CPU seconds and the minimum CPU seconds over ``repeat`` runs, and the
    result (checked equal)."""
    walls, cpus, results = [], [], set()
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        results.add(fn())
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    if len(results) != 1:
        raise RuntimeError(f"results differ between runs: {sorted(results)}")
    return {"result": results.pop(), "wall_s": statistics.median(walls),
            "cpu_s": statistics.median(cpus), "cpu_min_s": min(cpus)}  # fmt: skip


def timed_pair(fa, fb, repeat: int) -> tuple[dict, dict]:
    """:func:`timed` for two functions, their runs interleaved (a, b, a, b, ...) so both see
    the same load."""
    a: list[dict] = []
    b: list[dict] = []
    for _ in range(repeat):
        a.append(timed(fa, 1))
        b.append(timed(fb, 1))

    def merge(rs: list[dict]) -> dict:
        if len({r["result"] for r in rs}) != 1:
            raise RuntimeError("results differ between runs")
        return {"result": rs[0]["result"], "wall_s": statistics.median(r["wall_s"] for r in rs),
                "cpu_s": statistics.median(r["cpu_s"] for r in rs),
                "cpu_min_s": min(r["cpu_s"] for r in rs)}  # fmt: skip

    return merge(a), merge(b)


def load_text() -> str:
    """The 1-, 5- and 15-minute load averages, as ``uptime`` prints them."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def kernel_first_use(cache: str) -> float:
    """CPU seconds of the kernel's first use in a fresh process (``numba_kernel()``: build or
    link) with the kernel cache in folder ``cache``."""
    code = (
        f"import time, sys; sys.path.insert(0, {str(ROOT)!r})\n"
        "from tablesim.games.katamino.search import numba_kernel\n"
        "t = time.process_time(); k = numba_kernel()\n"
        "print(time.process_time() - t, k.source)\n"
    )
    env = dict(os.environ, TABLESIM_CACHE_DIR=cache)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True)  # fmt: skip
    return float(out.stdout.split()[-2])


def process_cpu(argv: list[str], repeat: int) -> dict:
    """Median and minimum CPU seconds (user + system) and median wall seconds of a whole child
    process, over ``repeat`` runs."""
    cpus, walls = [], []
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))  # fmt: skip
    for _ in range(repeat):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        w0 = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, env=env, check=True)
        walls.append(time.perf_counter() - w0)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(r1.ru_utime + r1.ru_stime - r0.ru_utime - r0.ru_stime)
    return {"cpu_s": statistics.median(cpus), "cpu_min_s": min(cpus),
            "wall_s": statistics.median(walls)}  # fmt: skip


def process_figures(repeat: int) -> dict:
    """The whole-process figures, interleaved with the empty interpreter as their baseline."""
    py = sys.executable
    cmds = {
        "python_pass": [py, "-c", "pass"],
        "help": [py, "-m", "tablesim.sim.cli", "--help"],
        "solve_6x10": [py, "-m", "tablesim.sim.cli", "solve", "--board", "6x10", "--pieces",
                       "pentominoes", "--count", "--distinct", "--json"],
    }  # fmt: skip
    runs: dict[str, list[dict]] = {k: [] for k in cmds}
    for _ in range(repeat):
        for k, argv in cmds.items():
            runs[k].append(process_cpu(argv, 1))
    out = {}
    for k, rs in runs.items():
        out[f"process_{k}_cpu_s"] = statistics.median(r["cpu_s"] for r in rs)
        out[f"process_{k}_cpu_min_s"] = min(r["cpu_s"] for r in rs)
        out[f"process_{k}_wall_s"] = statistics.median(r["wall_s"] for r in rs)
    base = out["process_python_pass_cpu_s"]
    for k in ("help", "solve_6x10"):
        out[f"process_{k}_ratio_to_python_pass"] = out[f"process_{k}_cpu_s"] / base
    return out


def box_figures() -> dict:
    """``count_distinct`` of the 3x4x5 box with the 12 pentominoes, hole check off and on."""
    from tablesim.games.katamino import Target, count_distinct

    out: dict = {}
    for hole in (False, True):
        key = "box_hole" if hole else "box"
        c0 = time.process_time()
        r = count_distinct(Target.box(3, 4, 5), "pentominoes", hole=hole)
        out.update({f"{key}_cpu_s": time.process_time() - c0, f"{key}_nodes": r.nodes,
                    f"{key}_distinct": r.distinct, f"{key}_total": r.count})  # fmt: skip
    return out


def main(argv: list[str] | None = None) -> int:
    """Command line: ``--json``, ``--repeat N``, ``--python``, ``--baseline``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="end with one JSON object line")
    ap.add_argument("--repeat", type=int, default=9, help="timed runs per solver (median, min)")
    ap.add_argument("--python", action="store_true", help="also time our pure-Python backend")
    ap.add_argument("--baseline", action="store_true", help="also time plain Algorithm X")
    ap.add_argument("--box", action="store_true", help="also count the 3x4x5 box (3940)")
    ap.add_argument("--no-process", action="store_true", help="skip the whole-process figures")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")

    res: dict = {"problem": "6x10 pentominoes, X in one quadrant", "expected": EXPECTED,
                 "load_before": os.getloadavg()[0], "uptime_before": load_text()}  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        res["kernel_build_s"] = kernel_first_use(tmp)
        res["kernel_load_s"] = kernel_first_use(tmp)
    p, xt, quad = quadrant_problem()
    ours(p, quad)  # warm
    ours(p, quad, hole=True)
    o, h = timed_pair(lambda: ours_nodes(p, quad), lambda: ours_nodes(p, quad, hole=True),
                      args.repeat)  # fmt: skip
    res.update(ours_s=o["cpu_s"], ours_min_s=o["cpu_min_s"], ours_wall_s=o["wall_s"],
               ours_count=o["result"][0], ours_nodes=o["result"][1], ours_hole_s=h["cpu_s"],
               ours_hole_min_s=h["cpu_min_s"], ours_hole_count=h["result"][0],
               ours_hole_nodes=h["result"][1])  # fmt: skip
    if not args.no_process:
        res.update(process_figures(args.repeat))
    if args.box:
        res.update(box_figures())
    opts = xcover_options(p, xt, quad)
    res["options"] = len(opts)
    try:
        xcover_count(opts)  # warm (JIT or cache load)
    except ImportError:
        res.update(xcover_s=None, ratio_to_xcover=None, xcover_note="xcover not installed")
    else:
        x = timed(lambda: xcover_count(opts), args.repeat)
        res.update(xcover_s=x["cpu_s"], xcover_wall_s=x["wall_s"], xcover_count=x["result"],
                   ratio_to_xcover=o["cpu_s"] / x["cpu_s"])  # fmt: skip
    if args.python:
        py = timed(lambda: ours(p, quad, backend="python"), 1)
        res.update(python_backend_s=py["cpu_s"], python_backend_count=py["result"])
    if args.baseline:
        b = timed(lambda: algorithm_x_count(opts), 1)
        res.update(algorithm_x_s=b["cpu_s"], algorithm_x_count=b["result"])
    res["load_after"] = os.getloadavg()[0]
    res["uptime_after"] = load_text()
    for k in sorted(res):
        v = res[k]
        print(f"{k:>22}: {v:.4f}" if isinstance(v, float) else f"{k:>22}: {v}")
    counts = [res[k] for k in res if k.endswith("_count")]
    if any(c != EXPECTED for c in counts):
        print(f"error: a count differs from {EXPECTED}", file=sys.stderr)
        return 1
    if res["ours_nodes"] != PLAIN_NODES:
        print(f"error: {res['ours_nodes']} nodes, not the plain tree's {PLAIN_NODES}",
              file=sys.stderr)  # fmt: skip
        return 1
    if args.box and not res["box_distinct"] == res["box_hole_distinct"] == BOX_DISTINCT:
        print(f"error: the 3x4x5 box has {BOX_DISTINCT} distinct fillings", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(res, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
