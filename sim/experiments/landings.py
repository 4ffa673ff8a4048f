"""Drops that land off-centre or tilted, with answers from energy bounds (issue #31).

The flat, centred drops of :func:`tablesim.sim.experiments.corpus.drop_cases` land a piece
with its centre of mass over the top cube's centre. People do not: a piece is let go off
centre (family ``drop-edge``: its centre of mass anywhere over the top face, down to 1 mm
from its shrunk edge) and tilted (``drop-tilted``: turned 5-40 degrees about the x axis, so
its lowest edge lands first and it falls flat about that edge). Each case is the leaning
stack of :func:`tablesim.sim.crosscheck.cases.leaning_stack` with the piece let go above it;
only the stack is judged.

The answer is the energy bound of :func:`tablesim.sim.experiments.corpus.drop_bound`,
generalised (:func:`landing_bound`): with the piece at rest on the top face at ``(x, y)``, each
joint j's single-hinge barrier ``M_j g (sqrt(d_j^2 + H_j^2) - H_j)`` (d_j the upper part's
centre of mass inside the nearest edge of the joint's shrunk support face, along x or y).

- *stands* when the least barrier over every rest pose the piece can reach (for a tilted
  piece: anywhere between its release centre and where falling flat about its lowest edge
  puts it, and off the stack altogether) is at least ``DROP_RATIO`` times the impact energy
  ``IMPACT_FRACTION m g dz`` (``dz`` the fall of its centre of mass). That is at least
  2.5 m g dz: more than the whole energy the piece brings, so the answer holds for any
  partition of the impact, off-centre or not;
- *topples* when the stack has no equilibrium with the piece at rest at every reachable
  pose (some d_j < -0.5 mm), the piece resting 3 mm or more inside its own support (so it
  stays and its weight does the tipping);
- undecided otherwise (left out here; the MuJoCo witness answers where it is
  step-independent, :mod:`tablesim.sim.experiments.drop_witness`).

:func:`rigid_impact_j` is the other closed form, for a flat landing: rigid-impact theory puts
``(p l_j)^2 / (2 I_j)`` into joint j's hinge (``p = m sqrt(2 g h)`` the piece's momentum, ``l_j``
how far its impact line lies outside the joint's support face, ``I_j`` the upper cubes' moment
of inertia about the hinge edge; 0 for an impact line inside the face). It reproduces the
issue's figures for its case (a domino from 20 mm onto a 9-cube stack leaning to 2.4 mm):
3.8e-7 J at joint 1 against that joint's bare barrier of 1.25e-5 J (``tests/test_landings.py``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tablesim.sim.config import MM, PhysicsConfig
from tablesim.sim.experiments.corpus import (
    DROP_PIECES,
    DROP_RATIO,
    IMPACT_FRACTION,
    Answer,
    Case,
)
from tablesim.sim.model import Scene, ScenePiece, quat_from_euler_deg

OWN_REST_MM = 3.0
"""A toppling landing keeps the piece's centre of mass this far inside the top cube's shrunk
face (mm), so the piece stays where it lands and its weight tips the stack."""
EDGE_REST_MM = 1.0
"""Least distance (mm) of a landing piece's centre of mass from the top face's shrunk edge."""


@dataclass(frozen=True)
class Landing:
    """One drop: stack ``n`` cubes leaning ``frac`` of an edge per cube, ``piece``
    (:data:`DROP_PIECES`), its lowest point ``gap_mm`` above the top face, its centre of mass
    offset ``(ox_mm, oy_mm)`` from the top cube's centre, turned ``tilt_deg`` about x."""

    n: int
    frac: float
    piece: str
    gap_mm: float
    ox_mm: float = 0.0
    oy_mm: float = 0.0
    tilt_deg: float = 0.0

    @property
    def family(self) -> str:
        """``drop-tilted`` for a tilted release, else ``drop-edge``."""
        return "drop-tilted" if self.tilt_deg else "drop-edge"


