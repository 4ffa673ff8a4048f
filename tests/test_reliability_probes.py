"""The probe families of issue #20, rerun as a hostile user would: every bad input exits 2 with
a message naming it, an output that cannot be written is refused before any work, the physics
never returns a verdict from nonsense, and nothing is half written.

Most probes call the CLI's ``main()`` in-process (fast); the few that need a real process
(``> /dev/full``, Ctrl-C, the interpreter's own final flush) run ``python -m tablesim.sim.cli``.
``python tests/test_reliability_probes.py`` prints the tally (probes, tracebacks, wrong exit
codes) that the issue's closing note quotes.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import ROOT

from tablesim.sim.cli import REPORT_LINE, main

BAR = 'unit = "kozo"\n[[piece]]\npiece = "kozo-standard:3I"\nat = [0, 0, 0]\n'


def _scene(physics: str = "", pieces: str = BAR, camera: str = "") -> str:
    head = f"[physics]\n{physics}\n" if physics else ""
    cam = f"[camera]\n{camera}\n" if camera else ""
    # top-level keys first: unit must not land inside [physics] or [camera]
    return pieces.replace("[[piece]]", head + cam + "[[piece]]", 1) if pieces else head + cam


BAD_SCENES: dict[str, str] = {
    "gravity-1e300": _scene("gravity = 1e300"),
    "density-1e300": _scene("density = 1e300"),
    "cube-1e-9": _scene("kozo_cube_mm = 1e-9"),
    "clearance-1000": _scene("clearance_mm = 1000"),
    "z-1e20mm": 'unit = "mm"\n[[piece]]\npiece = "kozo-standard:3I"\nat = [0, 0, 1e20]\n',
    "x-1e6mm": 'unit = "mm"\n[[piece]]\npiece = "kozo-standard:3I"\nat = [1e6, 0, 0]\n',
    "x-1e308": 'unit = "mm"\n[[piece]]\npiece = "kozo-standard:3I"\nat = [1e308, 0, 0]\n',
    "box-1e308": 'unit = "mm"\n[[piece]]\nbox = [1e308, 10, 10]\nat = [0, 0, 0]\nstatic = false\n',
    "camera-target-x": _scene(camera='target = "x"'),
    "empty": "",
    "only-static": 'unit = "mm"\n[[piece]]\nbox = [10, 10, 10]\nat = [0, 0, 0]\n',
    "seconds-1e9": "seconds = 1e9\n" + BAR,
}


@dataclass
class Probe:
    """One command line and the exit code a user is promised."""

    name: str
    argv: list[str]
    expect: int
    needle: str = ""  # must appear in stderr (the message names what was wrong)


@dataclass
class Outcome:
    probe: Probe
    code: int
    out: str
    err: str

    @property
    def traceback(self) -> bool:
        return "Traceback" in self.err or REPORT_LINE in self.err

    @property
    def ok(self) -> bool:
        return (
            self.code == self.probe.expect and not self.traceback and self.probe.needle in self.err
        )


def run_probe(probe: Probe) -> Outcome:
    """``main(argv)`` in-process with captured output (argparse exits are returned by main)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(probe.argv)
        except SystemExit as exc:  # pragma: no cover - main returns argparse's code
            code = exc.code if isinstance(exc.code, int) else 2
        except BaseException as exc:  # an escaped exception is a traceback for the user
            import traceback

            traceback.print_exception(exc, file=err)
            code = 1
    return Outcome(probe, code, out.getvalue(), err.getvalue())


def scene_probes(tmp: Path) -> list[Probe]:
    """Every bad scene, by both verdict methods and by render: exit 2 naming the file."""
    out = []
    for name, text in BAD_SCENES.items():
        path = tmp / f"{name}.toml"
        path.write_text(text)
        for method in ("auto", "simulate"):
            out.append(Probe(f"simulate {name} {method}",
                             ["simulate", str(path), "--method", method, "--replicas", "2",
                              "--workers", "1"], 2, path.name))  # fmt: skip
        if name not in ("empty", "only-static"):  # an empty table is a fine picture
            out.append(Probe(f"render {name}",
                             ["render", str(path), "-o", str(tmp / f"{name}.png"),
                              "--backend", "tiny"], 2, path.name))  # fmt: skip
    (tmp / "utf16.toml").write_bytes(BAR.encode("utf-16"))
    (tmp / "binary.toml").write_bytes(bytes(range(256)))
    for name in ("utf16", "binary"):
        out.append(Probe(f"simulate {name}", ["simulate", str(tmp / f"{name}.toml")], 2,
                         f"{name}.toml: file: not a UTF-8 text file"))  # fmt: skip
    return out


