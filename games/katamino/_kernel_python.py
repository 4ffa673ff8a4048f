"""The search kernel, written once: run as plain Python here (any board size: Python integers
are the bitboards, lists the arrays), compiled by ``_kernel_numba`` from these same code
objects with 64-bit helpers (boards ``uint64``, arrays raw pointers). So both backends visit
the same nodes in the same order; tests compare them.

The search fills the lowest empty cell of the board with every fitting placement anchored
there, type by type, decrementing the type's count (copies are never permuted). Candidates
come from a table keyed on the empty cell and on the ``wbits`` board bits after it: row
``c << wbits | window`` lists, type by type in the original order, only the placements
anchored at ``c`` that miss those bits, so most collisions are never looked at; each row is
padded to whole groups of ``LANES`` entries (pad entries have a type that is never
available), so one pass over the row (``_fits``) tests four entries at a time (one vector
operation when compiled) and gives the bits of the entries that fit and whose type is
available. The table is keyed on the unused pieces too: ``rtypes[r]``, the types present in
row ``r``, against the bitmask of the types still available. That test is made for all of a
node's candidates at once, before any is visited (``_alive``): a candidate whose child's row
has no type left (or, with ``hole``, that walls in an empty cell) is a dead end, counted as
a node but never pushed, so about two thirds of the nodes cost a few instructions each and
no branch of their own. The order of the candidates, so the node tree, is that of the plain
table (``wbits = 0``, the Python backend's, whose row is the cell). Two helpers have a plain
Python form for the Python backend (``_fits`` entry by entry, ``_alive`` with the hole check
alone: both faster in Python) beside the form the compiler gets (``_fits_lanes``,
``_alive_rows``); since ``_alive`` only drops candidates without a child, the two forms give
the same nodes, counts and order, which the tests compare.

Two optional cuts, each counting the node it cuts (so node counts differ with them on):
``hole`` drops a board with an empty cell walled in on every side (valid when no piece is a
monomino: the caller decides), ``prune`` one whose empty cells split into a region no
remaining pieces can fill (its size not a multiple of the gcd of the remaining sizes, or below
the smallest). The search is an explicit stack (no recursion) whose state lives in
caller-owned arrays, so a call can stop after a batch of stored solutions and a later call
resumes exactly where it stopped (lazy enumeration).

The helpers below (``_ZERO`` ... ``_store``, ``_fits4``, ``_CUTS``; ``WINDOW_BITS`` is
fixed when compiled) are the only part the compiled version replaces.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import gcd as _gcd

_ZERO = 0
_ONE = 1
_CUTS = -1  # -1: the cuts come from the arguments; compiled: prune + 2 * hole, fixed
WINDOW_BITS = 7
"""Board bits after the empty cell that key the compiled kernel's candidate table (fixed when
it is compiled; the Python backend's table has none: ``wbits`` 0)."""
SLOT = 8
"""Stack words per depth (six used: a depth's state fills one 64-byte cache line)."""


def _u(x: int) -> int:
    """A shift amount (an unsigned 64-bit integer in the compiled kernel)."""
    return x


def _i(x: int) -> int:
    """An index read from the stack (a signed 64-bit integer in the compiled kernel)."""
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


LANES = 4
"""Entries per lane group: the table pads each row to a multiple of this (pad entries have
the type ``nt``, never available), so ``_fits`` works on whole groups."""


def _fits4(masks, kinds, j, b, avail):  # noqa: ANN001, ANN201
    """Bit ``l`` set for each entry ``j + l`` (``l`` < 4) that misses board ``b`` and whose
    type is in ``avail`` (one 4-lane vector operation when compiled)."""
    bits = _ZERO
    for k in range(LANES):
        ok = _u((masks[j + k] & b) == _ZERO) & (avail >> _u(kinds[j + k]))
        bits |= (ok & _ONE) << _u(k)
    return bits


