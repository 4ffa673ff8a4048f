"""A terminal session per game driven through tmux (issue 33, "Done means"): the command a
person types, then `help` read back from the screen, a human move typed at a person's pace
(where seconds count, the clock shows them), and `quit`, all through a real terminal (tmux's
pseudo-terminal: line editing, the echo, the screen as a person sees it).

Each session runs on a private tmux server (its own socket in the test's folder), killed at
the end. The move typed is the first legal move of the position the person faces, found by
playing the same seeded game to the human's turn in a :class:`Session` (the bots' moves are
seeded: the terminal shows the same position). Slow step: about 30 s in all (9 sessions; 21 s
measured under load 20 on 2 shared cores, 2026-12-03).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT

from tablesim.games.session import Session, make_seats

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux"),
]


class Tmux:
    """One command on a private tmux server: type into it, read its screen."""

    def __init__(self, folder: Path, argv: list[str]) -> None:
        self.sock = str(folder / "tmux.sock")
        env = {"PYTHONPATH": str(ROOT), "TERM": "xterm", "COLUMNS": "200", "LINES": "60"}
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        cmd = (f"cd {shlex.quote(str(ROOT))} && env {exports} {shlex.join(argv)}; "
               "echo \"[exit $?]\"; sleep 600")  # fmt: skip
        self._tmux("-f", "/dev/null", "start-server", ";", "set-option", "-g", "history-limit",
                   "100000", ";", "new-session", "-d", "-x", "200", "-y", "60", "-s", "t",
                   cmd)  # fmt: skip

    def _tmux(self, *args: str) -> str:
        env = {k: v for k, v in os.environ.items() if not k.startswith("TMUX")}
        p = subprocess.run(["tmux", "-S", self.sock, *args], capture_output=True, text=True,
                           env=env, timeout=30, check=True)  # fmt: skip
        return p.stdout

    def type(self, line: str) -> None:
        """Type ``line`` (literally) and Enter."""
        self._tmux("send-keys", "-t", "t", "-l", line)
        self._tmux("send-keys", "-t", "t", "Enter")

    def screen(self) -> str:
        """Everything the pane showed, its history included, wrapped lines joined (the blank
        rows below the cursor cut off, so an earlier screen is a prefix of a later one)."""
        return self._tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "t").rstrip()

    def wait(self, pattern: str, after: int = 0, timeout: float = 20.0) -> re.Match[str]:
        """Wait until ``pattern`` shows on the screen past character ``after``."""
        end = time.monotonic() + timeout
        while True:
            text = self.screen()
            m = re.compile(pattern, re.M).search(text, after)
            if m:
                return m
            if time.monotonic() > end:
                raise AssertionError(f"{pattern!r} never showed; the screen ends:\n{text[-2500:]}")
            time.sleep(0.2)

    def close(self) -> None:
        subprocess.run(["tmux", "-S", self.sock, "kill-server"], capture_output=True, timeout=30,
                       check=False)  # fmt: skip


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[type]:
    opened: list[Tmux] = []

    def start(argv: list[str]) -> Tmux:
        t = Tmux(tmp_path, argv)
        opened.append(t)
        return t

    yield start  # type: ignore[misc]
    for t in opened:
        t.close()


def first_move(game: str, roles: list[str], seed: int, options: dict[str, object],
               pick: str = "") -> str:  # fmt: skip
    """The first legal move (not a resignation) of the human's first position, or the move
    bot ``pick`` would play there (a placement that stands, where the first one falls)."""
    with Session.new(game, roles, seed, options=options) as s:
        while s.seat != 0:
            s.step()
        if pick:
            bot = make_seats(game, [pick], seed)[0].bot
            assert bot is not None
            return s.game.format_move(s.state, bot.choose(s.state))
        texts = [s.game.format_move(s.state, m) for m in s.game.legal_moves(s.state)]
    return next(t for t in texts if t not in ("quit", "resign"))


def command(game: str, roles: list[str], seed: int, options: dict[str, str]) -> list[str]:
    argv = [sys.executable, "-m", "tablesim.sim.cli", "play", game, "--players",
            ",".join(roles), "--seed", str(seed), "--headless"]  # fmt: skip
    for k, v in options.items():
        argv += [f"--{k.replace('_', '-')}", v]
    return argv


def session(tmux, game: str, roles: list[str], seed: int, options: dict[str, str],
            typed: dict[str, object] | None = None, pick: str = "") -> tuple[Tmux, str]:  # fmt: skip
    """Start the game in tmux, wait for the human's prompt; also the move to type."""
    move = first_move(game, roles, seed, typed if typed is not None else dict(options), pick)
    t = tmux(command(game, roles, seed, options))
    t.wait(r"\(human\), your move")
    return t, move


def help_then(t: Tmux, *expected: str) -> int:
    """Type ``help``; every ``expected`` text must show after it. Returns where help ended."""
    start = len(t.screen())
    t.type("help")
    m = t.wait(r"commands: help", start)
    screen = t.wait(re.escape(expected[-1]) if expected else r"commands: help", m.start())
    text = t.screen()[m.start() :]
    for e in expected:
        assert e in text, (e, text[-2000:])
    return screen.end()


def quit_game(t: Tmux, name: str = "P1") -> str:
    start = len(t.screen())
    t.type("quit")
    t.wait(r"^\[exit 0\]", start)
    text = t.screen()[start:]
    assert re.search(rf"^result: {name} \(human\) resigned", text, re.M) or "P1 resigned" in text
    return text


