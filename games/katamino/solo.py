"""Katamino Duo solo play: staged puzzles from the shipped challenge tables.

Modes (``docs/rules/katamino-duo.md``, "Solo"): ``solo`` (3x3x3, then Penta 6..10),
``solo3d`` (a 3D card's box; or a Penta-4 half + 3 pentaminos + 1 minimino -> 3x3x4),
``construction`` (the rulebook's 11 boxes), ``puzzle3d`` (a flat grid A..F, then a box of the
same cubes), ``traditional`` (Penta 3..7, then + V -> 3x3x4) and ``picture`` (flat animal and
object masks for ages 3+). Every challenge is a list of stages; a stage is a target to fill
exactly with a multiset of pieces, and each stage starts from an empty target with the whole
multiset of that stage (the pieces of the previous stage plus the added ones).

Moves: ``place`` a piece on cells (text ``"3 a1 b1 c1 d1 a2"``; in 3D a cell is
``a1:2``, layer 2 counted from the bottom), ``hint`` (the solver names a piece and cells that
keep the board solvable, or the placed pieces to take back when it is stuck; accepted at any
time but not in ``legal_moves``), ``undo`` (take back the last piece of the current stage)
and ``quit``. A stage that becomes full moves on
to the next stage; the last one ends the game, solved. A state where no piece fits leaves
``undo``, ``hint`` and ``quit``. With 2 seats the players solve together, placing in turns
("alone or with other players"); hints, undos and quitting do not pass the turn.

Result: every seat scores the number of stages completed; all seats win when the challenge
is solved; ``detail`` gives the outcome (``solved`` or ``quit``), hints and undos used.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from numbers import Integral
from typing import Any, ClassVar

import numpy as np

from tablesim.games.core import (
    Bot,
    ConfigError,
    GameError,
    IllegalMoveError,
    MoveParseError,
    Option,
    Result,
    StateFormatError,
    counted,
)
from tablesim.games.katamino import (
    PlacedPiece,
    SolverError,
    Target,
    is_solvable,
    make_problem,
    partial_problem,
    solve_one,
)
from tablesim.games.katamino.family import ModeFamily
from tablesim.games.katamino.solo_data import (
    SOLO_MODES,
    Challenge,
    challenges,
    get_challenge,
    json_cell,
    orientations_of,
    piece,
)
from tablesim.games.polycubes import Cells
from tablesim.games.rng import Rng

MOVE_KINDS = ("hint", "undo", "quit", "place")
"""Move kinds in their sort order (so listings show the commands first)."""

Placement = tuple[str, Cells]


@dataclass(frozen=True)
class SoloConfig:
    """A solo game: ``card``/``challenge`` 0 means "chosen by the seed"; ``swap`` is
    ``""`` or ``"OLD=NEW[+NEW2]"``; ``straight_horizontal`` is the classic Katamino rule."""

    mode: str
    card: int
    challenge: int
    swap: str
    straight_horizontal: bool
    players: int
    variant_3d: bool = False
    """``traditional``: the rulebook's optional 3D variant (+ V -> 3x3x4 after Penta 7)."""
    penta4_first: bool = False
    """``solo3d`` cards 5..7: fill the half's Penta 4 flat before the 3x3x4 (not a rulebook
    step; the behaviour before it became optional)."""


OPTIONAL_STAGES: dict[str, tuple[str, str]] = {
    "traditional": ("variant_3d", "3x3x4"),
    "solo3d": ("penta4_first", "Penta 4"),
}
"""Mode -> (the option that plays it, the stage name): stages shipped in the tables but
played only with that option (docs/rules/katamino-duo.md, "Solo")."""


def skipped_stages(config: SoloConfig, ch: Challenge) -> tuple[str, ...]:
    """Names of the challenge's stages the config leaves out (its optional stages, unless
    their option is on; never the only stage)."""
    option, name = OPTIONAL_STAGES.get(config.mode, ("", ""))
    if not option or getattr(config, option) or len(ch.stages) < 2:
        return ()
    return tuple(st.name for st in ch.stages if st.name == name)


@dataclass(frozen=True, order=True)
class SoloMove:
    """``kind`` index into MOVE_KINDS; ``piece`` and ``cells`` only for placements."""

    kind: int
    piece: str = ""
    cells: Cells = ()

    @property
    def kind_name(self) -> str:
        """``hint``, ``undo``, ``quit`` or ``place``."""
        return MOVE_KINDS[self.kind]


HINT, UNDO, QUIT = (SoloMove(i) for i in range(3))


def stuck_hint_text(placed: Sequence[str], culprits: Sequence[str]) -> str:
    """The hint on a stuck board in the words of ``undo``, which takes back only the last
    piece placed: the culprit ``undo`` reaches first (the latest placed of ``culprits``,
    pieces whose removal alone makes the board solvable) and the pieces it takes back on the
    way, last placed first (``take back 7: undo 3 times (W1, B, 7)``); ``take back Y`` when
    the culprit is the last piece, ``take back pieces (undo)`` when no single piece is."""
    reach = [k for k, name in enumerate(placed) if name in culprits]
    if not reach:
        return "hint: stuck; take back pieces (undo)"
    back = list(reversed(placed[max(reach) :]))
    if len(back) == 1:
        return f"hint: stuck; take back {back[0]}"
    return f"hint: stuck; take back {back[-1]}: undo {len(back)} times ({', '.join(back)})"