def _fits(masks, kinds, lo, hi, b, avail):  # noqa: ANN001, ANN201
    """Bit ``j - lo`` set for each entry ``j`` in ``lo:hi`` (at most 64) that misses board
    ``b`` and whose type is in ``avail`` (the Python backend's: entry by entry; the compiled
    kernel's is ``_fits_lanes``)."""
    bits = 0
    for j in range(lo, hi):
        if not masks[j] & b and (avail >> kinds[j]) & 1:
            bits |= 1 << (j - lo)
    return bits


def _fits_lanes(masks, kinds, lo, hi, b, avail):  # noqa: ANN001, ANN201
    """``_fits`` by whole lane groups (``_fits4``): the compiled kernel's."""
    bits = _ZERO
    for j in range(lo, hi, LANES):
        bits |= _fits4(masks, kinds, j, b, avail) << _u(j - lo)
    return bits


def _alive(cand, base, b, avail, single, masks, kinds, rtypes, full, wbits, wmask, hole, shifts,
           strides):  # noqa: ANN001, ANN201  # fmt: skip
    """The Python backend's ``_alive_rows``: only the hole check drops candidates (looking up
    every child's row first costs more than it saves in Python). The node tree, its order and
    its count are the same either way: a dropped candidate is one without a child."""
    if not hole:
        return cand
    keep = 0
    x = cand
    while x:
        j = _lowest_bit(x)
        x &= x - 1
        if not _walled_in(full & ~(b | masks[base + j]), shifts, strides):
            keep |= 1 << j
    return keep


def _alive_rows(cand, base, b, avail, single, masks, kinds, rtypes, full, wbits, wmask, hole,
                shifts, strides):  # noqa: ANN001, ANN201  # fmt: skip
    """Of the candidates ``cand`` (bits relative to entry ``base``) of board ``b``, those worth
    descending into: the ones that fill the board, and the others whose child's row has a
    type still available (with ``hole``: and that wall in no empty cell). A dropped candidate
    has no child at all (its node is still counted), so the tree is unchanged: only its push
    and pop are saved, and the rows of all the candidates are looked up together, not one
    after another. Types with copies left after this one stay in the child's ``avail`` here
    (their count is not read): a child kept by that is searched and found empty."""
    alive = _ZERO
    x = cand
    while x:
        j = _lowest_bit(x)
        x &= x - _ONE
        i = base + j
        nb = b | masks[i]
        c = _first_empty(nb)  # the full board's row: an empty one past the last cell
        r = (c << wbits) | _window(nb, c, wmask)
        tb = _ONE << _u(kinds[i])
        ok = _u((rtypes[r] & (avail & ~(tb & single))) != _ZERO) | _u(nb == full)
        if hole:
            ok &= _u(_walled_in(full & ~nb, shifts, strides) == _ZERO)
        alive |= ok << _u(j)
    return alive


def _save(stack, s, b, base, end, bits, pend):  # noqa: ANN001, ANN201
    """Store a depth's state at ``stack[s:]`` (see ``search``)."""
    stack[s] = b
    stack[s + 1] = base
    stack[s + 2] = end
    stack[s + 3] = bits
    stack[s + 4] = pend


