"""Outputs are never lost (issue #37, item 1), probed over every command that writes a file:
an existing file, a dangling symlink, a device, a FIFO or a folder at the output path is never
replaced without ``--force`` (devices, FIFOs and folders not even with it); a file that appears
while the command works is not replaced either (the decision is taken at the moment of the
replace); of two processes writing one file the second fails with exit 2 and the file is whole;
``--force`` never takes a running experiment's journal; resumed journal rows are checked row by
row; names over 255 bytes are refused in one line and legal names of up to 255 bytes work; a
killed run's temporary files are cleaned by the next write in that folder.

Every family loops over the writers in :data:`WRITERS`; the refusals are decided before any
work, so the default run takes them all; the families that need the work done (a file that
appears meanwhile, the longest legal name) take the fast writers by default and every writer
under ``-m slow``.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ROOT
from test_reliability_probes import BAR as BAR_SCENE
from test_reliability_probes import Probe, run_probe, tally

import tablesim.games.outputs as outputs
from tablesim.games.outputs import OutputError, atomic_write, check_output, clean_stale

SPEC = (
    '[parameters]\nscene = "cantilever-safe"\nreplicas = 1\nseconds = 0.2\nfriction = [0.5, 0.6]\n'
)


@dataclass(frozen=True)
class Writer:
    """A command line writing one output file ``out`` (``argv(folder, out)``)."""

    name: str
    argv: Callable[[Path, Path], list[str]]
    suffix: str
    fast: bool  # done in about a second of CPU: part of the default run's work families


def _spec(folder: Path) -> str:
    spec = folder / "q.toml"
    if not spec.exists():
        spec.write_text(SPEC)
    return str(spec)


def _table(folder: Path) -> str:
    t = folder / "tab.csv"
    if not t.exists():
        t.write_text("run,table,game,seed,seats,roles,winners,winner_seats,scores,turns\n"
                     "0,0,0,1,0|1,random|random,0,0,3|1,5\n")  # fmt: skip
    return str(t)


WRITERS = [
    Writer(
        "play --log",
        lambda d, o: [
            "play",
            "catego",
            "--players",
            "random,random",
            "--headless",
            "--json",
            "--log",
            str(o),
        ],
        ".jsonl",
        True,
    ),  # fmt: skip
    Writer(
        "tournament --out",
        lambda d, o: [
            "tournament",
            "catego",
            "--players",
            "random,random",
            "--games",
            "2",
            "--workers",
            "1",
            "--out",
            str(o),
        ],
        ".csv",
        True,
    ),  # fmt: skip
    Writer(
        "sweep --out",
        lambda d, o: ["sweep", _spec(d), "--out", str(o), "--workers", "1"],
        ".csv",
        True,
    ),  # fmt: skip
    Writer("plot -o", lambda d, o: ["plot", _table(d), "-o", str(o)], ".png", False),
    Writer(
        "render -o",
        lambda d, o: [
            "render",
            "example:kaito",
            "--size",
            "32x18",
            "--backend",
            "tiny",
            "-o",
            str(o),
        ],
        ".png",
        False,
    ),  # fmt: skip
    Writer(
        "record -o",
        lambda d, o: [
            "record",
            "example:kaito",
            "--size",
            "32x18",
            "--backend",
            "tiny",
            "--per-move",
            "0.1",
            "--fps",
            "10",
            "-o",
            str(o),
        ],
        ".gif",
        False,
    ),  # fmt: skip
    Writer(
        "katamino assemble --scene-out",
        lambda d, o: ["katamino", "assemble", "--board", "3x3x4", "--scene-out", str(o)],
        ".toml",
        False,
    ),
]
FAST_WRITERS = [w for w in WRITERS if w.fast]


def _ids(ws: list[Writer]) -> list[str]:
    return [w.name for w in ws]


def _run(argv: list[str], expect: int, needle: str = "") -> None:
    o = run_probe(Probe(" ".join(argv[:2]), argv, expect, needle))
    assert o.ok, tally([o]) + "\n" + o.err[-2000:]


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".tablesim-" in p.name or p.name.endswith(
        (".partial", ".check", ".tmp")))  # fmt: skip


# --------------------------------------------------------------------------------------
# Whatever is at the path: refused before any work, never replaced
# --------------------------------------------------------------------------------------
def _make_target(kind: str, path: Path) -> None:
    if kind == "device":
        os.mknod(path, 0o644 | stat.S_IFCHR, os.makedev(1, 3))  # a /dev/null of our own
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "dangling-symlink":
        path.symlink_to(path.parent / "nowhere")
    elif kind == "symlink-to-device":
        _make_target("device", path.parent / "dev")
        path.symlink_to(path.parent / "dev")
    else:
        path.write_text("user data\n")


def _snapshot(path: Path) -> tuple[int, str]:
    st = os.lstat(path)
    body = path.read_text() if stat.S_ISREG(st.st_mode) else os.readlink(path) if stat.S_ISLNK(
        st.st_mode) else ""  # fmt: skip
    return st.st_mode, body


TARGETS = {  # kind -> refused with --force too?
    "file": False,
    "dangling-symlink": False,
    "device": True,
    "fifo": True,
    "folder": True,
    "symlink-to-device": True,
}
_can_mknod = os.geteuid() == 0


@pytest.mark.parametrize("writer", WRITERS, ids=_ids(WRITERS))
def test_whatever_is_at_the_output_path_is_never_replaced(tmp_path: Path, writer: Writer) -> None:
    for kind, even_forced in TARGETS.items():
        if "device" in kind and not _can_mknod:
            continue
        folder = tmp_path / kind
        folder.mkdir()
        out = folder / f"out{writer.suffix}"
        _make_target(kind, out)
        before = _snapshot(out)
        _run(writer.argv(folder, out), 2, str(out.name))
        if even_forced:
            _run([*writer.argv(folder, out), "--force"], 2, "not a regular file" if kind != "folder"
                 else "folder")  # fmt: skip
        assert _snapshot(out) == before, kind
        assert not _leftovers(folder), (kind, _leftovers(folder))


# --------------------------------------------------------------------------------------
# A file that appears while the command works: decided at the moment of the replace
# --------------------------------------------------------------------------------------
def _appear_then_commit(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Make the target appear (another program's file) just before every commit."""
    made: list[Path] = []
    real = outputs._commit

    def commit(tmp: str, p: Path, force: bool) -> None:
        p.write_text("appeared meanwhile\n")
        made.append(p)
        real(tmp, p, force)

    monkeypatch.setattr(outputs, "_commit", commit)
    return made


