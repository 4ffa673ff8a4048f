"""Generated scenes with answers known without the simulation (issue #31).

Each generator returns :class:`Case` objects: a scene, the answer a method independent of the
dynamics gives (a closed form derived in the generator's docstring), and the margin of that
answer (how far the scene is from the boundary between the answers, in mm or degrees).
``bench/corpus.py`` runs them through the verdict and reports accuracy per family and margin.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

from tablesim.sim.config import MM, PhysicsConfig
from tablesim.sim.model import Scene, ScenePiece

Answer = Literal["stands", "topples"]

I4 = ((0, 0, 0), (1, 0, 0), (2, 0, 0), (3, 0, 0))
T = TypeVar("T")


@dataclass(frozen=True)
class Case:
    """One corpus scene: ``family``, the ``scene``, its ``expected`` answer, and the answer's
    ``margin`` in ``unit`` (``"mm"`` or ``"deg"``) from the boundary between the answers, or
    (``"ratio"``, standing drops) the stack's tipping barrier over the impact energy."""

    family: str
    scene: Scene
    expected: Answer
    margin: float
    unit: Literal["mm", "deg", "ratio"]


def _static_box(
    pid: str, lo: tuple[float, float, float], size: tuple[float, float, float], friction: float
) -> ScenePiece:
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
) -> Case | None:
    """An I4 Kozo plank leaning ``theta_deg`` with its foot edge on a static step and its
    underside on a static block's top edge (a ladder on a ledge).

    The step is ``step_mm`` wide (along x) and 10 mm high, the foot in its middle; the block's
    top edge is ``reach`` cube edges along the underside from the foot. Every piece has friction
    ``mu`` (so every pair meets at mu). Expected answer: :func:`plank_stands` (stands), or
    topples when it slips at every pose its foot passes through until it leaves the step; None
    when it slips and then holds again on the step (see below). Margin:
    :func:`plank_margin_deg`, for a toppling plank the smallest over those poses."""
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
    # Sliding, the foot moves along the step (the edge fixed): the lean falls and the reach
    # grows, so the plank may hold again before the foot leaves the step. Topples only when
    # it slips at every pose until then; a plank that slips and then holds on the step is
    # decided by its momentum, no closed form: such scenes are None (the caller skips them).
    rise, run = edge_z - foot_z, edge_x - foot_x
    poses = []
    for k in range(21):
        u = (step_mm * MM / 2) * k / 20  # foot displacement along -x
        poses.append((math.degrees(math.atan2(rise, run + u)), math.hypot(rise, run + u) / a))
    holds = [plank_stands(th, r, mu) for th, r in poses]
    stands = holds[0]
    if not stands and any(holds):
        return None
    margin = (
        plank_margin_deg(theta_deg, reach, mu)
        if stands
        else min(plank_margin_deg(th, r, mu) for th, r in poses)
    )
    scene = Scene(
        f"plank-{theta_deg:g}deg-step{step_mm:g}mm-mu{mu:g}",
        (step, block, plank),
        cfg,
        description="an I4 plank leaning on a block's edge, its foot on a narrow step",
    )
    return Case("tilted-rest", scene, "stands" if stands else "topples", margin, "deg")


def block(nx: int, ny: int, nz: int) -> tuple[tuple[int, int, int], ...]:
    """The cells of an ``nx`` x ``ny`` x ``nz`` block."""
    return tuple((i, j, k) for k in range(nz) for j in range(ny) for i in range(nx))


