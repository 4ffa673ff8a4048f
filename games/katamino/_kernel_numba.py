"""The compiled search kernel: ``_kernel_python``'s code objects compiled by numba with 64-bit
helpers (boards are ``uint64``: bounding boxes of at most 64 cells; arrays are raw pointers).

Imported only to build the kernel (``tablesim.games.katamino._kernel_native`` loads the result without
numba). :func:`build` compiles ``search`` once, for the one signature :data:`SIGNATURE`, with
no Python wrapper, no bounds checks and numpy's error model (no exception paths), and returns
its machine code as an object file: the object references no outside symbol, so any LLVM JIT
can link it into a process. Two helpers are written as LLVM IR (numba intrinsics): the
population count, and ``_fits4``, whose four lanes are one vector operation (LLVM lowers it
to AVX2 here, to SSE2 or scalar code on CPUs without).
"""

from __future__ import annotations

import types as pytypes
from collections.abc import Callable
from typing import Any

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core.extending import intrinsic
from numba.cpython.unsafe.numbers import trailing_zeros as _tz

from tablesim.games.katamino import _kernel_python as _src

trailing_zeros: Any = _tz  # an intrinsic: typed by numba, called with one argument in njit code

_OPTIONS: dict[str, Any] = {"error_model": "numpy", "boundscheck": False}


@njit(inline="always", **_OPTIONS)
def _u(x):  # noqa: ANN001, ANN202
    return np.uint64(x)


@intrinsic
def _ctpop(typingctx, x):  # noqa: ANN001, ANN202
    """LLVM's population count (one instruction where the CPU has it)."""

    def codegen(context, builder, signature, args):  # noqa: ANN001, ANN202
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@intrinsic
def _fits4_vector(typingctx, masks, kinds, j, b, avail):  # noqa: ANN001, ANN202
    """``_kernel_python._fits4`` as one 4-lane vector operation: load 4 masks and 4 types at
    entry ``j``, test each mask against ``b`` and each type against ``avail``, and return the
    4 results as the low bits of an integer (AVX2: a load, and, compare, variable shift and
    movemask)."""

    def codegen(context, builder, signature, args):  # noqa: ANN001, ANN202
        m, k, jj, bb, av = args
        i64, i8 = ir.IntType(64), ir.IntType(8)
        v4, v4i8, v4i1 = (
            ir.VectorType(i64, 4),
            ir.VectorType(i8, 4),
            ir.VectorType(ir.IntType(1), 4),
        )
        zero4 = ir.Constant(v4, [0] * 4)
        lanes = ir.Constant(ir.VectorType(ir.IntType(32), 4), [0] * 4)

        def splat(x):  # noqa: ANN001, ANN202
            one = builder.insert_element(
                ir.Constant(v4, ir.Undefined), x, ir.Constant(ir.IntType(32), 0)
            )
            return builder.shuffle_vector(one, ir.Constant(v4, ir.Undefined), lanes)

        vm = builder.load(builder.bitcast(builder.gep(m, [jj]), v4.as_pointer()), align=8)
        vk = builder.zext(
            builder.load(builder.bitcast(builder.gep(k, [jj]), v4i8.as_pointer()), align=1), v4
        )
        fit = builder.icmp_unsigned("==", builder.and_(vm, splat(bb)), zero4)
        left = builder.trunc(builder.lshr(splat(av), vk), v4i1)
        ok = builder.bitcast(builder.and_(fit, left), ir.IntType(4))
        return builder.zext(ok, i64)

    return types.uint64(masks, kinds, types.int64, types.uint64, types.uint64), codegen


@njit(inline="always", **_OPTIONS)
def _popcount(x):  # noqa: ANN001, ANN202
    return np.int64(_ctpop(np.uint64(x)))  # type: ignore[call-arg]  # numba intrinsics take the typing context first


@njit(inline="always", **_OPTIONS)
def _fits4(masks, kinds, j, b, avail):  # noqa: ANN001, ANN202
    return _fits4_vector(masks, kinds, np.int64(j), np.uint64(b), np.uint64(avail))  # type: ignore[call-arg]


@njit(inline="always", **_OPTIONS)
def _i(x):  # noqa: ANN001, ANN202
    return np.int64(x)


@njit(inline="always", **_OPTIONS)
def _gcd(a, b):  # noqa: ANN001, ANN202
    while b:
        a, b = b, a % b
    return a


