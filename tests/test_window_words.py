"""The words the windows show (issue 32, item 6): a tile named in a reason is said in words
beside its three letters (``BOL`` alone reads as the Dutch *bol*), and a count of one is
singular. Generated over seeded playouts, not one quoted example."""

from __future__ import annotations

import random
import re

import pytest

from tablesim.games.core import GameError
from tablesim.games.katoiz import GAME
from tablesim.games.katoiz.components import CELLS, TILE_CODES, Move, tile_name

_REASON_TILE = re.compile(r"\b(?:uses \w+,|moves|takes|puts) ([A-Z][A-Z-]{2})\b( \(([a-z ]+)\))?")


def _probes(state: object) -> list[Move]:
    """Moves of every shape a person can try in ``state`` (most of them illegal)."""
    kind = type(state).__name__
    if kind == "SetState":
        return [Move("place", dst=c) for c in range(CELLS)]
    if kind == "StapelState":
        return [Move("move", src=c, dst=(c + 1) % CELLS) for c in range(CELLS)]
    return [Move(k, tile=t, dst=0) for t in range(len(TILE_CODES)) for k in ("new", "add")]


@pytest.mark.parametrize("variant", ["3-set", "stapeltje", "stapeltoren"])
def test_a_tile_in_a_katoiz_reason_is_said_in_words(variant: str) -> None:
    """Every three-letter tile code a reason names is followed by the tile in words, the
    words of that very code (checked against the components' own colour/shape/size table)."""
    cfg = GAME.make_config({"type": variant, "level": 2}, players=2)
    rng = random.Random(32)
    named = 0
    for seed in range(3):
        state = GAME.new_game(cfg, seed)
        for _ in range(12):
            if GAME.is_terminal(state):
                break
            for move in _probes(state):
                try:
                    GAME.apply(state, move)
                except GameError as exc:
                    for m in _REASON_TILE.finditer(str(exc)):
                        named += 1
                        code, words = m.group(1), m.group(3)
                        assert words == tile_name(TILE_CODES.index(code)), str(exc)
            state = GAME.apply(state, rng.choice(list(GAME.legal_moves(state))))
    assert named > 0  # the probes met tile reasons at all


def test_the_scene_status_counts_one_piece_in_the_singular() -> None:
    """A scene of one piece says "1 piece", of two "2 pieces" (the status line's first line)."""
    from dataclasses import replace
    from pathlib import Path

    from tablesim.sim.scene import load_scene
    from tablesim.sim.view.app import SceneApp

    tower = load_scene(Path(__file__).resolve().parents[1] / "scenes" / "kozo-tower.toml")
    for n, want in ((1, "1 piece"), (2, "2 pieces")):
        app = SceneApp.__new__(SceneApp)  # the status text alone: no window, no world
        app.scene = replace(tower, pieces=tower.pieces[:n])
        app.live, app.verdict, app.explanation = None, "", ""
        line = app.status_lines()[0]
        assert line.endswith(f": {want}"), line


_ONE_PLURAL = re.compile(r"(?<![\w.,])1 [a-z]+s\b")
"""A count of one before a plural noun ("1 moves"); "P1 wins" and "0.1 s" do not match."""


@pytest.mark.parametrize("name", ["catego", "kaito", "katamino", "katoiz"])
def test_a_count_of_one_is_singular_in_the_game_texts(name: str) -> None:
    """Seeded random playouts: no text the window shows of a position says "1 <plural>"."""
    from tablesim.games.registry import game_spec

    game = game_spec(name).part("rules")
    cfg = game.make_config({}, players=2)
    for seed in range(4):
        state, rng = game.new_game(cfg, seed), random.Random(seed)
        for _ in range(120):
            assert not _ONE_PLURAL.findall(game.describe(state)), game.describe(state)
            if game.is_terminal(state):
                break
            state = game.apply(state, rng.choice(list(game.legal_moves(state))))
