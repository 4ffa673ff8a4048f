"""The documented limits: one table (sim.guard.LIMITS) behind the loader, the schema and the
docs, and the boundary checks that use it."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT

from tablesim.sim.guard import LIMITS, PhysicsBlowUpError, check_body, check_positions
from tablesim.sim.scene import InvalidSceneError, parse_scene

BAR = '[[piece]]\npiece = "kozo-standard:3I"\nat = [0, 0, 0]\n'


def test_schema_states_the_loader_limits() -> None:
    schema = json.loads((ROOT / "scenes" / "scene.schema.json").read_text())
    physics = schema["$defs"]["physics"]["properties"]
    for key, prop in physics.items():
        assert (prop["minimum"], prop["maximum"]) == (LIMITS[key].low, LIMITS[key].high), key
    readme = (ROOT / "scenes" / "README.md").read_text()
    assert (
        "| `gravity` | 0 to 100 m/s² |" in readme and "| `density` | 1 to 25 000 kg/m³ |" in readme
    )


@pytest.mark.parametrize(
    ("physics", "ok"),
    [
        ("gravity = 100", True),
        ("gravity = 100.001", False),
        ("density = 1", True),
        ("density = 0.99", False),
        ("density = 25000", True),
        ("density = 25001", False),
        ("kozo_cube_mm = 1", True),
        ("kozo_cube_mm = 0.999", False),
        ("clearance_mm = 5", True),
        ("clearance_mm = 5.01", False),
    ],
)
def test_physics_limits_are_closed_ranges(physics: str, ok: bool) -> None:
    text = f"[physics]\n{physics}\n{BAR}"
    if ok:
        parse_scene(text)
    else:
        with pytest.raises(InvalidSceneError) as err:
            parse_scene(text, "s.toml")
        assert err.value.problems[0].line == 2
        assert err.value.problems[0].path == f"physics.{physics.split()[0]}"


def test_positions_must_lie_on_the_table() -> None:
    # a 3I bar is 3 edges long: at x = 2000 mm - 3 * 17.8 mm its far end is exactly at 2 m
    parse_scene(f'unit = "mm"\n[[piece]]\npiece = "kozo-standard:3I"\nat = [{2000 - 53.4}, 0, 0]\n')
    with pytest.raises(InvalidSceneError, match=r"piece\[0\]\.at: reaches 2\.0001 m"):
        parse_scene('unit = "mm"\n[[piece]]\npiece = "kozo-standard:3I"\nat = [1946.7, 0, 0]\n')


def test_guard_refuses_what_no_table_does() -> None:
    calm = dict(
        pos=(0.0, 0.0, 0.01), quat=(0.0, 0.0, 0.0, 1.0), lin=(0.0, 0.0, 0.0), ang=(0.0, 0.0, 0.0)
    )
    check_body("a", 0.0, **calm)
    for change, quantity in (
        ({"pos": (float("nan"), 0.0, 0.0)}, "position"),
        ({"lin": (0.0, 0.0, -10.01)}, "speed (m/s)"),
        ({"ang": (0.0, 2000.1, 0.0)}, "angular speed (rad/s)"),
        ({"pos": (6.001, 0.0, 0.0)}, "position off the 12 m room (m)"),
        ({"pos": (0.0, 0.0, -1.01)}, "height out of the room (m)"),
    ):
        with pytest.raises(PhysicsBlowUpError) as err:
            check_body("a", 0.5, **{**calm, **change})
        assert err.value.quantity == quantity and err.value.piece == "a"
    with pytest.raises(PhysicsBlowUpError, match="'b'"):
        import numpy as np

        check_positions(["a", "b"], 1.0, np.array([[0.0, 0.0, 0.0], [0.0, float("inf"), 0.0]]))
