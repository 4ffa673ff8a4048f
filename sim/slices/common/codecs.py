"""Fixed action numberings: one ``Discrete(N)`` per game and config, action ``k`` always the
same move (as in OpenSpiel's and PettingZoo's chess, where an action is fixed by its squares).

Each game's move space is enumerated from its rules as a few *segments*, each a product of
small ranges (``Layout``): an action id is the segment's offset plus the mixed-radix number of
its coordinates. ``encode(move) -> id`` needs only the move; ``decode(id, state) -> move`` takes
the state as OpenSpiel's ``ActionToMove(action, board)`` does, for the few fields a move
carries that the player does not choose (the rest height of a piece lowered straight down in
Kozo and Kataboom, the tile lying on the chosen cell in Katoiz Stapeltje-four, which of two
identical duplicate tiles is taken in Katoiz Stapeltoren). The spaces, per game (``docs/envs.md``
has the table and the arithmetic):

- Catego: the column (``len(columns)``; 11 for 2..12).
- Kaito: ``remove`` the two opening tiles (an unordered pair of cells, C(36, 2) = 630),
  ``kaito`` on a cell (36), a Kaito move to a cell x its trade (36 x 11: no trade, or buy the
  Katana with one of its 5 minimal payments, or the Kabuto with one of its 5).
- Katoiz: by game type. Stapeltoren: start / new stack with a tile kind (30 each), add a kind
  to stack i (30 x supply), pass. 3-set: (pass, place on a cell, move a disc cell -> cell) x
  the removed opponent's disc (none, or a cell, level 4). Stapeltje-four: from cell x to (a cell
  or the home stack), pass.
- Katamino: piece x orientation (its distinct rotations, or only the flat ones when every
  target of the mode is flat) x anchor (minimum corner) in the box spanning the mode's targets;
  plus ``quit``/``undo`` (solo) or ``give`` a piece, ``replace`` OLD=A+B, ``undo`` (duels).
- Kozo: piece x rotation x (x, y) on the half-cube lattice of the 3 x 3 base (7 x 7), ``take``
  a piece, the balance cube's spot to the nearest quarter edge (13 x 13: a spot is the centre
  of a settled cube's top face, off the lattice on the physics table), ``nocube``.
- Kataboom: piece x rotation x integer (x, y) in a square window around the structure's origin
  (``-10..9``, :data:`KATABOOM_HALF`); a legal placement outside it raises :class:`EnvError`
  (the 18 models span -1.25..4 edges; seeded random games of every model stay inside: a slow
  test in tests/test_envs_codecs.py).

Moves a game accepts but never lists in ``legal_moves`` (Katamino hints, rotate and flip,
Kataboom nudges, resigning) have no action: an environment plays listed moves only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Any

from games.core import GameError


class EnvError(GameError):
    """A position, move or action the environment cannot represent (says which and why)."""


@dataclass(frozen=True)
class Segment:
    """One kind of move: ``name`` and the sizes of its coordinates (a product of ranges)."""

    name: str
    sizes: tuple[int, ...]

    @property
    def count(self) -> int:
        """How many actions the segment holds (the product of its sizes)."""
        return math.prod(self.sizes)


class Layout:
    """Segments laid end to end: ``id(name, *coords)`` and its inverse ``split(id)``."""

    def __init__(self, game: str, segments: Sequence[Segment]) -> None:
        self.game = game
        self.segments = tuple(segments)
        self.offsets: dict[str, int] = {}
        total = 0
        for seg in self.segments:
            self.offsets[seg.name] = total
            total += seg.count
        self.by_name = {s.name: s for s in self.segments}
        self.n = total

    def id(self, name: str, *coords: int) -> int:
        """The action of segment ``name`` at ``coords`` (EnvError when one is out of range)."""
        seg = self.by_name[name]
        k = 0
        for c, size in zip(coords, seg.sizes, strict=True):
            if not 0 <= c < size:
                raise EnvError(
                    f"{self.game}: {name} coordinate {c} outside 0..{size - 1}: the move is "
                    "outside the environment's action space"
                )
            k = k * size + c
        return self.offsets[name] + k

    def split(self, action: int) -> tuple[str, tuple[int, ...]]:
        """``(segment name, coords)`` of an action id (EnvError outside ``0..n-1``)."""
        if not 0 <= action < self.n:
            raise EnvError(f"{self.game}: action {action} outside 0..{self.n - 1}")
        for seg in reversed(self.segments):
            off = self.offsets[seg.name]
            if action >= off and seg.count:
                k = action - off
                coords = []
                for size in reversed(seg.sizes):
                    k, c = divmod(k, size)
                    coords.append(c)
                return seg.name, tuple(reversed(coords))
        raise AssertionError("unreachable: offsets cover 0..n-1")  # pragma: no cover


class ActionCodec:
    """A game's fixed action space under one config: ``n`` actions, ``encode``, ``decode``."""

    game = ""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.n = layout.n

    def encode(self, move: Any) -> int:
        """The action id of ``move`` (the same id in every state)."""
        raise NotImplementedError

    def decode(self, action: int, state: Any) -> Any:
        """The move action ``action`` names in ``state`` (EnvError when it names none there)."""
        raise NotImplementedError

    def segment(self, action: int) -> str:
        """The kind of move an action is (its segment's name)."""
        return self.layout.split(int(action))[0]

    def _lookup(self, action: int, state: Any) -> Any:
        """The legal move encoded as ``action`` (for fields only the state determines); the
        table of the last state asked about is kept."""
        from games.registry import get_game

        self.layout.split(action)  # range check
        if getattr(self, "_table_of", None) is not state:
            self._table = {self.encode(m): m for m in get_game(self.game).legal_moves(state)}
            self._table_of = state
        move = self._table.get(action)
        if move is None:
            raise EnvError(f"{self.game}: action {action} names no legal move in this position")
        return move