def search(full, ptr, rtypes, masks, kinds, wids, wbits, counts, nt, single, sizes, shifts, strides, prune,
           hole, state, stack, chosen, out, width, out_rows,
           stop_after):  # noqa: ANN001, ANN201  # fmt: skip
    """Run (or resume) the search.

    The candidate table (see the module docstring): row ``r`` is entries ``ptr[r]:ptr[r + 1]``
    (whole lane groups) and ``rtypes[r]`` the bitmask of the types among them; entry ``i`` is
    placement ``wids[i]``, of type ``kinds[i]``, with board mask ``masks[i]``. The rows of cell
    ``nbits`` (one past the last) are empty: the row of a full board. ``counts`` (``nt``
    types): copies left; the types in bitmask ``single`` (one copy at the start, and no
    ``prune``, which reads the counts) are tracked by the bitmask of available types alone
    while the search runs, and written back to ``counts`` when it returns.

    A node's candidates are found at once: the bits of the entries of its row that fit and
    whose type is left (64 entries at a time: ``_fits``); ``_alive`` keeps those with a child
    worth a visit, the others are dead ends, counted but never pushed. The stack, depth
    ``d``, is ``stack[SLOT * d:][:6]`` (one cache line): the board, the 64-entry block of its
    row and the row's end, the kept candidates not visited yet, the candidates not counted yet
    (counted in order, when a later one is visited or the block is done, so ``nodes`` is the
    plain search's at every solution) and the type put there; ``chosen[d]`` is the entry put
    there. ``state`` = [depth, solutions, nodes, stored, started];
    ``out`` receives the placement ids of up to ``out_rows`` solutions (``width`` per row when
    compiled). Returns 0 when the search space is exhausted, 1 when it stopped because
    ``out_rows`` solutions were stored or ``stop_after`` were found.
    """
    if _CUTS >= 0:  # the compiled variants: the cuts and the window fixed when compiled
        prune = _CUTS & 1
        hole = _CUTS >> 1
        wbits = WINDOW_BITS
    solutions = state[1]
    nodes = state[2]
    stored = state[3]
    wmask = (_ONE << _u(wbits)) - _ONE
    avail = _available(counts, nt)
    d = state[0]
    s = SLOT * d
    b = stack[s]
    base = _i(stack[s + 1])
    end = _i(stack[s + 2])
    bits = stack[s + 3]
    pend = stack[s + 4]
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
        pend = _fits(masks, kinds, base, min(end, base + 64), b, avail)
        bits = _alive(pend, base, b, avail, single, masks, kinds, rtypes, full, wbits, wmask,
                      hole, shifts, strides)  # fmt: skip
    status = 0
    while True:
        if bits == _ZERO:
            nodes += _popcount(pend)  # the block's dead ends not counted yet
            pend = _ZERO
            if base + 64 < end:  # a long row: its next 64 entries
                base += 64
                pend = _fits(masks, kinds, base, min(end, base + 64), b, avail)
                bits = _alive(pend, base, b, avail, single, masks, kinds, rtypes, full, wbits,
                              wmask, hole, shifts, strides)  # fmt: skip
                continue
            if d == 0:
                break
            d -= 1  # this depth is exhausted: back to the one before
            s = SLOT * d
            t = _i(stack[s + 5])
            tb = _ONE << _u(t)
            if single & tb:
                avail |= tb
            else:
                if counts[t] == 0:
                    avail |= tb
                counts[t] += 1
            b = stack[s]
            base = _i(stack[s + 1])
            end = _i(stack[s + 2])
            bits = stack[s + 3]
            pend = stack[s + 4]
            continue
        j = _lowest_bit(bits)
        bits &= bits - _ONE
        upto = pend & ((_ONE << _u(j) << _ONE) - _ONE)  # this candidate and the ones before it
        nodes += _popcount(upto)
        pend ^= upto
        i = base + j
        nb = b | masks[i]
        chosen[d] = i
        if nb == full:
            solutions += 1
            if stored < out_rows:
                _store(out, width, stored, chosen, d, wids)
                stored += 1
            if (stop_after > 0 and solutions >= stop_after) or (
                out_rows > 0 and stored >= out_rows
            ):
                status = 1
                break
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
        _save(stack, SLOT * d, b, base, end, bits, pend)
        stack[SLOT * d + 5] = t
        d += 1
        b = nb
        c = _first_empty(nb)
        r = (c << wbits) | _window(nb, c, wmask)
        base = ptr[r]
        end = ptr[r + 1]
        pend = _fits(masks, kinds, base, min(end, base + 64), nb, avail)
        bits = _alive(pend, base, nb, avail, single, masks, kinds, rtypes, full, wbits, wmask,
                      hole, shifts, strides)  # fmt: skip
    for t in range(nt):  # the single-copy types were tracked in avail alone
        if (single >> _u(t)) & _ONE:
            counts[t] = 1 if (avail >> _u(t)) & _ONE else 0
    state[0] = d
    _save(stack, SLOT * d, b, base, end, bits, pend)
    state[1] = solutions
    state[2] = nodes
    state[3] = stored
    return status