def _appearing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, writer: Writer) -> None:
    made = _appear_then_commit(monkeypatch)
    out = tmp_path / f"late{writer.suffix}"
    _run(writer.argv(tmp_path, out), 2, "pass --force")
    assert made == [out] and out.read_text() == "appeared meanwhile\n"
    journal = [f"{out.name}.partial"] if writer.suffix == ".csv" else []  # the rows are kept
    assert _leftovers(tmp_path) == journal
    # with --force the same moment replaces it
    _run([*writer.argv(tmp_path, out), "--force"], 0)
    assert out.read_bytes() != b"appeared meanwhile\n"


@pytest.mark.parametrize("writer", FAST_WRITERS, ids=_ids(FAST_WRITERS))
def test_a_file_that_appears_during_the_work_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, writer: Writer
) -> None:
    _appearing(tmp_path, monkeypatch, writer)


@pytest.mark.slow
@pytest.mark.parametrize("writer", [w for w in WRITERS if not w.fast],
                         ids=_ids([w for w in WRITERS if not w.fast]))  # fmt: skip
def test_a_file_that_appears_during_the_work_is_kept_slow_writers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, writer: Writer
) -> None:
    _appearing(tmp_path, monkeypatch, writer)


def test_meshes_export_never_replaces_a_file_that_appears(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The set is linked in file by file; one that appeared stops it and none of it stays."""
    from tablesim.meshes import export

    out = tmp_path / "m"
    real = os.link

    def link(src: str, dst: str, *a: object, **k: object) -> None:
        if Path(dst).name == "T.stl":
            Path(dst).write_text("appeared meanwhile\n")
        real(src, dst)

    monkeypatch.setattr(export.os, "link", link)
    _run(["meshes", "export", "--set", "soma", "--format", "stl", "-o", str(out)], 2, "T.stl")
    assert sorted(p.name for p in out.iterdir()) == ["T.stl"]  # only the other program's file
    assert (out / "T.stl").read_text() == "appeared meanwhile\n"


# --------------------------------------------------------------------------------------
# Two writers of one file
# --------------------------------------------------------------------------------------
def _writer_proc(path: str, payload: bytes, barrier: object, results: object) -> None:
    barrier.wait()  # type: ignore[attr-defined]
    try:
        atomic_write(path, payload)
        results.put("ok")  # type: ignore[attr-defined]
    except OutputError:
        results.put("refused")  # type: ignore[attr-defined]


@pytest.mark.parametrize("writers", [2, 4])
def test_concurrent_writers_one_wins_the_rest_are_refused(tmp_path: Path, writers: int) -> None:
    ctx = multiprocessing.get_context("fork")
    barrier, results = ctx.Barrier(writers), ctx.Queue()
    path = tmp_path / "one.bin"
    payloads = [bytes([65 + i]) * 4_000_000 for i in range(writers)]  # 4 MB: a slow write
    procs = [ctx.Process(target=_writer_proc, args=(str(path), p, barrier, results))
             for p in payloads]  # fmt: skip
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
    got = sorted(results.get(timeout=10) for _ in procs)
    assert got == ["ok"] + ["refused"] * (writers - 1)
    assert path.read_bytes() in payloads  # one whole payload, never a mix
    assert not _leftovers(tmp_path)


def test_two_play_processes_writing_one_log(tmp_path: Path) -> None:
    """Started together, both pass the check at the start; at the end one log wins, the other
    process says the file exists (exit 2) and the log is a whole, replayable game."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    log = tmp_path / "g.jsonl"
    argv = [sys.executable, "-m", "tablesim.sim.cli", "play", "catego", "--players", "random,random",
            "--headless", "--json", "--log", str(log)]  # fmt: skip
    procs = [subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]  # fmt: skip
    outs = [p.communicate(timeout=300) for p in procs]
    codes = sorted(p.returncode for p in procs)
    errs = "".join(e for _, e in outs)
    assert codes == [0, 2], errs
    assert "Traceback" not in errs and "exists" in errs
    _run(["replay", str(log)], 0)


# --------------------------------------------------------------------------------------
# Journals: the lock wins over --force; a table is not replaced without --force; rows checked
# --------------------------------------------------------------------------------------
TOURNAMENT = ["tournament", "catego", "--players", "random,random", "--games", "3",
              "--workers", "1"]  # fmt: skip


def test_force_never_takes_a_running_experiments_journal(tmp_path: Path) -> None:
    from tablesim.sim.experiments.results import Journal, journal_path

    out = tmp_path / "r.csv"
    head = {"format": "tablesim-experiment-journal/1", "kind": "tournament",
            "fingerprint": "x", "count": 3, "columns": []}  # fmt: skip
    held, _ = Journal.open(journal_path(out), head)  # as a running tournament holds it
    try:
        before = journal_path(out).read_bytes()
        for extra in ([], ["--force"]):
            _run([*TOURNAMENT, "--out", str(out), *extra], 2, f"process {os.getpid()}")
        assert journal_path(out).read_bytes() == before and not out.exists()
    finally:
        held.close()


def test_a_table_beside_its_journal_is_not_replaced_without_force(tmp_path: Path) -> None:
    out = tmp_path / "t.csv"
    out.write_text("user data\n")
    (tmp_path / "t.csv.partial").write_text("")
    _run([*TOURNAMENT, "--out", str(out)], 2, "--force")
    assert out.read_text() == "user data\n"
    _run([*TOURNAMENT, "--out", str(out), "--force"], 0)
    assert out.read_text().startswith("run,") and not (tmp_path / "t.csv.partial").exists()


def _interrupted_journal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kept: int) -> Path:
    """A tournament stopped (Ctrl-C) after ``kept`` games: its journal, with those rows."""
    import tablesim.sim.experiments.runner as runner

    real = runner.execute

    def some(job, todo, record, **kw):  # type: ignore[no-untyped-def]
        real(job, list(todo)[:kept], record, **kw)
        raise KeyboardInterrupt

    out = tmp_path / "r.csv"
    with monkeypatch.context() as m:
        m.setattr(runner, "execute", some)
        _run([*TOURNAMENT, "--out", str(out)], 130)
    journal = tmp_path / "r.csv.partial"
    assert len(journal.read_text().splitlines()) == 1 + kept
    return journal