@dataclass(frozen=True)
class LandingBound:
    """:func:`landing_bound`: the least barrier (J) over the reachable rest poses, the impact
    energy ``IMPACT_FRACTION m g dz`` (J), the worst joint's margin (mm, over the reachable
    poses with the piece on top) and the answer (None: undecided)."""

    barrier_j: float
    impact_j: float
    landed_margin_mm: float
    expected: Answer | None


def _piece(piece: str, cfg: PhysicsConfig) -> tuple[float, float, float]:
    """Cube edge (m), mass (kg) and y extent (m) of a dropped piece (polycubes lie along y)."""
    kind, cells = DROP_PIECES[piece]
    e = cfg.cube_edge(kind)
    ny = 1 + max(y for _, y, _ in cells)
    return e, cfg.density * e**3 * len(cells), ny * e


def joints(n: int, frac: float, cfg: PhysicsConfig,
           piece: tuple[float, float, float, float] | None) -> list[tuple[float, float, float]]:  # fmt: skip
    """Per joint j = 0..n-1 (0: on the table): ``(M_j, d_j, H_j)`` of the upper part (cubes
    j..n-1 and the piece ``(mass, x, y, half height)`` at rest on top, x and y from the top
    cube's centre, or none), d_j its centre of mass
    inside the nearest edge of the joint's shrunk support face (negative past it), H_j its
    height over the joint."""
    a, c = cfg.kozo_cube, cfg.clearance
    s = frac * a
    out = []
    for j in range(n):
        masses = [cfg.density * a**3] * (n - j)
        xs = [k * s for k in range(j, n)]
        ys = [0.0] * (n - j)
        zs = [(k + 0.5) * a for k in range(j, n)]
        if piece is not None:
            mp, px, py, half = piece
            masses.append(mp)
            xs.append((n - 1) * s + px)
            ys.append(py)
            zs.append(n * a + half)
        mass = sum(masses)
        x = sum(m * v for m, v in zip(masses, xs, strict=True)) / mass
        y = sum(m * v for m, v in zip(masses, ys, strict=True)) / mass
        h = sum(m * v for m, v in zip(masses, zs, strict=True)) / mass - j * a
        lo = (j * s if j else 0.0) - a / 2 + c / 2
        hi = ((j - 1) * s if j else 0.0) + a / 2 - c / 2
        out.append((mass, min(x - lo, hi - x, a / 2 - c / 2 - abs(y)), h))
    return out


def _barrier(rows: list[tuple[float, float, float]], g: float) -> tuple[float, float]:
    """The least single-hinge barrier (J; 0 where a joint has no equilibrium) and the worst d."""
    barrier, worst = math.inf, math.inf
    for mass, d, h in rows:
        worst = min(worst, d)
        barrier = min(barrier, mass * g * (math.hypot(d, h) - h) if d > 0 else 0.0)
    return barrier, worst


def tilt_shift(piece: str, tilt_deg: float, cfg: PhysicsConfig) -> tuple[float, float]:
    """For ``piece`` turned ``tilt_deg`` about x: the height of its centre of mass over its
    lowest edge (m), and how far along y falling flat about that edge moves its centre (m):
    ``w/2 (1 - cos t) + e/2 sin t`` for a piece ``w`` long in y and ``e`` high."""
    e, _, w = _piece(piece, cfg)
    t = math.radians(abs(tilt_deg))
    return w / 2 * math.sin(t) + e / 2 * math.cos(t), w / 2 * (1 - math.cos(t)) + e / 2 * math.sin(
        t
    )


