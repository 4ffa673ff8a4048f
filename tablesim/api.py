"""The functions of the public API that do more than re-export (see :mod:`tablesim`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.katamino import Solution, Target
    from sim.model import Scene
    from sim.verdict import Verdict


def game_names() -> list[str]:
    """Names of every game, sorted (``catego``, ``kaito``, ...)."""
    from games.registry import game_names as _names

    return _names()


def load_scene(ref: str | Path, overrides: Mapping[str, Any] | None = None) -> Scene:
    """Load a scene: a ``.toml`` file, or the name of a shipped scene (``kozo-tower``).

    A path that names an existing file is read; otherwise ``ref`` (with or without ``.toml``)
    must be a shipped scene, found in the installed package, never in the current folder.
    Raises ``sim.scene.InvalidSceneError`` (every problem, with file and line) for a bad file
    and ``FileNotFoundError`` naming the shipped scenes when ``ref`` is neither.
    ``overrides``: physics settings applied over the file's ``[physics]`` table.
    """
    from sim.scene import load_scene as _load
    from tablesim.data import scene_file, scene_names

    path = Path(ref)
    if path.is_file():
        return _load(path, overrides)
    name = path.name
    stem = name[:-5] if name.endswith(".toml") else name
    if str(path.parent) in ("", ".") and stem in scene_names():
        return _load(Path(str(scene_file(stem))), overrides)
    raise FileNotFoundError(
        f"{ref}: no such file, and no shipped scene of that name "
        f"(shipped: {', '.join(scene_names())})"
    )


def simulate(scene: Scene | str | Path, **kwargs: Any) -> Verdict:
    """Judge whether a scene stands (:func:`sim.verdict.simulate`).

    ``scene`` is a :class:`sim.model.Scene`, a scene file or a shipped scene name; keyword
    arguments (``replicas``, ``seed``, ``seconds``, ``profile``, ``method``, ``workers``, ...)
    are those of :func:`sim.verdict.simulate`.
    """
    from sim.verdict import simulate as _simulate

    if isinstance(scene, (str, Path)):
        scene = load_scene(scene)
    return _simulate(scene, **kwargs)


def solve(
    board: str | Target,
    pieces: str,
    *,
    limit: int | None = 1,
    distinct: bool = False,
    straight_horizontal: bool = False,
    backend: str | None = None,
) -> list[Solution]:
    """Solutions of a Katamino problem, in search order (at most ``limit``; None: all).

    ``board`` is ``"5x8"`` (rows x columns), ``"2x3x5"`` (a box) or a
    :class:`games.katamino.Target`; ``pieces`` a set with optional labels
    (``"pentominoes:LNPUV"``). With ``distinct``, one solution per symmetry class. An empty
    list means no solution; ``games.katamino.SolverError`` reports bad input. Counting without
    listing: :func:`games.katamino.solve_count` and :func:`games.katamino.count_distinct`.
    """
    from games.katamino import Target, enumerate_solutions, parse_pieces

    target = Target.parse(board) if isinstance(board, str) else board
    return list(
        enumerate_solutions(
            target,
            parse_pieces(pieces),
            straight_horizontal=straight_horizontal,
            distinct=distinct,
            limit=limit,
            backend=backend,
        )
    )
