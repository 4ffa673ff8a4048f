"""Kozo's legal moves from arrays (issue 36, round 10) are the ones the per-orientation
definitions give, and the environment built on them plays the same games.

The references are kept callable in the rules: ``Kozo.legal_moves_reference`` (placements by
``_placements``: ``candidate_spots_many``, every cell of every row against every block;
balance cube spots by ``check_balance`` one by one, ``_cube_spots_reference``) and
``build_blocks`` of the whole tower. Games are seeded stand-in games of 2-4 seats, with the
options that change what is legal (rule tolerance, the face-down tile, balance cubes that
fall alone taken away, a larger balance cube)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from env_lockstep import lockstep

from tablesim.games.kozo import rules as R
from tablesim.games.kozo.blocks import build_blocks, piece_orientations
from tablesim.games.kozo.placement import (
    PlacementError,
    balance_candidates,
    balance_candidates_many,
    balance_ok_many,
    check_balance,
    check_polycube,
)
from tablesim.games.kozo.state import PLACE

GAME = R.GAME
OPTIONS: list[dict[str, Any]] = [
    {},
    {"tolerance": 0.05},
    {"tolerance": 0.25},
    {"face_down": True},
    {"balance_fall": "ignore", "stand_in_risk": 0.3},
    {"balance_mm": 17.0},
]


def states(options: dict[str, Any], players: int, seed: int):  # noqa: ANN201
    """Every state of one seeded stand-in game (moves chosen from the reference's list)."""
    cfg = GAME.make_config({"table": "stand-in", **options}, players=players)
    state, rng = GAME.new_game(cfg, seed), random.Random(seed)
    while True:
        yield state
        if GAME.is_terminal(state):
            return
        state = GAME.apply(state, rng.choice(GAME.legal_moves_reference(state)))


@pytest.mark.parametrize("options", OPTIONS, ids=[str(o) for o in OPTIONS])
def test_legal_moves_equal_the_reference(options: dict[str, Any]) -> None:
    places = cubes = 0
    for players in (2, 3, 4):
        for seed in range(4):
            for state in states(options, players, seed):
                assert GAME.legal_moves(state) == GAME.legal_moves_reference(state)
                if state.over:
                    continue
                pieces = GAME.pieces_allowed(state)
                want = R._placements(state.config, state.tower, pieces)
                assert R.has_placement(state.config, state.tower, pieces) == bool(want)
                if state.phase == PLACE:
                    places += 1
                else:
                    cubes += 1
    assert places > 40 and cubes > 20


def test_placement_table_rows_are_the_sorted_reference() -> None:
    """Row for row (piece, rotation, x, y, z as the same floats), and a listed move passes
    ``check_polycube`` (the shortcut ``_validate`` takes for it)."""
    rows = 0
    for seed in range(6):
        for state in states({}, 2, seed):
            if state.over or state.phase != PLACE:
                continue
            pieces = GAME.pieces_allowed(state)
            t = R.placement_table(state.config, state.tower, pieces)
            assert t is not None
            want = sorted(R._placements(state.config, state.tower, pieces), key=R._order)
            got = [t.move(k) for k in range(len(t))]
            assert got == want
            assert [m.pos for m in got] == [m.pos for m in want]
            blocks = R.tower_blocks(state.config, state.tower)
            for m in got[:: max(1, len(got) // 5)]:
                cells = piece_orientations(state.config.catalogue, m.piece)[m.rot]
                check_polycube(cells, m.pos, blocks, tol=state.config.tolerance)
            rows += len(got)
    assert rows > 1000


def test_cover_option_keeps_the_reference_path() -> None:
    for state in states({"cover": 0.51}, 2, 0):
        if not state.over and state.phase == PLACE:
            assert R.placement_table(state.config, state.tower, state.supply) is None
        assert GAME.legal_moves(state) == GAME.legal_moves_reference(state)


def test_balance_rules_equal_check_balance_on_a_quarter_lattice() -> None:
    """Every centre of a quarter-edge lattice over the base at every top height of real
    towers (nearly all break a rule, each rule some): ``balance_ok_many`` agrees with
    ``check_balance`` centre for centre; the candidates equal the loop's."""
    accepted = rejected = 0
    rules: set[str] = set()
    for seed in range(5):
        for state in states({}, 3, seed):
            blocks = R.tower_blocks(state.config, state.tower)
            tol, edge = state.config.tolerance, state.config.balance_edge
            assert balance_candidates_many(blocks, tol) == balance_candidates(blocks, tol)
            if not blocks.size or seed % 2 and len(state.tower) % 3:
                continue
            tops = sorted(set(blocks.hi[:, 2].tolist()))[-3:]
            centres = np.array([(i / 4, j / 4, z) for i in range(-1, 14) for j in range(-1, 14)
                                for z in tops])  # fmt: skip
            got = balance_ok_many(centres, edge, blocks, tol)
            for c, ok in zip(centres.tolist(), got, strict=True):
                try:
                    check_balance(c, edge, blocks, tol=tol)
                    want = True
                except PlacementError as exc:
                    want = False
                    rules.add(exc.rule)
                assert ok == want, (c, seed)
                accepted += want
                rejected += not want
    assert accepted > 50 and rejected > 1000
    assert len(rules) >= 6  # the rules each rejected some centre


@pytest.mark.parametrize("balance_mm", [1.0, 4.0, 17.0])
def test_balance_rules_equal_check_balance_for_other_cube_sizes(balance_mm: float) -> None:
    """A balance cube much smaller (a box can be both under it and resting on its level) or
    nearly as large as the polycubes' cubes (the option allows 1 mm up to ``cube_mm``)."""
    checked = accepted = 0
    for seed in range(3):
        for state in states({"balance_mm": balance_mm}, 2, seed):
            blocks = R.tower_blocks(state.config, state.tower)
            tol, edge = state.config.tolerance, state.config.balance_edge
            if not blocks.size:
                continue
            tops = sorted(set(blocks.hi[:, 2].tolist()) | set(blocks.lo[:, 2].tolist()))
            centres = [(i / 4, j / 4, z) for i in range(13) for j in range(13) for z in tops]
            got = balance_ok_many(centres, edge, blocks, tol)
            for c, ok in zip(centres, got, strict=True):
                try:
                    check_balance(c, edge, blocks, tol=tol)
                    want = True
                except PlacementError:
                    want = False
                assert ok == want, (c, seed, balance_mm)
                checked += 1
                accepted += want
    assert checked > 500
    assert balance_mm < 2 or accepted > 10  # a 1 mm cube: every centre here breaks a rule


def test_tower_blocks_extended_equal_blocks_built_whole() -> None:
    checked = 0
    for options in ({}, {"balance_fall": "ignore", "stand_in_risk": 0.3}):
        for seed in range(4):
            for state in states(options, 2, seed):
                cfg = state.config
                got = R.tower_blocks(cfg, state.tower)
                want = build_blocks([(it.name, R.item_cells(cfg, it),
                                      cfg.balance_edge if it.is_balance else 1.0, it.pose,
                                      it.is_balance) for it in state.tower])  # fmt: skip
                for f in ("lo", "hi", "owner", "balance"):
                    a, b = getattr(got, f), getattr(want, f)
                    assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), f
                assert got.names == want.names
                checked += 1
    assert checked > 100


def _reference(state: Any) -> tuple[Any, ...]:
    return GAME.legal_moves_reference(state)


@pytest.mark.parametrize(("options", "players"), [({}, 2), ({}, 3), ({"face_down": True}, 2)])
def test_env_plays_as_the_reference_path(options: dict[str, Any], players: int) -> None:
    """Seeded masked rollouts (``examples/rl_rollouts.py``'s uniform choice): every
    observation, mask, reward, id and move of the fast path equals the reference path's."""
    opts = {"table": "stand-in", "players": players, **options}
    assert lockstep("kozo", _reference, range(10), opts) > 150


def test_planes_kept_per_tower_equal_planes_made_afresh() -> None:
    """The features keep a tower's voxel planes and add a new item's to them; each state's
    planes equal those of a features object that has seen no tower before."""
    import tablesim

    env = tablesim.env("kozo", table="stand-in", players=3)
    feats = env.match.features
    kind = type(feats)
    checked = 0
    for options in ({}, {"balance_fall": "ignore", "stand_in_risk": 0.3}):
        for seed in range(3):
            for state in states(options, 3, seed):
                for seat in range(3):
                    fresh = kind(env.match.game, state.config, env.match.codec)
                    assert feats(state, seat).tobytes() == fresh(state, seat).tobytes()
                checked += 1
    env.close()
    assert checked > 60
