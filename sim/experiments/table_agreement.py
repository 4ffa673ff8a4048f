"""Does the Kozo physics table agree with ``simulate`` of the same tower? (issue #31)

The table (:class:`tablesim.sim.slices.kozo.referee.KozoReferee`) builds a tower one release
at a time in one persistent world; :func:`tablesim.sim.verdict.simulate` judges a whole tower
written down at rest. The goal of issue #31: at effective margins of 0.5 mm and more they give
the same answer. This module plays towers through the table with hand noise 0 (the table's
current default hand otherwise, or the one asked for) and judges the same final tower, as
intended, with ``simulate``; the effective margin comes from statics
(:func:`effective_margin_mm`, the per-piece support margins of :func:`tablesim.sim.statics.analyse`
with the simulation's clearance).

Families:

- ``column`` (:func:`column_moves`): the issue's leaning column. 5U flat on the ring of
  squares, an upright 3I on its corner square, then upright 2a and 2b, each shifted ``d``
  along +x from the piece under it. Closed-form margin: :func:`column_margin_mm`.
- ``beam`` (:func:`beam_moves`): a counterweighted beam. 5U flat, an upright 3I on the middle
  square of its long side, a 2a lying along x across its top at offset ``c``, and an upright
  2b on the beam's -x end. Closed-form margin: :func:`beam_margin_mm`.
- ``game`` (:func:`game_rows`): the towers of seeded careful-vs-greedy games (hand noise 0),
  one case per turn: the table's verdict on that turn against ``simulate`` of the intended
  tower after it.

Every move sequence is legal (the rules check each move before the table measures it). All
randomness is seeded; the same arguments give the same rows.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from tablesim.games.kozo import GAME
from tablesim.games.kozo.blocks import piece_orientations
from tablesim.games.kozo.state import CUBE, PLACE, TAKE, KozoConfig, KozoMove
from tablesim.games.rng import Rng
from tablesim.sim.config import MM, PhysicsConfig
from tablesim.sim.experiments.corpus import MARGIN_BINS, margin_bin
from tablesim.sim.model import Scene

Answer = Literal["stands", "topples"]
CATALOGUE = "kozo-standard"
U_RING = ((0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 1, 0), (2, 1, 0))
"""5U lying flat on the five squares of the ring on the chimney's -y side (the U's opening
is the chimney square (1, 1))."""
UPRIGHT_3 = ((0, 0, 0), (0, 0, 1), (0, 0, 2))
UPRIGHT_2 = ((0, 0, 0), (0, 0, 1))
FLAT_2 = ((0, 0, 0), (1, 0, 0))
BIN_LABELS = ("<0.2", "0.2-0.5", "0.5-1", "1-2", ">2")


def _rot(piece: str, cells: Sequence[tuple[int, int, int]]) -> int:
    """The rotation index of ``piece`` whose cells are ``cells`` (ValueError when none)."""
    shapes = piece_orientations(CATALOGUE, piece)
    key = tuple(sorted(tuple(c) for c in cells))
    if key not in shapes:
        raise ValueError(f"{piece} has no rotation with cells {key}")
    return shapes.index(key)


def _place(piece: str, cells: Sequence[tuple[int, int, int]], pos: Sequence[float]) -> KozoMove:
    x, y, z = (float(v) for v in pos)
    return KozoMove(PLACE, piece, _rot(piece, cells), (x, y, z))


def _cube(x: float, y: float, z: float) -> KozoMove:
    return KozoMove(CUBE, "", 0, (float(x), float(y), float(z)))


@dataclass(frozen=True)
class TableCase:
    """A generated tower: ``family``, ``name``, the legal ``moves`` that build it (turns of a
    polycube and a balance cube), its family ``param`` (``d`` or ``c`` in cube edges), the
    closed-form margin ``margin_mm`` (signed, positive inside) and the ``expected`` answer of
    rigid-body statics (stands iff the margin is positive)."""

    family: str
    name: str
    moves: tuple[KozoMove, ...]
    param: float
    margin_mm: float
    expected: Answer


# ---------------------------------------------------------------------------------------
# The leaning column
# ---------------------------------------------------------------------------------------
def column_margin_mm(d: float, config: PhysicsConfig | None = None) -> float:
    """Closed-form support margin (mm, positive inside) of the leaning column of
    :func:`column_moves` with shift ``d`` (cube edges, 0 <= d < 0.5).

    Statics by hand: the 3I stands upright on the 5U with its top face over x in [0, a] (a the
    cube edge); the world's clearance takes ``clearance / 2`` off every vertical face, so the
    top face's +x edge is at ``a - clearance / 2``. The 2a (cells centred at ``d + 1/2``) and
    the 2b on it (centred at ``2 d + 1/2``) have equal masses, so what the 3I carries has its
    centre of mass at ``(3 d / 2 + 1/2) a``: margin ``(1/2 - 3 d / 2) a - clearance / 2``. The
    other levels hold more: the 2b on the 2a, ``(1/2 - d) a - clearance / 2``; the 3I and all
    above it on the 5U, centre ``(1/2 + 6 d / 7) a`` over a face ending at ``a``. The margin is
    the least of these, the first for ``d >= 0``. The column stands iff it is positive:
    0.8 mm at ``d`` = 0.2996, 0 at 0.3296 (the default 17.8 mm cube, 0.2 mm clearance)."""
    cfg = config or PhysicsConfig()
    a, half_gap = cfg.kozo_cube, cfg.clearance / 2
    levels = ((0.5 - 1.5 * d) * a, (0.5 - d) * a, (0.5 - 6 * d / 7) * a)
    return (min(levels) - half_gap) / MM


def column_for_margin(margin_mm: float, config: PhysicsConfig | None = None) -> float:
    """The shift ``d`` (cube edges) that gives the column the margin ``margin_mm`` (the
    inverse of :func:`column_margin_mm` on its first level)."""
    cfg = config or PhysicsConfig()
    return (0.5 - (margin_mm * MM + cfg.clearance / 2) / cfg.kozo_cube) / 1.5


def column_moves(d: float) -> tuple[KozoMove, ...]:
    """The legal moves that build the leaning column with shift ``d`` (cube edges): four
    turns, each a polycube and a balance cube.

    Polycubes: 5U flat at (0, 0, 0) on the ring (:data:`U_RING`), 3I upright on the square
    (0, 0) (z 1..4), 2a upright at (d, 0, 4), 2b upright at (2 d, 0, 6). Balance cubes (the
    rules want one each turn while a spot is legal) go on the 5U's free squares, away from the
    column: (1.5, 0.5) first (the column overhangs it later, which is allowed), then (2.5, 0.5),
    (2.5, 1.5), (0.5, 1.5); none is on the column's load path."""
    return (
        _place("5U", U_RING, (0, 0, 0)), _cube(1.5, 0.5, 1),
        _place("3I", UPRIGHT_3, (0, 0, 1)), _cube(2.5, 0.5, 1),
        _place("2a", UPRIGHT_2, (d, 0, 4)), _cube(2.5, 1.5, 1),
        _place("2b", UPRIGHT_2, (2 * d, 0, 6)), _cube(0.5, 1.5, 1),
    )  # fmt: skip


