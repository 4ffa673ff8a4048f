"""Does the simulation agree with rigid-body mechanics worked out by hand?

Every expected value below comes from theory (an ODE integrated with scipy, a closed formula, or
a centre-of-mass-over-support argument written in the docstring), never from the code's output.
Geometry note used throughout: the world makes every box of a dynamic piece ``clearance``
(0.2 mm) narrower along its horizontal axes, i.e. 0.1 mm off each side face, so the edge of a
dynamic support (or of a piece's own footprint) sits 0.1 mm inside its nominal position. Static
supports (pedestals) keep their exact size. Hand calculations quote margins against the real edge.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from tablesim.sim.config import PhysicsConfig
from tablesim.sim.model import Scene, ScenePiece, quat_from_euler_deg, quat_to_matrix
from tablesim.sim.world import World

CFG = PhysicsConfig()
A = CFG.kozo_cube  # 17.8 mm

G = CFG.gravity
MU = CFG.friction

FALL_TILT_DEG = 15.0
STAND_DISP = 0.5e-3
STAND_TILT_DEG = 1.0


def tower_scene() -> Scene:
    """The shipped ``kozo-tower`` scene."""
    from tablesim.sim.scene import load_scene, shipped_scene_path

    return load_scene(shipped_scene_path("kozo-tower"))


def _box(pid: str, lo: tuple[float, float, float], size: tuple[float, float, float]) -> ScenePiece:
    """A static box piece with minimum corner ``lo`` (m) and full ``size`` (m)."""
    return ScenePiece(pid, ((0, 0, 0),), None, lo, static=True, box=size)


def _piece(pid: str, cells, origin, q=(0.0, 0.0, 0.0, 1.0), cube: str = "kozo") -> ScenePiece:
    return ScenePiece(pid, tuple(cells), cube, tuple(float(v) for v in origin), q)


def outcome(
    scene: Scene,
    profile: str = "verdict",
    seconds: float = 1.5,
    watch: list[str] | None = None,
    time_step: float | None = None,
) -> str:
    """``"falls"`` (a watched piece tilts > 15 deg or drops > a/4 at any check), ``"stands"``
    (every watched piece stays within 0.5 mm and 1 deg throughout) or ``"unclear"``."""
    with World(scene, profile, time_step=time_step) as w:
        idx = [w.piece_ids.index(pid) for pid in (watch or w.piece_ids)]
        z0 = w.com_positions()[idx, 2]
        state = {"tilt": 0.0, "disp": 0.0, "drop": 0.0}

        def track(w: World) -> bool:
            state["tilt"] = max(state["tilt"], float(w.baseline.tilts_deg()[idx].max()))
            state["disp"] = max(state["disp"], float(w.baseline.com_displacements()[idx].max()))
            state["drop"] = max(state["drop"], float((z0 - w.com_positions()[idx, 2]).max()))
            return state["tilt"] > FALL_TILT_DEG or state["drop"] > A / 4

        every = max(1, round(0.01 / w.time_step))
        w.run(seconds, track, every=every)
        track(w)
    if state["tilt"] > FALL_TILT_DEG or state["drop"] > A / 4:
        return "falls"
    if state["disp"] < STAND_DISP and state["tilt"] < STAND_TILT_DEG:
        return "stands"
    return "unclear"


# ---------------------------------------------------------------------- tipping over an edge
BAR_L, BAR_H = 3 * A, A  # kozo 3-cube bar
PEDESTAL = (0.04, 0.04, 0.02)


def overhang_scene(d: float) -> Scene:
    """A 3-cube bar lying along x on a static pedestal whose edge (static: exact size) is at
    x_e = 40 mm; the bar's centre of mass is at x_e + d (d > 0: beyond it)."""
    edge = PEDESTAL[0]
    ped = _box("ped", (0.0, -PEDESTAL[1] / 2, 0.0), PEDESTAL)
    bar = _piece(
        "bar", ((0, 0, 0), (1, 0, 0), (2, 0, 0)), (edge + d - BAR_L / 2, -A / 2, PEDESTAL[2])
    )
    return Scene("overhang", (ped, bar), CFG)


