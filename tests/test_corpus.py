"""The generated corpus with known answers (sim/experiments/corpus.py, bench/corpus.py; #31).

The generator's answers are closed forms; here they are checked against a second independent
method where one exists (the rigid-statics LP of sim/statics.py for the families it decides:
leaning stacks, cantilevers, heavy on light), and a seeded subset of the families is judged by
the verdict (the families whose fixes are tested in tests/test_topple_contacts.py and
tests/test_escalation_mass.py are not repeated). The MuJoCo witness over the whole corpus is
``slow``.

Cost: about 4 s by default.
"""

from __future__ import annotations

import math

import pytest

from tablesim.sim.experiments.corpus import bar_on_slope, generate, margin_bin
from tablesim.sim.statics import analyse
from tablesim.sim.verdict import simulate


def test_generator_is_seeded() -> None:
    a = [(c.scene.name, c.expected, c.margin) for c in generate(0)]
    b = [(c.scene.name, c.expected, c.margin) for c in generate(0)]
    c = [(c.scene.name, c.expected, c.margin) for c in generate(1)]
    assert a == b and a != c
    assert len(a) >= 100


def test_families_and_bins_covered() -> None:
    """Every family, both answers where the family has both, every margin bin."""
    cases = generate(0)
    fams = {c.family for c in cases}
    assert fams == {"straight-stack", "leaning-stack", "bridge-cantilever", "heavy-on-light",
                    "tilted-rest", "slope"}  # fmt: skip
    for fam in fams - {"straight-stack"}:
        assert {c.expected for c in cases if c.family == fam} == {"stands", "topples"}, fam
    for fam in ("leaning-stack", "heavy-on-light", "slope"):
        bins = {margin_bin(c.margin) for c in cases if c.family == fam}
        assert bins == {"<0.2", "0.2-0.5", "0.5-1", "1-2", ">2"}, fam


def test_closed_forms_agree_with_statics() -> None:
    """Where the statics LP decides, its equilibrium (with the world's clearance) is the closed
    form's answer at every margin of 0.05 mm or more: two independent methods."""
    checked = 0
    for case in generate(0):
        if case.family not in ("leaning-stack", "heavy-on-light", "bridge-cantilever"):
            continue
        if case.margin < 0.05:
            continue
        st = analyse(case.scene, clearance=case.scene.physics.clearance)
        feasible = st.conservative_feasible or st.permissive_feasible
        assert bool(feasible) == (case.expected == "stands"), case.scene.name
        checked += 1
    assert checked >= 40


@pytest.mark.parametrize(("mu", "side"), [(0.3, 1.0), (0.3, -1.0), (0.45, 1.0), (0.45, -1.0)])
def test_slope_friction_angle(mu: float, side: float) -> None:
    """A bar 0.6 degree inside (side +1) or beyond (-1) the friction angle atan(mu)."""
    theta = math.degrees(math.atan(mu)) - side * 0.6
    case = bar_on_slope(theta, mu)
    assert case.expected == ("stands" if side > 0 else "topples")
    v = simulate(case.scene, workers=1, replicas=2)
    assert v.verdict == case.expected, v.explanation


@pytest.mark.slow
def test_mujoco_witness_over_the_corpus_slow() -> None:
    """MuJoCo (Newton solver, at the witness's rigid 0.1 ms step) agrees with the closed forms
    on at least 95 % of the corpus (the issue's goal for a witness; measured 128 of 128:
    docs/architecture.md). About 90 s of CPU."""
    pytest.importorskip("mujoco")
    from tablesim.sim.crosscheck.mujoco_world import judge

    cases = generate(0)
    wrong = []
    for case in cases:
        out = judge(case.scene, seconds=case.scene.seconds, time_step=0.1e-3)
        if ("topples" if out.toppled else "stands") != case.expected:
            wrong.append((case.scene.name, case.margin))
    assert len(wrong) <= 0.05 * len(cases), wrong
