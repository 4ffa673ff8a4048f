"""Kaito (Inon Kohn, Steffen-Spiele 2019): the rules as pure functions of frozen values.

Rules as implemented (``docs/rules/kaito.md`` quotes each ambiguous rulebook sentence next to
the reading taken and the option that offers the other one):

- Seat 0 plays red and starts the game proper; seat 1 plays black and does the opening.
- 36 tiles (per colour 7 Katana ``S``, 3 Kabuto ``H`` and 7 Mons worth 3, 3, 2, 2, 1, 1, 1,
  plus 2 blank opening tiles ``O``) are shuffled by the state's seeded :class:`~games.rng.Rng`
  into a 6x6 grid, columns ``a``..``f`` and rows ``1``..``6`` (cell index ``row * 6 + col``).
- The opening is two moves of seat 1: ``remove`` takes both opening tiles out of play (the
  only legal move then), and ``kaito <cell>`` puts the Kaito on one of the gaps.
- From then on the players alternate, red first. A turn moves the Kaito orthogonally to a cell
  holding a tile and captures that tile: one's own colour goes out of play, the opponent's is
  kept. ``movement = pass`` (default) lets the Kaito pass over tiles and gaps alike;
  ``first-tile`` stops it at the first tile in each direction (gaps are still jumped).
- Mons trade, at the end of the turn, at most one: opponent Mons the mover holds, worth at
  least 4, buy back one of the mover's Katana that the opponent holds, at least 5 one of its
  Kabuto. No change is given, so a payment must be *minimal*: dropping any one Mon from it
  would fall short of the price. Paid Mons leave the game; the bought tile goes under the
  Kaito (on the cell it stands on, where it can be captured again later).
- Endings, checked in this order: at the end of every turn (after the trade, with
  ``end_check = turn-end``; right after the capture, before any trade, with ``capture``) a side
  with no Katana or no Kabuto on the board loses, whoever removed them; then the player to move
  who has no tile to land on loses.

Moves are :class:`Move` values; their text is ``remove b2 e5``, ``kaito b2``, ``c6-c4`` or
``c6-c4 buy kabuto 3+2`` (see :meth:`Kaito.parse_move` for the accepted spellings).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from numbers import Integral
from operator import attrgetter
from typing import Any

from tablesim.games._config import check_choice
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
    state_config,
    state_head,
    state_rng,
)
from tablesim.games.rng import Rng

STATE_VERSION = 1
SIZE = 6
CELLS = SIZE * SIZE
FILES = "abcdef"
RED, BLACK = 0, 1
COLOUR_LETTERS = "RB"
COLOUR_NAMES = ("Red", "Black")
KATANA, KABUTO, OPENING = "S", "H", "O"
MOVEMENTS: tuple[str, ...] = ("pass", "first-tile")
END_CHECKS: tuple[str, ...] = ("turn-end", "capture")
# What a trade buys, its price in Mons, and the kind letter of the tile bought.
PRICES: dict[str, int] = {"katana": 4, "kabuto": 5}
BUY_KIND: dict[str, str] = {"katana": KATANA, "kabuto": KABUTO}
KIND_NAMES: dict[str, str] = {
    KATANA: "Katana",
    KABUTO: "Kabuto",
    "1": "1-Mon",
    "2": "2-Mon",
    "3": "3-Mon",
}

# Tiles of one colour: kind letter -> count (Katana, Kabuto, Mons by value).
COLOUR_SET: tuple[tuple[str, int], ...] = ((KATANA, 7), (KABUTO, 3), ("3", 2), ("2", 2), ("1", 3))
FULL_SET: tuple[str, ...] = tuple(
    sorted([c + k for c in COLOUR_LETTERS for k, n in COLOUR_SET for _ in range(n)] + [OPENING] * 2)
)
FULL_COUNTS: Counter[str] = Counter(FULL_SET)
TILE_CODES: frozenset[str] = frozenset(FULL_SET)


def _rays() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For every cell, the cells in each of the four directions, nearest first."""
    out = []
    for cell in range(CELLS):
        row, col = divmod(cell, SIZE)
        out.append(
            (
                tuple(row * SIZE + c for c in range(col - 1, -1, -1)),
                tuple(row * SIZE + c for c in range(col + 1, SIZE)),
                tuple(r * SIZE + col for r in range(row - 1, -1, -1)),
                tuple(r * SIZE + col for r in range(row + 1, SIZE)),
            )
        )
    return tuple(out)


