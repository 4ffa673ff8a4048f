"""Katoiz game type 2, 3-set: place discs on tiles the dice choose, collect 3-sets.

Rules as implemented (each reading quoted in ``docs/rules/katoiz.md``):

- 36 picture tiles on a 6x6 board (cells ``a1``..``f6``); four duplicates and the blanks stay
  in the box. Every player has 3 discs. Seat 0 begins.
- Each turn both dice are rolled (drawn from the state's stream). A disc may go on a tile
  without a disc that shows the roll (colour, purple = any; picture: shape or size, blank =
  any shape). With all three discs on tiles the player may instead move one of them to such
  a tile (``move_needs_dice``; off: to any free tile). Passing is always allowed.
- When a player's three discs lie on a 3-set, the player takes the three tiles (a 3-set:
  ``set_rule`` ``common`` = one property shared by all three; ``pairwise`` = every two match).
- Level 4: ``remove_disc``: before placing, an opponent's disc on a tile that shows the roll
  may be removed (back to its owner), also when a free tile shows the roll; the freed tile may
  not get a disc this turn. ``reroll``: placing or moving a disc next to (orthogonally;
  ``diagonal_next``: also diagonally) another own disc gives one extra turn (no chains).
- The game ends when the board is empty, no 3-set can be formed from the tiles left, every
  tile left has a disc, three turns in a row are forfeited (a pass without removing a disc),
  or after ``max_turns`` turns (our cap; the rulebook's four ends need not come).
- Score: 3-sets (level 1); ``stack_score`` (level 2): the highest stack of own tiles in which
  every tile has ``stack_matches`` matches with the tile under it; ``category_score``
  (level 3): per colour, shape and size, the tiles beyond two. Highest score wins; a shared
  top is a draw; a solo game names no winner.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
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
    CELLS,
    KING,
    MATCH,
    ORTHOGONAL,
    PICTURE_TILES,
    SIDE,
    TILES,
    Move,
    cell_name,
    deal_board,
    fits,
    game_over_line,
    json_roll,
    parse_cell,
    roll_dice,
    roll_text,
    seat_name,
    tile_code,
    tile_said,
    unique_top,
)
from tablesim.games.katoiz.config import KatoizConfig
from tablesim.games.katoiz.stack import longest_stack
from tablesim.games.rng import Rng

DISCS = 3
FORFEITS_TO_END = 3
PASS = Move("pass")


@dataclass(frozen=True)
class SetState:
    """A 3-set position.

    ``board[cell]`` is a tile id or -1 once taken; ``discs[cell]`` the seat of the disc on it
    or -1; ``piles[seat]`` the tiles a player took (three per 3-set); ``aside`` the four
    duplicates left in the box; ``seat`` the player to move (an extra turn keeps it);
    ``bonus`` marks an extra turn; ``forfeits`` counts forfeited turns in a row.
    """

    config: KatoizConfig
    rng: Rng
    roll: tuple[int, int] | None
    board: tuple[int, ...]
    discs: tuple[int, ...]
    piles: tuple[tuple[int, ...], ...]
    aside: tuple[int, ...]
    seat: int = 0
    turn: int = 0
    forfeits: int = 0
    bonus: bool = False

    @cached_property
    def moves(self) -> tuple[Move, ...]:
        """The legal moves (computed once per state)."""
        return _legal(self)


def is_set(a: int, b: int, c: int, rule: str) -> bool:
    """Whether three tiles form a 3-set under ``rule`` (``common`` or ``pairwise``)."""
    if rule == "pairwise":
        return MATCH[a][b] >= 1 and MATCH[a][c] >= 1 and MATCH[b][c] >= 1
    ta, tb, tc = TILES[a], TILES[b], TILES[c]
    return any(ta[k] == tb[k] == tc[k] for k in range(3))


def set_possible(tiles: Sequence[int], rule: str) -> bool:
    """Whether some three of ``tiles`` form a 3-set.

    A common property needs three tiles with equal colour, shape or size. Without one, every
    colour, shape and size occurs at most twice, so at most four tiles are left and the
    pairwise rule is checked on every triple.
    """
    counts: dict[tuple[int, int], int] = {}
    for t in tiles:
        for k, v in enumerate(TILES[t]):
            key = (k, v)
            counts[key] = counts.get(key, 0) + 1
            if counts[key] >= 3:
                return True
    if rule == "pairwise":
        return any(is_set(a, b, c, rule) for a, b, c in combinations(tiles, 3))
    return False


def end_reason(state: SetState) -> str:
    """Why a finished game ended."""
    left = [t for t in state.board if t >= 0]
    if not left:
        return "the tiles ran out"
    if not set_possible(left, state.config.set_rule):
        return "no 3-set can be formed with the tiles left"
    if all(d >= 0 for t, d in zip(state.board, state.discs, strict=True) if t >= 0):
        return "there is a disc on every tile left"
    if state.forfeits >= FORFEITS_TO_END:
        return "three turns in a row were forfeited"
    return f"the turn cap ({state.config.max_turns} turns) was reached"


def _legal(state: SetState) -> tuple[Move, ...]:
    """Sorted legal moves (passing is always one); () at the end."""
    if THREE_SET.is_terminal(state):
        return ()
    cfg, seat, roll = state.config, state.seat, state.roll
    board, discs = state.board, state.discs
    free = [c for c in range(CELLS) if board[c] >= 0 and discs[c] < 0]
    fitting = [c for c in free if fits(board[c], roll)]
    own = [c for c in range(CELLS) if discs[c] == seat]
    removable = [-1]
    if cfg.remove_disc:
        removable += [
            c for c in range(CELLS) if discs[c] >= 0 and discs[c] != seat and fits(board[c], roll)
        ]
    targets = fitting if cfg.move_needs_dice else free
    moves = []
    for r in removable:
        moves.append(Move("pass", rem=r))
        if len(own) < DISCS:
            moves.extend(Move("place", dst=d, rem=r) for d in fitting)
        else:
            moves.extend(Move("move", src=s, dst=d, rem=r) for s in own for d in targets)
    return tuple(sorted(moves))


def _why_illegal(state: SetState, move: Move) -> str:
    who = seat_name(state.seat)
    roll = roll_text(state.roll)
    if not isinstance(move, Move) or move.kind not in ("pass", "place", "move"):
        return f"katoiz 3-set: {move!r} is not a 3-set move (place, move or pass)"
    reason = "is not allowed"
    cells = [c for c in (move.rem, move.src, move.dst) if c != -1]
    if any(not 0 <= c < CELLS for c in cells):
        reason = "names a cell off the board"
    elif move.rem >= 0 and not state.config.remove_disc:
        reason = "removes a disc, which needs level 4 (--remove-disc)"
    elif move.rem >= 0 and state.discs[move.rem] in (-1, state.seat):
        reason = f"removes from {cell_name(move.rem)}, where no opponent's disc lies"
    elif move.rem >= 0 and not fits(state.board[move.rem], state.roll):
        reason = f"removes from {cell_name(move.rem)}, whose tile does not show the dice"
    elif move.dst >= 0 and state.board[move.dst] < 0:
        reason = f"uses {cell_name(move.dst)}, whose tile is gone"
    elif move.dst >= 0 and (state.discs[move.dst] >= 0 or move.dst == move.rem):
        reason = f"uses {cell_name(move.dst)}, which has (or just had) a disc on it"
    elif move.dst >= 0 and not fits(state.board[move.dst], state.roll):
        reason = f"uses {cell_name(move.dst)}, {tile_said(state.board[move.dst])}, not {roll}"
    elif move.kind == "place" and state.discs.count(state.seat) >= DISCS:
        reason = "places a fourth disc (all three are on tiles: move one)"
    elif move.kind == "move":
        reason = "moves a disc before all three are on tiles, or one that is not yours"
    return (
        f"katoiz 3-set: {who}'s move {THREE_SET.format_move(state, move)!r} {reason} (dice: {roll})"
    )


# ---- scoring -------------------------------------------------------------------------------


def category_points(tiles: Sequence[int]) -> int:
    """Level 3: per colour, shape and size, the tiles beyond the two set aside (never < 0)."""
    total = 0
    for k, n in ((0, 5), (1, 3), (2, 2)):
        for v in range(n):
            total += max(0, sum(1 for t in tiles if TILES[t][k] == v) - 2)
    return total


def scores(state: SetState) -> tuple[int, ...]:
    """Each player's score under the configured level."""
    cfg = state.config
    if cfg.stack_score:
        return tuple(longest_stack(p, cfg.stack_matches) for p in state.piles)
    if cfg.category_score:
        return tuple(category_points(p) for p in state.piles)
    return tuple(len(p) // 3 for p in state.piles)


# ---- the rules, one variant object (move text and JSON among them) -----------------------

_MOVE_RE = re.compile(r"^(?:x([a-f][1-6])\s*)?(?:([a-f][1-6])\s*-\s*)?([a-f][1-6]|pass)?$")


class ThreeSet:
    """The 3-set rules: a Katoiz variant (:class:`tablesim.games.katoiz.game.KatoizVariant`)."""

    name = "3-set"

    def new_game(self, cfg: KatoizConfig, seed: int) -> SetState:
        """Deal the board; seat 0's dice are rolled."""
        rng = Rng.from_seed(seed, "katoiz", "3-set")
        board, aside, rng = deal_board(rng)
        roll, rng = roll_dice(rng, True)
        return SetState(
            cfg, rng, roll, board, (-1,) * CELLS, tuple(() for _ in range(cfg.players)), aside
        )

    def is_terminal(self, state: SetState) -> bool:
        """Any of the four printed ends, or the turn cap."""
        cfg = state.config
        if state.turn >= cfg.max_turns or state.forfeits >= FORFEITS_TO_END:
            return True
        left = [t for t in state.board if t >= 0]
        if not left or all(d >= 0 for t, d in zip(state.board, state.discs, strict=True) if t >= 0):
            return True
        return not set_possible(left, cfg.set_rule)

    def legal_moves(self, state: SetState) -> tuple[Move, ...]:
        """Sorted legal moves (computed once per state)."""
        return state.moves

    def apply(self, state: SetState, move: Move) -> SetState:
        """Remove, place or move a disc, take a completed 3-set, and roll for the next turn."""
        if self.is_terminal(state):
            raise IllegalMoveError(f"katoiz 3-set: the game is over ({end_reason(state)})")
        if move not in state.moves:
            raise IllegalMoveError(_why_illegal(state, move))
        cfg, seat = state.config, state.seat
        board, discs = list(state.board), list(state.discs)
        piles = list(state.piles)
        if move.rem >= 0:
            discs[move.rem] = -1
        bonus = False
        if move.kind != "pass":
            if move.src >= 0:
                discs[move.src] = -1
            discs[move.dst] = seat
            if cfg.reroll and not state.bonus:
                near = KING if cfg.diagonal_next else ORTHOGONAL
                bonus = any(discs[c] == seat for c in near[move.dst])
            own = [c for c in range(CELLS) if discs[c] == seat]
            if len(own) == DISCS and is_set(
                board[own[0]], board[own[1]], board[own[2]], cfg.set_rule
            ):
                piles[seat] = (*piles[seat], *(board[c] for c in own))
                for c in own:
                    board[c], discs[c] = -1, -1
        forfeits = state.forfeits + 1 if move.kind == "pass" and move.rem < 0 else 0
        nxt = seat if bonus else (seat + 1) % cfg.players
        after = SetState(
            cfg,
            state.rng,
            None,
            tuple(board),
            tuple(discs),
            tuple(piles),
            state.aside,
            nxt,
            state.turn + 1,
            forfeits,
            bonus,
        )
        if self.is_terminal(after):
            return after
        roll, rng = roll_dice(state.rng, True)
        return SetState(
            cfg,
            rng,
            roll,
            after.board,
            after.discs,
            after.piles,
            after.aside,
            nxt,
            after.turn,
            forfeits,
            bonus,
        )

    def result(self, state: SetState) -> Result:
        """Scores, winner (a shared top is a draw; solo names none) and the sets taken."""
        if not self.is_terminal(state):
            raise GameError(f"katoiz 3-set: the game is not over (turn {state.turn})")
        sc = scores(state)
        winners = unique_top(sc) if state.config.players > 1 else ()
        detail = {
            "type": "3-set",
            "end": end_reason(state),
            "sets": [len(p) // 3 for p in state.piles],
            "score": "stack"
            if state.config.stack_score
            else "categories"
            if state.config.category_score
            else "sets",
        }
        return Result(tuple(float(s) for s in sc), winners, detail)

    def format_move(self, state: SetState, move: Move) -> str:
        """``c4`` (place), ``a1-c4`` (move), ``pass``; ``xb2 `` in front removes b2's disc."""
        parts = [f"x{cell_name(move.rem)}"] if move.rem >= 0 else []
        if move.kind == "pass":
            parts.append("pass")
        elif move.kind == "move":
            parts.append(f"{cell_name(move.src)}-{cell_name(move.dst)}")
        else:
            parts.append(cell_name(move.dst))
        return " ".join(parts)

    def parse_move(self, state: SetState, text: str) -> Move:
        """Parse ``c4``, ``a1-c4``, ``pass``, ``xb2 c4``, ``xb2 pass`` (or ``xb2`` alone)."""
        m = _MOVE_RE.match(text.strip().lower()) if isinstance(text, str) else None
        if (
            m is None
            or not (m.group(1) or m.group(3))
            or (m.group(2) and m.group(3) in (None, "pass"))
        ):
            raise MoveParseError(
                f"katoiz 3-set: {text!r} is not a move; type a cell to place a disc (c4), "
                "from-to to move one (a1-c4), 'pass', and 'xb2 ' first to remove b2's disc"
            )
        rem = parse_cell(m.group(1), "katoiz 3-set") if m.group(1) else -1
        target = m.group(3)
        if target in (None, "pass"):
            return Move("pass", rem=rem)
        dst = parse_cell(target, "katoiz 3-set")
        if m.group(2):
            return Move("move", src=parse_cell(m.group(2), "katoiz 3-set"), dst=dst, rem=rem)
        return Move("place", dst=dst, rem=rem)

    def state_fields(self, state: SetState) -> dict[str, Any]:
        """The position's own fields."""
        return {
            "roll": None if state.roll is None else list(state.roll),
            "board": list(state.board),
            "discs": list(state.discs),
            "piles": [list(p) for p in state.piles],
            "aside": list(state.aside),
            "seat": state.seat,
            "turn": state.turn,
            "forfeits": state.forfeits,
            "bonus": state.bonus,
        }

    def state_from_fields(self, cfg: KatoizConfig, rng: Rng, obj: Mapping[str, Any]) -> SetState:
        """Rebuild and check a position (tiles conserved, discs on tiles); StateFormatError."""
        board = json_ints(obj.get("board"), "katoiz state: board", lo=-1, hi=39, length=CELLS)
        discs = json_ints(
            obj.get("discs"), "katoiz state: discs", lo=-1, hi=cfg.players - 1, length=CELLS
        )
        raw = obj.get("piles")
        if not isinstance(raw, list) or len(raw) != cfg.players:
            raise StateFormatError(f"katoiz state: 'piles' must list {cfg.players} players")
        piles = tuple(
            json_ints(p, f"katoiz state: piles[{i}]", lo=0, hi=39) for i, p in enumerate(raw)
        )
        aside = json_ints(obj.get("aside"), "katoiz state: aside", lo=30, hi=39, length=4)
        tiles = [t for t in board if t >= 0] + [t for p in piles for t in p] + list(aside)
        if sorted(tiles) != list(PICTURE_TILES):
            raise StateFormatError(
                "katoiz state: tiles not conserved (board + piles + aside != 40)"
            )
        if any(len(p) % 3 for p in piles):
            raise StateFormatError("katoiz state: a pile must hold whole 3-sets")
        for c in range(CELLS):
            if discs[c] >= 0 and board[c] < 0:
                raise StateFormatError(
                    f"katoiz state: a disc lies on {cell_name(c)}, which is empty"
                )
        for p in range(cfg.players):
            if discs.count(p) > DISCS:
                raise StateFormatError(f"katoiz state: {seat_name(p)} has more than {DISCS} discs")
        bonus = obj.get("bonus")
        if not isinstance(bonus, bool):
            raise StateFormatError("katoiz state: 'bonus' must be true or false")
        state = SetState(
            cfg,
            rng,
            json_roll(obj.get("roll")),
            board,
            discs,
            piles,
            aside,
            json_int(obj.get("seat"), "katoiz state: seat", 0, cfg.players - 1),
            json_int(obj.get("turn"), "katoiz state: turn", 0, 10**6),
            json_int(obj.get("forfeits"), "katoiz state: forfeits", 0, FORFEITS_TO_END),
            bonus,
        )
        if (state.roll is None) != self.is_terminal(state) or (state.roll and state.roll[1] < 0):
            raise StateFormatError(
                "katoiz state: 'roll' must be both dice, and null only at the end"
            )
        return state

    def describe(self, state: SetState) -> str:
        """The 6x6 board (tile code, then the disc's player number or ``.``), piles, dice."""
        cfg = state.config
        rules = [f"{cfg.set_rule} 3-sets"]
        if cfg.stack_score:
            rules.append(f"stack score ({cfg.stack_matches} match)")
        if cfg.category_score:
            rules.append("category score")
        if cfg.remove_disc:
            rules.append("remove discs")
        if cfg.reroll:
            rules.append("re-roll next to own disc")
        lines = [f"Katoiz 3-set (level {cfg.level}: {', '.join(rules)}), {cfg.players} players"]
        lines.append("    " + " ".join(f"  {ch}  " for ch in "abcdef"))
        for y in range(SIDE - 1, -1, -1):
            row = []
            for x in range(SIDE):
                c = x + SIDE * y
                t, d = state.board[c], state.discs[c]
                row.append(" ... " if t < 0 else f"{tile_code(t)}{'.' if d < 0 else d + 1} ")
            lines.append(f" {y + 1}  " + " ".join(row))
        sc = scores(state)
        for p, pile in enumerate(state.piles):
            hand = DISCS - state.discs.count(p)
            lines.append(
                f"{seat_name(p)}: {len(pile) // 3} sets, score {sc[p]}, {hand} disc(s) in hand; "
                f"tiles: {' '.join(tile_code(t) for t in pile) or '-'}"
            )
        if self.is_terminal(state):
            res = self.result(state)
            nobody = "no winner (solo)" if cfg.players == 1 else "a draw"
            lines.append(game_over_line(end_reason(state), res.winners, nobody=nobody))
        else:
            extra = " (extra roll)" if state.bonus else ""
            who, roll = seat_name(state.seat), roll_text(state.roll)
            lines.append(f"Turn {state.turn + 1}: {who} rolled {roll}{extra}")
        return "\n".join(lines)


THREE_SET = ThreeSet()
"""The 3-set rules, registered in :data:`tablesim.games.katoiz.game.VARIANTS`."""
