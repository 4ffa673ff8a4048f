"""Running the kernels: backend choice (compiled or pure Python) and resumable searches.

The backend is ``"numba"`` (compiled by numba, 64-bit boards: the target's bounding box has at
most 64 cells, and at most 63 piece types), ``"python"`` (any size, about 50 times slower) or
``"auto"`` (numba when it is installed and the problem fits, else python). The environment
variable ``TABLESIM_SOLVER_BACKEND`` sets the default; a ``backend=`` argument overrides it.
The compiled kernel is linked when a search first runs with it, from the object file numba
built once (``tablesim.games.katamino._kernel_native``): numba itself is imported only to build it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from tablesim.games.katamino._kernel_python import LANES, SLOT, WINDOW_BITS
from tablesim.games.katamino.errors import SolverError
from tablesim.games.katamino.problem import Problem

if TYPE_CHECKING:
    from tablesim.games.katamino._kernel_native import Kernel

BACKEND_ENV = "TABLESIM_SOLVER_BACKEND"
BACKENDS = ("auto", "numba", "python")
MAX_NUMBA_BITS = 64
MAX_NUMBA_TYPES = 63

_numba_kernels: dict[int, Kernel] = {}


def numba_kernel(cuts: int = 0) -> Kernel:
    """The compiled kernel with the cuts ``cuts`` = prune + 2 * hole compiled in, linked on
    first use (ImportError if it can be neither loaded nor built: llvmlite missing, or numba
    missing and no object file cached)."""
    if cuts not in _numba_kernels:
        from tablesim.games.katamino import _kernel_native

        _numba_kernels[cuts] = _kernel_native.load(cuts)
    return _numba_kernels[cuts]


Table = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""``(ptr, masks, ids, kinds)``: see :func:`window_table`."""