RAYS = _rays()


def cell_name(cell: int) -> str:
    """``0 -> "a1"``, ``35 -> "f6"``."""
    row, col = divmod(cell, SIZE)
    return f"{FILES[col]}{row + 1}"


def parse_cell(text: str) -> int:
    """``"c4" -> 20``; raises MoveParseError for anything that is not a cell a1..f6."""
    t = text.strip().lower()
    if len(t) == 2 and t[0] in FILES and t[1] in "123456":
        return (int(t[1]) - 1) * SIZE + FILES.index(t[0])
    raise MoveParseError(f"kaito: {text!r} is not a cell (columns a-f, rows 1-6, e.g. c4)")


def tile_colour(tile: str) -> int:
    """The seat whose colour ``tile`` is (0 red, 1 black); the opening tiles have none."""
    if tile[0] == "R":
        return RED
    if tile[0] == "B":
        return BLACK
    raise GameError(f"kaito: tile {tile!r} has no colour")


def tile_name(tile: str) -> str:
    """``"RH" -> "red Kabuto"``, ``"B3" -> "black 3-Mon"``, ``"O" -> "opening tile"``."""
    if tile == OPENING:
        return "opening tile"
    return f"{COLOUR_NAMES[tile_colour(tile)].lower()} {KIND_NAMES[tile[1]]}"


def minimal_payments(values: Iterable[int], price: int) -> list[tuple[int, ...]]:
    """Every way to pay ``price`` from Mons worth ``values`` without a superfluous Mon.

    A payment is a multiset of the given values (written descending) whose sum reaches the
    price and from which no single Mon can be dropped while still reaching it (no change is
    given, so an extra Mon would be handed over for nothing). Sorted ascending.
    """
    have = Counter(values)
    out: list[tuple[int, ...]] = []
    for n3 in range(have[3] + 1):
        for n2 in range(have[2] + 1):
            for n1 in range(have[1] + 1):
                total = 3 * n3 + 2 * n2 + n1
                if total < price:
                    continue
                smallest = 1 if n1 else 2 if n2 else 3
                if total - smallest >= price:
                    continue
                out.append((3,) * n3 + (2,) * n2 + (1,) * n1)
    return sorted(out)


@dataclass(frozen=True)
class KaitoConfig:
    """A validated Kaito configuration (build it with ``GAME.make_config``)."""

    players: int = 2
    movement: str = "pass"
    end_check: str = "turn-end"


@dataclass(frozen=True, order=True)
class Move:
    """One move. ``kind`` is ``remove`` (``cells`` = the two opening tiles), ``place`` (the
    Kaito goes on ``cells[0]``) or ``move`` (the Kaito moves to ``cells[0]``, capturing its
    tile, then buys ``buy`` -- ``""``, ``katana`` or ``kabuto`` -- paying Mons worth ``pay``,
    written in descending order)."""

    kind: str
    cells: tuple[int, ...]
    buy: str = ""
    pay: tuple[int, ...] = ()

    @property
    def to(self) -> int:
        """The target cell of a ``place`` or ``move``."""
        return self.cells[0]


