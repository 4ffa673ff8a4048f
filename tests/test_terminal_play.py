"""Terminal play like a terminal game: help, undo and quit in every game, and the players
called by the board's own names in the prompt and in the turn and result lines."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from tablesim.games.registry import game_names, get_game

FAST = {
    "kozo": ["--table", "stand-in"],
    "kataboom": ["--table", "stand-in"],
    "katamino": ["--mode", "duel"],
}
# Katamino reads "undo" and "quit" itself (its own take-back and resign moves)
OWN_UNDO = {"katamino"}


def _play(game: str, stdin: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tablesim.sim.cli", "play", game, "--players", "human,random",
         "--seed", "4", "--headless", *FAST.get(game, []), *extra],
        cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


# Catego and Kaito in the default run (a second each); the other games in the slow step.
GAMES = [g if g in ("catego", "kaito") else pytest.param(g, marks=pytest.mark.slow)
         for g in game_names()]  # fmt: skip


@pytest.mark.parametrize("game", GAMES)
def test_help_undo_and_quit_in_every_game(game: str) -> None:
    p = _play(game, "help\nundo\nquit\n")
    assert p.returncode == 0, p.stderr
    assert "commands: help" in p.stdout and "undo:" in p.stdout and "quit:" in p.stdout
    if game in OWN_UNDO:
        assert "nothing to undo" in p.stdout
    else:
        assert "nothing to undo yet" in p.stdout  # seat 0 moves first: nothing played yet
    name = get_game(game).player_name(0)
    # the prompt names the player as the board does
    assert f"{name} (human), your move" in p.stdout
    if game in OWN_UNDO:  # the duel's own resign move: the same outcome, through the rules
        assert f"{name} (human): resign" in p.stdout and "(random) won" in p.stdout
        return
    if game == "katoiz":  # Stapeltoren level 1: "Naming a winner is not necessary at this age"
        assert re.search(rf"result: {name} \(human\) resigned; the game is stopped after \d+ "
                         r"turns \(no winner is named in this game\)$", p.stdout, re.M)  # fmt: skip
        return
    assert re.search(rf"result: {name} \(human\) resigned; .* \(random\) won; \d+ turns$",
                     p.stdout, re.M), p.stdout[-500:]  # fmt: skip


def test_undo_takes_back_the_humans_move_and_the_bots_reply() -> None:
    # Kaito, seed 4 (no dice, no physics: undo allowed): Black (random) opens with two
    # removals, Red (human) plays the first listed move, Black replies; undo takes back the
    # human's move and the reply, and the same position is asked again.
    from tablesim.games.session import Session

    with Session.new("kaito", ["human", "random"], 4) as s:
        while s.seat != 0:
            s.step()
        first = s.game.format_move(s.state, s.game.legal_moves(s.state)[0])
    p = _play("kaito", f"{first}\nundo\nquit\n")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    m = re.search(rf"undone: {re.escape(first)} \(Red\), .* \(Black\); turn \d+ again", out)
    assert m, out[-800:]
    assert "Red (human), your move" in out[m.end() :]


def test_kaito_calls_its_sides_red_and_black() -> None:
    p = _play("kaito", "quit\n")
    assert p.returncode == 0, p.stderr
    assert re.search(r"^Red: +on the grid", p.stdout, re.M)  # the board's own words
    assert "Red (human), your move" in p.stdout
    assert "result: Red (human) resigned; Black (random) won" in p.stdout
    assert "turn 1: Black (random): " in p.stdout  # Black opens (two removal moves)


def test_quit_writes_no_log(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    p = _play("catego", "quit\n", "--log", str(log))
    assert p.returncode == 0 and "no log written" in p.stdout and not log.exists()


def test_json_result_of_a_resignation() -> None:
    import json

    p = _play("catego", "quit\n", "--json")
    assert p.returncode == 0, p.stderr
    obj = json.loads(p.stdout.strip().splitlines()[-1])
    assert obj["resigned"] == 0 and obj["winner"] == 1
