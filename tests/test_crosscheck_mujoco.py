"""MuJoCo as an independent witness (issue #19; slow, needs the ``crosscheck`` extra).

The expected answers come from rigid statics worked out by hand in :mod:`tablesim.sim.crosscheck.cases`
(margins derived in each builder's docstring), never from either engine.
"""

from __future__ import annotations

import pytest

from tablesim.sim.crosscheck.cases import bridge, cantilever, leaning_for_margin, leaning_stack
from tablesim.sim.verdict import simulate

pytest.importorskip("mujoco")

pytestmark = pytest.mark.slow

CASES = {
    "stack-20": lambda: leaning_stack(20, 0.0),
    "lean-5-+2mm": lambda: leaning_for_margin(5, 2.0),
    "lean-9--0.5mm": lambda: leaning_for_margin(9, -0.5),
    "lean-20-+0.5mm": lambda: leaning_for_margin(20, 0.5),
    "cantilever-+0.5mm": lambda: cantilever(0.5),
    "cantilever--0.5mm": lambda: cantilever(-0.5),
    "bridge-centred": lambda: bridge(0.0),
    "bridge-off-30mm": lambda: bridge(30.0),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_mujoco_gives_the_rigid_answer(name: str) -> None:
    """MuJoCo with stiff contacts at 0.1 ms gets every case right, tall thin margins included."""
    from tablesim.sim.crosscheck.mujoco_world import judge

    case = CASES[name]()
    out = judge(case.scene, seconds=2.0, time_step=1e-4)
    assert out.verdict == case.expected, (case.margin_mm, out.fell)
    if case.expected == "stands":
        assert out.max_displacement_mm < 0.5


def test_mujoco_model_matches_the_pybullet_masses() -> None:
    """The MJCF bodies carry the same mass and centre of mass as the PyBullet world's."""
    import mujoco

    from tablesim.sim.crosscheck.mujoco_world import scene_mjcf
    from tablesim.sim.world import World

    scene = leaning_for_margin(5, 2.0).scene
    model = mujoco.MjModel.from_xml_string(scene_mjcf(scene))
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    with World(scene) as w:
        for i, pid in enumerate(w.piece_ids):
            b = model.body(pid).id
            assert model.body_mass[b] == pytest.approx(w.dynamics_info(pid)["mass"], rel=1e-12)
            assert data.xipos[b] == pytest.approx(w.com_positions()[i], abs=1e-9)


@pytest.mark.parametrize("name", ["lean-5-+2mm", "lean-9--0.5mm", "cantilever--0.5mm"])
def test_engines_agree_where_pybullet_is_right(name: str) -> None:
    """Both engines give the same verdict on cases with margin >= 0.5 mm that PyBullet handles."""
    from tablesim.sim.crosscheck.mujoco_world import judge

    case = CASES[name]()
    v = simulate(case.scene, method="simulate", replicas=2, seconds=2.0, workers=2)
    assert v.verdict == judge(case.scene, seconds=2.0, time_step=1e-4).verdict == case.expected