def column_case(margin_mm: float, config: PhysicsConfig | None = None) -> TableCase:
    """The leaning column whose closed-form margin is ``margin_mm`` (signed)."""
    d = column_for_margin(margin_mm, config)
    m = column_margin_mm(d, config)
    return TableCase(
        "column", f"column-d{d:.4f}", column_moves(d), d, m, "stands" if m > 0 else "topples"
    )


# ---------------------------------------------------------------------------------------
# The counterweighted beam
# ---------------------------------------------------------------------------------------
def beam_margin_mm(c: float, config: PhysicsConfig | None = None) -> float:
    """Closed-form support margin (mm, positive inside) of the beam of :func:`beam_moves`
    with offset ``c`` (cube edges, 0 <= c <= 1).

    Statics by hand: the upright 3I's top face spans x in [a, 2 a], less ``clearance / 2`` at
    each side. The 2a beam lies on it over x in [c a, (c + 2) a] (its centre at ``c + 1``),
    the upright 2b on its -x cell (centre ``c + 1/2``); equal masses put what the 3I carries at
    ``(c + 3/4) a``. The -x side binds for ``c < 3/4``: margin ``(c - 1/4) a - clearance / 2``;
    the +x side gives ``(5/4 - c) a - clearance / 2``. The 2b on the beam (centred on its cell)
    and the 3I on the 5U hold by half an edge. Stands iff positive: from ``c`` = 0.2556."""
    cfg = config or PhysicsConfig()
    a, half_gap = cfg.kozo_cube, cfg.clearance / 2
    return (min((c - 0.25) * a, (1.25 - c) * a) - half_gap) / MM


