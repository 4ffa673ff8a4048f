"""The topple rule's contact clause against the clearance shrink, and the fall reasons (issue #31).

A leaning I4 plank (sim/experiments/corpus.py ``leaning_plank``): its foot edge on a narrow
static step, its underside on a static block's top edge. The world takes clearance / 2 = 0.1 mm
off each end of the plank (its long axis is horizontal by the world's 45-degree test), which
lifts the foot 0.1 sin(theta) = 0.03-0.05 mm off the step; the plank settles onto it at once.
That contact is the scene's own, so the rule must not call it a fall ("touched step").

Expected answers from rigid-body statics in closed form (``plank_stands``, derived in its
docstring): with every pair at mu = 0.45 the plank stands at every lean of the family (the
edge's friction along the plank takes the normal force's push while tan(theta) <= mu, and the
slip load k sin(theta) (1 + mu^2) stays below mu beyond it); at mu = 0.25 and 30 degrees on a 4 mm
step it slips at every pose until its foot leaves the step (margin 6.3 degrees) and falls.

Cost: about 3 s (one-body worlds, 1 s windows).
"""

from __future__ import annotations

import numpy as np
import pytest

from tablesim.sim.config import PhysicsConfig
from tablesim.sim.experiments.corpus import leaning_plank, plank_margin_deg, plank_stands
from tablesim.sim.verdict import ToppleRule, fall_reason, simulate
from tablesim.sim.world import CONTACT_TOLERANCE, shrink_shift

FAMILY = [(theta, step) for theta in (20.0, 24.0, 28.0) for step in (4.0, 8.0, 17.8)]


def test_closed_form_family() -> None:
    """The family's answers: stands at mu = 0.45 (never slips), slips at mu = 0.25, 30 deg."""
    for theta, _ in FAMILY:
        assert plank_stands(theta, 2.6, 0.45)
    assert not plank_stands(30.0, 2.6, 0.25)
    assert plank_margin_deg(30.0, 2.6, 0.25) > 5.0


def test_shrink_shift_is_the_corner_shift() -> None:
    """clearance / sqrt 2 (a corner with two shrunk horizontal axes) plus the tolerance."""
    cfg = PhysicsConfig()
    assert shrink_shift(cfg) == pytest.approx(0.2e-3 / np.sqrt(2) + CONTACT_TOLERANCE)


@pytest.mark.parametrize(("theta", "step"), FAMILY)
def test_leaning_plank_stands(theta: float, step: float) -> None:
    """Settling onto the step the shrink lifted it off is no fall (verdict profile)."""
    case = leaning_plank(theta, step)
    assert case is not None and case.expected == "stands"
    v = simulate(case.scene, replicas=2, seconds=1.0, method="simulate", workers=1)
    assert v.verdict == "stands", v.explanation
    assert v.topple_probability == 0.0


@pytest.mark.parametrize(
    ("profile", "step_s"), [("verdict", 0.5e-3), ("display", None), ("exact", None)]
)
def test_leaning_plank_every_profile(profile: str, step_s: float | None) -> None:
    """The family's narrowest step at the other profiles and a halved step: stands; the plank
    past its slip limit slides off the step (a fall) at every one of them."""
    for theta in (20.0, 28.0):
        case = leaning_plank(theta, 4.0)
        assert case is not None
        v = simulate(case.scene, replicas=1, seconds=1.0, method="simulate", workers=1,
                     profile=profile, time_step=step_s)  # fmt: skip
        assert v.verdict == "stands", (profile, theta, v.explanation)
    slip = leaning_plank(30.0, 4.0, mu=0.25)
    assert slip is not None and slip.expected == "topples" and slip.margin > 5.0
    v = simulate(slip.scene, replicas=1, seconds=1.0, method="simulate", workers=1,
                 profile=profile, time_step=step_s)  # fmt: skip
    assert v.verdict == "topples", (profile, v.explanation)
    # it slid off: the plank moved far more than the shrink could explain
    assert v.pieces[0].displacement_mm is not None and v.pieces[0].displacement_mm > 2.0


def test_fall_reason_dominant() -> None:
    """The clause passed by the larger fraction of its limit names the fall."""
    rule = ToppleRule()
    a = PhysicsConfig().kozo_cube
    limit = rule.drop_fraction * a  # 8.9 mm
    # tipped 22 degrees about an edge, the centre of mass 1.3 mm higher: tilted
    assert fall_reason(-1.3e-3, limit, 22.0, rule.tilt_deg) == "tilted 22 deg"
    # dropped 20 mm (2.2 x its limit) while tilted 25 degrees (1.25 x): dropped
    assert fall_reason(20e-3, limit, 25.0, rule.tilt_deg) == "dropped 20.0 mm"
    # a single cube (tilt not judged) that dropped
    assert fall_reason(10e-3, limit, 0.0, rule.tilt_deg) == "dropped 10.0 mm"


def test_table_watch_names_a_tipping_piece_tilted() -> None:
    """The Kozo table's watch (sim/referees/persistent_world.py) on the shipped kozo-overhang:
    the 4L, its centre of mass d = 0.75 a = 13.4 mm beyond its only support edge, tips about
    that edge. Rotated by phi about the edge its centre of mass drops about d sin(phi) plus
    h (1 - cos phi) (h: its height above the edge, under a): 4.6-5.5 mm at phi = 20 deg,
    6.7-7.9 mm at 30 deg, against a drop limit of a / 2 = 8.9 mm; so the tilt passes its limit
    first and by the larger fraction, and the reason says tilted."""
    from tablesim.sim.referees.persistent_world import PersistentWorld, watch
    from tablesim.sim.scene import load_scene, shipped_scene_path

    with PersistentWorld(load_scene(shipped_scene_path("kozo-overhang"))) as world:
        world.rebase()
        report = watch(world, 1.0, after_fall=0.0)
    assert report.fell, "the overhanging 4L must fall"
    assert report.reasons[report.fell[0]].startswith("tilted"), report.reasons


def test_table_watch_names_a_piece_falling_straight_down_dropped() -> None:
    """The other side of the rule, in the Kozo table's watch: a 3I let go flat 30 mm above the
    table falls without turning (gravity exerts no torque about its centre of mass), so its
    tilt stays 0 and the drop names the fall. The drop limit is a / 2 = 8.9 mm, passed at
    t = sqrt(2 * 8.9 mm / g) = 42.6 ms, before the bar lands (sqrt(2 * 30 mm / g) = 78 ms);
    the first check after it (every 10 ms) is at 50 ms, where the bar has fallen
    g t^2 / 2 = 12.26 mm (12.51 mm by the step-by-step sum g dt^2 n (n + 1) / 2 of a
    semi-implicit Euler integrator at 1 ms): the reason reads dropped 12.2-12.6 mm."""
    from tablesim.sim.referees.persistent_world import PersistentWorld, watch
    from tablesim.sim.scene import parse_scene

    scene = parse_scene(
        'unit = "mm"\n[[piece]]\npiece = "kozo-standard:3I"\nat = [0, 0, 30]\n', source="drop"
    )
    with PersistentWorld(scene) as world:
        world.rebase()
        report = watch(world, 0.2, after_fall=0.0)
    assert report.fell == ["3I"] and report.first == pytest.approx(0.05, abs=1e-9)
    reason = report.reasons["3I"]
    assert reason.startswith("dropped ") and reason.endswith(" mm"), reason
    assert 12.2 <= float(reason.split()[1]) <= 12.6, reason
