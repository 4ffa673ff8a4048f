"""The Katamino action codec: its fixed action ids (``docs/envs.md``;
the scheme: :mod:`tablesim.sim.slices.common.codecs`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from tablesim.sim.slices.common.codecs import ActionCodec, EnvError, Layout, Segment


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
def placement_table(
    catalogue: str, pieces: tuple[str, ...], flat: bool, box: tuple[int, int, int]
) -> Placements:
    """The orientations of ``pieces`` (all distinct proper rotations; only those lying in the
    xy plane when ``flat``) and the anchor box."""
    from tablesim.games.polycubes import get_catalogue, orientations

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
    from tablesim.games.katamino import Target

    if config.mode in ("duel", "child-adult", "handicap", "duel3d"):
        from tablesim.games.katamino.duel_cards import BOX3D, board

        if config.mode == "duel3d":
            return [Target.parse(BOX3D)]
        return [Target.parse(board(n)) for n in range(3, 13)]
    from tablesim.games.katamino.solo_data import challenges

    return [st.target for ch in challenges(config.mode) for st in ch.stages]


@cache
def katamino_replacements() -> tuple[str, ...]:
    """Every handicap replacement ``OLD=A+B``: a piece by two smaller pieces of the same total
    size (``duel_cards.split_options``; a monomino has none)."""
    from tablesim.games.katamino.duel_cards import MINIS, PENTAS, TETRAS, split_options

    names = (*PENTAS, *TETRAS, *MINIS)
    return tuple(f"{old}={a}+{b}" for old in names for a, b in split_options(old))


class KataminoCodec(ActionCodec):
    """Solo: ``quit``, ``undo``, ``place``; duels: ``give``, ``replace``, ``place``, ``undo``."""

    game = "katamino"
    CATALOGUE = "katamino-duo"

    def __init__(self, config: Any) -> None:
        from tablesim.games.polycubes import get_catalogue

        self.duel = config.mode in ("duel", "child-adult", "handicap", "duel3d")
        box, flat = _box_of(katamino_targets(config))
        names = tuple(p.name for p in get_catalogue(self.CATALOGUE).pieces)
        self.places = PlacementSpace(self.game, placement_table(self.CATALOGUE, names, flat, box))
        if self.duel:
            from tablesim.games.katamino.duel_cards import PENTAS, TETRAS

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
        self._row_ids: dict[tuple[Any, str], np.ndarray] = {}

    def row_ids(self, rows: Any, name: str) -> np.ndarray:
        """The action ids of a solo placement table's rows (piece ``name``;
        :class:`tablesim.games.katamino.solo.PlacementRows`), in its row order, computed
        once per table: the place segment's mixed radix over (the codec's orientation of
        each row's shape, its anchor)."""
        key = (rows, name)  # (the table itself, held here: ids are never mixed up)
        ids = self._row_ids.get(key)
        if ids is None:
            pl = self.places
            p = pl.piece_index.get(name)
            if p is None:
                raise EnvError(f"{self.game}: piece {name!r} is not in the action space")
            codec_o = []
            for shape in rows.orients:
                o = pl.orient_index[p].get(shape)
                if o is None:
                    raise EnvError(f"{self.game}: {name} shape {shape} is no orientation of it")
                codec_o.append(pl.base[p] + o)
            _, bx, by, bz = pl.sizes
            a = rows.anchor
            if len(a) and ((a < 0).any() or (a >= np.array([bx, by, bz])).any()):
                raise EnvError(
                    f"{self.game}: a placement of {name} lies outside the action space's box"
                )
            k = np.asarray(codec_o, dtype=np.int64)[rows.orient]
            ids = self.layout.offsets["place"] + ((k * bx + a[:, 0]) * by + a[:, 1]) * bz + a[:, 2]
            ids.flags.writeable = False
            if len(self._row_ids) > 4096:  # bound the memory of a long run
                self._row_ids.clear()
            self._row_ids[key] = ids
        return ids

    def legal_ids(self, state: Any) -> tuple[np.ndarray, Callable[[int], Any]] | None:
        """Solo: the legal moves' ids from the rules' placement tables
        (:meth:`tablesim.games.katamino.solo.KataminoSolo.placement_moves`), a move made only
        when asked; None for duels and for targets too large for a table."""
        if self.duel or not hasattr(state, "placed"):
            return None
        from tablesim.games.katamino.solo import QUIT, SOLO_GAME, UNDO, SoloMove

        sp = SOLO_GAME.stage_play(state)
        if sp.board is None:
            return None
        heads = [UNDO, QUIT] if state.placed else [QUIT]
        parts = [np.array([self.encode(m) for m in heads], dtype=np.int64)]
        covered, straight = sp.board.covered(state.placed), state.straight_horizontal
        picks: list[tuple[int, str, Any, np.ndarray]] = []
        start = len(heads)
        for name in SOLO_GAME.listed_pieces(state):
            rows = sp.board.rows(name, straight)
            ok = rows.fitting(covered)
            if len(ok):
                parts.append(self.row_ids(rows, name)[ok])
                picks.append((start, name, rows, ok))
                start += len(ok)

        def move_at(i: int) -> Any:
            if i < len(heads):
                return heads[i]
            for begin, name, rows, ok in reversed(picks):
                if i >= begin:
                    return SoloMove(3, name, rows.cells(int(ok[i - begin])))
            raise IndexError(i)  # pragma: no cover - i is an index of the ids

        return np.concatenate(parts), move_at

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
            from tablesim.games.katamino.duel import KINDS, DuelMove

            if name == "give":
                return DuelMove(KINDS.index("give"), self.gifts[c[0]])
            if name == "replace":
                return DuelMove(KINDS.index("replace"), arg=self.replacements[c[0]])
            if name == "undo":
                return DuelMove(KINDS.index("undo"))
            piece, cells = self.places.move(c)
            return DuelMove(KINDS.index("place"), piece, cells)
        from tablesim.games.katamino.solo import MOVE_KINDS, SoloMove

        if name == "place":
            piece, cells = self.places.move(c)
            return SoloMove(MOVE_KINDS.index("place"), piece, cells)
        return SoloMove(MOVE_KINDS.index(name))
