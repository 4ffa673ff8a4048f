"""Sweeps end to end: all rows, physics checked by hand, byte-identical output for 1 and 2
workers, resume after a kill, a killed worker, timings, Parquet, bad input."""

from __future__ import annotations

import csv
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

from tablesim.sim.cli import main
from tablesim.sim.experiments.results import journal_path, read_table
from tablesim.sim.experiments.runner import run_job
from tablesim.sim.experiments.spec import load_spec
from tablesim.sim.experiments.sweep import SweepJob

CUBE_SPEC = ROOT / "experiments" / "cantilever-cube-size.toml"


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The 50-row cantilever sweep computed in this process with one worker."""
    out = tmp_path_factory.mktemp("ref") / "ref.csv"
    rep = run_job(SweepJob(load_spec(CUBE_SPEC)), out, workers=1, stream=io.StringIO())
    assert rep.computed == 50 and rep.kept == 0
    return out


def rows_of(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def test_fifty_rows_sorted_with_the_hand_derived_tipping_edge(reference: Path):
    rows = rows_of(reference)
    assert [int(r["run"]) for r in rows] == list(range(50))
    assert not journal_path(reference).exists()
    for r in rows:
        # the bar's centre of mass is 1.5 cube edges beyond its near end (11.3 or 15.3 mm);
        # the pedestal's edge is at 40 mm (see the spec's comment)
        start = 11.3 if r["scene"] == "cantilever-safe" else 15.3
        outside = start + 1.5 * float(r["kozo_cube_mm"]) > 40.0
        assert r["verdict"] == ("topples" if outside else "stands"), r
        assert float(r["topple_probability"]) == (1.0 if outside else 0.0)
        assert r["replicas_simulated"] == "2" and r["decided_by"] == "simulation"
        assert r["error"] == ""
    assert len({r["seed"] for r in rows}) == 50
    assert "wall_s" not in rows[0] and "worker" not in rows[0]


def test_two_workers_give_the_same_bytes(reference: Path, tmp_path: Path):
    out = tmp_path / "two.csv"
    p = run_cli("sweep", str(CUBE_SPEC), "--out", str(out), "--workers", "2", cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert out.read_bytes() == reference.read_bytes()
    assert p.stderr == ""  # no progress bar when stderr is not a terminal
    assert "50 runs" in p.stdout and "topples 30" in p.stdout and "stands 20" in p.stdout
    # per cube edge, 10 runs x 2 replicas: both bars stand at 16 mm, only the bar of
    # cantilever-tips falls at 17 and 18.7 mm, both fall at 19.6 and 20.5 mm; the Wilson upper
    # bound of 0 of 20 is z^2 / (20 + z^2) = 3.8415 / 23.8415 = 0.161
    assert "kozo_cube_mm 16: 0.000 (0.000-0.161), 0 of 20 replicas in 10 runs" in p.stdout
    assert "kozo_cube_mm 17: 0.500" in p.stdout and "kozo_cube_mm 18.7: 0.500" in p.stdout
    assert "kozo_cube_mm 19.6: 1.000 (0.839-1.000)" in p.stdout


def test_parquet_is_byte_identical_for_one_and_two_workers(tmp_path: Path):
    pytest.importorskip("pyarrow")
    spec = tmp_path / "s.toml"
    spec.write_text(
        '[parameters]\nscene = ["cantilever-safe", "cantilever-tips"]\nseconds = 0.2\n'
        'replicas = 1\nmethod = "simulate"\nfriction = [0.3, 0.4, 0.5, 0.6, 0.7]\n'
    )
    job = SweepJob(load_spec(spec))
    a, b, c = tmp_path / "a.parquet", tmp_path / "b.parquet", tmp_path / "c.csv"
    run_job(job, a, workers=1, stream=io.StringIO())
    run_job(job, b, workers=2, stream=io.StringIO())
    assert a.read_bytes() == b.read_bytes()
    run_job(job, c, workers=2, stream=io.StringIO())
    cols, rows = read_table(a)
    csv_cols, csv_rows = read_table(c)
    assert cols == csv_cols
    assert rows == csv_rows  # CSV cells come back typed; empty cells are None in both
    assert [r["verdict"] for r in rows] == ["stands"] * 5 + ["topples"] * 5


def _journal_rows(path: Path) -> int:
    try:
        return max(0, path.read_bytes().count(b"\n") - 1)
    except FileNotFoundError:
        return 0


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except FileNotFoundError:
        return []
    return [int(x) for x in text.split()]


def _start(out: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tablesim.sim.cli",
            "sweep",
            str(CUBE_SPEC),
            "--out",
            str(out),
            *extra,
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def _wait_for_rows(proc: subprocess.Popen[str], journal: Path, n: int) -> int:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        got = _journal_rows(journal)
        if got >= n:
            return got
        if proc.poll() is not None:
            pytest.fail(f"the sweep ended before {n} rows: {proc.communicate()}")
        time.sleep(0.005)
    pytest.fail("no progress within 60 s")


def test_a_killed_sweep_resumes_without_recomputing_kept_rows(reference: Path, tmp_path: Path):
    out = tmp_path / "resumed.csv"
    journal = journal_path(out)
    proc = _start(out, "--workers", "2", "--timings")
    _wait_for_rows(proc, journal, 10)
    os.killpg(proc.pid, signal.SIGKILL)  # the main process and its workers, no clean-up
    proc.communicate()
    assert not out.exists()
    kept_lines = journal.read_text().splitlines()[1:]
    import json

    kept = {}
    for line in kept_lines:
        try:
            e = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut by the kill is redone
        kept[e["run"]] = e["worker"]
    assert 10 <= len(kept) < 50

    p = run_cli("sweep", str(CUBE_SPEC), "--out", str(out), "--workers", "2", "--timings", cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert f"{len(kept)} of 50 rows kept, {50 - len(kept)} to compute" in p.stderr
    assert f"({len(kept)} kept from an earlier start, {50 - len(kept)} computed" in p.stdout
    rows = rows_of(out)
    assert list(rows[0])[-2:] == ["wall_s", "worker"]  # timing columns, only when asked
    assert all(float(r["wall_s"]) > 0 and ":" in r["worker"] for r in rows)
    # kept rows still carry the killed run's worker names: they were not recomputed
    for r in rows:
        if int(r["run"]) in kept:
            assert r["worker"] == kept[int(r["run"])]
        else:
            assert r["worker"] not in kept.values()
    stripped = [{k: v for k, v in r.items() if k not in ("wall_s", "worker")} for r in rows]
    assert stripped == rows_of(reference)
    assert not journal.exists()


def test_a_killed_worker_loses_and_duplicates_nothing(reference: Path, tmp_path: Path):
    out = tmp_path / "worker-killed.csv"
    proc = _start(out, "--workers", "2")
    _wait_for_rows(proc, journal_path(out), 5)
    workers = _children(proc.pid)
    assert len(workers) == 2, workers
    os.kill(workers[0], signal.SIGKILL)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr
    assert "a worker process died" in stderr
    assert out.read_bytes() == reference.read_bytes()


def test_bad_spec_is_exit_2_with_file_and_line_and_writes_nothing(tmp_path: Path):
    spec = tmp_path / "bad.toml"
    spec.write_text('[parameters]\nscene = "cantilever-safe"\nfriction = -1\n')
    out = tmp_path / "out.csv"
    p = run_cli("sweep", str(spec), "--out", str(out), cwd=ROOT)
    assert p.returncode == 2
    assert f"{spec}:3: parameters.friction: must be >= 0" in p.stderr
    assert list(tmp_path.iterdir()) == [spec]


def test_output_problems_are_exit_2_before_any_run(tmp_path: Path, capsys):
    spec = tmp_path / "s.toml"
    spec.write_text('[parameters]\nscene = "cantilever-safe"\nseconds = 0.1\nreplicas = 1\n')
    assert main(["sweep", str(spec), "--out", str(tmp_path / "x.txt")]) == 2
    assert "use .csv or .parquet" in capsys.readouterr().err
    assert main(["sweep", str(spec), "--out", str(tmp_path / "no" / "x.csv")]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["sweep", str(spec), "--out", str(tmp_path / "x.csv"), "--workers", "0"]) == 2
    assert "--workers: allowed 1..256, got 0" in capsys.readouterr().err
    assert main(["sweep", str(spec), "--out", str(tmp_path / "x.csv"), "--address", "a:1"]) == 2
    assert "--address needs --executor ray" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml"]

    # a finished output is not silently replaced; --overwrite runs again
    assert main(["sweep", str(spec), "--out", str(tmp_path / "x.csv"), "--workers", "1"]) == 0
    capsys.readouterr()
    assert main(["sweep", str(spec), "--out", str(tmp_path / "x.csv")]) == 2
    assert "exists" in capsys.readouterr().err
    assert main(["sweep", str(spec), "--out", str(tmp_path / "x.csv"), "--overwrite"]) == 0

    # a journal left by another spec is refused, not mixed in
    (tmp_path / "y.csv.partial").write_text(
        '{"count":1,"fingerprint":"other","format":"tablesim-experiment-journal/1",'
        '"kind":"sweep"}\n'
    )
    assert main(["sweep", str(spec), "--out", str(tmp_path / "y.csv")]) == 2
    assert "different sweep" in capsys.readouterr().err


def test_a_truncated_last_journal_line_is_redone(tmp_path: Path):
    spec = tmp_path / "s.toml"
    spec.write_text(
        '[parameters]\nscene = "cantilever-tips"\nseconds = 0.1\nreplicas = 1\n'
        "friction = [0.3, 0.5, 0.7]\n"
    )
    job = SweepJob(load_spec(spec))
    full = tmp_path / "full.csv"
    run_job(job, full, workers=1, stream=io.StringIO())
    # a journal holding run 1 whole and run 2 cut in the middle of its line
    part = tmp_path / "part.csv"
    import json

    row1 = job.run(1)
    head = {
        "format": "tablesim-experiment-journal/1",
        "kind": "sweep",
        "fingerprint": job.fingerprint(),
        "count": 3,
        "columns": job.columns(),
    }
    line1 = json.dumps({"run": 1, "row": row1, "wall_s": 0.5, "worker": "w:1"})
    journal_path(part).write_text(json.dumps(head) + "\n" + line1 + "\n" + '{"run": 2, "ro')
    done = []
    rep = run_job(job, part, workers=1, stream=io.StringIO(), on_result=lambda i, r: done.append(i))
    assert rep.kept == 1 and sorted(done) == [0, 2]
    assert part.read_bytes() == full.read_bytes()


def test_error_rows_keep_the_sweep_going(tmp_path: Path):
    # two Kozo cubes side by side, 17.8 mm apart in a millimetre scene: a 20 mm cube edge
    # makes them overlap by 2.2 mm, a combination the scene loader rejects at run time
    (tmp_path / "pair.toml").write_text(
        'unit = "mm"\n'
        '[[piece]]\ncells = [[0, 0, 0]]\ncube = "kozo"\nat = [0, 0, 0]\n'
        '[[piece]]\ncells = [[0, 0, 0]]\ncube = "kozo"\nat = [17.8, 0, 0]\n'
    )
    spec = tmp_path / "s.toml"
    spec.write_text(
        '[parameters]\nscene = "pair.toml"\nseconds = 0.05\nreplicas = 1\n'
        'method = "simulate"\nkozo_cube_mm = [17.0, 20.0]\n'
    )
    rep = run_job(SweepJob(load_spec(spec)), None, workers=1, stream=io.StringIO())
    assert rep.rows[0]["verdict"] == "stands" and rep.rows[0]["error"] is None
    bad = rep.rows[1]
    assert bad["verdict"] == "error" and bad["error"].startswith("bad scene")
    assert "overlap" in bad["error"]
    assert bad["topple_probability"] is None


def test_dry_run_counts_runs_and_writes_nothing(tmp_path: Path, capsys):
    out = tmp_path / "x.csv"
    assert main(["sweep", str(CUBE_SPEC), "--out", str(out), "--dry-run"]) == 0
    text = capsys.readouterr().out
    assert "50 runs (grid); swept: scene, kozo_cube_mm, friction" in text
    assert "columns: run,seed,scene,kozo_cube_mm,friction,seconds" in text
    assert list(tmp_path.iterdir()) == []


def test_a_journal_in_use_is_refused_and_an_empty_one_is_started(tmp_path: Path):
    from tablesim.sim.experiments.results import Journal, ResultsError

    spec = tmp_path / "s.toml"
    spec.write_text('[parameters]\nscene = "cantilever-tips"\nseconds = 0.1\nreplicas = 1\n')
    job = SweepJob(load_spec(spec))
    out = tmp_path / "o.csv"
    head = {"format": "tablesim-experiment-journal/1", "kind": "sweep",
            "fingerprint": job.fingerprint(), "count": 1}  # fmt: skip
    held, _ = Journal.open(journal_path(out), head)  # as a running sweep holds it
    with pytest.raises(ResultsError, match="in use"):
        run_job(job, out, workers=1, stream=io.StringIO())
    held.close()
    journal_path(out).write_bytes(b"")  # killed between creating the file and its header
    rep = run_job(job, out, workers=1, stream=io.StringIO())
    assert rep.computed == 1 and rows_of(out)[0]["verdict"] == "topples"