# ---- Catego ---------------------------------------------------------------------------------


class CategoCodec(ActionCodec):
    """Action ``i``: write the roll in column ``columns[i]``."""

    game = "catego"

    def __init__(self, config: Any) -> None:
        self.columns = tuple(config.columns)
        super().__init__(Layout(self.game, [Segment("column", (len(self.columns),))]))

    def encode(self, move: int) -> int:
        try:
            return self.columns.index(int(move))
        except ValueError:
            raise EnvError(f"catego: column {move!r} is not on the pad {self.columns}") from None

    def decode(self, action: int, state: Any) -> int:
        return self.columns[self.layout.split(int(action))[1][0]]


# ---- Kaito ----------------------------------------------------------------------------------

KAITO_CELLS = 36
KAITO_PAIRS = tuple(combinations(range(KAITO_CELLS), 2))


@cache
def kaito_trades() -> tuple[tuple[str, tuple[int, ...]], ...]:
    """``("", ())`` then every (buy, minimal payment) from one side's seven Mons
    (3, 3, 2, 2, 1, 1, 1): 5 for the Katana (price 4), 5 for the Kabuto (price 5)."""
    from games.kaito.rules import PRICES, minimal_payments

    mons = (3, 3, 2, 2, 1, 1, 1)
    out: list[tuple[str, tuple[int, ...]]] = [("", ())]
    for buy in ("katana", "kabuto"):
        out.extend((buy, pay) for pay in minimal_payments(mons, PRICES[buy]))
    return tuple(out)


class KaitoCodec(ActionCodec):
    """``remove`` (cell pair), ``place`` (cell), ``move`` (cell x trade)."""

    game = "kaito"

    def __init__(self, config: Any) -> None:
        self.trades = kaito_trades()
        self.trade_index = {t: i for i, t in enumerate(self.trades)}
        self.pair_index = {p: i for i, p in enumerate(KAITO_PAIRS)}
        super().__init__(Layout(self.game, [
            Segment("remove", (len(KAITO_PAIRS),)),
            Segment("place", (KAITO_CELLS,)),
            Segment("move", (KAITO_CELLS, len(self.trades))),
        ]))  # fmt: skip

    def encode(self, move: Any) -> int:
        if move.kind == "remove":
            return self.layout.offsets["remove"] + self.pair_index[tuple(sorted(move.cells))]
        if move.kind == "place":
            return self.layout.id("place", move.cells[0])
        trade = self.trade_index.get((move.buy, tuple(move.pay)))
        if trade is None:
            raise EnvError(f"kaito: trade {move.buy} {move.pay} is not a minimal payment")
        return self.layout.id("move", move.cells[0], trade)

    def decode(self, action: int, state: Any) -> Any:
        from games.kaito.rules import Move

        name, c = self.layout.split(int(action))
        if name == "remove":
            return Move("remove", KAITO_PAIRS[c[0]])
        if name == "place":
            return Move("place", (c[0],))
        buy, pay = self.trades[c[1]]
        return Move("move", (c[0],), buy, pay)