@dataclass(frozen=True)
class KaitoState:
    """A Kaito position.

    ``board[cell]`` is a tile code (``"RS"`` red Katana, ``"BH"`` black Kabuto, ``"R3"`` red
    3-Mon, ``"O"`` opening tile) or None for a gap; ``kaito`` is the Kaito's cell (None before
    it is placed; a tile there lies *under* the Kaito); ``held[seat]`` lists (sorted) the
    opponent's tiles that seat has captured and still holds; every other tile of the set is out
    of play. ``player`` is the seat to move, ``turn`` the number of moves applied. ``rng`` is
    the stream the grid was shuffled from (kept for the API: Kaito has no later chance).
    """

    config: KaitoConfig
    rng: Rng
    board: tuple[str | None, ...]
    kaito: int | None
    player: int
    turn: int
    held: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())

    @property
    def phase(self) -> str:
        """``remove`` (opening tiles still on the grid), ``place`` (no Kaito yet) or ``play``."""
        if self.kaito is not None:
            return "play"
        return "remove" if OPENING in self.board else "place"

    def on_board(self, seat: int, kind: str) -> int:
        """How many tiles of ``seat``'s colour and ``kind`` lie on the grid."""
        code = COLOUR_LETTERS[seat] + kind
        return sum(1 for t in self.board if t == code)

    @cached_property
    def out_of_play(self) -> tuple[str, ...]:
        """Tiles neither on the grid nor held (own captures, paid Mons, opening tiles), sorted."""
        rest = FULL_COUNTS - Counter(t for t in self.board if t is not None)
        rest -= Counter(self.held[0]) + Counter(self.held[1])
        return tuple(sorted(rest.elements()))

    @cached_property
    def targets(self) -> tuple[int, ...]:
        """Cells the Kaito may land on now (sorted); empty outside the play phase."""
        if self.kaito is None:
            return ()
        return reachable(self.board, self.kaito, self.config.movement)

    @cached_property
    def outcome(self) -> tuple[int, str] | None:
        """``(winner, reason)`` once the game is over, else None.

        Reasons: ``no-katana`` / ``no-kabuto`` (the loser has none on the grid), ``no-move``
        (the player to move has no tile to land on).
        """
        if self.kaito is None:
            return None
        lost = material_loss(self.board)
        if lost is not None:
            loser, reason = lost
            return 1 - loser, reason
        if not self.targets:
            return 1 - self.player, "no-move"
        return None

    @cached_property
    def moves(self) -> tuple[Move, ...]:
        """The legal moves, sorted (empty once the game is over)."""
        return _legal_moves(self)

    @cached_property
    def move_set(self) -> frozenset[Move]:
        """The legal moves as a set (for fast membership tests)."""
        return frozenset(self.moves)


def reachable(board: Sequence[str | None], kaito: int, movement: str) -> tuple[int, ...]:
    """Cells with a tile the Kaito on ``kaito`` can land on, sorted.

    ``pass``: every tile in its row and column; ``first-tile``: the nearest tile in each of the
    four directions (gaps are jumped, tiles are not).
    """
    out: list[int] = []
    for ray in RAYS[kaito]:
        for cell in ray:
            if board[cell] is not None:
                out.append(cell)
                if movement == "first-tile":
                    break
    return tuple(sorted(out))


def material_loss(board: Sequence[str | None]) -> tuple[int, str] | None:
    """``(seat, reason)`` for a side with no Katana (``no-katana``) or no Kabuto
    (``no-kabuto``) on the grid, checked red then black, Katana then Kabuto; else None."""
    present = set(board)
    for seat, letter in enumerate(COLOUR_LETTERS):
        if letter + KATANA not in present:
            return seat, "no-katana"
        if letter + KABUTO not in present:
            return seat, "no-kabuto"
    return None


def mon_values(held: Iterable[str]) -> list[int]:
    """The values of the Mons among ``held`` tiles."""
    return [int(t[1]) for t in held if t[1] in "123"]


def _trade_options(state: KaitoState, tile: str) -> list[tuple[str, tuple[int, ...]]]:
    """``(buy, pay)`` pairs open to the mover after capturing ``tile`` (trades only).
    (Remembered per mover, held tiles and the captured tile's kind when it joins the mover's
    tiles, all the options depend on: the held tiles change only on a capture.)"""
    me = state.player
    key = (me, state.held, tile[1] if tile_colour(tile) != me else "")
    hit = _TRADES.get(key)
    if hit is None:
        if len(_TRADES) > 20_000:  # bound the memory of a long run
            _TRADES.clear()
        hit = _TRADES[key] = _trade_options_of(state, tile)
    return hit


_TRADES: dict[tuple[int, tuple[tuple[str, ...], tuple[str, ...]], str], Any] = {}
"""(mover, held tiles, the captured tile's kind if it is the opponent's, else "") -> the
trade options (:func:`_trade_options`)."""


def _trade_options_of(state: KaitoState, tile: str) -> list[tuple[str, tuple[int, ...]]]:
    me = state.player
    opp = 1 - me
    mine = state.held[me] + ((tile,) if tile_colour(tile) != me else ())
    values = mon_values(mine)
    if sum(values) < PRICES["katana"]:
        return []
    out: list[tuple[str, tuple[int, ...]]] = []
    for buy in ("kabuto", "katana"):
        if COLOUR_LETTERS[me] + BUY_KIND[buy] in state.held[opp]:
            out.extend((buy, pay) for pay in minimal_payments(values, PRICES[buy]))
    return out