def beam_for_margin(margin_mm: float, config: PhysicsConfig | None = None) -> float:
    """The offset ``c`` (cube edges) giving the beam the margin ``margin_mm`` (its -x side)."""
    cfg = config or PhysicsConfig()
    return 0.25 + (margin_mm * MM + cfg.clearance / 2) / cfg.kozo_cube


def beam_moves(c: float) -> tuple[KozoMove, ...]:
    """The legal moves that build the counterweighted beam with offset ``c`` (cube edges).

    Polycubes: 5U flat at (0, 0, 0), 3I upright on the square (1, 0) (z 1..4), 2a lying
    along x at (c, 0, 4) (x from c to c + 2, inside the squares for 0 <= c <= 1), 2b upright at
    (c, 0, 5) on the beam's -x cell. Balance cubes on the 5U's free squares: (0.5, 0.5) first
    (before the beam overhangs it), (2.5, 0.5), (0.5, 1.5), (2.5, 1.5)."""
    return (
        _place("5U", U_RING, (0, 0, 0)), _cube(0.5, 0.5, 1),
        _place("3I", UPRIGHT_3, (1, 0, 1)), _cube(2.5, 0.5, 1),
        _place("2a", FLAT_2, (c, 0, 4)), _cube(0.5, 1.5, 1),
        _place("2b", UPRIGHT_2, (c, 0, 5)), _cube(2.5, 1.5, 1),
    )  # fmt: skip


def beam_case(margin_mm: float, config: PhysicsConfig | None = None) -> TableCase:
    """The counterweighted beam whose closed-form margin is ``margin_mm`` (signed)."""
    c = beam_for_margin(margin_mm, config)
    m = beam_margin_mm(c, config)
    return TableCase(
        "beam", f"beam-c{c:.4f}", beam_moves(c), c, m, "stands" if m > 0 else "topples"
    )


def generate(
    seed: int = 0, per_bin: int = 1, families: Iterable[str] = ("column", "beam")
) -> list[TableCase]:
    """Generated cases: for each family, margin bin (:data:`tablesim.sim.experiments.corpus.MARGIN_BINS`;
        ">2" draws from 2-5 mm) and side (stands and topples), ``per_bin`` margins drawn uniformly
        in the bin from ``Rng.from_seed(seed, "table-agreement", family)`` (the first bin from 0.02 mm:
    a tower on the boundary has no answer)."""
    out: list[TableCase] = []
    makers = {"column": column_case, "beam": beam_case}
    for family in families:
        if family not in makers:
            raise ValueError(f"unknown family {family!r} (allowed: {', '.join(makers)})")
        rng = Rng.from_seed(seed, "table-agreement", family)
        for k in range(len(MARGIN_BINS) - 1):
            lo, hi = MARGIN_BINS[k], min(MARGIN_BINS[k + 1], 5.0)
            for _ in range(per_bin):
                for sign in (1.0, -1.0):
                    u, rng = rng.random()
                    m = lo + (hi - lo) * u if k else 0.02 + (hi - 0.02) * u
                    out.append(makers[family](sign * m))
    return out


