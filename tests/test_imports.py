"""`import games` stays pure: no physics, meshes or rendering libraries."""

from __future__ import annotations

import subprocess
import sys


def _run(code: str) -> str:
    """Run ``code`` in a fresh interpreter; its stdout."""
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout


def test_import_games_pulls_no_heavy_library() -> None:
    code = (
        "import sys, games, games.polycubes, games.play, games.registry, games.session\n"
        "import games.log, games.quat\n"
        "from games.registry import game_names, get_game\n"
        "[get_game(n) for n in game_names()]\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('trimesh', 'pybullet', 'panda3d', 'direct', 'sim', 'meshes', 'scipy'))\n"
        "print(bad)\n"
    )
    out = _run(code)
    assert out.strip() == "[]"


def test_cli_help_is_light() -> None:
    code = (
        "import sys\nfrom sim.cli import build_parser\nbuild_parser()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('trimesh', 'pybullet', 'panda3d')))\n"
    )
    out = _run(code)
    assert out.strip() == "[]"


def test_import_meshes_pulls_in_no_sim() -> None:
    """The arrows are sim -> games, meshes and meshes -> games: the mesh code takes the pieces'
    sizes from games (games.polycubes.PieceSizes), never from the physics config."""
    code = (
        "import sys, meshes, meshes.polycube, meshes.export\n"
        "from meshes.polycube import piece_mesh\n"
        "m = piece_mesh('kozo-standard:4L')\n"
        "print(round(m.metadata['edge'] * 1000, 6), sorted(x for x in sys.modules "
        "if x.split('.')[0] in ('sim', 'pybullet', 'panda3d')))\n"
    )
    out = _run(code)
    assert out.strip() == "17.8 []"  # the Kozo cube: 0.7 in (docs/rules/kozo.md)
