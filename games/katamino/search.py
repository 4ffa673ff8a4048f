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
from functools import lru_cache

import numpy as np

from games.katamino.errors import SolverError
from games.katamino.problem import Problem

WINDOW_BITS = 8
"""Board bits after the empty cell that key the compiled kernel's candidate table."""
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


def window_table(
    ptr: Sequence[int], masks: Sequence[int], nbits: int, nt: int, wbits: int = WINDOW_BITS
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's candidate table (see ``_kernel_python``): ``(ptr, masks, ids, kinds, skip)``,
    where row ``c * 2**wbits + w`` (cell ``c``, ``w`` the ``wbits`` board bits after it) lists,
    in the order of the plain table ``ptr``/``masks`` (grouped by anchor cell then type), the
    placements anchored at ``c`` that miss the bits set in ``w``. Shapes: ``ptr``
    (nbits * 2**wbits + 1,) int64; ``masks`` (entries,) uint64 (masks of at most 64 bits unless
    ``wbits`` is 0); ``ids``, ``kinds`` and ``skip`` (entries,) int64: placement index, type,
    and the first entry of the row past this type's entries."""
    nw = 1 << wbits
    groups = np.diff(np.asarray(ptr[: nbits * nt + 1], dtype=np.int64))  # (cell, type) sizes
    kinds_all = np.repeat(np.tile(np.arange(nt), nbits), groups)
    if wbits == 0:  # the plain table, for the Python backend (any board size)
        rows = np.asarray([ptr[c * nt] for c in range(nbits + 1)], dtype=np.int64)
        ids = np.arange(len(masks))
        return rows, np.asarray(masks, dtype=object), ids, kinds_all, _skips(rows, kinds_all, nt)
    pats = np.arange(nw, dtype=np.uint64)
    all_masks = np.asarray(masks, dtype=np.uint64)
    sizes = np.zeros((nbits, nw), dtype=np.int64)
    chunks: list[np.ndarray] = []
    for c in range(nbits):
        lo, hi = ptr[c * nt], ptr[(c + 1) * nt]
        seg = all_masks[lo:hi]
        if c + 1 < 64:
            win = (seg >> np.uint64(c + 1)) & np.uint64(nw - 1)
        else:
            win = np.zeros(len(seg), dtype=np.uint64)
        fits = (win[None, :] & pats[:, None]) == 0  # (nw, k), row-major: window, then order
        sizes[c] = fits.sum(axis=1)
        chunks.append(np.nonzero(fits)[1] + lo)
    wptr = np.zeros(nbits * nw + 1, dtype=np.int64)
    np.cumsum(sizes.ravel(), out=wptr[1:])
    ids = np.concatenate(chunks).astype(np.int64)
    kinds = kinds_all[ids].astype(np.int64)
    return wptr, all_masks[ids], ids, kinds, _skips(wptr, kinds, nt)


def _skips(rows: np.ndarray, kinds: np.ndarray, nt: int) -> np.ndarray:
    """For each entry, the end of its run of one type within its row (rows: row starts)."""
    row_of = np.repeat(np.arange(len(rows) - 1), np.diff(rows))
    group = row_of * nt + kinds  # non-decreasing: rows in order, types in order within a row
    return np.searchsorted(group, group, side="right").astype(np.int64)


@lru_cache(maxsize=16)
def _cached_table(
    ptr: tuple[int, ...], masks: tuple[int, ...], nbits: int, nt: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`window_table`, kept for the next searches of the same problem (a symmetry plan
    runs one search per orbit; a duel asks the same board again and again)."""
    table = window_table(ptr, masks, nbits, nt)
    for a in table:
        a.setflags(write=False)
    return table


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
        self._table: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
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
            if self._table is None:
                self._table = _cached_table(tuple(self._ptr), tuple(masks), problem.nbits, len(counts))
            wptr, wmasks, wids, kinds, skip = self._table
            a = dict(
                full=np.uint64(problem.full),
                ptr=wptr,
                masks=wmasks,
                wmask=(1 << WINDOW_BITS) - 1,
                wids=wids,
                kinds=kinds,
                skip=skip,
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
            rows, _, _, kinds, skip = window_table(self._ptr, masks, problem.nbits, len(counts), 0)
            a = dict(
                full=problem.full, ptr=rows.tolist(), masks=masks, counts=counts,
                sizes=problem.sizes(), shifts=list(problem.shifts), strides=list(problem.strides),
                state=[0] * 5, boards=[0] * depth, cells=[0] * depth, tys=[0] * depth,
                idx=[0] * depth, chosen=[0] * depth, wmask=0, wids=range(len(masks)),
                kinds=kinds.tolist(), skip=skip.tolist(),
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
                a["idx"], a["chosen"], out, max_rows, stop_after, a["wmask"], a["wids"], a["kinds"], a["skip"],
            )  # fmt: skip
            n = int(a["state"][3])
            rows = [pre + tuple(self.ids[int(i)] for i in r[: len(r) - len(pre)]) for r in out[:n]]
        else:
            from games.katamino._kernel_python import search

            res: list[list[int]] = []
            status = search(
                a["full"], a["ptr"], a["masks"], a["counts"], a["sizes"], a["shifts"],
                a["strides"], self._prune, a["state"], a["boards"], a["cells"], a["tys"],
                a["idx"], a["chosen"], res, max_rows, stop_after, a["wmask"], a["wids"], a["kinds"], a["skip"],
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
