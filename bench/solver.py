"""Solver benchmark: count the 6x10 pentomino solutions with X in one quadrant (2339) with our
solver and with the ``xcover`` package (``pip install -e ".[bench]"``), same formulation.

Run ``python bench/solver.py`` (``--json`` ends with one JSON object line). Both sides are
warmed first (numba JIT compiled or loaded from cache), then timed ``--repeat`` times (default
5); the medians of wall and CPU time (``time.process_time``) are printed with
``ratio_to_xcover = ours / xcover`` (CPU medians: the machine is shared). The formulation: the
X pentomino restricted to the 8 placements with its centre in the quadrant x < 4.5, y < 2.5
(the symmetry group of the 6x10 has order 4 and no X placement is fixed by a non-identity
symmetry, so each class of solutions is counted exactly once), the 11 other pieces free.

Also measured: the JIT warm-up (first call in a fresh process, with an empty numba cache and
with the cache filled), and on request our pure-Python backend (``--python``, about 9 s) and a
plain-Python Algorithm X with dict-of-sets (``--baseline``, about a minute).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from games.katamino import Problem, Target  # noqa: E402
from games.katamino import search as ksearch  # noqa: E402

EXPECTED = 2339


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


def ours(p: Problem, quad: list[int], backend: str = "numba") -> int:
    """Our count: X branched on first over its 8 quadrant placements, then the kernel."""
    s = ksearch.Search(p, backend=backend, roots=quad)
    s.run()
    return s.solutions


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
    """Median wall and CPU seconds over ``repeat`` runs, and the result (checked equal)."""
    walls, cpus, results = [], [], set()
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        results.add(fn())
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
    if len(results) != 1:
        raise RuntimeError(f"results differ between runs: {sorted(results)}")
    return {"result": results.pop(), "wall_s": statistics.median(walls),
            "cpu_s": statistics.median(cpus)}  # fmt: skip


def jit_warmup(empty_cache: bool) -> float:
    """CPU seconds of the first kernel call in a fresh process (numba import excluded)."""
    code = (
        f"import time, sys; sys.path.insert(0, {str(ROOT)!r})\n"
        "from games.katamino import solve_count\n"
        "from games.katamino.search import numba_kernel\n"
        "numba_kernel()\n"
        "t = time.process_time(); solve_count('3x5', 'pentominoes:LPU', backend='numba')\n"
        "print(time.process_time() - t)\n"
    )
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        if empty_cache:
            env["NUMBA_CACHE_DIR"] = tmp
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             env=env, check=True)  # fmt: skip
    return float(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    """Command line: ``--json``, ``--repeat N``, ``--python``, ``--baseline``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="end with one JSON object line")
    ap.add_argument("--repeat", type=int, default=5, help="timed runs per solver (median)")
    ap.add_argument("--python", action="store_true", help="also time our pure-Python backend")
    ap.add_argument("--baseline", action="store_true", help="also time plain Algorithm X")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")

    res: dict = {"problem": "6x10 pentominoes, X in one quadrant", "expected": EXPECTED}
    res["jit_compile_s"] = jit_warmup(empty_cache=True)
    res["jit_cached_s"] = jit_warmup(empty_cache=False)
    p, xt, quad = quadrant_problem()
    ours(p, quad)  # warm
    o = timed(lambda: ours(p, quad), args.repeat)
    res.update(ours_s=o["cpu_s"], ours_wall_s=o["wall_s"], ours_count=o["result"])
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
    for k in sorted(res):
        v = res[k]
        print(f"{k:>22}: {v:.4f}" if isinstance(v, float) else f"{k:>22}: {v}")
    counts = [res[k] for k in res if k.endswith("_count")]
    if any(c != EXPECTED for c in counts):
        print(f"error: a count differs from {EXPECTED}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(res, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