def _legal_moves(state: KaitoState) -> tuple[Move, ...]:
    phase = state.phase
    if phase == "remove":
        return (Move("remove", tuple(c for c, t in enumerate(state.board) if t == OPENING)),)
    if phase == "place":
        return tuple(_move("place", c) for c, t in enumerate(state.board) if t is None)
    if state.outcome is not None:
        return ()
    out: list[Move] = []
    for cell in state.targets:
        tile = state.board[cell]
        assert tile is not None  # targets only lists cells with a tile
        out.append(_move("move", cell))
        if state.config.end_check == "capture":
            board = list(state.board)
            board[cell] = None
            if material_loss(board) is not None:
                continue  # the capture ends the game at once: no trade
        out.extend(_move("move", cell, buy, pay) for buy, pay in _trade_options(state, tile))
    return tuple(sorted(out, key=_MOVE_ORDER))


_MOVES: dict[tuple[str, int, str, tuple[int, ...]], Move] = {}


def _move(kind: str, cell: int, buy: str = "", pay: tuple[int, ...] = ()) -> Move:
    """``Move(kind, (cell,), buy, pay)``, one value per fields kept and shared by every
    position that lists it (moves are frozen values; making them was a large part of a step)."""
    key = (kind, cell, buy, pay)
    move = _MOVES.get(key)
    if move is None:
        move = _MOVES[key] = Move(kind, (cell,), buy, pay)
    return move


_MOVE_ORDER = attrgetter("kind", "cells", "buy", "pay")
"""A move's fields in declaration order: sorting by them is the dataclass's own order, with
the comparisons done on plain tuples."""


def _is_int(value: Any) -> bool:
    return isinstance(value, Integral) and not isinstance(value, bool)


_CELL = r"([a-f][1-6])"
_REMOVE_RE = re.compile(rf"^remove\s+{_CELL}\s*(?:,|\s|and)\s*{_CELL}$")
_PLACE_RE = re.compile(rf"^(?:kaito|place)\s+(?:on\s+|at\s+)?{_CELL}$")
_MOVE_RE = re.compile(
    rf"^(?:{_CELL}\s*(?:-|x|to)\s*)?{_CELL}"
    r"(?:\s*[,;]?\s*(?:buy|trade)\s+(katana|sword|kabuto|helmet)\s*(?:for|with|pay|paying)?\s*"
    r"([123](?:\s*[+, ]\s*[123])*))?$"
)
_BUY_WORDS = {"katana": "katana", "sword": "katana", "kabuto": "kabuto", "helmet": "kabuto"}


# ---- the game -----------------------------------------------------------------------------


