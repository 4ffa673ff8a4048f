"""`import games` stays pure: no physics, meshes or rendering libraries."""

from __future__ import annotations

import subprocess
import sys


def test_import_games_pulls_no_heavy_library() -> None:
    code = (
        "import sys, games, games.polycubes, games.play, games.registry\n"
        "from games.registry import game_names, get_game\n"
        "[get_game(n) for n in game_names()]\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('trimesh', 'pybullet', 'panda3d', 'direct', 'sim', 'meshes', 'scipy'))\n"
        "print(bad)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_cli_help_is_light() -> None:
    code = (
        "import sys\nfrom sim.cli import build_parser\nbuild_parser()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('trimesh', 'pybullet', 'panda3d')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
