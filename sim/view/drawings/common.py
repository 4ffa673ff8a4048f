"""Pieces shared by several games' tables: dice and printed tiles."""

from __future__ import annotations

import math

import numpy as np

from tablesim.sim.model import Floats, quat_from_euler_deg
from tablesim.sim.view.art import dice_face
from tablesim.sim.view.layout import Item, LayoutError, box_item

__all__ = ["DIE_EDGE", "die_item", "die_faces", "tile_item"]

DIE_EDGE = 0.016
"""Edge (m) of a six-sided die: 16 mm, the common size of game dice."""


def die_faces(top: int) -> dict[str, int]:
    """Pips on each face of a standard die showing ``top`` (opposite faces add up to 7; the
    sides follow the right-handed layout 1-2-3 counter-clockwise around a corner)."""
    if top not in range(1, 7):
        raise LayoutError(f"a die shows 1 to 6, got {top!r}")
    # right-handed die: looking at the corner of 1, 2 and 3 they go counter-clockwise
    front = {1: 2, 2: 1, 3: 1, 4: 1, 5: 1, 6: 2}[top]  # a face adjacent to top, on -y
    right = _right_face(top, front)
    return {
        "+z": top,
        "-z": 7 - top,
        "-y": front,
        "+y": 7 - front,
        "+x": right,
        "-x": 7 - right,
    }


def _right_face(top: int, front: int) -> int:
    """The face on +x of a right-handed die with ``top`` up and ``front`` towards -y."""
    # unit vectors of faces 1, 2, 3 in a right-handed die: 1 = +z, 2 = -y, 3 = +x (and opposites)
    base = {1: (0, 0, 1), 2: (0, -1, 0), 3: (1, 0, 0)}
    vec = {**base, **{7 - k: tuple(-c for c in v) for k, v in base.items()}}
    t, f = np.array(vec[top]), np.array(vec[front])
    # rotate the die so t -> +z and f -> -y; the +x face is the one whose vector maps to +x
    r_from = np.stack([np.cross(f * -1, t), f * -1, t])  # rows: body axes seen as world x, y, z
    for k, v in vec.items():
        if np.allclose(r_from @ np.array(v), (1, 0, 0)):
            return k
    raise AssertionError("unreachable: a die has a face on every side")  # pragma: no cover


def die_item(item_id: str, top: int, centre: Floats, yaw_deg: float = 0.0) -> Item:
    """A die showing ``top`` lying on the table (or on ``centre[2]``), centred at ``centre``
    (x, y) and turned by ``yaw_deg`` about the vertical."""
    a = DIE_EDGE
    faces = {k: dice_face(v) for k, v in die_faces(top).items()}
    q = quat_from_euler_deg(0.0, 0.0, yaw_deg)
    c, s = math.cos(math.radians(yaw_deg)), math.sin(math.radians(yaw_deg))
    # the item frame's corner: centre minus the rotated half diagonal
    off = np.array([c * a / 2 - s * a / 2, s * a / 2 + c * a / 2])
    z = float(centre[2]) if len(centre) > 2 else 0.0
    corner = (centre[0] - off[0], centre[1] - off[1], z)
    return box_item(item_id, (a, a, a), corner, (0.96, 0.95, 0.92), quat=q, faces=faces)


def tile_item(
    item_id: str,
    picture: np.ndarray,
    centre: Floats,
    side: float,
    thickness: float,
    edge_color: Floats,
    *,
    level: int = 0,
) -> Item:
    """A square tile of ``side`` x ``side`` x ``thickness`` (m) centred at ``centre`` (x, y),
    ``level`` tiles up a stack, its top printed with ``picture`` and its edges ``edge_color``."""
    return box_item(
        item_id,
        (side, side, thickness),
        (centre[0] - side / 2, centre[1] - side / 2, level * thickness),
        edge_color,
        faces={"+z": picture},
    )
