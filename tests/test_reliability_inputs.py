"""No traceback, and no runaway work, from what a hostile user can feed in (issue #37, items
2-4), each family generated over every command or reader it concerns:

* standard output that cannot be written (``/dev/full``: exit 2, one line; a closed pipe:
  quietly 0) for every command's ``--help`` and for ``--version``;
* Ctrl-C in the first tenths of a second (one line, 130, never a KeyboardInterrupt
  traceback), and SIGTERM/Ctrl-C during ``meshes export`` (143/130, no partial set);
* nested, huge and endless inputs to every reader (scenes, specs, logs, boards, tables):
  exit 2 naming the file, quickly, no MemoryError or RecursionError;
* work over a stated budget refused before it starts (README "Limits");
* a log header's ``version``, seeds and budgets checked on replay;
* the Python API refusing what the command line refuses (TypeError/ValueError naming the
  argument).
"""

from __future__ import annotations

import errno
import io
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT
from test_reliability_probes import Probe, run_probe, tally

from tablesim.sim.cli import COMMANDS, main

ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _cli(args: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tablesim.sim.cli", *args], env=ENV, text=True,
                          timeout=120, **kw)  # fmt: skip


def _run(argv: list[str], expect: int = 2, needle: str = "") -> str:
    o = run_probe(Probe(" ".join(argv[:2]), argv, expect, needle))
    assert o.ok, tally([o]) + "\n" + o.err[-1500:]
    return o.err


# --------------------------------------------------------------------------------------
# Standard output that cannot be written
# --------------------------------------------------------------------------------------
class _Broken(io.StringIO):
    def __init__(self, exc: OSError) -> None:
        super().__init__()
        self.exc = exc

    def write(self, s: str) -> int:
        raise self.exc

    def flush(self) -> None:
        raise self.exc


HELP_LINES = [["--help"], ["--version"], []] + [[c, "--help"] for c in COMMANDS] + [
    ["play", "catego", "--help"], ["meshes", "export", "--help"], ["katamino", "assemble", "--help"]]  # fmt: skip


@pytest.mark.parametrize("argv", HELP_LINES, ids=[" ".join(a) or "(none)" for a in HELP_LINES])
def test_help_and_version_on_a_full_or_closed_stdout(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdout", _Broken(OSError(errno.ENOSPC, "No space left on device")))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert (
        err.strip().splitlines()[-1].endswith("No space left on device") and "Traceback" not in err
    )
    monkeypatch.setattr(sys, "stdout", _Broken(BrokenPipeError(errno.EPIPE, "Broken pipe")))
    assert main(argv) == 0
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_real_full_device_and_a_real_closed_pipe() -> None:
    for argv in (["--version"], ["--help"], ["play", "catego", "--help"]):
        with open("/dev/full", "w") as full:
            p = _cli(argv, stdout=full, stderr=subprocess.PIPE)
        assert p.returncode == 2 and p.stderr.count("\n") == 1, (argv, p.stderr)
    p = subprocess.run(f"{sys.executable} -m tablesim.sim.cli --version | head -c 1", shell=True, env=ENV,
                       capture_output=True, text=True, timeout=60)  # fmt: skip
    assert p.stdout == "t" and p.stderr == "", p.stderr


# --------------------------------------------------------------------------------------
# Signals at start-up and during an export
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("delay", [0.0, 0.02, 0.04, 0.06, 0.1, 0.2])
def test_ctrl_c_at_start_up_is_one_line(delay: float) -> None:
    """The console script's start (``from tablesim.sim.cli import main``, as the ``tablesim`` script
    does), interrupted anywhere in its first tenths of a second: 130 and one line, or the
    command's own answer. (The clock starts when the interpreter runs the script: a signal
    during Python's own start-up, before any tablesim code, is the interpreter's.)"""
    code = ("import sys; sys.stdout.write('r'); sys.stdout.flush()\n"
            "from tablesim.sim.cli import main\n"
            "sys.exit(main(['list', 'games']))\n")  # fmt: skip
    p = subprocess.Popen([sys.executable, "-c", code], env=ENV, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)  # fmt: skip
    assert p.stdout is not None and p.stdout.read(1) == "r"
    time.sleep(delay)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    if err.strip().endswith("KeyboardInterrupt") and f'File "{ROOT}' not in err:
        # the signal came before tablesim's first line ran: in this test's marker line or in
        # the interpreter's search for the package (importlib frames only); from tablesim's
        # first line on, no traceback
        return
    assert "Traceback" not in err, err
    if p.returncode == -signal.SIGINT and not err:
        # the command had ended and the interpreter was finalising (it puts SIGINT back to the
        # default action there): killed by the signal, 130 in a shell, nothing written
        return
    assert p.returncode in (0, 130), (p.returncode, err)
    if p.returncode == 130:
        assert len(err.strip().splitlines()) == 1, err


