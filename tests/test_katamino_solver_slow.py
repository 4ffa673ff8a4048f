"""Slow Katamino solver cases (``pytest -m slow``): larger published counts and the pure-Python
fallback on a full-size board."""

from __future__ import annotations

import pytest

from tablesim.games.katamino import Target, count_distinct, solve_count
from tablesim.games.polycubes import Piece

pytestmark = pytest.mark.slow


def test_8x8_with_the_square_tetromino_16146_distinct() -> None:
    # Scott's problem: the 12 pentominoes and a 2x2 square in the 8x8, 16146 ways up to the 8
    # symmetries of the square (published count); none is symmetric, so 8 x 16146 in total.
    res = count_distinct("8x8", "pentominoes+tetrominoes:O")
    assert (res.distinct, res.group_order, res.count) == (16146, 8, 8 * 16146)


def test_domino_tilings_of_the_chessboard() -> None:
    # Fisher-Temperley-Kasteleyn: 12,988,816 domino tilings of the 8x8; 32 identical copies.
    domino = Piece("d", "d", ((0, 0, 0), (1, 0, 0)), 2, "#000000")
    assert solve_count(Target.rectangle(8, 8), [domino] * 32).count == 12988816


def test_python_fallback_on_the_6x10() -> None:
    res = count_distinct("6x10", "pentominoes", backend="python")
    assert (res.count, res.distinct, res.backend) == (9356, 2339, "python")


@pytest.mark.parametrize(("board", "pieces"), [("2x3x10", "pentominoes"), ("3x20", "pentominoes")])
def test_python_fallback_matches_numba_nodes(board: str, pieces: str) -> None:
    a = count_distinct(board, pieces, backend="numba")
    b = count_distinct(board, pieces, backend="python")
    assert (a.count, a.distinct, a.nodes) == (b.count, b.distinct, b.nodes)
