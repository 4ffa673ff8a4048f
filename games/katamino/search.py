"""Running the kernels: backend choice (compiled or pure Python) and resumable searches.

The backend is ``"numba"`` (compiled, 64-bit boards: the target's bounding box has at most 64
cells), ``"python"`` (any size, about 30 times slower) or ``"auto"`` (numba when
it is installed and the board fits, else python). The environment variable
``TABLESIM_SOLVER_BACKEND`` sets the default; a ``backend=`` argument overrides it. numba is
imported only when a search first runs with it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from games.katamino.errors import SolverError
from games.katamino.problem import Problem

BACKEND_ENV = "TABLESIM_SOLVER_BACKEND"
BACKENDS = ("auto", "numba", "python")
MAX_NUMBA_BITS = 64

_numba_kernel = None


def numba_kernel():
    """The compiled kernel module, imported on first use (ImportError if numba is missing)."""
    global _numba_kernel
    if _numba_kernel is None:
        from games.katamino import _kernel_numba

        _numba_kernel = _numba_kernel = _kernel_numba
    return _numba_kernel


def resolve_backend(backend: str | None, nbits: int) -> str:
    """The backend that will run: ``numba`` or ``python`` (see the module docstring)."""
    choice = backend if backend is not None else os.environ.get(BACKEND_ENV, "auto")
    if choice not in BACKENDS:
        where = "backend" if backend is not None else f"${BACKEND_ENV}"
        raise SolverError(f"{where} {choice!r}: allowed {', '.join(BACKENDS)}")
    if choice == "python":
        return "python"
    if nbits > MAX_NUMBA_BITS:
        if choice == "numba":
            raise SolverError(
                f"the numba backend needs a bounding box of at most {MAX_NUMBA_BITS} cells "
                f"(this one has {nbits}); use backend 'python' or 'auto'"
            )
        return "python"
    try:
        numba_kernel()
    except ImportError:
        if choice == "numba":
            raise SolverError("backend 'numba' requested but numba is not installed") from None
        return "python"
    return "numba"


class Search:
    """One search over a problem, resumable. ``keep`` restricts some types to a subset of their
    placements; ``roots`` (placement ids of one single-copy type) are branched on first, one
    kernel run each, before the kernel fills the lowest empty cell: placing the most
    constrained piece first cuts the tree (the X pentomino on the 6x10 has 32 placements).
    ``prune`` adds the region check (every region of empty cells must suit the remaining piece
    sizes): it cuts 10-45 % of the nodes but costs more time than it saves on every problem
    measured (6x10, 5x12, 8x8, 2x3x10, Soma), so it is off by default.
    ``run`` advances it; solutions come back as tuples of placement ids."""

    def __init__(
        self,
        problem: Problem,
        *,
        backend: str | None = None,
        keep: dict[int, set[int]] | None = None,
        roots: Sequence[int] | None = None,
        prune: bool = False,
    ) -> None:
        self.problem = problem
        self.backend = resolve_backend(backend, problem.nbits)
        if keep:
            self._ptr, self.ids = problem.restricted(keep)
        else:
            self._ptr, self.ids = problem.ptr, tuple(range(len(problem.masks)))
        self._roots = list(roots) if roots is not None else None
        self._ri = 0
        self.finished = False
        self.solutions = 0
        self.nodes = 0
        self._prune = bool(prune)
        self._a: dict | None = None
        if not problem.area_matches:
            self.finished = True

    def _fresh(self, root: int | None) -> None:
        problem = self.problem
        depth = problem.n_pieces + 1
        masks = [problem.masks[i] for i in self.ids]
        counts = problem.counts()
        start = problem.start
        if root is not None:
            counts[problem.ptypes[root]] -= 1
            start |= problem.masks[root]
        if self.backend == "numba":
            a = dict(
                full=np.uint64(problem.full),
                ptr=np.asarray(self._ptr, dtype=np.int64),
                masks=np.asarray(masks, dtype=np.uint64),
                counts=np.asarray(counts, dtype=np.int64),
                sizes=np.asarray(problem.sizes(), dtype=np.int64),
                shifts=np.asarray(problem.shifts, dtype=np.uint64),
                strides=np.asarray(problem.strides, dtype=np.int64),
                state=np.zeros(5, dtype=np.int64),
                boards=np.zeros(depth, dtype=np.uint64),
                cells=np.zeros(depth, dtype=np.int64),
                tys=np.zeros(depth, dtype=np.int64),
                idx=np.zeros(depth, dtype=np.int64),
                chosen=np.zeros(depth, dtype=np.int64),
            )
            a["boards"][0] = np.uint64(start)
        else:
            a = dict(
                full=problem.full, ptr=list(self._ptr), masks=masks, counts=counts,
                sizes=problem.sizes(), shifts=list(problem.shifts), strides=list(problem.strides),
                state=[0] * 5, boards=[0] * depth, cells=[0] * depth, tys=[0] * depth,
                idx=[0] * depth, chosen=[0] * depth,
            )  # fmt: skip
            a["boards"][0] = start
        a["root"] = root
        a["base"] = (self.solutions, self.nodes)
        a["done"] = False
        self._a = a

    def _next_kernel_run(self) -> bool:
        """Set up the next root (or the single rootless run); False when none is left."""
        if self._roots is None:
            if self._a is not None:
                return False
            self._fresh(None)
            return True
        while self._ri < len(self._roots):
            root = self._roots[self._ri]
            self._ri += 1
            if self.problem.masks[root] & self.problem.start:
                continue  # overlaps blocked cells
            self._fresh(root)
            return True
        return False

    def run(self, max_rows: int = 0, stop_after: int = 0) -> list[tuple[int, ...]]:
        """Advance until ``max_rows`` solutions are collected (0: collect none), ``stop_after``
        solutions have been counted in total (0: no limit) or the search ends."""
        rows: list[tuple[int, ...]] = []
        while not self.finished:
            if (self._a is None or self._a["done"]) and not self._next_kernel_run():
                self.finished = True
                break
            want = max_rows - len(rows) if max_rows else 0
            stop = stop_after - self.solutions if stop_after else 0
            rows.extend(self._kernel(want, stop))
            if (max_rows and len(rows) >= max_rows) or (stop_after and self.solutions >= stop_after):
                break
        return rows

    def _kernel(self, max_rows: int, stop_after: int) -> list[tuple[int, ...]]:
        a = self._a
        assert a is not None
        root = a["root"]
        pre = (root,) if root is not None else ()
        base_solutions, base_nodes = a["base"]
        if self.backend == "numba":
            out = np.zeros((max_rows, self.problem.n_pieces), dtype=np.int64)
            status = numba_kernel().search(
                a["full"], a["ptr"], a["masks"], a["counts"], a["sizes"], a["shifts"],
                a["strides"], self._prune, a["state"], a["boards"], a["cells"], a["tys"],
                a["idx"], a["chosen"], out, max_rows, stop_after,
            )  # fmt: skip
            n = int(a["state"][3])
            rows = [pre + tuple(self.ids[int(i)] for i in r[: len(r) - len(pre)]) for r in out[:n]]
        else:
            from games.katamino._kernel_python import search

            res: list[list[int]] = []
            status = search(
                a["full"], a["ptr"], a["masks"], a["counts"], a["sizes"], a["shifts"],
                a["strides"], self._prune, a["state"], a["boards"], a["cells"], a["tys"],
                a["idx"], a["chosen"], res, max_rows, stop_after,
            )  # fmt: skip
            rows = [pre + tuple(self.ids[i] for i in r) for r in res]
        a["state"][3] = 0
        self.solutions = base_solutions + int(a["state"][1])
        self.nodes = base_nodes + int(a["state"][2]) + (1 if root is not None else 0)
        a["done"] = status == 0
        return rows


def iter_rows(problem: Problem, *, backend: str | None = None,
              roots: Sequence[int] | None = None, batch: int = 256):  # fmt: skip
    """Yield every solution as a tuple of placement ids, lazily, in search order."""
    s = Search(problem, backend=backend, roots=roots)
    while not s.finished:
        yield from s.run(max_rows=batch)
