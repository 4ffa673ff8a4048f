"""The Kataboom game object: options, legal moves, apply, result, text and JSON forms.

Rulebook (Katamino Duo, "Balancing Game: Kataboom!"): the two small red pieces (the V
monominoes) are set aside; a starting base is built from one of 18 models; in turn each player
places one remaining piece on the structure; the last player to place a piece without causing
the structure to collapse wins. Readings are decided in ``docs/rules/kataboom.md``:

- ``reading=anywhere`` (default): a piece may rest on any piece of the structure;
  ``reading=on-previous``: it must rest on the piece placed last ("on top of the previous
  one"; the first placement rests on the starting model).
- A piece is lowered straight down until it rests; it must rest on the structure and may not
  touch the table. ``legal_moves`` lists the candidate set (every distinct rotation of every
  piece in the supply, on a half-edge lattice over the structure); ``apply`` also accepts any
  off-lattice position that passes the rules, and nudges.
- A nudge (``nudge P at x,y,z push a,b,c``) pushes piece P at a point with an impulse
  (mN s); at most ``nudges`` per turn, before the placement; it does not end the turn.
- A collapse (any piece falls, by the topple rule, while a move is measured) ends the game:
  the mover loses and the last player who placed a piece without a collapse wins (if nobody
  had, every other player shares the win). When the supply runs out, or the player to move
  has no legal placement in the candidate set, the last placer wins.
- Place and nudge moves are *measured* by the physics table (:mod:`tablesim.sim.slices.kataboom.referee`)
  before ``apply``; with ``table=stand-in`` an unmeasured move is judged by a seeded stand-in
  (topple chance ``stand_in_risk``, or 0.9 when the piece's centre of mass lies outside its
  contact patches), for rules-only playouts.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import lru_cache
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
    json_int,
    json_opt_int,
    state_config,
    state_head,
    state_rng,
)
from tablesim.games.kataboom.geometry import (
    check_placement,
    orientations,
    spot_table,
    spots,
    structure_blocks,
)
from tablesim.games.kataboom.models import MODELS, get_model
from tablesim.games.kataboom.state import (
    MOVE_KINDS,
    NUDGE,
    PLACE,
    READINGS,
    RELEASES,
    TABLES,
    Item,
    KataboomConfig,
    KataboomMove,
    KataboomState,
    Outcome,
)
from tablesim.games.polycubes import PieceError, get_catalogue
from tablesim.games.rng import Rng

STATE_VERSION = 1
REFEREE = "kataboom-physics"
"""Name of the physics referee (registered by :mod:`tablesim.sim.referees`)."""
SET_ASIDE = ("V1", "V2")
"""The two small red pieces (the V monominoes), not used in Kataboom."""
IDENTITY_Q = (0.0, 0.0, 0.0, 1.0)
MAX_PUSH = 5.0
"""Largest nudge impulse (mN s): about 0.2 m/s given to a 24 g pentomino."""
NUDGE_REACH = 0.1
"""A nudge point must lie within this many edges of the nudged piece's box."""
UNSUPPORTED_RISK = 0.9
"""Stand-in topple chance of a piece whose centre of mass is outside its contact patches."""


class RefereeRequiredError(GameError):
    """A place or nudge move without its measured outcome in a game judged by physics."""


def kataboom_pieces() -> tuple[str, ...]:
    """The 16 Kataboom pieces (the Katamino Duo set without the two V)."""
    return tuple(p.name for p in get_catalogue("katamino-duo").pieces if p.name not in SET_ASIDE)


def _items_key(structure: tuple[Item, ...]) -> tuple[tuple[str, int, tuple[float, ...]], ...]:
    return tuple((it.name, it.rot, it.pose) for it in structure)


@lru_cache(maxsize=128)
def _blocks(key: tuple[tuple[str, int, tuple[float, ...]], ...]) -> Any:
    return structure_blocks(key)


