"""The seeded stand-in judge (pure) and the support heuristic shared with the bots.

The stand-in is what rules-only playouts use instead of physics (``--table stand-in``): every
piece settles exactly at its intended pose, and the tower topples with a probability from
:func:`topple_risk`, drawn from the state's own stream. It is *not* physics; it exists so the
rules, scoring and round ends can be exercised thousands of times a minute, with outcomes that
depend on the placement the way a player would expect (a piece whose centre of mass hangs
outside what holds it up falls).
"""

from __future__ import annotations

import numpy as np

from games.kozo.geometry import Blocks
from games.kozo.state import CUBE, NOCUBE, PLACE, KozoConfig, KozoMove, Outcome, Pose
from games.rng import Rng

UNSUPPORTED_RISK = 0.9
"""Stand-in topple probability when a polycube's centre of mass lies outside the rectangle
spanned by its contact patches."""


def support_margin(cells: np.ndarray, pos: np.ndarray, blocks: Blocks, tol: float) -> float:
    """Signed distance (cube edges) from the polycube's centre of mass, seen from above, to the
    edge of the bounding rectangle of its contact patches (positive: inside).

    Contact patches: the footprint of every cube resting on the base and the overlap of every
    cube's bottom with a polycube top it rests on. A rectangle, not the convex hull: a cheap,
    conservative-enough measure for bots and the stand-in, never used by the physics table.
    """
    lo = cells + pos
    hi = lo + 1.0
    patches = []
    for i in range(len(lo)):
        if abs(lo[i, 2]) <= tol:
            patches.append((lo[i, 0], lo[i, 1], hi[i, 0], hi[i, 1]))
        for j in range(blocks.size):
            if blocks.balance[j] or abs(lo[i, 2] - blocks.hi[j, 2]) > tol:
                continue
            x0, y0 = max(lo[i, 0], blocks.lo[j, 0]), max(lo[i, 1], blocks.lo[j, 1])
            x1, y1 = min(hi[i, 0], blocks.hi[j, 0]), min(hi[i, 1], blocks.hi[j, 1])
            if x1 - x0 > tol and y1 - y0 > tol:
                patches.append((x0, y0, x1, y1))
    if not patches:
        return -1.0
    arr = np.asarray(patches)
    x0, y0 = arr[:, 0].min(), arr[:, 1].min()
    x1, y1 = arr[:, 2].max(), arr[:, 3].max()
    com = (cells + 0.5).mean(axis=0) + pos
    return float(min(com[0] - x0, x1 - com[0], com[1] - y0, y1 - com[1]))


def topple_risk(config: KozoConfig, move: KozoMove, margin: float | None) -> float:
    """The stand-in's topple probability for a move (``margin`` from :func:`support_margin`
    for a placement): ``stand_in_risk`` per placement, or :data:`UNSUPPORTED_RISK` when the
    centre of mass is outside its supports; half of ``stand_in_risk`` for the balance cube."""
    if move.kind == PLACE:
        if margin is not None and margin < 0:
            return UNSUPPORTED_RISK
        return config.stand_in_risk
    if move.kind in (CUBE, NOCUBE):
        return config.stand_in_risk / 2
    return 0.0


def stand_in_outcome(
    rng: Rng,
    poses: tuple[Pose, ...],
    names: tuple[str, ...],
    polycubes: tuple[str, ...],
    risk: float,
) -> tuple[Outcome, Rng]:
    """Judge one move: every item keeps its (intended) pose; with probability ``risk`` (one
    uniform draw from ``rng``) the tower topples and every polycube falls at t = 0."""
    u, rng = rng.random()
    if u < risk:
        return Outcome(poses, tuple(n for n in names if n in polycubes), 0.0, "stand-in"), rng
    return Outcome(poses, (), None, "stand-in"), rng
