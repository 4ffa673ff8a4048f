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

from tablesim.games.kozo.blocks import Blocks
from tablesim.games.kozo.state import CUBE, NOCUBE, PLACE, KozoConfig, KozoMove, Outcome, Pose
from tablesim.games.rng import Rng

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
    x0s, y0s, x1s, y1s = [], [], [], []
    board = np.abs(lo[:, 2]) <= tol
    x0s.append(lo[board, 0])
    y0s.append(lo[board, 1])
    x1s.append(hi[board, 0])
    y1s.append(hi[board, 1])
    if blocks.size:
        rest = ~blocks.balance[None, :] & (np.abs(lo[:, None, 2] - blocks.hi[None, :, 2]) <= tol)
        x0 = np.maximum(lo[:, None, 0], blocks.lo[None, :, 0])
        y0 = np.maximum(lo[:, None, 1], blocks.lo[None, :, 1])
        x1 = np.minimum(hi[:, None, 0], blocks.hi[None, :, 0])
        y1 = np.minimum(hi[:, None, 1], blocks.hi[None, :, 1])
        ok = rest & (x1 - x0 > tol) & (y1 - y0 > tol)
        x0s.append(x0[ok])
        y0s.append(y0[ok])
        x1s.append(x1[ok])
        y1s.append(y1[ok])
    ax0, ay0 = np.concatenate(x0s), np.concatenate(y0s)
    if not len(ax0):
        return -1.0
    x0, y0 = ax0.min(), ay0.min()
    x1, y1 = np.concatenate(x1s).max(), np.concatenate(y1s).max()
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
    span: float = 0.0,
) -> tuple[Outcome, Rng]:
    """Judge one move: every item keeps its (intended) pose; with probability ``risk`` (one
    uniform draw ``u`` from ``rng``) the tower topples and every polycube falls, at
    ``span * u / risk`` seconds after the piece was let go: uniformly over the ``span`` the
    move is watched (the hold after a polycube, the window after the balance cube). The same
    single draw decides both, so the stream is the one it was before falls had a time."""
    u, rng = rng.random()
    if u < risk:
        when = round(span * u / risk, 3) if risk > 0 else 0.0
        return Outcome(poses, tuple(n for n in names if n in polycubes), when, "stand-in"), rng
    return Outcome(poses, (), None, "stand-in"), rng
