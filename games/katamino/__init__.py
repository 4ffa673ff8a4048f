"""Katamino: the game (solo puzzles and their 3D, construction, picture and traditional modes,
the Duo duel) and its solver: exact cover of 2D boards and 3D voxel targets by a multiset of
polyominoes and polycubes, with exact symmetry counts, hints and a measured difficulty.

Pure (no physics, meshes or rendering imports). The compiled backend is linked (llvmlite) only
when a search first runs with it, numba imported only to build it once; a pure-Python kernel
gives the same answers for any size.
Documented in docs/katamino-solver.md.
"""

from tablesim.games.katamino.errors import SolverError
from tablesim.games.katamino.pieces import parse_pieces
from tablesim.games.katamino.problem import PieceType, Problem, is_straight, legal_orientations
from tablesim.games.katamino.solver import (
    LEVELS,
    CountResult,
    Difficulty,
    Hint,
    PlacedPiece,
    Solution,
    count_distinct,
    difficulty,
    enumerate_solutions,
    hint,
    is_solvable,
    make_problem,
    partial_problem,
    solve_count,
    solve_one,
)
from tablesim.games.katamino.target import Target

__all__ = [
    "LEVELS",
    "CountResult",
    "Difficulty",
    "Hint",
    "PieceType",
    "PlacedPiece",
    "Problem",
    "Solution",
    "SolverError",
    "Target",
    "count_distinct",
    "difficulty",
    "enumerate_solutions",
    "hint",
    "is_solvable",
    "is_straight",
    "legal_orientations",
    "make_problem",
    "parse_pieces",
    "partial_problem",
    "solve_count",
    "solve_one",
]
