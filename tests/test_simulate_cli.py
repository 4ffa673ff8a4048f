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


def test_full_window_alone_implies_simulation() -> None:
    """Under the default ``--method`` statics would settle the tower without simulating (so a
    full window would mean nothing); ``--full-window`` therefore asks for simulation."""
    p = subprocess.run(
        [sys.executable, "-m", "sim.cli", "simulate", "kozo-tower", "--replicas", "1",
         "--workers", "1", "--seconds", "0.3", "--full-window", "--json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert (doc["requested_method"], doc["method"]) == ("simulate", "simulation")
    assert doc["early_stop"] is None and doc["simulated_s"] == 0.3


def test_full_window_with_method_auto_is_refused() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "sim.cli", "simulate", "kozo-tower", "--method", "auto",
         "--full-window", "--json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert p.returncode == 2 and p.stdout == ""
    assert "--full-window" in p.stderr and "--method auto" in p.stderr
