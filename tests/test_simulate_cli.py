"""``tablesim simulate --full-window``: the early stop can be turned off from the command line."""

from __future__ import annotations

import json
import subprocess
import sys


def _simulate(*extra: str) -> dict:
    p = subprocess.run(
        [sys.executable, "-m", "sim.cli", "simulate", "kozo-tower", "--method", "simulate",
         "--replicas", "2", "--workers", "1", "--seconds", "1", "--json", *extra],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_full_window_simulates_the_whole_second_and_early_stop_does_not() -> None:
    early, full = _simulate(), _simulate("--full-window")
    # The shipped tower stands either way (docs/rules/kozo.md works it by hand).
    assert early["verdict"] == full["verdict"] == "stands"
    assert full["early_stop"] is None and full["simulated_s"] == 1.0
    # Statics proves it stands, so replicas end after the 0.2 s quiet window, before 1 s.
    assert early["early_stop"] is not None
    assert early["early_stop"]["window_s"] <= early["simulated_s"] < 1.0
