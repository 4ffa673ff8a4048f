"""The compiled search kernel: ``_kernel_python``'s code objects compiled by numba with 64-bit
helpers (boards are ``uint64``: bounding boxes of at most 64 cells). Imported lazily by
``games.katamino.search``; compiled on first use and cached on disk (``cache=True``)."""

from __future__ import annotations

import types

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from games.katamino import _kernel_python as _src


@njit(cache=True, inline="always")
def _u(x):  # noqa: ANN001, ANN202
    return np.uint64(x)


@njit(cache=True, inline="always")
def _popcount(x):  # noqa: ANN001, ANN202
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def _gcd(a, b):  # noqa: ANN001, ANN202
    while b:
        a, b = b, a % b
    return a


@njit(cache=True, inline="always")
def _first_empty(b):  # noqa: ANN001, ANN202
    return np.int64(trailing_zeros(~b))


@njit(cache=True, inline="always")
def _window(b, c, wmask):  # noqa: ANN001, ANN202
    if wmask == 0 or c >= 63:  # a shift by 64 is undefined; nothing lies beyond bit 63
        return np.int64(0)
    return np.int64((b >> np.uint64(c + 1)) & np.uint64(wmask))


@njit(cache=True, inline="always")
def _store(out, k, chosen, d):  # noqa: ANN001, ANN202
    for j in range(d + 1):
        out[k, j] = chosen[j]


def _compile(fn: types.FunctionType, helpers: dict):  # noqa: ANN202
    """``fn``'s code with the 64-bit helpers as globals, compiled."""
    g = dict(vars(_src))
    g.update(helpers)
    clone = types.FunctionType(fn.__code__, g, fn.__name__, fn.__defaults__)
    clone.__qualname__ = fn.__qualname__
    clone.__module__ = __name__
    return njit(cache=True)(clone)


_HELPERS = {
    "_ZERO": np.uint64(0),
    "_ONE": np.uint64(1),
    "_u": _u,
    "_popcount": _popcount,
    "_gcd": _gcd,
    "_first_empty": _first_empty,
    "_window": _window,
    "_store": _store,
}
_HELPERS["_regions_ok"] = _compile(_src._regions_ok, _HELPERS)
search = _compile(_src.search, _HELPERS)
"""Same signature and contract as ``_kernel_python.search``; ``out`` a 2D int64 array."""