def landing_bound(d: Landing, config: PhysicsConfig | None = None) -> LandingBound:
    """The energy bound of a landing (see the module docstring)."""
    cfg = config or PhysicsConfig()
    a, c, g = cfg.kozo_cube, cfg.clearance, cfg.gravity
    e, mp, _ = _piece(d.piece, cfg)
    lift, shift = tilt_shift(d.piece, d.tilt_deg, cfg)
    dz = d.gap_mm * MM + lift - e / 2  # the fall of its centre of mass to rest
    ox, oy = d.ox_mm * MM, d.oy_mm * MM
    side = math.copysign(1.0, d.tilt_deg) if d.tilt_deg else 0.0
    poses = [(ox, oy)] + ([(ox, oy + side * shift)] if shift else [])
    landed = [_barrier(joints(d.n, d.frac, cfg, (mp, x, y, e / 2)), g) for x, y in poses]
    bare, _ = _barrier(joints(d.n, d.frac, cfg, None), g)
    barrier = min(bare, *(b for b, _ in landed))
    worst = min(w for _, w in landed)
    impact = IMPACT_FRACTION * mp * g * dz
    half = a / 2 - c / 2
    own = min(half - abs(x) for x, _ in poses), min(half - abs(y) for _, y in poses)
    expected: Answer | None = None
    if max(w for _, w in landed) < -0.5 * MM and min(own) >= OWN_REST_MM * MM:
        expected = "topples"
    elif worst > 0 and barrier >= DROP_RATIO * impact:
        expected = "stands"
    return LandingBound(barrier, impact, worst / MM, expected)


def rigid_impact_j(d: Landing, config: PhysicsConfig | None = None) -> list[tuple[float, float]]:
    """Rigid-impact theory for a flat landing: per joint, ``(energy put into its hinge (J),
    the bare stack's barrier there (J))`` (see the module docstring; the piece's own inertia
    left out, as the issue's figure is)."""
    cfg = config or PhysicsConfig()
    a, c, g = cfg.kozo_cube, cfg.clearance, cfg.gravity
    _, mp, _ = _piece(d.piece, cfg)
    m = cfg.density * a**3
    s = d.frac * a
    p = mp * math.sqrt(2 * g * d.gap_mm * MM)
    xi = (d.n - 1) * s + d.ox_mm * MM
    out = []
    for j, (mass, dj, h) in enumerate(joints(d.n, d.frac, cfg, None)):
        edge = ((j - 1) * s if j else 0.0) + a / 2 - c / 2  # the hinge the lean tips over
        inertia = sum(m * a * a / 6 + m * ((k * s - edge) ** 2 + ((k - j + 0.5) * a) ** 2)
                      for k in range(j, d.n))  # fmt: skip
        lever = max(0.0, xi - edge)
        out.append(((p * lever) ** 2 / (2 * inertia), mass * g * (math.hypot(dj, h) - h)))
    return out


def landing_scene(d: Landing, config: PhysicsConfig | None = None) -> Scene:
    """The stack with the piece let go: its lowest point ``gap_mm`` above the top face, its
    centre of mass at the offset, turned about x through it; only the stack is judged."""
    from tablesim.sim.crosscheck import cases as cc
    from tablesim.sim.model import quat_to_matrix

    cfg = config or PhysicsConfig()
    a = cfg.kozo_cube
    stack = cc.leaning_stack(d.n, d.frac, cfg).scene
    kind, cells = DROP_PIECES[d.piece]
    e, _, w = _piece(d.piece, cfg)
    lift, _ = tilt_shift(d.piece, d.tilt_deg, cfg)
    com = ((d.n - 1) * d.frac * a + d.ox_mm * MM, d.oy_mm * MM, d.n * a + d.gap_mm * MM + lift)
    q = quat_from_euler_deg(d.tilt_deg, 0.0, 0.0)
    r = quat_to_matrix(q)
    local = (e / 2, w / 2, e / 2)  # the piece frame's centre of mass (cells from the origin)
    pos = tuple(com[i] - sum(r[i][k] * local[k] for k in range(3)) for i in range(3))
    name = (f"{d.family}-{d.piece}-{d.gap_mm:g}mm-on-{d.n}-{d.frac:.5f}"
            f"-at{d.ox_mm:+.1f},{d.oy_mm:+.1f}-t{d.tilt_deg:g}")  # fmt: skip
    dropped = ScenePiece("dropped", cells, kind, (pos[0], pos[1], pos[2]), q)
    return Scene(
        name, stack.pieces + (dropped,), cfg,
        description=f"a {d.piece} let go {d.gap_mm:g} mm above a leaning stack of {d.n} cubes",
        judged=tuple(p.id for p in stack.pieces),
    )  # fmt: skip