def _python(code: str, *flags: str) -> subprocess.CompletedProcess[str]:
    """``code`` run by a fresh interpreter (with ``flags``) that imports this checkout."""
    return subprocess.run([sys.executable, *flags, "-c", code], env=ENV, capture_output=True,
                          text=True, timeout=60)  # fmt: skip


def test_nothing_is_imported_before_the_early_handler() -> None:
    """The window in which Ctrl-C is Python's (a KeyboardInterrupt traceback) is what runs before
    sim/cli.py installs its early handler: ``tablesim/__init__``, ``tablesim/sim/__init__`` and
    the top of cli. None of it may import a module the interpreter has not loaded yet (CI saw the
    signal land in ``from __future__ import annotations``'s file search)."""
    code = (
        "import sys\n"
        "before = set(sys.modules)\n"
        "import tablesim, tablesim.sim\n"
        "print(sorted(set(sys.modules) - before))\n"
    )
    # -S: no site module, so only what the interpreter itself loads is there (a venv's site may
    # load __future__ or typing for its .pth files, a clean one does not; CI's did not)
    p = _python(code, "-S")
    assert p.stdout.strip() == "['tablesim', 'tablesim.sim']", p.stdout + p.stderr
    import ast

    tree = ast.parse((ROOT / "sim" / "cli.py").read_text())
    imported: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.If):  # the block that installs the handler: the window ends
            break
        if isinstance(node, ast.ImportFrom):
            imported.append(node.module or "")
        elif isinstance(node, ast.Import):
            imported.extend(a.name for a in node.names)
    # _signal and sys are built into the interpreter and loaded before any script runs
    assert sorted(imported) == ["_signal", "sys"], imported
    assert {"_signal", "sys"} <= set(sys.builtin_module_names)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_inside_a_weakref_callback_is_not_lost(sig: int) -> None:
    """A signal handler runs at whatever bytecode the main thread is at; inside a weakref
    callback (the import system's module-lock callback, where the start-up test once saw it)
    Python cannot raise and prints "Exception ignored in ..." with a traceback, the Ctrl-C lost.
    main() keeps it and answers it when the command returns: one line and 130 / 143, as
    anywhere else (the command itself ran on: nothing could stop it inside the callback)."""
    code = (
        "import signal, sys, weakref\n"
        "from tablesim.sim import cli\n"
        "class Thing: pass\n"
        "def run(argv):\n"
        "    t = Thing()\n"
        f"    r = weakref.ref(t, lambda ref: signal.raise_signal({int(sig)}))\n"
        "    del t  # the callback runs here, the handler raises inside it\n"
        "    for _ in range(10**6): pass  # the next ordinary bytecodes\n"
        "    print('not interrupted')\n"
        "    return 0\n"
        "cli._parse_and_run = run\n"
        "sys.exit(cli.main([]))\n"
    )
    p = _python(code)
    word = "interrupted" if sig == signal.SIGINT else "terminated"
    assert (p.returncode, p.stderr) == (128 + sig, f"tablesim: {word}\n"), p.stdout


def test_the_handlers_import_nothing_even_inside_the_notes_import() -> None:
    """main's Ctrl-C handler notes the signal for tablesim.games.interrupts without importing it:
    a handler that imports can land inside that same import (the module partly initialised, no
    ``note`` yet: the start-up test saw an AttributeError traceback). Fresh interpreter: the
    module not loaded, then as an import leaves it half-way (in sys.modules, still empty)."""
    code = (
        "import signal, sys, types\n"
        "from tablesim.sim import cli\n"
        "signal.signal(signal.SIGINT, cli._on_sigint)\n"
        "def ctrl_c():\n"
        "    try:\n"
        "        signal.raise_signal(signal.SIGINT)\n"
        "    except KeyboardInterrupt:\n"
        "        return cli._interrupts_note()\n"
        "a = ctrl_c(), 'tablesim.games.interrupts' in sys.modules\n"
        "sys.modules['tablesim.games.interrupts'] = types.ModuleType('tablesim.games.interrupts')\n"
        "b = ctrl_c()\n"
        "del sys.modules['tablesim.games.interrupts']\n"
        "cli._interrupts_note(clear=True)\n"
        "from tablesim.games import interrupts\n"
        "c = ctrl_c(), interrupts.pending()\n"
        "print(a, b, c)\n"
    )
    p = _python(code)
    assert (p.stdout.strip(), p.stderr) == ("(2, False) 2 (2, 2)", ""), p.stderr