# ---- Katoiz ---------------------------------------------------------------------------------

KATOIZ_KINDS = 30  # picture tile kinds: 5 colours x 3 shapes x 2 sizes
KATOIZ_CELLS = 36


@cache
def _tile_kinds() -> tuple[int, ...]:
    from games.katoiz.components import TILES

    return tuple(c * 6 + s * 2 + z if s >= 0 else -1 for c, s, z in TILES)


def tile_kind(tile: int) -> int:
    """A Katoiz picture tile's kind 0..29 (colour x shape x size); duplicates share theirs."""
    kind = _tile_kinds()[tile]
    if kind < 0:
        raise EnvError(f"katoiz: tile {tile} is blank; it has no picture kind")
    return kind


class KatoizCodec(ActionCodec):
    """By game type (module docstring)."""

    game = "katoiz"

    def __init__(self, config: Any) -> None:
        self.type = config.type
        if self.type == "stapeltoren":
            self.stacks = int(config.supply)
            segs = [
                Segment("start", (KATOIZ_KINDS,)),
                Segment("add", (KATOIZ_KINDS, self.stacks)),
                Segment("new", (KATOIZ_KINDS,)),
                Segment("pass", (1,)),
            ]
        elif self.type == "3-set":
            self.removals = 1 + KATOIZ_CELLS if config.remove_disc else 1
            segs = [
                Segment("pass", (self.removals,)),
                Segment("place", (KATOIZ_CELLS, self.removals)),
                Segment("move", (KATOIZ_CELLS, KATOIZ_CELLS, self.removals)),
            ]
        else:
            segs = [
                Segment("move", (KATOIZ_CELLS, KATOIZ_CELLS + 1)),
                Segment("pass", (1,)),
            ]
        super().__init__(Layout(self.game, segs))

    def encode(self, move: Any) -> int:
        k = move.kind
        if self.type == "stapeltoren":
            if k == "pass":
                return self.layout.id("pass", 0)
            if k == "add":
                return self.layout.id("add", tile_kind(move.tile), move.dst)
            return self.layout.id(k, tile_kind(move.tile))
        if self.type == "3-set":
            r = move.rem + 1  # -1 (no removal) -> 0
            if k == "pass":
                return self.layout.id("pass", r)
            if k == "place":
                return self.layout.id("place", move.dst, r)
            return self.layout.id("move", move.src, move.dst, r)
        if k == "pass":
            return self.layout.id("pass", 0)
        return self.layout.id("move", move.src, move.dst)

    def decode(self, action: int, state: Any) -> Any:
        from games.katoiz.components import Move

        name, c = self.layout.split(int(action))
        if name == "pass":
            return Move("pass", rem=c[0] - 1) if self.type == "3-set" else Move("pass")
        if self.type == "stapeltoren":
            tiles = [t for t in state.supply if tile_kind(t) == c[0]]
            if not tiles:
                raise EnvError(f"katoiz: action {action}: no tile of that kind in the supply")
            tile = min(tiles)  # duplicates are interchangeable: the rules list the lowest id
            if name == "add":
                return Move("add", tile, dst=c[1])
            return Move(name, tile)
        if self.type == "3-set":
            if name == "place":
                return Move("place", dst=c[0], rem=c[1] - 1)
            return Move("move", src=c[0], dst=c[1], rem=c[2] - 1)
        src, dst = c
        stack = state.stacks[src]
        return Move("move", stack[-1] if stack else -1, src, dst)


