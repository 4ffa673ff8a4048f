"""The search kernel, written once: run as plain Python here (any board size: Python integers
are the bitboards), compiled by ``_kernel_numba`` from these same code objects with 64-bit
helpers. So both backends visit the same nodes in the same order; tests compare them.

The search fills the lowest empty cell of the board with every fitting placement anchored
there, type by type, decrementing the type's count (copies are never permuted): one linear
scan over the cell's candidates, skipping those that collide and those of used-up types. With
``prune`` a board is dropped when its empty cells split into a region no remaining pieces can
fill (its size is not a multiple of the gcd of the remaining sizes, or below the smallest).
Candidates come from a table keyed on the empty cell and on the ``wbits`` board bits after it
(``wmask = 2**wbits - 1``): row ``c * 2**wbits + window`` lists, type by type in the
original order, only the placements anchored at ``c`` that miss those bits, so the inner loop
skips most collisions without loading their masks. ``wids`` maps a table entry back to its
placement. The order of the surviving candidates, so the node tree, is that of the plain table
(``wbits = 0``, the Python backend's, whose row is the cell). The state lives in caller-owned arrays, so a call can stop after a batch of stored solutions
and a later call resumes exactly where it stopped (lazy enumeration).

The helpers below (``_ZERO`` ... ``_store``) are the only part the compiled version replaces.
"""

from __future__ import annotations

from math import gcd as _gcd

_ZERO = 0
_ONE = 1


def _u(x: int) -> int:
    """A shift amount (an unsigned 64-bit integer in the compiled kernel)."""
    return x


def _popcount(x: int) -> int:
    return x.bit_count()


def _first_empty(b: int) -> int:
    """Index of the lowest zero bit of ``b``."""
    return (~b & (b + 1)).bit_length() - 1


def _window(b: int, c: int, wmask: int) -> int:
    """The board bits after cell ``c`` that key the candidate table (``wmask`` of them)."""
    return (b >> (c + 1)) & wmask


def _store(out: list, k: int, chosen: list, d: int) -> None:
    """Record solution ``k``: the placements chosen at depths 0..d."""
    out.append(list(chosen[: d + 1]))


def _regions_ok(empty, counts, sizes, shifts, strides):  # noqa: ANN001, ANN201
    """True when every connected region of ``empty`` could be filled by the remaining sizes."""
    g = 0
    smallest = 1 << 30
    for t in range(len(counts)):
        if counts[t] > 0:
            g = _gcd(g, sizes[t])
            if sizes[t] < smallest:
                smallest = sizes[t]
    if g <= 1 and smallest <= 1:
        return True
    s0 = _u(strides[0])
    s1 = _u(strides[1])
    s2 = _u(strides[2])
    rest = empty
    while rest:
        region = rest & (~rest + _ONE)
        while True:
            grown = (
                region
                | ((region & shifts[0]) << s0)
                | ((region & shifts[1]) >> s0)
                | ((region & shifts[2]) << s1)
                | ((region & shifts[3]) >> s1)
                | ((region & shifts[4]) << s2)
                | ((region & shifts[5]) >> s2)
            ) & empty
            if grown == region:
                break
            region = grown
        n = _popcount(region)
        if n < smallest or n % g:
            return False
        rest &= ~region
    return True


def search(full, ptr, masks, counts, sizes, shifts, strides, prune, state, boards, cells, tys,
           idx, chosen, out, out_rows, stop_after, wmask, wids, kinds, skip):  # noqa: ANN001, ANN201  # fmt: skip
    """Run (or resume) the search.

    ``ptr``/``masks``/``wids``/``kinds``: the candidate table (see the module docstring), one
    row per cell and window: row ``r`` is entries ``ptr[r]:ptr[r + 1]``, entry ``i`` the
    placement ``wids[i]`` of type ``kinds[i]`` with board mask ``masks[i]``, and ``skip[i]``
    the first entry of the row past its type's (to jump over a used-up type). ``cells[d]`` holds
    the row of depth ``d``, ``idx[d]`` its next entry to try, ``tys[d]`` the type placed there.
    ``state`` = [depth, solutions, nodes, stored, started]; ``out`` receives the placement ids
    of up to ``out_rows`` solutions. Returns 0 when the search space is exhausted, 1 when it
    stopped because ``out_rows`` solutions were stored or ``stop_after`` were found.
    """
    d = state[0]
    if state[4] == 0:
        state[4] = 1
        if boards[0] == full:  # nothing to fill: one empty solution
            state[1] += 1
            if out_rows > 0:
                _store(out, state[3], chosen, -1)
                state[3] += 1
            return 0
        c = _first_empty(boards[0])
        c = c * (wmask + 1) + _window(boards[0], c, wmask)
        cells[0] = c
        idx[0] = ptr[c]
        d = 0
    while d >= 0:
        b = boards[d]
        end = ptr[cells[d] + 1]
        i = idx[d]
        found = False
        m = _ZERO
        while i < end:
            m = masks[i]
            if (m & b) == _ZERO:
                if counts[kinds[i]] > 0:
                    found = True
                    break
                i = skip[i]  # a used-up type: past the rest of its entries in this row
                continue
            i += 1
        if not found:
            d -= 1
            if d >= 0:
                counts[tys[d]] += 1
            continue
        idx[d] = i + 1
        t = kinds[i]
        tys[d] = t
        chosen[d] = wids[i]
        nb = b | m
        state[2] += 1
        if nb == full:
            state[1] += 1
            k = state[3]
            if k < out_rows:
                _store(out, k, chosen, d)
                state[3] = k + 1
            if (stop_after > 0 and state[1] >= stop_after) or (
                out_rows > 0 and state[3] >= out_rows
            ):
                state[0] = d
                return 1
            continue
        counts[t] -= 1
        if prune and not _regions_ok(full & ~nb, counts, sizes, shifts, strides):
            counts[t] += 1
            continue
        d += 1
        boards[d] = nb
        c2 = _first_empty(nb)
        c2 = c2 * (wmask + 1) + _window(nb, c2, wmask)
        cells[d] = c2
        idx[d] = ptr[c2]
    state[0] = d
    return 0
