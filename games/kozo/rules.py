"""The Kozo game object: options, legal moves, apply, scoring, text and JSON forms.

See ``docs/rules/kozo.md`` for every reading of the leaflet. In short:

- A turn is ``[take P]`` (optional, touch-move), ``place`` (the polycube, checked against every
  placement rule on the settled tower), then ``cube`` (the balance cube) or ``nocube`` (only when
  no spot is legal). The tile (the piece's value) is taken when the turn ends standing.
- Round ``r`` (1-based) starts with seat ``(r - 1) % players`` and goes round the table. It ends
  when the tower topples (the mover loses the round's points), when the supply is empty, or when
  the player to move has no legal placement in the candidate set (as if the supply were empty).
- Place, cube and nocube moves are *measured* by a table (:mod:`tablesim.sim.referees` for physics) before
  ``apply``; with ``table=stand-in`` an unmeasured move is judged by the seeded stand-in.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from operator import attrgetter
from typing import Any, ClassVar

import numpy as np

from tablesim.games._config import check_option_kinds, check_ranges, merged_options, options_to_json
from tablesim.games._stacking import (
    check_outcome,
    items_from_json,
    items_to_json,
    q4,
    rotation_lines,
)
from tablesim.games._stacking import num_text as _num
from tablesim.games.core import (
    ConfigError,
    Game,
    GameError,
    IllegalMoveError,
    MoveParseError,
    Option,
    Result,
    StateFormatError,
    check_state_header,
    counted,
    json_int,
    json_ints,
    json_opt_int,
    state_config,
    state_head,
    state_rng,
)
from tablesim.games.kozo.blocks import Blocks, build_blocks, piece_orientations
from tablesim.games.kozo.clock import SECS_LIMIT, RoundClock, round_clock
from tablesim.games.kozo.judge import stand_in_outcome, support_margin, topple_risk
from tablesim.games.kozo.placement import (
    OutsideBaseError,
    PlacementError,
    balance_candidates,
    balance_candidates_many,
    balance_ok_many,
    candidate_rows_of,
    candidate_spots_many,
    check_balance,
    check_polycube,
    drop_height,
    footprint_rows,
)
from tablesim.games.kozo.state import (
    CUBE,
    MOVE_KINDS,
    NOCUBE,
    PLACE,
    TAKE,
    Item,
    KozoConfig,
    KozoMove,
    KozoState,
    Outcome,
    RoundRecord,
)
from tablesim.games.polycubes import BALANCE_CUBE_MM, KOZO_CUBE_MM, PieceError, get_catalogue
from tablesim.games.rng import Rng

STATE_VERSION = 1
TABLES = ("physics", "stand-in")
BALANCE_FALL = ("topple", "ignore")
RELEASES = ("touch", "lift")
TIES = ("later", "share")
IDENTITY_Q = (0.0, 0.0, 0.0, 1.0)
REFEREE = "kozo-physics"
"""Name of the physics referee (registered by :mod:`tablesim.sim.referees`)."""


class RefereeRequiredError(GameError):
    """A place or cube move without its measured outcome in a game judged by a physics table."""


# ---------------------------------------------------------------------------------------
# Cached geometry of a tower
# ---------------------------------------------------------------------------------------
def item_cells(config: KozoConfig, item: Item) -> tuple[tuple[int, int, int], ...]:
    """The cells of an item in its piece frame (balance cubes: one cell)."""
    if item.is_balance:
        return ((0, 0, 0),)
    return piece_orientations(config.catalogue, item.name)[item.rot]


_BLOCKS: dict[tuple[KozoConfig, tuple[Item, ...]], Blocks] = {}
"""The blocks of the last towers seen (:func:`tower_blocks`)."""
_LAST_BLOCKS: list[tuple[KozoConfig, tuple[Item, ...], Blocks] | None] = [None]
"""The last tower asked about, matched by identity (states share their tower tuple)."""


def tower_blocks(config: KozoConfig, tower: tuple[Item, ...]) -> Blocks:
    """Blocks of the settled tower (balance cubes scaled to their edge), cached. A tower one
    item taller than a cached one extends that one's blocks by the new item's boxes: the same
    rows :func:`build_blocks` stacks item after item."""
    last = _LAST_BLOCKS[0]
    if last is not None and last[1] is tower and last[0] is config:  # the same tuple again
        return last[2]
    key = (config, tower)
    blocks = _BLOCKS.get(key)
    if blocks is not None:
        _LAST_BLOCKS[0] = (config, tower, blocks)
        return blocks
    below = _BLOCKS.get((config, tower[:-1])) if len(tower) > 1 else None
    items = [
        (
            it.name,
            item_cells(config, it),
            config.balance_edge if it.is_balance else 1.0,
            it.pose,
            it.is_balance,
        )
        for it in (tower[-1:] if below is not None else tower)
    ]
    blocks = build_blocks(items)
    if below is not None:
        i = len(below.names)
        blocks = Blocks(
            np.vstack([below.lo, blocks.lo]),
            np.vstack([below.hi, blocks.hi]),
            np.concatenate([below.owner, blocks.owner + i]),
            np.concatenate([below.balance, blocks.balance]),
            (*below.names, *blocks.names),
        )
    if len(_BLOCKS) >= 256:  # bound the memory of a long run
        _BLOCKS.clear()
    _BLOCKS[key] = blocks
    _LAST_BLOCKS[0] = (config, tower, blocks)
    return blocks


_order = attrgetter("kind", "piece", "rot", "pos")
"""A move's compared fields: sorting by them is KozoMove's own order, without its ``__lt__``."""


@lru_cache(maxsize=256)
def _placements(
    config: KozoConfig, tower: tuple[Item, ...], pieces: tuple[str, ...]
) -> tuple[KozoMove, ...]:
    blocks = tower_blocks(config, tower)
    out: list[KozoMove] = []
    done: dict[tuple, list[tuple[int, tuple[float, float, float]]]] = {}
    # every distinct piece's orientations in one numpy pass (candidate_spots_many)
    distinct = list(dict.fromkeys(piece_orientations(config.catalogue, p) for p in pieces))
    flat = [cells for shapes in distinct for cells in shapes]
    spots = iter(candidate_spots_many(flat, blocks, config.tolerance))
    spots_of = {shapes: [next(spots) for _ in shapes] for shapes in distinct}
    for piece in pieces:
        shapes = piece_orientations(config.catalogue, piece)
        if shapes in done:  # identical pieces (the two 2-bars): same spots
            out.extend(KozoMove(PLACE, piece, r, pos) for r, pos in done[shapes])
            continue
        found: list[tuple[int, tuple[float, float, float]]] = []
        for r, cells in enumerate(shapes):
            for pos in spots_of[shapes][r]:
                if config.cover > 0:
                    try:
                        check_polycube(cells, pos, blocks, tol=config.tolerance, cover=config.cover)
                    except PlacementError:
                        continue
                found.append((r, pos))
        done[shapes] = found
        out.extend(KozoMove(PLACE, piece, r, pos) for r, pos in found)
    return tuple(out)


class KozoPlacements:
    """The legal placements of a tower and pieces as arrays, in the order ``legal_moves``
    sorts them (piece name, rotation, x, y): ``piece`` indexes ``pieces`` (the names, sorted),
    ``rot``, and the minimum corner ``x``, ``y``, ``z``; :meth:`move` makes one move."""

    __slots__ = ("piece", "pieces", "rot", "x", "y", "z")

    def __init__(
        self,
        pieces: tuple[str, ...],
        piece: np.ndarray,
        rot: np.ndarray,
        x: np.ndarray,
        y: np.ndarray,
        z: np.ndarray,
    ) -> None:
        self.pieces, self.piece, self.rot, self.x, self.y, self.z = pieces, piece, rot, x, y, z
        for arr in (piece, rot, x, y, z):  # (cached: shared by every caller)
            arr.flags.writeable = False

    def __len__(self) -> int:
        return len(self.rot)

    def move(self, k: int) -> KozoMove:
        """The placement of row ``k``."""
        pos = (float(self.x[k]), float(self.y[k]), float(self.z[k]))
        return KozoMove(PLACE, self.pieces[int(self.piece[k])], int(self.rot[k]), pos)


_LAST_TABLES: list[Any] = [None, None]
"""The last placement table and cube spots made or read (config, tower, key, value), matched
by identity: ``_validate`` finds a listed move there instead of judging it again."""


def placement_table(
    config: KozoConfig, tower: tuple[Item, ...], pieces: tuple[str, ...]
) -> KozoPlacements | None:
    """:func:`_placement_table`, cached (the last one also kept for :func:`_listed`, and
    matched by identity before the cache hashes the tower)."""
    last = _LAST_TABLES[0]
    if last is not None and last[1] is tower and last[0] is config and last[2] == pieces:
        return last[3]
    t = _placement_table(config, tower, pieces)
    _LAST_TABLES[0] = (config, tower, pieces, t)
    return t


def _listed(config: KozoConfig, state: KozoState, pieces: tuple[str, ...], move: KozoMove) -> bool:
    """Whether ``move`` is a row of the placement table (place) or among the cube spots
    (cube) last made for this very state's tower: then its rules were judged there, by the
    same verdicts at the same position (``check_polycube`` without the cover option,
    ``check_balance``), and passed. False when no such table is at hand."""
    if move.kind == PLACE:
        last = _LAST_TABLES[0]
        if last is None or last[1] is not state.tower or last[0] is not config:
            return False
        if last[2] != pieces or last[3] is None:
            return False
        t: KozoPlacements = last[3]
        if move.piece not in t.pieces:
            return False
        x, y, z = move.pos
        hit = (
            (t.piece == t.pieces.index(move.piece))
            & (t.rot == move.rot)
            & (t.x == x)
            & (t.y == y)
            & (t.z == z)
        )
        return bool(hit.any())
    last = _LAST_TABLES[1]
    if last is None or last[1] is not state.tower or last[0] is not config:
        return False
    return move in last[3]


@lru_cache(maxsize=256)
def _placement_table(
    config: KozoConfig, tower: tuple[Item, ...], pieces: tuple[str, ...]
) -> KozoPlacements | None:
    """:func:`_placements` as arrays, sorted as the moves sort, without making the moves (the
    same spots: every footprint row of the pieces' distinct shapes judged in one
    :func:`candidate_rows_of` pass); None with the cover option (its check is one placement
    at a time)."""
    if config.cover > 0:
        return None
    names = tuple(sorted(set(pieces)))
    cat = _catalogue_rows(config.catalogue)
    sets = sorted({cat.set_of[p] for p in names})
    sel = np.concatenate([cat.rows[j] for j in sets]) if sets else np.zeros(0, np.int64)
    z, ok = candidate_rows_of(
        cat.xy, cat.c, cat.cells, sel, tower_blocks(config, tower), config.tolerance
    )
    ends = np.cumsum([0] + [len(cat.rows[j]) for j in sets])
    legal = np.flatnonzero(ok)  # positions in sel: (shape set, rotation, x, y) order
    cut = np.searchsorted(legal, ends)  # each shape set's slice of them
    rows_of = {j: legal[cut[i] : cut[i + 1]] for i, j in enumerate(sets)}
    parts = [rows_of[cat.set_of[p]] for p in names]
    at = np.concatenate(parts) if parts else np.zeros(0, np.int64)
    row = sel[at]
    piece = np.repeat(np.arange(len(names), dtype=np.int64), [len(i) for i in parts])
    return KozoPlacements(names, piece, cat.rot[row], cat.xy[row, 0], cat.xy[row, 1], z[at])


class _CatalogueRows:
    """Every footprint row of every distinct piece shape of a catalogue (the tower-free half
    of the placements): ``xy``, ``c`` and ``cells`` as :func:`footprint_rows` gives them over
    the shape sets' orientations, ``rot`` each row's rotation, ``rows[j]`` the rows of shape
    set ``j``, ``set_of[piece]`` its set."""

    def __init__(self, catalogue: str) -> None:
        names = [p.name for p in get_catalogue(catalogue).pieces]
        distinct = list(dict.fromkeys(piece_orientations(catalogue, p) for p in names))
        self.set_of = {p: distinct.index(piece_orientations(catalogue, p)) for p in names}
        flat = [cells for shapes in distinct for cells in shapes]
        counts, self.xy, self.c, self.cells = footprint_rows(tuple(flat))
        bounds, self.rot = _shape_rows(tuple(len(sh) for sh in distinct), tuple(counts))
        self.rows = [np.arange(bounds[j], bounds[j + 1]) for j in range(len(distinct))]


@lru_cache(maxsize=8)
def _catalogue_rows(catalogue: str) -> _CatalogueRows:
    return _CatalogueRows(catalogue)


@lru_cache(maxsize=256)
def _shape_rows(
    rotations: tuple[int, ...], counts: tuple[int, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """For shape sets of ``rotations`` orientations each, whose orientations have ``counts``
    footprint rows: where each set's rows begin (and the end), and each row's rotation."""
    ends = np.cumsum((0, *counts))
    sets = np.cumsum((0, *rotations))
    row_rot = np.concatenate(
        [np.zeros(0, np.int64)]
        + [
            np.full(counts[o], o - sets[j], dtype=np.int64)
            for j in range(len(rotations))
            for o in range(sets[j], sets[j + 1])
        ]
    )
    return ends[sets].astype(np.int64), row_rot


def has_placement(config: KozoConfig, tower: tuple[Item, ...], pieces: tuple[str, ...]) -> bool:
    """Whether any of ``pieces`` has a legal placement on ``tower`` (without the moves)."""
    t = placement_table(config, tower, pieces)
    return bool(_placements(config, tower, pieces)) if t is None else len(t) > 0


def _cube_spots(config: KozoConfig, tower: tuple[Item, ...]) -> tuple[KozoMove, ...]:
    """The legal balance cube spots, sorted: :func:`_cube_spots_reference` with every
    candidate judged by :func:`balance_ok_many`; cached (the last one also kept
    for :func:`_listed`)."""
    last = _LAST_TABLES[1]
    if last is not None and last[1] is tower and last[0] is config:
        return last[3]
    spots = _cube_spots_cached(config, tower)
    _LAST_TABLES[1] = (config, tower, None, spots)
    return spots


@lru_cache(maxsize=256)
def _cube_spots_cached(config: KozoConfig, tower: tuple[Item, ...]) -> tuple[KozoMove, ...]:
    blocks = tower_blocks(config, tower)
    pos = [(q4(x), q4(y), q4(z)) for x, y, z in balance_candidates_many(blocks, config.tolerance)]
    ok = balance_ok_many(pos, config.balance_edge, blocks, config.tolerance)
    return tuple(
        sorted({KozoMove(CUBE, "", 0, p) for p, good in zip(pos, ok, strict=True) if good})
    )


def _cube_spots_reference(config: KozoConfig, tower: tuple[Item, ...]) -> tuple[KozoMove, ...]:
    """The legal balance cube spots by their definition: :func:`check_balance` at each
    candidate of :func:`balance_candidates` (the reference of :func:`_cube_spots`)."""
    blocks = tower_blocks(config, tower)
    out = []
    for x, y, z in balance_candidates(blocks, config.tolerance):
        pos = (q4(x), q4(y), q4(z))
        try:
            check_balance(pos, config.balance_edge, blocks, tol=config.tolerance)
        except PlacementError:
            continue
        out.append(KozoMove(CUBE, "", 0, pos))
    return tuple(sorted(set(out)))


def check_tower(config: KozoConfig, items: Sequence[Item]) -> None:
    """Check that ``items`` form a legal Kozo position, raising the first PlacementError.

    The polycubes are placed bottom-up (by the height of their lowest cube, then in the given
    order), each checked against the ones below it; then every balance cube against the whole
    tower, as if placed last. Intended positions are used (``Item.intended``).
    """
    polys = sorted(
        (it for it in items if not it.is_balance), key=lambda it: it.intended[2]
    )  # stable: ties keep the given order
    built: list[Item] = []
    for it in polys:
        blocks = tower_blocks(config, tuple(built))
        cells = item_cells(config, it)
        check_polycube(
            cells, it.intended, blocks, tol=config.tolerance, cover=config.cover, label=it.name
        )
        built.append(it)
    cubes = [it for it in items if it.is_balance]
    for i, it in enumerate(cubes):
        others = tuple(built) + tuple(c for j, c in enumerate(cubes) if j != i)
        blocks = tower_blocks(config, others)
        check_balance(it.intended, config.balance_edge, blocks, tol=config.tolerance)


# ---------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------
class Kozo(Game[KozoState, KozoMove, KozoConfig]):
    """Kozo: build a tower around the chimney; whoever topples it loses the round's points."""

    name = "kozo"
    title = "Kozo"
    min_players = 2  # the standard game; 1 player with the solo or coop variant
    max_players = 6
    playout_options: ClassVar[Mapping[str, Any]] = {"table": "stand-in"}
    options = (
        Option("rounds", "int", 3, "number of rounds (the leaflet: 3)"),
        Option("table", "str", "physics", "who measures moves: the physics table or the "
               "seeded stand-in judge (rules-only playouts)", TABLES),
        Option("tolerance", "float", 0.1, "rule tolerance in cube edges (0.1 = 1.8 mm)"),
        Option("cover", "float", 0.0, "ACTOP: a stacked polycube must rest on at least this "
               "fraction of its bottom (0.51 for ACTOP; 0 = off)"),
        Option("balance_fall", "str", "topple", "a balance cube falling alone while the "
               "tower stands counts as a topple, or is taken away", BALANCE_FALL),
        Option("tie", "str", "later", "a tie goes to the player who moved later, or is "
               "shared", TIES),
        Option("face_down", "bool", False, "variant: a face-down tile turned each turn "
               "dictates the size of the polycube"),
        Option("solo", "bool", False, "variant: one player scores the points placed before "
               "the tower falls"),
        Option("coop", "bool", False, "variant: everyone against the tower, one team score"),
        Option("stand_in_risk", "float", 0.03, "stand-in judge: topple chance of a supported "
               "placement"),
        Option("cube_mm", "float", KOZO_CUBE_MM, "polycube cube edge (mm)"),
        Option("balance_mm", "float", BALANCE_CUBE_MM, "balance cube edge (mm)"),
        Option("hand_mm", "float", 1.0, "hand noise: sigma of the horizontal position (mm)"),
        Option("hand_deg", "float", 1.0, "hand noise: sigma of the turn about the vertical "
               "(degrees)"),
        Option("lift_mm", "float", 0.3, "release lift: a piece is let go this far above where "
               "it rests (mm; the touch release lets it go at rest, touching, as simulate "
               "starts a scene)"),
        Option("release", "str", "touch", "how the table's hand lets a piece go: moved out of "
               "any neighbour to touch it (touch), or the first tables' hand that only halves "
               "its noise and lifts (lift; logs without this key)", RELEASES),
        Option("refuse", "bool", True, "a placement with no touching pose within the rule "
               "tolerance is refused with the reason (the player places again); off: let go "
               "by the first tables' hand (logs without this key)"),
        Option("escalate", "bool", True, "the window after a turn is judged in the solver "
               "simulate would judge the settled tower in (the direct solver on a thin margin "
               "or heavy on light; with the touch release); off: always Gauss-Seidel (logs "
               "without this key)"),
        Option("hold_s", "float", 0.5, "table time between the polycube and the balance cube (s)"),
        Option("window_s", "float", 5.0, "the mover's responsibility after the turn (s)"),
        Option("bot_place_s", "float", 6.0, "bots' median time to place (s after the previous "
               "turn; log-normal, log-sd 0.5); 0: every placement starts when the window ends"),
    )  # fmt: skip

    # ---- configuration -------------------------------------------------------------------
    def make_config(self, values: Mapping[str, Any] | None = None, *, players: int) -> KozoConfig:
        """Validate options; ConfigError names the key, the value and what is allowed."""
        merged = merged_options(self, values, players)
        team_of_one = players == 1 and bool(merged["solo"] or merged["coop"])
        if not team_of_one:
            self.check_players(players)
        check_option_kinds(self.name, self.options, merged)
        check_ranges(self.name, merged, (
            ("rounds", 1 <= merged["rounds"] <= 20, "1..20"),
            ("tolerance", 0 < merged["tolerance"] <= 0.25, "in (0, 0.25] cube edges"),
            ("cover", 0 <= merged["cover"] <= 1, "in [0, 1]"),
            ("stand_in_risk", 0 <= merged["stand_in_risk"] <= 1, "in [0, 1]"),
            ("cube_mm", 1 <= merged["cube_mm"] <= 100, "in [1, 100] mm"),
            ("balance_mm", 1 <= merged["balance_mm"] < merged["cube_mm"], "1 mm..cube_mm"),
            ("hand_mm", 0 <= merged["hand_mm"] <= 5, "in [0, 5] mm"),
            ("hand_deg", 0 <= merged["hand_deg"] <= 10, "in [0, 10] degrees"),
            ("lift_mm", 0 <= merged["lift_mm"] <= 5, "in [0, 5] mm"),
            ("hold_s", 0 <= merged["hold_s"] <= 10, "in [0, 10] s"),
            ("window_s", 0 < merged["window_s"] <= 30, "in (0, 30] s"),
            ("bot_place_s", 0 <= merged["bot_place_s"] <= 30, "in [0, 30] s"),
        ))  # fmt: skip
        if merged["solo"] and players != 1:
            raise ConfigError(f"kozo: option 'solo' is played by 1 player, got {players}")
        return KozoConfig(players=players, **merged)

    def config_to_json(self, config: KozoConfig) -> dict[str, Any]:
        """The config as JSON, ``players`` included; ``bot_place_s`` only when it is not 0,
        ``release``, ``refuse`` and ``escalate`` only at the physics table when they are not
        the first tables' (``lift``, off, off), so the states of logs written before they
        existed keep their digests."""
        out = options_to_json(self, config)
        if not out["bot_place_s"]:
            del out["bot_place_s"]
        if not out["refuse"] or out["release"] == "lift" or out["table"] != "physics":
            del out["refuse"]  # (the first tables' hand never refuses)
        if not out["escalate"] or out["release"] == "lift" or out["table"] != "physics":
            del out["escalate"]  # (the first tables never escalated)
        if out["release"] == "lift" or out["table"] != "physics":
            del out["release"]
        return out

    def config_from_json(self, obj: Mapping[str, Any]) -> KozoConfig:
        """Rebuild a config; a log written before bots had a time to place (no
        ``bot_place_s``) replays with 0: every placement started when the window ended; one
        written before the touching release (no ``release``) replays with the ``lift`` hand,
        one written before refusals (no ``refuse``) never refuses, and one written before the
        table escalated (no ``escalate``) judges every window in Gauss-Seidel."""
        values = dict(obj)
        values.setdefault("bot_place_s", 0.0)
        if values.get("table", "physics") == "physics":  # logs from before the touch release
            values.setdefault("release", "lift")
            values.setdefault("refuse", False)  # and before refusals: never refuses
            values.setdefault("escalate", False)  # and before the table escalated: never
        return super().config_from_json(values)

    def referee_name(self, config: KozoConfig) -> str | None:
        """``kozo-physics`` when moves are measured by the physics table, else None."""
        return REFEREE if config.table == "physics" else None

    # ---- setup ---------------------------------------------------------------------------
    def new_game(self, config: KozoConfig, seed: int) -> KozoState:
        """Round 1, seat 0 to start, the full supply; the stream is seeded from ``seed``."""
        if not isinstance(config, KozoConfig):
            raise ConfigError("kozo: new_game needs a config made by make_config")
        state = KozoState(
            config=config,
            seed=int(seed),
            rng=Rng.from_seed(seed, "kozo"),
            round=1,
            start=0,
            to_move=0,
            phase=PLACE,
            supply=self._full_supply(config),
            earned=(0,) * config.players,
            last_move_turn=(-1,) * config.players,
        )
        return self._begin_turn(state)

    @staticmethod
    def _full_supply(config: KozoConfig) -> tuple[str, ...]:
        return tuple(p.name for p in get_catalogue(config.catalogue).pieces)

    def value(self, config: KozoConfig, piece: str) -> int:
        """The scoring-tile value of a piece."""
        return get_catalogue(config.catalogue).piece(piece).value

    def _begin_turn(self, state: KozoState) -> KozoState:
        """Turn the face-down tile (variant), then end the round if the mover is stuck."""
        if state.over:
            return state
        if state.config.face_down:
            # One tile per piece in the supply, face down: turn one over, uniformly.
            tiles = [self.value(state.config, p) for p in state.supply]
            k, rng = state.rng.randbelow(len(tiles))
            state = _replace(state, rng=rng, next_size=tiles[k])
        if not has_placement(state.config, state.tower, self.pieces_allowed(state)):
            return self._end_round(state, "stuck", None, ())
        return state

    # ---- queries -------------------------------------------------------------------------
    def num_players(self, state: KozoState) -> int:
        """Number of seats."""
        return state.config.players

    def is_terminal(self, state: KozoState) -> bool:
        """True after the last round."""
        return state.over

    def current_player(self, state: KozoState) -> int | None:
        """The seat to move, or None at the end."""
        return None if state.over else state.to_move

    def turn_number(self, state: KozoState) -> int:
        """Moves applied so far."""
        return state.turn

    def pieces_allowed(self, state: KozoState) -> tuple[str, ...]:
        """Supply pieces the mover may place now (touch-move, face-down size)."""
        if state.touched is not None:
            return (state.touched,)
        pieces = state.supply
        if state.next_size is not None:
            pieces = tuple(p for p in pieces if self.value(state.config, p) == state.next_size)
        return pieces

    def allowed_placements(self, state: KozoState) -> tuple[KozoMove, ...]:
        """Legal placements in the candidate set (half-cube lattice x every rotation, resting
        height by a straight drop) of the pieces the mover may place."""
        return _placements(state.config, state.tower, self.pieces_allowed(state))

    def legal_moves(self, state: KozoState) -> tuple[KozoMove, ...]:
        """Sorted legal moves: placements (and takes) in the place phase, spots in the cube
        phase (``nocube`` alone when no spot is legal); empty at the end."""
        if state.over:
            return ()
        if state.phase == PLACE:
            t = placement_table(state.config, state.tower, self.pieces_allowed(state))
            if t is not None:  # the table's rows are in the moves' order, takes after them
                rows = tuple(t.move(k) for k in range(len(t)))
                if state.touched is not None:
                    return rows
                have = np.unique(t.piece).tolist()
                return rows + tuple(KozoMove(TAKE, t.pieces[i]) for i in have)
            places = self.allowed_placements(state)
            takes: tuple[KozoMove, ...] = ()
            if state.touched is None:
                pieces = dict.fromkeys(m.piece for m in places)
                takes = tuple(sorted((KozoMove(TAKE, p) for p in pieces), key=_order))
            return tuple(sorted(places + takes, key=_order))
        spots = _cube_spots(state.config, state.tower)
        return spots or (KozoMove(NOCUBE),)

    def legal_moves_reference(self, state: KozoState) -> tuple[KozoMove, ...]:
        """:meth:`legal_moves` by the definitions the tables replace (kept as the reference
        they are tested against): the placements judged per orientation
        (:func:`_placements`) and every balance cube spot by :func:`check_balance`."""
        if state.over:
            return ()
        if state.phase == PLACE:
            places = _placements(state.config, state.tower, self.pieces_allowed(state))
            takes: tuple[KozoMove, ...] = ()
            if state.touched is None:
                pieces = dict.fromkeys(m.piece for m in places)
                takes = tuple(sorted((KozoMove(TAKE, p) for p in pieces), key=_order))
            return tuple(sorted(places + takes, key=_order))
        return _cube_spots_reference(state.config, state.tower) or (KozoMove(NOCUBE),)

    # ---- apply ---------------------------------------------------------------------------
    def check_move(self, state: KozoState, move: KozoMove) -> None:
        """Raise the typed error of the first rule ``move`` breaks (it need not be in the
        candidate set: any real pose can be played), without measuring or applying it."""
        if not isinstance(move, KozoMove) or move.kind not in MOVE_KINDS:
            raise IllegalMoveError(f"kozo: {move!r} is not a Kozo move")
        if state.over:
            raise IllegalMoveError("kozo: the game is over")
        if move.kind == TAKE:
            self._apply_take(state, move)
        else:
            self._validate(state, move)

    def _validate(self, state: KozoState, move: KozoMove) -> tuple[Item | None, float | None]:
        """Check a place, cube or nocube move; return the new item and its support margin."""
        cfg = state.config
        if state.phase == PLACE and move.kind != PLACE:
            raise IllegalMoveError(
                f"kozo: {self.player_name(state.to_move)} must first place a polycube, not {move.kind!r}"
            )
        if state.phase == CUBE and move.kind == PLACE:
            raise IllegalMoveError(
                f"kozo: {self.player_name(state.to_move)} has placed a polycube and must now place a "
                "balance cube ('cube at x,y,z')"
            )
        blocks = tower_blocks(cfg, state.tower)
        new_item: Item | None = None
        margin: float | None = None
        if move.kind == PLACE:
            self._check_piece(state, move.piece)
            shapes = piece_orientations(cfg.catalogue, move.piece)
            if not 0 <= move.rot < len(shapes):
                raise IllegalMoveError(
                    f"kozo: piece {move.piece} has rotations r0..r{len(shapes) - 1}, "
                    f"got r{move.rot}"
                )
            if not _listed(cfg, state, self.pieces_allowed(state), move):
                check_polycube(
                    shapes[move.rot],
                    move.pos,
                    blocks,
                    tol=cfg.tolerance,
                    cover=cfg.cover,
                    label=move.piece,
                )
            margin = support_margin(
                np.asarray(shapes[move.rot], float), np.asarray(move.pos), blocks, cfg.tolerance
            )
            new_item = Item(move.piece, move.rot, move.pos, (*move.pos, *IDENTITY_Q), state.to_move)
        elif move.kind == CUBE:
            if not _listed(cfg, state, (), move):
                check_balance(move.pos, cfg.balance_edge, blocks, tol=cfg.tolerance)
            x, y, z = move.pos
            half = cfg.balance_edge / 2
            name = f"b{1 + sum(1 for h in state.history if h.startswith('cube'))}"
            new_item = Item(name, -1, move.pos, (x - half, y - half, z, *IDENTITY_Q), state.to_move)
        else:
            if _cube_spots(cfg, state.tower):
                raise IllegalMoveError(
                    "kozo: 'nocube' is only allowed when no balance cube spot is legal"
                )
        return new_item, margin

    def apply(self, state: KozoState, move: KozoMove) -> KozoState:
        """The state after ``move``; typed errors name the broken rule."""
        if not isinstance(move, KozoMove) or move.kind not in MOVE_KINDS:
            raise IllegalMoveError(f"kozo: {move!r} is not a Kozo move")
        if state.over:
            raise IllegalMoveError("kozo: the game is over")
        cfg = state.config
        if move.kind == TAKE:
            return self._apply_take(state, move)
        new_item, margin = self._validate(state, move)
        tower = state.tower + ((new_item,) if new_item is not None else ())
        names = tuple(it.name for it in tower)
        rng = state.rng
        outcome = move.outcome
        if outcome is None:
            if cfg.table != "stand-in":
                raise RefereeRequiredError(
                    "kozo: this game is judged at the physics table (table=physics): a "
                    f"{move.kind} move must be measured by it first (tablesim play does this); "
                    "for rules-only play use the option table=stand-in"
                )
            polys = tuple(it.name for it in tower if not it.is_balance)
            span = cfg.hold_s if move.kind == PLACE else cfg.window_s
            outcome, rng = stand_in_outcome(
                rng,
                tuple(it.pose for it in tower),
                names,
                polys,
                topple_risk(cfg, move, margin),
                span,
            )
        _check_outcome(outcome, names)
        tower = tuple(
            Item(it.name, it.rot, it.intended, pose, it.seat)
            for it, pose in zip(tower, outcome.poses, strict=True)
        )
        mover = state.to_move
        last = tuple(state.turn if s == mover else t for s, t in enumerate(state.last_move_turn))
        state = _replace(
            state,
            rng=rng,
            tower=tower,
            turn=state.turn + 1,
            history=state.history + (self.format_move(state, move),),
            moves=state.moves + (move.intended(),),
            last_move_turn=last,
        )
        fell = set(outcome.fell)
        balance_names = {it.name for it in tower if it.is_balance}
        polys_fell = fell - balance_names
        if polys_fell or (fell and cfg.balance_fall == "topple"):
            return self._end_round(state, "topple", mover, tuple(sorted(fell)))
        if fell:  # balance cubes fell alone and the option takes them away
            state = _replace(state, tower=tuple(it for it in tower if it.name not in fell))
        if move.kind == PLACE:
            supply = tuple(p for p in state.supply if p != move.piece)
            return _replace(state, supply=supply, phase=CUBE, touched=None)
        # The turn ends standing: take the tile of the polycube placed this turn.
        placed = next(
            it.name for it in reversed(state.tower) if not it.is_balance and it.seat == mover
        )
        earned = tuple(
            e + (self.value(cfg, placed) if s == mover else 0) for s, e in enumerate(state.earned)
        )
        state = _replace(state, earned=earned, phase=PLACE, next_size=None)
        if not state.supply:
            return self._end_round(state, "supply", None, ())
        return self._begin_turn(_replace(state, to_move=(mover + 1) % cfg.players))

    # ---- the table clock (the 5-second rule, games/kozo/clock.py) ------------------------
    def clock(self, state: KozoState) -> RoundClock:
        """The table clock of the current round (turn ends, when the polycube was let go):
        the physics table runs its world by it. A fall is charged to the player whose move
        the table was measuring when it began (see :mod:`tablesim.games.kozo.clock`)."""
        cfg = state.config
        return round_clock(state.history, state.start, cfg.players, cfg.hold_s, cfg.window_s)

    def stamp_seconds(self, state: KozoState, move: KozoMove, seconds: float) -> KozoMove:
        """``move`` as a person made it, ``seconds`` after ``state`` was first shown to them: a
        placement after an earlier turn of the round, without a time of its own, takes them
        (0.1 s, at most :data:`SECS_LIMIT`) as its time to place; other moves are returned as
        they are. The front end measures the time; the rules never read a clock."""
        if not isinstance(move, KozoMove) or move.kind != PLACE or move.secs is not None:
            return move
        if state.over or self.clock(state).last_end is None:
            return move
        return _replace_move(move, secs=_secs(seconds))

    def _check_piece(self, state: KozoState, piece: str) -> None:
        if piece not in state.supply:
            placed = [it.name for it in state.tower if not it.is_balance]
            why = "is already on the tower" if piece in placed else "is not a piece of the set"
            raise IllegalMoveError(
                f"kozo: {piece!r} {why}; the supply holds {', '.join(state.supply)}"
            )
        if state.touched is not None and piece != state.touched:
            raise IllegalMoveError(
                f"kozo: touch-move: {self.player_name(state.to_move)} took {state.touched} and must place "
                f"it, not {piece}"
            )
        if state.next_size is not None and self.value(state.config, piece) != state.next_size:
            raise IllegalMoveError(
                f"kozo: the face-down tile says size {state.next_size}; {piece} has "
                f"{self.value(state.config, piece)} cubes"
            )

    def _apply_take(self, state: KozoState, move: KozoMove) -> KozoState:
        if state.phase != PLACE or state.touched is not None:
            held = f" (holding {state.touched})" if state.touched else ""
            raise IllegalMoveError(
                f"kozo: {self.player_name(state.to_move)} cannot take a piece now{held}"
            )
        self._check_piece(state, move.piece)
        if not has_placement(state.config, state.tower, (move.piece,)):
            raise IllegalMoveError(
                f"kozo: {move.piece} has no legal placement on this tower; take another piece"
            )
        last = tuple(
            state.turn if s == state.to_move else t for s, t in enumerate(state.last_move_turn)
        )
        return _replace(
            state,
            touched=move.piece,
            turn=state.turn + 1,
            history=state.history + (self.format_move(state, move),),
            moves=state.moves + (move.intended(),),
            last_move_turn=last,
        )

    def _end_round(
        self, state: KozoState, reason: str, toppler: int | None, fell: tuple[str, ...]
    ) -> KozoState:
        cfg = state.config
        earned = state.earned
        if cfg.team:
            points = earned  # the points placed before the tower fell are kept
        else:
            points = tuple(0 if s == toppler else e for s, e in enumerate(earned))
        record = RoundRecord(points, earned, reason, toppler, fell)
        rounds = state.rounds + (record,)
        if len(rounds) >= cfg.rounds:
            return _replace(state, rounds=rounds, over=True, touched=None, next_size=None)
        start = len(rounds) % cfg.players
        fresh = _replace(
            state,
            rounds=rounds,
            round=len(rounds) + 1,
            start=start,
            to_move=start,
            phase=PLACE,
            supply=self._full_supply(cfg),
            tower=(),
            earned=(0,) * cfg.players,
            touched=None,
            history=(),
            moves=(),
            next_size=None,
        )
        return self._begin_turn(fresh)

    def commitment(self, state: KozoState, move: KozoMove) -> KozoMove | None:
        """Touch-move: the ``take`` a rejected placement commits its player to (the piece was
        named, so it is touched), or None. The terminal loop plays it for a human. A placement
        refused for reaching outside the eight squares is a mistyped coordinate, not a touch:
        no piece was brought to the tower, so it binds nothing."""
        if (
            isinstance(move, KozoMove)
            and move.kind == PLACE
            and not state.over
            and state.phase == PLACE
            and state.touched is None
        ):
            try:
                self.check_move(state, move)
            except OutsideBaseError:
                return None
            except GameError:
                pass
            take = KozoMove(TAKE, move.piece)
            return take if take in self.legal_moves(state) else None
        return None

    # ---- result --------------------------------------------------------------------------
    def totals(self, state: KozoState) -> tuple[int, ...]:
        """Points per seat over the finished rounds (team games: the team's total each)."""
        per = [sum(r.points[s] for r in state.rounds) for s in range(state.config.players)]
        if state.config.team:
            return (sum(per),) * state.config.players
        return tuple(per)

    def result(self, state: KozoState) -> Result:
        """Scores, winners (ties by the ``tie`` option) and a per-round account."""
        if not state.over:
            raise GameError(f"kozo: the game is not over (round {state.round})")
        cfg = state.config
        totals = self.totals(state)
        detail: dict[str, Any] = {"rounds": [r.to_json() for r in state.rounds]}
        if cfg.team:
            beaten = sum(1 for r in state.rounds if r.reason != "topple")
            detail["rounds_beaten"] = beaten
            team_win = tuple(range(cfg.players)) if 2 * beaten > cfg.rounds else ()
            who = "you" if cfg.players == 1 else "the team"
            detail["outcome"] = (
                f"{who} kept the tower standing in {beaten} of {counted(cfg.rounds, 'round')}: "
                f"{'won' if team_win else 'lost'} (more than half must stand)"
            )
            detail["end"] = (
                f"after {counted(cfg.rounds, 'round')}: the tower stood in "
                f"{'more than half' if team_win else 'half or fewer'}"
            )
            return Result(tuple(float(t) for t in totals), team_win, detail)
        top = max(totals)
        tied = [s for s in range(cfg.players) if totals[s] == top]
        # "After three rounds have been played, the player with the highest total score wins"
        detail["end"] = f"after {counted(cfg.rounds, 'round')}: the highest total score"
        if len(tied) == 1:
            winners: tuple[int, ...] = (tied[0],)
        elif cfg.tie == "share":
            winners = tuple(tied)
            detail["tie"] = "shared"
            detail["end"] += ", a tie shared"
        else:
            detail["end"] += ", a tie: the player who moved later"
            # "the player who moved later": later in the turn order (P1, seat 0, began the game),
            # not whoever made the game's last move, which after a fall is the toppler.
            later = max(tied)
            winners = (later,)
            detail["tie"] = f"{self.player_name(later)} is later in the turn order"
        return Result(tuple(float(t) for t in totals), winners, detail)

    # ---- text ----------------------------------------------------------------------------
    summarise_prompt: ClassVar[bool] = True
    """The terminal prompt counts the legal moves by piece instead of listing hundreds."""

    def move_help(self, state: KozoState) -> list[str]:
        """Help lines at the terminal: the move forms, what ``rN`` means for each piece the
        mover may place now, and touch-move."""
        lines = [
            "forms: 'take 4L' (touch-move: you must then place it), '4L r3 at 0,0' (drop "
            "straight down), '4L r3 at 0,0,1' (x,y,z of the piece's lowest corner, in cube "
            "edges, the base 0..3 by 0..3), 'cube at 1.5,0.5' (a balance cube), 'nocube'",
            "rN is the piece's N-th rotation: its size (x by y by z cubes) and cells as xyz "
            "from that lowest corner:",
        ]
        if state.phase == PLACE and not state.over:
            pieces = [state.touched] if state.touched else sorted(set(state.supply))
            for piece in pieces:
                shapes = piece_orientations(state.config.catalogue, piece)
                lines.append("  " + rotation_lines(piece, shapes))
        lines.append(
            "a placement outside the eight squares is a typing error, not a touch; a "
            "named piece refused for another rule counts as touched"
        )
        return lines

    def format_move(self, state: KozoState, move: KozoMove) -> str:
        """``take 4L``, ``4L r3 at 0,0,1`` (``4L r3 at 0,0,1 @2.3``: placed 2.3 s after the
        previous turn ended), ``cube at 1.5,0.5,2``, ``nocube``."""
        if move.kind == TAKE:
            return f"take {move.piece}"
        if move.kind == NOCUBE:
            return "nocube"
        pos = ",".join(_num(v) for v in move.pos)
        if move.kind == CUBE:
            return f"cube at {pos}"
        secs = "" if move.secs is None else f" @{move.secs:g}"
        return f"{move.piece} r{move.rot} at {pos}{secs}"

    def parse_move(self, state: KozoState, text: str) -> KozoMove:
        """Parse a move text; ``at x,y`` without z drops the piece straight down onto the
        settled tower. Raises MoveParseError with the accepted forms."""
        if not isinstance(text, str):
            raise MoveParseError(f"kozo: a move is text, got {text!r}")
        body, at, secs_text = text.partition("@")
        t = " ".join(body.strip().split())
        forms = "take 4L | 4L r3 at 0,0,1 | 4L r3 at 0,0 | 4L r3 at 0,0 @2.5 | cube at 1.5,0.5,2 | nocube"
        secs = _parse_secs(text, secs_text) if at else None
        if at and (t == "nocube" or t.startswith(("take ", "cube "))):
            raise MoveParseError(
                f"kozo: {text!r}: only a placement carries its time to place (@SECS)"
            )
        if t == "nocube":
            return KozoMove(NOCUBE)
        m = re.fullmatch(r"take (\S+)", t)
        if m:
            return KozoMove(TAKE, m.group(1))
        m = re.fullmatch(r"cube (?:at )?(\S+)", t)
        if m:
            pos = _coords(m.group(1), text, forms)
            if len(pos) == 2:
                pos = (*pos, self._cube_drop(state, pos))
            return KozoMove(CUBE, "", 0, pos)  # type: ignore[arg-type]
        m = re.fullmatch(r"(?:place )?(\S+) r(\d+) (?:at )?(\S+)", t)
        if not m:
            raise MoveParseError(f"kozo: {text!r} is not a move (forms: {forms})")
        piece, rot = m.group(1), int(m.group(2))
        pos = _coords(m.group(3), text, forms)
        try:
            shapes = piece_orientations(state.config.catalogue, piece)
        except PieceError as exc:
            raise MoveParseError(f"kozo: {text!r}: {exc}") from None
        if rot >= len(shapes):
            raise MoveParseError(f"kozo: {text!r}: {piece} has rotations r0..r{len(shapes) - 1}")
        if len(pos) == 2:
            blocks = tower_blocks(state.config, state.tower)
            z = q4(drop_height(shapes[rot], pos[0], pos[1], blocks, state.config.tolerance))
            pos = (*pos, z)
        return KozoMove(PLACE, piece, rot, pos, secs=secs)  # type: ignore[arg-type]

    def _cube_drop(self, state: KozoState, xy: Sequence[float]) -> float:
        blocks = tower_blocks(state.config, state.tower)
        e = state.config.balance_edge
        x, y = xy
        if not blocks.size:
            return 0.0
        ox = np.minimum(x + e / 2, blocks.hi[:, 0]) - np.maximum(x - e / 2, blocks.lo[:, 0])
        oy = np.minimum(y + e / 2, blocks.hi[:, 1]) - np.maximum(y - e / 2, blocks.lo[:, 1])
        under = (ox > state.config.tolerance) & (oy > state.config.tolerance)
        return q4(blocks.hi[under, 2].max()) if under.any() else 0.0

    # ---- JSON ----------------------------------------------------------------------------
    def state_to_json(self, state: KozoState) -> dict[str, Any]:
        """The whole state (settled poses included) as JSON."""
        return {
            **state_head(self, STATE_VERSION, state.config, state.rng),
            "seed": state.seed,
            "round": state.round,
            "start": state.start,
            "to_move": state.to_move,
            "phase": state.phase,
            "supply": list(state.supply),
            "tower": items_to_json(state.tower),
            "earned": list(state.earned),
            "rounds": [r.to_json() for r in state.rounds],
            "touched": state.touched,
            "turn": state.turn,
            "history": list(state.history),
            "next_size": state.next_size,
            "last_move_turn": list(state.last_move_turn),
            "over": state.over,
        }

    def state_from_json(self, obj: Mapping[str, Any]) -> KozoState:
        """Rebuild a state from :meth:`state_to_json`; StateFormatError names the bad key."""
        check_state_header(obj, self.name, STATE_VERSION)
        config = state_config(self, obj)
        n = config.players
        at = "kozo state: "
        try:
            rng = state_rng(self.name, obj["rng"])
            tower = items_from_json(obj["tower"], f"{at}tower", Item)
            rounds = tuple(
                RoundRecord(
                    json_ints(r["points"], f"{at}rounds[{i}].points", n),
                    json_ints(r["earned"], f"{at}rounds[{i}].earned", n),
                    str(r["reason"]),
                    json_opt_int(r["toppler"], f"{at}rounds[{i}].toppler"),
                    tuple(str(x) for x in r["fell"]),
                )
                for i, r in enumerate(obj["rounds"])
            )
            phase = obj["phase"]
            if phase not in (PLACE, CUBE):
                raise StateFormatError(f"kozo state: 'phase' is {phase!r} (place or cube)")
            supply = tuple(str(p) for p in obj["supply"])
            catalogue = get_catalogue(config.catalogue)
            for p in supply:
                catalogue.piece(p)
            state = KozoState(
                config=config,
                seed=json_int(obj["seed"], f"{at}'seed'"),
                rng=rng,
                round=json_int(obj["round"], f"{at}'round'"),
                start=json_int(obj["start"], f"{at}'start'"),
                to_move=json_int(obj["to_move"], f"{at}'to_move'"),
                phase=phase,
                supply=supply,
                tower=tower,
                earned=json_ints(obj["earned"], f"{at}'earned'", n),
                rounds=rounds,
                touched=None if obj["touched"] is None else str(obj["touched"]),
                turn=json_int(obj["turn"], f"{at}'turn'"),
                history=tuple(str(h) for h in obj["history"]),
                next_size=json_opt_int(obj["next_size"], f"{at}'next_size'"),
                last_move_turn=json_ints(obj["last_move_turn"], f"{at}'last_move_turn'", n),
                over=bool(obj["over"]),
            )
        except StateFormatError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise StateFormatError(f"kozo state: missing or malformed field: {exc}") from None
        if not 0 <= state.to_move < n:
            raise StateFormatError(f"kozo state: 'to_move' {state.to_move} is not a seat")
        try:  # the moves as values (the table's), from the texts the state keeps
            moves = tuple(self.parse_move(state, h) for h in state.history)
        except GameError as exc:
            raise StateFormatError(f"kozo state: 'history' holds a bad move: {exc}") from None
        return _replace(state, moves=moves)

    # ---- people --------------------------------------------------------------------------
    def describe(self, state: KozoState) -> str:
        """Round, scores, the tower seen from above (height of each square), whose turn."""
        cfg = state.config
        lines = [
            f"Kozo: round {state.round} of {cfg.rounds}, table {cfg.table}; scores "
            + ", ".join(f"P{s + 1} {t}" for s, t in enumerate(self.totals(state)))
            + "; this round "
            + ", ".join(f"P{s + 1} {e}" for s, e in enumerate(state.earned))
        ]
        blocks = tower_blocks(cfg, state.tower)
        for j in (2, 1, 0):
            row = []
            for i in range(3):
                if (i, j) == (1, 1):
                    row.append("  C")
                    continue
                cx, cy = i + 0.5, j + 0.5
                inside = (blocks.lo[:, 0] < cx) & (blocks.hi[:, 0] > cx)
                inside &= (blocks.lo[:, 1] < cy) & (blocks.hi[:, 1] > cy)
                h = float(blocks.hi[inside, 2].max()) if inside.any() else 0.0
                row.append(f"{h:3.1f}")
            lines.append("  " + " ".join(row))
        lines.append("supply: " + ", ".join(state.supply))
        if state.over:
            lines.append("game over")
        else:
            what = "place a polycube" if state.phase == PLACE else "place the balance cube"
            extra = f" (holding {state.touched})" if state.touched else ""
            size = f" (the tile says size {state.next_size})" if state.next_size else ""
            lines.append(f"P{state.to_move + 1} to {what}{extra}{size}")
        return "\n".join(lines)

    undo_limit = "but never a move after which something fell (a physical outcome stands)"
    """What ``help`` adds to ``undo`` (:meth:`undo_refusal` refuses the rest)."""

    def undo_refusal(self, played: Any) -> str | None:
        """Why the move ``played`` (a :class:`tablesim.games.session.Played`) cannot be taken back, or
        None: a move after which something fell (the tower toppled and the round ended, or a
        balance cube was taken away) showed a physical outcome; taking it back would let the
        mover try again knowing it ("If the tower falls during your turn, you lose your
        points for that round": docs/rules/kozo.md, Undo)."""
        before, after, move = played.before, played.after, played.move
        outcome = getattr(move, "outcome", None)
        fell = tuple(outcome.fell) if outcome is not None else ()
        toppled = len(after.rounds) > len(before.rounds) and after.rounds[-1].reason == "topple"
        if not fell and not toppled:
            return None
        what = ", ".join(fell) if fell else "the tower"
        return f"kozo: after {played.text!r} {what} fell; a physical outcome that was seen stands"

    def describe_move(self, state: KozoState, move: KozoMove) -> str:
        """A sentence: what was placed, and whether the tower stood."""
        after = self.apply(state, move)
        text = f"P{state.to_move + 1} {self.format_move(state, move)}"
        if len(after.rounds) > len(state.rounds):
            r = after.rounds[-1]
            if r.reason == "topple":
                return text + f": the tower toppled ({', '.join(r.fell)} fell); round over"
            return text + f": round over ({r.reason})"
        return text