@pytest.mark.parametrize("raised", ["KeyboardInterrupt", "ImportError"])
def test_an_interrupted_command_imports_nothing_more(raised: str) -> None:
    """Ctrl-C inside a command (as it lands in an import: KeyboardInterrupt, or an ImportError
    that numpy's C code made of it) is answered without importing anything new: an import after
    an interrupted one runs C module set-up again (CI once saw _decimal's 'mpd_setminalloc'
    warning as an extra stderr line). A fresh interpreter, so nothing is imported beforehand."""
    code = (
        "import argparse, signal, sys\n"
        "from tablesim.sim import cli\n"
        "before = set()\n"
        "def func(args):\n"
        "    before.update(sys.modules)  # what run_command loaded before the command ran\n"
        "    signal.raise_signal(signal.SIGINT)  # the command's handler notes it and raises\n"
        f"    raise {raised}('interrupted import') if {raised!r} == 'ImportError' else None\n"
        "def guarded(args):\n"
        "    try:\n"
        "        return func(args)\n"
        "    except KeyboardInterrupt:\n"
        f"        if {raised!r} == 'ImportError':\n"
        "            raise ImportError('numpy: interrupted') from None\n"
        "        raise\n"
        "rc = cli.run_command(argparse.Namespace(command='list', func=guarded))\n"
        "new = sorted(m for m in set(sys.modules) - before if 'tablesim' in m or 'decimal' in m)\n"
        "print(rc, new)\n"
    )
    p = _python(code)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split(" ", 1)[0] == "130", p.stdout
    assert p.stdout.strip().endswith("[]"), p.stdout
    assert p.stderr == "tablesim list: interrupted\n", p.stderr


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_during_meshes_export_is_honoured(tmp_path: Path, sig: int, code: int) -> None:
    """trimesh's exporters catch BaseException: the signal is raised again between pieces."""
    out = tmp_path / "m"
    p = subprocess.Popen([sys.executable, "-m", "tablesim.sim.cli", "meshes", "export", "--set",
                          "pentominoes", "--format", "glb", "-o", str(out), "-q"], env=ENV,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(
        n.startswith(".tablesim-export-") for n in (os.listdir(out) if out.is_dir() else [])
    ):
        time.sleep(0.005)  # the export has begun: its hidden folder is there
    still_running = p.poll() is None
    p.send_signal(sig)
    _, err = p.communicate(timeout=60)
    if still_running:
        assert p.returncode == code, (p.returncode, err)
        assert not out.exists() or not os.listdir(out), os.listdir(out)  # no partial set
    assert "Traceback" not in err


# --------------------------------------------------------------------------------------
# Nested, huge and endless inputs, to every reader
# --------------------------------------------------------------------------------------
def _inputs(folder: Path) -> dict[str, bytes]:
    deep_toml = b"a = " + b"[" * 10_000 + b"]" * 10_000 + b"\n"
    deep_json = b"[" * 100_000 + b"]" * 100_000 + b"\n"
    return {
        "deep-toml": deep_toml,
        "deep-json": deep_json,
        "digits-5000-toml": b"[sweep]\nseed = " + b"9" * 5000 + b"\n",
        "digits-5000-json": b'{"type": "header", "seed": ' + b"9" * 5000 + b"}\n",
        "invalid-utf8": b"\xff\xfe\xfa not text \x80\n",
        "huge-field": b"run,x\n0," + b"a" * 200_000 + b"\n",
        "nul-bytes": b"\x00" * 1000,
    }


def _readers(path: str, folder: Path) -> list[list[str]]:
    return [
        ["simulate", path],
        ["render", path, "-o", str(folder / "o.png"), "--backend", "tiny"],
        ["record", path, "-o", str(folder / "o.gif"), "--backend", "tiny"],
        ["replay", path],
        ["sweep", path, "--out", str(folder / "o.csv"), "--dry-run"],
        ["solve", "--board", path, "--pieces", "pentominoes"],
        ["solve", "--board", "3x5", "--pieces", "pentominoes:LNP", "--hint", "--partial", path],
        ["plot", path, "-o", str(folder / "p.png")],
    ]


def test_nested_huge_and_binary_inputs_to_every_reader(tmp_path: Path) -> None:
    t0 = time.process_time()
    for name, data in _inputs(tmp_path).items():
        for suffix in (".toml", ".jsonl", ".csv"):
            f = tmp_path / f"{name}{suffix}"
            f.write_bytes(data)
            for argv in _readers(str(f), tmp_path):
                o = run_probe(Probe(f"{name}{suffix}: {argv[0]}", argv, 2))
                assert o.ok, tally([o]) + "\n" + o.err[-1500:]
                assert len(o.err) < 5000, o.err[:300]  # bounded: no value repeated in full
    assert time.process_time() - t0 < 60


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_endless_devices_are_refused_at_the_size_limit(device: str, tmp_path: Path) -> None:
    t0 = time.perf_counter()
    for argv in _readers(device, tmp_path):
        _run(argv, 2)
    assert time.perf_counter() - t0 < 60  # read up to a limit, never to the end


def test_huge_journal_cells_and_deep_rows_in_a_sweep_journal(tmp_path: Path) -> None:
    from tablesim.sim.experiments.results import Journal, journal_path
    from tablesim.sim.experiments.spec import load_spec
    from tablesim.sim.experiments.sweep import SweepJob

    spec = tmp_path / "q.toml"
    spec.write_text('[parameters]\nscene = "cantilever-safe"\nreplicas = 1\nseconds = 0.2\n'
                    "friction = [0.5, 0.6]\n")  # fmt: skip
    job = SweepJob(load_spec(spec))
    head = {"format": "tablesim-experiment-journal/1", "kind": job.kind,
            "fingerprint": job.fingerprint(), "count": job.count, "columns": job.columns()}  # fmt: skip
    out = tmp_path / "o.csv"
    for bad in ('{"run":0,"row":{"seed":' + "1" * 5000 + '},"wall_s":0,"worker":"w"}',
                '{"run":0,"row":' + "[" * 30000 + "]" * 30000 + ',"wall_s":0,"worker":"w"}'):  # fmt: skip
        journal_path(out).write_text(json.dumps(head) + "\n" + bad + "\n" + bad + "\n")
        _run(["sweep", str(spec), "--out", str(out), "--workers", "1"], 2, ":2")
        assert not out.exists()
    j, _ = Journal.open(journal_path(out), head, fresh=True)
    j.close()


# --------------------------------------------------------------------------------------
# Runaway work, refused before it starts
# --------------------------------------------------------------------------------------
def _players(n: int) -> str:
    return ",".join(["random"] * n)


RUNAWAY: dict[str, list[str]] = {
    "tournament 200 players x 10^6": [
        "tournament",
        "catego",
        "--players",
        _players(200),
        "--games",
        "1000000",
    ],  # fmt: skip
    "tournament 5000 players": [
        "tournament",
        "catego",
        "--players",
        _players(5000),
        "--games",
        "1",
    ],  # fmt: skip
    "solve 20x20": [
        "solve",
        "--board",
        "20x20",
        "--pieces",
        "+".join(["pentominoes"] * 6 + ["tetrominoes"] * 2),
    ],  # fmt: skip
    "solve 10x10x10": ["solve", "--board", "10x10x10", "--pieces", "soma"],
    "solve 27 pieces": ["solve", "--board", "9x15", "--pieces", "+".join(["soma"] * 4)],
    "assemble 9x9x9": [
        "katamino",
        "assemble",
        "--board",
        "9x9x9",
        "--pieces",
        "+".join(["soma"] * 27),
    ],  # fmt: skip
    "catego columns 10^6": [
        "play",
        "catego",
        "--players",
        "random,random",
        "--headless",
        "--columns",
        "1..1000000",
    ],  # fmt: skip
    "catego columns 101": [
        "play",
        "catego",
        "--players",
        "random,random",
        "--headless",
        "--columns",
        "1..101",
    ],  # fmt: skip
    "render 8192 x4": [
        "render",
        "kozo-tower",
        "-o",
        "x.png",
        "--size",
        "8192x8192",
        "--supersample",
        "4",
    ],  # fmt: skip
    "render 4097 x2": [
        "render",
        "kozo-tower",
        "-o",
        "x.png",
        "--size",
        "4097x10",
        "--supersample",
        "2",
    ],  # fmt: skip
    "record film budget": [
        "record",
        "kozo-tower",
        "-o",
        "x.gif",
        "--size",
        "8192x8192",
        "--fps",
        "120",
        "--seconds",
        "10",
    ],  # fmt: skip
    "record fps 1e-320": ["record", "kozo-tower", "-o", "x.gif", "--fps=1e-320"],
    "record slow 1e-320": ["record", "kozo-tower", "-o", "x.gif", "--slow=1e-320"],
    "render camera 1e300": ["render", "kozo-tower", "-o", "x.png", "--camera", "1e300,1e300,1e300"],
    "render camera 101 m": ["render", "kozo-tower", "-o", "x.png", "--camera", "101,0,0"],
}


@pytest.mark.parametrize("name", list(RUNAWAY))
def test_runaway_work_is_refused_up_front(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    t0 = time.process_time()
    err = _run(RUNAWAY[name], 2)
    assert time.process_time() - t0 < 5, name
    assert len(err) < 1000, err[:300]  # the huge value is not repeated in full
    assert not list(tmp_path.iterdir())


def test_inline_polycube_over_the_cell_limit(tmp_path: Path) -> None:
    from tablesim.games.limits import MAX_PIECE_CELLS

    for n in (MAX_PIECE_CELLS + 1, 50_000):
        cells = ", ".join(f"[{i}, 0, 0]" for i in range(n))
        scene = tmp_path / f"c{n}.toml"
        scene.write_text(f'unit = "kozo"\n[[piece]]\ncells = [{cells}]\nat = [0, 0, 0]\n')
        err = _run(["simulate", str(scene)], 2, f"at most {MAX_PIECE_CELLS}")
        assert len(err) < 2000


# --------------------------------------------------------------------------------------
# Log headers: version, seeds and budgets as the command line bounds them
# --------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def good_log(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    log = tmp_path_factory.mktemp("log") / "g.jsonl"
    assert main(["play", "catego", "--players", "random,strong", "--headless", "--json",
                 "--log", str(log)]) == 0  # fmt: skip
    return [json.loads(line) for line in log.read_text().splitlines()]


HEADER_EDITS: dict[str, Callable[[dict[str, Any]], None]] = {
    "version 9.9.9": lambda h: h.update(version="9.9.9"),
    "version empty": lambda h: h.update(version=""),
    "version null": lambda h: h.update(version=None),
    "version number": lambda h: h.update(version=1),
    "version 0.2": lambda h: h.update(version="0.2"),
    "version blank": lambda h: h.update(version="   "),
    "version control": lambda h: h.update(version="0.1\x00"),
    "version huge": lambda h: h.update(version="1" * 100_000),
    "seed -1": lambda h: h.update(seed=-1),
    "seed 2^63": lambda h: h.update(seed=2**63),
    "bot_seed 2^64": lambda h: h["players"][0].update(bot_seed=2**64),
    "budget 10^18": lambda h: h["players"][1].update(budget=10**18),
    "budget 0": lambda h: h["players"][1].update(budget=0),
}


@pytest.mark.parametrize("name", list(HEADER_EDITS))
def test_log_header_values_are_checked_on_replay(
    name: str, good_log: list[dict[str, Any]], tmp_path: Path
) -> None:
    header = json.loads(json.dumps(good_log[0]))
    HEADER_EDITS[name](header)
    log = tmp_path / "t.jsonl"
    log.write_text("\n".join(json.dumps(x) for x in [header, *good_log[1:]]) + "\n")
    key = name.split()[0]
    err = _run(["replay", str(log)], 2, key)
    assert f"{log}:1" in err and len(err) < 1000


def test_the_unedited_log_replays(good_log: list[dict[str, Any]], tmp_path: Path) -> None:
    log = tmp_path / "t.jsonl"
    log.write_text("\n".join(json.dumps(x) for x in good_log) + "\n")
    _run(["replay", str(log)], 0)


# --------------------------------------------------------------------------------------
# The Python API validates like the command line
# --------------------------------------------------------------------------------------
API_BAD: list[tuple[str, Callable[[Any], Any], type[Exception], str]] = [
    ("simulate(None)", lambda t: t.simulate(None), TypeError, "scene"),
    ("simulate({})", lambda t: t.simulate({}), TypeError, "scene"),
    ("simulate(42)", lambda t: t.simulate(42), TypeError, "scene"),
    ("load_scene(None)", lambda t: t.load_scene(None), TypeError, "ref"),
    ("load_scene(long)", lambda t: t.load_scene("x" * 300), FileNotFoundError, "no such file"),
    (
        "solve(limit=1.5)",
        lambda t: t.solve("3x5", "pentominoes:LNP", limit=1.5),
        TypeError,
        "limit",
    ),
    ("solve(limit=0)", lambda t: t.solve("3x5", "pentominoes:LNP", limit=0), ValueError, "limit"),
    ("solve(pieces=5)", lambda t: t.solve("3x5", 5), TypeError, "pieces"),
    (
        "solve(20x20)",
        lambda t: t.solve("20x20", "+".join(["pentominoes"] * 6 + ["tetrominoes"] * 2)),
        ValueError,
        "at most",
    ),  # fmt: skip
]
for _key, _vals in {
    "seed": [(-1, ValueError), (2**63, ValueError), (2**64, ValueError), (1.5, TypeError),
             (None, TypeError), ("1", TypeError), (True, TypeError)],
    "replicas": [(0, ValueError), (10**6, ValueError), (1.5, TypeError), ("8", TypeError)],
    "workers": [(-1, ValueError), (0, ValueError), (257, ValueError), (1.5, TypeError)],
    "profile": [(None, TypeError), (3, TypeError)],
}.items():  # fmt: skip
    for _v, _exc in _vals:
        API_BAD.append((f"simulate({_key}={_v!r})",
                        lambda t, k=_key, v=_v: t.simulate("kozo-tower", **{k: v}), _exc, _key))  # fmt: skip
for _key, _vals in {"seed": [(-1, ValueError), (2**64, ValueError), (1.5, TypeError)],
                    "budget": [(0, ValueError), (10**10, ValueError), (2.0, TypeError)]}.items():  # fmt: skip
    for _v, _exc in _vals:
        API_BAD.append((f"make_bot({_key}={_v!r})",
                        lambda t, k=_key, v=_v: t.make_bot("catego", "strong", **{"seed": 1, k: v}),
                        _exc, _key))  # fmt: skip


@pytest.mark.parametrize(("name", "call", "exc", "needle"), API_BAD, ids=[a[0] for a in API_BAD])
def test_the_api_refuses_what_the_cli_refuses(
    name: str, call: Callable[[Any], Any], exc: type[Exception], needle: str
) -> None:
    import tablesim

    with pytest.raises(exc) as info:
        call(tablesim)
    assert needle in str(info.value) and len(str(info.value)) < 600


def test_the_api_and_the_cli_share_one_table_of_limits() -> None:
    import tablesim.games.limits as limits
    import tablesim.sim.commands._common as common

    for name in ("MAX_SEED", "MAX_REPLICAS", "MAX_WORKERS", "MAX_BUDGET", "MAX_GAMES"):
        assert getattr(common, name) is getattr(limits, name)
    assert (limits.MAX_SEED, limits.MAX_REPLICAS, limits.MAX_WORKERS) == (2**63 - 1, 1000, 256)


@pytest.mark.parametrize("size", [1001, 10**6, 10**7])
def test_a_huge_move_is_not_repeated_in_full(
    size: int, good_log: list[dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move of ``size`` characters, typed or logged: refused in a bounded message."""
    moves = [json.loads(json.dumps(x)) for x in good_log]
    moves[1]["move"] = "x" * size
    log = tmp_path / "big.jsonl"
    log.write_text("\n".join(json.dumps(x) for x in moves) + "\n")
    err = _run(["replay", str(log)], 2, "at most 1000 characters")
    assert len(err) < 1000
    monkeypatch.setattr(sys, "stdin", io.StringIO("x" * size + "\n"))
    o = run_probe(Probe("typed", ["play", "catego", "--players", "human,random", "--headless"], 2))
    assert o.ok and len(o.out) + len(o.err) < 5000, (o.code, o.err[-300:])


def test_main_in_process_puts_back_what_it_set() -> None:
    """Called in-process (a host program, these tests), main() leaves the process as it found
    it: the SIGINT/SIGTERM handlers and sys.unraisablehook it sets while it runs are put back."""
    before = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM), sys.unraisablehook)
    assert main(["list", "games"]) == 0
    after = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM), sys.unraisablehook)
    assert after == before
