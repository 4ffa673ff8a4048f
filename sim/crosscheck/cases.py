"""Analytic cases for the two engines: stacks, leaning stacks, cantilevers and bridges.

Every case carries the static margin of its worst joint in millimetres, derived here by hand
from the construction (not by :mod:`tablesim.sim.statics`), and the verdict rigid statics gives: stands
when the margin is positive. Geometry: cube edge ``a``, clearance ``c``; a dynamic box is
``c/2`` narrower on each horizontal face, so a loose support's edge is ``c/2`` inside its nominal
place, a static pedestal's edge is exact.
"""

from __future__ import annotations

from dataclasses import dataclass

from tablesim.sim.config import PhysicsConfig
from tablesim.sim.model import Scene, ScenePiece

CUBE = ((0, 0, 0),)
BAR3 = ((0, 0, 0), (1, 0, 0), (2, 0, 0))


@dataclass(frozen=True)
class Case:
    """A generated scene, its hand-derived worst margin (mm) and the rigid-statics verdict."""

    name: str
    scene: Scene
    margin_mm: float
    kind: str

    @property
    def expected(self) -> str:
        """ "stands" when the worst margin is positive, else "topples"."""
        return "stands" if self.margin_mm > 0 else "topples"


def leaning_stack(n: int, frac: float, config: PhysicsConfig | None = None) -> Case:
    """``n`` loose Kozo cubes, each shifted ``frac`` of an edge along +x from the one below.

    Cube k sits at x_k = k s (s = frac a). The joint between cubes j-1 and j (j >= 1) holds cubes
    j..n-1, whose centre of mass is at s (j + n - 1) / 2; its outer edge is the lower cube's face
    edge x_{j-1} + a/2 - c/2. Margin_j = a/2 - c/2 - s (n - j + 1) / 2, smallest at j = 1:
    a/2 - c/2 - n s / 2. (The table joint holds all n cubes, centre (n - 1) s / 2, edge
    a/2 - c/2: larger.) ``frac = 0`` is a straight stack.
    """
    cfg = config or PhysicsConfig()
    a, c = cfg.kozo_cube, cfg.clearance
    s = frac * a
    pieces = tuple(
        ScenePiece(f"c{k}", CUBE, "kozo", (-a / 2 + k * s, -a / 2, k * a)) for k in range(n)
    )
    margin = (a / 2 - c / 2 - n * s / 2) * 1e3
    kind = "stack" if frac == 0 else "leaning"
    return Case(f"{kind}-{n}-{frac:.4f}", Scene(f"{kind}-{n}", pieces, cfg), margin, kind)


def leaning_for_margin(n: int, margin_mm: float, config: PhysicsConfig | None = None) -> Case:
    """The leaning stack of ``n`` cubes whose worst margin is ``margin_mm`` (inverting the
    formula of :func:`leaning_stack`)."""
    cfg = config or PhysicsConfig()
    a, c = cfg.kozo_cube, cfg.clearance
    frac = 2 * (a / 2 - c / 2 - margin_mm * 1e-3) / (n * a)
    return leaning_stack(n, frac, cfg)


def cantilever(inside_mm: float, config: PhysicsConfig | None = None) -> Case:
    """A 3-cube bar on a static 40 x 40 x 20 mm pedestal, its centre of mass ``inside_mm`` inside
    the pedestal's (exact) edge at x = 40 mm: margin = ``inside_mm``."""
    cfg = config or PhysicsConfig()
    a = cfg.kozo_cube
    ped = ScenePiece("ped", CUBE, None, (0.0, -0.02, 0.0), static=True, box=(0.04, 0.04, 0.02))
    x0 = 0.04 - inside_mm * 1e-3 - 1.5 * a
    bar = ScenePiece("bar", BAR3, "kozo", (x0, -a / 2, 0.02))
    return Case(
        f"cantilever-{inside_mm:+.1f}mm",
        Scene("cantilever", (ped, bar), cfg),
        inside_mm,
        "cantilever",
    )


def bridge(offset_mm: float, config: PhysicsConfig | None = None) -> Case:
    """A 3-cube bar across two loose cubes one cube apart (cells 0 and 2 under it), shifted
    ``offset_mm`` along +x. Each support cube's face spans its cell less c/2 a side; the bar's
    centre of mass (x = 1.5 a + offset) must lie between the supports' outer edges, c/2 inside
    0 and 3a: margin = 1.5 a - c/2 - |offset|."""
    cfg = config or PhysicsConfig()
    a, c = cfg.kozo_cube, cfg.clearance
    left = ScenePiece("left", CUBE, "kozo", (0.0, 0.0, 0.0))
    right = ScenePiece("right", CUBE, "kozo", (2 * a, 0.0, 0.0))
    bar = ScenePiece("bar", BAR3, "kozo", (offset_mm * 1e-3, 0.0, a))
    margin = (1.5 * a - c / 2 - abs(offset_mm) * 1e-3) * 1e3
    return Case(
        f"bridge-{offset_mm:+.1f}mm", Scene("bridge", (left, right, bar), cfg), margin, "bridge"
    )


def generated_cases(config: PhysicsConfig | None = None) -> list[Case]:
    """The crosscheck set: straight stacks of 5-30, leaning stacks of 3-20 at margins of
    +-0.5 and +-2 mm and +-0.1 edge, cantilevers at +-0.5 and +-3 mm, bridges."""
    cfg = config or PhysicsConfig()
    edge_mm = cfg.kozo_cube * 1e3
    out = [leaning_stack(n, 0.0, cfg) for n in (5, 10, 20, 30)]
    for n in (3, 5, 9, 14, 20):
        for m in (0.5, -0.5, 2.0, -2.0, 0.1 * edge_mm, -0.1 * edge_mm):
            out.append(leaning_for_margin(n, m, cfg))
    out += [cantilever(m, cfg) for m in (3.0, 0.5, -0.5, -3.0)]
    out += [bridge(o, cfg) for o in (0.0, 20.0, 30.0)]
    return out
