"""Fuzzing every boundary with Hypothesis: scene TOML, sweep specs, game-log lines, move texts
of every game, and whole command lines. Every input either works or is refused with the
boundary's own error (exit 2 and a message from the CLI) -- never another exception, never a
traceback, never a half-written file.

A bounded number of examples runs by default (a few seconds); ``pytest -m slow`` runs many
more (the ``fuzz-slow`` profile below).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tablesim.games.core import GameError
from tablesim.games.registry import game_names, get_game
from tablesim.sim.cli import REPORT_LINE, main
from tablesim.sim.experiments.spec import MAX_RUNS, PARAMETERS, SpecError, parse_spec
from tablesim.sim.scene import PHYSICS_KEYS, InvalidSceneError, parse_scene

FAST = settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
SLOW = settings(
    max_examples=200,
    deadline=None,
    derandomize=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


# ---------------------------------------------------------------------------------------
# TOML text from values (enough of TOML for the fuzzer: tables, arrays of tables, scalars)
# ---------------------------------------------------------------------------------------
def toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)  # a TOML basic string is a JSON string for these characters
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {toml_value(x)}" for k, x in v.items()) + "}"
    raise TypeError(v)


def toml_text(doc: dict[str, Any]) -> str:
    """Scalars first, then [tables], then [[arrays of tables]]."""
    head, tables, arrays = [], [], []
    for k, v in doc.items():
        key = json.dumps(k)
        if isinstance(v, dict):
            tables.append(
                f"[{key}]\n" + "".join(f"{json.dumps(a)} = {toml_value(b)}\n" for a, b in v.items())
            )
        elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            for t in v:
                arrays.append(
                    f"[[{key}]]\n"
                    + "".join(f"{json.dumps(a)} = {toml_value(b)}\n" for a, b in t.items())
                )
        else:
            head.append(f"{key} = {toml_value(v)}\n")
    return "".join(head) + "\n".join(tables) + "\n" + "\n".join(arrays)


numbers = st.one_of(
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 1, -1, 0.5, 17.8, 1e-9, 1e308, -1e308, 1e20, 2.0, 3]),
)
scalars = st.one_of(numbers, st.booleans(), st.text(max_size=8))
vectors = st.lists(numbers, min_size=0, max_size=5)
values = st.one_of(scalars, vectors, st.lists(st.lists(st.integers(-3, 3), max_size=4), max_size=5))

piece_refs = st.sampled_from(
    [
        "kozo-standard:3I",
        "kozo-standard:4L",
        "pentominoes:F",
        "katamino-duo:W1",
        "soma:A",
        "nope:X",
        "kozo-standard:zz",
        "x",
    ]
)
piece_key_values = {
    "piece": piece_refs,
    "cells": st.lists(st.lists(st.integers(-2, 3), min_size=2, max_size=3), max_size=4),
    "box": vectors,
    "at": vectors,
    "corner": vectors,
    "rotate": vectors,
    "quaternion": vectors,
    "static": st.one_of(st.booleans(), scalars),
    "cube": st.sampled_from(["kozo", "unit", "mm", "x"]),
    "id": st.text(max_size=6),
    "color": st.sampled_from(["#fff", "#123456", "red", ""]),
    "friction": numbers,
    "bogus": scalars,
}


@st.composite
def scene_docs(draw: Any) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    if draw(st.booleans()):
        doc["unit"] = draw(st.sampled_from(["kozo", "mm", "unit", "katamino", "inch", 3]))
    if draw(st.booleans()):
        doc["seconds"] = draw(numbers)
    if draw(st.booleans()):
        doc["ground"] = draw(st.one_of(st.booleans(), scalars))
    if draw(st.booleans()):
        keys = st.sampled_from([*PHYSICS_KEYS, "bogus", "clearance"])
        doc["physics"] = draw(st.dictionaries(keys, numbers, max_size=4))
    if draw(st.booleans()):
        keys = st.sampled_from(["target", "distance", "yaw", "pitch", "pos", "fov", "x"])
        doc["camera"] = draw(st.dictionaries(keys, values, max_size=3))
    if draw(st.booleans()):
        doc["base"] = {"kind": draw(st.sampled_from(["kozo", "other", 1]))}
    pieces = []
    for _ in range(draw(st.integers(0, 4))):
        keys = draw(st.lists(st.sampled_from(list(piece_key_values)), max_size=5, unique=True))
        t = {k: draw(piece_key_values[k]) for k in keys}
        if draw(st.booleans()):  # mostly well-formed pieces, so the deeper checks run too
            t.setdefault("piece", draw(piece_refs))
            t.setdefault("at", [draw(st.integers(-3, 3)) for _ in range(3)])
        pieces.append(t)
    if pieces:
        doc["piece"] = pieces
    return doc


def _scene_case(text: str) -> None:
    try:
        scene = parse_scene(text, "fuzz.toml")
    except InvalidSceneError as exc:
        assert str(exc).startswith("fuzz.toml: ") and exc.problems
        return
    for p in scene.pieces:  # what loads is on the table and finite
        assert all(math.isfinite(v) and abs(v) < 10 for v in p.position)


@FAST
@given(scene_docs())
def test_scene_files_load_or_name_every_problem(doc: dict[str, Any]) -> None:
    _scene_case(toml_text(doc))


@FAST
@given(st.text(max_size=200))
def test_any_text_is_a_scene_or_an_invalid_scene(text: str) -> None:
    _scene_case(text)


# ---------------------------------------------------------------------------------------
# Sweep specs
# ---------------------------------------------------------------------------------------
@st.composite
def spec_docs(draw: Any) -> dict[str, Any]:
    sweep = draw(
        st.dictionaries(
            st.sampled_from(["mode", "seed", "repeats", "samples", "description", "bogus"]),
            st.one_of(st.sampled_from(["grid", "random", "x"]), st.integers(-5, 10**12), scalars),
            max_size=4,
        )
    )
    names = st.sampled_from([*PARAMETERS, "bogus"])
    ranges = st.fixed_dictionaries(
        {},
        optional={
            "min": numbers,
            "max": numbers,
            "log": st.booleans(),
            "steps": st.one_of(st.integers(-2, 10**10), scalars),
        },
    )
    params = draw(
        st.dictionaries(
            names, st.one_of(scalars, st.lists(scalars, max_size=4), ranges), max_size=4
        )
    )
    if draw(st.booleans()):
        params["scene"] = draw(st.sampled_from(["kozo-tower", "cantilever-safe", "nope", 3]))
    doc: dict[str, Any] = {"parameters": params}
    if sweep:
        doc["sweep"] = sweep
    return doc


def _spec_case(text: str) -> None:
    try:
        spec = parse_spec(text, "fuzz-spec.toml")
    except SpecError as exc:
        assert str(exc).startswith("fuzz-spec.toml: ") and exc.problems
        return
    assert 0 < spec.count <= MAX_RUNS


@FAST
@given(spec_docs())
def test_sweep_specs_load_or_name_every_problem(doc: dict[str, Any]) -> None:
    _spec_case(toml_text(doc))


# ---------------------------------------------------------------------------------------
# Move texts of every game
# ---------------------------------------------------------------------------------------
GAMES = game_names()


def _start(name: str) -> tuple[Any, Any]:
    game = get_game(name)
    return game, game.new_game(game.make_config({}, players=2), 7)


@FAST
@given(
    st.sampled_from(GAMES),
    st.one_of(st.text(max_size=30), st.from_regex(r"[a-z0-9 ,:@+\-.]{0,20}", fullmatch=True)),
)
def test_move_text_parses_or_is_a_game_error(name: str, text: str) -> None:
    game, state = _start(name)
    try:
        move = game.parse_move(state, text)
    except GameError:
        return
    # whatever parses is legal and prints back to a text that parses to the same move
    assert move in game.legal_moves(state)
    assert game.parse_move(state, game.format_move(state, move)) == move


# ---------------------------------------------------------------------------------------
# Command lines and game-log lines, through main() in-process
# ---------------------------------------------------------------------------------------
def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
        contextlib.redirect_stdout(out),
    ):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def _no_half_written(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith((".tmp", ".partial", ".check"))]


junk = st.one_of(
    st.sampled_from(
        [
            "-1",
            "0",
            "1",
            "2",
            "1e308",
            "nan",
            "inf",
            "x",
            "",
            "--",
            "3x3",
            "5x8",
            "catego",
            "kozo-tower",
            "random,random",
            "human",
            "/sys/x.csv",
            "out.csv",
            "a.png",
            "-o",
            "bad.toml",
            "game.jsonl",
            "spec.toml",
            "nope/x.csv",
            "o.csv",
            "strong",
            "human,random",
            "pentominoes",
            "2x3x5",
            "front",
            "1,2,3",
        ]
    ),
    st.text(max_size=6),
)
TEMPLATES: dict[str, list[str]] = {
    # a cheap, valid command line per command; the fuzzer mutates it
    "simulate": ["simulate", "cantilever-safe", "--replicas", "1", "--seconds", "0.1",
                 "--workers", "1", "--json"],
    "sweep": ["sweep", "spec.toml", "--out", "o.csv", "--workers", "1"],
    "solve": ["solve", "--board", "3x5", "--pieces", "pentominoes:LPU", "--count", "--json"],
    "play": ["play", "catego", "--players", "random,random", "--headless", "--seed", "1",
             "--log", "p.jsonl"],
    "balance": ["balance", "kaito", "--players", "random,random", "--games", "2", "--json"],
    "tournament": ["tournament", "catego", "--players", "random,random", "--games", "1",
                   "--out", "t.csv", "--workers", "1"],
    "plot": ["plot", "o.csv", "-o", "o.png"],
    "replay": ["replay", "game.jsonl"],
    "render": ["render", "cantilever-safe", "-o", "r.png", "--size", "32x24", "--backend",
               "tiny", "--supersample", "1"],
}  # fmt: skip
EXTRA_OPTIONS = [
    "--seed",
    "--budget",
    "--force",
    "--overwrite",
    "--json",
    "--dry-run",
    "--method",
    "--step",
    "--seats",
    "--x",
    "--bins",
    "--at",
    "--camera",
    "--size",
    "--format",
    "--profile",
    "--show",
    "--distinct",
    "-o",
    "--out",
]
CAPS = {
    "--games": 3,
    "--replicas": 2,
    "--seconds": 0.2,
    "--show": 2,
    "--budget": 50,
    "--size": None,
    "--supersample": 1,
}


@st.composite
def command_lines(draw: Any) -> list[str]:
    argv = list(TEMPLATES[draw(st.sampled_from(sorted(TEMPLATES)))])
    for _ in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from(["replace", "replace", "drop", "add"]))
        i = draw(st.integers(1, len(argv) - 1)) if len(argv) > 1 else 0
        if op == "replace" and i:
            argv[i] = draw(junk)
        elif op == "drop" and i:
            del argv[i]
        else:
            argv += [draw(st.sampled_from(EXTRA_OPTIONS)), draw(junk)][: draw(st.integers(1, 2))]
    # bound the work a well-formed line may ask for (the fuzzer hunts errors, not long runs)
    for i, a in enumerate(argv[:-1]):
        if a in CAPS:
            cap = CAPS[a]
            try:
                if cap is None or float(argv[i + 1]) > cap:
                    argv[i + 1] = "32x24" if cap is None else str(cap)
            except ValueError:
                pass
    return argv


SPEC = '[parameters]\nscene = "cantilever-safe"\nfriction = [0.3, 0.5]\n'


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "spec.toml").write_text(SPEC)
    (tmp_path / "bad.toml").write_text("[[piece]]\nbox = [1e308, 1, 1]\nat = [0, 0, 0]\n")
    code, _, err = _run(["sweep", "spec.toml", "--out", "o.csv", "--workers", "1"])
    assert code == 0, err
    code, _, err = _run(
        [
            "play",
            "catego",
            "--players",
            "random,random",
            "--headless",
            "--seed",
            "3",
            "--log",
            "game.jsonl",
        ]
    )
    assert code == 0, err
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # a human seat meets end of input
    return tmp_path


def _cli_case(folder: Path, argv: list[str]) -> None:
    code, _, err = _run(argv)
    assert "Traceback" not in err and REPORT_LINE not in err, (argv, err)
    assert code in (0, 1, 2), (argv, code, err)
    if code == 2:
        assert err.strip(), (argv, "exit 2 without a message")
    assert not _no_half_written(folder), (argv, _no_half_written(folder))


@settings(FAST, max_examples=5)
@given(argv=command_lines())
def test_command_lines_work_or_exit_2_with_a_message(folder: Path, argv: list[str]) -> None:
    _cli_case(folder, argv)


@st.composite
def mutated_logs(draw: Any, lines: list[str]) -> list[str]:
    out = list(lines)
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["drop", "dup", "garble", "edit", "cut"]))
        if not out:
            break
        i = draw(st.integers(0, len(out) - 1))
        if op == "drop":
            del out[i]
        elif op == "dup":
            out.insert(i, out[i])
        elif op == "garble":
            out[i] = draw(st.text(max_size=40))
        elif op == "cut":
            out[i] = out[i][: draw(st.integers(0, len(out[i])))]
        else:
            try:
                obj = json.loads(out[i])
            except ValueError:
                continue
            if isinstance(obj, dict) and obj:
                key = draw(st.sampled_from(sorted(obj)))
                obj[key] = draw(st.one_of(scalars, st.none(), st.just({}), st.just([])))
                out[i] = json.dumps(obj)
    return out


@FAST
@given(data=st.data())
def test_log_lines_replay_or_exit_2(folder: Path, data: Any) -> None:
    lines = (folder / "game.jsonl").read_text().splitlines()
    (folder / "fuzz.jsonl").write_text("\n".join(data.draw(mutated_logs(lines))) + "\n")
    _cli_case(folder, ["replay", "fuzz.jsonl"])


# ---------------------------------------------------------------------------------------
# Many more examples: pytest -m slow
# ---------------------------------------------------------------------------------------
@pytest.mark.slow
@SLOW
@given(scene_docs())
def test_slow_scene_files(doc: dict[str, Any]) -> None:
    _scene_case(toml_text(doc))


@pytest.mark.slow
@SLOW
@given(spec_docs())
def test_slow_sweep_specs(doc: dict[str, Any]) -> None:
    _spec_case(toml_text(doc))


@pytest.mark.slow
@SLOW
@given(st.sampled_from(GAMES), st.text(max_size=40))
def test_slow_move_texts(name: str, text: str) -> None:
    test_move_text_parses_or_is_a_game_error.hypothesis.inner_test(name, text)  # type: ignore[attr-defined]


@pytest.mark.slow
@settings(SLOW, max_examples=120)
@given(argv=command_lines())
def test_slow_command_lines(folder: Path, argv: list[str]) -> None:
    _cli_case(folder, argv)


@pytest.mark.slow
@settings(SLOW, max_examples=150)
@given(data=st.data())
def test_slow_log_lines(folder: Path, data: Any) -> None:
    test_log_lines_replay_or_exit_2.hypothesis.inner_test(folder, data)  # type: ignore[attr-defined]


# --------------------------------------------------------------------------------------
# Issue #37: journal cells, API integers and output names
# --------------------------------------------------------------------------------------
CELLS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=60),
    st.text(alphabet="=+-@\t\r0123456789.e", max_size=12),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


def _journal_cell_case(value: Any) -> None:
    """A journal cell is accepted only when plain and harmless; the check never raises."""
    from tablesim.sim.experiments.rows import FORMULA_STARTS, MAX_CELL_CHARS, cell_problem

    problem = cell_problem("c", value)
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        try:
            float(value)
        except ValueError:
            assert problem is not None  # a spreadsheet formula never reaches the table
    if isinstance(value, (list, dict)) or (isinstance(value, float) and not math.isfinite(value)):
        assert problem is not None
    if isinstance(value, str) and len(value) > MAX_CELL_CHARS:
        assert problem is not None
    if value is None or isinstance(value, bool):
        assert problem is None


@FAST
@given(CELLS)
def test_journal_cells_are_plain_or_refused(value: Any) -> None:
    _journal_cell_case(value)


TABLE_TEXT = st.text(alphabet="'=+-@\t\r\n,\"x1.e ", max_size=10)


@FAST
@given(st.lists(TABLE_TEXT, min_size=2, max_size=4))
def test_table_text_is_neutral_in_the_file_and_plain_when_read(cells: list[str]) -> None:
    """Any text in a computed table: read by a spreadsheet's CSV reader, no cell starts with a
    formula character unless it is a number; read by tablesim, each cell is the text given
    (a text that looks like a number is read as that number, as before)."""
    import csv

    from tablesim.sim.experiments.results import _parse_cell, csv_text

    cols = [f"c{i}" for i in range(len(cells))]
    text = csv_text(cols, [dict(zip(cols, cells, strict=True))])
    back = list(csv.reader(io.StringIO(text, newline="")))
    assert back[0] == cols and len(back) == 2
    for given_text, cell in zip(cells, back[1], strict=True):
        if cell.startswith(("=", "+", "-", "@", "\t", "\r")):
            float(cell)  # a number such as -1.5, never a formula
        parsed = _parse_cell(cell)
        if isinstance(parsed, str):
            assert parsed == given_text
        elif given_text == "":
            assert parsed is None
        else:
            assert parsed == float(given_text)


API_VALUES = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(),
    st.none(),
    st.text(max_size=5),
    st.booleans(),
)


def _api_int_case(value: Any) -> None:
    """check_int accepts exactly the ints of its range, refuses everything else with the
    argument's name (TypeError for a wrong kind, ValueError for a wrong size)."""
    from tablesim.games.limits import MAX_SEED, check_int

    good = isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_SEED
    try:
        check_int("seed", value, 0, MAX_SEED)
    except TypeError as exc:
        assert not isinstance(value, int) or isinstance(value, bool)
        assert "seed" in str(exc) and len(str(exc)) < 400
    except ValueError as exc:
        assert isinstance(value, int) and not good and "seed" in str(exc)
    else:
        assert good


