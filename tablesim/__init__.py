"""tablesim: a physics table for five family board games, as one Python namespace.

The public API, thin and stable; the implementation lives in the ``games``, ``sim`` and
``meshes`` packages of the same distribution::

    import tablesim

    verdict = tablesim.simulate("kozo-overhang", replicas=8, seed=1)   # a shipped scene
    scene = tablesim.load_scene("my-tower.toml")                        # or a file
    game = tablesim.get_game("catego")
    bot = tablesim.make_bot("catego", "strong", seed=1)
    solutions = tablesim.solve("5x12", "pentominoes", limit=2)
    env = tablesim.env("kaito")                                         # PettingZoo AEC env
    venv = tablesim.vector_env("catego", 256, seed=1)                   # 256 games, numpy

Names are loaded on first use, so ``import tablesim`` is cheap (no PyBullet, Panda3D or
trimesh until a function needs them). Shipped data comes from :mod:`tablesim.data`.
"""

# No import at all at module level, not even ``from __future__`` or ``typing``: each can be a
# real import (a file search) that a Ctrl-C lands in before the CLI's handler exists (CI saw
# it in ``from __future__``). Annotations are strings instead.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from tablesim.api import game_names, load_scene, make_bot, simulate, solve
    from tablesim.games.registry import get_game
    from tablesim.sim.view.table_view import TableView

# Nothing is imported at import time: the ``tablesim`` command's start (``from
# tablesim.sim.cli import main``) runs this file before the CLI installs its quiet Ctrl-C
# handler, so the fewer steps here, the smaller the window in which Ctrl-C is Python's.

__version__ = "0.1.0"

_LAZY: dict[str, tuple[str, str]] = {
    "game_names": ("tablesim.api", "game_names"),
    "load_scene": ("tablesim.api", "load_scene"),
    "make_bot": ("tablesim.api", "make_bot"),
    "simulate": ("tablesim.api", "simulate"),
    "solve": ("tablesim.api", "solve"),
    "get_game": ("tablesim.games.registry", "get_game"),
    "TableView": ("tablesim.sim.view.table_view", "TableView"),
    "env": ("tablesim.envs", "env"),
    "gym_env": ("tablesim.envs", "gym_env"),
    "vector_env": ("tablesim.envs.vector", "vector_env"),
    "scene_names": ("tablesim.data", "scene_names"),
    "spec_names": ("tablesim.data", "spec_names"),
}

__all__ = [
    "TableView",
    "env",
    "game_names",
    "get_game",
    "gym_env",
    "load_scene",
    "make_bot",
    "scene_names",
    "simulate",
    "solve",
    "spec_names",
    "vector_env",
]


def __getattr__(name: str) -> "Any":  # noqa: F821 - a string, never evaluated
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        value = getattr(importlib.import_module(module), attr)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tablesim' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
