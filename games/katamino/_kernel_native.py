"""The compiled search kernel, loaded as machine code: numba builds it once, this module keeps
the object file on disk and links it into later processes with llvmlite alone.

Why not numba's own ``cache=True``: importing numba and loading a cached function costs about
0.9 s of CPU per process (the typing and target contexts are rebuilt), far more than a whole
6x10 count. Loading the object file costs ~0.04 s (llvmlite and one MCJIT link); numba is
imported only when the file is missing (first run, new kernel source, new numba or llvmlite,
another CPU). The entry point is called through ctypes (which releases the GIL).

Where the file lives: ``$TABLESIM_CACHE_DIR`` when set (that folder only), else
``$NUMBA_CACHE_DIR/tablesim`` when that is set (what empties numba's cache empties this one),
else ``__pycache__`` next to this module or, when that is not writable,
``$XDG_CACHE_HOME/tablesim`` (``~/.cache/tablesim``). Its name holds a digest of
the kernel sources, the numba and llvmlite versions and the host CPU with its features, so a
stale or foreign file is never linked.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import os
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
_SOURCES = ("_kernel_python.py", "_kernel_numba.py", "_kernel_native.py")
_MAGIC = b"tablesim-katamino-kernel 2\n"
_VP, _I64 = ctypes.c_void_p, ctypes.c_int64
ARGTYPES = (
    ctypes.c_uint64, _VP, _VP, _VP, _VP, _VP, _I64,  # full, table (ptr, rtypes, masks, kinds,
    # wids), wbits
    _VP, _I64, ctypes.c_uint64, _VP, _VP, _VP, _I64, _I64,  # counts, nt, single, sizes,
    # shifts, strides, prune, hole
    _VP, _VP, _VP,  # state, stack, chosen
    _VP, _I64, _I64, _I64,  # out, width, out_rows, stop_after
)  # fmt: skip
"""ctypes argument types of the entry point, in ``_kernel_python.search``'s order (arrays by
address: int64/uint64 C-contiguous buffers)."""


class Kernel:
    """The linked kernel: call it with ``_kernel_python.search``'s arguments (arrays as their
    addresses: int64 buffers, uint64 for masks and boards, uint8 for kinds); returns the
    search status. ``source`` says whether it was ``"built"`` by numba in
    this process or ``"loaded"`` from ``path``."""

    def __init__(self, engine: Any, address: int, path: Path | None, source: str) -> None:
        self._engine = engine  # keeps the linked code alive
        proto = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.POINTER(ctypes.c_int64),
                                 ctypes.POINTER(ctypes.c_void_p), *ARGTYPES)  # fmt: skip
        self._fn = proto(address)
        self.path = path
        self.source = source

    def __call__(self, *args: int) -> int:
        result = ctypes.c_int64(0)
        exc = ctypes.c_void_p(None)
        if self._fn(ctypes.byref(result), ctypes.byref(exc), *args) != 0:
            raise RuntimeError("the compiled Katamino kernel reported an error")
        return int(result.value)


def _llvm() -> Any:
    import llvmlite.binding as ll

    with contextlib.suppress(RuntimeError):  # llvmlite < 0.45 needs it; later ones raise
        ll.initialize()
    ll.initialize_native_target()
    ll.initialize_native_asmprinter()
    return ll


def cache_key(ll: Any) -> str:
    """Digest of everything the machine code depends on (see the module docstring)."""
    h = hashlib.sha256(_MAGIC)
    for name in _SOURCES:
        h.update((_HERE / name).read_bytes())
    h.update(_numba_stamp())
    h.update(f"llvmlite {ll.llvm_version_info} {_llvmlite_version()}\n".encode())
    h.update(f"{ll.get_host_cpu_name()} {ll.get_host_cpu_features().flatten()}\n".encode())
    h.update(f"{sys.platform} {ctypes.sizeof(ctypes.c_void_p)}\n".encode())
    return h.hexdigest()[:24]


def _numba_stamp() -> bytes:
    """numba's version file, read without importing numba (importlib.metadata is slow)."""
    spec = find_spec("numba")
    if spec is None or not spec.submodule_search_locations:
        return b"numba absent\n"
    try:
        return Path(next(iter(spec.submodule_search_locations)), "_version.py").read_bytes()
    except OSError:
        return b"numba ?\n"


def _llvmlite_version() -> str:
    import llvmlite

    return str(llvmlite.__version__)


def cache_dirs() -> list[Path]:
    """Folders for the object file, in order of preference (see the module docstring)."""
    if os.environ.get("TABLESIM_CACHE_DIR"):
        return [Path(os.environ["TABLESIM_CACHE_DIR"])]
    if os.environ.get("NUMBA_CACHE_DIR"):
        return [Path(os.environ["NUMBA_CACHE_DIR"]) / "tablesim"]
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return [_HERE / "__pycache__", Path(xdg) / "tablesim"]


def _read(path: Path) -> tuple[bytes, str] | None:
    """The object file and its entry point's symbol, or None when missing or damaged (the
    header holds the object's digest: a truncated or altered file is never linked)."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head, sep, obj = data[len(_MAGIC) :].partition(b"\n")
    fields = head.decode("ascii", "replace").split(" ")
    if not data.startswith(_MAGIC) or not sep or len(fields) != 2:
        return None
    symbol, digest = fields
    if hashlib.sha256(obj).hexdigest() != digest:
        return None
    return obj, symbol


def _write(folder: Path, name: str, obj: bytes, symbol: str) -> Path | None:
    """Write atomically (a temporary file renamed into place); None if the folder refuses."""
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".kernel-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                digest = hashlib.sha256(obj).hexdigest()
                f.write(_MAGIC + f"{symbol} {digest}\n".encode("ascii") + obj)
            os.chmod(tmp, 0o644)
            os.replace(tmp, folder / name)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return None
    return folder / name


def _link(ll: Any, obj: bytes, symbol: str) -> tuple[Any, int]:
    target = ll.Target.from_default_triple()
    tm = target.create_target_machine(cpu=ll.get_host_cpu_name(),
                                      features=ll.get_host_cpu_features().flatten(),
                                      codemodel="jitdefault")  # fmt: skip
    engine = ll.create_mcjit_compiler(ll.parse_assembly(""), tm)
    engine.add_object_file(ll.ObjectFileRef.from_data(obj))
    engine.finalize_object()
    address = engine.get_function_address(symbol)
    if not address:
        raise RuntimeError(f"the kernel's object file has no symbol {symbol!r}")
    return engine, address


def load(cuts: int = 0) -> Kernel:
    """The kernel with the cuts ``cuts`` (prune + 2 * hole) compiled in: linked from the cached
    object file, else built by numba (and cached). ImportError when llvmlite is missing, or
    numba is missing and nothing is cached."""
    ll = _llvm()
    name = f"katamino-kernel-{cache_key(ll)}-{cuts}.o"
    for folder in cache_dirs():
        found = _read(folder / name)
        if found is not None:
            engine, address = _link(ll, *found)
            return Kernel(engine, address, folder / name, "loaded")
    from tablesim.games.katamino import _kernel_numba  # ImportError without numba

    obj, symbol = _kernel_numba.build(cuts)
    path = next((p for p in (_write(d, name, obj, symbol) for d in cache_dirs()) if p), None)
    engine, address = _link(ll, obj, symbol)
    return Kernel(engine, address, path, "built")
