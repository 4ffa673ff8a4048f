"""The data shipped with tablesim (scenes, their JSON Schema, example sweep specs).

Found through :mod:`importlib.resources` relative to the ``tablesim`` package itself, never
through the current folder or another top-level package of the same name: a user's own
``scenes/`` or ``experiments/`` folder does not hide the shipped files. In the wheel
``tablesim/data/scenes`` and ``tablesim/data/experiments`` hold copies of the repository's
``scenes/`` and ``experiments/`` folders (in the source tree they are symlinks to them).
"""

from __future__ import annotations

import sys
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    if sys.version_info >= (3, 11):
        from importlib.resources.abc import Traversable
    else:
        from importlib.abc import Traversable

KINDS: tuple[str, ...] = ("scenes", "experiments")


def data_dir(kind: str) -> Traversable:
    """The folder of shipped ``kind`` files (``scenes`` or ``experiments``)."""
    if kind not in KINDS:
        raise ValueError(f"unknown data kind {kind!r} (allowed: {', '.join(KINDS)})")
    return resources.files("tablesim") / "data" / kind


def _names(kind: str) -> list[str]:
    return sorted(e.name[:-5] for e in data_dir(kind).iterdir() if e.name.endswith(".toml"))


def scene_names() -> list[str]:
    """Names (file stems) of the shipped scenes, sorted: ``kozo-tower``, ..."""
    return _names("scenes")


def spec_names() -> list[str]:
    """Names (file stems) of the shipped example sweep specs, sorted."""
    return _names("experiments")


def _file(kind: str, name: str, noun: str) -> Traversable:
    stem = name[:-5] if name.endswith(".toml") else name
    names = _names(kind)
    if stem not in names:
        raise ValueError(f"no shipped {noun} {name!r} (shipped: {', '.join(names)})")
    return data_dir(kind) / f"{stem}.toml"


def scene_file(name: str) -> Traversable:
    """The shipped scene ``name`` (``kozo-tower`` or ``kozo-tower.toml``); ValueError listing
    the shipped names when there is none."""
    return _file("scenes", name, "scene")


def spec_file(name: str) -> Traversable:
    """The shipped sweep spec ``name`` (``friction-jitter``); ValueError listing the names."""
    return _file("experiments", name, "sweep spec")


def schema_file() -> Traversable:
    """The JSON Schema of scene files."""
    return data_dir("scenes") / "scene.schema.json"