@dataclass(frozen=True)
class SoloHint:
    """``placement``: a next piece that keeps the board solvable (None when stuck);
    ``culprits``: placed pieces whose removal alone makes a stuck board solvable again."""

    placement: PlacedPiece | None
    culprits: tuple[str, ...]


@dataclass(frozen=True)
class SoloState:
    """Where a solo game stands. ``placed`` is the current stage's board in placing order;
    ``done`` the boards of the completed stages; ``outcome`` is ``""`` while playing."""

    mode: str
    card: int
    challenge: int
    swap: str
    straight_horizontal: bool
    players: int
    stage: int = 0
    placed: tuple[Placement, ...] = ()
    done: tuple[tuple[Placement, ...], ...] = ()
    seat: int = 0
    turn: int = 0
    hints: int = 0
    undos: int = 0
    outcome: str = ""
    note: str = ""
    skip: tuple[str, ...] = ()
    """Names of the challenge's stages not played (see :func:`skipped_stages`)."""


# ------------------------------------------------------------------------------ swaps


def parse_swap(text: str) -> tuple[str, tuple[str, ...]]:
    """``"A=V1+X"`` -> ``("A", ("V1", "X"))`` (ConfigError on a malformed swap)."""
    m = re.fullmatch(r"\s*([A-Za-z0-9]+)\s*=\s*([A-Za-z0-9]+)\s*(?:\+\s*([A-Za-z0-9]+)\s*)?", text)
    if not m:
        raise ConfigError(
            f"katamino: option --swap {text!r}: write OLD=NEW or OLD=NEW1+NEW2 with piece "
            "names, e.g. A=V1+X (several: 3=2,A=B)"
        )
    new = tuple(g.upper() for g in m.groups()[1:] if g)
    return m.group(1).upper(), new


def apply_swap(ch: Challenge, swap: str) -> list[tuple[str, ...]]:
    """Each stage's pieces with ``swap`` made: one swap or several separated by commas, made
    in order ("swapping one or more parts"); ConfigError when one is not a legal swap."""
    stages = [s.pieces for s in ch.stages]
    for one in filter(None, (w.strip() for w in swap.split(","))):
        stages = _swap_once(stages, one)
    return stages


def _swap_once(stages: list[tuple[str, ...]], swap: str) -> list[tuple[str, ...]]:
    old, new = parse_swap(swap)
    sizes = {n: piece(n).size for n in (old, *new)}
    if old not in stages[0]:
        raise ConfigError(
            f"katamino: option --swap {swap!r}: {old} is not among the first pieces "
            f"({', '.join(stages[0])})"
        )
    used = set().union(*map(set, stages))
    clash = [n for n in new if n in used]
    if clash or len(set(new)) != len(new):
        raise ConfigError(
            f"katamino: option --swap {swap!r}: {', '.join(clash) or new[0]} is already used "
            "by this challenge; swap in pieces left on the table"
        )
    if sum(sizes[n] for n in new) != sizes[old]:
        raise ConfigError(
            f"katamino: option --swap {swap!r}: {old} has {sizes[old]} cubes but "
            f"{'+'.join(new)} has {sum(sizes[n] for n in new)}; a swap keeps the size"
        )
    return [tuple(n for n in s if n != old) + new for s in stages]


# ------------------------------------------------------------------------------ geometry


def _shape_key(name: str) -> tuple:
    return tuple(sorted(piece(name).cells))


def shifted(o: Cells, a: tuple[int, int, int], cell: tuple[int, int, int]) -> Cells:
    """Orientation ``o`` translated so its cell ``a`` lands on ``cell`` (sorted cells)."""
    return tuple(sorted((cell[0] + x - a[0], cell[1] + y - a[1], cell[2] + z - a[2])
                        for x, y, z in o))  # fmt: skip


def placements(target: Target, free: frozenset, name: str, straight: bool) -> list[Cells]:
    """Every way to put piece ``name`` on ``free`` cells of ``target`` (sorted cell tuples).

    Cells are bits of one integer (a padded grid, so a piece shifted off the board never
    wraps onto it): a placement fits when its shifted bits all lie in ``free``'s bits. The
    same list as trying every orientation at every free cell (``tests/test_envs_rollout_record``
    keeps that reference)."""
    if not free:
        return []
    pad = 6  # more than a piece's extent: shifted cells stay inside the padded grid
    wx = max(c[0] for c in free) + 2 * pad + 1
    wy = max(c[1] for c in free) + 2 * pad + 1

    def bit(x: int, y: int, z: int) -> int:
        return (x + pad) + wx * ((y + pad) + wy * (z + pad))

    free_bits = 0
    index = {}
    for c in free:
        b = bit(*c)
        free_bits |= 1 << b
        index[c] = b
    out = set()
    for o in orientations_of(name, target.dims, straight):
        a = o[0]
        rel = [(x - a[0], y - a[1], z - a[2]) for x, y, z in o]
        base = bit(0, 0, 0)
        mask = 0
        for x, y, z in rel:
            mask |= 1 << (bit(x, y, z) - base + 4 * base)  # kept nonnegative by 4 * base
        ordered = list(o) == sorted(o)  # a shift keeps sorted cells sorted
        for c, b in index.items():
            shift = b - 4 * base
            m = mask << shift if shift >= 0 else mask >> -shift
            if m & free_bits == m:
                cx, cy, cz = c
                cells = tuple([(cx + x, cy + y, cz + z) for x, y, z in rel])
                out.add(cells if ordered else tuple(sorted(cells)))
    return sorted(out)


