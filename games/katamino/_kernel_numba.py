"""The compiled search kernel (numba, 64-bit boards). Imported lazily by ``games.katamino.search``.

Same algorithm, same visiting order and same node counts as ``_kernel_python.search``: fill the
lowest empty cell of the board with every fitting placement anchored there, type by type, and
prune a board whose empty cells split into a region no remaining pieces can fill (its size is
not a multiple of the gcd of the remaining piece sizes, or is below the smallest one).

The search state lives in caller-owned arrays, so a call can stop after a batch of stored
solutions and a later call resumes exactly where it stopped (lazy enumeration).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

_U0 = np.uint64(0)
_U1 = np.uint64(1)


@njit(cache=True, inline="always")
def _popcount(x: np.uint64) -> np.int64:
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def _gcd(a: np.int64, b: np.int64) -> np.int64:
    while b:
        a, b = b, a % b
    return a


@njit(cache=True)
def _regions_ok(empty, counts, sizes, shifts, strides) -> bool:
    """True when every connected region of ``empty`` could be filled by the remaining sizes."""
    g = np.int64(0)
    smallest = np.int64(1 << 30)
    for t in range(counts.shape[0]):
        if counts[t] > 0:
            g = _gcd(g, np.int64(sizes[t]))
            if sizes[t] < smallest:
                smallest = sizes[t]
    if g <= 1 and smallest <= 1:
        return True
    s0 = np.uint64(strides[0])
    s1 = np.uint64(strides[1])
    s2 = np.uint64(strides[2])
    rest = empty
    while rest:
        region = rest & (~rest + _U1)
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


@njit(cache=True)
def search(full, ptr, masks, counts, sizes, shifts, strides, prune,
           state, boards, cells, tys, idx, chosen, out, stop_after):  # fmt: skip
    """Run (or resume) the search.

    ``state`` = [depth, solutions, nodes, stored, started]; ``out`` receives the placement ids of
    stored solutions (one row each, as many rows as it has). Returns 0 when the search space is
    exhausted, 1 when it stopped because ``out`` is full or ``stop_after`` solutions were found.
    """
    nt = counts.shape[0]
    d = state[0]
    if state[4] == 0:
        state[4] = 1
        if boards[0] == full:  # nothing to fill: one empty solution
            state[1] += 1
            if out.shape[0] > 0:
                state[3] += 1
            return 0
        c = trailing_zeros(~boards[0])
        cells[0] = c
        tys[0] = 0
        idx[0] = ptr[c * nt]
        d = 0
    while d >= 0:
        b = boards[d]
        c = cells[d]
        found = False
        m = _U0
        t = tys[d]
        while t < nt:
            if counts[t] > 0:
                end = ptr[c * nt + t + 1]
                i = idx[d]
                while i < end:
                    m = masks[i]
                    i += 1
                    if (m & b) == _U0:
                        found = True
                        break
                idx[d] = i
                if found:
                    break
            t += 1
            tys[d] = t
            if t < nt:
                idx[d] = ptr[c * nt + t]
        if not found:
            d -= 1
            if d >= 0:
                counts[tys[d]] += 1
            continue
        chosen[d] = idx[d] - 1
        nb = b | m
        state[2] += 1
        if nb == full:
            state[1] += 1
            k = state[3]
            if k < out.shape[0]:
                for j in range(d + 1):
                    out[k, j] = chosen[j]
                state[3] = k + 1
            if (stop_after > 0 and state[1] >= stop_after) or (
                out.shape[0] > 0 and state[3] >= out.shape[0]
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
        c2 = trailing_zeros(~nb)
        cells[d] = c2
        tys[d] = 0
        idx[d] = ptr[c2 * nt]
    state[0] = d
    return 0
