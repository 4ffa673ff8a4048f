"""Counts read as a person says them (issue 32: "1 steps left"): one turn, one stage, one
piece, one round; the plural from two on (and for none)."""

from __future__ import annotations

from pathlib import Path

from conftest import run_cli

from tablesim.games.core import counted


def test_counted_says_one_in_the_singular() -> None:
    assert [counted(n, "turn") for n in (0, 1, 2)] == ["0 turns", "1 turn", "2 turns"]
    assert counted(1, "replica", "replicas") == "1 replica"
    assert counted(3, "die", "dice") == "3 dice"


def test_a_terminal_game_quit_on_its_first_turn_says_one_turn_and_one_stage() -> None:
    """A picture (one stage) quit on turn 1: before, "1 turns" and "0 of 1 stages"."""
    r = run_cli(
        "play", "katamino", "--mode", "picture", "--players", "human", "--headless", input="quit\n"
    )
    assert r.returncode == 0, r.stderr
    assert "result: quit; scores 0; 1 turn\n" in r.stdout
    assert '"end": "quit after 0 of 1 stage"' in r.stdout


def test_the_sandbox_counts_one_piece(tmp_path: Path) -> None:
    from tablesim.sim.scene import load_scene
    from tablesim.sim.view.sandbox import SandboxApp

    path = tmp_path / "one.toml"
    path.write_text(
        'name = "one"\nunit = "mm"\n\n[[piece]]\nid = "block"\nbox = [20, 20, 20]\nat = [0, 0, 0]\n'
    )
    with SandboxApp(load_scene(path), size=(320, 180), replicas=1) as app:
        assert app.status_lines()[0] == "sandbox one: 1 piece"


def test_a_one_game_tournament_says_one_game() -> None:
    """Before: "1 games of catego"."""
    r = run_cli("tournament", "catego", "--players", "random,random", "--games", "1")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("1 game of catego, 2 seats"), r.stdout


def test_a_one_run_sweep_says_one_run(tmp_path: Path) -> None:
    """Before: "1 runs (grid)" (the dry run) and "1 runs -> ..." with "in 1 runs" per point."""
    spec = tmp_path / "one.toml"
    spec.write_text(
        '[sweep]\nmode = "grid"\nseed = 1\n\n[parameters]\nscene = ["cantilever-safe"]\n'
        'kozo_cube_mm = [16.0]\nseconds = 0.2\nreplicas = 1\nmethod = "simulate"\n'
    )
    r = run_cli("sweep", str(spec), "--out", str(tmp_path / "r.csv"), "--dry-run")
    assert r.returncode == 0, r.stderr
    assert "1 run (grid)" in r.stdout, r.stdout
    r = run_cli("sweep", str(spec), "--out", str(tmp_path / "r.csv"))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("1 run -> "), r.stdout
    assert "1 runs" not in r.stdout and "1 replicas" not in r.stdout, r.stdout


def test_a_catego_column_worth_one_takes_1_point() -> None:
    # issue 33: "takes 1 points" (the short variant's column 1)
    from tablesim.games.catego import GAME

    state = GAME.new_game(GAME.make_config({"columns": [1, 2]}, players=2), 0)
    texts = []
    while not GAME.is_terminal(state):
        move = GAME.legal_moves(state)[0]
        texts.append(GAME.describe_move(state, move))
        state = GAME.apply(state, move)
    taken = [t for t in texts if "column 1 is complete," in t]
    assert taken and all(t.endswith("takes 1 point") for t in taken), texts


def test_balance_says_1_win() -> None:
    # "player 2 (random): 1 wins" (seen running the balance commands)
    p = run_cli(
        "balance",
        "katoiz",
        "--type",
        "stapeltje",
        "--level",
        "2",
        "--players",
        "smart,random",
        "--games",
        "10",
    )
    assert p.returncode == 0, p.stderr
    assert "player 2 (random): 1 win (10.0%" in p.stdout and "1 wins" not in p.stdout