# ------------------------------------------------------------------------------ tables

BOARD_BITS = 64
"""Targets of at most this many cells get placement tables (a placement's cells as the bits
of one ``uint64``; every shipped target has at most 54); larger ones use :func:`placements`."""


class PlacementRows:
    """Every placement of one piece on its empty target, in the order of :func:`placements`
    (sorted cell tuples): row ``k`` is orientation ``orient[k]`` of ``orients`` (normalised:
    sorted, minimum corner at the origin) shifted by ``anchor[k]`` (its minimum corner), and
    ``bits[k]`` has bit ``i`` set for each of its cells (``i``: the cell's index in the
    target's sorted cells). On a board the placements that fit are the rows whose bits miss
    the covered cells' bits: a placement lies on free cells exactly when it lies on the
    target and covers none of the covered cells."""

    __slots__ = ("anchor", "bits", "orient", "orients")

    def __init__(self, orients: tuple[Cells, ...], orient: np.ndarray, anchor: np.ndarray,
                 bits: np.ndarray) -> None:  # fmt: skip
        self.orients, self.orient, self.anchor, self.bits = orients, orient, anchor, bits
        for arr in (orient, anchor, bits):  # (cached: shared by every caller)
            arr.flags.writeable = False

    def __len__(self) -> int:
        return len(self.bits)

    def cells(self, k: int) -> Cells:
        """Row ``k``'s cells (sorted, as :func:`placements` gives them)."""
        x, y, z = self.anchor[k].tolist()
        return tuple([(x + a, y + b, z + c) for a, b, c in self.orients[int(self.orient[k])]])

    def fitting(self, covered: int) -> np.ndarray:
        """Indices of the rows that fit on a board whose covered cells have bits ``covered``."""
        return np.flatnonzero((self.bits & np.uint64(covered)) == 0)


class Board:
    """A target's cells as bit indices (sorted cells, ``index[cell]``) and its placement
    tables per piece and rule (:meth:`rows`, made on first use)."""

    def __init__(self, target: Target) -> None:
        self.target = target
        self.cells = tuple(sorted(target.cell_set))
        self.index = {c: i for i, c in enumerate(self.cells)}
        self._rows: dict[tuple[str, bool], PlacementRows] = {}

    def covered(self, placed: Sequence[Placement]) -> int:
        """The bits of the placed pieces' cells (cells off the target have none)."""
        index, bits = self.index, 0
        for _, cells in placed:
            for c in cells:
                i = index.get(c)
                if i is not None:
                    bits |= 1 << i
        return bits

    def rows(self, name: str, straight: bool) -> PlacementRows:
        """The placement table of piece ``name`` (cached per board)."""
        key = (name, straight)
        rows = self._rows.get(key)
        if rows is None:
            rows = self._rows[key] = self._make(name, straight)
        return rows

    def _make(self, name: str, straight: bool) -> PlacementRows:
        cells = np.array(self.cells, dtype=np.int64).reshape(-1, 3)
        ext = cells.max(axis=0) + 1
        grid = np.full(tuple(ext.tolist()), -1, dtype=np.int64)  # cell index, -1 off target
        grid[cells[:, 0], cells[:, 1], cells[:, 2]] = np.arange(len(cells))
        orients: list[Cells] = []
        parts: list[tuple[int, np.ndarray, np.ndarray]] = []
        for o in orientations_of(name, self.target.dims, straight):
            lo = [min(c[k] for c in o) for k in range(3)]
            norm = tuple(sorted((x - lo[0], y - lo[1], z - lo[2]) for x, y, z in o))
            rel = np.array(norm, dtype=np.int64)
            span = ext - rel.max(axis=0)  # anchors keeping the piece inside the box
            if (span <= 0).any():
                continue
            anchors = np.stack(
                np.meshgrid(*(np.arange(int(n)) for n in span), indexing="ij"), axis=-1
            ).reshape(-1, 3)
            at = anchors[:, None, :] + rel[None, :, :]
            idx = grid[at[..., 0], at[..., 1], at[..., 2]]
            ok = (idx >= 0).all(axis=1)
            parts.append((len(orients), anchors[ok], idx[ok]))
            orients.append(norm)
        if not sum(len(a) for _, a, _ in parts):
            return PlacementRows(tuple(orients), np.zeros(0, np.int64),
                                 np.zeros((0, 3), np.int64), np.zeros(0, np.uint64))  # fmt: skip
        orient = np.concatenate([np.full(len(a), k, dtype=np.int64) for k, a, _ in parts])
        anchor = np.concatenate([a for _, a, _ in parts])
        idx = np.concatenate([i for _, _, i in parts])
        size = idx.shape[1]
        rel_all = np.array(orients, dtype=np.int64).reshape(len(orients), size, 3)
        flat = (anchor[:, None, :] + rel_all[orient]).reshape(len(orient), 3 * size)
        order = np.lexsort(flat.T[::-1])  # each row's sorted cells, as the cell tuples sort
        bits = np.bitwise_or.reduce(np.left_shift(np.uint64(1), idx[order].astype(np.uint64)),
                                    axis=1)  # fmt: skip
        return PlacementRows(tuple(orients), orient[order], anchor[order], bits)


