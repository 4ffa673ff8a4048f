"""The light games' fast paths (issue 36, goal 1) play the same games as their plain
definitions, move for move.

The fast paths: Catego's pad extended by each entry and its legal columns kept with the
state, its planes packed with ``struct``; Kaito's and Katoiz-Stapeltoren's moves made once and
shared, sorted by their fields, their trade options and distinct supply tiles remembered;
the codecs' ``encode_many``; Kaito's planes written in fewer numpy calls. The
references below are the definitions before issue 36's round 11 (main at 087a687): the moves
listed and sorted by their plain definitions (fresh ``Move`` values, every trade option
computed), the planes built by the old code. :func:`env_lockstep.lockstep` plays seeded masked
random rollouts through ``tablesim.env`` and through an environment on those references
(every move encoded one by one), comparing every agent's observation and mask, rewards,
terminations, ``legal_actions``, the legal moves' texts, the move each action plays and the
state after it; here the planes are also compared with the reference planes, and Catego's
kept pad with the pad rebuilt from the history. Mutating a fast path fails it (the last
tests)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from env_lockstep import lockstep

import tablesim
from tablesim.games.catego import GAME as CATEGO
from tablesim.games.catego import CategoState
from tablesim.games.kaito import rules as kaito_rules
from tablesim.games.katoiz import stapeltoren
from tablesim.sim.slices.common.features import F32

# ---- the references (the code before this round) ------------------------------------------


def catego_legal(state: Any) -> tuple[int, ...]:
    """Catego's legal columns from the pad rebuilt from the history (nothing kept)."""
    fresh = CategoState(state.config, state.rng, state.roll, state.history)
    g = CATEGO
    if g.is_terminal(fresh):
        return ()
    seat = fresh.turn % fresh.config.players
    cfg = fresh.config
    open_cols = tuple(
        label for label, v in zip(cfg.columns, fresh.rows[seat], strict=True) if v is None
    )
    blocked = g.first_entry_blocks(fresh)
    return tuple(label for label in open_cols if label not in blocked) or open_cols


def kaito_legal(state: Any) -> tuple[Any, ...]:
    """Kaito's moves by the plain definition: fresh moves, every trade computed, sorted by the
    dataclass's own order."""
    Move = kaito_rules.Move
    phase = state.phase
    if phase == "remove":
        return (
            Move("remove", tuple(c for c, t in enumerate(state.board) if t == kaito_rules.OPENING)),
        )
    if phase == "place":
        return tuple(Move("place", (c,)) for c, t in enumerate(state.board) if t is None)
    if state.outcome is not None:
        return ()
    out: list[Any] = []
    for cell in state.targets:
        tile = state.board[cell]
        out.append(Move("move", (cell,)))
        if state.config.end_check == "capture":
            board = list(state.board)
            board[cell] = None
            if kaito_rules.material_loss(board) is not None:
                continue
        trades = kaito_rules._trade_options_of(state, tile)
        out.extend(Move("move", (cell,), buy, pay) for buy, pay in trades)
    return tuple(sorted(out))


def toren_legal(state: Any) -> tuple[Any, ...]:
    """Stapeltoren's moves by the plain definition (fresh moves, sorted by the dataclass)."""
    from tablesim.games.katoiz.components import MATCH, TILE_CODES, Move, fits

    if stapeltoren.STAPELTOREN.is_terminal(state):
        return ()
    seen: set[str] = set()
    tiles = []
    for t in state.supply:
        if TILE_CODES[t] not in seen:
            seen.add(TILE_CODES[t])
            tiles.append(t)
    if state.starting:
        return tuple(sorted(Move("start", t) for t in tiles))
    need = 2 if state.config.two_matches else 1
    fitting = [t for t in tiles if fits(t, state.roll)]
    moves = [
        Move("add", t, dst=i)
        for t in fitting
        for i, stack in enumerate(state.stacks[state.seat])
        if MATCH[t][stack[-1]] >= need
    ]
    if not moves and state.config.colour_die:
        moves = [Move("new", t) for t in fitting]
    return tuple(sorted(moves)) or (stapeltoren.PASS,)