def structure_blocks_of(structure: tuple[Item, ...]) -> Any:
    """The boxes of ``structure`` (:func:`structure_blocks` of its names, rotations and
    poses), remembered for the last structures asked about; read them, never write them."""
    return _blocks(_items_key(structure))


def _previous(config: KataboomConfig, structure: tuple[Item, ...]) -> int | None:
    """Index of the item a placement must rest on (reading on-previous), else None."""
    if config.reading != "on-previous" or not structure or structure[-1].seat < 0:
        return None
    return len(structure) - 1


class PlacementTable:
    """The candidate placements of a position as arrays, in :meth:`Kataboom.placements`
    order (piece name, rotation, then x, y): row ``k`` is piece ``pieces[piece[k]]`` in
    rotation ``rot[k]`` at ``(x[k], y[k], z[k])``, with support margin ``margin[k]``
    (computed when first read). The environments build their masks from it without making
    the moves."""

    def __init__(self, pieces: tuple[str, ...], piece: np.ndarray, rot: np.ndarray,
                 x: np.ndarray, y: np.ndarray, z: np.ndarray,
                 margin: Callable[[], np.ndarray]) -> None:  # fmt: skip
        self.pieces, self.piece, self.rot, self.x, self.y, self.z = pieces, piece, rot, x, y, z
        self._make_margin: Callable[[], np.ndarray] | None = margin
        self._margin = np.zeros(0)

    @property
    def margin(self) -> np.ndarray:
        """Each row's support margin (edges, positive inside)."""
        if self._make_margin is not None:
            self._margin, self._make_margin = self._make_margin(), None
        return self._margin

    def __len__(self) -> int:
        return len(self.piece)

    def move(self, k: int) -> KataboomMove:
        """Row ``k`` as the move :meth:`Kataboom.placements` lists there."""
        pos = (round(float(self.x[k]), 4) + 0.0, round(float(self.y[k]), 4) + 0.0,
               round(float(self.z[k]), 4) + 0.0)  # fmt: skip
        return KataboomMove(PLACE, self.pieces[int(self.piece[k])], int(self.rot[k]), pos)


@lru_cache(maxsize=256)
def _supply_rows(
    supply: tuple[str, ...],
) -> tuple[tuple[Any, ...], tuple[str, ...], np.ndarray, np.ndarray, np.ndarray]:
    """For :func:`placement_table`: the oriented shapes of ``supply`` in one list (each
    distinct shape once: the two dominoes share theirs), the pieces sorted, and per (piece,
    rotation) in the moves' order its orientation in that list, its piece and its rotation."""
    shapes: dict[tuple, int] = {}  # distinct shape -> its first orientation in the list
    flat: list[Any] = []
    for piece in supply:
        cells_set = orientations(piece)
        if cells_set not in shapes:
            shapes[cells_set] = len(flat)
            flat.extend(cells_set)
    pieces = tuple(sorted(supply))
    pair_o, pair_p, pair_r = [], [], []
    for i, piece in enumerate(pieces):
        first = shapes[orientations(piece)]
        for r in range(len(orientations(piece))):
            pair_o.append(first + r)
            pair_p.append(i)
            pair_r.append(r)
    arr = lambda v: np.asarray(v, dtype=np.int64)  # noqa: E731
    return tuple(flat), pieces, arr(pair_o), arr(pair_p), arr(pair_r)


