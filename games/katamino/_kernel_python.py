"""The pure-Python search kernel: any board size (Python integers as bitboards).

It mirrors ``_kernel_numba.search`` statement for statement, so both give the same solutions
in the same order with the same node counts; tests compare them.
"""

from __future__ import annotations

from math import gcd


def _regions_ok(empty: int, counts: list[int], sizes: list[int], shifts: list[int],
                strides: list[int]) -> bool:  # fmt: skip
    g = 0
    smallest = 1 << 30
    for t, k in enumerate(counts):
        if k > 0:
            g = gcd(g, sizes[t])
            smallest = min(smallest, sizes[t])
    if g <= 1 and smallest <= 1:
        return True
    s0, s1, s2 = strides
    rest = empty
    while rest:
        region = rest & -rest
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
        n = region.bit_count()
        if n < smallest or n % g:
            return False
        rest &= ~region
    return True


def _lowest_zero(b: int) -> int:
    x = ~b & (b + 1)
    return x.bit_length() - 1


def search(full: int, ptr: list[int], masks: list[int], counts: list[int], sizes: list[int],
           shifts: list[int], strides: list[int], prune: bool, state: list[int],
           boards: list[int], cells: list[int], tys: list[int], idx: list[int],
           chosen: list[int], out: list[list[int]], out_rows: int,
           stop_after: int) -> int:  # fmt: skip
    """Run (or resume) the search; same contract as the numba kernel, ``out`` a list of rows."""
    nt = len(counts)
    d = state[0]
    if state[4] == 0:
        state[4] = 1
        if boards[0] == full:
            state[1] += 1
            if out_rows > 0:
                out.append([])
                state[3] += 1
            return 0
        c = _lowest_zero(boards[0])
        cells[0] = c
        tys[0] = 0
        idx[0] = ptr[c * nt]
        d = 0
    while d >= 0:
        b = boards[d]
        c = cells[d]
        found = False
        m = 0
        t = tys[d]
        while t < nt:
            if counts[t] > 0:
                end = ptr[c * nt + t + 1]
                i = idx[d]
                while i < end:
                    m = masks[i]
                    i += 1
                    if not m & b:
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
            if state[3] < out_rows:
                out.append(chosen[: d + 1])
                state[3] += 1
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
        c2 = _lowest_zero(nb)
        cells[d] = c2
        tys[d] = 0
        idx[d] = ptr[c2 * nt]
    state[0] = d
    return 0
