"""The functions of the public API that do more than re-export (see :mod:`tablesim`)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tablesim.games.katamino import Solution, Target
    from tablesim.sim.model import Scene
    from tablesim.sim.verdict import Verdict


def game_names() -> list[str]:
    """Names of every game, sorted (``catego``, ``kaito``, ...)."""
    from tablesim.games.registry import game_names as _names

    return _names()


def load_scene(ref: str | Path, overrides: Mapping[str, Any] | None = None) -> Scene:
    """Load a scene: a ``.toml`` file, or the name of a shipped scene (``kozo-tower``).

    A path that names an existing file is read; otherwise ``ref`` (with or without ``.toml``)
    must be a shipped scene, found in the installed package, never in the current folder.
    Raises ``tablesim.sim.scene.InvalidSceneError`` (every problem, with file and line) for a bad file
    and ``FileNotFoundError`` naming the shipped scenes when ``ref`` is neither.
    ``overrides``: physics settings applied over the file's ``[physics]`` table.
    """
    from tablesim.data import scene_file, scene_names
    from tablesim.sim.scene import load_scene as _load

    if not isinstance(ref, (str, Path)):
        raise TypeError(
            f"ref must be a scene file path or a shipped scene name, got {type(ref).__name__}"
        )
    path = Path(ref)
    try:
        is_file = path.is_file()
    except OSError:  # a name over 255 bytes (ENAMETOOLONG): not a file
        is_file = False
    if is_file:
        return _load(path, overrides)
    name = path.name
    stem = name[:-5] if name.endswith(".toml") else name
    if str(path.parent) in ("", ".") and stem in scene_names():
        return _load(Path(str(scene_file(stem))), overrides)
    raise FileNotFoundError(
        f"{str(ref)[:200]}: no such file, and no shipped scene of that name "
        f"(shipped: {', '.join(scene_names())})"
    )


def simulate(scene: Scene | str | Path, **kwargs: Any) -> Verdict:
    """Judge whether a scene stands (:func:`tablesim.sim.verdict.simulate`).

    ``scene`` is a :class:`tablesim.sim.model.Scene`, a scene file or a shipped scene name; keyword
    arguments (``replicas``, ``seed``, ``seconds``, ``profile``, ``method``, ``workers``, ...)
    are those of :func:`tablesim.sim.verdict.simulate`, checked as the command line checks them
    (:mod:`tablesim.games.limits`): ``seed`` 0..2^63-1, ``replicas`` 1..1000, ``workers`` 1..256 or
    None, ``profile`` a profile name. TypeError or ValueError names the argument.
    """
    from tablesim.sim.model import Scene as _Scene
    from tablesim.sim.verdict import simulate as _simulate

    if isinstance(scene, (str, Path)):
        scene = load_scene(scene)
    if not isinstance(scene, _Scene):
        raise TypeError(
            "scene must be a Scene, a scene file path or a shipped scene name, got "
            f"{type(scene).__name__}"
        )
    _check_simulate_kwargs(kwargs)
    return _simulate(scene, **kwargs)


def _check_simulate_kwargs(kwargs: Mapping[str, Any]) -> None:
    from tablesim.games.limits import MAX_REPLICAS, MAX_SEED, MAX_WORKERS, check_int
    from tablesim.sim.config import PROFILES, Profile

    if "seed" in kwargs:
        check_int("seed", kwargs["seed"], 0, MAX_SEED)
    if "replicas" in kwargs:
        check_int("replicas", kwargs["replicas"], 1, MAX_REPLICAS)
    if "workers" in kwargs:
        check_int("workers", kwargs["workers"], 1, MAX_WORKERS, none_ok=True)
    if "profile" in kwargs:
        prof = kwargs["profile"]
        if not isinstance(prof, (str, Profile)):
            raise TypeError(
                f"profile must be a profile name ({', '.join(PROFILES)}) or a Profile, "
                f"got {type(prof).__name__}"
            )
    if "seconds" in kwargs and kwargs["seconds"] is not None:
        secs = kwargs["seconds"]
        if isinstance(secs, bool) or not isinstance(secs, (int, float)):
            raise TypeError(
                f"seconds must be a number in (0, 600] or None, got {type(secs).__name__}"
            )


def make_bot(game_name: str, bot_name: str, seed: int, budget: int | None = None) -> Any:
    """A bot of ``game_name`` (:func:`tablesim.games.registry.make_bot`), its ``seed`` 0..2^64-1 and
    ``budget`` 1..10^9 or None checked as a game log's are (TypeError/ValueError naming them)."""
    from tablesim.games.limits import MAX_BUDGET, check_int
    from tablesim.games.registry import make_bot as _make_bot

    check_int("seed", seed, 0, 2**64 - 1)
    check_int("budget", budget, 1, MAX_BUDGET, none_ok=True)
    return _make_bot(game_name, bot_name, seed, budget)


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
    :class:`tablesim.games.katamino.Target`; ``pieces`` a set with optional labels
    (``"pentominoes:LNPUV"``). With ``distinct``, one solution per symmetry class. An empty
    list means no solution; ``tablesim.games.katamino.SolverError`` reports bad input. Counting without
    listing: :func:`tablesim.games.katamino.solve_count` and :func:`tablesim.games.katamino.count_distinct`.
    """
    from tablesim.games.katamino import Target, enumerate_solutions, parse_pieces
    from tablesim.games.limits import MAX_SOLVE_CELLS, MAX_SOLVE_PIECES, check_int

    check_int("limit", limit, 1, 10**9, none_ok=True)
    if not isinstance(pieces, str):
        raise TypeError(
            f"pieces must be a string such as 'pentominoes:LNPU', got {type(pieces).__name__}"
        )
    if not isinstance(board, (str, Target)):
        raise TypeError(
            f"board must be a string such as '5x8' or a Target, got {type(board).__name__}"
        )
    target = Target.parse(board) if isinstance(board, str) else board
    parsed = parse_pieces(pieces)
    if target.size > MAX_SOLVE_CELLS or len(parsed) > MAX_SOLVE_PIECES:
        raise ValueError(
            f"board and pieces: {target.size} cells and {len(parsed)} pieces; a search takes "
            f"at most {MAX_SOLVE_CELLS} cells and {MAX_SOLVE_PIECES} pieces"
        )
    return list(
        enumerate_solutions(
            target,
            parsed,
            straight_horizontal=straight_horizontal,
            distinct=distinct,
            limit=limit,
            backend=backend,
        )
    )