def _replace(state: KozoState, **changes: Any) -> KozoState:
    from dataclasses import replace

    return replace(state, **changes)


def _replace_move(move: KozoMove, **changes: Any) -> KozoMove:
    from dataclasses import replace

    return replace(move, **changes)


def _secs(seconds: float) -> float:
    """A time to place as moves carry it: 0.1 s resolution, in [0, SECS_LIMIT]."""
    return round(min(max(float(seconds), 0.0), SECS_LIMIT), 1) + 0.0


def _parse_secs(text: str, secs_text: str) -> float:
    try:
        secs = float(secs_text)
    except ValueError:
        raise MoveParseError(
            f"kozo: {text!r}: after @ give the seconds to place, e.g. @2.5"
        ) from None
    if not (math.isfinite(secs) and 0 <= secs <= SECS_LIMIT):
        raise MoveParseError(f"kozo: {text!r}: seconds to place must be in 0..{SECS_LIMIT:g}")
    return _secs(secs)


def _check_outcome(outcome: Outcome, names: tuple[str, ...]) -> None:
    check_outcome("kozo", outcome, names, "items")


def _coords(text: str, whole: str, forms: str) -> tuple[float, ...]:
    parts = text.split(",")
    try:
        vals = tuple(q4(float(p)) for p in parts)
    except ValueError:
        raise MoveParseError(
            f"kozo: {whole!r}: bad coordinates {text!r} (forms: {forms})"
        ) from None
    if len(vals) not in (2, 3) or not all(math.isfinite(v) for v in vals):
        raise MoveParseError(f"kozo: {whole!r}: give x,y or x,y,z (forms: {forms})")
    return vals


GAME = Kozo()
