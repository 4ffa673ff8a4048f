"""What lies on the table: a neutral, game-independent description the renderer draws.

A :class:`TableLayout` is a tuple of :class:`Item`: a mesh in its own frame, a pose, a colour,
a finish, and optional pictures printed on its faces. Game adapters (:mod:`tablesim.sim.view.drawings`)
turn a game state or a physics scene into a layout; the renderer (:mod:`tablesim.sim.view.renderer`)
only ever reads layouts. Nothing here imports Panda3D.

Conventions: metres, z up, the table top is z = 0; a world point is ``position + R @ local``
with ``R`` the rotation of ``quat`` (x, y, z, w), as in :mod:`tablesim.sim.model`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from tablesim.sim.model import Floats, quat_to_matrix

__all__ = [
    "FACES",
    "FINISHES",
    "Floats",
    "Item",
    "LayoutError",
    "Pose",
    "TableLayout",
    "box_item",
    "cylinder_item",
    "polycube_item",
]

FINISHES: tuple[str, ...] = ("plain", "wood", "groove")
"""How an item's undecorated faces look: flat colour, wood grain, or cube grooves (polycubes)."""
FACES: tuple[str, ...] = ("+x", "-x", "+y", "-y", "+z", "-z")
"""Keys of :attr:`Item.faces`: the outward direction of a face in the item frame."""

Pose = tuple[Floats, Floats]
"""(position (3,) m, quaternion (4,) x, y, z, w) of an item frame."""


class LayoutError(ValueError):
    """A table description that cannot be drawn: says what, where, and what is allowed."""


@dataclass(frozen=True, eq=False)
class Item:
    """One thing on the table.

    ``mesh``: a ``trimesh.Trimesh`` in the item frame; ``position`` (m) and ``quat`` (x, y, z,
    w) pose that frame; ``color``: mean colour (0-1 RGB) of the undecorated faces; ``finish``: one
    of :data:`FINISHES` (``groove`` needs the cube ``edge`` in m); ``faces``: pictures (H, W, 3)
    uint8, row 0 at the top, printed on the mesh faces whose outward normal is the key of
    :data:`FACES` (the picture spans the mesh's bounding box on that side; for ``+z`` the picture's
    top edge is at +y and its left edge at -x); ``receives_shadow``: a level top face that takes
    the faked shadows of the tiny backend (boards); ``casts_shadow``: whether it casts one;
    ``alpha``: opacity in (0, 1] (below 1 the item is drawn translucent over what lies behind
    it: the ghosts of held pieces).
    """

    id: str
    mesh: Any
    position: tuple[float, float, float] = (0.0, 0.0, 0.0)
    quat: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 1.0)
    color: tuple[float, float, float] = (0.7, 0.6, 0.5)
    finish: str = "plain"
    edge: float = 0.0
    faces: Mapping[str, np.ndarray] = field(default_factory=dict)
    receives_shadow: bool = False
    casts_shadow: bool = True
    alpha: float = 1.0

    def __post_init__(self) -> None:
        if not 0.0 < self.alpha <= 1.0:
            raise LayoutError(f"item {self.id!r}: alpha {self.alpha} is not in (0, 1]")
        if self.finish not in FINISHES:
            raise LayoutError(
                f"item {self.id!r}: unknown finish {self.finish!r} (allowed: {', '.join(FINISHES)})"
            )
        bad = sorted(set(self.faces) - set(FACES))
        if bad:
            raise LayoutError(f"item {self.id!r}: unknown face(s) {bad} (allowed: {FACES})")
        for key, img in self.faces.items():
            a = np.asarray(img)
            if a.ndim != 3 or a.shape[2] != 3 or a.dtype != np.uint8:
                raise LayoutError(
                    f"item {self.id!r}: face {key} picture must be (H, W, 3) uint8, got "
                    f"{a.dtype} {a.shape}"
                )

    def rotation(self) -> np.ndarray:
        """Rotation matrix (3, 3) of the item frame."""
        return quat_to_matrix(self.quat)

    def world_vertices(self) -> np.ndarray:
        """The mesh vertices posed in the world, (V, 3) m (read-only: computed once per item,
        an item being frozen; picking and shadows ask for them every frame)."""
        cached = self.__dict__.get("_world_vertices")
        if cached is None:
            cached = np.asarray(self.position) + np.asarray(self.mesh.vertices) @ self.rotation().T
            cached.flags.writeable = False
            self.__dict__["_world_vertices"] = cached
        return cached

    def world_triangles(self) -> np.ndarray:
        """The mesh triangles posed in the world, (F, 3, 3) m (read-only, computed once)."""
        cached = self.__dict__.get("_world_triangles")
        if cached is None:
            cached = self.world_vertices()[np.asarray(self.mesh.faces)]
            cached.flags.writeable = False
            self.__dict__["_world_triangles"] = cached
        return cached

    def is_level(self) -> bool:
        """True when the item frame's z axis points straight up (a level board or block)."""
        return bool(self.rotation()[2, 2] > 1 - 1e-9)

    def top(self) -> float:
        """Height (m) of the item's highest point."""
        return float(self.world_vertices()[:, 2].max())

    def posed(self, pose: Pose) -> Item:
        """The same item at another pose."""
        pos, q = pose
        qa = np.asarray(q, dtype=float)
        qa = qa / np.linalg.norm(qa)
        return replace(
            self,
            position=tuple(float(v) for v in pos),  # type: ignore[arg-type]
            quat=tuple(float(v) for v in qa),  # type: ignore[arg-type]
        )


