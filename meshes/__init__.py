"""Triangle meshes of polycube pieces (trimesh) and their export to GLB, OBJ, STL and URDF.

``tablesim.meshes.polycube`` builds a closed, outward-facing surface per piece by face culling (a cube
face is emitted only where the neighbouring cell is empty), so volume, centre of mass and
inertia computed from the mesh are exact. ``tablesim.meshes.export`` writes one file per piece of a
catalogue. Display meshes only: physics uses boxes (``tablesim.games.polycubes.merge_into_boxes``).

This package imports trimesh lazily: ``import meshes`` is cheap, and the names below are
loaded on first use (``from meshes import polycube_mesh`` imports trimesh then).
"""

from __future__ import annotations

from typing import Any

FORMATS: tuple[str, ...] = ("glb", "obj", "stl", "urdf")
"""Export formats understood by :func:`tablesim.meshes.export.export_catalogue` (also file extensions)."""

_LAZY = {
    "polycube_mesh": "tablesim.meshes.polycube",
    "piece_mesh": "tablesim.meshes.polycube",
    "export_catalogue": "tablesim.meshes.export",
    "ExportError": "tablesim.meshes.export",
}

__all__ = ["FORMATS", *_LAZY]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'meshes' has no attribute {name!r}")
