"""The layers of docs/architecture.md hold: ``sim -> games, meshes``, ``meshes -> games``,
``tablesim -> sim, games``; ``games`` imports no physics, meshes or rendering library.

Two kinds of check: the import statements of every file (function-level, lazy imports
included), and ``sys.modules`` after importing modules in a fresh interpreter."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

ABOVE_GAMES = ("sim", "meshes", "tablesim", "pybullet", "panda3d", "direct", "trimesh", "scipy",
               "mujoco", "matplotlib", "PIL", "highspy", "pettingzoo", "gymnasium")  # fmt: skip
"""What the rules layer must never import (numba and llvmlite: only the compiled Katamino
kernel's own modules, ``games/katamino/_kernel_*.py``)."""


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import statement in ``path``, at any depth."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.lineno, node.module))
    return out


def _offending(package: str, banned: tuple[str, ...]) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line}: imports {name}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for line, name in _imports(path)
        if name.split(".")[0] in banned
    ]


def test_no_file_of_games_imports_a_higher_layer_or_a_heavy_library() -> None:
    bad = _offending("games", ABOVE_GAMES)
    compiled = [f for f in _offending("games", ("numba", "llvmlite")) if "/_kernel_" not in f]
    assert bad == [] and compiled == []


def test_no_file_of_meshes_imports_sim_tablesim_or_a_renderer() -> None:
    assert _offending("meshes", ("sim", "tablesim", "pybullet", "panda3d", "direct")) == []


def test_sim_reads_only_the_shipped_data_of_tablesim() -> None:
    """``sim`` finds shipped scenes and specs through ``tablesim.data`` (importlib.resources)
    and nothing else of the API layer above it; ``tablesim.data`` itself imports no ``sim``."""
    upward = [
        f"{path.relative_to(ROOT)}:{line}: imports {name}"
        for path in sorted((ROOT / "sim").rglob("*.py"))
        for line, name in _imports(path)
        if name.split(".")[0] == "tablesim" and name != "tablesim.data"
    ]
    assert upward == []
    assert [n for _, n in _imports(ROOT / "tablesim" / "data.py") if n.split(".")[0] == "sim"] == []


def test_every_games_module_imported_pulls_in_no_higher_layer() -> None:
    """Importing every module of ``games`` (the Katamino families and generators included;
    not the numba kernel) loads nothing of ``ABOVE_GAMES`` transitively."""
    names = sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for p in (ROOT / "games").rglob("*.py")
        if p.name != "_kernel_numba.py"
    )
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {ABOVE_GAMES!r}))\n"
    )
    assert _run(code).strip() == "[]"


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
