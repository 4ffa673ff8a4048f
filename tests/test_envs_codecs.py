"""Fixed action numberings (sim.slices.common.codecs): sizes derived by hand from the rules, every
legal move of seeded positions round-trips, distinct moves get distinct ids, one move keeps its
id from position to position."""

from __future__ import annotations

import random
from collections import defaultdict
from math import comb

import pytest

from tablesim.envs.core import codec_for
from tablesim.games.registry import get_game
from tablesim.sim.slices.common.codecs import EnvError
from tablesim.sim.slices.kaito.codec import kaito_trades
from tablesim.sim.slices.katamino.codec import katamino_replacements

# Orientations under the 24 proper rotations of the cube: 24 / |the piece's rotation group|.
# A flat piece that is not a line keeps in 3D exactly its 2D symmetries (a mirror in the plane is
# a half turn about an axis in the plane): L, Y, N, P pentominoes and the L tetromino have none
# (24), U, V, Z pentominoes, S, T tetrominoes and the L tromino have one (12); a line has the 8
# of a square prism (3), the square tetromino too (3), the monomino all 24 (1).
KATAMINO_ROTATIONS = {
    "2": 24, "3": 24, "4": 24, "5": 24, "6": 12, "7": 12, "8": 12,  # pentominoes L Y N P U V Z
    "A": 3, "B": 24, "C": 3, "D": 12, "E": 12,  # tetrominoes I L O S T
    "V1": 1, "V2": 1, "W1": 3, "W2": 3, "X": 3, "Y": 12,  # monominoes, dominoes, I3, L3
}  # fmt: skip
# Lying flat: the 2D fixed orientations, 8 / |2D symmetry group| (the five tetrominoes give the
# published 19 fixed tetrominoes).
KATAMINO_FLAT = {
    "2": 8, "3": 8, "4": 8, "5": 8, "6": 4, "7": 4, "8": 4,
    "A": 2, "B": 8, "C": 1, "D": 4, "E": 4,
    "V1": 1, "V2": 1, "W1": 2, "W2": 2, "X": 2, "Y": 4,
}  # fmt: skip
# Kozo's standard set: dominoes and I3 are lines (3); 3L, 4T, 4S, 5U, 5V flat with one symmetry
# (12); 4L flat with none (24); 4B the tripod, three-fold about its body diagonal (24/3 = 8);
# 4Q the skew tetracube and 5R, each with one half-turn axis (12).
KOZO_ROTATIONS = {
    "2a": 3, "2b": 3, "3I": 3, "3L": 12, "4L": 24, "4T": 12, "4S": 12, "4B": 8, "4Q": 12,
    "5U": 12, "5V": 12, "5R": 12,
}  # fmt: skip


def _codec(game: str, players: int = 2, **opts):
    g = get_game(game)
    return codec_for(game, g.make_config(opts, players=max(players, g.min_players)))


def test_every_game_has_a_codec() -> None:
    from tablesim.games.registry import game_names, game_spec

    assert [n for n in game_names() if game_spec(n).part("codec") is None] == []


def test_catego_size() -> None:
    assert _codec("catego").n == 11  # one action per column, 2..12
    assert _codec("catego", columns="1..10").n == 10


def test_kaito_size_and_trades() -> None:
    # one side's Mons: 3, 3, 2, 2, 1, 1, 1; minimal payments (no Mon can be dropped)
    katana = {(3, 3), (3, 2), (3, 1), (2, 2), (2, 1, 1)}  # price 4
    kabuto = {(3, 3), (3, 2), (3, 1, 1), (2, 2, 1), (2, 1, 1, 1)}  # price 5
    trades = kaito_trades()
    assert trades[0] == ("", ())
    assert {p for b, p in trades if b == "katana"} == katana
    assert {p for b, p in trades if b == "kabuto"} == kabuto
    n_trades = 1 + len(katana) + len(kabuto)  # 11
    assert _codec("kaito").n == comb(36, 2) + 36 + 36 * n_trades == 630 + 36 + 396