def heavy_on_light(
    dims: tuple[int, int, int], inside_mm: float, config: PhysicsConfig | None = None
) -> Case:
    """A block of Kozo cubes (``dims`` cubes along x, y, z) resting on one balance cube on the
    table, the block's centre of mass ``inside_mm`` inside the cube's +x edge (centred in y).

    Mass ratio: cubes x (17.8 / 10.2)^3 = 5.31 per Kozo cube (42.5 for 2x2x2). Expected answer
    (rigid statics, as the world builds it): the balance cube loses clearance / 2 = 0.1 mm off
    each side face, so its top face's edge is 0.1 mm further in; the block stands iff its centre
    of mass is inside that edge (the pair's common centre of mass then lies inside the cube's
    base, under the same edge), margin ``inside_mm - 0.1`` mm."""
    cfg = config or PhysicsConfig()
    a, b = cfg.kozo_cube, cfg.cube_edge("balance")
    nx, ny, nz = dims
    cube = ScenePiece("cube", ((0, 0, 0),), "balance", (0.0, 0.0, 0.0))
    x0 = b - inside_mm * MM - nx * a / 2
    top = ScenePiece("block", block(nx, ny, nz), "kozo", (x0, b / 2 - ny * a / 2, b))
    margin = inside_mm - cfg.clearance / 2 / MM
    scene = Scene(f"heavy-{nx}x{ny}x{nz}-on-balance-{inside_mm:g}mm", (cube, top), cfg)
    return Case("heavy-on-light", scene, "stands" if margin > 0 else "topples", abs(margin), "mm")


BAR3 = ((0, 0, 0), (1, 0, 0), (2, 0, 0))


def bar_on_slope(theta_deg: float, mu: float, config: PhysicsConfig | None = None) -> Case:
    """A 3-cube Kozo bar lying along the fall line of a static slab tilted ``theta_deg``, every
    piece at friction ``mu``. Expected answer (the friction angle): it stays while
    tan(theta) <= mu, else it slides down, off the slab's lower edge 23 mm away (its centre of
    mass drops past half an edge first); margin ``|theta - atan(mu)|`` degrees. It cannot tip:
    its centre of mass, half an edge above the slab, stays over its 3-edge base up to
    tan(theta) = 3."""
    cfg = config or PhysicsConfig()
    a = cfg.kozo_cube
    t = math.radians(theta_deg)
    q = (0.0, math.sin(-t / 2), 0.0, math.cos(-t / 2))  # +x rises
    length, width, thick = 100 * MM, 3 * a, 10 * MM
    origin = (0.0, -width / 2, 0.0)
    slab = ScenePiece(
        "slab", ((0, 0, 0),), None, origin, q, static=True, box=(length, width, thick), friction=mu
    )
    lx, ly, lz = length / 2 - 1.5 * a, width / 2 - a / 2, thick  # in the slab's frame
    pos = (lx * math.cos(t) - lz * math.sin(t), origin[1] + ly, lx * math.sin(t) + lz * math.cos(t))
    bar = ScenePiece("bar", BAR3, "kozo", pos, q, friction=mu)
    limit = math.degrees(math.atan(mu))
    scene = Scene(f"slope-{theta_deg:.2f}deg-mu{mu:g}", (slab, bar), cfg)
    return Case(
        "slope", scene, "stands" if theta_deg <= limit else "topples", abs(theta_deg - limit), "deg"
    )


MARGIN_BINS = (0.0, 0.2, 0.5, 1.0, 2.0, math.inf)
"""Edges of the margin bins (mm, or degrees for angle families): < 0.2, 0.2-0.5, 0.5-1, 1-2,
> 2."""


RATIO_BINS = (10.0, 30.0, 100.0, math.inf)
"""Edges of the energy-ratio bins (barrier / impact energy) of standing drops: 10-30, 30-100,
> 100 (below :data:`DROP_RATIO` the bound does not decide)."""


def margin_bin(margin: float, unit: str = "mm") -> str:
    """The bin label of ``margin`` (:data:`MARGIN_BINS`; for ``unit="ratio"``
    :data:`RATIO_BINS`, labelled ``"E/10-30"`` etc.)."""
    if unit == "ratio":
        for k in range(len(RATIO_BINS) - 1):
            if margin < RATIO_BINS[k + 1]:
                hi = RATIO_BINS[k + 1]
                return f"x{RATIO_BINS[k]:g}-{hi:g}" if hi < math.inf else f"x>{RATIO_BINS[k]:g}"
        return f"x>{RATIO_BINS[-2]:g}"
    labels = ("<0.2", "0.2-0.5", "0.5-1", "1-2", ">2")
    for k in range(len(labels)):
        if margin < MARGIN_BINS[k + 1]:
            return labels[k]
    return labels[-1]