def rigid_tipping(d: float, theta_end_deg: float) -> tuple[float, float]:
    """Rigid-body tipping of the bar about the pedestal edge, from rest.

    Take the pivot at the edge; the COM starts at (d, h/2) from it (x outwards, z up). Turning
    the bar by theta (outer end down) maps a body point (x, z) to (x cos t + z sin t,
    -x sin t + z cos t), so the COM's horizontal lever arm is d cos t + (h/2) sin t and
    I_edge theta'' = m g (d cos theta + (h/2) sin theta), with I_edge = m (L^2 + h^2)/12 +
    m (d^2 + h^2/4) (parallel axes; the bar's width does not enter). (The lever grows with
    theta: tipping over an edge accelerates, whatever the sign convention one writes it in.)

    Returns (time to reach ``theta_end_deg``, the largest |F_t|/F_n the pivot needs on the way):
    the model assumes the bar does not slip on the edge, so that ratio must stay below mu.
    """
    i_edge = (BAR_L**2 + BAR_H**2) / 12 + d * d + BAR_H**2 / 4  # per unit mass

    def rhs(_t: float, y: np.ndarray) -> list[float]:
        th, om = y
        return [om, G * (d * math.cos(th) + BAR_H / 2 * math.sin(th)) / i_edge]

    def reached(_t: float, y: np.ndarray) -> float:
        return y[0] - math.radians(theta_end_deg)

    reached.terminal = True  # type: ignore[attr-defined]
    sol = solve_ivp(
        rhs, (0.0, 5.0), [0.0, 0.0], events=reached, rtol=1e-10, atol=1e-12, dense_output=True
    )
    t_end = float(sol.t_events[0][0])
    worst = 0.0
    for t in np.linspace(0.0, t_end, 400):
        th, om = sol.sol(t)
        al = rhs(t, np.array([th, om]))[1]
        # COM relative to the pivot r(theta) and its derivatives; reaction R = m (a + g z).
        dr = np.array(
            [
                -d * math.sin(th) + BAR_H / 2 * math.cos(th),
                -d * math.cos(th) - BAR_H / 2 * math.sin(th),
            ]
        )
        ddr = np.array(
            [
                -d * math.cos(th) - BAR_H / 2 * math.sin(th),
                d * math.sin(th) - BAR_H / 2 * math.cos(th),
            ]
        )
        reaction = al * dr + om * om * ddr + np.array([0.0, G])
        normal = np.array([math.sin(th), math.cos(th)])  # the bar's bottom face normal
        tangent = np.array([math.cos(th), -math.sin(th)])
        worst = max(worst, abs(reaction @ tangent) / (reaction @ normal))
    return t_end, worst


@pytest.mark.parametrize("d_mm", [1.0, 3.0, 6.0])
def test_tipping_time_matches_rigid_body_theory(d_mm: float) -> None:
    """Time for the bar to tilt 10 deg, simulated (verdict) vs the rigid ODE: within 15 %."""
    d = d_mm * 1e-3
    theta_end = 10.0
    t_theory, friction_needed = rigid_tipping(d, theta_end)
    assert friction_needed < MU  # the no-slip pivot model holds up to 10 deg
    hit: list[float] = []
    with World(overhang_scene(d)) as w:

        def reached(w: World) -> bool:
            if w.baseline.tilts_deg()[0] >= theta_end:
                hit.append(w.time)
                return True
            return False

        w.run(2.0, reached)
    assert hit, "the bar never tipped"
    assert hit[0] == pytest.approx(t_theory, rel=0.15)


# ---------------------------------------------------------------------- sliding
@pytest.mark.parametrize("profile", ["verdict", "display"])
@pytest.mark.parametrize("v0", [0.3, 0.6])
def test_sliding_block_stops_after_v2_over_2_mu_g(profile: str, v0: float) -> None:
    """A cube launched along the table at v0 decelerates at mu g (kinetic friction, mu = 0.45
    between cube and table) and stops after v0^2 / (2 mu g): 10.2 mm at 0.3 m/s, 40.8 mm at
    0.6 m/s. Within 10 %. (Catches Bullet's product rule for friction: two bodies at mu would
    meet at mu^2 and slide more than twice as far.)"""
    cube = _piece("c", ((0, 0, 0),), (0.0, 0.0, 0.0))
    with World(Scene("slide", (cube,), CFG), profile) as w:
        x0 = w.com_positions()[0].copy()
        w.set_velocity("c", (v0, 0.0, 0.0))
        w.run(2 * v0 / (MU * G) + 0.2)  # twice the stopping time, and some
        dist = float(np.linalg.norm(w.com_positions()[0] - x0))
        assert w.speeds()[0] < 1e-3
    assert dist == pytest.approx(v0**2 / (2 * MU * G), rel=0.10)