# ---- Katamino -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Placements:
    """Piece x orientation x anchor: ``pieces`` (names), ``orients[p]`` (normalised cells),
    ``box`` (the anchor range along x, y, z)."""

    pieces: tuple[str, ...]
    orients: tuple[tuple[tuple[tuple[int, int, int], ...], ...], ...]
    box: tuple[int, int, int]

    @property
    def count(self) -> int:
        """Sum over pieces of their orientations (the placement segment is this x box)."""
        return sum(len(o) for o in self.orients)


@cache
def placement_table(catalogue: str, pieces: tuple[str, ...], flat: bool,
                    box: tuple[int, int, int]) -> Placements:  # fmt: skip
    """The orientations of ``pieces`` (all distinct proper rotations; only those lying in the
    xy plane when ``flat``) and the anchor box."""
    from games.polycubes import get_catalogue, orientations

    cat = get_catalogue(catalogue)
    table = []
    for name in pieces:
        rots = orientations(cat.piece(name).cells, "rotations")
        if flat:
            rots = tuple(o for o in rots if all(z == 0 for _, _, z in o))
        table.append(rots)
    return Placements(pieces, tuple(table), box)


class PlacementSpace:
    """Encode/decode ``(piece, cells)`` as one number of a ``place`` segment."""

    def __init__(self, game: str, table: Placements) -> None:
        self.game = game
        self.table = table
        self.piece_index = {n: i for i, n in enumerate(table.pieces)}
        self.base: list[int] = []
        self.orient_index: list[dict[tuple, int]] = []
        total = 0
        for rots in table.orients:
            self.base.append(total)
            self.orient_index.append({o: i for i, o in enumerate(rots)})
            total += len(rots)
        self.flat_orients = [
            (p, o) for p, rots in enumerate(table.orients) for o in range(len(rots))
        ]
        self.sizes = (total, *table.box)

    def coords(self, piece: str, cells: Sequence[Sequence[int]]) -> tuple[int, ...]:
        """``(orientation number, x, y, z)`` of a placed piece (its anchor: minimum corner)."""
        p = self.piece_index.get(piece)
        if p is None:
            raise EnvError(f"{self.game}: piece {piece!r} is not in the action space")
        lo = tuple(min(c[k] for c in cells) for k in range(3))
        shape = tuple(sorted((c[0] - lo[0], c[1] - lo[1], c[2] - lo[2]) for c in cells))
        o = self.orient_index[p].get(shape)
        if o is None:
            raise EnvError(f"{self.game}: {piece} cells {tuple(cells)} are no orientation of it")
        return (self.base[p] + o, *lo)

    def move(self, coords: Sequence[int]) -> tuple[str, tuple[tuple[int, int, int], ...]]:
        """``(piece, sorted cells)`` of placement coordinates."""
        k, x, y, z = coords
        p, o = self.flat_orients[k]
        cells = tuple(sorted((a + x, b + y, c + z) for a, b, c in self.table.orients[p][o]))
        return self.table.pieces[p], cells


def _box_of(targets: Sequence[Any]) -> tuple[tuple[int, int, int], bool]:
    """The anchor box spanning ``targets`` and whether every one is flat."""
    hi = [1, 1, 1]
    for t in targets:
        for c in t.cells:
            for k in range(3):
                hi[k] = max(hi[k], c[k] + 1)
    return (hi[0], hi[1], hi[2]), all(t.dims == 2 for t in targets)


def katamino_targets(config: Any) -> list[Any]:
    """Every target a Katamino config can play (over every card of its mode)."""
    from games.katamino import Target

    if config.mode in ("duel", "child-adult", "handicap", "duel3d"):
        from games.katamino.duel_cards import BOX3D, board

        if config.mode == "duel3d":
            return [Target.parse(BOX3D)]
        return [Target.parse(board(n)) for n in range(3, 13)]
    from games.katamino.solo_data import challenges

    return [st.target for ch in challenges(config.mode) for st in ch.stages]