def landing_draws(seed: int = 0, draws: int = 4000) -> list[Landing]:
    """Seeded landings: stacks of 3-14 cubes (the leans of
    :func:`tablesim.sim.experiments.corpus.drop_draws`: stack margins -2 to 8.85 mm, a quarter
    straight), every piece, gaps of 5-50 mm (more low ones), the centre of mass anywhere over
    the top face down to :data:`EDGE_REST_MM` from its shrunk edge; half tilted 5-40 degrees
    about x (either way)."""
    from tablesim.games.rng import Rng

    cfg = PhysicsConfig()
    a, c = cfg.kozo_cube, cfg.clearance
    reach = (a / 2 - c / 2) / MM - EDGE_REST_MM
    rng = Rng.from_seed(seed, "corpus-landings")
    out = []
    for _ in range(draws):
        n, rng = rng.choice((3, 4, 5, 9, 14))
        piece, rng = rng.choice(tuple(DROP_PIECES))
        u, rng = rng.random()
        v, rng = rng.random()
        w, rng = rng.random()
        x, rng = rng.random()
        y, rng = rng.random()
        t, rng = rng.random()
        if w < 0.25:
            frac = 0.0
        else:
            m = -2.0 + (a / 2 - c / 2) / MM * u + 2.0 * (1 - u)
            frac = max(0.0, 2 * (a / 2 - c / 2 - m * MM) / (n * a))
        tilt = 0.0 if t < 0.5 else math.copysign(5.0 + 35.0 * (2 * t - 1), y - 0.5)
        out.append(Landing(n, round(frac, 5), piece, round(5.0 + 45.0 * v * v, 1),
                           round(reach * (2 * x - 1), 2), round(reach * (2 * y - 1), 2),
                           round(tilt, 1)))  # fmt: skip
    return out


def decided_landings(seed: int = 0, count: int = 12) -> list[tuple[Landing, Case]]:
    """Seeded decided landings with their parameters: up to ``count`` standing and
    ``count // 2`` toppling ones per family (``drop-edge``, ``drop-tilted``), in draw order,
    grouped by family and answer. Margin: barrier / impact energy (unit ``"ratio"``) for a
    standing one, how far past the edge (mm) for a toppling one."""
    cfg = PhysicsConfig()
    got: dict[tuple[str, str], list[tuple[Landing, Case]]] = {}
    full = {"stands": count, "topples": count // 2}
    for d in landing_draws(seed):
        if len(got) == 4 and all(len(v) >= full[k[1]] for k, v in got.items()):
            break
        b = landing_bound(d, cfg)
        if b.expected is None:
            continue
        room = full[b.expected]
        cell = got.setdefault((d.family, b.expected), [])
        if len(cell) >= room:
            continue
        margin = b.barrier_j / b.impact_j if b.expected == "stands" else -b.landed_margin_mm
        unit = "ratio" if b.expected == "stands" else "mm"
        case = Case(d.family, landing_scene(d, cfg), b.expected, margin, unit)  # type: ignore[arg-type]
        cell.append((d, case))
    return [pair for key in sorted(got) for pair in got[key]]


def landing_cases(seed: int = 0, count: int = 12) -> list[Case]:
    """The cases of :func:`decided_landings`."""
    return [case for _, case in decided_landings(seed, count)]