def catego_planes(f: Any, state: Any, seat: int) -> np.ndarray:
    from tablesim.games.catego import column_winner

    cfg = state.config
    out = np.zeros(f.shape, F32)
    rows = state.rows
    n = cfg.players
    for k in range(min(4, n)):
        out[k] = [v or 0 for v in rows[(seat + k) % n]]
    out[4] = f.columns
    mine = cfg.side_of(seat)
    scores = [0] * len(cfg.sides)
    for j, cells in enumerate(zip(*rows, strict=True)):
        if None in cells:
            continue
        side = column_winner([sum(cells[s] for s in team) for team in cfg.sides], cfg.tie_rule)
        if side is None:
            out[7, j] = 1
        else:
            out[5 if side == mine else 6, j] = 1
            scores[side] += f.columns[j]
    if state.roll is not None:
        out[8] = state.roll[0] + state.roll[1]
    out[9] = float(state.turn < n * len(f.columns) and state.turn % n == seat)
    out[10] = scores[mine]
    out[11] = max(s for i, s in enumerate(scores) if i != mine)
    out[12] = state.turn / (n * len(f.columns))
    return out


def kaito_planes(f: Any, state: Any, seat: int) -> np.ndarray:
    from tablesim.sim.slices.kaito.features import _AT, KAITO_KINDS

    out = np.zeros(f.shape, F32)
    flat = out.reshape(-1)
    cells = [_AT[seat][t] + c for c, t in enumerate(state.board) if t is not None]
    if state.kaito is not None:
        cells.append(11 * 36 + state.kaito)
    flat[cells] = 1
    for base, held in ((12, state.held[seat]), (17, state.held[1 - seat])):
        for tile in held:
            out[base + KAITO_KINDS.index(tile[1])] += 1
    out[22] = float(f.game.current_player(state) == seat)
    out[23] = float(state.phase == "remove")
    out[24] = float(state.phase == "place")
    return out


def toren_planes(f: Any, state: Any, seat: int) -> np.ndarray:
    from tablesim.sim.slices.katoiz.codec import tile_kind
    from tablesim.sim.slices.katoiz.features import _fitting_kinds

    out = np.zeros(f.shape, F32)
    for t in state.supply:
        out[0, tile_kind(t)] += 1
    for k in range(min(4, f.players)):
        for stack in state.stacks[f.relative(seat, k)]:
            j = tile_kind(stack[-1])
            out[1 + k, j] += 1
            out[5 + k, j] = max(out[5 + k, j], len(stack))
    out[9] = 1.0 if state.starting else _fitting_kinds(state.roll)
    out[10] = float(f.game.current_player(state) == seat)
    out[11] = float(state.starting)
    out[12] = min(1.0, state.passes / f.players)
    return out


REFERENCE = {
    "catego": (catego_legal, catego_planes),
    "kaito": (kaito_legal, kaito_planes),
    "katoiz": (toren_legal, toren_planes),
}


def checking_pick(game: str) -> Any:
    """A uniform pick that first compares the planes of every seat with the reference planes
    (and Catego's kept pad with the pad rebuilt from the history)."""
    planes = REFERENCE[game][1]

    def pick(env: Any, ids: np.ndarray, rng: np.random.Generator) -> int:
        m = env.match
        state = m.state
        for seat in range(m.players):
            want = planes(m.features, state, seat)
            assert m.observation(seat).tobytes() == want.tobytes(), (game, state.turn, seat)
        if game == "catego":
            fresh = CategoState(state.config, state.rng, state.roll, state.history)
            assert state.rows == fresh.rows
            assert state.column_sides == fresh.column_sides
        return int(rng.choice(ids))

    return pick


CASES = [
    ("catego", {}),
    ("catego", {"players": 3}),
    ("catego", {"players": 4, "partnerships": True}),
    ("catego", {"first_entry": "everyone", "tie_rule": "any-duplicate"}),
    ("kaito", {}),
    ("kaito", {"movement": "first-tile", "end_check": "capture"}),
    ("katoiz", {}),
    ("katoiz", {"level": 2}),
    ("katoiz", {"level": 3}),
    ("katoiz", {"level": 5, "players": 3}),
]


