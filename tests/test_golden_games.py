"""Golden playthroughs: seeded bot games of every game, stored in tests/golden/games/.

The logs, transcripts and JSON results were written by the code before the game loop moved
into tablesim.games.session (see tests/golden/games/cases.py); these tests play the same command lines
again and diff the bytes, so a refactor that changes any game, log or output shows up here,
and a deliberate rule change shows up as a reviewed diff of the stored transcript.
"""

from __future__ import annotations

import difflib
import json
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from tablesim.sim.cli import main, version

GOLDEN = ROOT / "tests" / "golden" / "games"
sys.path.insert(0, str(GOLDEN))
from cases import CASES, FILMS, VERDICTS, film_digest  # noqa: E402

QUICK = {
    "catego-3p-random-2",
    "kaito-first-tile-random-4",
    "katamino-solo-random-1",
    "katoiz-stapeltoren-2",
    "katoiz-3-set-3",
    "katoiz-stapeltje-4",
    "kozo-stand-in-5",
}
"""Cases that play in about a second: the default run; the others (the physics tables,
Kataboom, the strong and smart bots) run with ``pytest -m slow``. (catego-3p-random-2 is
replayed by test_replay_strict.py.)"""


def _params(names: object) -> list[object]:
    return [n if n in QUICK else pytest.param(n, marks=pytest.mark.slow) for n in names]


def _diff(expected: str, got: str, name: str) -> str:
    lines = difflib.unified_diff(
        expected.splitlines(), got.splitlines(), f"golden/{name}", "now", lineterm="", n=1
    )
    return "\n".join(list(lines)[:40])


def _golden_log(name: str) -> str:
    """The stored log with the header's version replaced by this tree's (it is the only
    field that may differ between releases)."""
    lines = (GOLDEN / f"{name}.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    assert header["version"]  # a stored log names the version that wrote it
    lines[0] = lines[0].replace(f'"version":"{header["version"]}"', f'"version":"{version()}"')
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", _params(CASES))
def test_play_reproduces_the_golden_log_and_transcript(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "g.jsonl"
    assert main(["play", *CASES[name], "--headless", "--log", str(log)]) == 0
    transcript = capsys.readouterr().out
    expected = (GOLDEN / f"{name}.txt").read_text()
    assert transcript == expected, _diff(expected, transcript, f"{name}.txt")
    assert log.read_text() == _golden_log(name), _diff(_golden_log(name), log.read_text(), name)


@pytest.mark.parametrize(
    "name", _params(["kozo-stand-in-5", "catego-strong-random-5", "kozo-physics-3"])
)
def test_play_json_is_the_golden_line(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", *CASES[name], "--headless", "--json"]) == 0
    assert capsys.readouterr().out == (GOLDEN / f"{name}.json").read_text()


@pytest.mark.parametrize("name", _params(c for c in CASES if c != "catego-3p-random-2"))
def test_golden_logs_replay(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(GOLDEN / f"{name}.jsonl")]) == 0
    turns = json.loads((GOLDEN / f"{name}.jsonl").read_text().splitlines()[-1])["turns"]
    assert capsys.readouterr().out == f"reproduced: all {turns} moves and the result reproduced\n"


@pytest.mark.slow
@pytest.mark.parametrize(("name", "number"), FILMS)
def test_judged_move_films_sample_the_golden_poses(name: str, number: int) -> None:
    stored = json.loads((GOLDEN / "films.json").read_text())[f"{name}@{number}"]
    assert film_digest(name, number) == stored


@pytest.mark.slow
@pytest.mark.parametrize("name", VERDICTS)
def test_verdict_json_is_the_golden_line(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", *VERDICTS[name], "--json"]) == 0
    assert capsys.readouterr().out == (GOLDEN / f"verdict-{name}.json").read_text()
