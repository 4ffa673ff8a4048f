"""Result files: the resumable journal, and the final CSV or Parquet table.

While an experiment runs, every finished run is appended at once to a journal next to the output
(``RESULTS.partial``, JSON Lines): a header naming the experiment's fingerprint, then one line
per run (``{"run", "row", "wall_s", "worker"}``) in the order runs finish. Only the main process
writes it, one whole line per run, flushed, so a killed run leaves at most one truncated last
line, which the next start drops. When every run is there, the rows are sorted by run index and
written to the output through a temporary file (nothing half written), and the journal is
removed. Values are written with Python's shortest round-trip float form, so the same rows give
the same bytes.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from tablesim.sim.experiments.rows import neutral_text, plain_text
from tablesim.sim.lifeline import close_in_children

JOURNAL_FORMAT = "tablesim-experiment-journal/1"
FORMATS = ("csv", "parquet")
TIMING_COLUMNS = ("wall_s", "worker")


RowCheck = Callable[[int, Any], "str | None"]
"""``check(index, row)``: what is wrong with a journal's row, or None."""


class ResultsError(ValueError):
    """A result file or journal that cannot be used (names the file and what is wrong)."""


def journal_path(out: str | Path) -> Path:
    """Where the journal of output ``out`` lives: ``out`` + ``.partial`` (for a name within 8
    bytes of the 255-byte limit, its first bytes + ``~`` + 8 hex digits of its digest)."""
    import hashlib

    p = Path(out)
    name = p.name + ".partial"
    raw = os.fsencode(p.name)
    if len(raw) + len(".partial") > 255:
        digest = hashlib.sha256(raw).hexdigest()[:8]
        head = raw[: 255 - len(".partial") - 9].decode("utf-8", "ignore")
        name = f"{head}~{digest}.partial"
    return p.with_name(name)


def output_format(out: str | Path, fmt: str | None = None) -> str:
    """``csv`` or ``parquet``: ``fmt`` if given, else from the suffix (ResultsError otherwise)."""
    if fmt is not None:
        if fmt not in FORMATS:
            raise ResultsError(f"unknown format {fmt!r} (allowed: {', '.join(FORMATS)})")
        return fmt
    suffix = Path(out).suffix.lower()
    if suffix == ".csv":
        return "csv"
    if suffix in (".parquet", ".pq"):
        return "parquet"
    raise ResultsError(
        f"{out}: cannot tell the format from the suffix {suffix or '(none)'!r} "
        "(use .csv or .parquet, or --format csv|parquet)"
    )


def require_pyarrow() -> Any:
    """The pyarrow module, or ResultsError saying how to install it."""
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        from tablesim.games.extras import install_hint

        raise ResultsError(
            f"Parquet needs pyarrow, an optional extra; {install_hint('parquet')} "
            "(or write CSV: --out RESULTS.csv)"
        ) from None
    import pyarrow

    return pyarrow


class Journal:
    """The append-only journal of one experiment (see the module docstring)."""

    def __init__(self, path: Path, fh: IO[bytes]) -> None:
        self.path = path
        self._fh = fh

    @classmethod
    def open(
        cls,
        path: str | Path,
        header: Mapping[str, Any],
        *,
        fresh: bool = False,
        check: RowCheck | None = None,
    ) -> tuple[Journal, dict[int, dict[str, Any]]]:
        """Open (resume) or create the journal; returns it and the entries already done.

        The journal is locked while open, so a second run with the same output is refused
        rather than mixed in. Raises ResultsError when the journal is in use, belongs to another
        experiment (its fingerprint differs) or is damaged before its last line. ``fresh``
        (``--force``): the old entries are dropped, after the lock is taken (a running
        experiment's journal is never deleted: the lock wins). ``check(index, row)`` names
        what is wrong with a resumed row (ResultsError with the line), or None.
        """
        path = Path(path)
        _check_journal_file(path)
        try:
            fh = open(path, "a+b")  # noqa: SIM115 - kept open (and locked) until close()
        except OSError as exc:
            raise ResultsError(f"{path}: cannot open the journal: {exc.strerror or exc}") from None
        try:
            _lock(fh, path)
            close_in_children(fh)  # forked workers must not hold the lock (sim.lifeline)
            if fresh:
                fh.truncate(0)
            fh.seek(0)
            data = fh.read(MAX_JOURNAL_BYTES + 1)
            if len(data) > MAX_JOURNAL_BYTES:
                raise ResultsError(
                    f"{path}: journal over {MAX_JOURNAL_BYTES // 2**20} MiB (the limit); "
                    "delete it or pass --force"
                )
            done, good_bytes = parse_journal(data, path, header, check)
            fh.truncate(good_bytes)  # drop a line cut by a kill
            if good_bytes == 0:
                fh.write(_line(dict(header)).encode())
            fh.flush()
        except BaseException:
            fh.close()
            raise
        return cls(path, fh), done

    def append(self, index: int, row: Mapping[str, Any], wall_s: float, worker: str) -> None:
        """Record one finished run (one whole line, flushed)."""
        entry = {"run": index, "row": dict(row), "wall_s": wall_s, "worker": worker}
        self._fh.write(_line(entry).encode())
        self._fh.flush()

    def close(self) -> None:
        """Close the file (the journal stays until :meth:`remove`)."""
        self._fh.close()

    def remove(self) -> None:
        """Close and delete the journal (after the final table is written)."""
        self.close()
        self.path.unlink(missing_ok=True)