@pytest.mark.parametrize(("game", "options"), CASES, ids=[f"{g}-{o}" for g, o in CASES])
def test_fast_paths_play_the_reference_games(game: str, options: dict[str, Any]) -> None:
    steps = lockstep(
        game, REFERENCE[game][0], range(4), options, pick=checking_pick(game), texts_every=3
    )
    assert steps > 40


# ---- mutations: a broken fast path fails the comparison ------------------------------------


def _fails(game: str, options: dict[str, Any] | None = None, seeds: range = range(3)) -> None:
    with pytest.raises(AssertionError):
        lockstep(game, REFERENCE[game][0], seeds, options or {}, pick=checking_pick(game))


def test_a_wrong_trade_id_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    from tablesim.sim.slices.kaito.codec import KaitoCodec

    real = KaitoCodec.encode_many

    def shifted(self: Any, moves: Any) -> list[int]:
        ids = real(self, moves) or []
        return [a + 1 if m.buy else a for a, m in zip(ids, moves, strict=True)]

    monkeypatch.setattr(KaitoCodec, "encode_many", shifted)
    _fails("kaito", seeds=range(6))


def test_a_wrong_stack_id_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    from tablesim.sim.slices.katoiz.codec import KatoizCodec

    real = KatoizCodec.encode_many

    def swapped(self: Any, moves: Any) -> list[int] | None:
        ids = real(self, moves)
        return ids if ids is None else ids[::-1] if len(ids) > 2 else ids

    monkeypatch.setattr(KatoizCodec, "encode_many", swapped)
    _fails("katoiz")


def test_kaito_moves_in_another_order_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    from operator import attrgetter

    monkeypatch.setattr(kaito_rules, "_MOVE_ORDER", attrgetter("kind", "buy", "cells", "pay"))
    _fails("kaito")


def test_a_stale_trade_memo_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    kaito_rules._TRADES.clear()
    monkeypatch.setattr(kaito_rules, "_TRADES", _KeyedOnMoverOnly())
    _fails("kaito", seeds=range(6))


class _KeyedOnMoverOnly(dict[Any, Any]):
    """A memo that forgets the held tiles in its key (a wrong cache)."""

    def get(self, key: Any, default: Any = None) -> Any:
        return super().get((key[0], key[2]), default)

    def __setitem__(self, key: Any, value: Any) -> None:
        super().__setitem__((key[0], key[2]), value)


def test_a_wrong_distinct_supply_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    real = stapeltoren._distinct
    monkeypatch.setattr(stapeltoren, "_distinct", lambda tiles: real(tiles)[1:])
    _fails("katoiz")


def test_catego_pad_extended_in_the_wrong_column_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    from tablesim.games import catego

    real = catego.Catego.apply

    def apply(self: Any, state: Any, move: int) -> Any:
        after = real(self, state, move)
        rows = after.__dict__.get("rows")
        if rows is not None and after.turn == 3:  # seat 0's first entry written wrong
            row = list(rows[0])
            i = next(i for i, v in enumerate(row) if v is not None)
            row[i] = row[i] + 1 if row[i] < 12 else 2
            after.__dict__["rows"] = (tuple(row), *rows[1:])
        return after

    monkeypatch.setattr(catego.Catego, "apply", apply)
    _fails("catego")


def test_catego_column_kept_for_the_wrong_side_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    from tablesim.games import catego

    real = catego._column_side
    monkeypatch.setattr(catego, "_column_side", lambda cfg, cells: max(real(cfg, cells), 0))
    _fails("catego")


@pytest.mark.parametrize("game", ["catego", "kaito", "katoiz"])
def test_broken_planes_fail(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    env = tablesim.env(game)
    cls = type(env.match.features)
    real = cls.__call__

    def call(self: Any, state: Any, seat: int) -> np.ndarray:
        out = real(self, state, seat).copy()
        out.reshape(-1)[-1] += 1.0 if seat == 1 else 0.0  # one cell of one seat's planes
        return out

    monkeypatch.setattr(cls, "__call__", call)
    _fails(game)
