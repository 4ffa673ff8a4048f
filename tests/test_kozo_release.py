"""The Kozo table's hand lets a piece go touching, never inside, its neighbours (issue 31 item 5).

Geometry, by hand: Kozo cubes are 17.8 mm; the clearance (0.2 mm) takes 0.1 mm off each
horizontal face, so two grid neighbours stand 0.2 mm apart. A neighbour that drifted ``d`` mm
towards the release spot overlaps the intended pose by ``d - 0.2`` mm.
"""

from __future__ import annotations

import numpy as np
import pytest

from tablesim.games.core import IllegalMoveError
from tablesim.games.kozo import GAME
from tablesim.games.rng import Rng
from tablesim.sim.model import ScenePiece, vec3
from tablesim.sim.referees.persistent_world import PENETRATION_OK, Hand, hand_place
from tablesim.sim.slices.kozo.referee import KozoReferee, Placement

EDGE_MM = 17.8
GAP_MM = 0.2


def _table(**options: object) -> KozoReferee:
    cfg = GAME.make_config({"hand_mm": 0.0, "hand_deg": 0.0, **options}, players=2)
    return KozoReferee(cfg, seed=1)


def _cube(ref: KozoReferee, name: str, x: float, shift_mm: float = 0.0) -> ScenePiece:
    pos = ref.origin + np.array([x, 0.0, 0.0]) * ref.edge + np.array([shift_mm * 1e-3, 0, 0])
    return ScenePiece(name, ((0, 0, 0),), "kozo", vec3(pos), source="kozo-standard:1")


def _release_next_to(ref: KozoReferee, drift_mm: float) -> tuple[float, float]:
    """Put a cube at grid x = 0 drifted ``drift_mm`` towards x = 1, then let a cube go at
    x = 1 through the table's hand; the second cube's penetration (mm) and its x shift (mm)."""
    world = ref.fresh_world()
    world.add_piece(_cube(ref, "a", 0.0, drift_mm))
    ref.let_go(world, _place(ref), Rng.from_seed(0, "test"))
    pos, _ = world.pose("b")
    intended = ref.origin[0] + 1.0 * ref.edge
    return world.contacts.penetration("b") * 1e3, (pos[0] - intended) * 1e3


def _place(ref: KozoReferee) -> Placement:
    return Placement(_cube(ref, "b", 1.0), on_board=True)


@pytest.mark.parametrize("drift_mm", [0.5, 1.0, 1.6])
def test_a_release_next_to_a_drifted_neighbour_touches_it(drift_mm: float) -> None:
    ref = _table()
    depth, shift = _release_next_to(ref, drift_mm)
    assert depth <= PENETRATION_OK * 1e3
    assert ref.world is not None
    pos, _ = ref.world.pose("b")
    assert pos[2] == pytest.approx(ref.origin[2], abs=PENETRATION_OK)  # let go at rest: no lift
    # moved out by the overlap, no further (to within the 0.02 mm a pose may overlap)
    assert shift == pytest.approx(drift_mm - GAP_MM, abs=PENETRATION_OK * 1e3 + 1e-3)
    ref.close()


def test_the_first_tables_hand_let_it_go_inside_the_neighbour() -> None:
    """What old logs replay (release = lift): the piece is lifted, never moved sideways."""
    ref = _table(release="lift")
    depth, shift = _release_next_to(ref, 1.0)
    assert depth == pytest.approx(1.0 - GAP_MM, abs=0.02)
    assert abs(shift) < 1e-6
    ref.close()


def test_a_spot_narrower_than_the_piece_by_more_than_the_tolerance_is_refused() -> None:
    """Neighbours on both sides drifted 1.6 mm each into the spot: 3.0 mm must go, more than
    the 1.8 mm tolerance; the release is refused with the reason, the world rebuilt later."""
    ref = _table()
    ref.refuse = True
    world = ref.fresh_world()
    world.add_piece(_cube(ref, "a", 0.0, 1.6))
    world.add_piece(_cube(ref, "c", 2.0, -1.6))
    with pytest.raises(IllegalMoveError, match="touching, not inside"):
        ref.let_go(world, _place(ref), Rng.from_seed(0, "test"))
    assert "b" not in world.piece_ids
    ref.refuse = False  # the default: let go by the first tables' hand, and counted
    ref.let_go(world, _place(ref), Rng.from_seed(0, "test"))
    assert ref.untouched == 1 and "b" in world.piece_ids
    ref.close()


def test_hand_place_without_touch_keeps_the_old_hand() -> None:
    """``Hand.touch_mm = None`` is the first tables' hand bit for bit (assembly and old logs)."""
    ref = _table()
    world = ref.fresh_world()
    piece = _cube(ref, "b", 1.0)
    assert hand_place(world, piece, Rng.from_seed(0, "t"), Hand(0.0, 0.0, 0.3)) == (1.0, 0.0)
    pos, _ = world.pose("b")
    assert pos[2] - piece.position[2] == pytest.approx(0.3e-3, abs=1e-9)
    ref.close()


def test_old_logs_replay_with_the_lift_hand_and_new_physics_logs_name_the_release() -> None:
    old = GAME.config_from_json({"players": 2})
    assert old.release == "lift"
    assert "release" not in GAME.config_to_json(old)
    new = GAME.make_config({}, players=2)
    assert new.release == "touch"
    assert GAME.config_to_json(new)["release"] == "touch"
    stand_in = GAME.make_config({"table": "stand-in"}, players=2)
    assert "release" not in GAME.config_to_json(stand_in)  # its logs are as they were


@pytest.mark.slow
def test_a_seeded_physics_game_never_lets_a_piece_go_inside_another() -> None:
    """Invariant over a seeded game of the default table (careful vs greedy, one round): every
    release of the touching hand penetrates nothing by more than the 0.02 mm it allows."""
    import tablesim.sim.slices.kozo.referee as kr
    from tablesim.games.session import make_seats, play_game

    depths: list[float] = []
    orig = kr.hand_place

    def spy(world, piece, rng, hand, allowed=frozenset()):
        out = orig(world, piece, rng, hand, allowed)
        if hand.touch_mm is not None:
            depths.append(world.contacts.penetration(piece.id))
        return out

    kr.hand_place = spy
    try:
        cfg = GAME.make_config({"rounds": 1}, players=2)
        play_game(GAME, cfg, make_seats("kozo", ["careful", "greedy"], 3), 3)
    finally:
        kr.hand_place = orig
    assert len(depths) >= 4 and max(depths) <= PENETRATION_OK