@cache
def katamino_replacements() -> tuple[str, ...]:
    """Every handicap replacement ``OLD=A+B``: a piece by two smaller pieces of the same total
    size (``duel_cards.split_options``; a monomino has none)."""
    from games.katamino.duel_cards import MINIS, PENTAS, TETRAS, split_options

    names = (*PENTAS, *TETRAS, *MINIS)
    return tuple(f"{old}={a}+{b}" for old in names for a, b in split_options(old))


class KataminoCodec(ActionCodec):
    """Solo: ``quit``, ``undo``, ``place``; duels: ``give``, ``replace``, ``place``, ``undo``."""

    game = "katamino"
    CATALOGUE = "katamino-duo"

    def __init__(self, config: Any) -> None:
        from games.polycubes import get_catalogue

        self.duel = config.mode in ("duel", "child-adult", "handicap", "duel3d")
        box, flat = _box_of(katamino_targets(config))
        names = tuple(p.name for p in get_catalogue(self.CATALOGUE).pieces)
        self.places = PlacementSpace(self.game, placement_table(self.CATALOGUE, names, flat, box))
        if self.duel:
            from games.katamino.duel_cards import PENTAS, TETRAS

            self.gifts = (*PENTAS, *TETRAS)
            self.replacements = katamino_replacements()
            segs = [
                Segment("give", (len(self.gifts),)),
                Segment("replace", (len(self.replacements),)),
                Segment("place", self.places.sizes),
                Segment("undo", (1,)),
            ]
        else:
            segs = [
                Segment("quit", (1,)),
                Segment("undo", (1,)),
                Segment("place", self.places.sizes),
            ]
        super().__init__(Layout(self.game, segs))

    def encode(self, move: Any) -> int:
        kind = move.kind_name
        if kind == "place":
            return self.layout.id("place", *self.places.coords(move.piece, move.cells))
        if kind == "give":
            return self.layout.id("give", self.gifts.index(move.piece))
        if kind == "replace":
            return self.layout.id("replace", self.replacements.index(move.arg))
        if kind in ("quit", "undo"):
            return self.layout.id(kind, 0)
        raise EnvError(f"katamino: {kind!r} moves are not in the action space (never listed)")

    def decode(self, action: int, state: Any) -> Any:
        name, c = self.layout.split(int(action))
        if self.duel:
            from games.katamino.duel import KINDS, DuelMove

            if name == "give":
                return DuelMove(KINDS.index("give"), self.gifts[c[0]])
            if name == "replace":
                return DuelMove(KINDS.index("replace"), arg=self.replacements[c[0]])
            if name == "undo":
                return DuelMove(KINDS.index("undo"))
            piece, cells = self.places.move(c)
            return DuelMove(KINDS.index("place"), piece, cells)
        from games.katamino.solo import MOVE_KINDS, SoloMove

        if name == "place":
            piece, cells = self.places.move(c)
            return SoloMove(MOVE_KINDS.index("place"), piece, cells)
        return SoloMove(MOVE_KINDS.index(name))


# ---- Kozo -----------------------------------------------------------------------------------

KOZO_LATTICE = 7  # half-cube positions 0, 0.5, ..., 3 along x and along y
KOZO_SPOTS = 13  # balance cube spots to the nearest quarter edge: 0, 0.25, ..., 3


def _half(v: float, game: str) -> int:
    """A coordinate on the half-cube lattice as its index (EnvError when off the lattice)."""
    k = round(v * 2)
    if abs(v * 2 - k) > 0.04:
        raise EnvError(f"{game}: position {v} is not on the half-cube lattice")
    return int(k)


