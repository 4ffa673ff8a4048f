"""Example tables of the games whose state formats are still being written (seeded, so the
same seed always gives the same table): used for the README screenshots, the golden frames and
``tablesim render --example GAME``."""

from __future__ import annotations

from tablesim.games.rng import Rng
from tablesim.sim.slices.kaito.drawing import KaitoTable, KaitoTile
from tablesim.sim.slices.katamino.drawing import KataminoPlacement, KataminoTable
from tablesim.sim.slices.katoiz.drawing import (
    COLOURS,
    KatoizDisc,
    KatoizStack,
    KatoizTable,
    KatoizTile,
)

__all__ = ["example_kaito", "example_katamino", "example_katoiz", "katoiz_tiles", "kaito_tiles"]


def katoiz_tiles() -> tuple[KatoizTile, ...]:
    """The 45 Katoiz tiles: 5 colours x 3 shapes x 2 sizes, one more small and large tile per
    colour (the duplicates; which shape they carry is not in the text, ours: round), and one
    blank tile per colour."""
    tiles = [
        KatoizTile(c, s, z) for c in COLOURS for s in ("round", "square", "triangle")
        for z in ("large", "small")
    ]  # fmt: skip
    tiles += [KatoizTile(c, "round", z) for c in COLOURS for z in ("large", "small")]
    tiles += [KatoizTile(c) for c in COLOURS]
    return tuple(tiles)


def kaito_tiles() -> tuple[KaitoTile, ...]:
    """The 36 Kaito tiles: per colour 7 Katana, 3 Kabuto, Mons 3, 3, 2, 2, 1, 1, 1; 2 openings."""
    out: list[KaitoTile] = []
    for colour in ("red", "black"):
        out += [KaitoTile(colour, "katana")] * 7 + [KaitoTile(colour, "kabuto")] * 3
        out += [KaitoTile(colour, "mon", v) for v in (3, 3, 2, 2, 1, 1, 1)]
    out += [KaitoTile(None, "opening")] * 2
    return tuple(out)


def example_katoiz(seed: int = 0) -> KatoizTable:
    """A 3-set game in progress: 36 shuffled picture tiles on the 6 x 6 grid, a few stacks
    (heights 2 and 3, as in Stapeltje-four) and two players' discs."""
    rng = Rng.from_seed(seed, "view-example", "katoiz")
    picture = [t for t in katoiz_tiles() if not t.blank]
    shuffled, rng = rng.shuffle(picture)
    blanks = [t for t in katoiz_tiles() if t.blank]
    stacks = []
    for k in range(36):
        cell = (k % 6, k // 6)
        tiles: tuple[KatoizTile, ...] = (shuffled[k],)
        if cell in ((1, 1), (4, 2)):
            tiles = (shuffled[36 + (k % 4)], shuffled[k])
        if cell == (2, 4):
            tiles = (blanks[0], blanks[3], shuffled[k])
        stacks.append(KatoizStack(cell, tiles))
    discs = (
        KatoizDisc((0, 0), "orange"),
        KatoizDisc((3, 3), "orange"),
        KatoizDisc((5, 1), "purple"),
        KatoizDisc((2, 4), "purple"),
    )
    return KatoizTable(tuple(stacks), discs)


def example_kaito(seed: int = 0) -> KaitoTable:
    """A Kaito game a few moves in: the shuffled grid, the opening tiles removed, some tiles
    captured, the Kaito on an empty spot with black up."""
    rng = Rng.from_seed(seed, "view-example", "kaito")
    shuffled, rng = rng.shuffle(kaito_tiles())
    cells = [(c, r) for r in range(6) for c in range(6)]
    grid = dict(zip(cells, shuffled, strict=True))
    openings = [c for c, t in grid.items() if t.kind == "opening"]
    for c in openings:
        del grid[c]
    taken = [c for c in cells if c in grid][3:8:2]
    captured: tuple[list[KaitoTile], list[KaitoTile]] = ([], [])
    for k, c in enumerate(taken):
        captured[k % 2].append(grid.pop(c))
    return KaitoTable(
        tuple(sorted(grid.items())),
        openings[0],
        "black",
        (tuple(captured[0]), tuple(captured[1])),
    )


def example_katamino() -> KataminoTable:
    """A Penta 5 filled from the left end (slider at 5): pentominoes 2 (L), 7 (V), 4 (N) and
    5 (P), tetromino C (O) and the monomino V1 cover the 5 x 5 area (5 * 4 + 4 + 1 = 25
    cells); the rest of the set lies in front of the board."""
    placed = (
        KataminoPlacement("2", ((0, 0), (1, 0), (2, 0), (3, 0), (0, 1))),
        KataminoPlacement("7", ((4, 0), (4, 1), (4, 2), (3, 2), (2, 2))),
        KataminoPlacement("4", ((1, 1), (2, 1), (3, 1), (0, 2), (1, 2))),
        KataminoPlacement("C", ((0, 3), (1, 3), (0, 4), (1, 4))),
        KataminoPlacement("5", ((2, 3), (3, 3), (4, 3), (2, 4), (3, 4))),
        KataminoPlacement("V1", ((4, 4),)),
    )
    loose = ("3", "6", "8", "A", "B", "D", "E", "W1", "W2", "X", "Y", "V2")
    return KataminoTable((5,), placed, loose)
