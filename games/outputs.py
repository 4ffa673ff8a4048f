"""Output files: checked before any work starts, written atomically, mode 0644 (every layer uses
it: the rules tools in games/, the commands in sim/).

Every file tablesim writes (logs, tables, pictures, films, scenes, journals' final tables) goes
through :func:`atomic_write`: the bytes go to a temporary file in the same folder, which gets
the mode a new file would get (``0666 & ~umask``, so 0644 with the usual umask; ``mkstemp``
alone would leave 0600) and then replaces the target in one ``os.replace``. A crash, a full
disk or Ctrl-C leaves the old file (or none) and no temporary file: nothing is half written.

:func:`check_output` is called by the commands *before* they do their work (a game, a sweep,
a film), so a person never loses a game to an unwritable ``--log``: the folder must exist and
take a new file (tried for real, which catches read-only mounts, ``/sys`` and full quotas that
``os.access`` does not), the path must not be a folder, and an existing file is replaced only
with ``--force``.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

__all__ = ["OutputError", "atomic_write", "check_output", "new_file_mode"]


class OutputError(ValueError):
    """An output that cannot or may not be written (exit 2): the message names the path."""


def new_file_mode() -> int:
    """The permission bits a newly created file gets under the current umask (0644 usually)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _parent(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def check_output(
    path: str | Path, *, force: bool = False, option: str = "--out", exists_ok: bool = False
) -> Path:
    """Check that ``path`` can be written, before the work that produces it starts.

    ``option`` names the command-line option in messages (``--log``, ``-o/--out``).
    ``exists_ok`` skips the overwrite check (for outputs that resume, such as a sweep's table
    with its journal). Raises :class:`OutputError`; returns ``path`` as a :class:`Path`.
    """
    p = Path(path)
    if not str(path).strip():
        raise OutputError(f"{option}: empty file name")
    if p.is_dir():
        raise OutputError(f"{option} {p}: is a folder, expected a file path")
    parent = _parent(p)
    if not parent.is_dir():
        raise OutputError(f"{option} {p}: folder {parent} does not exist")
    if p.exists() and not force and not exists_ok:
        raise OutputError(f"{option} {p}: exists; pass --force to replace it")
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{p.name}.", suffix=".check")
    except OSError as exc:
        raise OutputError(f"{option} {p}: cannot write in {parent}: {_reason(exc)}") from None
    os.close(fd)
    os.unlink(tmp)
    return p


def atomic_write(
    path: str | Path,
    data: str | bytes | Callable[[str], None],
    *,
    suffix: str = ".tmp",
) -> None:
    """Write ``path`` atomically (see the module docstring), mode ``0666 & ~umask``.

    ``data`` is text (written as UTF-8, ``\\n`` line ends), bytes, or a function that writes the
    temporary file whose name it is given (for writers that want a file name: Parquet, PNG,
    GIF; ``suffix`` then gives that name the extension such a writer looks at). An OSError
    (full disk, no permission) becomes :class:`OutputError` naming ``path``; the temporary
    file is removed on every kind of failure, Ctrl-C included.
    """
    p = Path(path)
    if p.is_dir():
        raise OutputError(f"{p}: is a folder, expected a file path")
    parent = _parent(p)
    if not parent.is_dir():
        raise OutputError(f"{p}: folder {parent} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{p.name}.", suffix=suffix)
    except OSError as exc:
        raise OutputError(f"{p}: cannot write: {_reason(exc)}") from None
    try:
        try:
            if callable(data):
                os.close(fd)
                fd = -1
                data(tmp)
            else:
                raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
                with os.fdopen(fd, "wb") as fh:
                    fd = -1
                    fh.write(raw)
            os.chmod(tmp, new_file_mode())
            os.replace(tmp, p)
        except OSError as exc:
            raise OutputError(f"{p}: cannot write: {_reason(exc)}") from None
    except BaseException:
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
