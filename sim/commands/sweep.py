"""``tablesim sweep SPEC --out RESULTS``: a grid or seeded random sample of verdicts."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tablesim.games.core import counted
from tablesim.sim.cli import COMMAND_HELP, UsageError
from tablesim.sim.commands._common import MAX_WORKERS, int_in


def add_executor_arguments(p: argparse.ArgumentParser) -> None:
    """Options shared by ``sweep`` and ``tournament``: executor, workers, output, timings."""
    p.add_argument(
        "--workers",
        type=int_in(1, MAX_WORKERS),
        default=None,
        help="worker processes (default: all cores)",
    )
    p.add_argument(
        "--executor",
        choices=("local", "ray"),
        default="local",
        help="local process pool (default) or ray (pip install -e '.[ray]' in a tablesim checkout)",
    )
    p.add_argument("--address", default=None, help="Ray cluster address (with --executor ray)")
    p.add_argument(
        "--timings", action="store_true", help="add wall_s and worker columns (not byte-stable)"
    )
    p.add_argument(
        "--format", choices=("csv", "parquet"), default=None, help="default: from --out's suffix"
    )
    p.add_argument(
        "--force",
        "--overwrite",
        dest="overwrite",
        action="store_true",
        help="replace an existing output and discard a journal instead of resuming "
        "(--overwrite: the old spelling)",
    )


def check_executor_arguments(args: argparse.Namespace) -> None:
    """Bad combinations of the shared options (UsageError)."""
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be >= 1, got {args.workers}")
    if args.address and args.executor != "ray":
        raise UsageError("--address needs --executor ray")
    if args.executor == "ray":
        from tablesim.sim.experiments.executors import ExecutorError, import_ray

        try:
            import_ray()
        except ExecutorError as exc:
            raise UsageError(str(exc)) from None


def run_with_args(job, args: argparse.Namespace, label: str):  # noqa: ANN001, ANN201
    """``run_job`` with the shared options (returns its RunReport; errors propagate)."""
    from tablesim.sim.experiments.runner import run_job

    return run_job(
        job,
        args.out,
        executor=args.executor,
        workers=args.workers,
        address=args.address,
        timings=args.timings,
        fmt=args.format,
        overwrite=args.overwrite,
        label=label,
    )


def collapse_summary(columns: list[str], rows: list[dict]) -> list[str]:
    """Pooled collapse probability with its Wilson 95 % interval, per value of the first
    numeric swept parameter (at most 12 values, else binned as the plot does)."""
    from tablesim.sim.experiments.plot import choose_axes, collapse_series
    from tablesim.sim.experiments.results import ResultsError

    try:
        x, _ = choose_axes(columns, rows, None, None)
    except ResultsError:
        x = None
    if x is None:
        return []
    series, _ = collapse_series(rows, x, None, max_points=12, bins=10)
    lines = [f"collapse probability by {x} (pooled replicas, 95% interval):"]
    for pt in next(iter(series.values()), []):
        lines.append(
            f"  {x} {pt.x:g}: {pt.p:.3f} ({pt.low:.3f}-{pt.high:.3f}), "
            f"{pt.toppled} of {counted(pt.replicas, 'replica')} in {counted(pt.runs, 'run')}"
        )
    return lines


def spec_path(ref: str) -> Path:
    """A spec file path, or the shipped example ``example:NAME`` (UsageError naming them)."""
    if not ref.startswith("example:"):
        return Path(ref)
    from tablesim.data import spec_file

    try:
        return Path(str(spec_file(ref.split(":", 1)[1])))
    except ValueError as exc:
        raise UsageError(f"{ref}: {exc} (use example:NAME)") from None


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``sweep`` subcommand."""
    p = sub.add_parser(
        "sweep",
        help=COMMAND_HELP["sweep"],
        description=(
            "SPEC is a TOML sweep spec (see docs/experiments.md). One row per run, sorted by run "
            "index; an interrupted sweep resumes when run again with the same --out."
        ),
    )
    p.add_argument(
        "spec", metavar="SPEC", help="a spec file, or example:NAME (see `tablesim list specs`)"
    )
    p.add_argument("--out", "-o", required=True, help="results file (.csv or .parquet)")
    add_executor_arguments(p)
    p.add_argument(
        "--dry-run", action="store_true", help="check the spec, print the run count and stop"
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the sweep and print a one-paragraph summary."""
    from tablesim.sim.experiments.executors import ExecutorError
    from tablesim.sim.experiments.results import ResultsError
    from tablesim.sim.experiments.runner import check_output
    from tablesim.sim.experiments.spec import SpecError, load_spec
    from tablesim.sim.experiments.sweep import SweepJob

    check_executor_arguments(args)
    try:
        spec = load_spec(spec_path(args.spec))
        job = SweepJob(spec)
        if args.dry_run:
            check_output(Path(args.out), args.format, args.overwrite)
            swept = [a.name for a in spec.axes if a.swept]
            print(f"{spec.source}: {counted(spec.count, 'run')} ({spec.mode}); "
                  f"swept: {', '.join(swept)}")  # fmt: skip
            print("columns: " + ",".join(job.columns()))
            return 0
        rep = run_with_args(job, args, "sweep")
    except (SpecError, ResultsError) as exc:
        raise UsageError(str(exc)) from None
    except ExecutorError as exc:
        print(f"tablesim sweep: {exc}", file=sys.stderr)
        return 1
    counts: dict[str, int] = {}
    for r in rep.rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    verdicts = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    print(
        f"{counted(spec.count, 'run')} -> {rep.out} ({rep.kept} kept from an earlier start, {rep.computed} "
        f"computed in {rep.wall_s:.1f} s); verdicts: {verdicts}"
    )
    for line in collapse_summary(job.columns(), rep.rows):
        print(line)
    if counts.get("error"):
        print(
            f"tablesim sweep: {counted(counts['error'], 'run')} ended in an error (see the error "
            "column)",
            file=sys.stderr,
        )
    return 0