def test_catego(tmux) -> None:
    t, move = session(tmux, "catego", ["human", "random"], 4, {})
    help_then(t, "undo:", "quit:")
    t.type(move)
    t.wait(rf"^turn 1: P1 \(human\): P1 rolled .*, writes \d+ in column {move}$")
    t.wait(r"^turn 2: P2 \(random\): P2 rolled \d\+\d=\d+, writes")
    quit_game(t)


def test_kaito_move_then_undo(tmux) -> None:
    t, move = session(tmux, "kaito", ["human", "random"], 4, {})
    help_then(t, "undo:", "quit:")
    at = len(t.screen())
    t.type(move)
    t.wait(rf"turn \d+: Red \(human\): Red moves the Kaito {re.escape(move)}\b", at)
    t.wait(r"turn \d+: Black \(random\): ", at)
    t.wait(r"Red \(human\), your move", at)
    at = len(t.screen())
    t.type("undo")
    t.wait(rf"undone: {re.escape(move)} \(Red\), .* \(Black\); turn \d+ again", at)
    quit_game(t, "Red")


def test_kozo_short_prompt_rotations_in_help(tmux) -> None:
    t, move = session(tmux, "kozo", ["human", "random"], 4, {"table": "stand-in"})
    prompt = t.wait(r"^P1 \(human\), your move.*$").group(0)
    assert re.search(r"\[\d+ moves: ", prompt) and len(prompt) < 400, prompt  # not ~40 moves
    help_then(t, "rN is the piece's N-th rotation", "quit:")
    at = len(t.screen())
    t.type(move)
    t.wait(rf"turn 1: P1 \(human\): .*{re.escape(move)}", at)
    t.wait(r"P1 \(human\), your move", at)
    quit_game(t)


def test_kataboom_short_prompt_nudges_in_help(tmux) -> None:
    t, move = session(tmux, "kataboom", ["human", "random"], 4, {"table": "stand-in"},
                      pick="careful")  # fmt: skip
    prompt = t.wait(r"^P1 \(human\), your move.*$").group(0)
    assert re.search(r"\[\d+ moves: ", prompt) and len(prompt) < 400, prompt  # no dump
    help_then(t, "rN is the piece's N-th rotation", "nudge C at 1,0.5,1 push 0,2,0")
    at = len(t.screen())
    t.type(move)
    t.wait(rf"turn 1: P1 \(human\): .*{re.escape(move)}", at)
    t.wait(r"P1 \(human\), your move", at)  # the careful placement stands
    quit_game(t)


def test_katoiz_stapeltje_clock_counts_a_persons_seconds(tmux) -> None:
    # level 4: clocks; a person's turn costs its real seconds (the move stamped @SECS)
    opts = {"type": "stapeltje", "level": "4"}
    t, move = session(tmux, "katoiz", ["human", "random"], 4, opts,
                      typed={"type": "stapeltje", "level": 4})  # fmt: skip
    help_then(t, "quit:")
    time.sleep(2.5)  # a person thinking
    at = len(t.screen())
    t.type(move)
    m = t.wait(rf"turn \d+: P1 \(human\): P1 rolled .*: {re.escape(move)} @(\d+)", at)
    assert int(m.group(1)) >= 2, m.group(0)
    t.wait(r"turn \d+: P2 \(random\): P2 rolled \w+ \+ \w+", at)  # a bot's dice are shown
    quit_game(t)


def test_katoiz_stapeltoren_names_no_winner(tmux) -> None:
    t, move = session(tmux, "katoiz", ["human", "random"], 4, {})
    help_then(t, "quit:")
    at = len(t.screen())
    t.type(move)
    t.wait(rf"turn \d+: P1 \(human\): P1: {re.escape(move)}$", at)
    text = quit_game(t)
    assert "no winner is named in this game" in text


def test_katamino_duel_at_a_persons_pace(tmux) -> None:
    t, move = session(tmux, "katamino", ["human", "smart"], 4, {"mode": "duel"})
    help_then(t, "rotate 2 turns it", "hint:", "place 2 at b2",
              "the prompt lists no placements")  # fmt: skip
    time.sleep(2.0)  # the race clock runs on a person's real seconds
    at = len(t.screen())
    t.type(move)
    m = t.wait(rf"turn 1: P1 \(human\): {re.escape(move)} @(\d+(\.\d)?)", at)
    assert float(m.group(1)) >= 2.0, m.group(0)
    t.wait(r"P1 \(human\), your move", at)
    quit_game(t)


def test_katamino_solo(tmux) -> None:
    t, move = session(tmux, "katamino", ["human"], 4, {"mode": "solo"})
    help_then(t, "quit:")
    at = len(t.screen())
    t.type(move)
    t.wait(rf"turn 1: P1 \(human\): place {re.escape(move)}$", at)
    t.wait(r"P1 \(human\), your move", at)
    at = len(t.screen())
    t.type("quit")
    t.wait(r"^\[exit 0\]", at)


def test_kozo_on_the_physics_table(tmux) -> None:
    # the default table: the placement measured by the physics, then the balance cube the
    # prompt offers where the polycube came to rest
    argv = command("kozo", ["human", "random"], 4, {})
    move = first_move("kozo", ["human", "random"], 4, {"table": "physics"})
    t = tmux(argv)
    t.wait(r"\(human\), your move")
    help_then(t, "rN is the piece's N-th rotation", "quit:")
    at = len(t.screen())
    t.type(move)
    cube = t.wait(r"P1 \(human\), your move \[(cube at [\d.,-]+)\]", at).group(1)
    at = len(t.screen())
    t.type(cube)
    t.wait(rf"turn 2: P1 \(human\): P1 {re.escape(cube)}$", at)
    t.wait(r"turn \d+: P2 \(random\): P2 ", at)
    t.wait(r"P1 \(human\), your move", at)
    quit_game(t)