@njit(inline="always", **_OPTIONS)
def _first_empty(b):  # noqa: ANN001, ANN202
    return np.int64(trailing_zeros(~b))


@njit(inline="always", **_OPTIONS)
def _window(b, c, wmask):  # noqa: ANN001, ANN202
    # c is 64 only on a full 64-cell board, whose row is one of the empty rows of cell 64
    # whatever the window: "& 63" keeps the shift defined
    return np.int64(((b >> np.uint64(c & 63)) >> np.uint64(1)) & wmask)


@njit(inline="always", **_OPTIONS)
def _lowest_bit(x):  # noqa: ANN001, ANN202
    return np.int64(trailing_zeros(x))


@njit(inline="always", **_OPTIONS)
def _store(out, width, k, chosen, d, wids):  # noqa: ANN001, ANN202
    base = k * width
    for j in range(d + 1):
        out[base + j] = wids[chosen[j]]


_U64P = types.CPointer(types.uint64)
_I64P = types.CPointer(types.int64)
_I64 = types.int64
SIGNATURE = (
    types.uint64, types.CPointer(types.int32), _U64P, _U64P, types.CPointer(types.uint8), _I64P, _I64,  # full, table
    _I64P, _I64, types.uint64, _I64P, _U64P, _I64P, _I64, _I64,  # counts, nt, single, sizes,
    # shifts, strides, cuts
    _I64P, _U64P, _I64P,  # state, the stack, chosen
    _I64P, _I64, _I64, _I64,  # out, width, out_rows, stop_after
)  # fmt: skip
"""The argument types of ``_kernel_python.search`` in its compiled form (it returns int64)."""


def _compile(fn: Callable[..., Any], helpers: dict, **options: Any) -> Any:
    """``fn``'s code with the 64-bit helpers as globals, compiled lazily by numba."""
    if not isinstance(fn, pytypes.FunctionType):
        raise TypeError(f"{fn!r} is not a plain function")
    g = dict(vars(_src))
    g.update(helpers)
    clone = pytypes.FunctionType(fn.__code__, g, fn.__name__, fn.__defaults__)
    clone.__qualname__ = fn.__qualname__
    clone.__module__ = __name__
    return njit(**_OPTIONS, **options)(clone)


def _helpers() -> dict:
    h: dict[str, Any] = {
        "_ZERO": np.uint64(0),
        "_ONE": np.uint64(1),
        "_u": _u,
        "_i": _i,
        "_popcount": _popcount,
        "_gcd": _gcd,
        "_first_empty": _first_empty,
        "_window": _window,
        "_store": _store,
        "_lowest_bit": _lowest_bit,
        "_fits4": _fits4,
    }
    for name in ("_neighbours", "_walled_in", "_available", "_save"):
        h[name] = _compile(getattr(_src, name), h, inline="always")
    # the lane-group pass and the row look-ahead: the compiled kernel's versions
    h["_fits"] = _compile(_src._fits_lanes, h, inline="always")
    h["_alive"] = _compile(_src._alive_rows, h, inline="always")
    h["_regions_ok"] = _compile(_src._regions_ok, h)
    return h


def build(cuts: int = 0) -> tuple[bytes, str]:
    """Compile the kernel with the cuts ``cuts`` = prune + 2 * hole fixed (the two arguments
    are then ignored); return (object file bytes, symbol of its entry point).

    The entry point has numba's calling convention: ``int32 f(int64 *result, void **exc,
    *SIGNATURE)``, status 0 and the return value in ``*result``. Raises RuntimeError if the
    machine code needs any outside symbol (it would not link into another process)."""
    if cuts not in range(4):
        raise ValueError(f"cuts {cuts!r}: 0 to 3")
    search = _compile(_src.search, {**_helpers(), "_CUTS": cuts}, no_cpython_wrapper=True,
                      no_cfunc_wrapper=True)  # fmt: skip
    search.compile(SIGNATURE)
    cres = search.overloads[SIGNATURE]
    library = cres.library
    outside = sorted(f.name for f in library._final_module.functions
                     if f.is_declaration and not f.name.startswith("llvm."))  # fmt: skip
    if outside:
        raise RuntimeError(f"the compiled kernel calls outside functions: {outside}")
    return bytes(library._get_compiled_object()), cres.fndesc.mangled_name
