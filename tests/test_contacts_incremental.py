"""Incremental contact finding (issue #24): a Kozo tower plus one candidate piece reuses the
tower's contacts (found for an earlier candidate, or when the tower itself was judged) and gives
exactly what detection from scratch gives, on seeded games."""

from __future__ import annotations

import json

import tablesim.sim.contacts as contacts
from tablesim.games.kozo.state import PLACE, TAKE
from tablesim.games.registry import get_game
from tablesim.games.rng import Rng
from tablesim.sim.contacts import (
    ContactTolerances,
    detect_contacts,
    scene_contacts,
    shrink_horizontal,
)
from tablesim.sim.slices.kozo.referee import KozoReferee
from tablesim.sim.statics import analyse, clear_caches

GAME = get_game("kozo")


def _from_scratch(scene, clearance: float) -> dict:  # noqa: ANN001 - tablesim.sim.model.Scene
    cfg = scene.physics
    bodies = [
        [shrink_horizontal(b, clearance) if not p.static else b for b in p.world_boxes(cfg)]
        for p in scene.pieces
    ]
    found = detect_contacts(
        bodies,
        [p.static for p in scene.pieces],
        [p.id for p in scene.pieces],
        ground=scene.ground,
        tolerances=ContactTolerances(),
    )
    return found.to_json()


def test_tower_plus_one_piece_equals_detection_from_scratch_on_seeded_games() -> None:
    cfg = GAME.make_config({"table": "stand-in"}, players=2)
    checked = 0
    for seed in range(1):
        referee = KozoReferee(GAME.make_config({}, players=2), seed)
        state = GAME.new_game(cfg, seed)
        rng = Rng.from_seed(seed, "test-contacts-incremental")
        while not GAME.is_terminal(state):
            moves = [m for m in GAME.legal_moves(state) if m.kind != TAKE]
            places = [m for m in moves if m.kind == PLACE]
            if state.tower and len(places) >= 2:
                picks = [places[0], places[len(places) // 2], places[-1]]
                scenes = [
                    referee.tower_scene(state, [referee.placement(m, 0).piece]) for m in picks
                ]
                clearance = scenes[0].physics.clearance
                contacts._TOWER[:] = [None, None]
                if state.turn % 2:  # the tower judged first: the candidates reuse its findings
                    tower = referee.tower_scene(state, [])
                    assert scene_contacts(tower, clearance=clearance).to_json() == _from_scratch(
                        tower, clearance
                    )
                    assert contacts._TOWER[1][0][0] == scenes[0].pieces[:-1]
                for scene in scenes:  # the first fills the tower's cache, the others reuse it
                    got = scene_contacts(scene, clearance=clearance).to_json()
                    assert got == _from_scratch(scene, clearance), (seed, state.turn)
                    checked += 1
                # The static report too, warm cache against cold.
                warm = analyse(scenes[-1], clearance=clearance).to_json()
                clear_caches()
                cold = analyse(scenes[-1], clearance=clearance).to_json()
                assert json.dumps(warm, sort_keys=True) == json.dumps(cold, sort_keys=True)
            move, rng = rng.choice(moves or GAME.legal_moves(state))
            state = GAME.apply(state, move)
    assert checked >= 15, checked
