"""Escalation on the load path's mass ratio (sim/escalation.py, issue #31).

Heavy on light (sim/experiments/corpus.py ``heavy_on_light``): a block of Kozo cubes on one
balance cube. Mass ratio by hand: cubes x (17.8 / 10.2)^3 (one density). Expected answers from
rigid statics: the block stands while its centre of mass is inside the balance cube's edge as
the world builds it (0.1 mm in from the exact edge), so every case below stands, by 0.7 mm or
more. Before this change the verdict profile (1 ms) toppled the 2x2x2 block at 0.8-1.0 mm
(tilt margins 1.67-2.07 degrees, above the 1.5-degree threshold) with p = 1.0, and the 3x3x2
block at 3.5 mm (7.0 degrees) with p = 0.5.

Cost: about 3 s.
"""

from __future__ import annotations

import pytest

from tablesim.sim.config import get_profile
from tablesim.sim.escalation import escalation, mass_ratio
from tablesim.sim.experiments.corpus import heavy_on_light
from tablesim.sim.scene import load_scene, shipped_scene_names, shipped_scene_path
from tablesim.sim.statics import analyse
from tablesim.sim.verdict import simulate


def _statics(case):  # the verdict's statics: the world's clearance
    return analyse(case.scene, clearance=case.scene.physics.clearance)


def test_mass_ratio_by_hand() -> None:
    for dims, cubes in (((1, 1, 1), 1), ((2, 2, 2), 8), ((3, 3, 2), 18)):
        case = heavy_on_light(dims, 1.0)
        assert mass_ratio(case.scene, _statics(case)) == pytest.approx(
            cubes * (17.8 / 10.2) ** 3, rel=1e-9
        )


@pytest.mark.parametrize(
    ("dims", "inside_mm"), [((2, 2, 2), 0.8), ((2, 2, 2), 1.0), ((3, 3, 2), 3.5)]
)
def test_heavy_on_light_stands(dims: tuple[int, int, int], inside_mm: float) -> None:
    case = heavy_on_light(dims, inside_mm)
    assert case.expected == "stands" and case.margin >= 0.5
    v = simulate(case.scene, workers=1)
    assert v.verdict == "stands", v.explanation
    assert v.escalation is not None and v.escalation.mass_ratio > 40


def test_beyond_the_edge_still_topples() -> None:
    """0.1 mm beyond the shrunk edge (0.0 mm inside the exact one): no equilibrium, topples."""
    case = heavy_on_light((2, 2, 2), 0.0)
    assert case.expected == "topples"
    assert simulate(case.scene, workers=1).verdict == "topples"


def test_no_shipped_scene_newly_escalates() -> None:
    """Every shipped scene's escalation is the tilt-only one (none has a mass ratio past the
    scale: Kozo pieces of at most 3 cubes rest on balance cubes)."""
    prof = get_profile("verdict")
    for name in shipped_scene_names():
        scene = load_scene(shipped_scene_path(name))
        st = analyse(scene, clearance=scene.physics.clearance)
        old = escalation(prof, prof.time_step, st)
        new = escalation(prof, prof.time_step, st, scene)
        assert (old is None) == (new is None), name
