"""Partial boards drawn as text: the board's grid where ``.`` (or ``#``) is an empty cell, a
space, ``-`` or ``_`` is no cell, and any other character is a cell covered by a placed piece
with that label (its first character). Layers bottom first, separated by blank lines."""

from __future__ import annotations

import itertools

from tablesim.games.katamino.errors import SolverError
from tablesim.games.katamino.problem import Problem
from tablesim.games.katamino.solver import PlacedPiece, solve_one
from tablesim.games.katamino.target import EMPTY_CHARS, Target, split_layers
from tablesim.games.polycubes import Piece


def parse_partial(text: str, problem: Problem, where: str = "partial") -> list[PlacedPiece]:
    """The pieces already placed, read from ``text`` drawn over ``problem``'s target.

    Cells with the same character that touch form one region; a region is one unused piece of
    that label, or several when it is exactly covered by unused pieces of that label (two
    touching monominoes ``V``). The drawn cells (empty and covered) must be the target's.
    """
    drawn: dict[tuple[int, int, int], str] = {}
    for z, layer in enumerate(split_layers(text)):
        for y, (_lineno, line) in enumerate(layer):
            for x, ch in enumerate(line):
                if ch not in EMPTY_CHARS:
                    drawn[(x, y, z)] = ch
    if not drawn:
        raise SolverError(f"{where}: no cells drawn")
    mins = [min(c[k] for c in drawn) for k in range(3)]
    drawn = {(x - mins[0], y - mins[1], z - mins[2]): ch for (x, y, z), ch in drawn.items()}
    target = problem.target
    if set(drawn) != target.cell_set:
        extra = sorted(set(drawn) - target.cell_set)[:3]
        missing = sorted(target.cell_set - set(drawn))[:3]
        raise SolverError(
            f"{where}: its cells do not match the board {target.describe()} "
            f"(extra {extra}, missing {missing}; x = column, y = row, z = layer)"
        )
    unused: list[Piece] = list(problem.pieces)
    placed: list[PlacedPiece] = []
    seen: set = set()
    for c in sorted(drawn, key=lambda c: (c[2], c[1], c[0])):
        ch = drawn[c]
        if c in seen or ch in ".#":
            continue
        region = _region(drawn, c)
        seen |= region
        pieces = _cover_region(region, ch, unused, problem, where)
        for pp in pieces:
            unused.remove(next(q for q in unused if q.name == pp.name))
        placed.extend(pieces)
    return placed


def _region(drawn: dict, start: tuple[int, int, int]) -> set:
    ch = drawn[start]
    out = {start}
    stack = [start]
    while stack:
        x, y, z = stack.pop()
        for n in ((x + 1, y, z), (x - 1, y, z), (x, y + 1, z), (x, y - 1, z), (x, y, z + 1),
                  (x, y, z - 1)):  # fmt: skip
            if n not in out and drawn.get(n) == ch:
                out.add(n)
                stack.append(n)
    return out


def _cover_region(region: set, ch: str, unused: list[Piece], problem: Problem,
                  where: str) -> list[PlacedPiece]:  # fmt: skip
    cands = [p for p in unused if (p.label or p.name)[:1] == ch]
    if not cands:
        raise SolverError(
            f"{where}: cells labelled {ch!r} at {sorted(region)[:3]} match no unused piece "
            f"(labels left: {''.join(sorted({(p.label or p.name)[:1] for p in unused}))})"
        )
    mins = [min(c[k] for c in region) for k in range(3)]
    sub_target = Target.from_cells(region, dims=problem.target.dims)
    for k in range(1, len(cands) + 1):
        for combo in itertools.combinations(cands, k):
            if sum(p.size for p in combo) != len(region):
                continue
            sol = solve_one(Problem(sub_target, combo,
                                    straight_horizontal=problem.straight_horizontal))  # fmt: skip
            if sol is None:
                continue
            return [
                PlacedPiece(pp.name, pp.label, tuple(sorted(
                    (x + mins[0], y + mins[1], z + mins[2]) for x, y, z in pp.cells)))
                for pp in sol.pieces
            ]  # fmt: skip
    raise SolverError(
        f"{where}: the {len(region)} cells labelled {ch!r} at {sorted(region)[:3]} are not "
        f"a legal placement of the unused pieces labelled {ch!r}"
    )
