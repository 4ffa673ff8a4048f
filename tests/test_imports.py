"""The layers of docs/architecture.md hold: ``sim -> games, meshes``, ``meshes -> games``,
``tablesim -> sim, games``; ``games`` imports no physics, meshes or rendering library; and
everything is imported through the one namespace ``tablesim`` (``tablesim.games``,
``tablesim.sim``, ``tablesim.meshes``), never by the repository's top-level folder names.

Two kinds of check: the import statements of every file (function-level, lazy imports
included), and ``sys.modules`` after importing modules in a fresh interpreter."""

from __future__ import annotations

import ast
import inspect
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from conftest import ROOT

HEAVY = (
    "pybullet",
    "panda3d",
    "direct",
    "trimesh",
    "scipy",
    "mujoco",
    "matplotlib",
    "PIL",
    "highspy",
    "pettingzoo",
    "gymnasium",
)
"""Libraries the rules layer must never import (numba and llvmlite: only the compiled Katamino
kernel's own modules, ``games/katamino/_kernel_*.py``)."""

BARE = ("games", "sim", "meshes", "scenes")
"""The repository's top-level folders: never a module name (the wheel installs only
``tablesim``; a user's own ``games/`` folder must not shadow anything)."""


def layer(module: str) -> str:
    """The layer a module name belongs to: ``games``, ``sim``, ``meshes``, ``api`` (the rest
    of ``tablesim``), ``bare`` (a top-level folder name used as a module) or the name's first
    part (a third-party library)."""
    parts = module.split(".")
    if parts[0] in BARE:
        return "bare"
    if parts[0] == "tablesim":
        if len(parts) > 1 and parts[1] in ("games", "sim", "meshes"):
            return parts[1]
        return "api"
    return parts[0]


def test_layer_names_by_hand() -> None:
    assert [
        layer(n)
        for n in (
            "tablesim.games.core",
            "tablesim.sim.world",
            "tablesim.meshes",
            "tablesim",
            "tablesim.envs.core",
            "games.core",
            "numpy.linalg",
        )
    ] == ["games", "sim", "meshes", "api", "api", "bare", "numpy"]


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import statement in ``path``, at any depth."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "tablesim":  # `from tablesim import sim` names a subpackage
                out += [(node.lineno, f"tablesim.{a.name}") for a in node.names]
            else:
                out.append((node.lineno, node.module))
    return out


def _offending(package: str, banned: tuple[str, ...]) -> list[str]:
    return [
        f"{path.relative_to(ROOT)}:{line}: imports {name}"
        for path in sorted((ROOT / package).rglob("*.py"))
        for line, name in _imports(path)
        if layer(name) in banned
    ]


def test_no_file_imports_a_top_level_folder_name() -> None:
    """Every product, test, bench and example file imports ``tablesim.games`` etc., never
    ``games`` (which would load a second copy of the module, or a user's folder)."""
    files = [
        p
        for d in ("games", "sim", "meshes", "tablesim", "tests", "bench", "examples")
        for p in sorted((ROOT / d).rglob("*.py"))
        if not (ROOT / d).is_symlink()
        and "tablesim/games" not in p.as_posix()
        and "tablesim/sim" not in p.as_posix()
        and "tablesim/meshes" not in p.as_posix()
    ]
    bad = [
        f"{p.relative_to(ROOT)}:{line}: imports {name}"
        for p in files
        for line, name in _imports(p)
        if layer(name) == "bare"
    ]
    assert bad == []


def test_no_file_of_games_imports_a_higher_layer_or_a_heavy_library() -> None:
    bad = _offending("games", ("sim", "meshes", "api", "bare") + HEAVY)
    compiled = [f for f in _offending("games", ("numba", "llvmlite")) if "/_kernel_" not in f]
    assert bad == [] and compiled == []


def test_no_file_of_meshes_imports_sim_tablesim_or_a_renderer() -> None:
    assert _offending("meshes", ("sim", "api", "bare", "pybullet", "panda3d", "direct")) == []


def test_sim_reads_only_the_shipped_data_of_tablesim() -> None:
    """``sim`` finds shipped scenes and specs through ``tablesim.data`` (importlib.resources)
    and nothing else of the API layer above it; ``tablesim.data`` itself imports no ``sim``."""
    upward = [
        f"{path.relative_to(ROOT)}:{line}: imports {name}"
        for path in sorted((ROOT / "sim").rglob("*.py"))
        for line, name in _imports(path)
        if layer(name) == "api" and name not in ("tablesim", "tablesim.data")
    ]
    assert upward == []
    data = [n for _, n in _imports(ROOT / "tablesim" / "data.py") if layer(n) == "sim"]
    assert data == []


