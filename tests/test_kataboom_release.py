"""The Kataboom table's hand lets a piece go touching, never inside, its neighbours (issue 31
item 5, as the Kozo table's since the last round), and refuses a spot with no touching pose.

Geometry, by hand: the clearance (0.2 mm) takes 0.1 mm off each horizontal face of a cube, so
two grid neighbours stand 0.2 mm apart; a neighbour that drifted ``d`` mm towards the release
spot overlaps the intended pose by ``d - 0.2`` mm. The rest tolerance of Kataboom's placement
rule is 0.05 cube edges (``REST_TOL``): 0.95 mm on the 19 mm Katamino cubes.
"""

from __future__ import annotations

import pytest

from tablesim.games.core import TableRefused
from tablesim.games.kataboom import GAME
from tablesim.games.rng import Rng
from tablesim.sim.model import ScenePiece
from tablesim.sim.referees.persistent_world import PENETRATION_OK, PersistentWorld
from tablesim.sim.slices.kataboom.referee import KataboomReferee

GAP_MM = 0.2


def _table(**options: object) -> KataboomReferee:
    cfg = GAME.make_config({"hand_mm": 0.0, "hand_deg": 0.0, **options}, players=2)
    return KataboomReferee(cfg, seed=1)


def _cube(ref: KataboomReferee, name: str, x: float, shift_mm: float = 0.0) -> ScenePiece:
    pos = (x * ref.edge + shift_mm * 1e-3, 0.0, 0.0)
    return ScenePiece(name, ((0, 0, 0),), "katamino", pos, source="katamino-duo:test")


def _world_with(ref: KataboomReferee, drifts: dict[float, float]) -> PersistentWorld:
    """A Kataboom world (no model) with one cube per grid x, drifted by ``drifts[x]`` mm."""
    world = ref.fresh_world(model=False)
    for i, (x, d) in enumerate(sorted(drifts.items())):
        world.add_piece(_cube(ref, f"n{i}", x, d))
    return world


@pytest.mark.parametrize("drift_mm", [0.4, 0.7, 1.0])
def test_a_release_next_to_a_drifted_neighbour_touches_it(drift_mm: float) -> None:
    ref = _table()
    world = _world_with(ref, {0.0: drift_mm})
    ref.let_go(world, _cube(ref, "b", 1.0), Rng.from_seed(0, "test"))
    pos, _ = world.pose("b")
    assert world.contacts.penetration("b") <= PENETRATION_OK
    assert pos[2] == pytest.approx(0.0, abs=PENETRATION_OK)  # let go at rest: no lift
    shift = (pos[0] - 1.0 * ref.edge) * 1e3
    assert shift == pytest.approx(drift_mm - GAP_MM, abs=PENETRATION_OK * 1e3 + 1e-3)
    ref.close()


def test_old_logs_keep_the_first_tables_hand_inside_the_neighbour() -> None:
    ref = _table(release="lift")
    world = _world_with(ref, {0.0: 1.0})
    ref.let_go(world, _cube(ref, "b", 1.0), Rng.from_seed(0, "test"))
    pos, _ = world.pose("b")
    assert world.contacts.penetration("b") * 1e3 == pytest.approx(1.0 - GAP_MM, abs=0.02)
    assert pos[0] == pytest.approx(1.0 * ref.edge, abs=1e-9)  # never moved sideways
    ref.close()


def test_a_spot_narrowed_by_more_than_the_rest_tolerance_is_refused_with_the_rule() -> None:
    """Both neighbours drifted 0.8 mm in: 2 x (0.8 - 0.1) = 1.4 mm must go, more than the
    0.95 mm tolerance, so no touching pose exists; refused (the rule quoted), nothing left."""
    ref = _table()
    world = _world_with(ref, {0.0: 0.8, 2.0: -0.8})
    with pytest.raises(TableRefused, match="places it as they wish"):
        ref.let_go(world, _cube(ref, "b", 1.0), Rng.from_seed(0, "test"))
    assert "b" not in world.piece_ids
    ref.refuse = False  # a game without refusals: let go by the first tables' hand, counted
    ref.let_go(world, _cube(ref, "b", 1.0), Rng.from_seed(0, "test"))
    assert ref.untouched == 1 and "b" in world.piece_ids
    ref.close()


def test_old_logs_replay_with_the_lift_hand_and_new_logs_name_touch_and_refuse() -> None:
    old = GAME.config_from_json({"players": 2})
    assert (old.release, old.refuse) == ("lift", False)
    assert {"release", "refuse"}.isdisjoint(GAME.config_to_json(old))
    new = GAME.make_config({}, players=2)
    out = GAME.config_to_json(new)
    assert (out["release"], out["refuse"]) == ("touch", True)
    assert GAME.config_from_json(out) == new
    stand_in = GAME.config_to_json(GAME.make_config({"table": "stand-in"}, players=2))
    assert {"release", "refuse"}.isdisjoint(stand_in)  # its logs are as they were