# ---------------------------------------------------------------------------------------
# Running a case
# ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class AgreementRow:
    """One comparison. ``margin_mm``: the effective margin by statics (signed, None when no
    piece has an area support); ``closed_form_mm``: the family's hand-derived margin (None for
    game towers); ``expected``: the closed form's answer. ``table``: the table's verdict
    (``topples`` when any piece fell while the moves were measured), ``table_fell`` and
    ``table_fall_s`` (first fall, seconds from the start of the move ``table_move``, its index
    in the case's moves). ``simulate`` and ``simulate_p``: :func:`tablesim.sim.verdict.simulate`
    of the same tower as intended. ``release``: the table's hand. CPU seconds of each side."""

    family: str
    name: str
    param: float | None
    margin_mm: float | None
    closed_form_mm: float | None
    expected: Answer | None
    release: str
    table: Answer
    table_fell: tuple[str, ...]
    table_fall_s: float | None
    table_move: int | None
    simulate: str
    simulate_p: float
    table_cpu_s: float
    simulate_cpu_s: float

    @property
    def agree(self) -> bool:
        """Whether the table and ``simulate`` give the same answer."""
        return self.table == self.simulate

    @property
    def bin(self) -> str:
        """The margin bin of ``|margin_mm|`` (``"none"`` without a margin)."""
        return "none" if self.margin_mm is None else margin_bin(abs(self.margin_mm))

    def to_json(self) -> dict[str, Any]:
        """Plain-dict form (with ``agree`` and ``bin``; floats rounded)."""
        out = asdict(self)
        for k in ("param", "margin_mm", "closed_form_mm", "table_fall_s"):
            if out[k] is not None:
                out[k] = round(out[k], 4)
        out["table_fell"] = list(self.table_fell)
        out["simulate_p"] = round(self.simulate_p, 4)
        out["table_cpu_s"] = round(self.table_cpu_s, 3)
        out["simulate_cpu_s"] = round(self.simulate_cpu_s, 3)
        out["agree"] = self.agree
        out["bin"] = self.bin
        return out


def table_config(release: str | None = None, **options: Any) -> KozoConfig:
    """A two-player, one-round physics Kozo config with hand noise 0; ``release`` None keeps
    the game's current default hand."""
    values: dict[str, Any] = {"hand_mm": 0.0, "hand_deg": 0.0, "rounds": 1, **options}
    if release is not None:
        values["release"] = release
    return GAME.make_config(values, players=2)


def intended_scene(ref: Any, moves: Sequence[KozoMove]) -> Scene:
    """The tower the placements and balance cubes of ``moves`` write, every piece at its
    intended pose, on the Kozo base (what ``simulate`` judges), with the table's window."""
    from tablesim.sim.slices.kozo.referee import base_piece

    pieces = [base_piece(ref.phys)]
    cubes = 0
    for mv in moves:
        if mv.kind == PLACE:
            pieces.append(ref.placement(mv, 0).piece)
        elif mv.kind == CUBE:
            cubes += 1
            pieces.append(ref.placement(mv, cubes).piece)
    return Scene("kozo-table", tuple(pieces), ref.phys, seconds=ref.config.window_s)


def effective_margin_mm(scene: Scene) -> float | None:
    """The effective margin of ``scene`` by statics (mm, signed): the least per-piece support
    margin of :func:`tablesim.sim.statics.analyse` (the centre of mass of a piece and what it
    carries against its area support, with the world's clearance). None when some piece has
    no area stacking support (tilted onto an edge, held by its sides, or not touching): statics
    then gives no margin for the scene."""
    from tablesim.sim.statics import analyse

    report = analyse(scene, clearance=scene.physics.clearance)
    margins = [p.margin_mm for p in report.pieces]
    if not margins or any(m is None for m in margins):
        return None
    return min(m for m in margins if m is not None)