def test_katoiz_sizes() -> None:
    kinds = 5 * 3 * 2  # colour x shape x size
    supply = 20  # level 1 lays out 20 tiles: a player has at most 20 stacks
    assert _codec("katoiz").n == kinds + kinds * supply + kinds + 1 == 661
    assert _codec("katoiz", level=5).n == kinds + kinds * 40 + kinds + 1  # 40 with the dice
    per_removal = 1 + 36 + 36 * 36  # pass, place on a cell, move cell -> cell
    assert _codec("katoiz", type="3-set").n == per_removal == 1333
    assert _codec("katoiz", type="3-set", level=4).n == (1 + 36) * per_removal  # no disc, a cell
    assert _codec("katoiz", type="stapeltje").n == 36 * (36 + 1) + 1  # from x (cell or home), pass


def test_katamino_sizes() -> None:
    from tablesim.games.katamino.duel_cards import MINIS, PENTAS, TETRAS

    rot, flat = sum(KATAMINO_ROTATIONS.values()), sum(KATAMINO_FLAT.values())
    assert (rot, flat) == (209, 75)
    c = _codec("katamino")
    assert [len(o) for o in c.places.table.orients] == [
        KATAMINO_ROTATIONS[p] for p in c.places.table.pieces
    ]
    # solo: 3x3x3, then 5x6 .. 5x10 (10 columns x 5 rows): anchor box 10 x 5 x 3
    assert c.n == 2 + rot * 10 * 5 * 3  # quit, undo, placements
    # a replacement OLD=A+B: 5 = 4+1 (5 x 2) or 3+2 (2 x 2); 4 = 3+1 (2 x 2) or 2+2 (1);
    # 3 = 2+1 (2 x 2); 2 = 1+1 (1); a monomino none
    n_repl = len(PENTAS) * 14 + len(TETRAS) * 5 + 2 * 4 + 2 * 1
    assert len(katamino_replacements()) == n_repl == 133 and len(MINIS) == 6
    gifts = len(PENTAS) + len(TETRAS)
    # duels on 5x3 .. 5x12 boards, pieces lying flat
    assert _codec("katamino", mode="duel").n == gifts + n_repl + flat * 12 * 5 + 1
    # the 3D duel builds the 2x3x5 box
    assert _codec("katamino", mode="duel3d").n == gifts + n_repl + rot * 3 * 2 * 5 + 1
    assert _codec("katamino", mode="picture").n == 2 + flat * 6 * 6  # masks within 6 x 6


def test_kozo_and_kataboom_sizes() -> None:
    c = _codec("kozo", table="stand-in")
    assert dict(zip(c.pieces, c.rots, strict=True)) == KOZO_ROTATIONS
    lattice = 7 * 7  # x, y in 0, 0.5, ..., 3 (the 3 x 3 base on the half-cube lattice)
    spots = 13 * 13  # balance cube spots to the nearest quarter edge: 0, 0.25, ..., 3
    place, take, nocube = sum(KOZO_ROTATIONS.values()) * lattice, 12, 1
    assert c.n == place + take + spots + nocube
    k = _codec("kataboom", table="stand-in")
    no_v = sum(KATAMINO_ROTATIONS.values()) - 2  # the two monominoes are set aside
    assert k.n == no_v * 20 * 20


# ---- round trips over seeded positions --------------------------------------------------------

