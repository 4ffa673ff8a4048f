"""Slow: the light install (issue 34). A wheel built from this tree, installed with only the
``rl`` extra (numpy, tqdm, gymnasium, pettingzoo) into a fresh venv with no system packages,
and run from an empty folder: every game's environment plays a seeded random masked rollout
(Kozo and Kataboom on their stand-in referees), the rules and bots play a Catego game from the
command line, the Katamino solver counts with its pure-Python kernel, and a physics command
exits 2 with one line naming the ``physics`` extra. About 25 s (a wheel build, a 12 s install
from the package index or its local mirror). Skipped with the reason when pip cannot reach an
index.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow

_OFFLINE = (
    "No matching distribution",
    "Could not find a version",
    "NewConnectionError",
    "Network is unreachable",
    "Temporary failure in name resolution",
)

_ROLLOUTS = """
import importlib.util, math, numpy as np, tablesim
from tablesim.games.registry import game_names
heavy = [m for m in ("pybullet", "panda3d", "trimesh", "scipy", "highspy", "numba", "PIL")
         if importlib.util.find_spec(m) is not None]
assert not heavy, heavy
games = game_names()
assert sorted(games) == ["catego", "kaito", "kataboom", "katamino", "katoiz", "kozo"], games
for seed, game in enumerate(games):
    options = {"table": "stand-in"} if game in ("kozo", "kataboom") else {}
    env = tablesim.env(game, **options)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    for agent in env.agent_iter(max_iter=400):
        obs, reward, term, trunc, info = env.last()
        assert math.isfinite(reward)
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size, (game, steps)
        env.step(int(rng.choice(legal)))
        steps += 1
    assert steps > 0, game
    print(game, steps)
"""


def _run(args: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def light_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh venv holding tablesim's wheel with only the ``rl`` extra."""
    tmp = tmp_path_factory.mktemp("light")
    wheels = tmp / "wheels"
    build = _run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT), "-w", str(wheels)], tmp
    )
    if build.returncode and any(s in build.stderr for s in _OFFLINE):
        pytest.skip(f"pip cannot reach a package index to build the wheel: {build.stderr[-300:]}")
    assert build.returncode == 0, build.stderr[-2000:]
    (wheel,) = wheels.glob("tablesim-*.whl")
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    inst = _run(
        [
            str(venv / "bin" / "python"),
            "-m",
            "pip",
            "install",
            "-q",
            "--disable-pip-version-check",
            f"{wheel}[rl]",
        ],
        tmp,
    )
    if inst.returncode and any(s in inst.stderr for s in _OFFLINE):
        pytest.skip(f"pip cannot reach a package index: {inst.stderr[-300:]}")
    assert inst.returncode == 0, inst.stderr[-2000:]
    return venv


def test_environments_rules_and_bots_without_physics(light_venv: Path, tmp_path: Path) -> None:
    out = _run([str(light_venv / "bin" / "python"), "-c", _ROLLOUTS], tmp_path)
    assert out.returncode == 0, out.stderr[-3000:]
    assert len(out.stdout.split("\n")) >= 6, out.stdout
    tablesim = str(light_venv / "bin" / "tablesim")
    play = _run([tablesim, "play", "catego", "--players", "random,random", "--headless"], tmp_path)
    assert play.returncode == 0, play.stderr[-2000:]
    assert play.stdout.splitlines()[-2].startswith("result: "), play.stdout[-500:]
    # the 3x20 rectangle of the twelve pentominoes: 2 tilings up to the rectangle's 4
    # symmetries (a classical result: Haselgrove 1960), so 8 in all
    solve = _run(
        [
            tablesim,
            "solve",
            "--board",
            "3x20",
            "--pieces",
            "pentominoes",
            "--count",
            "--distinct",
            "--backend",
            "python",
        ],
        tmp_path,
    )
    assert solve.returncode == 0, solve.stderr[-2000:]
    assert "8 solutions, 2 distinct" in solve.stdout, solve.stdout


def test_physics_command_names_the_extra(light_venv: Path, tmp_path: Path) -> None:
    tablesim = str(light_venv / "bin" / "tablesim")
    for args, extra in (
        (["simulate", "kozo-tower"], "physics"),
        (["render", "kozo-tower", "-o", "t.png"], "view"),
    ):
        out = _run([tablesim, *args], tmp_path)
        assert out.returncode == 2, (args, out.stderr[-2000:])
        assert "Traceback" not in out.stderr
        (line,) = out.stderr.strip().splitlines()
        assert line.startswith(f"tablesim {args[0]}: error: ")
        assert f"'{extra}' extra" in line and f'pip install -e ".[{extra}]"' in line, line
        assert f'py3-none-any.whl[{extra}]"' in line, line  # a built wheel's way too
    for game in ("kozo", "kataboom"):  # the physics table: the extra, or the stand-in judge
        out = _run([tablesim, "play", game, "--players", "random,random", "--headless"], tmp_path)
        assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr[-2000:]
        (line,) = out.stderr.strip().splitlines()
        assert "'physics' extra" in line and line.endswith("--table stand-in"), line
        ok = _run(
            [
                tablesim,
                "play",
                game,
                "--players",
                "random,random",
                "--headless",
                "--table",
                "stand-in",
            ],
            tmp_path,
        )
        assert ok.returncode == 0, ok.stderr[-2000:]