def argument_probes(tmp: Path) -> list[Probe]:
    """Numbers beyond the documented limits, and outputs that cannot be written."""
    scene = tmp / "bar.toml"
    scene.write_text(BAR)
    spec = tmp / "huge.toml"
    spec.write_text('[parameters]\nscene = "kozo-tower"\nfriction = { min = 0.1, max = 0.9, '
                    "steps = 1000000000 }\n")  # fmt: skip
    bad_scene_spec = tmp / "bigbox-spec.toml"
    (tmp / "bigbox.toml").write_text(BAD_SCENES["box-1e308"])
    bad_scene_spec.write_text('[parameters]\nscene = "bigbox.toml"\n')
    exists = tmp / "exists.jsonl"
    exists.write_text("keep me\n")
    missing = tmp / "no-such-folder"
    unwritable = "/sys/tablesim-probe"  # a folder nobody can create files in, even root
    play = ["play", "catego", "--players", "random,random", "--headless"]
    return [
        Probe(
            "simulate --replicas 1e8",
            ["simulate", str(scene), "--replicas", "100000000"],
            2,
            "--replicas",
        ),  # fmt: skip
        Probe("simulate --replicas 0", ["simulate", str(scene), "--replicas", "0"], 2),
        Probe("simulate --seconds nan", ["simulate", str(scene), "--seconds", "nan"], 2),
        Probe("simulate --step 1", ["simulate", str(scene), "--step", "1"], 2),
        Probe("simulate --seed -1", ["simulate", str(scene), "--seed", "-1"], 2),
        Probe("play --budget -5", [*play, "--budget", "-5"], 2, "--budget"),
        Probe(
            "balance --games 0",
            ["balance", "catego", "--players", "random,random", "--games", "0"],
            2,
        ),  # fmt: skip
        Probe(
            "sweep 1e9 steps --dry-run",
            ["sweep", str(spec), "--out", str(tmp / "h.csv"), "--dry-run"],
            2,
            "1000000000 runs",
        ),  # fmt: skip
        Probe(
            "sweep 1e308 box",
            ["sweep", str(bad_scene_spec), "--out", str(tmp / "bb.csv")],
            2,
            "bigbox.toml",
        ),  # fmt: skip
        Probe(
            "play --log missing folder",
            [*play, "--log", str(missing / "g.jsonl")],
            2,
            "does not exist",
        ),  # fmt: skip
        Probe(
            "play --log unwritable",
            [*play, "--log", unwritable + ".jsonl"],
            2,
            "cannot write in /sys",
        ),  # fmt: skip
        Probe("play --log exists", [*play, "--log", str(exists)], 2, "--force"),
        Probe(
            "sweep --out unwritable",
            ["sweep", str(bad_scene_spec), "--out", unwritable + ".csv"],
            2,
        ),  # fmt: skip
        Probe(
            "tournament --out unwritable",
            [
                "tournament",
                "catego",
                "--players",
                "random,random",
                "--games",
                "2",
                "--out",
                unwritable + ".csv",
            ],
            2,
        ),  # fmt: skip
        Probe("render -o unwritable", ["render", str(scene), "-o", unwritable + ".png"], 2),
        Probe(
            "render -o missing folder", ["render", str(scene), "-o", str(missing / "p.png")], 2
        ),  # fmt: skip
        Probe("record -o unwritable", ["record", str(scene), "-o", unwritable + ".gif"], 2),
        Probe("plot -o unwritable", ["plot", str(exists), "-o", unwritable + ".png"], 2),
        Probe(
            "solve area mismatch",
            ["solve", "--board", "5x3", "--pieces", "pentominoes:LP"],
            2,
            "cells",
        ),  # fmt: skip
        Probe(
            "katamino assemble area mismatch",
            ["katamino", "assemble", "--board", "2x2x5", "--pieces", "pentominoes:LP"],
            2,
        ),  # fmt: skip
    ]


def tally(outcomes: Sequence[Outcome]) -> str:
    bad = [o for o in outcomes if not o.ok]
    tracebacks = sum(o.traceback for o in outcomes)
    wrong = sum(o.code != o.probe.expect for o in outcomes)
    lines = [f"{len(outcomes)} probes: {tracebacks} tracebacks, {wrong} wrong exit codes, "
             f"{len(bad)} failing"]  # fmt: skip
    for o in bad:
        lines.append(f"  {o.probe.name}: exit {o.code} (want {o.probe.expect}); "
                     f"stderr {o.err.strip()[-300:]!r}")  # fmt: skip
    return "\n".join(lines)