def window_table(
    ptr: Sequence[int], masks: Sequence[int], nbits: int, nt: int, wbits: int = WINDOW_BITS
) -> Table:
    """The kernel's candidate table (see ``_kernel_python``): ``(ptr, masks, ids, kinds)``,
    where row ``c * 2**wbits + w`` (cell ``c``, ``w`` the ``wbits`` board bits after it) lists,
    in the order of the plain table ``ptr``/``masks`` (grouped by anchor cell then type), the
    placements anchored at ``c`` that miss the bits set in ``w``, then pad entries up to a
    multiple of ``LANES`` (id -1, type ``nt``: never available, mask 0). The rows of cell
    ``nbits`` (the full board's) are empty. Shapes: ``ptr`` ((nbits + 1) * 2**wbits + 1,)
    int64; ``masks`` (entries,) uint64 (Python integers when ``wbits`` is 0, the Python
    backend's plain table: any board size); ``ids`` and ``kinds`` (entries,) int64: placement
    index and type."""
    nw = 1 << wbits
    starts = np.asarray(ptr[: nbits * nt + 1], dtype=np.int64)
    groups = starts[1:] - starts[:-1]  # (cell, type) sizes
    kinds_all = np.repeat(np.tile(np.arange(nt, dtype=np.int64), nbits), groups)
    sizes = np.zeros((nbits + 1, nw), dtype=np.int64)  # entries per row before padding
    if wbits == 0:
        sizes[:nbits, 0] = starts[nt::nt] - starts[: nbits * nt : nt]
        ids = np.arange(len(masks), dtype=np.int64)
    else:
        pats = np.arange(nw, dtype=np.uint64)
        all_masks = np.asarray(masks, dtype=np.uint64)
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
        ids = np.concatenate(chunks).astype(np.int64) if chunks else np.zeros(0, np.int64)
    n = sizes.ravel()
    padded = -(-n // LANES) * LANES
    wptr = np.zeros(len(n) + 1, dtype=np.int64)
    np.cumsum(padded, out=wptr[1:])
    # where each unpadded entry goes: its row's new start plus its place in the row
    old = np.zeros(len(n) + 1, dtype=np.int64)
    np.cumsum(n, out=old[1:])
    row_of = np.repeat(np.arange(len(n)), n)
    dest = wptr[row_of] + np.arange(len(ids)) - old[row_of]
    out_ids = np.full(wptr[-1], -1, dtype=np.int64)
    out_ids[dest] = ids
    out_kinds = np.full(wptr[-1], nt, dtype=np.int64)
    out_kinds[dest] = kinds_all[ids]
    if wbits == 0:
        out_masks = np.zeros(wptr[-1], dtype=object)
        out_masks[dest] = np.asarray(masks, dtype=object)[ids] if len(ids) else []
    else:
        out_masks = np.zeros(wptr[-1], dtype=np.uint64)
        out_masks[dest] = all_masks[ids]
    return wptr, out_masks, out_ids, out_kinds


def row_types(ptr: np.ndarray, kinds: np.ndarray, nt: int) -> list[int]:
    """For each row of a candidate table, the bitmask of the types of its entries (pad
    entries, of type ``nt``, left out): Python integers, any number of types."""
    row_of = np.repeat(np.arange(len(ptr) - 1), np.diff(ptr))
    real = kinds < nt
    out = [0] * (len(ptr) - 1)
    for t in range(nt):
        for r in np.unique(row_of[real & (kinds == t)]).tolist():
            out[r] |= 1 << t
    return out


@lru_cache(maxsize=16)
def _cached_table(ptr: tuple[int, ...], masks: tuple[int, ...], nbits: int,
                  nt: int) -> tuple[np.ndarray, ...]:  # fmt: skip
    """The compiled kernel's ``(ptr, rtypes, masks, kinds, ids)`` (:func:`window_table` and
    :func:`row_types`; kinds as uint8), kept for the next searches of the same problem (a symmetry plan runs one search
    per orbit; a duel asks the same board again and again)."""
    wptr, wmasks, ids, kinds = window_table(ptr, masks, nbits, nt)
    rtypes = np.asarray(row_types(wptr, kinds, nt), dtype=np.uint64)
    table = (wptr.astype(np.int32), rtypes, wmasks, kinds.astype(np.uint8), ids)
    for a in table:
        a.setflags(write=False)
    return table


def resolve_backend(backend: str | None, nbits: int, ntypes: int = 0) -> str:
    """The backend that will run: ``numba`` or ``python`` (see the module docstring)."""
    choice = backend if backend is not None else os.environ.get(BACKEND_ENV, "auto")
    if choice not in BACKENDS:
        where = "backend" if backend is not None else f"${BACKEND_ENV}"
        raise SolverError(f"{where} {choice!r}: allowed {', '.join(BACKENDS)}")
    if choice == "python":
        return "python"
    if nbits > MAX_NUMBA_BITS or ntypes > MAX_NUMBA_TYPES:
        if choice == "numba":
            raise SolverError(
                f"the numba backend needs a bounding box of at most {MAX_NUMBA_BITS} cells "
                f"and at most {MAX_NUMBA_TYPES} piece shapes (this one has {nbits} and "
                f"{ntypes}); use backend 'python' or 'auto'"
            )
        return "python"
    try:
        numba_kernel()
    except ImportError:
        if choice == "numba":
            raise SolverError("backend 'numba' requested but numba is not installed") from None
        return "python"
    return "numba"


def hole_check_valid(problem: Problem) -> bool:
    """True when the kernel's hole check is exact for ``problem``: no piece is a monomino, so
    a walled-in empty cell can never be filled."""
    return all(t.size >= 2 for t in problem.types)


class Search:
    """One search over a problem, resumable. ``keep`` restricts some types to a subset of their
    placements; ``roots`` (placement ids of one single-copy type) are branched on first, one
    kernel run each, before the kernel fills the lowest empty cell: placing the most
    constrained piece first cuts the tree (the X pentomino on the 6x10 has 32 placements).
    ``prune`` adds the region check (every region of empty cells must suit the remaining piece
    sizes): it cuts 10-45 % of the nodes but costs more time than it saves on every problem
    measured (6x10, 5x12, 8x8, 2x3x10, Soma), so it is off by default. ``hole`` adds the
    cheaper check for an empty cell walled in on every side (ignored when a piece is a
    monomino); off by default so node counts are those of the plain tree (docs/performance.md
    has both). ``run`` advances it; solutions come back as tuples of placement ids."""

    def __init__(
        self,
        problem: Problem,
        *,
        backend: str | None = None,
        keep: dict[int, set[int]] | None = None,
        roots: Sequence[int] | None = None,
        prune: bool = False,
        hole: bool = False,
    ) -> None:
        self.problem = problem
        self.backend = resolve_backend(backend, problem.nbits, len(problem.types))
        if keep:
            self._ptr, self.ids = problem.restricted(keep)
            self._masks = tuple(problem.masks[i] for i in self.ids)
        else:
            self._ptr, self.ids = problem.ptr, tuple(range(len(problem.masks)))
            self._masks = problem.masks
        self._table: Any = None  # built on the first kernel run, shared by every root
        self._roots = list(roots) if roots is not None else None
        self._ri = 0
        self.finished = False
        self.solutions = 0
        self.nodes = 0
        self._prune = bool(prune)
        self._hole = bool(hole) and hole_check_valid(problem)
        self._a: dict[str, Any] | None = None
        if not problem.area_matches:
            self.finished = True

    def _fresh(self, root: int | None) -> None:
        problem = self.problem
        depth = problem.n_pieces + 1
        counts = problem.counts()
        nt = len(counts)
        start = problem.start
        if root is not None:
            counts[problem.ptypes[root]] -= 1
            start |= problem.masks[root]
        # types of one copy (tracked by a bitmask alone in the kernel; not with prune)
        single = 0 if self._prune else sum(1 << t for t, n in enumerate(counts) if n <= 1)
        state: Any
        a: dict[str, Any] = {"root": root, "base": (self.solutions, self.nodes), "done": False}
        if self.backend == "numba":
            if self._table is None:
                self._table = _cached_table(tuple(self._ptr), tuple(self._masks), problem.nbits, nt)
            table = self._table
            state = np.zeros(5, np.int64)
            stack: Any = np.zeros(depth * SLOT, np.uint64)
            stack[0] = start
            i64 = np.int64
            arrays = (np.asarray(counts, i64), np.asarray(problem.sizes(), i64),
                      np.asarray(problem.shifts, np.uint64), np.asarray(problem.strides, i64),
                      state, stack, np.zeros(depth, i64))  # fmt: skip
            p = [x.__array_interface__["data"][0] for x in (*table, *arrays)]
            # search's arguments before `out`: full, the table, wbits, counts, nt, sizes,
            # shifts, strides, prune, hole, state and the stack
            a["args"] = (problem.full, *p[:5], WINDOW_BITS, p[5], nt, single, *p[6:9],
                         int(self._prune), int(self._hole), *p[9:])  # fmt: skip
            a["keep"] = (table, arrays)  # the buffers the addresses point into
        else:
            if self._table is None:
                rows, pmasks, ids, kinds = window_table(
                    self._ptr, self._masks, problem.nbits, nt, 0
                )
                self._table = (rows.tolist(), row_types(rows, kinds, nt), pmasks.tolist(),
                               kinds.tolist(), ids.tolist())  # fmt: skip
            state = [0] * 5
            stack = [0] * (depth * SLOT)
            stack[0] = start
            a["args"] = (
                problem.full, *self._table, 0,
                counts, nt, single, problem.sizes(), list(problem.shifts), list(problem.strides),
                self._prune, self._hole, state, stack, [0] * depth,
            )  # fmt: skip
        a["state"] = state
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
            if (max_rows and len(rows) >= max_rows) or (
                stop_after and self.solutions >= stop_after
            ):
                break
        return rows

    def _kernel(self, max_rows: int, stop_after: int) -> list[tuple[int, ...]]:
        a = self._a
        assert a is not None
        root = a["root"]
        pre = (root,) if root is not None else ()
        base_solutions, base_nodes = a["base"]
        state = a["state"]
        width = max(self.problem.n_pieces, 1)
        if self.backend == "numba":
            out = np.zeros(max(max_rows, 1) * width, dtype=np.int64)
            kernel = numba_kernel(int(self._prune) + 2 * int(self._hole))
            address = out.__array_interface__["data"][0]
            status = kernel(*a["args"], address, width, max_rows, stop_after)
            n = int(state[3])
            ids, k = self.ids, self.problem.n_pieces - len(pre)
            rows = [pre + tuple(ids[i] for i in r[:k])
                    for r in out[: n * width].reshape(n, width).tolist()]  # fmt: skip
        else:
            from tablesim.games.katamino._kernel_python import search

            res: list[list[int]] = []
            args = (*a["args"], res, width, max_rows, stop_after)
            status = search(*args)
            rows = [pre + tuple(self.ids[i] for i in r) for r in res]
        state[3] = 0
        self.solutions = base_solutions + int(state[1])
        self.nodes = base_nodes + int(state[2]) + (1 if root is not None else 0)
        a["done"] = status == 0
        return rows


def iter_rows(problem: Problem, *, backend: str | None = None,
              roots: Sequence[int] | None = None, batch: int = 256):  # fmt: skip
    """Yield every solution as a tuple of placement ids, lazily, in search order."""
    s = Search(problem, backend=backend, roots=roots)
    while not s.finished:
        yield from s.run(max_rows=batch)