@lru_cache(maxsize=256)
def board(target: Target) -> Board | None:
    """The target's :class:`Board` (None when it has more than :data:`BOARD_BITS` cells)."""
    return Board(target) if len(target.cells) <= BOARD_BITS else None


@dataclass(frozen=True)
class StagePlay:
    """What a position's stage fixes: its target and its :class:`Board` (None when too large
    for a table), its pieces (after the swap) and the challenge it belongs to."""

    challenge: Challenge
    target: Target
    board: Board | None
    pieces: tuple[str, ...]


@lru_cache(maxsize=4096)
def stage_play(mode: str, card: int, number: int, skip: tuple[str, ...], swap: str,
               stage: int) -> StagePlay:  # fmt: skip
    """The :class:`StagePlay` of a state's stage (cached: states meet the same few)."""
    ch = played_challenge(mode, card, number, skip)
    target = ch.stages[stage].target
    return StagePlay(ch, target, board(target), tuple(apply_swap(ch, swap)[stage]))


@lru_cache(maxsize=4096)
def distinct_shapes(names: tuple[str, ...]) -> tuple[str, ...]:
    """``names`` (sorted, each once) without the later copies of an identical shape (V2 after
    V1): the pieces whose placements are listed."""
    seen: set[tuple] = set()
    out = []
    for name in names:
        key = _shape_key(name)
        if key not in seen:
            seen.add(key)
            out.append(name)
    return tuple(out)


def _played(ch: Challenge, skip: tuple[str, ...]) -> Challenge:
    if not skip:
        return ch
    return replace(ch, stages=tuple(st for st in ch.stages if st.name not in skip))


@lru_cache(maxsize=4096)
def played_challenge(mode: str, card: int, number: int, skip: tuple[str, ...]) -> Challenge:
    """The challenge a state plays: its stages without those skipped (cached; ConfigError for
    a card or number that does not exist)."""
    return _played(get_challenge(mode, card, number), skip)


# ------------------------------------------------------------------------------ text of cells

_COLS = "abcdefghijklmnopqrstuvwxyz"


def cell_text(c: tuple[int, int, int], dims: int) -> str:
    """``(x, y, z)`` -> ``"b3"`` (2D) or ``"b3:2"`` (3D; layer counted from 1 at the bottom)."""
    t = f"{_COLS[c[0]]}{c[1] + 1}"
    return t if dims == 2 else f"{t}:{c[2] + 1}"


def parse_cell(text: str, dims: int) -> tuple[int, int, int]:
    """Inverse of :func:`cell_text` (MoveParseError naming the token)."""
    m = re.fullmatch(r"([a-z])(\d+)(?::(\d+))?", text.strip().lower())
    if not m or (dims == 3) != (m.group(3) is not None):
        form = "b3" if dims == 2 else "b3:2 (column, row, layer)"
        raise MoveParseError(f"cell {text!r}: write cells like {form}")
    z = int(m.group(3)) - 1 if m.group(3) else 0
    return (_COLS.index(m.group(1)), int(m.group(2)) - 1, z)


# ------------------------------------------------------------------------------ the game