class Kaito(Game[KaitoState, Move, KaitoConfig]):
    """The rules of Kaito (see the module docstring)."""

    name = "kaito"
    title = "Kaito"
    min_players = 2
    max_players = 2
    options = (
        Option(
            "movement",
            "str",
            "pass",
            "the Kaito passes over tiles and gaps (pass), or stops at the first tile in its "
            "direction (first-tile)",
            MOVEMENTS,
        ),
        Option(
            "end_check",
            "str",
            "turn-end",
            "a side without Katana or Kabuto loses at the end of the turn, after the Mons trade "
            "(turn-end), or at once when the capture leaves it without (capture)",
            END_CHECKS,
        ),
    )

    def player_name(self, seat: int) -> str:
        """``Red`` (seat 0) or ``Black`` (seat 1), as the board names them."""
        return COLOUR_NAMES[seat]

    # ---- configuration -------------------------------------------------------------------
    def make_config(self, values: Mapping[str, Any] | None = None, *, players: int) -> KaitoConfig:
        """Validate ``values`` for ``players`` seats; ConfigError names the key and the fix."""
        values = dict(values or {})
        self.check_option_keys(values)
        if not _is_int(players):
            raise ConfigError(f"kaito: players must be an integer, got {players!r}")
        self.check_players(int(players))
        movement = check_choice(self.name, "movement", values.get("movement", "pass"), MOVEMENTS)
        end_check = check_choice(
            self.name, "end_check", values.get("end_check", "turn-end"), END_CHECKS
        )
        return KaitoConfig(int(players), movement, end_check)

    def config_to_json(self, config: KaitoConfig) -> dict[str, Any]:
        """The config as JSON, ``players`` included."""
        return {
            "players": config.players,
            "movement": config.movement,
            "end_check": config.end_check,
        }

    # ---- rules ---------------------------------------------------------------------------
    def new_game(self, config: KaitoConfig, seed: int) -> KaitoState:
        """The 36 tiles shuffled into the grid by the seeded stream; seat 1 to do the opening."""
        if not isinstance(config, KaitoConfig):
            raise ConfigError("kaito: new_game needs a config made by make_config")
        board, rng = Rng.from_seed(seed, "kaito").shuffle(FULL_SET)
        return KaitoState(config, rng, tuple(board), None, BLACK, 0)

    def num_players(self, state: KaitoState) -> int:
        """Always 2."""
        return 2

    def is_terminal(self, state: KaitoState) -> bool:
        """True once a side has lost (see :attr:`KaitoState.outcome`)."""
        return state.outcome is not None

    def current_player(self, state: KaitoState) -> int | None:
        """The seat to move, or None at the end."""
        return None if state.outcome is not None else state.player

    def legal_moves(self, state: KaitoState) -> tuple[Move, ...]:
        """Sorted legal moves: the forced ``remove``, then ``place`` on a gap, then Kaito moves
        with and without a Mons trade."""
        return state.moves

    def apply(self, state: KaitoState, move: Move) -> KaitoState:
        """The state after ``move``; raises IllegalMoveError naming the rule."""
        if state.outcome is not None:
            raise IllegalMoveError("kaito: the game is over")
        if not isinstance(move, Move):
            raise IllegalMoveError(f"kaito: {move!r} is not a Kaito move")
        # (the listed moves: found by identity, as the environment passes them, unhashed)
        if move not in state.moves:
            raise IllegalMoveError(self._why_illegal(state, move))
        board = list(state.board)
        if move.kind == "remove":
            for cell in move.cells:
                board[cell] = None
            return KaitoState(state.config, state.rng, tuple(board), None, BLACK, state.turn + 1)
        if move.kind == "place":
            return KaitoState(state.config, state.rng, state.board, move.to, RED, state.turn + 1)
        me = state.player
        held = [list(state.held[0]), list(state.held[1])]
        tile = board[move.to]
        assert tile is not None  # legal moves land on tiles
        board[move.to] = None
        if tile_colour(tile) != me:
            held[me].append(tile)
        if move.buy:
            for value in move.pay:
                held[me].remove(COLOUR_LETTERS[1 - me] + str(value))
            bought = COLOUR_LETTERS[me] + BUY_KIND[move.buy]
            held[1 - me].remove(bought)
            board[move.to] = bought
        return KaitoState(
            state.config,
            state.rng,
            tuple(board),
            move.to,
            1 - me,
            state.turn + 1,
            (tuple(sorted(held[0])), tuple(sorted(held[1]))),
        )

    def _why_illegal(self, state: KaitoState, move: Move) -> str:
        """A sentence naming the broken rule and what is allowed."""
        phase = state.phase
        who = COLOUR_NAMES[state.player]
        if move.kind != {"remove": "remove", "place": "place"}.get(phase, "move"):
            allowed = {
                "remove": "Black first removes both opening tiles ('remove "
                + " ".join(cell_name(c) for c in state.moves[0].cells)
                + "')",
                "place": "Black places the Kaito on a gap ('kaito <cell>')",
                "play": f"{who} moves the Kaito ('<from>-<to>')",
            }[phase]
            return f"kaito: a {move.kind} move is not allowed now: {allowed}"
        if phase == "remove":
            return (
                "kaito: the opening removes exactly the two opening tiles: 'remove "
                + " ".join(cell_name(c) for c in state.moves[0].cells)
                + "'"
            )
        gaps = ", ".join(cell_name(m.to) for m in state.moves)
        if phase == "place":
            return f"kaito: the Kaito goes on a gap; gaps: {gaps}"
        targets = ", ".join(cell_name(c) for c in state.targets)
        cell = move.cells[0] if len(move.cells) == 1 and 0 <= move.cells[0] < CELLS else None
        if cell is None or cell not in state.targets:
            where = cell_name(cell) if cell is not None else repr(move.cells)
            rule = (
                "in a straight line (row or column) onto a tile"
                if state.config.movement == "pass"
                else "in a straight line onto the first tile in that direction"
            )
            return (
                f"kaito: the Kaito on {cell_name(state.kaito or 0)} cannot land on {where}: it "
                f"moves {rule}; {who} may land on {targets}"
            )
        return self._why_bad_trade(state, move)

    def _why_bad_trade(self, state: KaitoState, move: Move) -> str:
        me = state.player
        who = COLOUR_NAMES[me]
        tile = state.board[move.to]
        assert tile is not None
        if state.config.end_check == "capture":
            board = list(state.board)
            board[move.to] = None
            if material_loss(board) is not None:
                return "kaito: this capture ends the game at once (end check 'capture'): no trade"
        options = _trade_options(state, tile)
        if move.buy not in PRICES:
            return f"kaito: one can buy 'katana' or 'kabuto', not {move.buy!r}"
        code = COLOUR_LETTERS[me] + BUY_KIND[move.buy]
        if code not in state.held[1 - me]:
            return f"kaito: {COLOUR_NAMES[1 - me]} holds no {tile_name(code)} for {who} to buy back"
        values = mon_values(state.held[me] + ((tile,) if tile_colour(tile) != me else ()))
        pays = [p for b, p in options if b == move.buy]
        shown = ", ".join("+".join(map(str, p)) for p in pays) or "none (not enough Mons)"
        return (
            f"kaito: {who} cannot pay {'+'.join(map(str, move.pay)) or 'nothing'} for a "
            f"{move.buy} (price {PRICES[move.buy]}, no change, no superfluous Mon; "
            f"{who}'s Mons: {'+'.join(map(str, sorted(values, reverse=True))) or 'none'}); "
            f"payments allowed: {shown}"
        )

    def result(self, state: KaitoState) -> Result:
        """Winner 1.0, loser 0.0; detail gives the reason and the material left."""
        if state.outcome is None:
            raise GameError(f"kaito: the game is not over (turn {state.turn})")
        winner, reason = state.outcome
        detail = {
            "reason": reason,
            "loser": 1 - winner,
            "turns": state.turn,
            "katana_on_board": [state.on_board(s, KATANA) for s in (0, 1)],
            "kabuto_on_board": [state.on_board(s, KABUTO) for s in (0, 1)],
        }
        scores = (1.0, 0.0) if winner == 0 else (0.0, 1.0)
        return Result(scores=scores, winners=(winner,), detail=detail)

    # ---- text and JSON -------------------------------------------------------------------
    def format_move(self, state: KaitoState, move: Move) -> str:
        """``remove b2 e5``, ``kaito b2``, ``c6-c4`` or ``c6-c4 buy kabuto 3+2``."""
        if move.kind == "remove":
            return "remove " + " ".join(cell_name(c) for c in move.cells)
        if move.kind == "place":
            return f"kaito {cell_name(move.to)}"
        start = cell_name(state.kaito) + "-" if state.kaito is not None else ""
        text = f"{start}{cell_name(move.to)}"
        if move.buy:
            text += f" buy {move.buy} " + "+".join(str(v) for v in move.pay)
        return text

    def parse_move(self, state: KaitoState, text: str) -> Move:
        """Parse a typed move (case and spacing are free).

        ``remove b2 e5``; ``kaito b2`` or ``place b2`` (a bare ``b2`` in that phase too);
        ``c6-c4`` (also ``c6 x c4``, ``c6 to c4``, or just ``c4``), optionally followed by
        ``buy katana|sword|kabuto|helmet`` and the Mons paid (``3+2``, ``3 2``, ``3,2``).
        Raises MoveParseError for text of another shape or a start cell that is not the
        Kaito's; whether the move is legal is left to ``apply``.
        """
        if not isinstance(text, str):
            raise MoveParseError(f"kaito: a move must be text, got {text!r}")
        t = " ".join(text.strip().lower().split())
        phase = state.phase
        hint = {
            "remove": "type 'remove "
            + " ".join(cell_name(c) for c in (state.moves[0].cells if state.moves else ()))
            + "'",
            "place": "type 'kaito <gap>', e.g. 'kaito "
            + (cell_name(state.moves[0].to) if state.moves else "a1")
            + "'",
            "play": "type '<from>-<to>', optionally followed by 'buy kabuto 3+2' or "
            "'buy katana 3+1'",
        }[phase]
        if m := _REMOVE_RE.match(t):
            return Move("remove", tuple(sorted((parse_cell(m[1]), parse_cell(m[2])))))
        if m := _PLACE_RE.match(t):
            return Move("place", (parse_cell(m[1]),))
        if m := _MOVE_RE.match(t):
            start, to, buy, pay = m[1], m[2], m[3], m[4]
            if phase == "place" and start is None and buy is None:
                return Move("place", (parse_cell(to),))
            if start is not None and state.kaito is not None and parse_cell(start) != state.kaito:
                raise MoveParseError(
                    f"kaito: {text!r} starts from {start}, but the Kaito is on "
                    f"{cell_name(state.kaito)}; {hint}"
                )
            if buy is None:
                return Move("move", (parse_cell(to),))
            values = tuple(sorted((int(v) for v in re.findall(r"[123]", pay)), reverse=True))
            return Move("move", (parse_cell(to),), _BUY_WORDS[buy], values)
        raise MoveParseError(f"kaito: {text!r} is not a move; {hint}")

    def state_to_json(self, state: KaitoState) -> dict[str, Any]:
        """Config, stream (hex), the grid (cells a1..f1, a2..f2, ..., f6), Kaito cell, seat
        to move, turn and the tiles each seat holds."""
        return {
            **state_head(self, STATE_VERSION, state.config, state.rng),
            "board": list(state.board),
            "kaito": None if state.kaito is None else cell_name(state.kaito),
            "player": state.player,
            "turn": state.turn,
            "held": [list(state.held[0]), list(state.held[1])],
        }

    def state_from_json(self, obj: Mapping[str, Any]) -> KaitoState:
        """Rebuild and check a state; raises StateFormatError saying what is inconsistent."""
        check_state_header(obj, self.name, STATE_VERSION)
        config = state_config(self, obj)
        rng = state_rng(self.name, obj.get("rng"))
        board = obj.get("board")
        if not isinstance(board, list) or len(board) != CELLS:
            raise StateFormatError(f"kaito state: 'board' must be a list of {CELLS} cells")
        for i, tile in enumerate(board):
            if tile is not None and tile not in TILE_CODES:
                raise StateFormatError(
                    f"kaito state: board cell {cell_name(i)} holds {tile!r}; allowed: null or "
                    f"one of {', '.join(sorted(TILE_CODES))}"
                )
        kaito_obj = obj.get("kaito")
        kaito = None
        if kaito_obj is not None:
            try:
                kaito = parse_cell(kaito_obj) if isinstance(kaito_obj, str) else None
            except MoveParseError:
                kaito = None
            if kaito is None:
                raise StateFormatError(
                    f"kaito state: 'kaito' must be null or a cell a1..f6, got {kaito_obj!r}"
                )
        player: Any = obj.get("player")
        turn: Any = obj.get("turn")
        if not _is_int(player) or player not in (0, 1):
            raise StateFormatError(f"kaito state: 'player' must be 0 or 1, got {player!r}")
        if not _is_int(turn) or turn < 0:
            raise StateFormatError(f"kaito state: 'turn' must be an integer >= 0, got {turn!r}")
        held_obj = obj.get("held")
        if not isinstance(held_obj, list) or len(held_obj) != 2:
            raise StateFormatError("kaito state: 'held' must be a list of two lists of tiles")
        held: list[tuple[str, ...]] = []
        for seat, tiles in enumerate(held_obj):
            if not isinstance(tiles, list):
                raise StateFormatError(f"kaito state: held[{seat}] must be a list of tiles")
            for tile in tiles:
                if tile not in TILE_CODES or tile == OPENING or tile_colour(tile) == seat:
                    raise StateFormatError(
                        f"kaito state: held[{seat}] holds {tile!r}; a seat holds only the "
                        f"opponent's tiles ({COLOUR_LETTERS[1 - seat]}S, "
                        f"{COLOUR_LETTERS[1 - seat]}H, {COLOUR_LETTERS[1 - seat]}1..3)"
                    )
            held.append(tuple(sorted(tiles)))
        state = KaitoState(
            config,
            rng,
            tuple(board),
            kaito,
            int(player),
            int(turn),
            (held[0], held[1]),
        )
        check_position(state)
        return state

    def describe(self, state: KaitoState) -> str:
        """The grid (row 6 on top, the Kaito in brackets), each side's material and holdings,
        and who is to move with the cells they may land on."""
        from tablesim.games.kaito.text import describe_state

        return describe_state(state)

    def describe_move(self, state: KaitoState, move: Move) -> str:
        """E.g. ``"Red moves the Kaito c6-c4, captures own Katana (out of play); pays Mons
        3+2 for a Kabuto, placed under the Kaito"``, plus the ending when the move ends the
        game."""
        from tablesim.games.kaito.text import describe_move

        return describe_move(self, state, move)


