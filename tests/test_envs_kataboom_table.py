"""Kataboom's candidate placements from one numpy pass (issue 36, round 9) are the ones the
plain per-orientation definition gives, and the environment's masks built from the rules'
arrays are the ones encoding every legal move gives.

The reference (:func:`placements_reference`) is main's ``_spots``/``_candidates`` before the
change, kept here: ``spots(cells, lattice(cells, blocks))`` orientation by orientation, every
legal spot made a move, the moves sorted. Games go deeper than a uniform random game (which
usually collapses at once) by choosing, seeded, among the reference's well supported moves.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import tablesim
from tablesim.games.kataboom import rules as R
from tablesim.games.kataboom.geometry import lattice, orientations, spot_table, spots
from tablesim.games.kataboom.state import PLACE, KataboomMove
from tablesim.games.registry import get_game

GAME = get_game("kataboom")
SUPPORTED = 0.2  # edges: the moves the deeper games choose among (the stand-in rarely fells)


def placements_reference(state: Any) -> tuple[list[KataboomMove], list[float]]:
    """The candidate placements and their margins as main computed them before the change."""
    blocks = R._blocks(R._items_key(state.structure))
    prev = R._previous(state.config, state.structure)
    shapes: dict[tuple, list[str]] = {}
    for piece in state.supply:
        shapes.setdefault(orientations(piece), []).append(piece)
    moves: list[tuple[KataboomMove, float]] = []
    for cells_set, pieces in shapes.items():
        for r, cells in enumerate(cells_set):
            s = spots(cells, lattice(cells, blocks), blocks, len(state.structure), prev)
            for k in np.flatnonzero(s.ok):
                x, y, z = float(s.xy[k, 0]), float(s.xy[k, 1]), float(s.z[k])
                pos = (round(x, 4) + 0.0, round(y, 4) + 0.0, round(z, 4) + 0.0)
                for p in pieces:
                    moves.append((KataboomMove(PLACE, p, r, pos), float(s.margin[k])))
    moves.sort(key=lambda t: t[0])
    return [m for m, _ in moves], [g for _, g in moves]


def deep_game(model: int, reading: str, seed: int):  # noqa: ANN201
    """States of one seeded game choosing among the reference's supported moves."""
    cfg = GAME.make_config({"table": "stand-in", "model": model, "reading": reading}, players=2)
    state, rng = GAME.new_game(cfg, seed), random.Random(seed)
    while not GAME.is_terminal(state):
        yield state
        moves, margins = placements_reference(state)
        safe = [m for m, g in zip(moves, margins, strict=True) if g >= SUPPORTED] or moves
        state = GAME.apply(state, rng.choice(safe))
    yield state


CASES = [(1, "anywhere", 0), (5, "on-previous", 1), (12, "anywhere", 2), (18, "on-previous", 3)]


@pytest.mark.parametrize(("model", "reading", "seed"), CASES)
def test_placements_and_margins_equal_the_reference(model: int, reading: str, seed: int) -> None:
    positions = 0
    for state in deep_game(model, reading, seed):
        if GAME.is_terminal(state):
            break
        want, margins = placements_reference(state)
        assert list(GAME.placements(state)) == want
        got = GAME.placement_margins(state)
        assert [got[m] for m in want] == margins  # the same floats, not only close ones
        assert R.count_safe(state, SUPPORTED) == sum(1 for g in margins if g >= SUPPORTED)
        positions += 1
    assert positions >= 3  # the games went past the starting model


def test_spot_table_equals_spots_orientation_by_orientation() -> None:
    """Every field of every orientation's rows, byte for byte (unsupported spots too)."""
    checked = 0
    for model, reading, seed in CASES[:2]:
        for state in deep_game(model, reading, seed):
            blocks = R._blocks(R._items_key(state.structure))
            prev = R._previous(state.config, state.structure)
            shapes = [c for p in state.supply for c in orientations(p)]
            table = spot_table(shapes, blocks, len(state.structure), prev)
            for o, cells in enumerate(shapes):
                want = spots(cells, lattice(cells, blocks), blocks, len(state.structure), prev)
                got = table.spots(o)
                for field in ("xy", "z", "ok", "margin", "on"):
                    a, b = getattr(want, field), getattr(got, field)
                    assert a.shape == b.shape and a.dtype == b.dtype, (field, o)
                    assert a.tobytes() == b.tobytes(), (field, o)
                checked += len(want.z)
    assert checked > 10_000


@pytest.mark.parametrize("supported", [False, True])
def test_env_masks_equal_the_encoded_reference(supported: bool) -> None:
    """Seeded masked rollouts of the environment: each step's mask, ``legal_actions`` and
    the move an action plays are those of the reference moves encoded one by one."""
    env = tablesim.env("kataboom", table="stand-in")
    codec = env.match.codec
    steps = 0
    for seed in range(6):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            state = env.match.state
            moves, margins = placements_reference(state)
            ids = [codec.encode(m) for m in moves]
            want = np.zeros(codec.n, dtype=np.int8)
            want[ids] = 1
            assert obs["action_mask"].tobytes() == want.tobytes()
            assert info["legal_actions"] == ids
            if steps % 5 == 0:  # the texts (formatting thousands is slow: every fifth step)
                assert list(info["legal_moves"]) == [GAME.format_move(state, m) for m in moves]
            pool = [i for i, g in zip(ids, margins, strict=True) if g >= SUPPORTED]
            action = int(rng.choice(pool if supported and pool else ids))
            assert env.match.move_of(action) == moves[ids.index(action)]
            env.step(action)
            assert env.match.state.moves[-1] == moves[ids.index(action)]
            steps += 1
    env.close()
    assert steps >= (20 if supported else 6)


def test_spot_table_equals_spots_for_shapes_off_their_corner() -> None:
    """Oriented cells not normalised to z = 0 (no catalogue piece: the path where a spot with
    rest height 0 is off the table) and a tall one, on the seeded structures."""
    shapes = [((0, 0, 1),), ((0, 0, 2), (1, 0, 2)), ((0, 0, 0), (0, 0, 1), (0, 1, 1))]
    checked = 0
    for state in deep_game(5, "anywhere", 4):
        blocks = R._blocks(R._items_key(state.structure))
        for prev in (None, 0):
            table = spot_table(shapes, blocks, len(state.structure), prev)
            for o, cells in enumerate(shapes):
                want = spots(cells, lattice(cells, blocks), blocks, len(state.structure), prev)
                got = table.spots(o)
                for field in ("xy", "z", "ok", "margin", "on"):
                    assert getattr(want, field).tobytes() == getattr(got, field).tobytes()
                checked += int(want.ok.sum())
    assert checked > 50
