"""Observation planes (sim.slices.common.features): inside their Box, seen from the observer, the
random stream hidden, and counts that can be derived from the rules by hand."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import tablesim  # noqa: E402
from tablesim.envs.core import Match  # noqa: E402
from tablesim.games.registry import get_game  # noqa: E402
from tablesim.games.rng import Rng  # noqa: E402

CASES = [
    ("catego", {}, 30), ("kaito", {}, 30), ("katoiz", {}, 30),
    ("katoiz", {"type": "3-set", "level": 4}, 30), ("katoiz", {"type": "stapeltje"}, 30),
    ("katamino", {}, 30), ("kozo", {"table": "stand-in"}, 10),
    pytest.param("kataboom", {"table": "stand-in"}, 30, marks=pytest.mark.slow),
    pytest.param("katamino", {"mode": "duel3d"}, 200, marks=pytest.mark.slow),
    pytest.param("katamino", {"mode": "duel"}, 60, marks=pytest.mark.slow),
]  # fmt: skip


@pytest.mark.parametrize(("game", "opts", "plies"), CASES)
def test_observations_lie_in_their_space(game: str, opts: dict, plies: int) -> None:
    m = Match(game, opts)
    box = m.observation_space()["observation"]
    m.reset(4)
    rng = random.Random(4)
    for _ in range(plies):
        for seat in range(m.players):
            obs = m.observation(seat)
            assert obs.shape == box.shape and obs.dtype == np.float32
            assert box.contains(obs), (
                game,
                seat,
                np.argwhere((obs < box.low) | (obs > box.high))[:3],
            )
        if m.terminal():
            break
        m.play(rng.choice(m.legal_actions))


def test_kaito_planes_count_the_tiles_and_flip_with_the_observer() -> None:
    m = Match("kaito", {})
    m.reset(0)
    red, black = m.observation(0), m.observation(1)
    # per colour 7 Katana, 3 Kabuto, 2 + 2 + 3 Mons; 2 opening tiles; one tile on every cell
    assert red[0:5].sum(axis=(1, 2)).tolist() == [7, 3, 2, 2, 3]
    assert red[5:10].sum(axis=(1, 2)).tolist() == [7, 3, 2, 2, 3]
    assert red[10].sum() == 2
    assert (red[0:11].sum(axis=0) == 1).all()
    assert (black[0:5] == red[5:10]).all() and (black[5:10] == red[0:5]).all()
    assert red[22].max() == 0 and black[22].min() == 1  # black does the opening
    assert red[23].min() == 1  # the remove phase


def test_catego_rows_are_relative_and_the_roll_hides_the_stream() -> None:
    m = Match("catego", {})
    m.reset(3)
    a, b = m.state.roll
    m.play(m.action_of("7"))  # seat 0 writes a + b in column 7 (the 6th of 2..12)
    seen_by_1 = m.observation(1)
    assert seen_by_1[1, 5] == a + b  # seat +1 of seat 1 is seat 0
    assert seen_by_1[0].sum() == 0  # seat 1 has written nothing
    assert seen_by_1[4].tolist() == list(range(2, 13))
    assert m.observation(0)[0, 5] == a + b
    other = replace(m.state, rng=Rng.from_seed(99, "another stream"))
    assert (m.features(other, 1) == seen_by_1).all()  # only the stream differs: same planes


def test_katoiz_3set_board_planes() -> None:
    m = Match("katoiz", {"type": "3-set"})
    m.reset(1)
    obs = m.observation(0)
    assert obs[10].sum() == 36  # 36 picture tiles on the 6 x 6 board
    assert obs[0:5].sum() == obs[5:8].sum() == obs[8:10].sum() == 36  # colour, shape, size
    assert obs[11:15].sum() == 0  # no discs yet


def test_katamino_target_and_covered_planes() -> None:
    m = Match("katamino", {})
    m.reset(0)
    z = m.features.z
    obs = m.observation(0)
    from tablesim.games.katamino.game import family

    target = family(m.state.mode).stage_target(m.state)
    assert obs[0:z].sum() == len(target.cells)
    assert obs[z : 2 * z].sum() == 0
    place = next(a for a in m.legal_actions if m.codec.segment(a) == "place")
    size = len(m.move_of(place).cells)
    m.play(place)
    assert m.observation(0)[z : 2 * z].sum() == size


def test_kozo_voxels_count_half_cubes() -> None:
    m = Match("kozo", {"table": "stand-in"})
    m.reset(2)
    obs = m.observation(0)
    assert obs[:48].sum() == 0 and obs[48:60, 0, 0].sum() == 12  # empty base, 12 in supply
    place = next(a for a in m.legal_actions if m.codec.segment(a) == "place")
    piece = m.move_of(place).piece
    m.play(place)
    cubes = int(piece[0])  # Kozo's names start with the cube count (2a, 3L, 4T, 5U)
    obs = m.observation(0)
    assert obs[:24].sum() == 8 * cubes  # a cube is 2 x 2 x 2 half-cube voxels
    assert obs[24:48].sum() == 0
    assert obs[48:60, 0, 0].sum() == 11


def test_kataboom_voxels_count_the_model_cubes() -> None:
    from tablesim.games.kataboom.geometry import orientations

    m = Match("kataboom", {"table": "stand-in"})
    m.reset(0)
    cubes = sum(len(orientations(it.name)[it.rot]) for it in m.state.structure)
    assert m.observation(0)[:16].sum() == cubes
    assert m.observation(0)[16:32, 0, 0].sum() == len(m.state.supply)


def test_env_observe_is_per_agent() -> None:
    env = tablesim.env("kaito")
    env.reset(seed=0)
    a, b = env.observe("player_0")["observation"], env.observe("player_1")["observation"]
    assert (a[0:5] == b[5:10]).all() and not (a == b).all()
    assert get_game("kaito").name == env.match.game.name