CASES = [
    ("catego", {}, 3, 40), ("catego", {"columns": "1..10", "partnerships": True}, 1, 40),
    ("kaito", {}, 3, 40), ("kaito", {"movement": "first-tile", "end_check": "capture"}, 2, 40),
    ("katoiz", {}, 2, 40), ("katoiz", {"level": 5}, 2, 40),
    ("katoiz", {"type": "3-set"}, 2, 40), ("katoiz", {"type": "3-set", "level": 4}, 2, 40),
    ("katoiz", {"type": "stapeltje"}, 2, 40), ("katoiz", {"type": "stapeltje", "level": 5}, 2, 30),
    ("katamino", {}, 2, 12), ("katamino", {"mode": "picture"}, 1, 12),
    ("katamino", {"mode": "traditional"}, 1, 12),
    ("katamino", {"mode": "solo3d"}, 1, 12),
    ("katamino", {"mode": "construction"}, 1, 12),
    ("katamino", {"mode": "puzzle3d"}, 1, 12), pytest.param("katamino", {"mode": "duel"}, 1, 4, marks=pytest.mark.slow),
    pytest.param("katamino", {"mode": "handicap"}, 1, 3, marks=pytest.mark.slow), ("katamino", {"mode": "duel3d"}, 1, 11),
    ("kozo", {"table": "stand-in"}, 1, 14),
    pytest.param("kataboom", {"table": "stand-in"}, 6, 5, marks=pytest.mark.slow),
    pytest.param("kozo", {"table": "stand-in", "players": 4}, 2, 40, marks=pytest.mark.slow),
]  # fmt: skip


def _positions(game: str, opts: dict, seeds: int, plies: int):
    g = get_game(game)
    opts = dict(opts)
    players = opts.pop("players", 4 if opts.get("partnerships") else max(2, g.min_players))
    cfg = g.make_config(opts, players=players)
    for seed in range(seeds):
        state = g.new_game(cfg, seed)
        rng = random.Random(seed)
        for _ in range(plies):
            if g.is_terminal(state):
                break
            moves = g.legal_moves(state)
            yield cfg, state, moves
            state = g.apply(state, rng.choice(moves))


def _chosen(game: str, move) -> object:
    """What the player chooses in a move, without the fields the position fills in: the rest
    height (Kozo, Kataboom; a balance cube spot to its quarter edge), the tile on the chosen
    cell (Stapeltje-four), which of two identical tiles (Stapeltoren: the tile's code)."""
    if game == "kozo":
        if move.kind == "cube":
            return ("cube", round(move.pos[0] * 4), round(move.pos[1] * 4))
        return (move.kind, move.piece, move.rot, move.pos[:2])
    if game == "kataboom":
        return (move.piece, move.rot, move.pos[:2])
    if game == "katoiz" and move.kind in ("start", "add", "new"):
        from tablesim.games.katoiz.components import TILE_CODES

        return (move.kind, TILE_CODES[move.tile], move.dst)
    if game == "katoiz" and move.kind == "move" and move.tile >= 0 and move.rem < 0:
        return (move.kind, move.src, move.dst)  # Stapeltje-four's tile lies on src
    return move


@pytest.mark.parametrize(("game", "opts", "seeds", "plies"), CASES)
def test_legal_moves_round_trip(game: str, opts: dict, seeds: int, plies: int) -> None:
    codec = None
    ids_of: dict = defaultdict(set)
    moves_of: dict = defaultdict(set)
    seen: dict = defaultdict(int)  # id -> positions it was legal in
    positions = 0
    for cfg, state, moves in _positions(game, opts, seeds, plies):
        codec = codec or codec_for(game, cfg)
        ids = [codec.encode(m) for m in moves]
        assert len(set(ids)) == len(ids), "two legal moves share an id"
        for m, a in zip(moves, ids, strict=True):
            assert 0 <= a < codec.n
            assert codec.decode(a, state) == m
            ids_of[_chosen(game, m)].add(a)
            moves_of[a].add(_chosen(game, m))
            seen[a] += 1
        positions += 1
    assert positions >= 3
    # the same move has one id in every position, and an id always names the same move
    assert all(len(v) == 1 for v in ids_of.values())
    assert all(len(v) == 1 for v in moves_of.values())
    # ... which long enough runs put to the test: some move was legal in several positions
    # (the duels' few slow positions each ask for another piece)
    assert plies < 10 or any(
        len(v) == 1 and n > 1 for v, n in ((moves_of[a], seen[a]) for a in seen)
    )