def _ramp_scene(deg: float) -> Scene:
    """A static 100 x 40 x 20 mm box turned ``deg`` about y (its +x end down), with a cube
    resting on its top face, the cube turned the same."""
    q = quat_from_euler_deg(0.0, deg, 0.0)
    r = quat_to_matrix(q)
    origin = np.array([0.0, -0.02, 0.04])
    ramp = ScenePiece(
        "ramp", ((0, 0, 0),), None, tuple(origin), q, static=True, box=(0.1, 0.04, 0.02)
    )
    top_centre = origin + r @ np.array([0.03, 0.02, 0.02])
    cube = _piece("c", ((0, 0, 0),), top_centre + r @ np.array([-A / 2, -A / 2, 0.0]), q)
    return Scene("ramp", (ramp, cube), CFG)


def test_cube_holds_on_a_15_degree_ramp() -> None:
    """Static friction holds a block on a slope when tan(theta) <= mu: tan 15 deg = 0.268 < 0.45.
    (It would tip only beyond 45 deg, where the COM leaves the base.)"""
    assert outcome(_ramp_scene(15.0), seconds=1.0) == "stands"


def test_cube_slides_down_a_30_degree_ramp_at_g_sin_minus_mu_cos() -> None:
    """tan 30 deg = 0.577 > 0.45, so it slides with a = g (sin 30 - mu cos 30) = 9.81 (0.5 -
    0.45 * 0.866) = 1.082 m/s^2 along the slope, reaching 20 mm in sqrt(2 * 0.02 / a) = 0.192 s.
    Within 10 %."""
    th = math.radians(30.0)
    acc = G * (math.sin(th) - MU * math.cos(th))
    t_theory = math.sqrt(2 * 0.02 / acc)
    hit: list[float] = []
    with World(_ramp_scene(30.0)) as w:

        def reached(w: World) -> bool:
            if w.baseline.com_displacements()[0] >= 0.02:
                hit.append(w.time)
                return True
            return False

        w.run(1.0, reached)
    assert hit and hit[0] == pytest.approx(t_theory, rel=0.10)


# ---------------------------------------------------------------------- step and profile robustness
@pytest.mark.parametrize("d_mm", [-3.0, -1.0, 1.0, 3.0])
def test_verdict_does_not_change_when_the_step_is_halved(d_mm: float) -> None:
    """The overhanging bar falls exactly when its COM is beyond the edge (d > 0), at 1 ms and at
    0.5 ms alike."""
    expected = "falls" if d_mm > 0 else "stands"
    scene = overhang_scene(d_mm * 1e-3)
    assert outcome(scene, time_step=1e-3) == expected
    assert outcome(scene, time_step=5e-4) == expected


@pytest.mark.parametrize("margin_cubes", [-0.25, -0.1, 0.1, 0.25])
def test_display_and_verdict_agree_for_clear_margins(margin_cubes: float) -> None:
    """Overhang of +-0.1 and +-0.25 cube edge (1.8 and 4.5 mm): both profiles give the rigid
    answer (beyond the edge falls, inside stands)."""
    expected = "falls" if margin_cubes > 0 else "stands"
    scene = overhang_scene(margin_cubes * A)
    assert outcome(scene, "verdict") == expected
    assert outcome(scene, "display") == expected