MAX_JOURNAL_BYTES = 1 << 30
"""The largest journal read on resume (1 GiB; a 10^7-run sweep writes about 3 GB only with
huge rows: README "Limits")."""


def _check_journal_file(path: Path) -> None:
    """ResultsError unless the journal is absent or a regular file (never a device or FIFO)."""
    import stat

    try:
        st = path.stat()
    except FileNotFoundError:
        return
    except OSError as exc:
        raise ResultsError(f"{path}: cannot use the journal: {exc.strerror or exc}") from None
    if not stat.S_ISREG(st.st_mode):
        raise ResultsError(f"{path}: the journal is not a regular file; move it away")


def _line(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False) + "\n"


def _lock(fh: IO[bytes], path: Path) -> None:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock
        return
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = _lock_holder(fh)
        who = f" (process {holder})" if holder else ""
        raise ResultsError(
            f"{path} is in use: another sweep or tournament{who} is writing the same --out; "
            "--force does not take over a running experiment's journal"
        ) from None


def _lock_holder(fh: IO[bytes]) -> int | None:
    """The pid holding the flock on ``fh`` (Linux ``/proc/locks``), or None."""

    try:
        st = os.fstat(fh.fileno())
        with open("/proc/locks", encoding="ascii", errors="replace") as locks:
            lines = locks.read(1 << 20).splitlines()
    except OSError:
        return None
    want = f":{st.st_ino}"
    for line in lines:
        parts = line.split()
        if len(parts) >= 6 and parts[1] == "FLOCK" and parts[5].endswith(want):
            try:
                return int(parts[4])
            except ValueError:
                return None
    return None


def parse_journal(
    data: bytes, path: Path, header: Mapping[str, Any], check: RowCheck | None = None
) -> tuple[dict[int, dict[str, Any]], int]:
    """Entries of a journal's bytes by run index, and the byte length of its whole lines."""
    done: dict[int, dict[str, Any]] = {}
    pos = 0
    lineno = 0
    while pos < len(data):
        end = data.find(b"\n", pos)
        if end < 0:
            break  # a truncated last line: the run is redone
        raw = data[pos:end]
        lineno += 1
        try:
            obj = json.loads(raw)
        except (ValueError, UnicodeDecodeError, RecursionError):  # incl. 5000-digit integers
            if data.find(b"\n", end + 1) < 0 and end + 1 >= len(data):
                break  # a garbled last line
            raise ResultsError(f"{path}:{lineno}: damaged journal line; delete the file") from None
        if lineno == 1:
            if not isinstance(obj, dict) or obj.get("format") != JOURNAL_FORMAT:
                raise ResultsError(f"{path}:1: not a tablesim journal ({JOURNAL_FORMAT})")
            for key in ("kind", "fingerprint", "count"):
                if obj.get(key) != header.get(key):
                    raise ResultsError(
                        f"{path}: left by a different {obj.get('kind', 'experiment')} "
                        f"({key} differs: the spec, scene or arguments changed since); "
                        "delete it, or pass --overwrite to start afresh"
                    )
        else:
            try:
                index = int(obj["run"])
                entry = {"row": obj["row"], "wall_s": obj["wall_s"], "worker": obj["worker"]}
            except (KeyError, TypeError, ValueError, AttributeError):
                raise ResultsError(f"{path}:{lineno}: damaged journal entry") from None
            if not 0 <= index < int(header["count"]):
                raise ResultsError(f"{path}:{lineno}: run {index} outside the experiment")
            wall, worker = entry["wall_s"], entry["worker"]
            if (
                isinstance(wall, bool)
                or not isinstance(wall, (int, float))
                or not 0 <= wall < 1e12
                or not isinstance(worker, str)
                or len(worker) > 200
            ):
                raise ResultsError(f"{path}:{lineno}: damaged journal entry (wall_s, worker)")
            problem = check(index, entry["row"]) if check is not None else None
            if problem:
                raise ResultsError(
                    f"{path}:{lineno}: not a row this experiment writes ({problem}); "
                    "delete the journal or pass --force to start afresh"
                )
            done.setdefault(index, entry)
        pos = end + 1
    if lineno == 0:
        return {}, 0
    return done, pos


