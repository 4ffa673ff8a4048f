"""The Kaito ``strong`` bot: tactics found by hand, determinism, the node budget, the opening,
results against ``random``, and a human game through the command line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tablesim.games.bots import RandomBot
from tablesim.games.core import GameError
from tablesim.games.kaito import GAME, KaitoState, Move, make_position
from tablesim.games.kaito.rules import cell_name
from tablesim.games.kaito.strong import StrongBot
from tablesim.games.registry import make_bot


def cfg():
    return GAME.make_config({}, players=2)


def pos(tiles: dict[str, str], kaito: str, player: int = 0, held=((), ())) -> KaitoState:
    return make_position(tiles, kaito, player, held, config=cfg(), turn=10)


def text(state: KaitoState, move: Move) -> str:
    return GAME.format_move(state, move)


# Red on a1 may take a3 (own 2-Mon), a5 (black's last Kabuto) or d1 (a black 1-Mon).
WIN_IN_ONE = {"a3": "R2", "a5": "BH", "d1": "B1", "e2": "RS", "e3": "RH", "f6": "BS"}

# Red on a1 may take b1 (black 1-Mon) or a3 (black 3-Mon, the richer tile). From a3 black would
# see e3, red's only Kabuto, in row 3 and win; from b1 black only sees b5.
TRAP = {"b1": "B1", "a3": "B3", "e3": "RH", "b5": "B2", "d6": "RS", "f4": "BS", "f5": "BH"}


@pytest.mark.parametrize("seed", range(6))
def test_strong_takes_an_immediate_win(seed: int) -> None:
    state = pos(WIN_IN_ONE, "a1")
    move = StrongBot(GAME, seed).choose(state)
    assert text(state, move) == "a1-a5"
    assert GAME.is_terminal(GAME.apply(state, move))


@pytest.mark.parametrize("seed", range(6))
def test_strong_avoids_a_move_that_loses_at_once(seed: int) -> None:
    state = pos(TRAP, "a1")
    assert text(state, StrongBot(GAME, seed).choose(state)) == "a1-b1"
    # The trap is real: after a1-a3 black's best move takes e3 and wins.
    after = GAME.apply(state, GAME.parse_move(state, "a1-a3"))
    reply = StrongBot(GAME, seed).choose(after)
    assert text(after, reply) == "a3-e3"
    assert GAME.result(GAME.apply(after, reply)).winners == (1,)


def test_strong_plays_blacks_best_defence_in_the_rulebook_example() -> None:
    # The rulebook example after red's trade: black on c4 may take f4 (its own last Kabuto:
    # loses at once), a4 (red then takes f4) or c1, the only move that does not lose at once.
    tiles = {"c4": "RS", "f4": "BH", "a4": "R1", "c1": "B1", "e2": "RH", "e5": "RS", "b2": "BS"}
    state = pos(tiles, "c6", 0, (("B2", "B3"), ("RH",)))
    state = GAME.apply(state, GAME.parse_move(state, "c6-c4 buy kabuto 3+2"))
    report = StrongBot(GAME, 0).search(state)
    assert text(state, report.move) == "c4-c1"
    # The search proves the loss: red wins in 3 more moves (c1-c4, c4-a4 forced, a4-f4).
    assert report.score < -900_000
    state = GAME.apply(state, report.move)
    state = GAME.apply(state, StrongBot(GAME, 1).choose(state))  # red's only move, c1-c4
    state = GAME.apply(state, StrongBot(GAME, 2).choose(state))  # black: a4 (f4 loses now)
    assert text(state, StrongBot(GAME, 3).choose(state)) == "a4-f4"


def test_strong_does_the_opening() -> None:
    state = GAME.new_game(cfg(), 4)
    bot = StrongBot(GAME, 9, budget=2000)
    move = bot.choose(state)
    assert move.kind == "remove"  # the only move
    state = GAME.apply(state, move)
    move = bot.choose(state)
    assert move.kind == "place" and move in GAME.legal_moves(state)


def test_strong_is_deterministic() -> None:
    state = GAME.new_game(cfg(), 11)
    while state.phase != "play":
        state = GAME.apply(state, GAME.legal_moves(state)[0])
    a = StrongBot(GAME, 5, budget=3000).search(state)
    b = StrongBot(GAME, 5, budget=3000).search(state)
    assert a == b
    # Registry-made bots are the same class with the same behaviour.
    assert make_bot("kaito", "strong", 5, 3000).choose(state) == a.move


def test_budget_bounds_the_nodes_and_more_budget_searches_deeper() -> None:
    state = GAME.new_game(cfg(), 2)
    while state.phase != "play":
        state = GAME.apply(state, GAME.legal_moves(state)[-1])
    small = StrongBot(GAME, 0, budget=300).search(state)
    large = StrongBot(GAME, 0, budget=20_000).search(state)
    # Depth 1 always finishes (10 root moves on a full grid); after it the search stops at
    # the first node over the budget.
    assert small.nodes <= 301 and large.nodes <= 20_001
    assert 1 <= small.depth < large.depth


def test_strong_refuses_a_finished_game() -> None:
    state = pos(WIN_IN_ONE, "a1")
    done = GAME.apply(state, GAME.parse_move(state, "a1-a5"))
    with pytest.raises(GameError, match="finished"):
        StrongBot(GAME, 0).choose(done)


def play_match(games: int, budget: int | None) -> tuple[int, list[int]]:
    """Strong against random, strong in seat g % 2 of game g; returns (wins, lost game ids)."""
    wins, lost = 0, []
    for g in range(games):
        strong_seat = g % 2
        bots = {
            strong_seat: StrongBot(GAME, 1000 + g, budget),
            1 - strong_seat: RandomBot(GAME, 2000 + g),
        }
        state = GAME.new_game(cfg(), g)
        while not GAME.is_terminal(state):
            state = GAME.apply(state, bots[GAME.current_player(state)].choose(state))
        if GAME.result(state).winner == strong_seat:
            wins += 1
        else:
            lost.append(g)
    return wins, lost


def test_strong_beats_random_small_budget() -> None:
    wins, lost = play_match(12, 2000)
    assert wins >= 11, lost


@pytest.mark.slow
def test_strong_beats_random_in_95_percent_of_200_games() -> None:
    wins, lost = play_match(200, None)  # the default budget
    assert wins >= 190, lost


def test_human_against_strong_through_the_command_line() -> None:
    # Black (seat 1) is human: it types the opening's removal, then, every turn, tries the
    # cells a1, b1, ..., f6 in turn as bare moves; illegal ones are refused and re-prompted
    # until one is legal, so the game reaches its end.
    seed = 6
    state = GAME.new_game(cfg(), seed)
    removal = GAME.format_move(state, GAME.legal_moves(state)[0])
    cells = [cell_name(c) for c in range(36)]
    lines = ["hello", removal] + cells * 40
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "tablesim.sim.cli",
            "play",
            "kaito",
            "--players",
            "strong,human",
            "--seed",
            str(seed),
        ],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 0, p.stderr
    assert "not accepted: kaito: 'hello' is not a move; type 'remove" in p.stdout
    assert "Black (second player) places the Kaito on a gap" in p.stdout
    # the same seats, seed and typed lines played in this process through the session decide
    # who wins; the command line must end the same way (not just with either winner)
    import io

    from tablesim.games.session import Session
    from tablesim.games.terminal import TerminalHuman

    with Session.new("kaito", ["strong", "human"], seed) as s:
        human = TerminalHuman(s.game, io.StringIO("\n".join(lines) + "\n"), io.StringIO())
        winner = s.run(human.choose).winner
    expected = "Red (strong)" if winner == 0 else "Black (human)"
    assert f"result: {expected} won" in p.stdout


def test_search_board_follows_the_rules() -> None:
    # Along seeded random games (trades included), every search move is a legal move, covers
    # each (landing cell, item bought) pair the rules allow exactly once, and making it on the
    # search board gives the same board, holdings and key as the rules' apply.
    from tablesim.games.kaito.strong import _Search, _to_move
    from tablesim.games.rng import Rng

    checked_trades = 0
    for seed in range(40):
        state = GAME.new_game(cfg(), seed)
        rng = Rng.from_seed(seed, "test-kaito-search")
        while not GAME.is_terminal(state):
            legal = GAME.legal_moves(state)
            if state.phase == "play":
                search = _Search(state, 1 << 30)
                moves = search.moves(search.targets())
                pairs = sorted((_to_move(state, sm).to, _to_move(state, sm).buy) for sm in moves)
                assert pairs == sorted({(m.to, m.buy) for m in legal})
                for sm in moves:
                    move = _to_move(state, sm)
                    assert move in legal
                    fresh = _Search(GAME.apply(state, move), 1)
                    search.make(sm)
                    for attr in ("board", "on", "hostage", "bank", "kaito", "player", "key"):
                        assert getattr(search, attr) == getattr(fresh, attr), attr
                    search.unmake()
                    checked_trades += bool(move.buy)
            move, rng = rng.choice(legal)
            state = GAME.apply(state, move)
    assert checked_trades > 20


def test_cli_log_replays_and_balance_runs(tmp_path, capsys) -> None:
    from tablesim.sim.cli import main

    log = tmp_path / "kaito.jsonl"
    args = ["play", "kaito", "--players", "strong,random", "--seed", "8", "--budget", "1500"]
    assert main([*args, "--log", str(log), "--json"]) == 0
    lines = log.read_text().splitlines()
    # The opening is two logged moves by black (seat 1): the removal, then the placement.
    first, second = (json.loads(line) for line in lines[1:3])
    assert first["seat"] == 1 and first["move"].startswith("remove ")
    assert second["seat"] == 1 and second["move"].startswith("kaito ")
    assert main(["replay", str(log)]) == 0  # the strong bot chooses the same moves again
    capsys.readouterr()
    assert (
        main(
            [
                "balance",
                "kaito",
                "--players",
                "strong,strong",
                "--games",
                "2",
                "--budget",
                "400",
                "--json",
            ]
        )
        == 0
    )
    rep = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert rep["games"] == 2 and rep["draws"] == 0 and sum(rep["wins"]) == 2  # no draws


def test_cli_game_options_and_bad_values(capsys) -> None:
    from tablesim.sim.cli import main

    args = ["play", "kaito", "--players", "random,random", "--seed", "3", "--json"]
    assert main([*args, "--movement", "first-tile", "--end-check", "capture"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert out["detail"]["reason"] in {"no-katana", "no-kabuto", "no-move"}
    p = subprocess.run(
        [sys.executable, "-m", "tablesim.sim.cli", *args, "--movement", "diagonal"],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 2
    assert "movement" in p.stderr and "pass, first-tile" in p.stderr
