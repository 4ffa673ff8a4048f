"""Killed sweeps and tournaments: workers die with the parent, the journal lock goes with it,
and a run started again at once resumes to the same bytes as an uninterrupted run.

The real command in a subprocess, killed with SIGKILL (no clean-up at all: the kernel's
parent-death signal must take the workers down) and with SIGTERM (the CLI's clean-up path:
journal closed, workers killed, exit 143), as soon as the journal holds a finished row.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT

SCENE = """unit = "kozo"
[[piece]]
piece = "kozo-standard:3I"
at = [0, 0, 0]
[[piece]]
id = "top"
piece = "kozo-standard:3I"
at = [0, 0, 1]
"""

SPEC = """[sweep]
seed = 3
[parameters]
scene = "two.toml"
method = "simulate"
replicas = 2
seconds = 0.6
friction = { min = 0.3, max = 0.6, steps = 8 }
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _cmd(kind: str, out: Path) -> list[str]:
    base = [sys.executable, "-m", "tablesim.sim.cli"]
    if kind == "sweep":
        return [*base, "sweep", str(out.parent / "spec.toml"), "--out", str(out), "--workers", "2"]
    return [
        *base,
        "tournament",
        "catego",
        "--players",
        "random,strong",
        "--games",
        "8",
        "--seed",
        "5",
        "--out",
        str(out),
        "--workers",
        "2",
    ]


def _children(pid: int) -> list[int]:
    """Pids whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid == pid:
                out.append(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _setup(tmp: Path, kind: str) -> Path:
    tmp.mkdir(parents=True, exist_ok=True)
    if kind == "sweep":
        (tmp / "two.toml").write_text(SCENE)
        (tmp / "spec.toml").write_text(SPEC)
    return tmp / "out.csv"


def _run(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, env=_env(), capture_output=True, text=True, timeout=600)


def _kill_midway(cmd: list[str], out: Path, sig: int) -> tuple[int, list[int]]:
    """Start ``cmd``, wait for a finished row in the journal, send ``sig`` to the parent only.
    Returns the exit code and the worker pids seen just before the kill."""
    journal = out.with_name(out.name + ".partial")
    proc = subprocess.Popen(cmd, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if journal.exists() and journal.read_bytes().count(b"\n") >= 2:
            break
        assert proc.poll() is None, f"finished before it could be killed: {proc.stderr.read()!r}"
        time.sleep(0.02)
    workers = _children(proc.pid)
    assert workers, "no worker processes to check"
    proc.send_signal(sig)
    rc = proc.wait(timeout=60)
    proc.stderr.close()
    return rc, workers


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["sweep", "tournament"])
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_killed_run_resumes_to_the_same_bytes(tmp_path: Path, kind: str, sig: int) -> None:
    ref = _setup(tmp_path / "ref", kind)
    done = _run(_cmd(kind, ref))
    assert done.returncode == 0, done.stderr
    out = _setup(tmp_path / "killed", kind)
    rc, workers = _kill_midway(_cmd(kind, out), out, sig)
    assert rc == (-9 if sig == signal.SIGKILL else 128 + signal.SIGTERM)
    deadline = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers), "workers outlived their parent"
    again = _run(_cmd(kind, out))  # at once: no lock left behind
    assert again.returncode == 0, again.stderr
    assert "resuming" in again.stderr
    assert out.read_bytes() == ref.read_bytes()
    assert not out.with_name(out.name + ".partial").exists()
    assert oct(out.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask() -> int:
    m = os.umask(0o022)
    os.umask(m)
    return m


@pytest.mark.slow
def test_sigkilled_sweep_leaves_no_worker_and_no_lock(tmp_path: Path) -> None:
    """SIGKILL the parent: the workers go, the journal can be locked again at once."""
    import fcntl

    out = _setup(tmp_path, "sweep")
    rc, workers = _kill_midway(_cmd("sweep", out), out, signal.SIGKILL)
    assert rc == -9
    deadline = time.monotonic() + 10
    while any(_alive(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(_alive(w) for w in workers), "workers outlived their parent"
    with open(out.with_name(out.name + ".partial"), "a+b") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)  # raises if still held
