"""Undo where chance or a physical outcome was revealed (issue 33): Catego refuses to take
back a written roll once the next dice are seen, Kozo a move after which something fell;
a game in which undo was used is marked in its log header and a replay says so."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT

from tablesim.games.log import parse_log
from tablesim.games.session import Session, UndoRefused, replay_log


def test_catego_refuses_to_take_back_a_roll_once_the_next_dice_are_seen() -> None:
    with Session.new("catego", ["human", "random"], 4) as s:
        s.play(s.game.legal_moves(s.state)[0])
        s.step()  # the bot writes; P1's next roll is on the table
        before, turns = s.state, s.turns
        with pytest.raises(UndoRefused, match="have been seen"):
            s.undo(to_human=True)
        assert s.state is before and s.turns == turns and s.undone_moves == 0


@pytest.mark.parametrize("seed", range(3))
def test_every_catego_move_but_the_last_reveals_dice(seed: int) -> None:
    # Every move draws the next roll except the game's last (nothing left to roll): by the
    # rules, 22 moves for two players, the first 21 refused, the 22nd free to take back.
    with Session.new("catego", ["random", "random"], seed) as s:
        s.run()
        hook = s.game.undo_refusal  # type: ignore[attr-defined]
        refused = [hook(p) is not None for p in s.played]
    assert refused == [True] * 21 + [False]


def _kozo_until_topple(seed: int) -> Session:
    s = Session.new("kozo", ["random", "random"], seed, options={"table": "stand-in"})
    while not s.over:
        rounds = len(s.state.rounds)
        s.step()
        if len(s.state.rounds) > rounds and s.state.rounds[-1].reason == "topple":
            return s
    s.close()
    raise AssertionError(f"seed {seed}: no topple in the whole game")


def test_kozo_refuses_to_take_back_a_topple_and_allows_a_standing_move() -> None:
    found = 0
    for seed in range(12):
        try:
            s = _kozo_until_topple(seed)
        except AssertionError:
            continue
        with s:
            hook = s.game.undo_refusal  # type: ignore[attr-defined]
            assert hook(s.played[-1]) is not None  # the topple
            # a move after which nothing fell is free to take back
            earlier = [p for p in s.played[:-1] if len(p.after.rounds) == len(p.before.rounds)]
            assert earlier and all(hook(p) is None for p in earlier)
            before = s.state
            with pytest.raises(UndoRefused, match="fell"):
                s.undo()
            assert s.state is before
        found += 1
        if found == 3:
            break
    assert found == 3, "three seeded stand-in games with a topple"


def test_a_log_with_an_undo_says_so_and_its_replay_too(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with Session.new("kaito", ["random", "random"], 5) as s:
        for _ in range(4):
            s.step()
        s.undo_to(2)
        s.run()
        lines = s.log_lines("test")
    assert '"undone":2' in lines[0]
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(lines) + "\n")
    log = parse_log(path.read_text().splitlines(), str(path))
    assert log.header.undone == 2
    report = replay_log(log)
    assert report.ok and "2 move(s) taken back by undo (practice, not rated play)" in report.message
    with Session.new("kaito", ["random", "random"], 5) as plain:
        plain.run()
        assert "undone" not in plain.log_lines("test")[0]


def test_the_terminal_says_why_a_catego_undo_is_refused() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "tablesim.sim.cli", "play", "catego", "--players", "human,random",
         "--seed", "4", "--headless"],
        cwd=ROOT, input="2\nundo\nquit\n", capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    assert "undo refused: catego: the dice rolled after '2'" in p.stdout
    assert "undone:" not in p.stdout


@pytest.mark.parametrize(
    ("game", "limit"),
    [("catego", "never a roll once the next dice are seen"),
     ("kozo", "never a move after which something fell")],
)  # fmt: skip
def test_help_says_what_undo_will_not_take_back(game: str, limit: str) -> None:
    # issue 33: "Decide what undo means where chance or a physical outcome has been revealed
    # ..., say it": help said only "take back your last move (and the bots' moves after it)"
    import io

    from tablesim.games.registry import get_game
    from tablesim.games.terminal import TerminalHuman

    g = get_game(game)
    opts = {"table": "stand-in"} if game == "kozo" else {}
    state = g.new_game(g.make_config(opts, players=2), 4)
    out = io.StringIO()
    first = g.format_move(state, g.legal_moves(state)[0])
    TerminalHuman(g, io.StringIO(f"help\n{first}\n"), out).choose(state)
    undo = next(part for part in out.getvalue().split("; ") if part.startswith("undo:"))
    assert "take back your last move" in undo and limit in undo, undo