def _forgeries(entry: dict) -> dict[str, object]:
    """Journal lines a forger or a damaged disk could leave, from one real entry."""
    row = entry["row"]

    def with_row(**cells: object) -> dict:
        return {**entry, "row": {**row, **cells}}

    drop = dict(row)
    drop.pop("winners")
    return {
        "formula-cell": with_row(winners='=HYPERLINK("http://x","y")'),
        "formula-plus": with_row(roles="+cmd|' /C calc'!A0"),
        "formula-at": with_row(scores="@SUM(1+1)"),
        "wrong-seed": with_row(seed=row["seed"] + 1),
        "wrong-seats": with_row(seats="1|0" if row["seats"] == "0|1" else "0|1"),
        "wrong-run-in-row": with_row(run=row["run"] + 1),
        "missing-column": {**entry, "row": drop},
        "extra-column": with_row(extra=1),
        "row-a-list": {**entry, "row": list(row.values())},
        "cell-an-object": with_row(turns={"a": 1}),
        "cell-a-list": with_row(turns=[1, 2]),
        "huge-int": with_row(turns=10**30),
        "huge-text": with_row(scores="9|" * 5000),
        "wall-a-string": {**entry, "wall_s": "fast"},
        "worker-a-number": {**entry, "worker": 7},
        "no-row": {k: v for k, v in entry.items() if k != "row"},
        "run-outside": {**entry, "run": 99},
        "digits-5000": '{"run": 1, "row": {"turns": ' + "9" * 5000 + "}}",
        "nested-deep": "[" * 50_000 + "]" * 50_000,
        "not-json": '{"run": 1, ',
    }