@lru_cache(maxsize=64)
def placement_table(
    config: KataboomConfig, structure: tuple[Item, ...], supply: tuple[str, ...]
) -> PlacementTable:
    """Every rotation of every piece in ``supply`` at every lattice spot over ``structure``,
    in one :func:`spot_table` pass (the two dominoes share their shape's spots), keeping the
    legal ones, sorted as the moves sort (piece name, rotation, x, y)."""
    flat, pieces, pair_o, pair_p, pair_r = _supply_rows(supply)
    tab = spot_table(flat, _blocks(_items_key(structure)), len(structure),
                     _previous(config, structure))  # fmt: skip
    ok_before = np.concatenate([[0], np.cumsum(tab.ok)])  # legal rows before each row
    n_ok = ok_before[tab.start[1:]] - ok_before[tab.start[:-1]]  # per orientation
    ok = np.flatnonzero(tab.ok)  # rows, orientation after orientation
    lengths = n_ok[pair_o]
    ends = np.cumsum(lengths)
    sel = ok[np.repeat(ok_before[tab.start[pair_o]] - (ends - lengths), lengths)
             + np.arange(int(lengths.sum()))]  # fmt: skip
    xy = tab.xy[sel]
    cols = (np.repeat(pair_p, lengths), np.repeat(pair_r, lengths), xy[:, 0], xy[:, 1], tab.z[sel])
    for arr in cols:  # (cached: shared by every caller)
        arr.flags.writeable = False
    return PlacementTable(pieces, *cols, lambda: tab.margin_of(sel))


@lru_cache(maxsize=64)
def _candidates(
    config: KataboomConfig, structure: tuple[Item, ...], supply: tuple[str, ...]
) -> tuple[tuple[KataboomMove, ...], tuple[float, ...]]:
    t = placement_table(config, structure, supply)
    pieces = t.pieces
    moves = tuple(
        KataboomMove(
            PLACE, pieces[p], r, (round(x, 4) + 0.0, round(y, 4) + 0.0, round(z, 4) + 0.0)
        )  # fmt: skip
        for p, r, x, y, z in zip(
            t.piece.tolist(),
            t.rot.tolist(),
            t.x.tolist(),
            t.y.tolist(),
            t.z.tolist(),
            strict=True,
        )
    )
    return moves, tuple(t.margin.tolist())


def count_safe(state: KataboomState, threshold: float) -> int:
    """How many candidate placements of ``state`` have a support margin of at least
    ``threshold`` edges (the same count as filtering :meth:`Kataboom.placement_margins`,
    without building the moves)."""
    t = placement_table(state.config, state.structure, state.supply)
    return int((t.margin >= threshold).sum())


