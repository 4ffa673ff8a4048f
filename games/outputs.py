"""Output files: checked before any work starts, replaced only with ``--force`` (decided at the
moment of the replace), written atomically, mode 0644 (every layer uses it: the rules tools in
games/, the commands in sim/).

Every file tablesim writes (logs, tables, pictures, films, scenes, journals' final tables) goes
through :func:`atomic_write`: the bytes go to a temporary file in the same folder (named
``.NAME.tablesim-PID-XXXXXXXX.SUFFIX``, shortened so it fits in 255 bytes), which gets the mode
a new file would get (``0666 & ~umask``, so 0644 with the usual umask; ``mkstemp`` alone would
leave 0600). Then, at the moment of the replace:

* without ``--force`` the temporary file is hard-linked to the target (``os.link`` fails when
  the target exists, whatever appeared since the start: a file, a dangling symlink, another
  tablesim's output), so nothing is ever replaced: the second of two writers fails, exit 2;
* with ``--force`` the target is checked (absent, a regular file or a symlink to one: never a
  device, a FIFO, a socket or a folder) and replaced in one ``os.replace``.

A crash, a full disk or Ctrl-C leaves the old file (or none) and no temporary file: nothing is
half written. A temporary file left by a killed run (SIGKILL) is removed by the next write in
that folder when its process is gone (:func:`clean_stale`).

:func:`check_output` is called by the commands *before* they do their work (a game, a sweep,
a film), so a person never loses a game to an unwritable ``--log``: the name must fit (255
bytes a component, 4095 a path), the folder must exist and take a new file (tried for real,
which catches read-only mounts, ``/sys`` and full quotas that ``os.access`` does not), the path
must not be a folder or a device, and an existing file is refused without ``--force``. It also
records the ``force`` decision for that path, which :func:`atomic_write` applies at the end.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

__all__ = [
    "MAX_NAME_BYTES",
    "MAX_PATH_BYTES",
    "OutputError",
    "atomic_write",
    "check_output",
    "check_path_length",
    "clean_stale",
    "new_file_mode",
    "refuse_special",
    "shorten",
]

MAX_NAME_BYTES = 255
"""The longest file name (one path component) in bytes (NAME_MAX on Linux and macOS)."""
MAX_PATH_BYTES = 4095
"""The longest path in bytes (PATH_MAX - 1 on Linux)."""
MAX_QUOTE = 200
"""At most this many characters of a bad value are quoted in a message (:func:`shorten`)."""
_TAG = "tablesim"
_STALE_RE = re.compile(r"^\..*\.tablesim-(\d+)-[A-Za-z0-9_]{8}")
_STALE_AGE_S = 24 * 3600.0

_DECIDED: dict[str, bool] = {}
"""The ``force`` each checked output was given (absolute path -> force), for atomic_write."""


class OutputError(ValueError):
    """An output that cannot or may not be written (exit 2): the message names the path."""


def shorten(value: object, limit: int = MAX_QUOTE) -> str:
    """``repr``-free text of ``value`` cut to ``limit`` characters (``...`` and the length
    added), so that a message never repeats a huge value in full."""
    text = value if isinstance(value, str) else str(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


def new_file_mode() -> int:
    """The permission bits a newly created file gets under the current umask (0644 usually)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def _parent(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def check_path_length(path: str | Path, option: str = "") -> None:
    """OutputError when a component of ``path`` is over 255 bytes or the path over 4095 (the
    system would answer ENAMETOOLONG, which pathlib's ``is_file`` raises instead of False)."""
    raw = os.fsencode(os.fspath(path))
    where = f"{option} " if option else ""
    if len(raw) > MAX_PATH_BYTES:
        raise OutputError(
            f"{where}{shorten(os.fspath(path))}: path of {len(raw)} bytes "
            f"(allowed at most {MAX_PATH_BYTES})"
        )
    for part in raw.split(b"/"):
        if len(part) > MAX_NAME_BYTES:
            raise OutputError(
                f"{where}{shorten(os.fspath(path))}: a file or folder name of {len(part)} bytes "
                f"(allowed at most {MAX_NAME_BYTES})"
            )


def _kind(mode: int) -> str | None:
    """What a non-regular file is, or None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _existing(p: Path) -> tuple[bool, str | None]:
    """(exists, kind): a dangling symlink exists (kind None); a symlink counts as its target."""
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        return False, None
    except OSError:
        return False, None
    if stat.S_ISLNK(st.st_mode):
        try:
            st = os.stat(p)
        except OSError:
            return True, None  # dangling: exists, replaceable with --force
    return True, _kind(st.st_mode)


def _temp_prefix(name: str, suffix: str) -> str:
    """``.NAME.tablesim-PID-`` with NAME cut so that prefix + 8 random + suffix fit 255 bytes."""
    tail = f".{_TAG}-{os.getpid()}-"
    room = MAX_NAME_BYTES - 1 - len(tail) - 8 - len(os.fsencode(suffix))
    raw = os.fsencode(name)[: max(room, 0)]
    return "." + raw.decode("utf-8", "ignore") + tail


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True
    return True


def clean_stale(folder: str | Path) -> int:
    """Remove temporary files (and ``.tablesim-export-`` folders) that a killed tablesim left in
    ``folder``: only names of our own pattern whose process is gone (or older than a day).
    Returns how many were removed; never raises."""
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    now = time.time()
    for e in entries:
        m = _STALE_RE.match(e.name)
        if m is None and not e.name.startswith(f".{_TAG}-export-"):
            continue
        try:
            age = now - e.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        pid = int(m.group(1)) if m else _export_pid(e.path)
        if (pid is not None and _alive(pid)) and age < _STALE_AGE_S:
            continue
        if pid is None and age < 60.0:
            continue  # an export folder without a pid: only once it is a minute old
        with contextlib.suppress(OSError):
            if e.is_dir(follow_symlinks=False):
                import shutil

                shutil.rmtree(e.path)
            else:
                os.unlink(e.path)
            removed += 1
    return removed


def _export_pid(path: str) -> int | None:
    m = re.search(r"\.tablesim-export-(\d+)-", os.path.basename(path))
    return int(m.group(1)) if m else None


def check_output(
    path: str | Path, *, force: bool = False, option: str = "--out", exists_ok: bool = False
) -> Path:
    """Check that ``path`` can be written, before the work that produces it starts.

    ``option`` names the command-line option in messages (``--log``, ``-o/--out``).
    ``exists_ok`` skips the overwrite check here (for outputs that resume, such as a sweep's
    table with its journal; the replace itself still needs ``force``). The ``force`` decision
    is recorded for :func:`atomic_write`. Raises :class:`OutputError`; returns ``path`` as a
    :class:`Path`.
    """
    if not str(path).strip():
        raise OutputError(f"{option}: empty file name")
    check_path_length(path, option)
    p = Path(path)
    exists, kind = _existing(p)
    if kind == "a folder":
        raise OutputError(f"{option} {p}: is a folder, expected a file path")
    if kind is not None:
        raise OutputError(
            f"{option} {p}: is {kind}, not a regular file; tablesim never replaces it"
        )
    parent = _parent(p)
    if not parent.is_dir():
        raise OutputError(f"{option} {p}: folder {parent} does not exist")
    if exists and not force and not exists_ok:
        raise OutputError(f"{option} {p}: exists; pass --force to replace it")
    clean_stale(parent)
    try:
        fd, tmp = tempfile.mkstemp(
            dir=parent, prefix=_temp_prefix(p.name, ".check"), suffix=".check"
        )
    except OSError as exc:
        raise OutputError(f"{option} {p}: cannot write in {parent}: {_reason(exc)}") from None
    os.close(fd)
    os.unlink(tmp)
    _DECIDED[os.path.abspath(p)] = force
    return p


def atomic_write(
    path: str | Path,
    data: str | bytes | Callable[[str], None],
    *,
    suffix: str = ".tmp",
    force: bool | None = None,
) -> None:
    """Write ``path`` atomically (see the module docstring), mode ``0666 & ~umask``.

    ``data`` is text (written as UTF-8, ``\\n`` line ends), bytes, or a function that writes the
    temporary file whose name it is given (for writers that want a file name: Parquet, PNG,
    GIF; ``suffix`` then gives that name the extension such a writer looks at). ``force``:
    replace an existing regular file; None (the default) takes what :func:`check_output` was
    told for this path, else False (an existing file is never replaced). An OSError (full disk,
    no permission) becomes :class:`OutputError` naming ``path``; the temporary file is removed
    on every kind of failure, Ctrl-C included.
    """
    check_path_length(path)
    p = Path(path)
    if force is None:
        force = _DECIDED.get(os.path.abspath(p), False)
    if _existing(p)[1] == "a folder":
        raise OutputError(f"{p}: is a folder, expected a file path")
    parent = _parent(p)
    if not parent.is_dir():
        raise OutputError(f"{p}: folder {parent} does not exist")
    clean_stale(parent)
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=_temp_prefix(p.name, suffix), suffix=suffix)
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
            _commit(tmp, p, force)
        except OSError as exc:
            raise OutputError(f"{p}: cannot write: {_reason(exc)}") from None
    except BaseException:
        if fd >= 0:
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def refuse_special(path: str | Path) -> None:
    """OutputError when ``path`` is a device, a FIFO, a socket or a folder (or a symlink to
    one): what ``--force`` may replace is a regular file, a symlink to one, or nothing."""
    kind = _existing(Path(path))[1]
    if kind is not None:
        raise OutputError(f"{path}: is {kind}, not a regular file; tablesim never replaces it")


def _commit(tmp: str, p: Path, force: bool) -> None:
    """Put the finished temporary file at ``p``: linked (never replacing) or, with ``force``,
    replacing a regular file only."""
    if force:
        refuse_special(p)
        os.replace(tmp, p)
        return
    try:
        os.link(tmp, p)
    except FileExistsError:
        raise OutputError(
            f"{p}: exists (it appeared while tablesim worked, or was there); "
            "pass --force to replace it"
        ) from None
    except OSError:  # a file system without hard links: create exclusively, then replace
        try:
            fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            raise OutputError(f"{p}: exists; pass --force to replace it") from None
        os.close(fd)
        os.replace(tmp, p)
        return
    os.unlink(tmp)