# ---------------------------------------------------------------------- calm tower
def test_resting_tower_is_calm_in_both_profiles() -> None:
    """Issue #19 goal 4 (and targets T1-T3 of the research): from its release the tower stays
    calm over the 5 s Kozo window in the verdict profile (no anchors, no sleeping) and over
    10 s in the display profile; nowhere more than 0.2 mm of interpenetration; everything
    finite (a blow-up would raise).

    Where the bounds come from (not from one machine's bits: the verdict tower's drift is the
    sum of tiny slips at 19 friction contacts and changes with the last bits of its inputs,
    measured 0.08 mm and 0.24 mm for two body-frame roundings of the same pieces, 0.24 mm on an
    AVX-512 Xeon before the inputs were made CPU-independent):
    - verdict: below the verdict's own "stands" bound, ``EarlyStop.max_move`` = 0.5 mm: beyond
      it a piece is no longer where statics proved it in equilibrium, and a verdict would not
      stop early on it; a resting tower calmer than that is never misjudged, which is what the
      claim is for;
    - display: 0.1 mm, under half a pixel of a view 0.5 m wide on 1920 px (0.26 mm per
      pixel): a resting tower that visibly creeps fails;
    - penetration: 0.2 mm, the clearance between pieces (sim.config): deeper and neighbours
      that should slide past each other interlock."""
    from tablesim.sim.verdict import EarlyStop

    verdict_limit = EarlyStop().max_move
    scene = tower_scene()
    pen = {"max": 0.0}

    def watch_pen(w: World) -> None:
        pen["max"] = max(pen["max"], w.contacts.max_penetration())

    with World(scene, "verdict") as w:
        w.run(5.0, watch_pen, every=50)
        assert w.baseline.com_displacements().max() < verdict_limit
        assert np.isfinite(w.pose_array()).all()
    with World(scene, "display") as w:
        w.run(10.0, watch_pen, every=96)
        assert w.baseline.com_displacements().max() < 0.1e-3
        assert np.isfinite(w.pose_array()).all()
    assert pen["max"] < 0.2e-3


# ---------------------------------------------------------------------- analytic stand / topple cases
BAR3 = ((0, 0, 0), (1, 0, 0), (2, 0, 0))


@pytest.mark.parametrize(("offset", "expected"), [(0.3, "stands"), (0.7, "falls")])
def test_bar_on_a_cube(offset: float, expected: str) -> None:
    """A 3-cube bar centred ``offset`` * a beside the centre of a cube that rests on the table.

    The bar can only turn about the cube's top edge, at a/2 - 0.1 mm = 8.8 mm from the cube's
    centre. offset 0.3: COM at 5.34 mm, 3.5 mm inside -> stands (the pair's common COM is at
    3/4 * 5.34 = 4.0 mm, inside the cube's base too). offset 0.7: COM at 12.46 mm, 3.7 mm
    beyond -> the bar topples.
    """
    cube = _piece("base", ((0, 0, 0),), (0.0, 0.0, 0.0))
    bar = _piece("bar", BAR3, (A / 2 + offset * A - 1.5 * A, 0.0, A))
    assert outcome(Scene("bar-on-cube", (cube, bar), CFG), watch=["bar"]) == expected


@pytest.mark.parametrize(
    ("name", "cells", "expected"),
    [
        ("3L", ((0, 0, 0), (1, 0, 0), (0, 1, 0)), "stands"),
        ("4L", ((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0)), "falls"),
    ],
)
def test_gamma_piece_on_one_cube(name: str, cells: tuple, expected: str) -> None:
    """An L piece stood up as a Gamma: turned -90 deg about x, its cell (0,1) becomes the single
    foot (x in [0, a]) and the row y = 0 the arm on top. COM x (units of a):
    3L: (0.5 [foot] + 0.5 + 1.5) / 3 = 0.833 -> inside the foot [0.0056, 0.9944] (0.1 mm insets)
    by 0.161 a = 2.9 mm -> stands. 4L: (0.5 + 0.5 + 1.5 + 2.5) / 4 = 1.25 -> beyond the foot by
    0.256 a = 4.6 mm -> falls.
    """
    q = quat_from_euler_deg(-90.0, 0.0, 0.0)  # (x, y, z) -> (x, z, -y): cell row y=1 at the bottom
    piece = _piece(name, cells, (0.0, 0.0, 2 * A), q)
    assert outcome(Scene("gamma", (piece,), CFG)) == expected


@pytest.mark.parametrize(("k", "expected"), [(0, "falls"), (1, "falls"), (4, "stands")])
def test_cantilever_with_counterweight(k: int, expected: str) -> None:
    """A 3-cube bar (x in [0, 3a]) on a static pedestal that reaches x = 1.1 a (static: exact),
    with a column of k cubes (one piece) standing on its first cell (COM at x = a/2).

    Common COM: x = (3 m * 1.5 a + k m * 0.5 a) / ((3 + k) m).
    k = 0: 1.5 a, 0.4 a (7.2 mm) beyond the edge -> falls.
    k = 1: 5 a / 4 = 1.25 a, 0.15 a (2.8 mm) beyond -> falls.
    k = 4: 6.5 a / 7 = 0.929 a, 0.171 a = 3.0 mm inside -> stands.
    (k = 3 gives exactly 1.0 a: a near-critical case, deliberately not tested.)
    """
    ped = _box("ped", (-0.03, -0.02, 0.0), (0.03 + 1.1 * A, 0.04, 0.03))
    pieces = [ped, _piece("bar", BAR3, (0.0, -A / 2, 0.03))]
    if k:
        pieces.append(_piece("weight", ((0, 0, z) for z in range(k)), (0.0, -A / 2, 0.03 + A)))
    assert outcome(Scene("cantilever", tuple(pieces), CFG), watch=["bar"]) == expected