@dataclass(frozen=True)
class TableLayout:
    """Everything on the table, plus a default camera spec (see
    :func:`tablesim.sim.view.camera.camera_for_scene`) and words for people."""

    name: str
    items: tuple[Item, ...]
    camera: Mapping[str, Any] = field(default_factory=dict)
    description: str = ""

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for it in self.items:
            if it.id in seen:
                raise LayoutError(f"layout {self.name!r}: two items are called {it.id!r}")
            seen.add(it.id)

    def item(self, item_id: str) -> Item:
        """The item called ``item_id`` (KeyError if none)."""
        for it in self.items:
            if it.id == item_id:
                return it
        raise KeyError(item_id)

    @property
    def ids(self) -> list[str]:
        """Item ids in drawing order."""
        return [it.id for it in self.items]

    def points(self) -> np.ndarray:
        """All posed vertices (N, 3) m; for an empty table, a 10 cm box on it."""
        if not self.items:
            return np.array([[-0.05, -0.05, 0.0], [0.05, 0.05, 0.1]])
        return np.concatenate([it.world_vertices() for it in self.items])

    def with_poses(self, poses: Mapping[str, Pose]) -> TableLayout:
        """The layout with some items moved; KeyError naming ids that are not items."""
        unknown = sorted(set(poses) - set(self.ids))
        if unknown:
            raise KeyError(f"poses for items not on table {self.name!r}: {', '.join(unknown)}")
        items = tuple(it.posed(poses[it.id]) if it.id in poses else it for it in self.items)
        return replace(self, items=items)


# ---------------------------------------------------------------------------------------
# Item builders
# ---------------------------------------------------------------------------------------
def _color(color: str | Floats) -> tuple[float, float, float]:
    from tablesim.sim.view.art import hex_rgb

    if isinstance(color, str):
        return hex_rgb(color)
    return tuple(float(c) for c in color)  # type: ignore[return-value]


def box_item(
    item_id: str,
    size: Floats,
    corner: Floats,
    color: str | Floats,
    *,
    quat: Floats = (0.0, 0.0, 0.0, 1.0),
    finish: str = "plain",
    faces: Mapping[str, np.ndarray] | None = None,
    receives_shadow: bool = False,
    casts_shadow: bool = True,
) -> Item:
    """A box of ``size`` (m) whose item-frame minimum corner is at ``corner`` (m, world)."""
    import trimesh

    s = np.asarray(size, dtype=float)
    if s.shape != (3,) or not (s > 0).all():
        raise LayoutError(f"item {item_id!r}: box size must be 3 positive lengths, got {size!r}")
    mesh = trimesh.creation.box(extents=s)
    mesh.apply_translation(s / 2)
    return Item(
        item_id,
        mesh,
        tuple(float(v) for v in corner),  # type: ignore[arg-type]
        tuple(float(v) for v in quat),  # type: ignore[arg-type]
        _color(color),
        finish,
        0.0,
        dict(faces or {}),
        receives_shadow,
        casts_shadow,
    )


def cylinder_item(
    item_id: str,
    radius: float,
    height: float,
    base_centre: Floats,
    color: str | Floats,
    *,
    faces: Mapping[str, np.ndarray] | None = None,
    sections: int = 40,
) -> Item:
    """An upright cylinder (disc) of ``radius`` and ``height`` (m) standing on ``base_centre``."""
    import trimesh

    if not (radius > 0 and height > 0):
        raise LayoutError(f"item {item_id!r}: cylinder radius and height must be > 0")
    mesh = trimesh.creation.cylinder(radius=radius, height=height, sections=sections)
    mesh.apply_translation((0.0, 0.0, height / 2))
    return Item(
        item_id,
        mesh,
        tuple(float(v) for v in base_centre),  # type: ignore[arg-type]
        color=_color(color),
        faces=dict(faces or {}),
    )


def polycube_item(
    item_id: str,
    cells: Sequence[Sequence[int]],
    edge: float,
    position: Floats,
    color: str | Floats,
    *,
    quat: Floats = (0.0, 0.0, 0.0, 1.0),
) -> Item:
    """A polycube of ``cells`` with cube ``edge`` (m): the trimesh mesh of :mod:`meshes`, grooved."""
    from tablesim.meshes.polycube import polycube_mesh

    return Item(
        item_id,
        polycube_mesh(cells, edge),
        tuple(float(v) for v in position),  # type: ignore[arg-type]
        tuple(float(v) for v in quat),  # type: ignore[arg-type]
        _color(color),
        "groove",
        float(edge),
    )