def _loaded(banned: tuple[str, ...]) -> str:
    """Code printing the sorted loaded modules whose layer is in ``banned``."""
    return (
        "from tablesim_layer import layer\n"
        f"print(sorted(m for m in sys.modules if layer(m) in {banned!r}))\n"
    )


def _run(code: str) -> str:
    """Run ``code`` in a fresh interpreter, with :func:`layer` importable as
    ``tablesim_layer.layer``; its stdout."""
    with tempfile.TemporaryDirectory() as d:
        source = f"BARE = {BARE!r}\n\n\n{inspect.getsource(layer)}"
        Path(d, "tablesim_layer.py").write_text(source, encoding="utf-8")
        paths = [d, str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(paths))
        return subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
        ).stdout


def test_every_games_module_imported_pulls_in_no_higher_layer() -> None:
    """Importing every module of ``games`` (the Katamino families and generators included;
    not the numba kernel) loads nothing of a higher layer or a heavy library transitively."""
    names = sorted(
        "tablesim." + ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for p in (ROOT / "games").rglob("*.py")
        if p.name != "_kernel_numba.py"
    )
    code = (
        f"import importlib, sys\nfor name in {names!r}:\n    importlib.import_module(name)\n"
    ) + _loaded(("sim", "meshes", "bare") + HEAVY)
    assert _run(code).strip() == "[]"


def test_import_games_pulls_no_heavy_library() -> None:
    code = (
        "import sys, tablesim.games, tablesim.games.polycubes, tablesim.games.terminal\n"
        "import tablesim.games.balance\n"
        "import tablesim.games.registry, tablesim.games.session, tablesim.games.log\n"
        "import tablesim.games.quat\n"
        "from tablesim.games.registry import game_names, get_game\n"
        "[get_game(n) for n in game_names()]\n"
    ) + _loaded(("sim", "meshes", "bare", "trimesh", "pybullet", "panda3d", "direct", "scipy"))
    assert _run(code).strip() == "[]"


def test_cli_help_is_light() -> None:
    code = ("import sys\nfrom tablesim.sim.cli import build_parser\nbuild_parser()\n") + _loaded(
        ("bare", "trimesh", "pybullet", "panda3d")
    )
    assert _run(code).strip() == "[]"


def test_import_meshes_pulls_in_no_sim() -> None:
    """The arrows are sim -> games, meshes and meshes -> games: the mesh code takes the pieces'
    sizes from games (games.polycubes.PieceSizes), never from the physics config."""
    code = (
        "import sys, tablesim.meshes.polycube, tablesim.meshes.export\n"
        "from tablesim.meshes.polycube import piece_mesh\n"
        "m = piece_mesh('kozo-standard:4L')\n"
        "print(round(m.metadata['edge'] * 1000, 6))\n"
    ) + _loaded(("sim", "bare", "pybullet", "panda3d"))
    assert _run(code).split() == ["17.8", "[]"]  # the Kozo cube: 0.7 in (docs/rules/kozo.md)


_FIRST = """
import importlib, sys
bad = []
for name in NAMES:
    for k in [k for k in sys.modules if k == "tablesim" or k.startswith("tablesim.")]:
        del sys.modules[k]  # each module imported first, before any other of tablesim
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as exc:  # an optional extra not installed here: not ours
        if not (exc.name or "").startswith("tablesim"):
            continue
        bad.append((name, repr(exc)))
    except Exception as exc:
        if type(exc).__name__ != "MissingExtraError":
            bad.append((name, f"{type(exc).__name__}: {exc}"))
print(bad)
"""


def test_every_module_imports_first_without_a_circular_import() -> None:
    """Each module of tablesim can be the first one a user imports: with every tablesim module
    forgotten before each (third-party libraries stay loaded, for speed), none fails. A module
    that only works once another has been imported is a circular import waiting for the user
    who imports it first (``tablesim.sim.slices.catego.drawing``, ``games.katamino.duel_bots``
    failed so)."""
    names = []
    for top in ("games", "sim", "meshes"):
        for p in sorted((ROOT / top).rglob("*.py")):
            parts = ("tablesim", *p.relative_to(ROOT).with_suffix("").parts)
            names.append(".".join(parts).removesuffix(".__init__"))
    for p in sorted((ROOT / "tablesim").rglob("*.py")):
        rel = p.relative_to(ROOT)
        if rel.parts[1] not in ("games", "sim", "meshes"):  # the links, listed above
            names.append(".".join(rel.with_suffix("").parts).removesuffix(".__init__"))
    assert len(names) > 200 and "tablesim.sim.slices.catego.drawing" in names
    assert _run(f"NAMES = {names!r}\n" + _FIRST).strip() == "[]"
