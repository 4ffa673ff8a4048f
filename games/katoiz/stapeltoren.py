"""Katoiz game type 1, Stapeltoren: stack tiles that match the top of your own stack.

Rules as implemented (each reading quoted in ``docs/rules/katoiz.md``):

- ``config.supply`` picture tiles (default 20, or all 40 with the colour die) are drawn from
  the state's stream and laid face up. Seat 0 begins; in the first round every player takes a
  starting tile of their choice from that supply (``start``).
- Levels 1-2: a turn takes a supply tile with at least one (``two_matches``: two) match with
  the top of the player's stack and puts it on top (``add``). A player who cannot, passes.
- ``colour_die`` (level 3): the colour die is rolled at the start of each turn (purple: any
  colour); the tile must have that colour (``picture_die``, level 5: and show what the picture
  die shows; blank = any shape). A fitting tile that matches the top of one of the player's
  stacks goes on that stack; when no fitting tile matches any own stack, the player starts a
  new stack with a fitting tile (``new``); with no fitting tile left the player passes.
- The game ends when the supply is empty or, at levels 1-2, when every player in a row has
  passed (a full round in which nobody could take a tile: without dice that is final). With
  the colour die a pass is only an unlucky roll (purple lets anyone take any tile), so those
  games run until the supply is empty.
- ``Result.scores``: each player's highest stack. Levels 1-2 name no winner (the rulebook:
  "Naming a winner is not necessary at this age"); with ``colour_die`` the single highest stack
  wins and a shared top is a draw.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from operator import attrgetter
from typing import Any

from tablesim.games.core import (
    GameError,
    IllegalMoveError,
    MoveParseError,
    Result,
    StateFormatError,
    json_int,
    json_ints,
)
from tablesim.games.katoiz.components import (
    MATCH,
    PICTURE_TILES,
    TILE_CODES,
    Move,
    fits,
    game_over_line,
    json_roll,
    roll_dice,
    roll_text,
    seat_name,
    tile_code,
    tile_said,
    unique_top,
)
from tablesim.games.katoiz.config import KatoizConfig
from tablesim.games.rng import Rng

PASS = Move("pass")


@dataclass(frozen=True)
class TorenState:
    """A Stapeltoren position.

    ``supply`` holds the face-up tiles (sorted ids); ``stacks[seat]`` that player's stacks,
    each bottom first; ``roll`` the current dice (None without dice, in the first round and at
    the end); ``passes`` counts passes in a row.
    """

    config: KatoizConfig
    rng: Rng
    roll: tuple[int, int] | None
    supply: tuple[int, ...]
    stacks: tuple[tuple[tuple[int, ...], ...], ...]
    turn: int = 0
    passes: int = 0

    @property
    def seat(self) -> int:
        """The seat whose turn it is (also after the end)."""
        return self.turn % self.config.players

    @property
    def starting(self) -> bool:
        """True in the first round, while players choose starting tiles."""
        return self.turn < self.config.players

    @cached_property
    def moves(self) -> tuple[Move, ...]:
        """The legal moves (computed once per state)."""
        return _legal(self)


def _distinct(tiles: tuple[int, ...]) -> tuple[int, ...]:
    """One tile per code (the lowest id): duplicates are interchangeable. (Remembered per
    supply: a supply changes by one tile a turn, and every position asks.)"""
    hit = _DISTINCT.get(tiles)
    if hit is not None:
        return hit
    seen: set[str] = set()
    out = []
    for t in tiles:
        if TILE_CODES[t] not in seen:
            seen.add(TILE_CODES[t])
            out.append(t)
    if len(_DISTINCT) > 4096:  # bound the memory of a long run
        _DISTINCT.clear()
    hit = _DISTINCT[tiles] = tuple(out)
    return hit


_DISTINCT: dict[tuple[int, ...], tuple[int, ...]] = {}
_MOVES: dict[tuple[str, int, int], Move] = {}


def _move(kind: str, tile: int, dst: int) -> Move:
    """``Move(kind, tile, dst=dst)``, one value per fields kept and shared by every position
    that lists it (moves are frozen values; making them was a fifth of a step)."""
    key = (kind, tile, dst)
    move = _MOVES.get(key)
    if move is None:
        move = _MOVES[key] = Move(kind, tile, dst=dst)
    return move


_MOVE_ORDER = attrgetter("kind", "tile", "src", "dst", "rem", "secs")
"""A move's fields in declaration order: sorting by them is the dataclass's own order, with
the comparisons done on plain tuples."""


def _legal(state: TorenState) -> tuple[Move, ...]:
    """Sorted legal moves; ``(pass,)`` when the player cannot take a tile; () at the end."""
    if STAPELTOREN.is_terminal(state):
        return ()
    cfg = state.config
    tiles = _distinct(state.supply)
    if state.starting:
        return tuple(sorted((_move("start", t, -1) for t in tiles), key=_MOVE_ORDER))
    need = 2 if cfg.two_matches else 1
    fitting = [t for t in tiles if fits(t, state.roll)]
    stacks = state.stacks[state.seat]
    moves = [
        _move("add", t, i)
        for t in fitting
        for i, stack in enumerate(stacks)
        if MATCH[t][stack[-1]] >= need
    ]
    if not moves and cfg.colour_die:
        moves = [_move("new", t, -1) for t in fitting]
    return tuple(sorted(moves, key=_MOVE_ORDER)) or (PASS,)


def _why_illegal(state: TorenState, move: Move, legal: tuple[Move, ...]) -> str:
    who = seat_name(state.seat)
    options = ", ".join(STAPELTOREN.format_move(state, m) for m in legal[:12])
    more = f" (and {len(legal) - 12} more)" if len(legal) > 12 else ""
    reason = "is not allowed here"
    if isinstance(move, Move) and 0 <= move.tile < len(TILE_CODES):
        code = tile_said(move.tile)
        if move.tile not in state.supply:
            reason = f"takes {code}, which is not in the supply"
        elif not state.starting and not fits(move.tile, state.roll):
            reason = f"takes {code}, which does not show the dice ({roll_text(state.roll)})"
        elif move.kind == "add":
            reason = f"puts {code} on a stack whose top it does not match enough"
        elif move.kind == "new":
            reason = "starts a new stack although a fitting tile matches a stack"
    text = repr(move)
    known = isinstance(move, Move) and move.kind in ("start", "new", "add", "pass")
    if known and (move.kind == "pass" or 0 <= move.tile < len(TILE_CODES)):
        text = repr(STAPELTOREN.format_move(state, move))
    return f"katoiz stapeltoren: {who}'s move {text} {reason}; legal: {options}{more}"


def highest_stacks(state: TorenState) -> tuple[int, ...]:
    """Each player's highest stack (0 before a starting tile)."""
    return tuple(max((len(s) for s in stacks), default=0) for stacks in state.stacks)