# ---------------------------------------------------------------------------------------
# Final tables
# ---------------------------------------------------------------------------------------
def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return neutral_text(value)
    return str(value)


def _quoted(text: str) -> str:
    """A CSV field as the csv module's minimal quoting writes it, and quoted also when it
    holds a carriage return (csv quotes only the characters of its ``\\n`` line end, so a bare
    CR would end the row for every reader)."""
    if any(c in text for c in ',"\n\r'):
        return '"' + text.replace('"', '""') + '"'
    return text


def csv_text(columns: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> str:
    """The rows as CSV text (header line, ``\\n`` line ends, empty cell for None; text a
    spreadsheet would run as a formula neutralised by a leading ``'``:
    :func:`tablesim.sim.experiments.rows.neutral_text`)."""
    lines = [",".join(_quoted(str(c)) for c in columns)]
    for row in rows:
        lines.append(",".join(_quoted(_cell(row.get(c))) for c in columns))
    return "\n".join(lines) + "\n"


def _atomic_write(path: Path, write: Any) -> None:
    """``write(tmp)`` then rename, mode 0644 (:func:`tablesim.games.outputs.atomic_write`)."""
    from tablesim.games.outputs import atomic_write

    atomic_write(path, write)


def write_table(
    path: str | Path, columns: Sequence[str], rows: Sequence[Mapping[str, Any]], fmt: str
) -> None:
    """Write ``rows`` (already sorted) atomically as CSV or Parquet."""
    path = Path(path)
    if fmt == "csv":
        text = csv_text(columns, rows)

        def write(tmp: str) -> None:
            with open(tmp, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)

    else:
        pa = require_pyarrow()
        import pyarrow.parquet as pq

        table = pa.table({c: [row.get(c) for row in rows] for c in columns})

        def write(tmp: str) -> None:
            pq.write_table(table, tmp)

    _atomic_write(path, write)


def _parse_cell(text: str) -> Any:
    if text == "":
        return None
    if text in ("true", "false"):
        return text == "true"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return plain_text(text)


def read_table(path: str | Path) -> tuple[list[str], list[dict[str, Any]]]:
    """Columns and rows of a results file (CSV or Parquet, by suffix; CSV cells typed back)."""
    path = Path(path)
    if not path.is_file():
        raise ResultsError(f"{path}: no such file")
    fmt = output_format(path)
    if fmt == "parquet":
        require_pyarrow()
        import pyarrow.parquet as pq

        try:
            table = pq.read_table(path)
        except Exception as exc:  # pyarrow raises several types for a bad file
            raise ResultsError(f"{path}: not a readable Parquet file ({exc})") from None
        return list(table.column_names), table.to_pylist()
    from tablesim.games.inputs import InputTooLargeError, read_limited

    try:
        text = read_limited(path, "table").decode("utf-8")
    except InputTooLargeError as exc:
        raise ResultsError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise ResultsError(
            f"{path}: not UTF-8 text (byte {exc.start}); not a results table"
        ) from None
    reader = csv.reader(io.StringIO(text, newline=""))
    rows = []
    try:
        try:
            columns = next(reader)
        except StopIteration:
            raise ResultsError(f"{path}: empty file (expected a header line)") from None
        for cells in reader:
            lineno = reader.line_num
            if len(cells) != len(columns):
                raise ResultsError(
                    f"{path}:{lineno}: {len(cells)} cells, the header has {len(columns)}"
                )
            rows.append({c: _parse_cell(v) for c, v in zip(columns, cells, strict=True)})
    except csv.Error as exc:  # a field over 131,072 characters, a NUL byte
        raise ResultsError(f"{path}:{reader.line_num}: not a results table ({exc})") from None
    return columns, rows
