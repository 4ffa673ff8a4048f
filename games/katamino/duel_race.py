"""The solving half of a duel: placements on a player's board, the sensible next placements,
held orientations (rotate, flip) and the two simulated clocks.

Clocks (docs/rules/katamino-duo.md, "The race"). A move that carries its own seconds costs
those: a person's real seconds (``@SECS``, stamped by the front end), or a bot's time from its
own search. A move without seconds is timed by the *level* clock, a reference player of level
L: on a puzzle of ``n`` pieces whose solver difficulty score is ``s``
(``tablesim.games.katamino.difficulty``: about log10 of the search nodes per solution, plus up to 2 for
unforced steps) it needs ``T = n * HANDLE[L] + 10 ** s / RATE[L]`` seconds, each placement
and each undo ``T / n``. The *search* clock is a bot's own: laying a piece costs ``HANDLE[L]``
and
thinking the nodes its search tried at ``RATE[L]`` nodes a second (the smart bot solves the
puzzle with the solver before its first piece: ``nodes_to_first``; see
``tablesim.games.katamino.duel_bots``). A hint costs ``HINT_SECS`` more, a rotate or flip
``TURN_SECS``. Deterministic: same puzzle, same level, same seconds.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache

import numpy as np

from tablesim.games.katamino import Problem, Target, is_solvable, legal_orientations
from tablesim.games.katamino.duel_cards import PENTAS, board, canonical, measure, piece, score
from tablesim.games.katamino.solo import placements, shifted
from tablesim.games.polycubes import Cells, normalize

HANDLE = {"beginner": 6.0, "easy": 5.0, "normal": 4.0, "difficult": 3.5, "expert": 3.0}
"""Seconds to pick up and lay one piece, by level."""
RATE = {"beginner": 20.0, "easy": 30.0, "normal": 45.0, "difficult": 70.0, "expert": 110.0}
"""Search nodes a player of each level examines per second (in the solver's measure)."""
HINT_SECS = 10.0
"""Simulated cost of asking for a hint."""
TURN_SECS = 1.0
"""Simulated cost of turning a piece in the hand (rotate, flip)."""
SPEED_LEVELS = tuple(HANDLE)


def split_speed(speed: str) -> tuple[str, str]:
    """A seat's speed ``LEVEL`` or ``HANDS/MIND``: the level it lays pieces at (HANDLE) and the
    level it thinks at (RATE). ValueError naming the levels when a part is not one."""
    parts = speed.split("/")
    if len(parts) > 2 or any(p not in HANDLE for p in parts):
        raise ValueError(f"speed {speed!r}: LEVEL or HANDS/MIND with levels {', '.join(HANDLE)}")
    return parts[0], parts[-1]


def handle_secs(speed: str, pieces: int = 1) -> float:
    """Seconds a seat of ``speed`` takes to pick up and lay ``pieces`` pieces."""
    return HANDLE[split_speed(speed)[0]] * pieces


def rate(speed: str) -> float:
    """Search nodes a second a seat of ``speed`` thinks through."""
    return RATE[split_speed(speed)[1]]


def _below(level: str) -> str:
    return SPEED_LEVELS[max(SPEED_LEVELS.index(level) - 1, 0)]


def _above(level: str) -> str:
    return SPEED_LEVELS[min(SPEED_LEVELS.index(level) + 1, len(SPEED_LEVELS) - 1)]


def default_speeds(mode: str, level: str, weaker: int = 0) -> tuple[str, str]:
    """The seats' speeds when ``--speed`` is not given (docs/rules/katamino-duo.md, measured so
    that equal bots win 40-60 % from either seat): ``child-adult``: the child (seat 0) lays
    pieces one level below ``level`` and thinks two below (``easy/beginner`` against
    ``normal``); ``handicap``: the weaker seat lays pieces one level *above* ``level`` and
    thinks two below (``expert/easy`` against ``difficult``): its replacement gives it one
    piece more to lay in every duel (n + 1 against n, n = 5..7: a HANDLE n / (n + 1) = 0.83-0.88
    times as long evens that, expert's 3.0 s against difficult's 3.5 s) and an easier puzzle
    to think through (two levels slower evens that best on the level clock). At ``expert``, where
    no hands are faster, the other seat's hands are one level slower instead (``expert/normal``
    against ``difficult/expert``). Every other seat and mode at ``level``."""
    if mode == "child-adult":
        return (f"{_below(level)}/{_below(_below(level))}", level)
    if mode == "handicap":
        slow = f"{_above(level)}/{_below(_below(level))}"
        other = level if _above(level) != level else f"{_below(level)}/{level}"
        return (slow, other) if weaker == 0 else (other, slow)
    return (level, level)


Placement = tuple[str, Cells]


def solve_seconds(target: str, names: tuple[str, ...], level: str) -> float:
    """The simulated seconds a player of ``level`` needs for the whole puzzle."""
    s = score(target, names)
    s = 4.5 if s is None else s
    return round(handle_secs(level, len(names)) + 10**s / rate(level), 3)


def step_seconds(target: str, names: tuple[str, ...], level: str) -> float:
    """The simulated seconds of one placement (or undo) in that puzzle."""
    return round(solve_seconds(target, names, level) / max(len(names), 1), 3)


def think_seconds(nodes: int, level: str) -> float:
    """Seconds a player of ``level`` spends trying ``nodes`` search nodes (search clock)."""
    return nodes / rate(level)


def search_seconds(target: str, names: Sequence[str], level: str) -> float:
    """The search clock's seconds for a whole puzzle solved by the smart bot: every piece
    laid, and the solver's nodes to its first solution thought through."""
    d = measure(target, names)
    return handle_secs(level, len(tuple(names))) + think_seconds(d.nodes_to_first, level)


MAX_RATIO = 1.5
"""A card side is balanced when, on each clock, one seat's expected game takes at most this
many times the other's (the issue's bound: "within 1.5x of each other at equal speed")."""

MODELS = {"level": solve_seconds, "search": search_seconds}
"""The clocks a card's balance is judged by: the reference player and the searching bot."""


def duel_seconds(half: Sequence[str], start: int, duels: int, table: Sequence[str],
                 level: str, model: str) -> list[float]:  # fmt: skip
    """Expected seconds one seat needs for each duel (Penta start + k): the mean over every
    reachable set of k table pentaminos."""
    clock = MODELS[model]
    out = []
    for k in range(duels):
        times = [clock(board(start + k), (*half, *extra), level)
                 for extra in itertools.combinations(sorted(table), k)]  # fmt: skip
        out.append(sum(times) / len(times))
    return out


def game_seconds(half: Sequence[str], start: int, duels: int, table: Sequence[str],
                 level: str, model: str) -> float:  # fmt: skip
    """Expected seconds one seat needs for a whole game: :func:`duel_seconds` summed."""
    return sum(duel_seconds(half, start, duels, table, level, model))


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
    return normalize(tuple((int(p[0]), int(p[1]), int(p[2])) for p in pts.tolist()))


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


def side_seconds(halves: Sequence[Sequence[str]], start: tuple[int, int], duels: int,
                 speeds: tuple[str, str]) -> dict[str, tuple[float, float]]:  # fmt: skip
    """Each clock's expected game seconds for both seats of a card side (the table holds the
    pentaminos on neither half), rounded to 0.1 s."""
    used = {n for h in halves for n in h}
    table = tuple(n for n in PENTAS if n not in used)
    return {
        model: (
            round(game_seconds(halves[0], start[0], duels, table, speeds[0], model), 1),
            round(game_seconds(halves[1], start[1], duels, table, speeds[1], model), 1),
        )
        for model in MODELS
    }


def balanced(seconds: dict[str, tuple[float, float]]) -> bool:
    """Within :data:`MAX_RATIO` on every clock."""
    return all(max(a, b) <= MAX_RATIO * min(a, b) for a, b in seconds.values())
