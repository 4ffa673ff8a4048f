"""mypy checks the seams where a game is found by name (issue 35): ``get_game`` of a shipped
game's literal name has that game's own types, and the functions that take a game are generic,
so a Catego state handed to Kozo's rules, or a Catego move (an ``int``) read as text, is a type
error. Before, ``get_game`` returned ``Game[Any, Any, Any]`` and mypy passed both.

Slow (mypy reads the whole ``games`` layer: about 25 s of CPU); skipped without mypy (the
``[dev]`` extra)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

SNIPPET = """\
import io

from tablesim.games._config import options_to_json
from tablesim.games.registry import get_game
from tablesim.games.terminal import TerminalHuman

kozo = get_game("kozo")
catego = get_game("catego")
state = catego.new_game(catego.make_config({}, players=2), seed=1)
kozo.legal_moves(state)  # BAD: a Catego state given to Kozo's rules
person = TerminalHuman(catego, io.StringIO(), io.StringIO())
text: str = person.choose(state)  # BAD: a Catego move is an int
number: int = person.choose(state)
options_to_json(kozo, catego.make_config({}, players=2))  # BAD: another game's config
options_to_json(kozo, kozo.make_config({}, players=2))
"""


@pytest.mark.slow
def test_mypy_catches_a_game_used_with_another_games_values(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    src = tmp_path / "seams.py"
    src.write_text(SNIPPET)
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--no-incremental",
            "--cache-dir",
            str(tmp_path / "c"),
            "--python-version",
            "3.10",
            str(src),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    bad = {i + 1 for i, line in enumerate(SNIPPET.splitlines()) if "# BAD" in line}
    flagged = {int(line.split(":")[1]) for line in p.stdout.splitlines() if ": error:" in line}
    assert flagged == bad, p.stdout