def judge(scene: Scene, replicas: int = 8, seed: int = 0) -> tuple[str, float, float]:
    """``simulate`` of ``scene`` (verdict profile, one process): verdict, topple probability
    and CPU seconds."""
    from tablesim.sim.verdict import simulate

    t0 = time.process_time()
    v = simulate(scene, replicas=replicas, seed=seed, workers=1)
    return v.verdict, float(v.topple_probability), time.process_time() - t0


def play_at_table(
    moves: Sequence[KozoMove], config: KozoConfig, seed: int = 1
) -> tuple[Answer, tuple[str, ...], float | None, int | None, float]:
    """Measure and apply ``moves`` at a fresh Kozo table (rules checked before each move),
    stopping at the first fall. Returns the verdict, the pieces that fell, the first fall's
    time from the start of its move, that move's index, and the CPU seconds."""
    from tablesim.sim.slices.kozo.referee import KozoReferee

    t0 = time.process_time()
    state = GAME.new_game(config, seed)
    with KozoReferee(config, seed) as ref:
        for i, mv in enumerate(moves):
            GAME.check_move(state, mv)
            measured = ref.measure(state, mv)
            state = GAME.apply(state, measured)
            out = measured.outcome
            if out is not None and out.fell:
                cpu = time.process_time() - t0
                return "topples", tuple(out.fell), out.fall_time, i, cpu
    return "stands", (), None, None, time.process_time() - t0


def run_case(
    case: TableCase, release: str | None = None, replicas: int = 8, escalate: bool = True
) -> AgreementRow:
    """The table's verdict on ``case`` (hand noise 0, hand ``release`` or the default; with
    ``escalate`` off, the table that never leaves Gauss-Seidel) against ``simulate`` of the same
    tower as intended, with its statics margin."""
    from tablesim.sim.slices.kozo.referee import KozoReferee

    cfg = table_config(release, escalate=escalate)
    table, fell, first, at, table_cpu = play_at_table(case.moves, cfg)
    with KozoReferee(cfg, 1) as ref:
        scene = intended_scene(ref, case.moves)
    verdict, p, sim_cpu = judge(scene, replicas)
    return AgreementRow(
        case.family, case.name, case.param, effective_margin_mm(scene), case.margin_mm,
        case.expected, cfg.release, table, fell, first, at, verdict, p, table_cpu, sim_cpu,
    )  # fmt: skip


