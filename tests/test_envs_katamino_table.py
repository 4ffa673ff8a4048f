"""Katamino solo's legal moves from placement tables (issue 36, round 10) are the ones the
plain definition gives, and the environment built on them plays the same games.

The reference is the definition the tables replace, kept callable in the rules:
``KataminoSolo.legal_moves_reference`` (``placements`` of each listed piece on the free
cells, every move made and sorted). Random games quit early (``quit`` is always legal), so
the deeper games here mostly place pieces and sometimes undo."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from env_lockstep import lockstep

from tablesim.games.katamino.solo import SOLO_GAME, placements
from tablesim.games.katamino.solo_data import SOLO_MODES, challenges


def deep_states(mode: str, seed: int, options: dict[str, Any] | None = None):  # noqa: ANN201
    """States of one seeded game that mostly places (by the reference's moves)."""
    cfg = SOLO_GAME.make_config({"mode": mode, **(options or {})}, players=1)
    state, rng = SOLO_GAME.new_game(cfg, seed), random.Random(seed)
    for _ in range(60):
        yield state
        if SOLO_GAME.is_terminal(state):
            return
        moves = SOLO_GAME.legal_moves_reference(state)
        places = [m for m in moves if m.kind_name == "place"]
        u = rng.random()
        if places and u < 0.85:
            move = rng.choice(places)
        elif state.placed and u < 0.97:
            move = moves[0]  # undo
        else:
            move = rng.choice(moves)
        state = SOLO_GAME.apply(state, move)


@pytest.mark.parametrize("mode", SOLO_MODES)
def test_legal_moves_equal_the_reference(mode: str) -> None:
    positions = placed = 0
    for seed in range(12):
        for state in deep_states(mode, seed):
            assert SOLO_GAME.legal_moves(state) == SOLO_GAME.legal_moves_reference(state)
            positions += 1
            placed += len(state.placed)
    assert positions > 100 and placed > 100  # boards with pieces on them were compared


def test_legal_moves_equal_the_reference_with_rules_options() -> None:
    """The straight-pieces rule, a swap and two seats (their own orientations and pieces)."""
    ch = challenges("solo")[0]
    cases = [{"card": ch.card, "challenge": ch.number, "straight_horizontal": True}]
    if ch.swaps:
        cases.append({"card": ch.card, "challenge": ch.number, "swap": ch.swaps[0]})
    checked = 0
    for opts in cases:
        for seed in range(6):
            for state in deep_states("solo", seed, opts):
                assert SOLO_GAME.legal_moves(state) == SOLO_GAME.legal_moves_reference(state)
                checked += 1
    assert checked > 30


def test_tables_equal_placements_on_every_shipped_target() -> None:
    """Each table row for row (cells, order) equals ``placements`` on the empty target, for
    every piece of every stage of every mode, with and without the straight rule; the bits
    are the cells' indices."""
    seen = set()
    rows_checked = 0
    for mode in SOLO_MODES:
        for ch in challenges(mode):
            for st in ch.stages:
                for name in set(st.pieces):
                    for straight in (False, True):
                        key = (st.target, name, straight)
                        if key in seen:
                            continue
                        seen.add(key)
                        from tablesim.games.katamino.solo import board

                        b = board(st.target)
                        assert b is not None
                        rows = b.rows(name, straight)
                        want = placements(st.target, st.target.cell_set, name, straight)
                        got = [rows.cells(k) for k in range(len(rows))]
                        assert got == want
                        for k, cells in enumerate(got):
                            bits = sum(1 << b.index[c] for c in cells)
                            assert int(rows.bits[k]) == bits
                        rows_checked += len(want)
    assert rows_checked > 10_000


def _mostly_place(env: Any, ids: np.ndarray, rng: np.random.Generator) -> int:
    """Mostly a placement, sometimes undo, rarely quit (the codec's first two segments)."""
    layout = env.match.codec.layout
    quit_id, undo_id = layout.id("quit", 0), layout.id("undo", 0)
    places = ids[ids > undo_id]
    u = rng.random()
    if len(places) and u < 0.85:
        return int(rng.choice(places))
    if undo_id in ids and u < 0.97:
        return undo_id
    return int(rng.choice(ids)) if u >= 0.99 else quit_id


def _reference(state: Any) -> tuple[Any, ...]:
    return SOLO_GAME.legal_moves_reference(state)


@pytest.mark.parametrize("mode", ["solo", "solo3d", "construction", "picture"])
def test_env_plays_as_the_reference_path(mode: str) -> None:
    """Seeded rollouts, mostly placing: every observation, mask, reward, id and move of the
    table path equals the reference path's (``env_lockstep``)."""
    steps = lockstep("katamino", _reference, range(8), {"mode": mode}, pick=_mostly_place)
    assert steps > 80


def test_env_uniform_rollouts_play_as_the_reference_path() -> None:
    """``examples/rl_rollouts.py``'s uniform choice over the mask, many seeds, two seats."""
    assert lockstep("katamino", _reference, range(40)) > 100
    assert lockstep("katamino", _reference, range(10), {"players": 2}) > 20
