"""Run a job end to end: resume from the journal, execute the rest, write the sorted table."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TextIO

from tablesim.games.outputs import OutputError
from tablesim.sim.experiments.executors import execute
from tablesim.sim.experiments.progress import Progress
from tablesim.sim.experiments.results import (
    JOURNAL_FORMAT,
    TIMING_COLUMNS,
    Journal,
    ResultsError,
    journal_path,
    output_format,
    require_pyarrow,
    write_table,
)
from tablesim.sim.experiments.rows import row_problem


class TableJob(Protocol):
    """A job with a fingerprint and output columns (see :class:`executors.Job`)."""

    kind: str
    count: int

    def columns(self) -> list[str]:
        """Output columns, in order (``run`` first)."""
        ...

    def fingerprint(self) -> str:
        """A digest of everything that determines the rows (checked on resume)."""
        ...

    def run(self, index: int) -> dict[str, Any]:
        """The row of run ``index``."""
        ...


@dataclass
class RunReport:
    """What :func:`run_job` did: the sorted rows and how many were kept or computed."""

    columns: list[str]
    rows: list[dict[str, Any]]
    kept: int
    computed: int
    wall_s: float
    out: Path | None
    events: list[str] = field(default_factory=list)


def check_output(out: Path, fmt: str | None, overwrite: bool) -> str:
    """Validate the output path before anything runs; returns the format."""
    kind = output_format(out, fmt)
    if kind == "parquet":
        require_pyarrow()
    from tablesim.games.outputs import check_output as check_writable

    try:  # a folder that takes files; not a folder or a device; the replace needs --force
        check_writable(out, force=overwrite, exists_ok=True)
    except OutputError as exc:
        raise ResultsError(str(exc)) from None
    if os.path.lexists(out) and not overwrite:
        raise ResultsError(
            f"{out} exists; pass --force to replace it (and start afresh), or choose another --out"
        )
    return kind


def run_job(
    job: TableJob,
    out: str | Path | None,
    *,
    executor: str = "local",
    workers: int | None = None,
    address: str | None = None,
    timings: bool = False,
    fmt: str | None = None,
    overwrite: bool = False,
    stream: TextIO | None = None,
    label: str = "",
    on_result: Callable[[int, dict[str, Any]], None] | None = None,
) -> RunReport:
    """Compute every run of ``job`` and write the table to ``out`` (None: keep rows in memory).

    Rows already in ``out``'s journal are kept, not recomputed. Raises ResultsError for a bad
    output path or a journal from another experiment, ExecutorError when the executor cannot
    run. ``timings`` adds the ``wall_s`` and ``worker`` columns.
    """
    stream = stream if stream is not None else sys.stderr
    out_path = Path(out) if out is not None else None
    kind = check_output(out_path, fmt, overwrite) if out_path is not None else "csv"
    columns = list(job.columns()) + (list(TIMING_COLUMNS) if timings else [])
    header = {
        "format": JOURNAL_FORMAT,
        "kind": job.kind,
        "fingerprint": job.fingerprint(),
        "count": job.count,
        "columns": list(job.columns()),
    }
    done: dict[int, dict[str, Any]] = {}
    journal: Journal | None = None
    events: list[str] = []
    if out_path is not None:
        jpath = journal_path(out_path)  # --force starts afresh, but only once the lock is ours
        cols = list(job.columns())
        journal, done = Journal.open(
            jpath, header, fresh=overwrite, check=lambda i, row: row_problem(job, i, row, cols)
        )
        if done:
            events.append(
                f"resuming from {jpath}: {len(done)} of {job.count} rows kept, "
                f"{job.count - len(done)} to compute"
            )
            print(f"{label or job.kind}: {events[-1]}", file=stream)
    kept = len(done)
    todo = [i for i in range(job.count) if i not in done]
    progress = Progress(job.count, kept, label=label or job.kind, stream=stream)
    t0 = time.perf_counter()

    def record(index: int, row: dict[str, Any], wall_s: float, worker: str) -> None:
        if index in done:  # an executor delivered a run twice: keep the first
            return
        done[index] = {"row": row, "wall_s": wall_s, "worker": worker}
        if journal is not None:
            journal.append(index, row, wall_s, worker)
        if on_result is not None:
            on_result(index, row)
        progress.advance()

    def event(text: str) -> None:
        events.append(text)
        progress.finish_line()
        print(f"{label or job.kind}: {text}", file=stream)

    progress.start()
    try:
        execute(
            job, todo, record, executor=executor, workers=workers, address=address, on_event=event
        )
    except KeyboardInterrupt as exc:  # Ctrl-C or SIGTERM (sim.cli.Terminated)
        progress.finish_line()
        if journal is not None:
            journal.close()
            print(
                f"{label or job.kind}: interrupted; {len(done)} of {job.count} rows are saved "
                f"in {journal.path}: run the same command again to resume",
                file=stream,
            )
            exc.reported = True  # type: ignore[attr-defined]  # the CLI adds no second line
        raise
    except BaseException:
        progress.finish_line()
        if journal is not None:
            journal.close()
        raise
    rows = [_with_timings(i, done[i], timings) for i in range(job.count)]
    if out_path is not None:
        assert journal is not None
        try:
            write_table(out_path, columns, rows, kind)
        except OutputError as exc:  # e.g. the table appeared meanwhile: the rows are kept
            journal.close()
            raise ResultsError(
                f"{exc}; the {job.count} rows stay in {journal.path}: move {out_path.name} "
                "away and run the same command again to write them"
            ) from None
        except BaseException:
            journal.close()
            raise
        journal.remove()
    return RunReport(
        columns, rows, kept, job.count - kept, time.perf_counter() - t0, out_path, events
    )


def _with_timings(index: int, entry: dict[str, Any], timings: bool) -> dict[str, Any]:
    row = dict(entry["row"])
    if row.get("run") != index:
        raise ResultsError(f"run {index}: its row says run {row.get('run')!r}")
    if timings:
        row["wall_s"] = round(float(entry["wall_s"]), 6)
        row["worker"] = entry["worker"]
    return row
