"""The scene model shared by the loader, the physics world, the statics check and the view.

A :class:`Scene` is a validated, frozen description: pieces (dynamic or static) with cells,
cube kind and a pose in metres, plus physics overrides. ``sim/scene.py`` builds it from TOML;
code can also build it directly.

Piece frame: cell ``(i, j, k)`` occupies ``[i, i+1] x [j, j+1] x [k, k+1]`` times the piece's cube
edge. A world point is ``position + R @ p_local``. The table top is the plane ``z = 0``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tablesim.games.polycubes import Cells, mass_properties, merge_into_boxes
from tablesim.games.quat import matrix_to_quat, quat_from_euler_deg, quat_to_matrix
from tablesim.sim.config import PhysicsConfig

__all__ = [  # the quaternion helpers are tablesim.games.quat's, re-exported for the physics and view
    "Floats",
    "PosedBox",
    "Scene",
    "ScenePiece",
    "matrix_to_quat",
    "quat_from_euler_deg",
    "quat4",
    "quat_to_matrix",
    "vec3",
]

Floats = Sequence[float] | np.ndarray
"""A short vector of floats (a position, a quaternion, a direction, a colour): a sequence or a
numpy array (poses come from both: scene files and PyBullet give tuples, numpy math arrays)."""


def vec3(v: Floats) -> tuple[float, float, float]:
    """The first three entries of ``v`` as a tuple of Python floats (a position, a size)."""
    return (float(v[0]), float(v[1]), float(v[2]))


def quat4(q: Floats) -> tuple[float, float, float, float]:
    """The first four entries of ``q`` as a tuple of Python floats (a quaternion x, y, z, w)."""
    return (float(q[0]), float(q[1]), float(q[2]), float(q[3]))


@dataclass(frozen=True)
class PosedBox:
    """An oriented box in the world: ``centre`` (m, shape (3,)), ``rotation`` (3x3, columns
    are the box axes in world coordinates), ``half`` (half extents along those axes, m)."""

    centre: np.ndarray
    rotation: np.ndarray
    half: np.ndarray

    def corners(self) -> np.ndarray:
        """The 8 corners, shape (8, 3)."""
        signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)])
        return self.centre + (signs * self.half) @ self.rotation.T


@dataclass(frozen=True)
class ScenePiece:
    """One piece of a scene.

    ``id``: unique name; ``cells``: integer cells in the piece frame; ``cube``: cube kind
    (``kozo``, ``balance``, ``katamino``, ``unit``) or None for ``box`` pieces; ``position``
    (m) and ``orientation`` (quaternion x, y, z, w) of the piece frame; ``static``: fixed to the
    table (pedestals, the Kozo board); ``source``: the catalogue reference or "inline";
    ``color``: display colour; ``box``: for plain static blocks, the full size (m) of a box whose
    minimum corner is the piece-frame origin (then ``cells`` is ``((0,0,0),)`` and is ignored).
    """

    id: str
    cells: Cells
    cube: str | None
    position: tuple[float, float, float]
    orientation: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 1.0)
    static: bool = False
    source: str = "inline"
    color: str = "#b08850"
    box: tuple[float, float, float] | None = None
    friction: float | None = None

    def edge(self, config: PhysicsConfig) -> float:
        """Cube edge of this piece in metres (1.0 for box pieces, whose size is in metres)."""
        return 1.0 if self.box is not None or self.cube is None else config.cube_edge(self.cube)

    def rotation(self) -> np.ndarray:
        """Rotation matrix of the piece frame."""
        return quat_to_matrix(self.orientation)

    def local_boxes(self, config: PhysicsConfig) -> list[tuple[np.ndarray, np.ndarray]]:
        """Boxes in the piece frame as (centre, half extents) in metres (unshrunk)."""
        if self.box is not None:
            size = np.asarray(self.box, dtype=float)
            return [(size / 2, size / 2)]
        a = self.edge(config)
        out = []
        for b in merge_into_boxes(self.cells):
            out.append(
                (np.asarray(b.centre(), dtype=float) * a, np.asarray(b.size, dtype=float) * a / 2)
            )
        return out

    def world_boxes(self, config: PhysicsConfig) -> list[PosedBox]:
        """The piece's boxes posed in the world (exact geometry, no clearance)."""
        r = self.rotation()
        p = np.asarray(self.position, dtype=float)
        return [PosedBox(p + r @ c, r, h) for c, h in self.local_boxes(config)]

    def mass_and_com(self, config: PhysicsConfig) -> tuple[float, np.ndarray]:
        """Mass (kg) and world centre of mass (m) from the exact geometry (0 mass if static)."""
        if self.box is not None:
            size = np.asarray(self.box, dtype=float)
            com_local = size / 2
            mass = 0.0 if self.static else float(np.prod(size)) * config.density
        else:
            mp = mass_properties(self.cells, self.edge(config), config.density)
            com_local, mass = mp.com, (0.0 if self.static else mp.mass)
        return mass, np.asarray(self.position, dtype=float) + self.rotation() @ com_local


@dataclass(frozen=True)
class Scene:
    """A validated scene: pieces, physics constants, and simulation defaults.

    ``ground``: whether the table plane z = 0 exists (almost always). ``seconds``: default
    simulation window. ``name`` and ``description`` are for people. ``camera`` is an optional
    named view for the renderer. ``judged``: the ids of the pieces the topple rule judges (None:
    every dynamic piece, as every shipped scene); a piece left out (a piece dropped onto a
    stack, which lands and settles) moves with the others but its own fall is not the scene's.
    The scene file's top-level ``judged`` (``scenes/README.md``).
    """

    name: str
    pieces: tuple[ScenePiece, ...]
    physics: PhysicsConfig = field(default_factory=PhysicsConfig)
    description: str = ""
    seconds: float = 5.0
    ground: bool = True
    camera: dict[str, Any] = field(default_factory=dict)
    source: str = "<memory>"
    judged: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.judged is not None:
            ids = {p.id for p in self.pieces if not p.static}
            bad = sorted(set(self.judged) - ids)
            if bad or not self.judged:
                raise ValueError(
                    f"scene {self.name!r}: judged {list(self.judged)} must name one or more of"
                    f" its dynamic pieces {sorted(ids)} (unknown: {bad})"
                )

    def piece(self, pid: str) -> ScenePiece:
        """The piece called ``pid`` (KeyError if none)."""
        for p in self.pieces:
            if p.id == pid:
                return p
        raise KeyError(pid)

    @property
    def dynamic(self) -> tuple[ScenePiece, ...]:
        """The pieces that move."""
        return tuple(p for p in self.pieces if not p.static)