def leftovers(folder: Path) -> list[str]:
    """Temporary or journal files left behind (nothing may be half written)."""
    return sorted(
        p.name for p in folder.rglob("*") if p.name.endswith((".tmp", ".partial", ".check"))
    )


def test_bad_scenes_exit_2_naming_the_file(tmp_path: Path) -> None:
    outcomes = [run_probe(p) for p in scene_probes(tmp_path)]
    assert all(o.ok for o in outcomes), tally(outcomes)
    assert not list(tmp_path.glob("*.png")) and not leftovers(tmp_path)


def test_bad_arguments_and_outputs_exit_2_before_any_work(tmp_path: Path) -> None:
    t0 = time.process_time()
    outcomes = [run_probe(p) for p in argument_probes(tmp_path)]
    assert all(o.ok for o in outcomes), tally(outcomes)
    assert (tmp_path / "exists.jsonl").read_text() == "keep me\n"  # not overwritten
    assert not leftovers(tmp_path)
    # refused before the work: no game was played, no sweep point built (a 1e9-point grid
    # would take minutes and gigabytes)
    assert time.process_time() - t0 < 30
    assert not any("turn " in o.out for o in outcomes)


def test_play_log_force_overwrites_with_mode_0644(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    log.write_text("old\n")
    argv = ["play", "catego", "--players", "random,random", "--headless", "--json",
            "--log", str(log), "--force"]  # fmt: skip
    o = run_probe(Probe("play --force", argv, 0))
    assert o.ok, tally([o])
    assert log.read_text().startswith("{") and (log.stat().st_mode & 0o777) == _new_mode()


def _new_mode() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


DROP = """unit = "mm"
seconds = 1
ground = false
[[piece]]
id = "base"
piece = "kozo-standard:3I"
at = [300, 0, 0]
static = true
[[piece]]
id = "resting"
piece = "kozo-standard:3I"
at = [300, 0, 17.8]
[[piece]]
piece = "kozo-standard:3I"
at = [0, 0, 1900]
"""


def test_physics_blow_up_is_exit_1_never_a_verdict(tmp_path: Path) -> None:
    """Within every limit but beyond the room: with no table (``ground = false``) a bar dropped
    from 1.9 m (its centre 1.9089 m up) passes 1 m below the table top, a quarter metre under
    the room's floor, after sqrt(2 x 2.9089 / 9.81) = 0.77 s; the bar resting on a static one
    keeps the topple rule from ending the run first. Exit 1, no verdict."""
    scene = tmp_path / "drop.toml"
    scene.write_text(DROP)
    argv = ["simulate", str(scene), "--method", "simulate", "--replicas", "1", "--json"]
    o = run_probe(Probe("blow-up", argv, 1))
    assert o.code == 1 and not o.traceback, tally([o])
    assert "blew up" in o.out + o.err and "verdict" not in o.out.replace("not a verdict", "")
    assert "t = 0.77" in o.out + o.err and "height out of the room" in o.out + o.err


def test_sweep_records_a_blow_up_as_an_error_row(tmp_path: Path) -> None:
    (tmp_path / "drop.toml").write_text(DROP)
    spec = tmp_path / "spec.toml"
    spec.write_text('[parameters]\nscene = "drop.toml"\nmethod = "simulate"\nreplicas = 1\n'
                    "seconds = 1\n")  # fmt: skip
    out = tmp_path / "out.csv"
    o = run_probe(Probe("sweep blow-up", ["sweep", str(spec), "--out", str(out)], 0))
    assert o.code == 0 and not o.traceback, tally([o])
    rows = out.read_text().splitlines()
    assert len(rows) == 2 and ",error," in rows[1] and "physics blew up" in rows[1]
    assert not leftovers(tmp_path)


def _cli(args: Sequence[str], **kw: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "tablesim.sim.cli", *args], env=env,
                          capture_output=True, text=True, timeout=300, **kw)  # type: ignore[call-overload]  # fmt: skip


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_json_to_a_full_device_is_exit_2_with_one_line() -> None:
    with open("/dev/full", "w") as full:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        p = subprocess.run(
            [sys.executable, "-m", "tablesim.sim.cli", "play", "catego", "--players", "random,random",
             "--headless", "--json"],
            env=env, stdout=full, stderr=subprocess.PIPE, text=True, timeout=300,
        )  # fmt: skip
    assert p.returncode == 2, p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "No space left on device" in lines[0], p.stderr