def generate(seed: int = 0, per_bin: int = 2) -> list[Case]:
    """The corpus: per family and margin bin ``per_bin`` cases on each side of the boundary
    (stands and topples where the family has both), margins drawn uniformly in the bin from
    a seeded stream (``tablesim.games.rng.Rng``; ">2" draws from 2-5). Families: straight stacks of
    3-30 loose Kozo cubes; leaning stacks of 3-20 (margin formula of
    :func:`tablesim.sim.crosscheck.cases.leaning_stack`); bridges and cantilevers
    (:mod:`tablesim.sim.crosscheck.cases`); heavy on light (:func:`heavy_on_light`, mass ratios 5-96);
    tilted rests on an edge and a step (:func:`leaning_plank`); bars on slopes
    (:func:`bar_on_slope`)."""
    from tablesim.games.rng import Rng
    from tablesim.sim.crosscheck import cases as cc

    rng = Rng.from_seed(seed, "corpus")
    out: list[Case] = []

    def draw(k: int) -> float:
        nonlocal rng
        u, rng = rng.random()
        lo, hi = MARGIN_BINS[k], min(MARGIN_BINS[k + 1], 5.0)
        return lo + (hi - lo) * u if k else max(0.02, hi * u)  # never exactly on the edge

    def pick(items: Sequence[T]) -> T:
        nonlocal rng
        item, rng = rng.choice(items)
        return item

    for n in (3, 5, 10, 20, 30):
        c = cc.leaning_stack(n, 0.0)
        out.append(Case("straight-stack", c.scene, "stands", c.margin_mm, "mm"))
    for k in range(len(MARGIN_BINS) - 1):
        for _ in range(per_bin):
            for sign in (1.0, -1.0):
                m = sign * draw(k)
                n = pick((3, 5, 9, 14, 20))
                c = cc.leaning_for_margin(n, m)
                out.append(Case("leaning-stack", c.scene, c.expected, abs(m), "mm"))  # type: ignore[arg-type]
                c = cc.cantilever(sign * draw(k))
                out.append(Case("bridge-cantilever", c.scene, c.expected, abs(c.margin_mm), "mm"))  # type: ignore[arg-type]
                dims = pick(((1, 1, 1), (2, 1, 1), (2, 2, 1), (2, 2, 2), (3, 2, 2), (3, 3, 2)))
                # the stand/topple boundary is 0.1 mm inside the exact edge (the shrink)
                out.append(heavy_on_light(dims, 0.1 + sign * draw(k)))
                mu = pick((0.3, 0.45))
                lim = math.degrees(math.atan(mu))
                out.append(bar_on_slope(lim - sign * draw(k), mu))
    for theta in (20.0, 25.0, 30.0, 35.0):
        for mu in (0.2, 0.25, 0.3, 0.45):
            for step in (4.0, 8.0, 17.8):
                plank = leaning_plank(theta, step, mu)
                if plank is not None:
                    out.append(plank)
    for off in (0.0, 20.0, 30.0):
        c = cc.bridge(off)
        out.append(Case("bridge-cantilever", c.scene, c.expected, abs(c.margin_mm), "mm"))  # type: ignore[arg-type]
    return out


DROP_PIECES: dict[str, tuple[str, tuple[tuple[int, int, int], ...]]] = {
    "cube": ("kozo", ((0, 0, 0),)),
    "domino": ("kozo", ((0, 0, 0), (0, 1, 0))),
    "I3": ("kozo", ((0, 0, 0), (0, 1, 0), (0, 2, 0))),
    "balance-cube": ("balance", ((0, 0, 0),)),
    "balance-domino": ("balance", ((0, 0, 0), (0, 1, 0))),
}
"""The dropped pieces: cube kind and cells. Polycubes lie flat along y (across the lean), so
their centre of mass lands on the top cube's centre line and they rest on it."""

IMPACT_FRACTION = 0.25
"""Share of the impact energy ``m g h`` that :func:`drop_on_stack` lets reach the stack: e^2
for a restitution e <= 0.5 of wood on wood (what is not dissipated in the impact). Rigid-impact
theory gives 0 for a flat landing whose impulse line lies inside every joint's support face
(the contacts take the impulse, nothing rotates): the fraction is a generous upper bound."""

