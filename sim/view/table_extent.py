"""The table's fixed extent (:class:`TableExtent`): how big the wooden table top is, the area
the faked shadows cover and the bound a carried piece is kept inside, all computed once from
a game's layout bound and never again while pieces move (issue 32). No Panda3D here.

Before, the renderer sized the table top, the tiny backend's shadow decal and the gl shadow
camera from the items on the table each time the table was rebuilt: a piece carried 1 m away
made the table grow, the shadow decal (at most :data:`~tablesim.sim.view.shadows.SHADOW_MAX_TEXELS`
texels a side) stretch to the far piece so its texels turned into blocky rectangles, and a
Katamino piece leaving the supply shrank the table until its edge and the sky showed.

The interactive apps compute one extent from the points the start camera frames (the play
area, the supply and its mat: :meth:`~tablesim.sim.view.app.WindowApp.framing_points`) when
they build the table, and keep it: the table top, the shadow area, the gl shadow camera and the
home view then stay put. A piece carried past the play bound is clamped to it
(:meth:`TableExtent.clamp`): the bound holds the reachable area. Pictures and films, which
draw one layout, get the extent of that layout (:func:`table_extent`), the same table top as
before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from tablesim.sim.view.shadows import KEY_ELEVATION, SHADOW_BLUR

__all__ = ["PLAY_MARGIN", "PLAY_MARGIN_FRACTION", "TableExtent", "table_extent"]

PLAY_MARGIN = 0.05
"""Least margin (m) round the layout's bound that a carried piece may reach."""
PLAY_MARGIN_FRACTION = 0.25
"""The margin as a fraction of the layout's larger side, when that is more than
:data:`PLAY_MARGIN`."""


@dataclass(frozen=True)
class TableExtent:
    """One table's fixed sizes (m, world axes, the table top at z = 0).

    ``centre`` (x, y) and ``half``: the square table top spans ``centre +- half``;
    ``thickness``: its slab's thickness below z = 0. ``play_lo`` / ``play_hi`` (x, y, z): the
    bound of the play area (the layout's points plus the margin; z from 0 to the layout's
    top), where a carried piece is kept. ``shadow_lo`` / ``shadow_hi`` (x, y): the table area
    the faked shadows cover (the play bound widened by the longest shadow its top casts at
    the key light's elevation, plus the blur), inside the table top.
    """

    centre: tuple[float, float]
    half: float
    thickness: float
    play_lo: tuple[float, float, float]
    play_hi: tuple[float, float, float]
    shadow_lo: tuple[float, float]
    shadow_hi: tuple[float, float]

    @property
    def table_lo(self) -> np.ndarray:
        """(2,) the table top's low corner (x, y)."""
        return np.asarray(self.centre, float) - self.half

    @property
    def table_hi(self) -> np.ndarray:
        """(2,) the table top's high corner (x, y)."""
        return np.asarray(self.centre, float) + self.half

    def clamp(self, x: float, y: float) -> tuple[float, float]:
        """(x, y) moved to the nearest point of the play bound (unchanged inside it)."""
        return (
            min(max(float(x), self.play_lo[0]), self.play_hi[0]),
            min(max(float(y), self.play_lo[1]), self.play_hi[1]),
        )

    def bound_points(self) -> np.ndarray:
        """(8, 3) the corners of the play bound."""
        lo, hi = self.play_lo, self.play_hi
        return np.array(
            [[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])],
            float,
        )


def table_extent(points: np.ndarray) -> TableExtent:
    """The extent of a table laid out round ``points`` (N, 3) m (a layout's vertices, the
    supply's): ValueError for no points or non-finite ones.

    With the points' bound ``lo``..``hi``, ``r`` half its xy diagonal and ``h`` its top
    (at least 0): the table top is a square of half side ``max(4 r, 2.5 h, 0.05)`` centred
    on the bound's xy centre, ``max(0.02, 0.06 * half)`` thick (the renderer's table since
    round 1); the play bound is ``lo``..``hi`` widened in x and y by ``max(PLAY_MARGIN,
    PLAY_MARGIN_FRACTION * the larger xy side)``, z from 0 to ``h``; the shadow area is the
    play bound widened by ``h / tan(KEY_ELEVATION) + 4 * SHADOW_BLUR``, clipped to the top.
    """
    pts = np.asarray(points, float).reshape(-1, 3)
    if len(pts) == 0 or not np.isfinite(pts).all():
        raise ValueError("a table extent needs at least one finite point")
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    radius = float(np.linalg.norm(hi[:2] - lo[:2])) / 2
    height = max(float(hi[2]), 0.0)
    half = max(4 * radius, 2.5 * height, 0.05)
    centre = (lo[:2] + hi[:2]) / 2
    thickness = max(0.02, half * 0.06)
    t_lo, t_hi = centre - half, centre + half
    margin = max(PLAY_MARGIN, PLAY_MARGIN_FRACTION * float((hi[:2] - lo[:2]).max()))
    p_lo = np.maximum(lo[:2] - margin, t_lo)
    p_hi = np.minimum(hi[:2] + margin, t_hi)
    reach = height / math.tan(math.radians(KEY_ELEVATION)) + 4 * SHADOW_BLUR
    s_lo = np.maximum(p_lo - reach, t_lo)
    s_hi = np.minimum(p_hi + reach, t_hi)

    def xy(v: np.ndarray) -> tuple[float, float]:
        return (float(v[0]), float(v[1]))

    return TableExtent(
        centre=xy(centre),
        half=float(half),
        thickness=float(thickness),
        play_lo=(*xy(p_lo), 0.0),
        play_hi=(*xy(p_hi), height),
        shadow_lo=xy(s_lo),
        shadow_hi=xy(s_hi),
    )