def make_position(
    tiles: Mapping[str, str],
    kaito: str | None,
    player: int = RED,
    held: tuple[Iterable[str], Iterable[str]] = ((), ()),
    *,
    config: KaitoConfig | None = None,
    turn: int = 0,
) -> KaitoState:
    """A hand-built position (puzzles, tests): ``tiles`` maps cells such as ``"c4"`` to tile
    codes (``"RS"``, ``"BH"``, ``"R3"``...), every other cell is a gap; ``kaito`` is the Kaito's
    cell (None in the opening); ``held[seat]`` the opponent tiles that seat holds.

    Raises StateFormatError (via :func:`check_position`) for a position the set cannot make.
    """
    board: list[str | None] = [None] * CELLS
    for name, tile in tiles.items():
        try:
            cell = parse_cell(name)
        except MoveParseError as exc:
            raise StateFormatError(f"kaito position: {exc}") from None
        if tile not in TILE_CODES:
            raise StateFormatError(
                f"kaito position: {name} holds {tile!r}; allowed: {', '.join(sorted(TILE_CODES))}"
            )
        board[cell] = tile
    obj = {
        "game": "kaito",
        "version": STATE_VERSION,
        "config": GAME.config_to_json(config or KaitoConfig()),
        "rng": "0" * 16,
        "board": board,
        "kaito": kaito,
        "player": player,
        "turn": turn,
        "held": [sorted(held[0]), sorted(held[1])],
    }
    return GAME.state_from_json(obj)