def test_forged_or_malformed_journal_rows_are_refused_naming_the_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = _interrupted_journal(tmp_path, monkeypatch, kept=2)
    good = journal.read_text().splitlines()
    entry = json.loads(good[2])
    out = tmp_path / "r.csv"
    for name, forged in _forgeries(entry).items():
        line = forged if isinstance(forged, str) else json.dumps(forged)
        # the forged row is line 3, not the last (a garbled last line is a kill's: redone)
        journal.write_text("\n".join([*good[:2], line, good[1], ""]))
        o = run_probe(Probe(name, [*TOURNAMENT, "--out", str(out)], 2, f"{journal}:3"))
        assert o.ok, tally([o])
        assert not out.exists(), name
        assert journal.read_text().splitlines()[2] == line, name  # left for the user to see
    journal.write_text("\n".join(good) + "\n")  # the real rows resume
    _run([*TOURNAMENT, "--out", str(out)], 0)
    assert len(out.read_text().splitlines()) == 1 + 3


# OWASP's CSV-injection starts, each as the first character of a scene file's name
FORMULA_NAMES = ["=1+cmd", "+1+cmd", "-x+cmd", "@SUM(1+1)", "\tx=1", "\rx=1"]


def test_fresh_and_resumed_tables_neutralise_formula_cells(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sweep whose spec names scene files starting with each formula character: every such
    cell of the computed table gets a leading ' (a spreadsheet shows it as text and runs
    nothing), the journal of an interrupted run resumes with those rows (the spec fixes those
    cells: they are not forgeries), and ``read_table`` (plot's reader) gives the names back."""
    import csv

    import tablesim.sim.experiments.runner as runner
    from tablesim.sim.experiments.results import read_table

    for name in FORMULA_NAMES:
        (tmp_path / f"{name}.toml").write_text(BAR_SCENE)
    spec = tmp_path / "spec.toml"
    scenes = ", ".join(json.dumps(f"{n}.toml") for n in FORMULA_NAMES)
    spec.write_text(f"[parameters]\nscene = [{scenes}]\n")
    out = tmp_path / "r.csv"
    real = runner.execute

    def some(job, todo, record, **kw):  # type: ignore[no-untyped-def]
        real(job, list(todo)[:2], record, **kw)
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(runner, "execute", some)
        _run(["sweep", str(spec), "--out", str(out), "--workers", "1"], 130)
    _run(["sweep", str(spec), "--out", str(out), "--workers", "1"], 0)
    with open(out, newline="", encoding="utf-8") as fh:
        cells = [row["scene"] for row in csv.DictReader(fh)]
    assert sorted(cells) == sorted("'" + n + ".toml" for n in FORMULA_NAMES)
    _, rows = read_table(out)
    assert sorted(r["scene"] for r in rows) == sorted(n + ".toml" for n in FORMULA_NAMES)


# --------------------------------------------------------------------------------------
# Path lengths: over 255 bytes refused in one line; every legal length works
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("writer", WRITERS, ids=_ids(WRITERS))
def test_names_over_255_bytes_are_refused_in_one_line(tmp_path: Path, writer: Writer) -> None:
    for name in (
        "a" * 256 + writer.suffix,
        "é" * 130 + writer.suffix,
        "d" * 300 + "/x" + writer.suffix,
    ):
        _run(writer.argv(tmp_path, tmp_path / name), 2, "bytes")
    long_path = tmp_path / "/".join(["p" * 200] * 25) / f"x{writer.suffix}"  # over 4095 bytes
    _run(writer.argv(tmp_path, long_path), 2, "4095")


def _longest_names(suffix: str) -> list[str]:
    return [("n" * (n - len(suffix))) + suffix for n in (200, 246, 250, 255)]


@pytest.mark.parametrize("writer", FAST_WRITERS, ids=_ids(FAST_WRITERS))
def test_legal_names_up_to_255_bytes_are_written(tmp_path: Path, writer: Writer) -> None:
    for name in _longest_names(writer.suffix)[-2:] if writer.name != "play --log" else \
            _longest_names(writer.suffix):  # fmt: skip
        _run(writer.argv(tmp_path, tmp_path / name), 0)
        assert (tmp_path / name).is_file()
    assert not _leftovers(tmp_path)


@pytest.mark.parametrize("length", range(1, 256, 7))
def test_atomic_write_fits_every_name_length(tmp_path: Path, length: int) -> None:
    for suffix in (".tmp", ".png", ".check"):
        name = ("é" * length).encode()[:length].decode("utf-8", "ignore") or "x"
        check_output(tmp_path / name, force=True)
        atomic_write(tmp_path / name, b"x", suffix=suffix)
        assert (tmp_path / name).read_bytes() == b"x"


# --------------------------------------------------------------------------------------
# Stale temporary files of killed runs
# --------------------------------------------------------------------------------------
def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_stale_temporary_files_are_cleaned_only_when_ours_and_dead(tmp_path: Path) -> None:
    dead, alive = _dead_pid(), os.getpid()
    stale = [f".f.gif.tablesim-{dead}-abcdefgh.gif", f".p.png.tablesim-{dead}-a1b2c3d4.png",
             f".log.jsonl.tablesim-{dead}-zzzzzzzz.tmp"]  # fmt: skip
    kept = [
        f".f.gif.tablesim-{alive}-abcdefgh.gif",  # a running writer's
        ".f.gif.k2j3h4g5.gif",
        "tablesim-1-abcdefgh",
        ".notes.txt",
    ]  # not our pattern
    for n in stale + kept:
        (tmp_path / n).write_bytes(b"")
    (tmp_path / f".tablesim-export-{dead}-abcd").mkdir()
    (tmp_path / f".tablesim-export-{dead}-abcd" / "A.glb").write_bytes(b"")
    (tmp_path / f".tablesim-export-{alive}-efgh").mkdir()
    _run(["play", "catego", "--players", "random,random", "--headless", "--json",
          "--log", str(tmp_path / "g.jsonl")], 0)  # the next run in that folder  # fmt: skip
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([*kept, f".tablesim-export-{alive}-efgh", "g.jsonl"])
    old = tmp_path / f".x.tablesim-{alive}-abcdefgh.tmp"  # a day old: stale whoever wrote it
    old.write_bytes(b"")
    os.utime(old, (time.time() - 2 * 86400,) * 2)
    assert clean_stale(tmp_path) == 1 and not old.exists()


@pytest.mark.slow
def test_sigkill_during_a_film_leaves_nothing_after_the_next_run(tmp_path: Path) -> None:
    """SIGKILL while the GIF is being written, then any write in that folder: no temporary."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = tmp_path / "f.gif"
    for delay in (1.5, 2.0, 2.5, 3.0):
        p = subprocess.Popen([sys.executable, "-m", "tablesim.sim.cli", "record", "kozo-tower", "--size",
                              "160x90", "--backend", "tiny", "--seconds", "2", "-o", str(out),
                              "--force"], env=env)  # fmt: skip
        time.sleep(delay)
        p.kill()
        p.wait()
    _run(["play", "catego", "--players", "random,random", "--headless", "--json",
          "--log", str(tmp_path / "g.jsonl")], 0)  # fmt: skip
    assert not [n for n in os.listdir(tmp_path) if ".tablesim-" in n]
