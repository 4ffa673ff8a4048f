"""Physics scenes on the table: every :class:`tablesim.sim.model.Scene` piece as a layout item.

Polycubes come from the trimesh meshes of :mod:`tablesim.meshes.polycube` in their colours, with
grooves between their cubes; plain static blocks (pedestals) are wooden boxes; the Kozo base
(``[base] kind = "kozo"``, source ``base:kozo``) is a wooden board with its 3x3 grid of squares
painted on top and the centre square, the chimney, dark (in the physics world the board is a
solid block; the chimney is a square nothing may stand on or overhang, not a hole).

Poses come from the scene, or from ``poses`` (e.g. :meth:`tablesim.sim.world.World.poses`), so what is
drawn is what the World computed at its fixed step.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from tablesim.sim.model import Scene, ScenePiece
from tablesim.sim.view.art import hex_rgb, rgb255, wood_surface
from tablesim.sim.view.layout import Item, Pose, TableLayout, box_item, polycube_item

__all__ = ["kozo_board_picture", "scene_layout"]


def kozo_board_picture(board: float, square: float, color: str, size: int = 512) -> np.ndarray:
    """The top of the Kozo board (``board`` m square): wood, the 3x3 grid of ``square`` (m)
    squares centred on it, and the chimney (the centre square) dark. (size, size, 3) uint8."""
    from PIL import Image, ImageDraw

    img = Image.fromarray(wood_surface(color, size, planks=3))
    draw = ImageDraw.Draw(img)
    px = size / board
    a = square * px
    x0 = size / 2 - 1.5 * a
    line = tuple(int(c * 0.55) for c in rgb255(color))
    width = max(1, int(round(0.04 * a)))
    for i in range(4):
        draw.line((x0 + i * a, x0, x0 + i * a, x0 + 3 * a), fill=line, width=width)
        draw.line((x0, x0 + i * a, x0 + 3 * a, x0 + i * a), fill=line, width=width)
    draw.rectangle(
        (x0 + a + width, x0 + a + width, x0 + 2 * a - width, x0 + 2 * a - width), fill=(38, 28, 22)
    )
    return np.asarray(img)


def _piece_item(piece: ScenePiece, scene: Scene, pose: Pose | None) -> Item:
    pos, quat = pose if pose is not None else (piece.position, piece.orientation)
    if piece.box is None:
        return polycube_item(
            piece.id, piece.cells, piece.edge(scene.physics), pos, piece.color, quat=quat
        )
    faces = {}
    if piece.source == "base:kozo":
        cfg = scene.physics
        faces["+z"] = kozo_board_picture(piece.box[0], cfg.square, piece.color)
    return box_item(
        piece.id,
        piece.box,
        pos,
        hex_rgb(piece.color),
        quat=quat,
        finish="wood",
        faces=faces,
        receives_shadow=piece.static,
    )


def scene_layout(scene: Scene, poses: Mapping[str, Pose] | None = None) -> TableLayout:
    """The table of a physics scene; ``poses`` (piece id -> (position, quaternion x, y, z, w))
    overrides the scene's poses. KeyError names pose ids that are not pieces of the scene."""
    poses = dict(poses or {})
    unknown = sorted(set(poses) - {p.id for p in scene.pieces})
    if unknown:
        raise KeyError(f"poses for pieces not in scene {scene.name!r}: {', '.join(unknown)}")
    items = tuple(_piece_item(p, scene, poses.get(p.id)) for p in scene.pieces)
    camera: dict[str, Any] = dict(scene.camera)
    return TableLayout(scene.name, items, camera, scene.description)
