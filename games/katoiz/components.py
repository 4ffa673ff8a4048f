"""Katoiz components: the 45 tiles, the two dice, matches, board cells and shared helpers.

Tiles (docs/rules/katoiz.md, "Components"): 5 colours x 3 shapes x 2 sizes = 30 unique picture
tiles (ids 0..29), 10 duplicates (ids 30..39: one large and one small tile per colour; which
shapes are duplicated is not printed, so it is data here, :data:`DUPLICATE_SHAPES`) and 5 blank
tiles (ids 40..44, one per colour: the colour ladder of Stapeltje-four level 5).

A tile's text is three letters: colour (``Y G W R B``), shape (``O`` round, ``S`` square,
``T`` triangle) and size (``L`` large, ``S`` small), e.g. ``ROL`` = red round large; a blank
tile is ``R--``. A *match* between two tiles is equality of colour, of shape or of size.

Colour die faces 0..5: the five colours, then purple (any colour). Picture die faces 0..5:
round, square, triangle, large, small, blank (any shape).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tablesim.games import core
from tablesim.games.core import ConfigError, MoveParseError, StateFormatError
from tablesim.games.rng import Rng

COLOURS: tuple[str, ...] = ("yellow", "green", "white", "red", "blue")
COLOUR_LETTERS = "YGWRB"
SHAPES: tuple[str, ...] = ("round", "square", "triangle")
SHAPE_LETTERS = "OST"
SIZES: tuple[str, ...] = ("large", "small")
SIZE_LETTERS = "LS"
# Duplicated shapes per colour as (large, small): not printed, spread evenly over the shapes.
DUPLICATE_SHAPES: tuple[tuple[int, int], ...] = ((0, 1), (1, 2), (2, 0), (0, 1), (1, 2))

COLOUR_FACES: tuple[str, ...] = (*COLOURS, "purple")
PICTURE_FACES: tuple[str, ...] = ("round", "square", "triangle", "large", "small", "blank")
PURPLE = 5
BLANK_FACE = 5

N_TILES = 45
PICTURE_TILES: tuple[int, ...] = tuple(range(40))
DUPLICATE_TILES: tuple[int, ...] = tuple(range(30, 40))
BLANK_TILES: tuple[int, ...] = tuple(range(40, 45))


def _build_tiles() -> tuple[tuple[int, int, int], ...]:
    out = [(c, s, z) for c in range(5) for s in range(3) for z in range(2)]
    for c in range(5):
        large, small = DUPLICATE_SHAPES[c]
        out.append((c, large, 0))
        out.append((c, small, 1))
    out.extend((c, -1, -1) for c in range(5))
    return tuple(out)


TILES: tuple[tuple[int, int, int], ...] = _build_tiles()
"""``TILES[i] = (colour, shape, size)``; blank tiles have shape and size ``-1``."""


def _matches(a: int, b: int) -> int:
    ta, tb = TILES[a], TILES[b]
    return sum(1 for x, y in zip(ta, tb, strict=True) if x == y and x >= 0)


MATCH: tuple[tuple[int, ...], ...] = tuple(
    tuple(_matches(a, b) for b in range(N_TILES)) for a in range(N_TILES)
)
"""``MATCH[a][b]``: how many of colour, shape, size tiles ``a`` and ``b`` share (0..3)."""

TILE_CODES: tuple[str, ...] = tuple(
    COLOUR_LETTERS[c] + ("-" if s < 0 else SHAPE_LETTERS[s]) + ("-" if z < 0 else SIZE_LETTERS[z])
    for c, s, z in TILES
)


def tile_code(tile: int) -> str:
    """The three-letter text of a tile, e.g. ``ROL``."""
    return TILE_CODES[tile]


def tile_said(tile: int) -> str:
    """A tile as a reason says it: its code with the words, e.g. ``BOL (blue round large)``
    (the code alone reads as a word to a person who has not learnt the letters)."""
    return f"{tile_code(tile)} ({tile_name(tile)})"


def tile_name(tile: int) -> str:
    """A tile in words, e.g. ``red round large`` (``red blank``)."""
    c, s, z = TILES[tile]
    if s < 0:
        return f"{COLOURS[c]} blank"
    return f"{COLOURS[c]} {SHAPES[s]} {SIZES[z]}"


def match_words(a: int, b: int) -> list[str]:
    """The properties tiles ``a`` and ``b`` share, in words (colour, shape, size order), e.g.
    ``["square", "small"]`` for RSS and WSS: what a player names (Stapeltoren, "The player
    names the match between the chosen tile and the top tile of their own stack")."""
    words = []
    for k, names in enumerate((COLOURS, SHAPES, SIZES)):
        x, y = TILES[a][k], TILES[b][k]
        if x == y and x >= 0:
            words.append(names[x])
    return words


def matches(a: int, b: int) -> int:
    """Number of shared properties of tiles ``a`` and ``b``."""
    return MATCH[a][b]


def fits(tile: int, roll: tuple[int, int] | None) -> bool:
    """Whether ``tile`` shows what the dice ``(colour face, picture face)`` ask for.

    Purple allows every colour; blank allows every shape; ``None`` (no dice) allows all. A
    picture face ``-1`` means the picture die is not in use.
    """
    if roll is None:
        return True
    colour, picture = roll
    c, s, z = TILES[tile]
    if colour != PURPLE and colour != c:
        return False
    if picture < 0 or picture == BLANK_FACE:
        return True
    if picture < 3:
        return s == picture
    return z == picture - 3


def roll_text(roll: tuple[int, int] | None) -> str:
    """``"red + round"``, ``"purple (any colour)"``; ``"no dice"`` for None."""
    if roll is None:
        return "no dice"
    colour, picture = roll
    text = COLOUR_FACES[colour] + (" (any colour)" if colour == PURPLE else "")
    if picture >= 0:
        text += " + " + PICTURE_FACES[picture] + (" (any shape)" if picture == BLANK_FACE else "")
    return text


def roll_dice(rng: Rng, picture: bool) -> tuple[tuple[int, int], Rng]:
    """Roll the colour die (and the picture die when ``picture``; else its face is -1)."""
    colour, rng = rng.randbelow(6)
    face = -1
    if picture:
        face, rng = rng.randbelow(6)
    return (colour, face), rng


@dataclass(frozen=True, order=True)
class Move:
    """A Katoiz move; which fields are used depends on ``kind`` (unused ones are -1).

    - Stapeltoren: ``start`` (``tile`` becomes a starting tile), ``add`` (``tile`` onto own
      stack ``dst``), ``new`` (``tile`` starts a new stack), ``pass``.
    - 3-set: ``place`` (a disc on cell ``dst``), ``move`` (own disc ``src`` -> ``dst``),
      ``pass``; ``rem`` is the cell of an opponent's disc removed first (level 4) or -1.
    - Stapeltje-four: ``move`` (the top tile of cell ``src`` to cell ``dst``; ``dst`` 36 is
      the mover's home stack), ``pass`` (a blocked turn).

    ``secs``: the whole seconds a person's turn took on a Stapeltje clock (stamped by the
    front end, written ``@SECS``), or -1: the simulated cost (bots, scripts, no clock).
    """

    kind: str
    tile: int = -1
    src: int = -1
    dst: int = -1
    rem: int = -1
    secs: int = -1


# ---- the 6x6 board ------------------------------------------------------------------------

SIDE = 6
CELLS = SIDE * SIDE
_CELL_RE = re.compile(r"^([a-f])([1-6])$")


def cell_name(cell: int) -> str:
    """``a1`` .. ``f6``: column letter (x) and row number (y), ``a1`` = cell 0."""
    return "abcdef"[cell % SIDE] + str(cell // SIDE + 1)


def parse_cell(text: str, game: str) -> int:
    """Parse ``c4`` into a cell index; MoveParseError otherwise."""
    m = _CELL_RE.match(text.strip().lower())
    if m is None:
        raise MoveParseError(f"{game}: {text!r} is not a cell (a1..f6: column a-f, row 1-6)")
    return "abcdef".index(m.group(1)) + SIDE * (int(m.group(2)) - 1)


def xy(cell: int) -> tuple[int, int]:
    """Column and row of a cell, both 0..5."""
    return cell % SIDE, cell // SIDE


def _neighbours(diagonal: bool) -> tuple[tuple[int, ...], ...]:
    out = []
    for cell in range(CELLS):
        x, y = xy(cell)
        nb = []
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                if (dx, dy) == (0, 0) or (not diagonal and dx and dy):
                    continue
                if 0 <= x + dx < SIDE and 0 <= y + dy < SIDE:
                    nb.append(cell + dx + SIDE * dy)
        out.append(tuple(nb))
    return tuple(out)


ORTHOGONAL: tuple[tuple[int, ...], ...] = _neighbours(False)
KING: tuple[tuple[int, ...], ...] = _neighbours(True)


def deal_board(rng: Rng) -> tuple[tuple[int, ...], tuple[int, ...], Rng]:
    """Lay 36 picture tiles on the 6x6 board: four duplicates (drawn) are set aside.

    Returns ``(board, set_aside, rng)``: ``board[cell]`` is a tile id, ``set_aside`` the four
    duplicates in drawing order.
    """
    dups, rng = rng.shuffle(DUPLICATE_TILES)
    aside = dups[:4]
    rest = [t for t in PICTURE_TILES if t not in aside]
    board, rng = rng.shuffle(rest)
    return board, aside, rng


# ---- config and JSON helpers ---------------------------------------------------------------


def check_bool(game: str, key: str, value: Any) -> bool:
    """A bool option value, else ConfigError naming the key."""
    if not isinstance(value, bool):
        raise ConfigError(f"{game}: option {key!r}: {value!r} (allowed: true, false)")
    return value


def check_int(game: str, key: str, value: Any, lo: int, hi: int, what: str = "") -> int:
    """An int option value in ``lo..hi``, else ConfigError naming the key."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        extra = f"; {what}" if what else ""
        raise ConfigError(
            f"{game}: option {key!r}: {value!r} is not an integer in {lo}..{hi}{extra}"
        )
    return int(value)


def json_roll(value: Any, what: str = "roll") -> tuple[int, int] | None:
    """A roll ``[colour face, picture face]`` (picture -1 when unused) or null."""
    if value is None:
        return None
    colour, picture = core.json_ints(value, f"katoiz state: {what}", length=2, lo=-1, hi=5)
    if colour < 0:
        raise StateFormatError(f"katoiz state: {what}[0] must be a colour face 0..5")
    return colour, picture


def seat_name(seat: int) -> str:
    """``P1`` for seat 0."""
    return f"P{seat + 1}"


def game_over_line(end: str, winners: Sequence[int], *, nobody: str) -> str:
    """The ``describe()`` line of a finished game: ``Game over (END): P1 wins``, or ``nobody``
    (the variant's words for no winner) in place of the winner."""
    verdict = f"{seat_name(winners[0])} wins" if winners else nobody
    return f"Game over ({end}): {verdict}"


def unique_top(values: Sequence[float]) -> tuple[int, ...]:
    """The seat with the single highest value, or ``()`` when the top is shared."""
    top = max(values)
    return (values.index(top),) if list(values).count(top) == 1 else ()
