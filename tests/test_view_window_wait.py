"""A person who thinks before dropping a piece, in the real window (Xvfb + xdotool): the
verdict comes at once after any wait, the window never stops drawing, and the ``@`` time to
place counts only the person's own turn (never the bot's film).

The move texts are the game's own: the first legal placement and balance cube for P1 and,
after the seeded bot's turn, P1's first legal placement, found by playing the same seeded
game in this process (the bot and the table are deterministic). ``TABLESIM_WINDOW_STATS``
makes the program print when each move was played and when the table became the person's.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from test_view_window import NEEDS_X, Window, shots, xdisplay  # noqa: F401  (fixtures)

SEED = 3


def plan() -> tuple[str, str, str]:
    """P1's first placement, its balance cube, and P1's placement after the bot's turn."""
    from tablesim.games.session import Session

    s = Session.new("kozo", ["human", "careful"], SEED)
    try:
        g = s.game

        def first(kinds: tuple[str, ...]) -> object:
            return next(m for m in g.legal_moves(s.state) if m.kind in kinds)

        texts = []
        for kinds in (("place",), ("cube", "nocube")):
            m = first(kinds)
            texts.append(g.format_move(s.state, m))
            s.play(m)
        while g.current_player(s.state) != 0:
            s.play(s.bot_move())
        texts.append(g.format_move(s.state, first(("place",))))
        return texts[0], texts[1], texts[2]
    finally:
        s.close()


class Stats:
    """The ``window: T what`` lines of a window run."""

    def __init__(self, w: Window) -> None:
        self.w = w

    def events(self) -> list[tuple[float, str]]:
        return stats_events(self.w.lines)

    def wait_for(self, pattern: str, after: int, timeout: float = 120.0) -> tuple[int, float, str]:
        """The first event from index ``after`` on whose text matches ``pattern``: (its
        index, its time, its text)."""
        found: list[tuple[int, float, str]] = []

        def seen() -> bool:
            ev = self.events()
            found[:] = [(i, *ev[i]) for i in range(after, len(ev)) if re.search(pattern, ev[i][1])]
            return bool(found)

        self.w.wait(seen, f"no {pattern!r} from the window", timeout)
        return found[0]


def stats_events(lines: list[str]) -> list[tuple[float, str]]:
    """The ``window: T what`` lines of a program's output, as (T, what)."""
    out = []
    for line in "".join(list(lines)).splitlines():
        m = re.match(r"window: (\d+\.\d+) (.*)", line)
        if m:
            out.append((float(m.group(1)), m.group(2).strip()))
    return out


def wait_and_drop(
    display: str, folder: Path, wait_s: float, monkeypatch: pytest.MonkeyPatch
) -> None:
    place1, cube1, place2 = plan()
    monkeypatch.setenv("TABLESIM_WINDOW_STATS", "1")
    w = Window(display, ["play", "kozo", "--players", "human,careful", "--seed", str(SEED),
                         "--window"], "tablesim kozo", folder)  # fmt: skip
    st = Stats(w)
    try:
        at = 0
        for text in (place1, cube1):
            at, _, _ = st.wait_for(r"^yours P1", at)
            w.keys("Return")
            w.type(text)
            w.keys("Return")
            at, _, _ = st.wait_for("^played " + re.escape(text), at)
        at, _, _ = st.wait_for("^played ", at + 1)  # the bot's placement
        at, _, _ = st.wait_for("^played ", at + 1)  # and its balance cube
        at, t_yours, _ = st.wait_for(r"^yours P1", at)  # the bot's film is over
        time.sleep(wait_s)
        w.keys("Return")
        w.type(place2)
        t_typed = time.monotonic()
        w.keys("Return")
        at, t_played, what = st.wait_for(r"^played .*@", at)
        # the verdict at once: the wait was simulated while the person thought
        assert t_played - t_typed < 3.0, (t_played - t_typed, what)
        secs = float(what.rsplit("@", 1)[1].split()[0])
        typing = t_typed - t_yours - wait_s  # the seconds xdotool took to type the move
        assert wait_s - 0.2 <= secs <= wait_s + typing + 1.0, (secs, wait_s, typing)
        # the film of a wait in which nothing moves is skipped: the cube phase is P1's at once
        _, t_cube, _ = st.wait_for(r"^yours P1", at)
        assert t_cube - t_played < 4.0, t_cube - t_played
        w.grab("waited-cube-phase")
        w.keys("Escape")
        code, out, err = w.finish()
        assert code == 0, err
        gap = re.search(r"worst frame gap (\d+) ms", out)
        assert gap is not None, out
        assert int(gap.group(1)) < 1000, out  # never stopped drawing (bound: a loaded machine)
    finally:
        w.kill()


@NEEDS_X
def test_a_person_who_waits_before_dropping_gets_the_verdict_at_once(
    xdisplay: str,
    shots: Path,
    monkeypatch: pytest.MonkeyPatch,  # noqa: F811
) -> None:
    wait_and_drop(xdisplay, shots, 7.0, monkeypatch)


@NEEDS_X
@pytest.mark.slow
def test_a_person_who_waits_a_minute_gets_the_verdict_at_once(
    xdisplay: str,
    shots: Path,
    monkeypatch: pytest.MonkeyPatch,  # noqa: F811
) -> None:
    wait_and_drop(xdisplay, shots, 60.0, monkeypatch)
