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
  (``-10..9``, :data:`tablesim.sim.slices.kataboom.codec.KATABOOM_HALF`); a legal placement outside it raises :class:`EnvError`
  (the 18 models span -1.25..4 edges; seeded random games of every model stay inside: a slow
  test in tests/test_envs_codecs.py).

Moves a game accepts but never lists in ``legal_moves`` (Katamino hints, rotate and flip,
Kataboom nudges, resigning) have no action: an environment plays listed moves only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tablesim.games.core import GameError


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
        self._table: dict[int, Any] = {}
        """:meth:`_lookup`: action -> legal move of the state it was built for (``_table_of``)."""
        self._table_of: object = None

    def encode(self, move: Any) -> int:
        """The action id of ``move`` (the same id in every state)."""
        raise NotImplementedError

    def decode(self, action: int, state: Any) -> Any:
        """The move action ``action`` names in ``state`` (EnvError when it names none there)."""
        raise NotImplementedError

    def legal_ids(self, state: Any) -> tuple[np.ndarray, Callable[[int], Any]] | None:
        """The ids of ``state``'s legal moves in ``legal_moves`` order (``int64``) and a
        function giving the move at an index, without making every move; None (the default)
        where the environment should encode ``legal_moves`` one by one. Called only for a
        state that is not over."""
        return None

    def encode_many(self, moves: Sequence[Any]) -> list[int] | None:
        """``[encode(m) for m in moves]`` by the codec's own arithmetic (games whose moves
        hash slowly: Kaito, Katoiz), the same ids and errors; None (the default) where the
        environment should encode the moves one by one (remembering each move's id)."""
        return None

    def segment(self, action: int) -> str:
        """The kind of move an action is (its segment's name)."""
        return self.layout.split(int(action))[0]

    def _lookup(self, action: int, state: Any) -> Any:
        """The legal move encoded as ``action`` (for fields only the state determines); the
        table of the last state asked about is kept."""
        from tablesim.games.registry import get_game

        self.layout.split(action)  # range check
        if self._table_of is not state:
            self._table = {self.encode(m): m for m in get_game(self.game).legal_moves(state)}
            self._table_of = state
        move = self._table.get(action)
        if move is None:
            raise EnvError(f"{self.game}: action {action} names no legal move in this position")
        return move
