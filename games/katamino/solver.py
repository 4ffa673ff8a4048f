"""The solver's public API: count, find, enumerate, count distinct, hints, difficulty.

Every function takes a target (a ``Target`` or a spec such as ``"5x8"`` / ``"2x3x5"``) and
pieces (a spec such as ``"pentominoes:LNPU"`` or a sequence of ``tablesim.games.polycubes.Piece``), or
a prebuilt ``Problem`` alone. Options: ``straight_horizontal`` (the Katamino rule: a straight
piece lies along the board's length; off the vertical in 3D) and ``backend`` (``"auto"``,
``"numba"``, ``"python"``; see ``tablesim.games.katamino.search``). Results are frozen dataclasses with
``to_dict()`` for JSON. See docs/katamino-solver.md.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tablesim.games.katamino import search
from tablesim.games.katamino.errors import SolverError
from tablesim.games.katamino.problem import Problem
from tablesim.games.katamino.target import Target
from tablesim.games.polycubes import Cells, Piece

# ------------------------------------------------------------------------------ results


@dataclass(frozen=True)
class PlacedPiece:
    """One piece on the target: its catalogue ``name`` and ``label`` and the cells it covers."""

    name: str
    label: str
    cells: Cells

    def to_dict(self) -> dict:
        """JSON-ready form."""
        return {"name": self.name, "label": self.label, "cells": [list(c) for c in self.cells]}


@dataclass(frozen=True)
class Solution:
    """A full arrangement: one ``PlacedPiece`` per piece, in the order the pieces were given."""

    pieces: tuple[PlacedPiece, ...]

    def to_dict(self) -> dict:
        """JSON-ready form."""
        return {"pieces": [p.to_dict() for p in self.pieces]}


@dataclass(frozen=True)
class CountResult:
    """A count: ``count`` solutions in total; ``distinct`` up to the ``group_order`` symmetries
    that keep the rules (None when not asked); ``nodes`` searched; ``backend`` used."""

    count: int
    nodes: int
    backend: str
    distinct: int | None = None
    group_order: int | None = None

    def to_dict(self) -> dict:
        """JSON-ready form."""
        d = {"count": self.count, "nodes": self.nodes, "backend": self.backend}
        if self.distinct is not None:
            d["distinct"] = self.distinct
            d["group_order"] = self.group_order
        return d


@dataclass(frozen=True)
class Hint:
    """Advice on a partial board: ``solvable`` says whether it can still be completed;
    ``placement`` is one next piece that keeps it solvable (None when unsolvable or complete);
    ``completions`` counts the ways to finish; ``culprits`` names placed pieces whose removal
    alone makes an unsolvable board solvable again."""

    solvable: bool
    placement: PlacedPiece | None
    completions: int
    culprits: tuple[str, ...] = ()
    reason: str = ""

    def to_dict(self) -> dict:
        """JSON-ready form."""
        return {
            "solvable": self.solvable,
            "placement": self.placement.to_dict() if self.placement else None,
            "completions": self.completions,
            "culprits": list(self.culprits),
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Difficulty:
    """Measured difficulty of a puzzle (see docs/katamino-solver.md for the formula).

    ``solutions`` total arrangements; ``nodes`` search nodes of the full count;
    ``nodes_to_first`` nodes before the first solution; ``forced_moves`` steps of the first
    solution where the most constrained empty cell had one fitting placement; ``steps`` pieces
    placed; ``score`` = log10(nodes per solution) + 2 * (1 - forced_moves / steps), None for
    an unsolvable puzzle, whose ``level`` is ``"impossible"``."""

    solutions: int
    nodes: int
    nodes_to_first: int
    forced_moves: int
    steps: int
    score: float | None
    level: str

    def to_dict(self) -> dict:
        """JSON-ready form."""
        return {
            "solutions": self.solutions,
            "nodes": self.nodes,
            "nodes_to_first": self.nodes_to_first,
            "forced_moves": self.forced_moves,
            "steps": self.steps,
            "score": None if self.score is None else round(self.score, 3),
            "level": self.level,
        }


LEVELS = (("beginner", 2.0), ("easy", 2.6), ("normal", 3.1), ("difficult", 3.6))
"""Score thresholds (upper bounds); above the last: ``expert``. Calibrated on the 26 solvable
Katamino Duo pentomino puzzles 5x3..5x7 (straight rule on): Penta 3 scores 1.6-2.5, Penta 4
2.4-3.4, Penta 5 2.7-3.6, Penta 6 3.3-4.2, Penta 7 3.5 (docs/katamino-solver.md)."""

# ------------------------------------------------------------------------------ building


def make_problem(
    target: Target | str | Problem,
    pieces: str | Sequence[Piece] | None = None,
    *,
    straight_horizontal: bool = False,
) -> Problem:
    """Build (or pass through) a ``Problem``."""
    if isinstance(target, Problem):
        if pieces is not None:
            raise SolverError("give either a Problem or a target and pieces, not both")
        return target
    if pieces is None:
        raise SolverError("pieces are required with a target")
    if isinstance(target, str):
        target = Target.parse(target)
    return Problem(target, pieces, straight_horizontal=straight_horizontal)


def _root_type(problem: Problem) -> int | None:
    """The single-copy type with the fewest placements (branched on first), if any."""
    best = None
    for t in problem.types:
        if t.count != 1:
            continue
        n = len(problem.placements_of(t.index))
        if best is None or n < best[0]:
            best = (n, t.index)
    return None if best is None or problem.n_pieces < 2 else best[1]


def _roots(problem: Problem) -> list[int] | None:
    t = _root_type(problem)
    return None if t is None else problem.placements_of(t)


def to_solution(problem: Problem, row: Sequence[int]) -> Solution:
    """Turn placement ids into a ``Solution``; identical copies are assigned in cell order."""
    by_type: dict[int, list[Cells]] = {}
    for pid in row:
        by_type.setdefault(problem.ptypes[pid], []).append(problem.cells_of(problem.masks[pid]))
    for v in by_type.values():
        v.sort()
    out: list[PlacedPiece | None] = [None] * len(problem.pieces)
    for t in problem.types:
        slots = [k for k, ti in enumerate(problem.piece_types) if ti == t.index]
        for k, cells in zip(slots, by_type.get(t.index, []), strict=False):
            pc = problem.pieces[k]
            out[k] = PlacedPiece(pc.name, pc.label, cells)
    order = [pp for pp in out if pp is not None]
    return Solution(tuple(order))


# ------------------------------------------------------------------------------ counting


def solve_count(target, pieces=None, *, straight_horizontal: bool = False,
                backend: str | None = None, hole: bool = False) -> CountResult:  # fmt: skip
    """Count every solution (identical pieces counted once per arrangement). ``hole`` turns
    on the kernel's walled-in-cell cut (same count, fewer nodes; see ``search.Search``).

    When the problem has symmetries, only one placement per orbit of a symmetric single-copy
    piece is searched and its completions are multiplied by the orbit size (a symmetry maps the
    completions of one placement one-to-one onto those of its image).
    """
    p = make_problem(target, pieces, straight_horizontal=straight_horizontal)
    plan = _symmetry_plan(p)
    if plan is None:
        s = search.Search(p, backend=backend, roots=_roots(p), hole=hole)
        s.run()
        return CountResult(s.solutions, s.nodes, s.backend)
    total = nodes = 0
    used = ""
    for pid, orbit, _stab in plan:
        s = search.Search(p, backend=backend, roots=[pid], hole=hole)
        s.run()
        total += orbit * s.solutions
        nodes += s.nodes
        used = s.backend
    return CountResult(total, nodes, used or search.resolve_backend(backend, p.nbits, len(p.types)))


def _symmetry_plan(problem: Problem) -> list[tuple[int, int, list[tuple[int, ...]]]] | None:
    """Orbit representatives of the best symmetry-breaking piece: ``(placement id, orbit size,
    stabiliser as placement permutations)`` each; None without symmetries or such a piece.

    The piece must be single-copy and mapped to itself by every kept symmetry. Best: fewest
    representatives with a non-trivial stabiliser, then fewest representatives. Within an
    orbit the representative is the placement met first by the search (lowest id).
    """
    group = problem.symmetry_group
    if len(group) == 1 or not problem.area_matches or problem.n_pieces < 2:
        return None
    perms = _perms(problem)
    best = None
    for t in problem.types:
        if t.count != 1 or any(tmap[t.index] != t.index for _, tmap in group):
            continue
        seen: set[int] = set()
        reps = []
        for pid in problem.placements_of(t.index):
            if pid in seen:
                continue
            orbit = {perm[pid] for perm in perms}
            seen |= orbit
            reps.append((pid, len(orbit), [perm for perm in perms if perm[pid] == pid]))
        key = (sum(1 for r in reps if len(r[2]) > 1), len(reps), t.index)
        if best is None or key < best[0]:
            best = (key, reps)
    return None if best is None else best[1]


def solve_one(target, pieces=None, *, straight_horizontal: bool = False,
              backend: str | None = None) -> Solution | None:  # fmt: skip
    """The first solution in search order, or None."""
    p = make_problem(target, pieces, straight_horizontal=straight_horizontal)
    s = search.Search(p, backend=backend, roots=_roots(p))
    rows = s.run(max_rows=1, stop_after=1)
    return to_solution(p, rows[0]) if rows else None


def is_solvable(target, pieces=None, *, straight_horizontal: bool = False,
                backend: str | None = None) -> bool:  # fmt: skip
    """True when at least one solution exists."""
    return solve_one(target, pieces, straight_horizontal=straight_horizontal,
                     backend=backend) is not None  # fmt: skip


def enumerate_solutions(target, pieces=None, *, straight_horizontal: bool = False,
                        distinct: bool = False, limit: int | None = None,
                        backend: str | None = None) -> Iterator[Solution]:  # fmt: skip
    """Yield solutions lazily in search order (at most ``limit``). With ``distinct``, only one
    per symmetry class: the one whose placement ids are smallest among its images."""
    p = make_problem(target, pieces, straight_horizontal=straight_horizontal)
    if limit is not None and (isinstance(limit, bool) or limit < 0):
        raise SolverError(f"limit must be a non-negative integer, got {limit!r}")
    perms = _perms(p) if distinct else None
    n = 0
    for row in search.iter_rows(p, backend=backend, roots=_roots(p)):
        if limit is not None and n >= limit:
            return
        if perms is not None:
            key = tuple(sorted(row))
            if any(tuple(sorted(perm[i] for i in row)) < key for perm in perms[1:]):
                continue
        n += 1
        yield to_solution(p, row)


def _perms(problem: Problem) -> list[tuple[int, ...]]:
    """Each kept symmetry as a permutation of placement ids (identity first)."""
    return [problem.placement_perm(g, tmap) for g, tmap in problem.symmetry_group]


def _count_canonical(s: search.Search, perms: list[tuple[int, ...]]) -> int:
    """Run ``s`` to the end; count the solutions that are the smallest member of their class
    under ``perms`` (sorted placement ids compared): one per class, nothing stored."""
    n = 0
    while not s.finished:
        for row in s.run(max_rows=1024):
            key = tuple(sorted(row))
            n += all(tuple(sorted(perm[i] for i in row)) >= key for perm in perms)
    return n


def count_distinct(target, pieces=None, *, straight_horizontal: bool = False,
                   backend: str | None = None, hole: bool = False) -> CountResult:  # fmt: skip
    """Count solutions in total and up to the symmetries of the target that keep the rules
    (``hole``: as in :func:`solve_count`).

    Symmetry breaking (see ``_symmetry_plan``): a symmetric single-copy piece is fixed to one
    representative of each orbit of its placements. A representative fixed by no symmetry
    counts its completions directly (each class has exactly one member there); one fixed by a
    subgroup H has its completions enumerated and counted up to H. Without such a piece, every
    solution is enumerated and counted up to the group.
    """
    p = make_problem(target, pieces, straight_horizontal=straight_horizontal)
    order = len(p.symmetry_group)
    plan = _symmetry_plan(p)
    if plan is None:
        if order == 1:
            res = solve_count(p, backend=backend, hole=hole)
            return CountResult(res.count, res.nodes, res.backend, res.count, order)
        s = search.Search(p, backend=backend, roots=_roots(p), hole=hole)
        distinct = _count_canonical(s, _perms(p))
        return CountResult(s.solutions, s.nodes, s.backend, distinct, order)
    total = distinct = nodes = 0
    used = search.resolve_backend(backend, p.nbits, len(p.types))
    for pid, orbit, stab in plan:
        s = search.Search(p, backend=backend, roots=[pid], hole=hole)
        if len(stab) == 1:
            s.run()
            distinct += s.solutions
        else:
            distinct += _count_canonical(s, stab)
        total += orbit * s.solutions
        nodes += s.nodes
    return CountResult(total, nodes, used, distinct, order)


# ------------------------------------------------------------------------------ partial boards


def partial_problem(problem: Problem, placed: Sequence[PlacedPiece]) -> Problem:
    """The problem left once ``placed`` pieces are on the board: their cells blocked, their
    pieces removed. Each placed piece must be an unused piece of the multiset (by name, else by
    label), in a legal orientation, inside the target and not overlapping another."""
    remaining = list(problem.pieces)
    covered: set = set()
    type_of = {id(pc): t for t in problem.types for pc in t.pieces}
    for k, pp in enumerate(placed):
        match = next((q for q in remaining if q.name == pp.name), None) or next(
            (q for q in remaining if q.label == pp.label), None
        )
        if match is None:
            raise SolverError(
                f"placed piece {k} ({pp.name!r}): no unused piece of that name or label left"
            )
        cells = tuple(sorted(tuple(c) for c in pp.cells))
        outside = [c for c in cells if c not in problem.target.cell_set]
        if outside:
            raise SolverError(f"placed piece {pp.name!r}: cells {outside[:3]} are off the target")
        overlap = [c for c in cells if c in covered]
        if overlap:
            raise SolverError(f"placed piece {pp.name!r}: cells {overlap[:3]} already covered")
        t = type_of[id(match)]
        mins = [min(c[i] for c in cells) for i in range(3)]
        norm = tuple(sorted(tuple(c[i] - mins[i] for i in range(3)) for c in cells))
        if norm not in t.orientations:
            raise SolverError(
                f"placed piece {pp.name!r}: cells {list(cells)} are not a legal placement of "
                f"that piece" + (" (straight pieces lie horizontally)" if
                                  problem.straight_horizontal else "")
            )  # fmt: skip
        remaining.remove(match)
        covered.update(cells)
    return Problem(problem.target, tuple(remaining),
                   straight_horizontal=problem.straight_horizontal, blocked=covered)  # fmt: skip


def hint(target, pieces=None, placed: Sequence[PlacedPiece] = (), *,
         straight_horizontal: bool = False, backend: str | None = None) -> Hint:  # fmt: skip
    """Is the partial board still solvable, and one next placement that keeps it solvable.

    The hinted piece is the one a completion puts on the most constrained empty cell (fewest
    fitting placements; ties broken by reading order), so it is the move a player is most
    likely to be stuck on. ``culprits`` lists placed pieces whose removal alone restores
    solvability when the board is stuck.
    """
    base = make_problem(target, pieces, straight_horizontal=straight_horizontal)
    sub = partial_problem(base, placed)
    if not sub.area_matches:
        return Hint(False, None, 0, (), "the remaining pieces do not cover the empty cells")
    total = solve_count(sub, backend=backend)
    if total.count == 0:
        culprits = []
        for k, pp in enumerate(placed):
            rest = [q for j, q in enumerate(placed) if j != k]
            if is_solvable(partial_problem(base, rest), backend=backend):
                culprits.append(pp.name)
        return Hint(False, None, 0, tuple(culprits), "no completion exists")
    if sub.n_pieces == 0:
        return Hint(True, None, 1, (), "the board is complete")
    row = search.Search(sub, backend=backend, roots=_roots(sub)).run(max_rows=1, stop_after=1)[0]
    sol = to_solution(sub, row)
    cell, _n = _most_constrained(sub, sub.start, sub.counts())
    chosen = next(pp for pp in sol.pieces if cell in pp.cells)
    return Hint(True, chosen, total.count, (), "")


def _most_constrained(problem: Problem, board: int, counts: list[int]):
    """The empty cell with the fewest fitting placements (reading order on ties: layer, row,
    column) and that number; None on a full board."""
    fits: dict[int, int] = {}
    for pid, m in enumerate(problem.masks):
        if counts[problem.ptypes[pid]] <= 0 or m & board:
            continue
        while m:
            low = m & -m
            b = low.bit_length() - 1
            fits[b] = fits.get(b, 0) + 1
            m ^= low
    empty = []
    free = problem.full & ~board
    while free:
        low = free & -free
        b = low.bit_length() - 1
        c = problem.cell_of_bit(b)
        empty.append((fits.get(b, 0), (c[2], c[1], c[0]), c))
        free ^= low
    if not empty:
        return None
    n, _, cell = min(empty)
    return cell, n


# ------------------------------------------------------------------------------ difficulty


def difficulty(target, pieces=None, *, straight_horizontal: bool = False,
               backend: str | None = None) -> Difficulty:  # fmt: skip
    """Measure how hard a puzzle is (deterministic: same input, same figures).

    Features: total solutions and search nodes (rootless search, so the tree is the plain
    lowest-empty-cell tree), nodes to the first solution, and forced moves along the first
    solution (placed in order of the most constrained cell). ``score`` combines dead ends per
    solution and the share of unforced steps; ``level`` maps it to the rulebook's colours.
    """
    p = make_problem(target, pieces, straight_horizontal=straight_horizontal)
    full = search.Search(p, backend=backend, roots=_roots(p))
    full.run()
    if full.solutions == 0:
        return Difficulty(0, full.nodes, full.nodes, 0, p.n_pieces, None, "impossible")
    first = search.Search(p, backend=backend, roots=_roots(p))
    row = first.run(max_rows=1, stop_after=1)[0]
    board = p.start
    counts = p.counts()
    left = list(row)
    forced = 0
    while left:
        cell, n = _most_constrained(p, board, counts)
        forced += n == 1
        bit = p.bit(cell)
        pid = next(i for i in left if p.masks[i] >> bit & 1)
        left.remove(pid)
        board |= p.masks[pid]
        counts[p.ptypes[pid]] -= 1
    steps = len(row)
    score = math.log10(full.nodes / full.solutions) + 2.0 * (1 - forced / max(steps, 1))
    level = next((name for name, top in LEVELS if score <= top), "expert")
    return Difficulty(full.solutions, full.nodes, first.nodes, forced, steps, score, level)


__all__ = [
    "CountResult",
    "Difficulty",
    "Hint",
    "PlacedPiece",
    "Solution",
    "count_distinct",
    "difficulty",
    "enumerate_solutions",
    "hint",
    "is_solvable",
    "make_problem",
    "partial_problem",
    "solve_count",
    "solve_one",
    "to_solution",
    "LEVELS",
]