class KataminoSolo(ModeFamily[SoloState, SoloMove, SoloConfig]):
    """Solo (or cooperative) Katamino puzzles from the shipped tables."""

    name = "katamino"
    title = "Katamino Duo (solo)"
    min_players = 1
    max_players = 2
    options = (
        Option("mode", "str", "solo", "solo mode", choices=SOLO_MODES),
        Option("card", "int", 0, "challenge card (0: chosen by the seed)"),
        Option("challenge", "int", 0, "challenge number on the card (0: chosen by the seed)"),
        Option("swap", "str", "",
               "swap pieces: OLD=NEW or OLD=NEW1+NEW2, several separated by commas"),
        Option("straight_horizontal", "bool", False,
               "classic rule: straight pieces lie along the board (off the vertical in 3D)"),
        Option("variant_3d", "bool", False,
               "traditional: the rulebook's 3D variant, + V -> 3x3x4 after Penta 7"),
        Option("penta4_first", "bool", False,
               "solo3d cards 5-7: fill the half's Penta 4 flat before the 3x3x4"),
    )  # fmt: skip
    playout_options: ClassVar[Mapping[str, Any]] = {"mode": "solo"}

    # ---- configuration -------------------------------------------------------------------
    def make_config(self, values: Mapping[str, Any] | None = None, *, players: int) -> SoloConfig:
        """Validate the options; a swap must keep every stage of the challenge solvable."""
        values = dict(values or {})
        self.check_option_keys(values)
        self.check_players(players)
        mode = values.get("mode", "solo")
        if mode not in SOLO_MODES:
            raise ConfigError(
                f"katamino: option --mode {mode!r} (allowed: {', '.join(SOLO_MODES)})"
            )
        card, number = values.get("card", 0), values.get("challenge", 0)
        for key, v in (("card", card), ("challenge", number)):
            if isinstance(v, bool) or not isinstance(v, Integral) or v < 0:
                raise ConfigError(f"katamino: option --{key} must be an integer >= 0, got {v!r}")
        if (card == 0) != (number == 0):
            raise ConfigError("katamino: give --card and --challenge together (or neither)")
        swap = values.get("swap", "")
        straight = values.get("straight_horizontal", False)
        if not isinstance(swap, str):
            raise ConfigError(f"katamino: option --swap must be text, got {swap!r}")
        if not isinstance(straight, bool):
            raise ConfigError(
                f"katamino: option --straight-horizontal must be a bool, got {straight!r}"
            )
        if swap and card == 0:
            raise ConfigError("katamino: --swap needs --card and --challenge")
        if straight and card == 0:
            raise ConfigError(
                "katamino: --straight-horizontal needs --card and --challenge (the rule makes "
                "many shipped challenges unsolvable, so each is checked when chosen)"
            )
        extra = {}
        for key, (own, _) in OPTIONAL_STAGES.items():
            v = values.get(own, False)
            if not isinstance(v, bool):
                raise ConfigError(f"katamino: option --{own.replace('_', '-')} must be a bool, "
                                  f"got {v!r}")  # fmt: skip
            if v and mode != key:
                raise ConfigError(
                    f"katamino: option --{own.replace('_', '-')} applies to mode {key!r} only"
                )
            extra[own] = v
        cfg = SoloConfig(mode, int(card), int(number), swap.strip().upper(), straight, players,
                         **extra)  # fmt: skip
        if card:
            ch = get_challenge(mode, int(card), int(number))
            if cfg.penta4_first and len(ch.stages) < 2:
                raise ConfigError(
                    f"katamino: option --penta4-first: solo3d card {card} is a single box (the "
                    "Penta 4 halves are cards 5..7)"
                )
            if swap or straight:
                self._check_solvable(self._played(ch, skipped_stages(cfg, ch)), cfg)
        return cfg

    def config_from_json(self, obj: Mapping[str, Any]) -> SoloConfig:
        """Rebuild a config; a log written before an optional stage became an option (no key
        for it) played that stage, so it replays with the option on."""
        values = dict(obj)
        if values.get("mode") == "solo3d" and "penta4_first" not in values and values.get(
                "card") not in (1, 2, 3, 4):  # fmt: skip
            raise ConfigError(
                "katamino: solo3d cards 5..7 (and the seed's choice among all cards) come from "
                "the duel cards, regenerated since this log was written "
                "(docs/rules/katamino-duo.md), so it cannot be replayed"
            )
        for key, (own, _) in OPTIONAL_STAGES.items():
            if values.get("mode") == key:
                values.setdefault(own, True)
        return super().config_from_json(values)

    @staticmethod
    def _played(ch: Challenge, skip: tuple[str, ...]) -> Challenge:
        return _played(ch, skip)

    def _check_solvable(self, ch: Challenge, cfg: SoloConfig) -> None:
        for stage, names in zip(ch.stages, apply_swap(ch, cfg.swap), strict=True):
            pcs = [piece(n) for n in names]
            if not is_solvable(stage.target, pcs, straight_horizontal=cfg.straight_horizontal):
                what = f"the swap {cfg.swap}" if cfg.swap else "--straight-horizontal"
                ok = ", ".join(ch.swaps) or "none"
                raise ConfigError(
                    f"katamino: {what} makes stage {stage.name} of card {ch.card} challenge "
                    f"{ch.number} unsolvable (swaps that keep it solvable: {ok})"
                )

    def config_to_json(self, config: SoloConfig) -> dict[str, Any]:
        return {
            "mode": config.mode, "card": config.card, "challenge": config.challenge,
            "swap": config.swap, "straight_horizontal": config.straight_horizontal,
            "players": config.players,
            # a stage option only in its own mode (other modes' logs keep their form)
            **{own: getattr(config, own) for mode, (own, _) in OPTIONAL_STAGES.items()
               if config.mode == mode},
        }  # fmt: skip

    # ---- helpers -------------------------------------------------------------------------
    def challenge_of(self, state: SoloState) -> Challenge:
        """The challenge a state plays: its stages without those skipped."""
        return played_challenge(state.mode, state.card, state.challenge, state.skip)

    def stage_play(self, state: SoloState) -> StagePlay:
        """The current stage's target, board and pieces (:func:`stage_play`)."""
        return stage_play(state.mode, state.card, state.challenge, state.skip, state.swap,
                          state.stage)  # fmt: skip

    def stage_pieces(self, state: SoloState) -> tuple[str, ...]:
        """The current stage's pieces (after the swap)."""
        return self.stage_play(state).pieces

    def stage_target(self, state: SoloState) -> Target:
        """The current stage's target."""
        return self.stage_play(state).target

    def remaining(self, state: SoloState) -> list[str]:
        """Pieces of the current stage not on the board yet."""
        left = list(self.stage_pieces(state))
        for name, _ in state.placed:
            left.remove(name)
        return left

    def free_cells(self, state: SoloState) -> frozenset:
        """Empty cells of the current target."""
        used = {c for _, cells in state.placed for c in cells}
        return frozenset(self.stage_target(state).cell_set - used)

    def listed_pieces(self, state: SoloState) -> tuple[str, ...]:
        """The remaining pieces whose placements are listed: sorted, one copy of each
        identical shape (the first by name)."""
        return distinct_shapes(tuple(sorted(set(self.remaining(state)))))

    def placement_moves(self, state: SoloState) -> list[SoloMove]:
        """Every placement of a remaining piece (one copy of each identical shape), sorted:
        the rows of the board's placement tables that miss the covered cells (the same list
        as :meth:`placement_moves_reference`)."""
        sp = self.stage_play(state)
        if sp.board is None:
            return self.placement_moves_reference(state)
        covered, straight = sp.board.covered(state.placed), state.straight_horizontal
        out: list[SoloMove] = []
        for name in self.listed_pieces(state):
            rows = sp.board.rows(name, straight)
            out.extend(SoloMove(3, name, rows.cells(k)) for k in rows.fitting(covered).tolist())
        return out

    def placement_moves_reference(self, state: SoloState) -> list[SoloMove]:
        """:meth:`placement_moves` by its definition: :func:`placements` of each listed piece
        on the free cells (the reference the tables are tested against)."""
        target, free = self.stage_target(state), self.free_cells(state)
        seen_shapes: set[tuple] = set()
        out = []
        for name in sorted(set(self.remaining(state))):
            key = _shape_key(name)
            if key in seen_shapes:
                continue
            seen_shapes.add(key)
            for cells in placements(target, free, name, state.straight_horizontal):
                out.append(SoloMove(3, name, cells))
        return out

    # ---- rules ---------------------------------------------------------------------------
    def new_game(self, config: SoloConfig, seed: int) -> SoloState:
        card, number = config.card, config.challenge
        if card == 0:
            ch, _ = Rng.from_seed(seed, "katamino-solo", config.mode).choice(
                challenges(config.mode)
            )
            card, number = ch.card, ch.number
        skip = skipped_stages(config, get_challenge(config.mode, card, number))
        return SoloState(config.mode, card, number, config.swap, config.straight_horizontal,
                         config.players, skip=skip)  # fmt: skip

    def legal_moves(self, state: SoloState) -> tuple[SoloMove, ...]:
        """Placements, ``quit`` and (with a piece on the board) ``undo``. ``hint`` is accepted
        by ``check_move``/``apply`` but not listed: it asks the solver, and random players
        should not spend their playouts on it."""
        if state.outcome:
            return ()
        # sorted: undo (kind 1), quit (2), then the placements (3), sorted by piece and cells
        return (*([UNDO] if state.placed else []), QUIT, *self.placement_moves(state))

    def legal_moves_reference(self, state: SoloState) -> tuple[SoloMove, ...]:
        """:meth:`legal_moves` by its definition (the reference the tables are tested
        against): the commands and :meth:`placement_moves_reference`, sorted."""
        if state.outcome:
            return ()
        moves = [QUIT] + ([UNDO] if state.placed else [])
        return tuple(sorted(moves + self.placement_moves_reference(state)))

    def check_move(self, state: SoloState, move: SoloMove) -> None:
        """Raise IllegalMoveError unless ``move`` is legal (placements checked directly)."""
        if state.outcome:
            raise IllegalMoveError("the game is over")
        if not isinstance(move, SoloMove) or not 0 <= move.kind < len(MOVE_KINDS):
            raise IllegalMoveError(f"not a solo move: {move!r}")
        if move.kind_name == "undo" and not state.placed:
            raise IllegalMoveError("nothing to undo on this stage")
        if move.kind_name != "place":
            return
        left = self.remaining(state)
        name = move.piece
        if name not in left:
            same = [n for n in left if _shape_key(n) == _shape_key(name)] if name in {
                p for p in self.stage_pieces(state)} else []  # fmt: skip
            if not same:
                raise IllegalMoveError(
                    f"piece {name} is not available (left: {', '.join(sorted(left)) or 'none'})"
                )
        target, free = self.stage_target(state), self.free_cells(state)
        bad = [c for c in move.cells if c not in free]
        if bad:
            why = "off the target" if bad[0] not in target.cell_set else "already covered"
            raise IllegalMoveError(f"cell {cell_text(bad[0], target.dims)} is {why}")
        cs = move.cells
        mins = [min(c[k] for c in cs) for k in range(3)]
        norm = tuple(sorted(tuple(c[k] - mins[k] for k in range(3)) for c in cs))
        if norm not in orientations_of(name, target.dims, state.straight_horizontal):
            rule = " (straight pieces lie along the board)" if state.straight_horizontal else ""
            raise IllegalMoveError(f"those cells are not the shape of piece {name}{rule}")

    def apply(self, state: SoloState, move: SoloMove) -> SoloState:
        self.check_move(state, move)
        kind = move.kind_name
        turn = state.turn + 1
        if kind == "quit":
            return replace(state, outcome="quit", turn=turn, note="")
        if kind == "undo":
            return replace(state, placed=state.placed[:-1], undos=state.undos + 1, turn=turn,
                           note=f"took back {state.placed[-1][0]}")  # fmt: skip
        if kind == "hint":
            return replace(state, hints=state.hints + 1, turn=turn, note=self.hint_text(state))
        name = move.piece
        left = self.remaining(state)
        if name not in left:  # an identical copy (V1/V2, W1/W2) stands in
            name = next(n for n in left if _shape_key(n) == _shape_key(name))
        placed = (*state.placed, (name, move.cells))
        seat = (state.seat + 1) % state.players
        after = replace(state, placed=placed, seat=seat, turn=turn, note="")
        if self.free_cells(after):
            return after
        done = (*state.done, placed)
        if state.stage + 1 == len(self.challenge_of(state).stages):
            return replace(after, done=done, placed=(), outcome="solved")
        return replace(after, done=done, placed=(), stage=state.stage + 1)

    def current_player(self, state: SoloState) -> int | None:
        return None if state.outcome else state.seat

    def is_terminal(self, state: SoloState) -> bool:
        return bool(state.outcome)

    def result(self, state: SoloState) -> Result:
        if not state.outcome:
            raise GameError("katamino: the puzzle is not finished")
        n = len(state.done)
        solved = state.outcome == "solved"
        ch = self.challenge_of(state)
        # one stage (a box, a picture): "solved: 1 stage", not "all 1 stages" (issue 32)
        end = ((f"solved: all {n} stages" if n > 1 else f"solved: {counted(n, 'stage')}")
               if solved else f"quit after {n} of {counted(len(ch.stages), 'stage')}")  # fmt: skip
        detail = {
            "end": end,
            "mode": state.mode, "card": state.card, "challenge": state.challenge,
            "outcome": state.outcome, "stages_done": n, "stages": len(ch.stages),
            "hints": state.hints, "undos": state.undos,
        }  # fmt: skip
        return Result(tuple(float(n) for _ in range(state.players)),
                      tuple(range(state.players)) if solved else (), detail)  # fmt: skip

    def num_players(self, state: SoloState) -> int:
        return state.players

    # ---- hints ---------------------------------------------------------------------------
    def placed_pieces(self, state: SoloState) -> list[PlacedPiece]:
        """The current board as the solver's placed pieces."""
        return [PlacedPiece(n, piece(n).label, cells) for n, cells in state.placed]

    def solver_hint(self, state: SoloState) -> SoloHint:
        """A placement that keeps the board solvable, or the pieces to take back.

        The hinted piece is the one a completion puts on the empty cell with the fewest
        fitting placements (reading order on ties): the move a player is most likely stuck on.
        Uses ``solve_one`` on the partial board (no full count, so hints stay fast on Penta 10).
        """
        pcs = [piece(n) for n in self.stage_pieces(state)]
        target = self.stage_target(state)
        base = make_problem(target, pcs, straight_horizontal=state.straight_horizontal)
        placed = self.placed_pieces(state)
        sol = solve_one(partial_problem(base, placed))
        if sol is None:
            culprits = tuple(
                pp.name for k, pp in enumerate(placed)
                if is_solvable(partial_problem(base, [q for j, q in enumerate(placed) if j != k]))
            )  # fmt: skip
            return SoloHint(None, culprits)
        free = self.free_cells(state)
        fits: dict[tuple[int, int, int], int] = dict.fromkeys(free, 0)
        for name in set(self.remaining(state)):
            for cells in placements(target, free, name, state.straight_horizontal):
                for c in cells:
                    fits[c] += 1
        cell = min(free, key=lambda c: (fits[c], c[2], c[1], c[0]))
        chosen = next(pp for pp in sol.pieces if cell in pp.cells)
        return SoloHint(chosen, ())

    def undo_help(self, state: SoloState) -> str:
        """``undo`` in a solo game: the last piece of the current stage, whoever placed it."""
        return "take back the last piece placed on this stage (a completed stage stays done)"

    def hint_text(self, state: SoloState) -> str:
        """A sentence for the player: a piece and its cells, or what to take back."""
        h = self.solver_hint(state)
        dims = self.stage_target(state).dims
        if h.placement is not None:
            cells = " ".join(cell_text(c, dims) for c in h.placement.cells)
            return f"hint: {h.placement.name} {cells}"
        return stuck_hint_text([n for n, _ in state.placed], h.culprits)

    # ---- text and JSON -------------------------------------------------------------------
    def format_move(self, state: SoloState, move: SoloMove) -> str:
        if move.kind_name != "place":
            return move.kind_name
        dims = self.stage_target(state).dims
        return " ".join([move.piece, *(cell_text(c, dims) for c in move.cells)])

    def parse_move(self, state: SoloState, text: str) -> SoloMove:
        words = text.replace(",", " ").split()
        if not words:
            raise MoveParseError("empty move: type a piece and its cells, hint, undo or quit")
        low = words[0].lower()
        if len(words) == 1 and low in MOVE_KINDS[:3]:
            return SoloMove(MOVE_KINDS.index(low))
        name = words[0].upper()
        names = set(self.stage_pieces(state))
        if name not in names:
            # a label (V, W) stands for its first remaining copy
            copies = sorted(n for n in self.remaining(state) if piece(n).label == name)
            if not copies:
                raise MoveParseError(
                    f"{words[0]!r}: not a piece of this stage (pieces: "
                    f"{', '.join(sorted(names))}) nor hint, undo, quit"
                )
            name = copies[0]
        if len(words) == 1:
            raise MoveParseError(f"give the cells of {name}, e.g. {name} a1 b1 ...")
        dims = self.stage_target(state).dims
        cells = tuple(sorted(parse_cell(w, dims) for w in words[1:]))
        if len(set(cells)) != len(cells) or len(cells) != piece(name).size:
            raise MoveParseError(f"piece {name} covers {piece(name).size} different cells")
        return SoloMove(3, name, cells)

    def state_to_json(self, state: SoloState) -> dict[str, Any]:
        def board(p: tuple[Placement, ...]) -> list:
            return [[n, [list(c) for c in cells]] for n, cells in p]

        return {
            "mode": state.mode, "card": state.card, "challenge": state.challenge,
            "swap": state.swap, "straight_horizontal": state.straight_horizontal,
            "players": state.players, "stage": state.stage, "placed": board(state.placed),
            "done": [board(d) for d in state.done], "seat": state.seat, "turn": state.turn,
            "hints": state.hints, "undos": state.undos, "outcome": state.outcome,
            "note": state.note,
            # written only when stages are skipped: states of older logs keep their digests
            **({"skip": list(state.skip)} if state.skip else {}),
        }  # fmt: skip

    def state_from_json(self, obj: Mapping[str, Any]) -> SoloState:
        try:

            def board(v: Any) -> tuple[Placement, ...]:
                return tuple((str(n), tuple(json_cell(c) for c in cells)) for n, cells in v)

            st = SoloState(
                str(obj["mode"]), int(obj["card"]), int(obj["challenge"]), str(obj["swap"]),
                bool(obj["straight_horizontal"]), int(obj["players"]), int(obj["stage"]),
                board(obj["placed"]), tuple(board(d) for d in obj["done"]), int(obj["seat"]),
                int(obj["turn"]), int(obj["hints"]), int(obj["undos"]), str(obj["outcome"]),
                str(obj["note"]), tuple(str(n) for n in obj.get("skip", ())),
            )  # fmt: skip
            full = get_challenge(st.mode, st.card, st.challenge)
        except (KeyError, TypeError, ValueError) as exc:
            raise StateFormatError(f"katamino solo state: {exc}") from None
        names = [s.name for s in full.stages]
        if any(n not in names for n in st.skip) or len(set(st.skip)) >= len(names):
            raise StateFormatError(
                f"katamino solo state: skip {list(st.skip)} must name some (not all) of the "
                f"stages {', '.join(names)}"
            )
        ch = self.challenge_of(st)
        if not 0 <= st.stage < len(ch.stages) or st.outcome not in ("", "solved", "quit"):
            raise StateFormatError("katamino solo state: stage or outcome out of range")
        if not 1 <= st.players <= self.max_players or not 0 <= st.seat < st.players:
            raise StateFormatError("katamino solo state: players or seat out of range")
        if len(st.done) != st.stage + (st.outcome == "solved"):
            raise StateFormatError("katamino solo state: one finished board per completed stage")
        # the current board must be reachable: each placement legal after the ones before
        probe = replace(st, placed=(), outcome="")
        for name, cells in st.placed:
            try:
                self.check_move(probe, SoloMove(3, name, cells))
            except IllegalMoveError as exc:
                raise StateFormatError(f"katamino solo state: placed {name}: {exc}") from None
            probe = replace(probe, placed=(*probe.placed, (name, cells)))
        return st

    def bots(self) -> Mapping[str, type[Bot[SoloState, SoloMove]]]:
        """The solo bots: ``smart`` solves the puzzle."""
        return BOTS

    def describe(self, state: SoloState) -> str:
        from tablesim.games.katamino.solo_render import describe_state

        return describe_state(self, state)

    def describe_move(self, state: SoloState, move: SoloMove) -> str:
        if move.kind_name == "hint":
            return self.hint_text(state)
        if move.kind_name != "place":
            return move.kind_name
        after = self.apply(state, move)
        text = "place " + self.format_move(state, move)
        if after.stage != state.stage or after.outcome:
            from tablesim.games.katamino.solo_render import draw_board

            ch = self.challenge_of(state)
            stage = ch.stages[state.stage]
            text += f"\n{stage.name} complete:\n" + draw_board(stage.target, after.done[-1])
        return text


SOLO_GAME = KataminoSolo()


class SmartSoloBot(Bot[SoloState, SoloMove]):
    """Solves the puzzle: places a piece the solver says keeps the board solvable (the one
    covering the most constrained empty cell); takes a piece back when the board is stuck."""

    name = "smart"

    def choose(self, state: SoloState) -> SoloMove:
        game = SOLO_GAME
        try:
            h = game.solver_hint(state)
        except SolverError as exc:  # pragma: no cover - the state came from legal moves
            raise GameError(f"smart bot: {exc}") from None
        if h.placement is not None:
            return SoloMove(3, h.placement.name, tuple(sorted(h.placement.cells)))
        return UNDO if state.placed else QUIT


BOTS: dict[str, type[Bot[SoloState, SoloMove]]] = {"smart": SmartSoloBot}