class KozoCodec(ActionCodec):
    """``place`` (piece x rotation x x x y), ``take`` (piece), ``cube`` (x x y), ``nocube``."""

    game = "kozo"

    def __init__(self, config: Any) -> None:
        from games.kozo.geometry import piece_orientations
        from games.polycubes import get_catalogue

        self.pieces = tuple(p.name for p in get_catalogue(config.catalogue).pieces)
        self.piece_index = {n: i for i, n in enumerate(self.pieces)}
        self.rots = [len(piece_orientations(config.catalogue, n)) for n in self.pieces]
        self.base = [sum(self.rots[:i]) for i in range(len(self.pieces))]
        n = KOZO_LATTICE
        super().__init__(Layout(self.game, [
            Segment("place", (sum(self.rots), n, n)),
            Segment("take", (len(self.pieces),)),
            Segment("cube", (KOZO_SPOTS, KOZO_SPOTS)),
            Segment("nocube", (1,)),
        ]))  # fmt: skip

    def encode(self, move: Any) -> int:
        if move.kind == "nocube":
            return self.layout.id("nocube", 0)
        if move.kind == "cube":
            # the centre of a settled cube's top face: settled poses drift off the lattice,
            # and legal spots lie a cube apart, so the nearest quarter edge names one spot
            x, y = (int(round(v * 4)) for v in move.pos[:2])
            return self.layout.id("cube", x, y)
        p = self.piece_index.get(move.piece)
        if p is None:
            raise EnvError(f"kozo: piece {move.piece!r} is not in the catalogue")
        if move.kind == "take":
            return self.layout.id("take", p)
        if not 0 <= move.rot < self.rots[p]:
            raise EnvError(f"kozo: {move.piece} has no rotation r{move.rot}")
        x, y = _half(move.pos[0], self.game), _half(move.pos[1], self.game)
        return self.layout.id("place", self.base[p] + move.rot, x, y)

    def decode(self, action: int, state: Any) -> Any:
        """The legal move of that id: its height is where the piece comes to rest when lowered
        straight down (or where the balance cube's spot is), which only the tower knows."""
        from games.kozo.state import KozoMove

        name, c = self.layout.split(int(action))
        if name == "nocube":
            return KozoMove("nocube")
        if name == "take":
            return KozoMove("take", self.pieces[c[0]])
        return self._lookup(int(action), state)


# ---- Kataboom -------------------------------------------------------------------------------

KATABOOM_HALF = 10
"""Kataboom placements' minimum corners are integer (x, y) in ``-10..9`` (cube edges from the
structure's origin; the models span -1.25..4, a piece reaches 5 edges)."""


class KataboomCodec(ActionCodec):
    """``place``: piece x rotation x x x y (the height: where it rests, lowered straight down)."""

    game = "kataboom"

    def __init__(self, config: Any) -> None:
        from games.kataboom.geometry import orientations
        from games.kataboom.rules import kataboom_pieces

        self.pieces = kataboom_pieces()
        self.piece_index = {n: i for i, n in enumerate(self.pieces)}
        self.rots = [len(orientations(n)) for n in self.pieces]
        self.base = [sum(self.rots[:i]) for i in range(len(self.pieces))]
        w = 2 * KATABOOM_HALF
        super().__init__(Layout(self.game, [Segment("place", (sum(self.rots), w, w))]))

    def encode(self, move: Any) -> int:
        if move.kind != "place":
            raise EnvError("kataboom: nudges are not in the action space (never listed)")
        p = self.piece_index.get(move.piece)
        if p is None or not 0 <= move.rot < self.rots[p]:
            raise EnvError(f"kataboom: {move.piece} r{move.rot} is not in the action space")
        # the place segment's mixed radix inline (thousands of candidates a position)
        x, y = move.pos[0], move.pos[1]
        i, j = round(x), round(y)
        if abs(x - i) > 1e-3 or abs(y - j) > 1e-3:
            raise EnvError(f"kataboom: position {x}, {y} is not on the lattice")
        i, j, w = i + KATABOOM_HALF, j + KATABOOM_HALF, 2 * KATABOOM_HALF
        if not (0 <= i < w and 0 <= j < w):
            raise EnvError(
                f"kataboom: placement at {x}, {y} is outside the action space's window "
                f"(-{KATABOOM_HALF}..{KATABOOM_HALF - 1})"
            )
        return ((self.base[p] + move.rot) * w + i) * w + j

    def decode(self, action: int, state: Any) -> Any:
        """The legal placement of that id (its height depends on the structure)."""
        return self._lookup(int(action), state)