DROP_RATIO = 10.0
"""How far apart the two energies must be for the bound to decide: a stack stands when its
tipping barrier is at least this many times the impact energy that reaches it."""


@dataclass(frozen=True)
class DropBound:
    """The energy bound of a drop (:func:`drop_bound`): the stack's tipping barrier with the
    piece resting on top (J, 0 or less where a joint has no equilibrium), the impact energy
    ``IMPACT_FRACTION m g h`` (J), the worst joint's margin after landing (mm, negative past the
    edge), and the answer (None: between the bounds, undecided)."""

    barrier_j: float
    impact_j: float
    landed_margin_mm: float
    expected: Answer | None


def drop_bound(
    n: int, frac: float, piece: str, height_mm: float, config: PhysicsConfig | None = None
) -> DropBound:
    """The energy bound for ``piece`` (:data:`DROP_PIECES`) let go ``height_mm`` above the top
    of the leaning stack ``tablesim.sim.crosscheck.cases.leaning_stack(n, frac)``.

    With the piece at rest on the top cube (its centre of mass over the top cube's centre), the
    joint under cube j (j = 1..n-1; j = 0 the table) carries the cubes j..n-1 and the piece, of
    mass M_j and centre of mass at height H_j over the joint and horizontal distance d_j inside
    the nearest edge of the joint's support face (the overlap of the two cubes' faces, each
    shrunk by clearance / 2 a side). Rotating that part rigidly about the edge raises its
    centre of mass by sqrt(d^2 + H^2) - H: the barrier is min_j M_j g (sqrt(d_j^2 + H_j^2) -
    H_j) (single-hinge mechanisms; the piece is taken as part of the upper body). Answer:
    ``topples`` when some d_j < 0 (no equilibrium after landing: the statics of the landed
    scene, checked against the LP in tests); ``stands`` when the barrier is at least
    :data:`DROP_RATIO` times ``IMPACT_FRACTION m g h``; else None."""
    cfg = config or PhysicsConfig()
    a, c, g = cfg.kozo_cube, cfg.clearance, cfg.gravity
    kind, cells = DROP_PIECES[piece]
    e = cfg.cube_edge(kind)
    m_cube, m_piece = cfg.density * a**3, cfg.density * e**3 * len(cells)
    s = frac * a
    top = n * a  # the top face of the stack
    z_piece = top + e / 2  # its centre of mass at rest on top
    barrier, worst = math.inf, math.inf
    for j in range(n):
        masses = [m_cube] * (n - j) + [m_piece]
        xs = [k * s for k in range(j, n)] + [(n - 1) * s]
        zs = [(k + 0.5) * a for k in range(j, n)] + [z_piece]
        mass = sum(masses)
        x = sum(mi * xi for mi, xi in zip(masses, xs, strict=True)) / mass
        h = sum(mi * zi for mi, zi in zip(masses, zs, strict=True)) / mass - j * a
        lo = (j * s if j else 0.0) - a / 2 + c / 2  # support face along x: the overlap
        hi = ((j - 1) * s if j else 0.0) + a / 2 - c / 2
        d = min(x - lo, hi - x, a / 2 - c / 2)  # (centred in y: a/2 - c/2 across)
        worst = min(worst, d)
        rise = math.hypot(d, h) - h if d > 0 else 0.0
        barrier = min(barrier, mass * g * rise)
    impact = IMPACT_FRACTION * m_piece * g * height_mm * MM
    expected: Answer | None
    if worst < 0:
        expected = "topples"
    elif barrier >= DROP_RATIO * impact:
        expected = "stands"
    else:
        expected = None
    return DropBound(barrier, impact, worst / MM, expected)


