"""The Ray executor on a local Ray instance (CI step 5: ``pip install -e '.[ray]'`` then
``pytest -m ray``): the same bytes as the local pool, and a killed Ray worker loses nothing."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT

from tablesim.sim.experiments.results import journal_path
from tablesim.sim.experiments.runner import run_job
from tablesim.sim.experiments.spec import load_spec
from tablesim.sim.experiments.sweep import SweepJob
from tablesim.sim.experiments.tournament import TournamentJob

pytestmark = pytest.mark.ray
ray = pytest.importorskip("ray")

CUBE_SPEC = ROOT / "experiments" / "cantilever-cube-size.toml"


@pytest.fixture(scope="module")
def local_reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("ref") / "local.csv"
    run_job(SweepJob(load_spec(CUBE_SPEC)), out, workers=2, stream=io.StringIO())
    return out


def test_ray_writes_the_same_bytes_as_the_local_pool(local_reference: Path, tmp_path: Path):
    out = tmp_path / "ray.csv"
    err = io.StringIO()
    rep = run_job(SweepJob(load_spec(CUBE_SPEC)), out, executor="ray", workers=2, stream=err)
    assert rep.computed == 50
    assert "ray: started a local instance" in err.getvalue()
    assert out.read_bytes() == local_reference.read_bytes()
    assert not ray.is_initialized()  # the instance it started is shut down

    job = TournamentJob("catego", ["random", "strong", "random"], 4, seed=2, budget=10)
    a, b = tmp_path / "local-t.csv", tmp_path / "ray-t.csv"
    run_job(job, a, workers=1, stream=io.StringIO())
    run_job(job, b, executor="ray", workers=2, stream=io.StringIO())
    assert a.read_bytes() == b.read_bytes()


def _ray_task_workers(session: int) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes()
            sid = os.getsid(int(entry.name))
        except (OSError, ProcessLookupError):
            continue
        if cmd.startswith(b"ray::_ray_task") and sid == session:
            pids.append(int(entry.name))
    return pids


def test_a_killed_ray_worker_loses_and_duplicates_nothing(local_reference: Path, tmp_path: Path):
    out = tmp_path / "killed.csv"
    proc = subprocess.Popen(
        [sys.executable, "-m", "tablesim.sim.cli", "sweep", str(CUBE_SPEC), "--out", str(out),
         "--executor", "ray", "--workers", "2"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    journal = journal_path(out)
    deadline = time.monotonic() + 120
    victims: list[int] = []
    while time.monotonic() < deadline and proc.poll() is None:
        rows = journal.read_bytes().count(b"\n") - 1 if journal.exists() else 0
        victims = _ray_task_workers(proc.pid) if rows >= 5 else []
        if victims:
            break
        time.sleep(0.01)
    assert victims, "no busy Ray worker found before the sweep ended"
    os.kill(victims[0], signal.SIGKILL)
    stdout, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 0, stderr
    assert out.read_bytes() == local_reference.read_bytes()


def test_ray_unreachable_cluster_is_a_clear_error(tmp_path: Path, capsys):
    from tablesim.sim.cli import main

    spec = tmp_path / "s.toml"
    spec.write_text('[parameters]\nscene = "cantilever-safe"\nseconds = 0.1\nreplicas = 1\n')
    code = main(
        ["sweep", str(spec), "--out", str(tmp_path / "x.csv"), "--executor", "ray",
         "--address", "127.0.0.1:1"]
    )  # fmt: skip
    assert code == 1
    assert "cannot reach the Ray cluster at 127.0.0.1:1" in capsys.readouterr().err
    assert journal_path(tmp_path / "x.csv").exists()  # nothing computed, resumable later
