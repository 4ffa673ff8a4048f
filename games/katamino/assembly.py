"""Assembly orders a hand can follow for a 3D Katamino solution (pure).

A solution says which cells each piece covers; a hand must also put the pieces in one by one.
An *assembly order* is a sequence of the solution's pieces in which every piece

1. goes **straight down** into place: no piece already placed has a cell above any of its
   cells (the column over each of its cubes is empty of placed pieces);
2. **rests**: at least one of its cubes is on the table (z = 0) or directly on a placed cube;
3. is **supported** by a pure static test: the centre of mass of the piece, seen from above,
   lies inside the convex hull of the unit squares it rests on, by at least ``margin`` edges;
4. leaves a partial structure that the optional ``judge`` accepts (``tablesim.sim.assembly`` passes a
   physics verdict, so "every partial structure stands" is measured, not guessed).

:func:`find_assembly` searches the orders depth-first (pieces tried lowest first, then by
label), remembering the sets of placed pieces that led nowhere, and says when no order exists.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from tablesim.games.katamino.errors import SolverError
from tablesim.games.katamino.solver import PlacedPiece, Solution

Judge = Callable[[Sequence[PlacedPiece]], bool]
"""``judge(placed)`` -> True when the partial structure ``placed`` (in order) stands."""

SUPPORT_MARGIN = 0.1
"""Default margin (edges; 1.9 mm at 19 mm cubes) of the pure support test."""


@dataclass(frozen=True)
class Step:
    """One step of an order: the ``piece``, what it ``rests_on`` (labels, ``table``) and its
    support ``margin`` (edges, from the pure test)."""

    piece: PlacedPiece
    rests_on: tuple[str, ...]
    margin: float

    def to_dict(self) -> dict:
        """JSON-ready form."""
        return {**self.piece.to_dict(), "rests_on": list(self.rests_on),
                "margin": round(self.margin, 4)}  # fmt: skip


@dataclass(frozen=True)
class AssemblyPlan:
    """The answer of :func:`find_assembly`: ``found``; ``steps`` in order (empty when none);
    ``reason`` (why no order exists, or ``""``); ``nodes`` (partial orders tried);
    ``judged`` (judge calls)."""

    found: bool
    steps: tuple[Step, ...] = ()
    reason: str = ""
    nodes: int = 0
    judged: int = 0
    blocked: dict[str, str] = field(default_factory=dict)

    @property
    def order(self) -> tuple[PlacedPiece, ...]:
        """The pieces in assembly order."""
        return tuple(s.piece for s in self.steps)

    def to_dict(self) -> dict:
        """JSON-ready form."""
        return {
            "found": self.found,
            "order": [s.to_dict() for s in self.steps],
            "reason": self.reason,
            "nodes": self.nodes,
            "judged": self.judged,
        }


def path_clear(piece: PlacedPiece, occupied: set[tuple[int, int, int]], top: int) -> bool:
    """True when nothing in ``occupied`` lies above any cube of ``piece`` (up to ``top``)."""
    own = set(piece.cells)
    for x, y, z in piece.cells:
        for w in range(z + 1, top + 1):
            if (x, y, w) in occupied and (x, y, w) not in own:
                return False
    return True


def _hull(points: np.ndarray) -> np.ndarray:
    """Convex hull (counter-clockwise) of 2D points, monotone chain."""
    pts = sorted(set(map(tuple, points.tolist())))
    if len(pts) <= 2:
        return np.asarray(pts, float)

    def cross(o, a, b) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return np.asarray(lower[:-1] + upper[:-1], float)


def inside_margin(point: Sequence[float], hull: np.ndarray) -> float:
    """Signed distance of ``point`` to the boundary of a convex polygon (positive inside)."""
    q = np.asarray(point, float)
    best = np.inf
    n = len(hull)
    for i in range(n):
        a, b = hull[i], hull[(i + 1) % n]
        edge = b - a
        normal = np.array([edge[1], -edge[0]]) / np.linalg.norm(edge)  # outward for CCW
        best = min(best, float(np.dot(a - q, normal)))
    return best


def support(
    piece: PlacedPiece, owner: dict[tuple[int, int, int], str]
) -> tuple[tuple[str, ...], float]:
    """What the piece rests on (labels of placed pieces, ``table``) and its support margin:
    the distance (edges) by which its centre of mass, seen from above, lies inside the convex
    hull of the unit squares it rests on (negative outside; -inf when it rests on nothing)."""
    on: set[str] = set()
    corners = []
    for x, y, z in piece.cells:
        below = (x, y, z - 1)
        if z == 0 or below in owner:
            on.add("table" if z == 0 else owner[below])
            corners.extend([(x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1)])
    if not corners:
        return (), -np.inf
    com = np.asarray(piece.cells, float)[:, :2].mean(axis=0) + 0.5
    return tuple(sorted(on)), inside_margin(com, _hull(np.asarray(corners, float)))


def find_assembly(
    solution: Solution,
    *,
    judge: Judge | None = None,
    margin: float = SUPPORT_MARGIN,
    max_nodes: int = 200_000,
) -> AssemblyPlan:
    """Find an order in which the pieces of a 3D ``solution`` can be put down by hand (see the
    module docstring); ``found=False`` with the reason when there is none. Deterministic."""
    pieces = list(solution.pieces)
    if not pieces:
        raise SolverError("assembly: the solution has no pieces")
    if len({p.label + p.name for p in pieces}) != len(pieces):
        pieces = [PlacedPiece(p.name, p.label, p.cells) for p in pieces]
    ids = [f"{p.name}" for p in pieces]
    if len(set(ids)) != len(ids):
        raise SolverError("assembly: piece names must be unique within a solution")
    top = max(z for p in pieces for _, _, z in p.cells)
    order_key = sorted(range(len(pieces)), key=lambda i: (min(c[2] for c in pieces[i].cells),
                                                          pieces[i].name))  # fmt: skip
    dead: set[frozenset[int]] = set()
    fallen: set[frozenset[int]] = set()  # partial structures the judge saw fall
    counters = {"nodes": 0, "judged": 0, "fails": 0, "unwind": -1}
    blocked: dict[str, str] = {}

    def judged_ok(placed: list[int]) -> bool:
        """Judge every prefix of a complete order (the judge is costly: it is asked only about
        orders that pass the pure tests; what fell is remembered as a dead set)."""
        if judge is None:
            return True
        for k in range(1, len(placed) + 1):
            key = frozenset(placed[:k])
            if key in fallen:
                return False
            if key in judged:
                continue
            counters["judged"] += 1
            if not judge([pieces[j] for j in placed[:k]]):
                fallen.add(key)
                counters["fails"] += 1
                counters["unwind"] = k  # back to the level where piece k was chosen
                blocked.setdefault(pieces[placed[k - 1]].name,
                                   "the judge saw the partial structure fall")  # fmt: skip
                return False
            judged.add(key)
        return True

    judged: set[frozenset[int]] = set()

    def dfs(placed: list[int], steps: list[Step]) -> list[Step] | None:
        if len(placed) == len(pieces):
            return steps if judged_ok(placed) else None
        key = frozenset(placed)
        if key in dead or key in fallen or counters["nodes"] >= max_nodes:
            return None
        counters["nodes"] += 1
        fails = counters["fails"]
        occupied = {c for i in placed for c in pieces[i].cells}
        owner = {c: pieces[i].name for i in placed for c in pieces[i].cells}
        for i in order_key:
            if i in key:
                continue
            p = pieces[i]
            if not path_clear(p, occupied, top):
                blocked.setdefault(p.name, "a placed piece is above it")
                continue
            rests_on, m = support(p, owner)
            if not rests_on:
                blocked.setdefault(p.name, "nothing below it yet")
                continue
            if m < margin:
                blocked.setdefault(p.name, f"its centre of mass is {m:.2f} edges from support")
                continue
            found = dfs(placed + [i], steps + [Step(p, rests_on, m)])
            if found is not None:
                return found
            if counters["unwind"] >= 0:
                if len(placed) >= counters["unwind"]:
                    return None  # a prefix of this path fell: leave the whole branch
                counters["unwind"] = -1
        # A dead set is one no completion can follow whatever the path to it; a judge failure
        # below was about a prefix of *this* path, so it does not make the set dead.
        if counters["nodes"] < max_nodes and counters["fails"] == fails:
            dead.add(key)
        return None

    steps = dfs([], [])
    if steps is not None:
        return AssemblyPlan(True, tuple(steps), "", counters["nodes"], counters["judged"])
    if counters["nodes"] >= max_nodes:
        reason = f"search stopped after {max_nodes} partial orders"
    else:
        why = "; ".join(f"{k}: {v}" for k, v in sorted(blocked.items()))
        reason = "no order puts every piece straight down onto a standing structure" + (
            f" (first obstacles: {why})" if why else ""
        )
    return AssemblyPlan(False, (), reason, counters["nodes"], counters["judged"], blocked)


@dataclass(frozen=True)
class SearchResult:
    """:func:`first_assemblable`: the ``solution`` and ``plan`` found (None, and the last
    plan, when none of the ``tried`` solutions has an order)."""

    solution: Solution | None
    plan: AssemblyPlan | None
    tried: int


def first_assemblable(
    target: object,
    pieces: object,
    *,
    judge: Judge | None = None,
    limit: int = 500,
    margin: float = SUPPORT_MARGIN,
) -> SearchResult:
    """The first solution (in the solver's order, at most ``limit`` tried) that has an assembly
    order, with its plan. Many box solutions interlock (a piece holds cubes above and below
    another's), so several are usually tried. All solutions are enumerated, not one per
    symmetry class: a mirror image keeps its order, but turning a box upside down does not,
    and the solver's distinct filter is slow on the larger boxes (minutes for 3x3x6)."""
    from tablesim.games.katamino.solver import enumerate_solutions

    last: AssemblyPlan | None = None
    tried = 0
    for sol in enumerate_solutions(target, pieces, limit=limit):
        tried += 1
        last = find_assembly(sol, judge=judge, margin=margin)
        if last.found:
            return SearchResult(sol, last, tried)
    return SearchResult(None, last, tried)