def test_ctrl_c_in_headless_play_is_130_with_one_line() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "tablesim.sim.cli", "play", "catego", "--players", "human,random",
         "--headless"],
        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    deadline = time.monotonic() + 120
    seen = ""
    while time.monotonic() < deadline and ":" not in seen:  # the prompt is out: it waits
        seen += proc.stdout.read(1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip().splitlines() == ["tablesim play: interrupted"], err


GOLDEN_GAMES = ROOT / "tests" / "golden" / "games"

# (log, extra argv, why it is refused). The Kozo log's header has hold_s 0.5 and window_s 5,
# so a judged move runs at most 5 s + one 10 ms check: round(5.01 / slow * fps) + 1 frames.
# Kataboom's window_s 3: round(3.01 / slow * fps) + 1.
JUDGED_TOO_BIG = [
    # 151 frames x 8192 x 8192 = 1.01e10 > 2^31 (the frames held)
    ("kozo-physics-3", ["--size", "8192x8192"], "pixels; at most 2.15e+09"),
    # 2405 frames x 800 x 800 = 1.54e9 <= 2^31, drawn 4^2 times: 2.46e10 > 2^34
    ("kozo-physics-3", ["--size", "800x800", "--supersample", "4", "--fps", "120", "--slow",
                        "0.25"], "with --supersample 4 draws"),
    # 1445 frames x 2000 x 1000 = 2.89e9 > 2^31
    ("kataboom-physics-2", ["--size", "2000x1000", "--fps", "120", "--slow", "0.25"],
     "pixels; at most"),
]  # fmt: skip


@pytest.mark.parametrize(("log", "extra", "needle"), JUDGED_TOO_BIG,
                         ids=[f"{a}-{i}" for i, (a, _, _) in enumerate(JUDGED_TOO_BIG)])  # fmt: skip
def test_a_judged_film_over_the_pixel_budget_is_refused_before_the_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, log: str, extra: list[str], needle: str
) -> None:
    """``record LOG`` of a judged Kozo/Kataboom move: the film's size is bounded from the log's
    header (the table's longest watch) before the log is replayed or a frame drawn."""
    from tablesim.sim.view import film

    def no_work(*_a: object, **_k: object) -> None:
        raise AssertionError("the judged run started before the budget was checked")

    monkeypatch.setattr(film, "judged_move_run", no_work)
    out = tmp_path / "f.gif"
    argv = ["record", str(GOLDEN_GAMES / f"{log}.jsonl"), "-o", str(out), "--backend", "tiny"]
    o = run_probe(Probe(f"record {log} {extra}", [*argv, *extra], 2, needle))
    assert o.ok, tally([o])
    assert not out.exists() and not list(tmp_path.iterdir())


def test_the_judged_frame_bound_is_the_tables_longest_watch() -> None:
    """By hand from the headers: Kozo max(hold_s 0.5, window_s 5) + 0.01 s at 30 fps, speed 1:
    round(150.3) + 1 = 151; at speed 0.5, round(300.6) + 1 = 302; Kataboom window_s 3:
    round(90.3) + 1 = 91. The shipped films' longest positive sample time is within it:
    films.json's Kozo cube move (move 2) has 500 samples of 10 ms, 5.0 s."""
    from tablesim.games.log import read_log_file
    from tablesim.sim.commands.record import judged_frame_bound

    kozo = read_log_file(str(GOLDEN_GAMES / "kozo-physics-3.jsonl")).header
    kataboom = read_log_file(str(GOLDEN_GAMES / "kataboom-physics-2.jsonl")).header
    assert judged_frame_bound(kozo, 30.0, 1.0) == 151
    assert judged_frame_bound(kozo, 30.0, 0.5) == 302
    assert judged_frame_bound(kataboom, 30.0, 1.0) == 91


@pytest.mark.parametrize(("seed", "ok"), [("123456789012345678901234567890", False),
                                          (str(2**63), False), (str(2**63 - 1), True),
                                          ("-1", False), ("1.5", False)])  # fmt: skip
def test_a_spec_seed_is_bounded_like_the_command_lines(tmp_path: Path, seed: str, ok: bool) -> None:
    """Issue 37: a spec seed of 30 digits was accepted; seeds are 0..2^63-1 everywhere."""
    spec = tmp_path / "seed.toml"
    spec.write_text(f'[sweep]\nseed = {seed}\n[parameters]\nscene = "kozo-tower"\n'
                    "friction = [0.3, 0.5]\n")  # fmt: skip
    argv = ["sweep", str(spec), "--out", str(tmp_path / "s.csv"), "--dry-run"]
    o = run_probe(Probe(f"spec seed {seed}", argv, 0 if ok else 2, "" if ok else "sweep.seed"))
    assert o.ok, tally([o])


if __name__ == "__main__":  # the tally for the closing note
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        probes = scene_probes(Path(d)) + argument_probes(Path(d))
        print(tally([run_probe(p) for p in probes]))
        print("leftovers:", leftovers(Path(d)))
