"""Generated scenes with answers known without the simulation (issue #31).

Each generator returns :class:`Case` objects: a scene, the answer a method independent of the
dynamics gives (a closed form derived in the generator's docstring), and the margin of that
answer (how far the scene is from the boundary between the answers, in mm or degrees).
``bench/corpus.py`` runs them through the verdict and reports accuracy per family and margin.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from sim.config import MM, PhysicsConfig
from sim.model import Scene, ScenePiece

Answer = Literal["stands", "topples"]

I4 = ((0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0))


@dataclass(frozen=True)
class Case:
    """One corpus scene: ``family``, the ``scene``, its ``expected`` answer, and the answer's
    ``margin`` in ``unit`` (``"mm"`` or ``"deg"``) from the boundary between the answers."""

    family: str
    scene: Scene
    expected: Answer
    margin: float
    unit: Literal["mm", "deg"]


def _static_box(pid: str, lo: tuple[float, float, float], size: tuple[float, float, float],
                friction: float) -> ScenePiece:  # fmt: skip
    return ScenePiece(pid, ((0, 0, 0),), None, lo, static=True, box=size, friction=friction)


def plank_slip_load(theta_deg: float, reach: float) -> float:
    """``k sin(theta)`` of a leaning I4 plank: the edge's normal force over the weight (``k``)
    times the sine of the lean, the quantity the slip limit compares with mu / (1 + mu^2).

    ``reach``: the distance along the underside from the foot to the supporting edge, in cube
    edges. Moments about the foot: the edge's normal force N (perpendicular to the plank, arm
    ``reach``) balances the weight W, whose arm is 2 cos(theta) - sin(theta) / 2 (the centre
    of mass is 2 edges along the plank and half an edge above its underside), so
    k = N / W = (2 cos(theta) - sin(theta) / 2) / reach (friction along the plank at the edge
    passes through the foot and has no moment)."""
    t = math.radians(theta_deg)
    return (2 * math.cos(t) - 0.5 * math.sin(t)) / reach * math.sin(t)


def plank_stands(theta_deg: float, reach: float, mu: float) -> bool:
    """Whether the leaning plank of :func:`leaning_plank` stands (rigid-body statics).

    Forces on the plank: at the foot a reaction R up and friction f along x (|f| <= mu R), at the
    edge N along the plank's normal (-sin t, cos t) and friction T along the plank
    (|T| <= mu N). If tan t <= mu, T = N tan t cancels the normal's push and f = 0: it stands.
    Otherwise the best is T = mu N (up the slope); then f = N (sin t - mu cos t) and
    R = W - N (cos t + mu sin t), and |f| <= mu R reduces to k sin t (1 + mu^2) <= mu with
    k = N / W (:func:`plank_slip_load`). (Tipping over the edge, R < 0, needs the centre of
    mass beyond the edge: the generator keeps it well before.)"""
    if math.tan(math.radians(theta_deg)) <= mu:
        return True
    return plank_slip_load(theta_deg, reach) * (1 + mu * mu) <= mu


def plank_margin_deg(theta_deg: float, reach: float, mu: float) -> float:
    """Distance (degrees) from ``theta_deg`` to the nearest lean at which :func:`plank_stands`
    changes its answer, between 0 and 80 degrees (the slip load k sin t first grows with the
    lean, then falls, so a range of leans slips): a scan at 0.1 degree, each change refined by
    bisection. 80 when the answer never changes."""
    grid = [i * 0.1 for i in range(801)]
    marks = [plank_stands(t, reach, mu) for t in grid]
    best = 80.0
    for k in range(len(grid) - 1):
        if marks[k] != marks[k + 1]:
            lo, hi = grid[k], grid[k + 1]
            for _ in range(40):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if plank_stands(mid, reach, mu) == marks[k] else (lo, mid)
            best = min(best, abs(theta_deg - lo))
    return best


def leaning_plank(
    theta_deg: float,
    step_mm: float,
    mu: float = 0.45,
    reach: float = 2.6,
    config: PhysicsConfig | None = None,
) -> Case:
    """An I4 Kozo plank leaning ``theta_deg`` with its foot edge on a static step and its
    underside on a static block's top edge (a ladder on a ledge).

    The step is ``step_mm`` wide (along x) and 10 mm high, the foot in its middle; the block's
    top edge is ``reach`` cube edges along the underside from the foot. Every piece has friction
    ``mu`` (so every pair meets at mu). Expected answer: :func:`plank_stands`; margin:
    :func:`plank_margin_deg`."""
    cfg = config or PhysicsConfig()
    a = cfg.kozo_cube
    t = math.radians(theta_deg)
    foot_x, foot_z = 0.0, 10 * MM
    width_y = 3 * a
    step = _static_box(
        "step", (foot_x - step_mm * MM / 2, -a, 0.0), (step_mm * MM, width_y, foot_z), mu
    )
    edge_x, edge_z = foot_x + reach * a * math.cos(t), foot_z + reach * a * math.sin(t)
    block = _static_box("block", (edge_x, -a, 0.0), (2 * a, width_y, edge_z), mu)
    q = (0.0, math.sin(-t / 2), 0.0, math.cos(-t / 2))  # about y: the plank's +x rises
    plank = ScenePiece("plank", I4, "kozo", (foot_x, 0.0, foot_z), q, friction=mu)
    stands = plank_stands(theta_deg, reach, mu)
    scene = Scene(
        f"plank-{theta_deg:g}deg-step{step_mm:g}mm-mu{mu:g}", (step, block, plank), cfg,
        description="an I4 plank leaning on a block's edge, its foot on a narrow step",
    )  # fmt: skip
    return Case("tilted-rest", scene, "stands" if stands else "topples",
                plank_margin_deg(theta_deg, reach, mu), "deg")  # fmt: skip
