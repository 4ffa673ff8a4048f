"""How a scene piece becomes a PyBullet body: its mass properties, its collision boxes and the
book-keeping :class:`tablesim.sim.world.World` keeps of it (:class:`Body`).

Pure numpy (no PyBullet): the numbers handed to Bullet, computed with the same bits on every CPU
(:func:`exact_matmul`). Split out of :mod:`tablesim.sim.world`, which re-exports every name here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tablesim.games.polycubes import mass_properties
from tablesim.sim.config import PhysicsConfig
from tablesim.sim.model import ScenePiece, matrix_to_quat

CONTACT_SKIN = 2e-6
"""Extra height (m) of every box of a dynamic piece along its vertical axes (half on each face),
so a piece resting on another, or on the table, starts 2 um into it. Bullet's box-box detector
makes contact points only where boxes overlap, and at exactly zero distance it finds some and
misses others (5 stacked cubes built touching: 8 of the 20 points): a stack released exactly
touching therefore had no contacts above the lowest ones and fell freely, one more cube caught per
step (the top of 20 cubes dropped 0.65 mm before it was held). 2 um is a fifth of the steady
compression of such a stack under its weight, so releasing it pushes nothing apart; against the
0.2 mm clearance and every margin we judge it is nothing."""


@dataclass(frozen=True)
class Body:
    """Book-keeping of one piece body.

    ``com_local``: centre of mass in the piece frame (m); ``axes``: principal axes in the piece
    frame (columns of a proper rotation); ``q_axes``: the same as a quaternion (x, y, z, w), so
    ``R_body = R_piece @ axes``; ``moments``: principal moments (kg m^2). ``box_centres`` and
    ``box_halves`` (k, 3): the collision shape's child boxes as given to PyBullet, centres in the
    body frame and half extents along the piece axes (rotated into the body frame by ``axes.T``);
    the rule checks bound distances with them (:meth:`tablesim.sim.world_contacts.Contacts.check_contacts`).
    """

    piece_id: str
    body: int
    static: bool
    mass: float
    com_local: np.ndarray
    axes: np.ndarray
    q_axes: tuple[float, float, float, float]
    moments: np.ndarray
    box_centres: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))
    box_halves: np.ndarray = field(default_factory=lambda: np.zeros((0, 3)))


def exact_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` for the small matrices and vectors handed to Bullet, with the same bits on
    every CPU: Python float products summed left to right. numpy's ``@`` goes to OpenBLAS,
    whose kernels are chosen per CPU (SkylakeX on AVX-512 Xeons, Zen/Haswell elsewhere) and
    sum in other orders: a collision shape's child positions differed in their last bits
    between kernels and the first step already differed (measured with OPENBLAS_CORETYPE)."""
    x = np.asarray(a, dtype=float)
    y = np.asarray(b, dtype=float)
    vec = y.ndim == 1
    yy = y.reshape(-1, 1) if vec else y
    out = np.empty((x.shape[0], yy.shape[1]))
    for i in range(x.shape[0]):
        row = [float(v) for v in x[i]]
        for j in range(yy.shape[1]):
            acc = 0.0
            for k, v in enumerate(row):
                acc += v * float(yy[k, j])
            out[i, j] = acc
    return out[:, 0] if vec else out


def piece_mass_properties(
    piece: ScenePiece, config: PhysicsConfig
) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """Exact mass properties of a piece from its nominal (unshrunk) geometry.

    Returns ``(mass, com_local (3,), principal_moments (3,), principal_axes (3, 3))``: mass in kg
    (0 for static pieces), centre of mass in the piece frame (m), principal moments (kg m^2,
    ascending; those of the nominal density even for static pieces) and the principal axes as the
    columns of a proper rotation matrix in the piece frame.
    """
    if piece.box is not None:
        size = np.asarray(piece.box, dtype=float)
        m = float(np.prod(size)) * config.density
        sx, sy, sz = size
        moments = m / 12.0 * np.array([sy * sy + sz * sz, sx * sx + sz * sz, sx * sx + sy * sy])
        com, axes = size / 2.0, np.eye(3)
    else:
        mp = mass_properties(piece.cells, piece.edge(config), config.density)
        m, com, moments, axes = mp.mass, mp.com, mp.principal_moments, mp.principal_axes
    return (0.0 if piece.static else float(m)), np.asarray(com, float), moments, axes


Boxes = tuple[tuple[np.ndarray, np.ndarray], ...]
"""A piece's boxes in its frame: (centre, half extents) pairs, m."""
_BOXES: dict[tuple[Any, ...], Boxes] = {}