@pytest.mark.parametrize(
    ("offset_mm", "expected"), [(0.0, "stands"), (3.0, "stands"), (8.0, "falls")]
)
def test_long_bar_on_a_narrow_pedestal(offset_mm: float, expected: str) -> None:
    """A 5-cube bar (89 mm) balanced on a static pedestal 10 mm wide (static: exact, +-5 mm).
    COM over the centre: 5 mm margin -> stands; 3 mm off: 2 mm inside -> stands; 8 mm off:
    3 mm beyond -> falls."""
    ped = _box("ped", (-0.005, -0.015, 0.0), (0.01, 0.03, 0.03))
    bar = _piece("bar", ((i, 0, 0) for i in range(5)), (offset_mm * 1e-3 - 2.5 * A, -A / 2, 0.03))
    assert outcome(Scene("narrow", (ped, bar), CFG)) == expected


@pytest.mark.parametrize(("s1", "s2", "expected"), [(0.2, 0.4, "stands"), (0.45, 0.4, "falls")])
def test_staircase_of_three_cubes(s1: float, s2: float, expected: str) -> None:
    """Three cubes on the table, the middle shifted s1 * a in x over the bottom one, the top one
    s2 * a over the middle (the 'book stacking' problem). Each block's support edge is at
    0.5 a - 0.1 mm = 8.8 mm from its centre.

    Top over middle: its COM s2 a from the middle's centre must be < 0.5 a - 0.1 mm.
    Top + middle over bottom: their common COM at (s1 + (s1 + s2)) / 2 * a must be too.
    (0.2, 0.4): 0.4 a and (0.2 + 0.6)/2 = 0.4 a, both 1.68 mm inside -> stands.
    (0.45, 0.4): 0.4 a (inside) but (0.45 + 0.85)/2 = 0.65 a, 2.77 mm beyond -> the upper two
    fall together although each cube alone rests on the one below.
    """
    pieces = (
        _piece("bottom", ((0, 0, 0),), (0.0, 0.0, 0.0)),
        _piece("middle", ((0, 0, 0),), (s1 * A, 0.0, A)),
        _piece("top", ((0, 0, 0),), ((s1 + s2) * A, 0.0, 2 * A)),
    )
    assert outcome(Scene("staircase", pieces, CFG), watch=["middle", "top"]) == expected


@pytest.mark.parametrize(
    ("support", "expected"),
    [
        (((0.0, 3.0), (0.0, 1.0)), "stands"),
        (((1.0, 2.0), (1.0, 2.0)), "falls"),
    ],
)
def test_t_tetromino_over_a_gap(support: tuple, expected: str) -> None:
    """A flat T (cells (0,0), (1,0), (2,0), (1,1)) lying on one static block; COM at
    ((0.5 + 1.5 + 2.5 + 1.5)/4, (0.5 * 3 + 1.5)/4) = (1.5, 0.75) a.
    The T's own boxes are 0.1 mm narrower per side face (it is dynamic); the block is exact.
    Block under the bar row (x in [0, 3a], y in [0, a]): the support ends at the bar's own face
    y = a - 0.1 mm, so 0.75 a is 0.25 a - 0.1 mm = 4.35 mm inside -> stands (the stem hangs over the gap, as in the Kozo chimney).
    Block under the stem only (x, y in [a, 2a]): the support starts at the stem's own face
    y = a + 0.1 mm, so 0.75 a is 0.25 a + 0.1 mm = 4.55 mm short of it -> falls.
    """
    (x0, x1), (y0, y1) = support
    ped = _box("ped", (x0 * A, y0 * A, 0.0), ((x1 - x0) * A, (y1 - y0) * A, 0.03))
    t = _piece("T", ((0, 0, 0), (1, 0, 0), (2, 0, 0), (1, 1, 0)), (0.0, 0.0, 0.03))
    assert outcome(Scene("t-over-gap", (ped, t), CFG)) == expected
