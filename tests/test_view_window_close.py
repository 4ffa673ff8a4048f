"""Ending the real window from outside (Xvfb, no window manager): ``xdotool windowclose``
destroys the window without asking, and the program ends at once and quietly (before: it ran
on headless, printing ``BadDrawable`` every frame; then it printed two ``BadWindow`` lines); SIGTERM exits 143 with one line, as every command
(docs/architecture.md)."""

from __future__ import annotations

import signal
from pathlib import Path

from test_view_window import NEEDS_X, Window, shots, xdisplay  # noqa: F401  (fixtures)


@NEEDS_X
def test_a_window_destroyed_without_a_window_manager_ends_the_program(
    xdisplay: str,
    shots: Path,  # noqa: F811
) -> None:
    w = Window(xdisplay, ["view", "kozo-tower", "--size", "320x180"], "tablesim view", shots)
    try:
        w.xdotool("windowclose", w.wid)
        code, out, err = w.finish(timeout=20)
        assert code == 0, err
        # nothing but our own lines: before, Panda3D's last frame and clean-up printed
        # ":display:x11display(error): BadWindow" twice (and BadDrawable every frame before)
        assert "x11display" not in err and "Bad" not in err, err[-2000:]
        assert "scene kozo-tower" in out
    finally:
        w.kill()


@NEEDS_X
def test_sigterm_ends_a_game_window_with_143(xdisplay: str, shots: Path) -> None:  # noqa: F811
    w = Window(xdisplay, ["play", "kozo", "--players", "human,careful", "--window"],
               "tablesim kozo", shots)  # fmt: skip
    try:
        w.proc.send_signal(signal.SIGTERM)
        code, _, err = w.finish(timeout=20)
        assert code == 143, (code, err[-2000:])
        assert err.strip().splitlines()[-1] == "tablesim play: terminated", err[-2000:]
    finally:
        w.kill()
