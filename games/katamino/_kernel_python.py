"""The search kernel, written once: run as plain Python here (any board size: Python integers
are the bitboards, lists the arrays), compiled by ``_kernel_numba`` from these same code
objects with 64-bit helpers (boards ``uint64``, arrays raw pointers). So both backends visit
the same nodes in the same order; tests compare them.

The search fills the lowest empty cell of the board with every fitting placement anchored
there, type by type, decrementing the type's count (copies are never permuted). Candidates
come from a table keyed on the empty cell and on the ``wbits`` board bits after it: row
``c << wbits | window`` lists, type by type in the original order, only the placements
anchored at ``c`` that miss those bits, so most collisions are never looked at. The table is
keyed on the unused pieces too: ``rtypes[r]``, the types present in row ``r``, against the
bitmask of the types still available, ends a node whose row has none left without reading an
entry; otherwise one branch-free pass over the row (``_fits``, vectorised when compiled)
gives the bits of the entries that fit and whose type is available, taken lowest first.
The order of the candidates, so the node tree, is that of the plain table (``wbits = 0``, the
Python backend's, whose row is the cell).

Two optional cuts, each counting the node it cuts (so node counts differ with them on):
``hole`` drops a board with an empty cell walled in on every side (valid when no piece is a
monomino: the caller decides), ``prune`` one whose empty cells split into a region no
remaining pieces can fill (its size not a multiple of the gcd of the remaining sizes, or below
the smallest). The search is an explicit stack (no recursion) whose state lives in
caller-owned arrays, so a call can stop after a batch of stored solutions and a later call
resumes exactly where it stopped (lazy enumeration).

The helpers below (``_ZERO`` ... ``_store``, and ``_CUTS``) are the only part the compiled
version replaces.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import gcd as _gcd

_ZERO = 0
_ONE = 1
_CUTS = -1  # -1: the cuts come from the arguments; compiled: prune + 2 * hole, fixed


def _u(x: int) -> int:
    """A shift amount (an unsigned 64-bit integer in the compiled kernel)."""
    return x


def _popcount(x: int) -> int:
    return x.bit_count()


def _first_empty(b: int) -> int:
    """Index of the lowest zero bit of ``b`` (a trailing-zero count of ``~b`` when compiled)."""
    return (~b & (b + 1)).bit_length() - 1


def _window(b: int, c: int, wmask: int) -> int:
    """The board bits after cell ``c`` that key the candidate table (``wmask`` of them)."""
    return (b >> c >> 1) & wmask  # two shifts: each below 64 bits when compiled


def _lowest_bit(x: int) -> int:
    """Index of the lowest set bit of ``x`` (nonzero)."""
    return (x & -x).bit_length() - 1


def _store(out: list, width: int, k: int, chosen: list, d: int, wids: Sequence[int]) -> None:
    """Record solution ``k``: the placements of the entries chosen at depths 0..d (``width``:
    the compiled kernel's row length in its flat ``out``)."""
    out.append([wids[i] for i in chosen[: d + 1]])


def _neighbours(cells, shifts, strides):  # noqa: ANN001, ANN201
    """The cells next to any of ``cells`` (each axis both ways, within the bounding box)."""
    s0 = _u(strides[0])
    s1 = _u(strides[1])
    s2 = _u(strides[2])
    return (
        ((cells & shifts[0]) << s0)
        | ((cells & shifts[1]) >> s0)
        | ((cells & shifts[2]) << s1)
        | ((cells & shifts[3]) >> s1)
        | ((cells & shifts[4]) << s2)
        | ((cells & shifts[5]) >> s2)
    )


def _walled_in(empty, shifts, strides):  # noqa: ANN001, ANN201
    """The empty cells with no empty neighbour (nonzero: the board has a one-cell hole)."""
    return empty & ~_neighbours(empty, shifts, strides)


def _regions_ok(empty, counts, nt, sizes, shifts, strides):  # noqa: ANN001, ANN201
    """True when every connected region of ``empty`` could be filled by the remaining sizes."""
    g = 0
    smallest = 1 << 30
    for t in range(nt):
        if counts[t] > 0:
            g = _gcd(g, sizes[t])
            if sizes[t] < smallest:
                smallest = sizes[t]
    if g <= 1 and smallest <= 1:
        return True
    rest = empty
    while rest:
        region = rest & (~rest + _ONE)
        while True:
            grown = (region | _neighbours(region, shifts, strides)) & empty
            if grown == region:
                break
            region = grown
        n = _popcount(region)
        if n < smallest or n % g:
            return False
        rest &= ~region
    return True


def _available(counts, nt):  # noqa: ANN001, ANN201
    """The bitmask of the types with copies left."""
    avail = _ZERO
    for t in range(nt):
        if counts[t] > 0:
            avail |= _ONE << _u(t)
    return avail


def _fits(masks, kinds, lo, hi, b, avail):  # noqa: ANN001, ANN201
    """Bit ``j - lo`` set for each entry ``j`` in ``lo:hi`` (at most 64) that misses board ``b``
    and whose type is in ``avail``: branch-free, so the compiled loop is vectorised."""
    bits = _ZERO
    for j in range(lo, hi):
        ok = _u((masks[j] & b) == _ZERO) & (avail >> _u(kinds[j]))
        bits |= (ok & _ONE) << _u(j - lo)
    return bits


def search(full, ptr, rtypes, masks, kinds, wids, wbits, counts, nt, single, sizes, shifts, strides, prune,
           hole, state, boards, bases, ends, bitss, tys, chosen, out, width, out_rows,
           stop_after):  # noqa: ANN001, ANN201  # fmt: skip
    """Run (or resume) the search.

    The candidate table (see the module docstring): row ``r`` is entries ``ptr[r]:ptr[r + 1]``
    and ``rtypes[r]`` the bitmask of the types among them;
    entry ``i`` is placement ``wids[i]``, of type ``kinds[i]``, with board mask ``masks[i]``.
    ``counts`` (``nt`` types): copies left; the types in bitmask ``single`` (one copy at the
    start, and no ``prune``, which reads the counts) are tracked by the bitmask of available
    types alone while the search runs, and written back to ``counts`` when it returns. A node's candidates are found at once: the bits
    of the entries that fit and whose type is left (64 entries at a time: ``_fits``), then
    taken lowest first. The stack, depth ``d``: ``boards[d]`` the board, ``bases[d]`` and
    ``ends[d]`` the 64-entry block of its row and the row's end, ``bitss[d]`` the candidates
    of that block not tried yet, ``tys[d]`` and ``chosen[d]`` the type and entry put there.
    ``state`` = [depth, solutions, nodes, stored, started]; ``out`` receives the placement ids
    of up to ``out_rows`` solutions (``width`` per row when compiled). Returns 0 when the
    search space is exhausted, 1 when it stopped because ``out_rows`` solutions were stored or
    ``stop_after`` were found.
    """
    if _CUTS >= 0:  # the compiled variants: the cuts fixed when compiled, their code dropped
        prune = _CUTS & 1
        hole = _CUTS >> 1
    solutions = state[1]
    nodes = state[2]
    stored = state[3]
    wmask = (_ONE << _u(wbits)) - _ONE
    avail = _available(counts, nt)
    d = state[0]
    b = boards[d]
    base = bases[d]
    end = ends[d]
    bits = bitss[d]
    if state[4] == 0:
        state[4] = 1
        if b == full:  # nothing to fill: one empty solution
            state[1] = solutions + 1
            if out_rows > 0:
                _store(out, width, stored, chosen, -1, wids)
                state[3] = stored + 1
            return 0
        c = _first_empty(b)
        r = (c << wbits) | _window(b, c, wmask)
        base = ptr[r]
        end = ptr[r + 1]
        bits = _ZERO
        if rtypes[r] & avail:
            bits = _fits(masks, kinds, base, min(end, base + 64), b, avail)
    status = 0
    while True:
        if bits == _ZERO:
            if base + 64 < end:  # a long row: its next 64 entries
                base += 64
                bits = _fits(masks, kinds, base, min(end, base + 64), b, avail)
                continue
            if d == 0:
                break
            d -= 1  # this depth is exhausted: back to the one before
            t = tys[d]
            tb = _ONE << _u(t)
            if single & tb:
                avail |= tb
            else:
                if counts[t] == 0:
                    avail |= tb
                counts[t] += 1
            b = boards[d]
            base = bases[d]
            end = ends[d]
            bits = bitss[d]
            continue
        i = base + _lowest_bit(bits)
        bits &= bits - _ONE
        nodes += 1
        nb = b | masks[i]
        chosen[d] = i
        if nb == full:
            solutions += 1
            if stored < out_rows:
                _store(out, width, stored, chosen, d, wids)
                stored += 1
            if (stop_after > 0 and solutions >= stop_after) or (out_rows > 0 and stored >= out_rows):
                status = 1
                break
            continue
        if hole and _walled_in(full & ~nb, shifts, strides):
            continue
        t = kinds[i]
        tb = _ONE << _u(t)
        if single & tb:
            avail &= ~tb
        else:
            counts[t] -= 1
            if prune and not _regions_ok(full & ~nb, counts, nt, sizes, shifts, strides):
                counts[t] += 1
                continue
            if counts[t] == 0:
                avail &= ~tb
        tys[d] = t
        boards[d] = b
        bases[d] = base
        ends[d] = end
        bitss[d] = bits
        d += 1
        b = nb
        c = _first_empty(nb)
        r = (c << wbits) | _window(nb, c, wmask)
        base = ptr[r]
        end = ptr[r + 1]
        if rtypes[r] & avail:
            bits = _fits(masks, kinds, base, min(end, base + 64), nb, avail)
        else:  # no type of the row is left: a dead end without a look at its entries
            bits = _ZERO
            base = end
    for t in range(nt):  # the single-copy types were tracked in avail alone
        if (single >> _u(t)) & _ONE:
            counts[t] = 1 if (avail >> _u(t)) & _ONE else 0
    state[0] = d
    boards[d] = b
    bases[d] = base
    ends[d] = end
    bitss[d] = bits
    state[1] = solutions
    state[2] = nodes
    state[3] = stored
    return status