# ---- the rules, one variant object (move text and JSON among them) -----------------------

_MOVE_RE = re.compile(
    r"^\s*(?:(start)\s+)?([a-z][a-z-][a-z-])(?:\s+(?:on\s+)?(\d+)|\s+(new))?\s*$", re.I
)


class Stapeltoren:
    """The Stapeltoren rules: a Katoiz variant (:class:`tablesim.games.katoiz.game.KatoizVariant`)."""

    name = "stapeltoren"

    def new_game(self, cfg: KatoizConfig, seed: int) -> TorenState:
        """Lay out ``cfg.supply`` tiles; seat 0 chooses a starting tile first."""
        rng = Rng.from_seed(seed, "katoiz", "stapeltoren")
        tiles, rng = rng.shuffle(PICTURE_TILES)
        supply = tuple(sorted(tiles[: cfg.supply]))
        return TorenState(cfg, rng, None, supply, tuple(() for _ in range(cfg.players)))

    def is_terminal(self, state: TorenState) -> bool:
        """Supply empty, or (levels 1-2, without dice) a full round of passes.

        With the colour die a player can always take a tile on some roll (purple: any colour;
        no match: a new stack), so only the empty supply ends those games.
        """
        if not state.supply:
            return True
        return not state.config.colour_die and state.passes >= state.config.players

    def legal_moves(self, state: TorenState) -> tuple[Move, ...]:
        """Sorted legal moves (computed once per state)."""
        return state.moves

    def apply(self, state: TorenState, move: Move) -> TorenState:
        """Take the tile; the next player's dice are rolled (with the colour die)."""
        if self.is_terminal(state):
            raise IllegalMoveError("katoiz stapeltoren: the game is over")
        legal = self.legal_moves(state)
        if move not in legal:
            raise IllegalMoveError(_why_illegal(state, move, legal))
        cfg, seat = state.config, state.seat
        supply, passes = state.supply, 0
        stacks = list(state.stacks)
        if move.kind == "pass":
            passes = state.passes + 1
        else:
            supply = tuple(t for t in supply if t != move.tile)
            own = list(stacks[seat])
            if move.kind == "add":
                own[move.dst] = (*own[move.dst], move.tile)
            else:
                own.append((move.tile,))
            stacks[seat] = tuple(own)
        after = TorenState(cfg, state.rng, None, supply, tuple(stacks), state.turn + 1, passes)
        if cfg.colour_die and not after.starting and not self.is_terminal(after):
            roll, rng = roll_dice(state.rng, cfg.picture_die)
            after = TorenState(cfg, rng, roll, supply, after.stacks, after.turn, passes)
        return after

    def result(self, state: TorenState) -> Result:
        """Highest stack per seat; a winner only with the colour die (level 3 and up)."""
        if not self.is_terminal(state):
            raise GameError(f"katoiz stapeltoren: the game is not over (turn {state.turn})")
        heights = highest_stacks(state)
        solo = len(heights) == 1
        named = state.config.colour_die and not solo  # a solo game never names a winner
        winners = unique_top(heights) if named else ()
        detail: dict[str, Any] = {
            "type": "stapeltoren",
            "winner_named": named,
            "end": "supply empty" if not state.supply else "nobody could take a tile",
            "stack_heights": [[len(s) for s in stacks] for stacks in state.stacks],
        }
        tops = ", ".join(str(h) for h in heights)
        if solo:
            detail["outcome"] = f"a solo game: highest stack {tops} (no winner is named)"
        elif not named:  # levels 1-2: neither a winner nor a draw
            detail["outcome"] = (f"no winner named ('Naming a winner is not necessary at this "
                                 f"age'); highest stacks {tops}")  # fmt: skip
        return Result(tuple(float(h) for h in heights), winners, detail)

    def format_move(self, state: TorenState, move: Move) -> str:
        """``start ROL``, ``ROL on 1``, ``ROL new`` or ``pass``."""
        if move.kind == "pass":
            return "pass"
        code = tile_code(move.tile)
        if move.kind == "start":
            return f"start {code}"
        if move.kind == "new":
            return f"{code} new"
        return f"{code} on {move.dst + 1}"

    def parse_move(self, state: TorenState, text: str) -> Move:
        """Parse a typed move; a bare code means the only legal move with that tile."""
        if not isinstance(text, str):
            raise MoveParseError(f"katoiz stapeltoren: {text!r} is not move text")
        if text.strip().lower() == "pass":
            return PASS
        m = _MOVE_RE.match(text)
        code = m.group(2).upper() if m else ""
        if m is None or code not in TILE_CODES or code.endswith("-"):
            raise MoveParseError(
                f"katoiz stapeltoren: {text!r} is not a move; type a tile code (colour YGWRB, "
                "shape O/S/T, size L/S, e.g. ROL), 'ROL on 2', 'ROL new', 'start ROL' or 'pass'"
            )
        ids = [t for t in state.supply if TILE_CODES[t] == code] or [TILE_CODES.index(code)]
        tile = ids[0]
        if m.group(1) or (state.starting and not m.group(3) and not m.group(4)):
            return Move("start", tile)
        if m.group(4):
            return Move("new", tile)
        if m.group(3):
            return Move("add", tile, dst=int(m.group(3)) - 1)
        same = [mv for mv in self.legal_moves(state) if mv.tile == tile]
        return same[0] if len(same) == 1 else Move("add", tile, dst=0)

    def state_fields(self, state: TorenState) -> dict[str, Any]:
        """The position's own fields (the game adds header, config and stream)."""
        return {
            "roll": None if state.roll is None else list(state.roll),
            "supply": list(state.supply),
            "stacks": [[list(s) for s in stacks] for stacks in state.stacks],
            "turn": state.turn,
            "passes": state.passes,
        }

    def state_from_fields(self, cfg: KatoizConfig, rng: Rng, obj: Mapping[str, Any]) -> TorenState:
        """Rebuild and check a position; raises StateFormatError."""
        supply = json_ints(obj.get("supply"), "katoiz state: supply", lo=0, hi=39)
        raw = obj.get("stacks")
        if not isinstance(raw, list) or len(raw) != cfg.players:
            raise StateFormatError(f"katoiz state: 'stacks' must list {cfg.players} players")
        stacks = []
        for p, own in enumerate(raw):
            if not isinstance(own, list):
                raise StateFormatError(f"katoiz state: stacks[{p}] must be a list of stacks")
            stacks.append(
                tuple(
                    json_ints(s, f"katoiz state: stacks[{p}][{i}]", lo=0, hi=39)
                    for i, s in enumerate(own)
                )
            )
        turn = json_int(obj.get("turn"), "katoiz state: turn", 0, 10**6)
        passes = json_int(
            obj.get("passes"), "katoiz state: passes", 0, 10**6 if cfg.colour_die else cfg.players
        )
        tiles = [*supply, *(t for own in stacks for s in own for t in s)]
        if len(tiles) != cfg.supply or len(set(tiles)) != len(tiles):
            raise StateFormatError(
                f"katoiz state: tiles not conserved: {len(tiles)} tiles (distinct "
                f"{len(set(tiles))}) in supply and stacks, {cfg.supply} were laid out"
            )
        if list(supply) != sorted(supply) or any(not s for own in stacks for s in own):
            raise StateFormatError("katoiz state: supply must be sorted and stacks non-empty")
        for p, own in enumerate(stacks):
            if (turn > p) != bool(own) or (len(own) > 1 and not cfg.colour_die):
                raise StateFormatError(f"katoiz state: stacks[{p}] do not fit turn {turn}")
        state = TorenState(
            cfg, rng, json_roll(obj.get("roll")), supply, tuple(stacks), turn, passes
        )
        wants_roll = cfg.colour_die and not state.starting and not self.is_terminal(state)
        if (state.roll is not None) != wants_roll or (
            state.roll is not None and (state.roll[1] >= 0) != cfg.picture_die
        ):
            raise StateFormatError("katoiz state: 'roll' does not fit the dice in use and the turn")
        return state

    def describe(self, state: TorenState) -> str:
        """The supply, every player's stacks (bottom to top) and the roll."""
        cfg = state.config
        rules = ["two matches" if cfg.two_matches else "one match"]
        if cfg.colour_die:
            rules.append("colour die" + (" + picture die" if cfg.picture_die else ""))
        lines = [
            f"Katoiz Stapeltoren (level {cfg.level}: {', '.join(rules)}), {cfg.players} players"
        ]
        lines.append(
            f"Supply ({len(state.supply)}): " + " ".join(tile_code(t) for t in state.supply)
        )
        for p, stacks in enumerate(state.stacks):
            text = "  |  ".join(
                f"{i + 1}: " + " ".join(tile_code(t) for t in s) + f" ({len(s)})"
                for i, s in enumerate(stacks)
            )
            lines.append(f"{seat_name(p)} stacks (bottom..top): {text or '-'}")
        if self.is_terminal(state):
            res = self.result(state)
            if cfg.colour_die:
                line = game_over_line(res.detail["end"], res.winners, nobody="a draw")
            else:
                line = game_over_line(
                    res.detail["end"], (), nobody="no winner is named at this level"
                )
            lines.append(line)
        else:
            what = "choose a starting tile" if state.starting else roll_text(state.roll)
            lines.append(f"Turn {state.turn + 1}: {seat_name(state.seat)} to play ({what})")
        return "\n".join(lines)


STAPELTOREN = Stapeltoren()
"""The stapeltoren rules, registered in :data:`tablesim.games.katoiz.game.VARIANTS`."""