def game_rows(
    seed: int,
    release: str | None = None,
    replicas: int = 8,
    max_turns: int = 30,
    escalate: bool = True,
) -> list[AgreementRow]:
    """One seeded careful-vs-greedy game at the table (hand noise 0, one round), one row per
    turn (at most ``max_turns``): the table's verdict on that turn (a fall while its polycube
    or balance cube was measured) against ``simulate`` of the same tower: the table's settled
    tower before the turn (:meth:`KozoReferee.tower_scene`) with the turn's released pieces at
    their intended poses. (Not the intended poses of the whole game: a bot places on the
    settled tower, whose pieces sag and tilt by fractions of a millimetre and of a degree, so
    the intended tower of a whole game is not the tower the table held: a balance cube written
    0.2 mm above a tilted piece, a piece 1.7 mm past its support's edge where the table's tilted
    neighbour props it.) ``table_cpu_s`` is the turn's share of the game, bots included."""
    from tablesim.games.session import make_seats
    from tablesim.sim.slices.kozo.referee import KozoReferee

    cfg = table_config(release, escalate=escalate)
    seats = make_seats("kozo", ["careful", "greedy"], seed)
    state = GAME.new_game(cfg, seed)
    rows: list[AgreementRow] = []
    ref = KozoReferee(cfg, seed)
    with ref:
        turn, t0 = 0, time.process_time()
        before, released = state, []
        while not GAME.is_terminal(state) and not state.rounds and turn < max_turns:
            seat = GAME.current_player(state)
            if seat is None:
                break
            bot = seats[seat].bot
            if bot is None:
                raise ValueError(f"seat {seat} has no bot")
            mv = bot.choose(state)
            measured = ref.measure(state, mv)
            state = GAME.apply(state, measured)
            if mv.kind == TAKE:
                continue
            if mv.kind in (PLACE, CUBE):
                n = 1 + sum(1 for it in before.tower if it.is_balance) if mv.kind == CUBE else 0
                released.append(ref.placement(mv, n).piece)
            out = measured.outcome
            fell = bool(out is not None and out.fell)
            if mv.kind == PLACE and not fell:
                continue
            turn += 1
            table_cpu = time.process_time() - t0
            scene = ref.tower_scene(before, released)
            verdict, p, sim_cpu = judge(scene, replicas)
            rows.append(AgreementRow(
                "game", f"game-s{seed}-t{turn}", None, effective_margin_mm(scene), None, None,
                cfg.release, "topples" if fell else "stands",
                tuple(out.fell) if out is not None and fell else (),
                out.fall_time if out is not None and fell else None,
                None, verdict, p, table_cpu, sim_cpu,
            ))  # fmt: skip
            before, released, t0 = state, [], time.process_time()
    return rows


def kataboom_rows(
    seed: int, replicas: int = 8, max_turns: int = 12, model: int = 1, escalate: bool = True
) -> list[AgreementRow]:
    """The Kataboom physics table against ``simulate``, as :func:`game_rows` does for Kozo: one
    seeded game on starting model ``model`` (two players, hand noise 0, no nudges), one row
    per placement: the table's verdict (a fall while the placement was watched) against
    ``simulate`` of the table's settled structure before it plus the piece at its intended
    pose (:meth:`KataboomReferee.structure_scene`). The placements are drawn to cover both
    sides of the boundary: each turn a target support margin is drawn uniformly from -0.05 to
    0.4 edges and the candidate whose rules margin (``placement_margins``) is nearest is
    placed (seeded ties). Family ``kataboom``; ``param``: the rules margin (edges);
    ``table_cpu_s``: the placement's watch at the table (no bots). Stops at the first fall
    (the game is over), after ``max_turns`` or when no placement is left."""
    import numpy as np

    from tablesim.games.kataboom.rules import GAME as KATABOOM
    from tablesim.sim.slices.kataboom.referee import KataboomReferee

    cfg = KATABOOM.make_config(
        {"hand_mm": 0.0, "hand_deg": 0.0, "nudges": 0, "model": model, "escalate": escalate},
        players=2,
    )
    rng = np.random.default_rng([seed, model])
    state = KATABOOM.new_game(cfg, seed)
    rows: list[AgreementRow] = []
    ref = KataboomReferee(cfg, seed)
    with ref:
        for turn in range(1, max_turns + 1):
            if KATABOOM.is_terminal(state):
                break
            margins = KATABOOM.placement_margins(state)
            if not margins:
                break
            target = rng.uniform(-0.05, 0.4)
            moves = sorted(margins)
            order = rng.permutation(len(moves))
            k = min(range(len(moves)), key=lambda i: (abs(margins[moves[i]] - target), order[i]))
            mv = moves[k]
            scene = ref.structure_scene(state, [ref.scene_piece(mv.piece, mv.rot, mv.pos)])
            t0 = time.process_time()
            measured = ref.measure(state, mv)
            table_cpu = time.process_time() - t0
            out = measured.outcome
            fell = bool(out is not None and out.fell)
            verdict, p, sim_cpu = judge(scene, replicas)
            rows.append(AgreementRow(
                "kataboom", f"kataboom-m{model}-s{seed}-t{turn}", float(margins[mv]),
                effective_margin_mm(scene), None, None, cfg.release,
                "topples" if fell else "stands",
                tuple(out.fell) if out is not None and fell else (),
                out.fall_time if out is not None and fell else None,
                None, verdict, p, table_cpu, sim_cpu,
            ))  # fmt: skip
            state = KATABOOM.apply(state, measured)
            if fell:
                break
    return rows


