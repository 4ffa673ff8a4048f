"""``tablesim play catego --window``: the window is the tile-games app (thrown dice), not the
plain table app."""

from __future__ import annotations

import shutil

import pytest


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb (apt-get install xvfb)")
def test_play_in_window_uses_the_dice_app_for_catego(monkeypatch, capsys) -> None:  # noqa: ANN001
    from sim.cli import UsageError
    from sim.commands.view import play_in_window
    from sim.view.backend import xvfb_display
    from sim.view.interact import tiles_app

    display = xvfb_display()
    if display is None:
        pytest.skip("no X display")
    monkeypatch.setenv("DISPLAY", display)
    seen: list[str] = []
    original = tiles_app.TilesApp.run_window

    def spy(self, *a, **kw):  # noqa: ANN001, ANN002, ANN003, ANN202
        seen.append(type(self).__name__)
        return original(self, *a, **kw)

    monkeypatch.setattr(tiles_app.TilesApp, "run_window", spy)
    try:
        assert play_in_window("catego", {}, ["random", "random"], 3, None, frames=30) == 0
    except UsageError as exc:
        pytest.skip(f"no window here: {exc}")
    assert seen == ["TilesApp"]
    assert "catego:" in capsys.readouterr().out