def landed_scene(
    n: int, frac: float, piece: str, gap_mm: float, config: PhysicsConfig | None = None
) -> Scene:
    """The leaning stack of :func:`drop_bound` with ``piece`` centred over its top cube (in x
    and y), its underside ``gap_mm`` above the top face (0: at rest on it); only the stack is
    judged (:attr:`tablesim.sim.model.Scene.judged`)."""
    from tablesim.sim.crosscheck import cases as cc

    cfg = config or PhysicsConfig()
    a = cfg.kozo_cube
    stack = cc.leaning_stack(n, frac, cfg).scene
    kind, cells = DROP_PIECES[piece]
    e = cfg.cube_edge(kind)
    ny = 1 + max(y for _, y, _ in cells)
    pos = ((n - 1) * frac * a - e / 2, -ny * e / 2, n * a + gap_mm * MM)
    dropped = ScenePiece("dropped", cells, kind, pos)
    return Scene(
        f"drop-{piece}-{gap_mm:g}mm-on-{n}-{frac:.5f}",
        stack.pieces + (dropped,),
        cfg,
        description=f"a {piece} let go {gap_mm:g} mm above a leaning stack of {n} cubes",
        judged=tuple(p.id for p in stack.pieces),
    )


def drop_on_stack(
    n: int, frac: float, piece: str, height_mm: float, config: PhysicsConfig | None = None
) -> Case | None:
    """A drop case: :func:`landed_scene` at ``height_mm``, the answer of :func:`drop_bound`;
    None where the bound does not decide (the caller leaves such scenes out). Margin: for a
    standing stack the ratio barrier / impact energy (unit ``"ratio"``), for a toppling one
    how far past the edge the worst joint's centre of mass lands (mm)."""
    b = drop_bound(n, frac, piece, height_mm, config)
    if b.expected is None:
        return None
    scene = landed_scene(n, frac, piece, height_mm, config)
    if b.expected == "stands":
        return Case("drop", scene, "stands", b.barrier_j / b.impact_j, "ratio")
    return Case("drop", scene, "topples", -b.landed_margin_mm, "mm")


def drop_draws(seed: int = 0, draws: int = 4000) -> list[tuple[int, float, str, float]]:
    """The seeded drops behind :func:`drop_cases`, decided or not: ``(n, frac, piece,
    height_mm)`` for stacks of 3-14 cubes, leans giving a stack margin of -2-8.85 mm (a
    quarter straight), every piece of :data:`DROP_PIECES`, drops of 5-50 mm (more low ones:
    they are the ones the bound decides)."""
    from tablesim.games.rng import Rng

    cfg = PhysicsConfig()
    a, c = cfg.kozo_cube, cfg.clearance
    rng = Rng.from_seed(seed, "corpus-drops")
    out = []
    for _ in range(draws):
        n, rng = rng.choice((3, 4, 5, 9, 14))
        piece, rng = rng.choice(tuple(DROP_PIECES))
        u, rng = rng.random()
        v, rng = rng.random()
        h = 5.0 + 45.0 * v * v
        w, rng = rng.random()
        if w < 0.25:
            frac = 0.0
        else:  # stack margin a/2 - c/2 - n s / 2 from -2 mm to 8.85 mm
            m = -2.0 + (a / 2 - c / 2) / MM * u + 2.0 * (1 - u)
            frac = max(0.0, 2 * (a / 2 - c / 2 - m * MM) / (n * a))
        out.append((n, round(frac, 5), piece, round(h, 1)))
    return out


def drop_cases(seed: int = 0, count: int = 24) -> list[Case]:
    """Seeded drop cases: up to ``count`` standing and ``count // 2`` toppling ones from
    :func:`drop_draws`; undecided draws are skipped (they are most: with the bound's generous
    fraction only light pieces from low drops onto short stacks decide)."""
    cfg = PhysicsConfig()
    stands: list[Case] = []
    topples: list[Case] = []
    for n, frac, piece, h in drop_draws(seed):
        if len(stands) >= count and len(topples) >= count // 2:
            break
        case = drop_on_stack(n, frac, piece, h, cfg)
        if case is None:
            continue
        if case.expected == "stands" and len(stands) < count:
            stands.append(case)
        elif case.expected == "topples" and len(topples) < count // 2 and case.margin >= 0.5:
            topples.append(case)
    return stands + topples
