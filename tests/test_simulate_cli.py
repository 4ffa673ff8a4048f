"""``tablesim simulate --full-window``: the early stop can be turned off from the command line."""

from __future__ import annotations

import json
import subprocess
import sys


def _simulate(*extra: str) -> dict:
    p = subprocess.run(
        [sys.executable, "-m", "tablesim.sim.cli", "simulate", "kozo-tower", "--method", "simulate",
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
        [sys.executable, "-m", "tablesim.sim.cli", "simulate", "kozo-tower", "--replicas", "1",
         "--workers", "1", "--seconds", "0.3", "--full-window", "--json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert (doc["requested_method"], doc["method"]) == ("simulate", "simulation")
    assert doc["early_stop"] is None and doc["simulated_s"] == 0.3


def test_full_window_with_method_auto_is_refused() -> None:
    p = subprocess.run(
        [sys.executable, "-m", "tablesim.sim.cli", "simulate", "kozo-tower", "--method", "auto",
         "--full-window", "--json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert p.returncode == 2 and p.stdout == ""
    assert "--full-window" in p.stderr and "--method auto" in p.stderr


def test_a_command_line_loads_only_its_own_command() -> None:
    """``tablesim simulate ...`` registers only ``simulate``: no other command's module (the
    shared helpers aside), and so none of their imports (the view, the games' play loop), is
    loaded at start-up; the full parser is still built for ``tablesim --help``, and
    ``--version`` still answers."""
    code = (
        "import sys; from tablesim.sim.cli import main; main(['simulate', '--help']); "
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('tablesim.sim.commands.')"
        " and not m.startswith('tablesim.sim.commands._'))))"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[-1].split() == ["tablesim.sim.commands.simulate"]
    full = subprocess.run([sys.executable, "-m", "tablesim.sim.cli", "--help"], capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert full.returncode == 0 and "simulate" in full.stdout and "render" in full.stdout
    v = subprocess.run([sys.executable, "-m", "tablesim.sim.cli", "--version"], capture_output=True,
                       text=True, timeout=120)  # fmt: skip
    assert v.returncode == 0 and v.stdout.startswith("tablesim ")


def test_all_replicas_turns_sequential_stopping_off() -> None:
    """cantilever-safe stands in every replica: by default 5 of the 8 replicas settle the
    verdict (tests/test_ensemble.py derives the 5); ``--all-replicas`` runs all 8."""
    runs = {}
    for extra in ((), ("--all-replicas",)):
        p = subprocess.run(
            [sys.executable, "-m", "tablesim.sim.cli", "simulate", "cantilever-safe", "--method",
             "simulate", "--workers", "1", "--json", *extra],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert p.returncode == 0, p.stderr
        runs[extra] = json.loads(p.stdout)
    default, every = runs[()], runs[("--all-replicas",)]
    assert (default["replicas"], default["replicas_requested"]) == (5, 8)
    assert (every["replicas"], every["replicas_requested"], every["sequential"]) == (8, 8, None)
    assert default["verdict"] == every["verdict"] == "stands"
