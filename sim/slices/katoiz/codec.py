"""The Katoiz action codec: its fixed action ids (``docs/envs.md``;
the scheme: :mod:`tablesim.sim.slices.common.codecs`)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from tablesim.sim.slices.common.codecs import ActionCodec, EnvError, Layout, Segment

KATOIZ_KINDS = 30  # picture tile kinds: 5 colours x 3 shapes x 2 sizes
KATOIZ_CELLS = 36


@cache
def _tile_kinds() -> tuple[int, ...]:
    from tablesim.games.katoiz.components import TILES

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

    def encode_many(self, moves: Sequence[Any]) -> list[int] | None:
        """Stapeltoren's ids of ``moves`` as :meth:`encode` gives them, the arithmetic inlined
        (anything unusual through :meth:`encode`); None for the other types."""
        if self.type != "stapeltoren":
            return None
        kinds, stacks, off = _tile_kinds(), self.stacks, self.layout.offsets
        add, start, new = off["add"], off["start"], off["new"]
        out = []
        for m in moves:
            kind, tile = m.kind, m.tile
            j = kinds[tile] if 0 <= tile < len(kinds) else -1
            if j >= 0:
                if kind == "add":
                    if 0 <= m.dst < stacks:
                        out.append(add + j * stacks + m.dst)
                        continue
                elif kind == "start":
                    out.append(start + j)
                    continue
                elif kind == "new":
                    out.append(new + j)
                    continue
            out.append(self.encode(m))
        return out

    def decode(self, action: int, state: Any) -> Any:
        from tablesim.games.katoiz.components import Move

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
