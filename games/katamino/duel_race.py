"""The solving half of a duel: placements on a player's board, the sensible next placements,
held orientations (rotate, flip) and the simulated clock.

Simulated clock (docs/rules/katamino-duo.md, "The race"): a player of level L solving a puzzle
of ``n`` pieces whose solver difficulty score is ``s`` (``games.katamino.difficulty``: about
log10 of the search nodes per solution, plus up to 2 for unforced steps) needs
``T = n * HANDLE[L] + 10 ** s / RATE[L]`` seconds; each placement and each undo costs ``T / n``,
a hint ``HINT_SECS``, a rotate or flip ``TURN_SECS``. Deterministic: same puzzle, same level,
same seconds. A move typed with ``@SECS`` (a human at the real clock) costs those seconds (a
hint ``HINT_SECS`` more).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from games.katamino import Problem, Target, is_solvable, legal_orientations
from games.katamino.duel_cards import canonical, piece, score
from games.katamino.solo import placements, shifted
from games.polycubes import Cells, normalize

HANDLE = {"beginner": 6.0, "easy": 5.0, "normal": 4.0, "difficult": 3.5, "expert": 3.0}
"""Seconds to pick up and lay one piece, by level."""
RATE = {"beginner": 20.0, "easy": 30.0, "normal": 45.0, "difficult": 70.0, "expert": 110.0}
"""Search nodes a player of each level examines per second (in the solver's measure)."""
HINT_SECS = 10.0
"""Simulated cost of asking for a hint."""
TURN_SECS = 1.0
"""Simulated cost of turning a piece in the hand (rotate, flip)."""
SPEED_LEVELS = tuple(HANDLE)

Placement = tuple[str, Cells]


def solve_seconds(target: str, names: tuple[str, ...], level: str) -> float:
    """The simulated seconds a player of ``level`` needs for the whole puzzle."""
    s = score(target, names)
    s = 4.5 if s is None else s
    return round(len(names) * HANDLE[level] + 10**s / RATE[level], 3)


def step_seconds(target: str, names: tuple[str, ...], level: str) -> float:
    """The simulated seconds of one placement (or undo) in that puzzle."""
    return round(solve_seconds(target, names, level) / max(len(names), 1), 3)


# ------------------------------------------------------------------------------ geometry


@cache
def orientations(name: str, dims: int) -> tuple[Cells, ...]:
    """The legal orientations of a piece on a 2D board or in the 3D box."""
    return legal_orientations(piece(name).cells, dims, False)


def shape_key(name: str) -> tuple[str, ...]:
    """Identical copies (V1, V2) share a key."""
    return canonical((name,))


def placements_at(target: Target, free: frozenset, name: str, cell) -> list[Cells]:
    """Every placement of ``name`` on ``free`` cells that covers ``cell``."""
    out = {shifted(o, a, cell) for o in orientations(name, target.dims) for a in o}
    return sorted(cells for cells in out if all(c in free for c in cells))


def all_placements(target: Target, free: frozenset, name: str) -> list[Cells]:
    """Every placement of ``name`` on ``free`` cells (the solo family's enumeration)."""
    return placements(target, free, name, False)


def most_constrained(target: Target, free: frozenset, names: list[str]):
    """The free cell with the fewest fitting placements (reading order on ties: layer, row,
    column), or None on a full board."""
    if not free:
        return None
    fits = dict.fromkeys(free, 0)
    for name in {shape_key(n)[0] for n in names}:
        for cells in all_placements(target, free, name):
            for c in cells:
                fits[c] += 1
    return min(free, key=lambda c: (fits[c], c[2], c[1], c[0]))


@cache
def _completable(spec: str, remaining: tuple[str, ...], covered: frozenset) -> bool:
    target = Target.parse(spec)
    if not remaining:
        return len(covered) == target.size
    return is_solvable(Problem(target, [piece(n) for n in remaining], blocked=covered))


def completable(spec: str, remaining: list[str], covered) -> bool:
    """Can ``remaining`` pieces fill the cells of ``spec`` not in ``covered``?"""
    return _completable(spec, canonical(remaining), frozenset(covered))


def good_placements(spec: str, remaining: list[str], placed: tuple[Placement, ...]
                    ) -> list[Placement]:  # fmt: skip
    """The sensible next placements: those covering the most constrained empty cell after which
    the board can still be completed (one copy of identical shapes). Empty when the board is
    already stuck (or full)."""
    target = Target.parse(spec)
    covered = frozenset(c for _, cells in placed for c in cells)
    if not completable(spec, remaining, covered):
        return []
    free = frozenset(target.cell_set - covered)
    cell = most_constrained(target, free, remaining)
    if cell is None:
        return []
    out = []
    seen = set()
    for name in sorted(remaining):
        if shape_key(name) in seen:
            continue
        seen.add(shape_key(name))
        rest = list(remaining)
        rest.remove(name)
        for cells in placements_at(target, free, name, cell):
            if completable(spec, rest, covered | set(cells)):
                out.append((name, cells))
    return out


# ------------------------------------------------------------------------------ holding


def default_hold(name: str, dims: int) -> Cells:
    """The orientation a piece is picked up in: its catalogue shape, normalised."""
    return normalize(piece(name).cells)


def _turn(cells: Cells, g: np.ndarray) -> Cells:
    pts = np.asarray(cells, dtype=np.int64) @ g.T
    return normalize(tuple(tuple(int(v) for v in p) for p in pts.tolist()))


AXES = {
    "z": np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1]]),
    "x": np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]]),
    "y": np.array([[0, 0, 1], [0, 1, 0], [-1, 0, 0]]),
}
"""Quarter turns about each axis (z: on the board, clockwise as drawn with rows down)."""
MIRROR = np.array([[-1, 0, 0], [0, 1, 0], [0, 0, 1]])
"""Turning a flat piece over (left-right mirror); in 3D a half turn about x."""


def rotate(cells: Cells, axis: str = "z") -> Cells:
    """The held piece turned a quarter about ``axis``."""
    return _turn(cells, AXES[axis])


def flip(cells: Cells, dims: int) -> Cells:
    """The held piece turned over: mirrored on the board, a half turn about x in the box."""
    if dims == 2:
        return _turn(cells, MIRROR)
    return _turn(_turn(cells, AXES["x"]), AXES["x"])


def place_held(held: Cells, at) -> Cells:
    """The cells of a held piece put with its first cell (layer, row, column order) on ``at``."""
    return shifted(held, min(held, key=lambda c: (c[2], c[1], c[0])), at)
