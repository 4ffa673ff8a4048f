"""Kataboom's action ids from the rules' arrays (``KataboomCodec.legal_ids``/``move_at``,
read by :class:`tablesim.envs.core.Match` instead of encoding every legal move) against the
rules' legal moves encoded one by one, over seeded random stand-in games."""

from __future__ import annotations

import random

import numpy as np
import pytest

from games.registry import get_game
from sim.slices.kataboom.codec import KataboomCodec
from tablesim.envs.core import Match


@pytest.mark.parametrize("options", [{}, {"reading": "on-previous"}, {"players": 3}])
def test_ids_from_arrays_equal_the_encoded_legal_moves(options: dict) -> None:
    game = get_game("kataboom")
    players = options.get("players", 2)
    opts = {k: v for k, v in options.items() if k != "players"}
    cfg = game.make_config({"table": "stand-in", **opts}, players=players)
    codec = KataboomCodec(cfg)
    rng = random.Random(5)
    positions = 0
    for seed in range(12):
        state = game.new_game(cfg, seed)
        while not game.is_terminal(state):
            legal = game.legal_moves(state)
            want = [codec.encode(m) for m in legal]  # the slow path, one move at a time
            ids = codec.legal_ids(state)
            assert ids.tolist() == want
            for k in rng.sample(range(len(legal)), min(5, len(legal))):
                assert codec.move_at(want[k], state) == legal[k]
            positions += 1
            state = game.apply(state, rng.choice(legal))
    assert positions >= 12


def test_match_on_the_fast_path_keeps_its_promises() -> None:
    """``legal``, ``legal_actions``, texts, ``action_of`` and illegal actions agree."""
    m = Match("kataboom", {"table": "stand-in"})
    m.reset(3)
    rng = random.Random(3)
    while not m.terminal():
        ids = m.legal_actions
        assert len(ids) == len(m.legal) == len(m.move_texts())
        k = rng.randrange(len(ids))
        assert m.action_of(m.move_texts()[k]) == ids[k]
        assert m.move_of(ids[k]) == m.legal[k]
        assert int(m.mask().sum()) == len(ids)
        illegal = int(np.flatnonzero(m.mask() == 0)[0])
        with pytest.raises(Exception, match="not legal here"):
            m.play(illegal)
        m.play(ids[k])
    assert m.legal == () and m.legal_actions == []