def check_position(state: KaitoState) -> None:
    """Raise StateFormatError unless ``state`` is a position the rules can reach or build.

    Checks: no tile more often than the set has it (grid and holdings together); both opening
    tiles on the grid before the Kaito is placed or neither; none once it is; black to move in
    the opening; a gap to place the Kaito on; not both sides out of Katana or Kabuto.
    """
    counts = Counter(t for t in state.board if t is not None)
    counts += Counter(state.held[0]) + Counter(state.held[1])
    for tile, n in sorted(counts.items()):
        if n > FULL_COUNTS[tile]:
            raise StateFormatError(
                f"kaito state: {n} x {tile} on the grid and held, the set has {FULL_COUNTS[tile]}"
            )
    openings = state.board.count(OPENING)
    if state.kaito is not None:
        if openings:
            raise StateFormatError("kaito state: opening tiles on the grid after the Kaito is out")
    else:
        if openings not in (0, 2):
            raise StateFormatError(
                "kaito state: before the Kaito is placed both opening tiles are on the grid "
                f"or neither, found {openings}"
            )
        if state.player != BLACK:
            raise StateFormatError("kaito state: black (seat 1) does the opening")
        if openings == 0 and None not in state.board:
            raise StateFormatError("kaito state: no gap to place the Kaito on")
        if state.held != ((), ()):
            raise StateFormatError("kaito state: no tile is held before the Kaito is placed")
    if state.kaito is not None:
        lost = material_loss(state.board)
        if lost is not None:
            board = list(state.board)
            seat = lost[0]
            letter = COLOUR_LETTERS[1 - seat]
            if letter + KATANA not in board or letter + KABUTO not in board:
                raise StateFormatError(
                    "kaito state: both sides lack Katana or Kabuto on the grid; one turn "
                    "only ever takes one tile"
                )


GAME = Kaito()