class Kataboom(Game[KataboomState, KataboomMove, KataboomConfig]):
    """Kataboom: balance pieces on a structure; whoever makes it collapse loses."""

    name = "kataboom"
    title = "Kataboom (Katamino Duo)"
    min_players = 2
    max_players = 6
    playout_options: ClassVar[Mapping[str, Any]] = {"table": "stand-in"}
    options = (
        Option("model", "int", 1, f"starting model 1..{len(MODELS)} (1 easiest)"),
        Option("reading", "str", "anywhere", "where a piece may go: anywhere on the structure, "
               "or on the piece placed last", READINGS),
        Option("table", "str", "physics", "who measures moves: the physics table or the seeded "
               "stand-in judge (rules-only playouts)", TABLES),
        Option("nudges", "int", 1, "nudges allowed per turn, before the placement"),
        Option("stand_in_risk", "float", 0.05, "stand-in judge: collapse chance of a supported "
               "placement or a nudge"),
        Option("hand_mm", "float", 1.0, "hand noise: sigma of the horizontal position (mm)"),
        Option("hand_deg", "float", 1.0, "hand noise: sigma of the turn about the vertical "
               "(degrees)"),
        Option("lift_mm", "float", 0.3, "release lift of the first tables' hand: a piece is let "
               "go this far above where it rests (mm; the touch release lets it go at rest, "
               "touching, as simulate starts a scene)"),
        Option("release", "str", "touch", "how the table's hand lets a piece go: moved out of "
               "any neighbour to touch it (touch), or the first tables' hand that only halves "
               "its noise and lifts (lift; logs without this key)", RELEASES),
        Option("refuse", "bool", True, "a placement with no touching pose within the rest "
               "tolerance is refused with the reason (the player places again); off: let go "
               "by the first tables' hand (logs without this key)"),
        Option("escalate", "bool", True, "the window after a placement is judged in the "
               "solver simulate would judge the structure in (the direct solver on a thin "
               "margin or heavy on light; with the touch release); off: always Gauss-Seidel "
               "(logs without this key)"),
        Option("window_s", "float", 3.0, "table time watched after each move (s)"),
        Option("settle_s", "float", 1.0, "table time the starting model settles (s)"),
    )  # fmt: skip

    # ---- configuration -------------------------------------------------------------------
    def make_config(
        self, values: Mapping[str, Any] | None = None, *, players: int
    ) -> KataboomConfig:
        """Validate options; ConfigError names the key, the value and what is allowed."""
        merged = merged_options(self, values, players)
        self.check_players(players)
        check_option_kinds(self.name, self.options, merged)
        check_ranges(self.name, merged, (
            ("model", 1 <= merged["model"] <= len(MODELS), f"1..{len(MODELS)}"),
            ("nudges", 0 <= merged["nudges"] <= 5, "0..5"),
            ("stand_in_risk", 0 <= merged["stand_in_risk"] <= 1, "in [0, 1]"),
            ("hand_mm", 0 <= merged["hand_mm"] <= 5, "in [0, 5] mm"),
            ("hand_deg", 0 <= merged["hand_deg"] <= 10, "in [0, 10] degrees"),
            ("lift_mm", 0 <= merged["lift_mm"] <= 5, "in [0, 5] mm"),
            ("window_s", 0 < merged["window_s"] <= 30, "in (0, 30] s"),
            ("settle_s", 0 < merged["settle_s"] <= 30, "in (0, 30] s"),
        ))  # fmt: skip
        return KataboomConfig(players=players, **merged)

    def config_to_json(self, config: KataboomConfig) -> dict[str, Any]:
        """The config as JSON, ``players`` included; ``release``, ``refuse`` and ``escalate``
        only at the physics table and when they are not the first tables' (``lift``, off, off),
        so the states of logs written before them keep their digests."""
        out = options_to_json(self, config)
        physics = out["table"] == "physics"
        if not out["refuse"] or out["release"] == "lift" or not physics:
            del out["refuse"]  # (the first tables' hand never refuses)
        if not out["escalate"] or out["release"] == "lift" or not physics:
            del out["escalate"]  # (the first tables never escalated)
        if out["release"] == "lift" or not physics:
            del out["release"]
        return out

    def config_from_json(self, obj: Mapping[str, Any]) -> KataboomConfig:
        """Rebuild a config; a physics-table log written before the touching release (no
        ``release``, no ``refuse``) replays with the first tables' hand, never refusing; one
        written before the table escalated (no ``escalate``) watches in Gauss-Seidel."""
        values = dict(obj)
        if values.get("table", "physics") == "physics":
            values.setdefault("release", "lift")
            values.setdefault("refuse", False)
            values.setdefault("escalate", False)  # before the table escalated: Gauss-Seidel
        return super().config_from_json(values)

    def referee_name(self, config: KataboomConfig) -> str | None:
        """``kataboom-physics`` when the physics table measures moves, else None."""
        return REFEREE if config.table == "physics" else None

    # ---- setup ---------------------------------------------------------------------------
    def new_game(self, config: KataboomConfig, seed: int) -> KataboomState:
        """The starting model built (at its intended poses), every other piece in the supply,
        seat 0 to move."""
        if not isinstance(config, KataboomConfig):
            raise ConfigError("kataboom: new_game needs a config made by make_config")
        model = get_model(config.model)
        structure = tuple(
            Item(p.name, p.rot, p.pos, (*p.pos, *IDENTITY_Q), -1) for p in model.pieces
        )
        used = {p.name for p in model.pieces}
        state = KataboomState(
            config=config,
            seed=int(seed),
            rng=Rng.from_seed(seed, "kataboom"),
            structure=structure,
            supply=tuple(p for p in kataboom_pieces() if p not in used),
        )
        return self._begin_turn(state)

    def _begin_turn(self, state: KataboomState) -> KataboomState:
        if state.end is None and not len(
            placement_table(state.config, state.structure, state.supply)
        ):
            return replace(state, end="stuck")
        return state

    # ---- queries -------------------------------------------------------------------------
    def num_players(self, state: KataboomState) -> int:
        """Number of seats."""
        return state.config.players

    def is_terminal(self, state: KataboomState) -> bool:
        """True once the structure collapsed or nobody can place."""
        return state.end is not None

    def current_player(self, state: KataboomState) -> int | None:
        """The seat to move, or None at the end."""
        return None if state.end is not None else state.to_move

    def turn_number(self, state: KataboomState) -> int:
        """Moves applied so far."""
        return state.turn

    def placements(self, state: KataboomState) -> tuple[KataboomMove, ...]:
        """The candidate placements (every rotation of every supply piece on the lattice)."""
        return _candidates(state.config, state.structure, state.supply)[0]

    def placement_margins(self, state: KataboomState) -> dict[KataboomMove, float]:
        """Support margin (edges, positive inside) of every candidate placement."""
        moves, margins = _candidates(state.config, state.structure, state.supply)
        return dict(zip(moves, margins, strict=True))

    def legal_moves(self, state: KataboomState) -> tuple[KataboomMove, ...]:
        """The sorted candidate placements; empty at the end. (Nudges and off-lattice
        placements are legal too; :meth:`check_move` judges any move.)"""
        return () if state.end is not None else self.placements(state)

    # ---- apply ---------------------------------------------------------------------------
    def check_move(self, state: KataboomState, move: KataboomMove) -> float:
        """Raise the typed error of the first rule ``move`` breaks; return the placement's
        support margin (0 for a nudge). Nothing is measured or applied."""
        if not isinstance(move, KataboomMove) or move.kind not in MOVE_KINDS:
            raise IllegalMoveError(f"kataboom: {move!r} is not a Kataboom move")
        if state.end is not None:
            raise IllegalMoveError("kataboom: the game is over")
        names = tuple(it.name for it in state.structure)
        if move.kind == NUDGE:
            self._check_nudge(state, move, names)
            return 0.0
        if move.piece not in state.supply:
            why = (
                "is already in the structure"
                if move.piece in names
                else (
                    "is set aside (the two small red pieces are not used)"
                    if move.piece in SET_ASIDE
                    else "is not a Katamino Duo piece"
                )
            )
            raise IllegalMoveError(
                f"kataboom: piece {move.piece!r} {why}; the supply holds {', '.join(state.supply)}"
            )
        n_rot = len(orientations(move.piece))
        if not 0 <= move.rot < n_rot:
            raise IllegalMoveError(
                f"kataboom: piece {move.piece} has rotations r0..r{n_rot - 1}, got r{move.rot}"
            )
        blocks = _blocks(_items_key(state.structure))
        return check_placement(
            move.piece, move.rot, move.pos, blocks, names, _previous(state.config, state.structure)
        )

    def _check_nudge(
        self, state: KataboomState, move: KataboomMove, names: tuple[str, ...]
    ) -> None:
        cfg = state.config
        if state.nudged >= cfg.nudges:
            raise IllegalMoveError(
                f"kataboom: {self.player_name(state.to_move)} has made {state.nudged} nudge(s) this turn; "
                f"the option nudges allows {cfg.nudges} per turn: place a piece now"
            )
        if move.piece not in names:
            raise IllegalMoveError(
                f"kataboom: cannot nudge {move.piece!r}: the structure holds {', '.join(names)}"
            )
        mag = math.sqrt(sum(v * v for v in move.push))
        if not 0 < mag <= MAX_PUSH:
            raise IllegalMoveError(
                f"kataboom: a nudge's push must be between 0 and {MAX_PUSH:g} mN s, got "
                f"{mag:.3g} mN s"
            )
        blocks = _blocks(_items_key(state.structure))
        mine = blocks.owner == names.index(move.piece)
        p = np.asarray(move.pos, dtype=float)
        gap = np.maximum(blocks.lo[mine] - p, p - blocks.hi[mine]).max(axis=1)
        if gap.min() > NUDGE_REACH:
            raise IllegalMoveError(
                f"kataboom: the nudge point {','.join(_num(v) for v in move.pos)} is "
                f"{gap.min():.2f} edges from piece {move.piece}; touch the piece (within "
                f"{NUDGE_REACH:g} edge of it)"
            )

    def apply(self, state: KataboomState, move: KataboomMove) -> KataboomState:
        """The state after ``move``; typed errors name the broken rule."""
        margin = self.check_move(state, move)
        cfg = state.config
        structure = state.structure
        if move.kind == PLACE:
            structure = structure + (
                Item(move.piece, move.rot, move.pos, (*move.pos, *IDENTITY_Q), state.to_move),
            )
        names = tuple(it.name for it in structure)
        rng = state.rng
        outcome = move.outcome
        if outcome is None:
            if cfg.table != "stand-in":
                raise RefereeRequiredError(
                    "kataboom: this game is judged at the physics table (table=physics): a "
                    f"{move.kind} move must be measured by it first (tablesim play does this); "
                    "for rules-only play use the option table=stand-in"
                )
            if move.kind == PLACE:
                risk = UNSUPPORTED_RISK if margin < 0 else cfg.stand_in_risk
            else:
                risk = cfg.stand_in_risk
            u, rng = rng.random()
            poses = tuple(it.pose for it in structure)
            fell = (move.piece,) if u < risk else ()
            outcome = Outcome(poses, fell, 0.0 if fell else None, "stand-in")
        _check_outcome(outcome, names)
        structure = tuple(
            replace(it, pose=tuple(float(v) for v in pose))  # type: ignore[arg-type]
            for it, pose in zip(structure, outcome.poses, strict=True)
        )
        state = replace(
            state,
            rng=rng,
            structure=structure,
            turn=state.turn + 1,
            history=state.history + (self.format_move(state, move),),
            moves=state.moves + (move.intended(),),
        )
        if move.kind == PLACE:
            state = replace(state, supply=tuple(p for p in state.supply if p != move.piece))
        if outcome.fell:
            return replace(state, end="collapse", loser=state.to_move, fell=outcome.fell)
        if move.kind == NUDGE:
            return replace(state, nudged=state.nudged + 1)
        mover = state.to_move
        supply = state.supply
        state = replace(state, last_placer=mover, nudged=0)
        if not supply:
            return replace(state, end="supply")
        return self._begin_turn(replace(state, to_move=(mover + 1) % cfg.players))

    # ---- result --------------------------------------------------------------------------
    def result(self, state: KataboomState) -> Result:
        """1 point to the winner(s); the detail says how the game ended."""
        if state.end is None:
            raise GameError(f"kataboom: the game is not over (turn {state.turn})")
        n = state.config.players
        if state.last_placer is not None:
            winners: tuple[int, ...] = (state.last_placer,)
        elif state.end == "collapse":
            winners = tuple(s for s in range(n) if s != state.loser)
        else:
            winners = ()
        detail: dict[str, Any] = {
            "end": state.end,
            "loser": state.loser,
            "fell": list(state.fell),
            "placed": sum(1 for it in state.structure if it.seat >= 0),
            "supply_left": len(state.supply),
        }
        scores = tuple(1.0 if s in winners else 0.0 for s in range(n))
        return Result(scores, winners, detail)

    # ---- text ----------------------------------------------------------------------------
    summarise_prompt: ClassVar[bool] = True
    """The terminal prompt counts the legal moves by piece instead of listing thousands."""

    def move_help(self, state: KataboomState) -> list[str]:
        """Help lines at the terminal: the placement and nudge forms and what ``rN`` means for
        each piece left."""
        lines = [
            "forms: '2 r5 at 0.5,1' (lowered until it rests), '2 r5 at 0.5,1,2' (x,y,z of the "
            "piece's lowest corner, in cube edges), 'nudge C at 1,0.5,1 push 0,2,0' (push "
            "piece C at the point x,y,z, in cube edges, with the impulse a,b,c in mN s, at "
            f"most {MAX_PUSH:g} in size; before the placement, it does not end the turn)",
            "rN is the piece's N-th rotation: its size (x by y by z cubes) and cells as xyz "
            "from that lowest corner:",
        ]
        for piece in sorted(set(state.supply)):
            lines.append("  " + rotation_lines(piece, orientations(piece)))
        return lines

    def format_move(self, state: KataboomState, move: KataboomMove) -> str:
        """``2 r5 at 0.5,1,2`` or ``nudge C at 1,0.5,1 push 0,2,0``."""
        pos = ",".join(_num(v) for v in move.pos)
        if move.kind == NUDGE:
            return f"nudge {move.piece} at {pos} push {','.join(_num(v) for v in move.push)}"
        return f"{move.piece} r{move.rot} at {pos}"

    def parse_move(self, state: KataboomState, text: str) -> KataboomMove:
        """Parse a move; ``at x,y`` without z lowers the piece until it rests on the settled
        structure. Raises MoveParseError with the accepted forms."""
        forms = "2 r5 at 0.5,1 | 2 r5 at 0.5,1,2 | nudge C at 1,0.5,1 push 0,2,0"
        if not isinstance(text, str):
            raise MoveParseError(f"kataboom: a move is text, got {text!r}")
        t = " ".join(text.strip().split())
        m = re.fullmatch(r"nudge (\S+) (?:at )?(\S+) push (\S+)", t)
        if m:
            pos = _coords(m.group(2), text, forms, (3,))
            push = _coords(m.group(3), text, forms, (3,))
            return KataboomMove(NUDGE, m.group(1), 0, pos, push)  # type: ignore[arg-type]
        m = re.fullmatch(r"(?:place )?(\S+) r(\d+) (?:at )?(\S+)", t)
        if not m:
            raise MoveParseError(f"kataboom: {text!r} is not a move (forms: {forms})")
        piece, rot = m.group(1), int(m.group(2))
        try:
            shapes = orientations(piece)
        except PieceError as exc:
            raise MoveParseError(f"kataboom: {text!r}: {exc}") from None
        if rot >= len(shapes):
            raise MoveParseError(
                f"kataboom: {text!r}: {piece} has rotations r0..r{len(shapes) - 1}"
            )
        pos = _coords(m.group(3), text, forms, (2, 3))
        if len(pos) == 2:
            blocks = _blocks(_items_key(state.structure))
            s = spots(shapes[rot], np.array([pos]), blocks, len(state.structure))
            pos = (*pos, q4(s.z[0]))
        return KataboomMove(PLACE, piece, rot, pos)  # type: ignore[arg-type]

    # ---- JSON ----------------------------------------------------------------------------
    def state_to_json(self, state: KataboomState) -> dict[str, Any]:
        """The whole state (settled poses included) as JSON."""
        return {
            **state_head(self, STATE_VERSION, state.config, state.rng),
            "seed": state.seed,
            "structure": items_to_json(state.structure),
            "supply": list(state.supply),
            "to_move": state.to_move,
            "nudged": state.nudged,
            "turn": state.turn,
            "history": list(state.history),
            "last_placer": state.last_placer,
            "end": state.end,
            "loser": state.loser,
            "fell": list(state.fell),
        }

    def state_from_json(self, obj: Mapping[str, Any]) -> KataboomState:
        """Rebuild a state from :meth:`state_to_json`; StateFormatError names the problem."""
        check_state_header(obj, self.name, STATE_VERSION)
        config = state_config(self, obj)
        at = "kataboom state: "
        try:
            rng = state_rng(self.name, obj["rng"])
            structure = items_from_json(obj["structure"], f"{at}structure", Item)
            pieces = set(kataboom_pieces())
            supply = tuple(str(p) for p in obj["supply"])
            for p in (*supply, *(it.name for it in structure)):
                if p not in pieces:
                    raise StateFormatError(f"kataboom state: {p!r} is not a Kataboom piece")
            end = obj["end"]
            if end not in (None, "collapse", "supply", "stuck"):
                raise StateFormatError(f"kataboom state: 'end' is {end!r}")
            state = KataboomState(
                config=config,
                seed=json_int(obj["seed"], f"{at}'seed'"),
                rng=rng,
                structure=structure,
                supply=supply,
                to_move=json_int(obj["to_move"], f"{at}'to_move'"),
                nudged=json_int(obj["nudged"], f"{at}'nudged'"),
                turn=json_int(obj["turn"], f"{at}'turn'"),
                history=tuple(str(h) for h in obj["history"]),
                last_placer=json_opt_int(obj["last_placer"], f"{at}'last_placer'"),
                end=end,
                loser=json_opt_int(obj["loser"], f"{at}'loser'"),
                fell=tuple(str(x) for x in obj["fell"]),
            )
        except StateFormatError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise StateFormatError(f"kataboom state: missing or malformed field: {exc}") from None
        if not 0 <= state.to_move < config.players:
            raise StateFormatError(f"kataboom state: 'to_move' {state.to_move} is not a seat")
        try:  # the moves as values (the table's), from the texts the state keeps
            moves = tuple(self.parse_move(state, h) for h in state.history)
        except GameError as exc:
            raise StateFormatError(f"kataboom state: 'history' holds a bad move: {exc}") from None
        return replace(state, moves=moves)

    # ---- people --------------------------------------------------------------------------
    def describe(self, state: KataboomState) -> str:
        """The structure (piece, who placed it, settled corner), the supply, whose turn."""
        cfg = state.config
        lines = [
            f"Kataboom: model {cfg.model} ({get_model(cfg.model).title}), reading "
            f"{cfg.reading}, table {cfg.table}"
        ]
        for it in state.structure:
            who = "model" if it.seat < 0 else f"P{it.seat + 1}"
            x, y, z = it.pose[:3]
            lines.append(f"  {it.name:>2} r{it.rot:<2} {who:>5} at {x:.2f},{y:.2f},{z:.2f}")
        lines.append("supply: " + ", ".join(state.supply))
        if state.end is not None:
            lines.append(f"game over ({state.end})")
        else:
            lines.append(f"P{state.to_move + 1} to place a piece")
        return "\n".join(lines)

    def describe_move(self, state: KataboomState, move: KataboomMove) -> str:
        """A sentence: what was done and whether the structure stood."""
        after = self.apply(state, move)
        text = f"P{state.to_move + 1} {self.format_move(state, move)}"
        if after.end == "collapse":
            return text + f": the structure collapsed ({', '.join(after.fell)} fell)"
        if after.end is not None:
            return text + f": game over ({after.end})"
        return text


def _check_outcome(outcome: Outcome, names: tuple[str, ...]) -> None:
    check_outcome("kataboom", outcome, names, "pieces")


def _coords(text: str, whole: str, forms: str, sizes: tuple[int, ...]) -> tuple[float, ...]:
    try:
        vals = tuple(q4(float(p)) for p in text.split(","))
    except ValueError:
        raise MoveParseError(
            f"kataboom: {whole!r}: bad coordinates {text!r} (forms: {forms})"
        ) from None
    if len(vals) not in sizes or not all(math.isfinite(v) for v in vals):
        want = " or ".join(str(s) for s in sizes)
        raise MoveParseError(f"kataboom: {whole!r}: give {want} numbers (forms: {forms})")
    return vals


GAME = Kataboom()