def piece_boxes(piece: ScenePiece, config: PhysicsConfig) -> Boxes:
    """:meth:`tablesim.sim.model.ScenePiece.local_boxes`, kept per geometry (cells or box size, and the
    cube edge) as read-only arrays: every replica of a verdict builds the same pieces again,
    and merging a piece's cells into boxes (with its connectivity check) was a third of a
    world's Python build time."""
    key = (piece.cells, piece.box, piece.edge(config))
    boxes = _BOXES.get(key)
    if boxes is None:
        boxes = tuple(piece.local_boxes(config))
        for arr in (a for pair in boxes for a in pair):
            arr.setflags(write=False)
        if len(_BOXES) > 4096:  # a bound for long-lived processes that see many pieces
            _BOXES.clear()
        _BOXES[key] = boxes
    return boxes


@dataclass(frozen=True)
class PieceLayout:
    """What :class:`World` gives PyBullet for a piece, from its geometry alone
    (:func:`piece_layout`): mass properties (:func:`piece_mass_properties`), ``q_axes`` (the
    principal axes as a quaternion), and the collision shape's child boxes: ``halves`` and
    ``positions`` (lists, as passed), ``orientations`` (the piece axes in the body frame, one
    per box), ``centres`` and ``half_array`` (read-only (k, 3) arrays of the same numbers)."""

    mass: float
    com_local: np.ndarray
    moments: np.ndarray
    axes: np.ndarray
    q_axes: tuple[float, float, float, float]
    halves: list[list[float]]
    positions: list[list[float]]
    orientations: list[list[float]]
    centres: np.ndarray
    half_array: np.ndarray


_LAYOUTS: dict[tuple[Any, ...], PieceLayout] = {}


def piece_layout(piece: ScenePiece, config: PhysicsConfig, rotation: np.ndarray) -> PieceLayout:
    """A piece's :class:`PieceLayout` at ``rotation`` (its 3x3 rotation matrix), kept per
    geometry: it depends on the pose only through which piece axes are horizontal
    (:func:`shrunk_half_extents`), and every replica of a verdict builds the same pieces again
    at nearly the same poses. The numbers are those computed afresh, bit for bit (the same
    operations on the same inputs). Callers must not change the lists."""
    limit = math.sqrt(0.5) - 1e-9  # shrunk_half_extents' test, per piece axis
    flat = tuple(abs(rotation[2, k]) < limit for k in range(3))
    key = (piece.cells, piece.box, piece.static, piece.edge(config), config.density,
           config.clearance, flat)  # fmt: skip
    lay = _LAYOUTS.get(key)
    if lay is None:
        mass, com_local, moments, axes = piece_mass_properties(piece, config)
        q_child = list(matrix_to_quat(axes.T))  # child box axes (= piece axes), body frame
        halves, positions = [], []
        for centre, half in piece_boxes(piece, config):
            # Clearance is play between loose pieces; static supports (pedestals, the board)
            # keep their exact size, so a support edge is where the scene puts it (and where
            # the statics check measures margins from).
            clearance = 0.0 if piece.static else config.clearance
            skin = 0.0 if piece.static else CONTACT_SKIN
            halves.append(shrunk_half_extents(half, rotation, clearance, skin).tolist())
            positions.append(exact_matmul(axes.T, centre - com_local).tolist())
        centres = np.array(positions, dtype=float).reshape(-1, 3)
        half_array = np.array(halves, dtype=float).reshape(-1, 3)
        for arr in (centres, half_array, com_local, moments, axes):
            arr.setflags(write=False)  # shared by every body of this geometry
        lay = PieceLayout(mass, com_local, moments, axes, matrix_to_quat(axes), halves,
                          positions, [q_child] * len(halves), centres, half_array)  # fmt: skip
        if len(_LAYOUTS) > 4096:  # a bound for long-lived processes that see many pieces
            _LAYOUTS.clear()
        _LAYOUTS[key] = lay
    return lay


def shrunk_half_extents(
    half: np.ndarray, rotation: np.ndarray, clearance: float, skin: float = 0.0
) -> np.ndarray:
    """Half extents of a box after applying the clearance (and the contact skin).

    ``half``: (3,) half extents along the box axes; ``rotation``: 3x3, columns are the box axes in
    the world. An axis is horizontal when it is closer to the table plane than to the vertical
    (|z component| < cos 45 deg); those lose ``clearance/2`` per face. Vertical axes grow by
    ``skin/2`` per face (:data:`CONTACT_SKIN`), so stacks start in contact.
    """
    out = np.array(half, dtype=float)
    for k in range(3):
        if abs(rotation[2, k]) < math.sqrt(0.5) - 1e-9:
            out[k] = out[k] - clearance / 2.0
        else:
            out[k] = out[k] + skin / 2.0
    if (out <= 0).any():
        raise ValueError(f"clearance {clearance} m leaves no box of half extents {half}")
    return out