# ---------------------------------------------------------------------------------------
# Summaries
# ---------------------------------------------------------------------------------------
def bin_agreement(rows: Iterable[AgreementRow]) -> dict[str, dict[str, tuple[int, int]]]:
    """Agreement per family and margin bin of ``|margin_mm|`` (< 0.2, 0.2-0.5, 0.5-1, 1-2,
    > 2 mm): ``{family: {bin: (agreeing, cases)}}``, families in first-seen order, bins in
    margin order (only bins with cases; ``"none"`` last), plus an ``"all"`` family."""
    table: dict[str, dict[str, list[int]]] = {}
    for r in rows:
        for fam in (r.family, "all"):
            cell = table.setdefault(fam, {}).setdefault(r.bin, [0, 0])
            cell[0] += int(r.agree)
            cell[1] += 1
    order = {b: k for k, b in enumerate((*BIN_LABELS, "none"))}
    out: dict[str, dict[str, tuple[int, int]]] = {}
    for fam in [f for f in table if f != "all"] + (["all"] if table else []):
        bins = table[fam]
        out[fam] = {b: (bins[b][0], bins[b][1]) for b in sorted(bins, key=order.__getitem__)}
    return out


def disagreements(rows: Iterable[AgreementRow], min_margin_mm: float = 0.5) -> list[AgreementRow]:
    """The rows where the table and ``simulate`` disagree at ``|margin| >= min_margin_mm``."""
    return [
        r for r in rows
        if not r.agree and r.margin_mm is not None and abs(r.margin_mm) >= min_margin_mm
    ]  # fmt: skip


def margin_bins() -> tuple[str, ...]:
    """The bin labels in margin order."""
    return BIN_LABELS


def game_tower(seed: int, turn: int, release: str | None = None, escalate: bool = True) -> Scene:
    """The tower :func:`game_rows` judges with ``simulate`` on turn ``turn`` (from 1) of the
    seeded careful-vs-greedy game: the table's settled tower before the turn plus the turn's
    released pieces, without judging the earlier turns. ValueError when the game ends first.
    (``tests/data/kozo-game-s3-t10.json`` is seed 3, turn 10: no rigid equilibrium, stands.)"""
    from tablesim.games.session import make_seats
    from tablesim.sim.slices.kozo.referee import KozoReferee

    cfg = table_config(release, escalate=escalate)
    seats = make_seats("kozo", ["careful", "greedy"], seed)
    state = GAME.new_game(cfg, seed)
    ref = KozoReferee(cfg, seed)
    with ref:
        done, before, released = 0, state, []
        while not GAME.is_terminal(state) and not state.rounds:
            seat = GAME.current_player(state)
            bot = None if seat is None else seats[seat].bot
            if bot is None:
                break
            mv = bot.choose(state)
            measured = ref.measure(state, mv)
            state = GAME.apply(state, measured)
            if mv.kind == TAKE:
                continue
            if mv.kind in (PLACE, CUBE):
                n = 1 + sum(1 for it in before.tower if it.is_balance) if mv.kind == CUBE else 0
                released.append(ref.placement(mv, n).piece)
            out = measured.outcome
            if mv.kind == PLACE and not (out is not None and out.fell):
                continue
            done += 1
            if done == turn:
                return ref.tower_scene(before, released)
            before, released = state, []
    raise ValueError(f"game seed {seed} ended after {done} turns, before turn {turn}")