@FAST
@given(API_VALUES)
def test_api_integers_are_checked_like_the_cli(value: Any) -> None:
    _api_int_case(value)


NAMES = st.text(
    alphabet=st.characters(blacklist_characters="/\x00", blacklist_categories=("Cs",)),
    min_size=1,
    max_size=300,
)


def _output_name_case(folder: Path, name: str) -> None:
    """Any file name: written whole (up to 255 bytes) or refused as OutputError, never another
    exception, and no temporary left either way."""
    from tablesim.games.outputs import OutputError, atomic_write

    target = folder / name
    try:
        atomic_write(target, b"data", force=True)
    except OutputError:
        assert len(os.fsencode(name)) > 255 or name in (".", "..")
    else:
        assert target.read_bytes() == b"data"
        target.unlink()
    assert not [n for n in os.listdir(folder) if ".tablesim-" in n]


@settings(FAST, max_examples=40)
@given(name=NAMES)
def test_output_names_are_written_or_refused(tmp_path: Path, name: str) -> None:
    _output_name_case(tmp_path, name)


@pytest.mark.slow
@settings(SLOW, max_examples=400)
@given(value=CELLS, api=API_VALUES, name=NAMES)
def test_slow_issue_37_boundaries(tmp_path: Path, value: Any, api: Any, name: str) -> None:
    _journal_cell_case(value)
    _api_int_case(api)
    _output_name_case(tmp_path, name)