def test_the_same_move_has_the_same_id_in_different_positions() -> None:
    """Hand-computed ids of moves typed in different positions (the old numbering gave a
    move its place in the sorted legal list, which changed with the position)."""
    import tablesim

    env = tablesim.env("catego")
    seen = set()
    for seed in range(6):
        env.reset(seed=seed)
        for _ in range(seed):  # other positions: some columns written already
            env.step(int(env.infos[env.agent_selection]["legal_actions"][-1]))
        if "12" in env.legal_moves():
            seen.add(env.action_of("12"))
    assert seen == {10}  # column 12 is the 11th of 2..12
    # Kaito: the Kaito placed on c3 (row 3, column c: cell 2 * 6 + 2 = 14) after the opening
    kaito = _codec("kaito")
    from tablesim.games.kaito.rules import Move

    assert kaito.encode(Move("place", (14,))) == 630 + 14
    # trades: none, the 5 Katana payments, then the Kabuto's in ascending order: 2+1+1+1,
    # 2+2+1, 3+1+1, 3+2 (the 4th: trade 1 + 5 + 3 = 9)
    assert kaito.encode(Move("move", (14,), "kabuto", (3, 2))) == 630 + 36 + 14 * 11 + 9
    # Stapeltje-four: b3 (cell 13) to a1 (cell 0), whatever tile lies on b3
    from tablesim.games.katoiz.components import Move as KMove

    st = _codec("katoiz", type="stapeltje")
    assert st.encode(KMove("move", 7, 13, 0)) == st.encode(KMove("move", 22, 13, 0)) == 13 * 37
    assert st.encode(KMove("move", 7, 13, 36)) == 13 * 37 + 36  # b3 to the home stack


def test_moves_outside_the_space_are_refused() -> None:
    from tablesim.games.katoiz.components import Move as KMove

    with pytest.raises(EnvError, match="not on the pad"):
        _codec("catego").encode(13)
    with pytest.raises(EnvError, match="outside"):
        _codec("katoiz").encode(KMove("add", 0, dst=20))  # stack 21 of a 20-tile supply
    from tablesim.games.kataboom.state import KataboomMove

    kb = _codec("kataboom", table="stand-in")
    # piece "2" (the first), r0, at the window's corner x = 9, y = -10: (0 * 20 + 19) * 20 + 0
    assert kb.encode(KataboomMove("place", "2", 0, (9.0, -10.0, 1.0))) == 380
    with pytest.raises(EnvError, match="outside the action space's window"):
        kb.encode(KataboomMove("place", "2", 0, (10.0, 0.0, 1.0)))
    with pytest.raises(EnvError, match="outside 0..10"):
        _codec("catego").decode(11, None)


@pytest.mark.slow
def test_kataboom_window_holds_every_model() -> None:
    """A seeded random game of each of the 18 models: every legal placement has an id."""
    from tablesim.games.kataboom.models import MODELS

    g = get_game("kataboom")
    for model in range(1, len(MODELS) + 1):
        cfg = g.make_config({"table": "stand-in", "model": model}, players=2)
        codec = codec_for("kataboom", cfg)
        state, rng = g.new_game(cfg, model), random.Random(model)
        while not g.is_terminal(state):
            moves = g.legal_moves(state)
            assert len({codec.encode(m) for m in moves}) == len(moves)
            state = g.apply(state, rng.choice(moves))


@pytest.mark.slow
def test_kozo_on_the_physics_table_round_trips() -> None:
    """Settled poses lie slightly off the lattice: every legal move of positions the physics
    table produced still has one id that decodes back to it."""
    from tablesim.envs.core import Match

    m = Match("kozo", {})  # table = physics, the game's default
    m.reset(1)
    rng = random.Random(1)
    for _ in range(16):
        if m.terminal():
            break
        for a, move in zip(m.legal_actions, m.legal, strict=True):
            assert m.codec.decode(a, m.state) == move
        m.play(rng.choice(m.legal_actions))
    m.close_referee()
