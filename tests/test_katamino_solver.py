"""Katamino solver: published counts, multisets, symmetry, rules, backends, hints, difficulty.

Expected values come from the literature (pentomino rectangles: 6x10 = 2339 distinct, 5x12 =
1010, 4x15 = 368, 3x20 = 2; 8x8 with a 2x2 square = 16146; the 12 flat pentacubes in 2x3x10 =
12; Soma cube = 240 distinct, 11520 with rotations and reflections; domino tilings of m x n
from the Kasteleyn formula), from hand counts, or from an independent brute-force solver
written here (it shares no code with the solver under test beyond the catalogue cells).
"""

from __future__ import annotations

import itertools
import random

import pytest

from tablesim.games.katamino import (
    Problem,
    SolverError,
    Target,
    count_distinct,
    difficulty,
    enumerate_solutions,
    hint,
    is_solvable,
    parse_pieces,
    partial_problem,
    solve_count,
    solve_one,
)
from tablesim.games.katamino.solver import PlacedPiece
from tablesim.games.polycubes import Piece, get_catalogue

PENTS = get_catalogue("pentominoes")


def piece(name: str, cells) -> Piece:
    """An ad-hoc flat piece."""
    return Piece(name, name, tuple(sorted((x, y, 0) for x, y in cells)), len(cells), "#000000")


MONO = piece("m", [(0, 0)])
DOMINO = piece("d", [(0, 0), (1, 0)])
I5 = PENTS.piece("I")


# ------------------------------------------------------------------------- reference solver
def _orients_2d(cells):
    out = set()
    for sx, sy, swap in itertools.product((1, -1), (1, -1), (False, True)):
        pts = [((y if swap else x) * sx, (x if swap else y) * sy) for x, y, _ in cells]
        mx, my = min(p[0] for p in pts), min(p[1] for p in pts)
        out.add(tuple(sorted((x - mx, y - my) for x, y in pts)))
    return sorted(out)


def brute_solutions(rows: int, cols: int, pieces) -> set[frozenset]:
    """Every tiling of a rows x cols board, as frozensets of (shape, cells); identical shapes
    are interchangeable (a set of placements, not a sequence)."""
    shapes = [tuple(_orients_2d(p.cells)) for p in pieces]
    board = {(x, y) for x in range(cols) for y in range(rows)}
    found: set[frozenset] = set()

    def rec(empty: frozenset, left: tuple, acc: list):
        if not empty:
            found.add(frozenset(acc))
            return
        cell = min(empty, key=lambda c: (c[1], c[0]))
        tried = set()
        for k, s in enumerate(left):
            if s in tried:
                continue
            tried.add(s)
            for o in s:
                ax, ay = min(o, key=lambda c: (c[1], c[0]))
                cells = frozenset((x - ax + cell[0], y - ay + cell[1]) for x, y in o)
                if cells <= empty:
                    acc.append((s, cells))
                    rec(empty - cells, left[:k] + left[k + 1 :], acc)
                    acc.pop()

    rec(frozenset(board), tuple(shapes), [])
    return found


def brute_distinct(rows: int, cols: int, sols: set[frozenset]) -> int:
    """Classes of tilings under the rectangle's symmetries (4, or 8 for a square)."""
    maps = [lambda x, y: (x, y), lambda x, y: (cols - 1 - x, y),
            lambda x, y: (x, rows - 1 - y), lambda x, y: (cols - 1 - x, rows - 1 - y)]  # fmt: skip
    if rows == cols:
        maps += [lambda x, y, f=f: f(y, x) for f in list(maps)]
    classes = set()
    for s in sols:
        images = [
            frozenset((shape, frozenset(f(x, y) for x, y in cells)) for shape, cells in s)
            for f in maps
        ]
        classes.add(min(tuple(sorted((sh, tuple(sorted(c))) for sh, c in im)) for im in images))
    return len(classes)


# ------------------------------------------------------------------------- published counts
@pytest.mark.parametrize(
    ("board", "distinct"), [("3x20", 2), ("4x15", 368), ("5x12", 1010), ("6x10", 2339)]
)
def test_pentomino_rectangles_match_published_counts(board: str, distinct: int) -> None:
    res = count_distinct(board, "pentominoes")
    assert res.group_order == 4
    assert res.distinct == distinct
    assert res.count == 4 * distinct  # no pentomino rectangle tiling is symmetric


def test_soma_cube_240_distinct_11520_total() -> None:
    res = count_distinct("3x3x3", "soma")
    assert res.group_order == 48  # pieces A and B are mirror images: reflections allowed
    assert (res.count, res.distinct) == (11520, 240)
    assert solve_count("3x3x3", "soma").count == 11520


def test_flat_pentacubes_in_2x3x10_twelve_ways() -> None:
    res = count_distinct("2x3x10", "pentominoes")
    assert res.group_order == 8
    assert res.distinct == 12
    assert res.count == 96


def test_identical_dominoes_are_counted_once_per_arrangement() -> None:
    # Domino tilings (Kasteleyn): 2x3 -> 3, 2x4 -> 5, 3x4 -> 11, 4x4 -> 36, 6x6 -> 6728.
    for (r, c), n in {(2, 3): 3, (2, 4): 5, (3, 4): 11, (4, 4): 36, (6, 6): 6728}.items():
        assert solve_count(Target.rectangle(r, c), [DOMINO] * (r * c // 2)).count == n
    assert solve_count("2x2", [MONO] * 4).count == 1
    # Copies given as the same object still get one placement each.
    for sol in enumerate_solutions("2x3", [DOMINO] * 3):
        cells = [c for p in sol.pieces for c in p.cells]
        assert sorted(cells) == sorted(Target.rectangle(2, 3).cells)
    # Katamino's two V (monominoes) and two W (dominoes) are copies too: 1x4 by W, W -> 1 way;
    # 1x4 by V, V, W: the domino's 3 positions, the monominoes fill the rest -> 3 ways.
    assert solve_count("1x4", "katamino-duo:W,W").count == 1
    assert solve_count("1x4", "katamino-duo:V,V,W").count == 3


def test_small_problems_match_brute_force() -> None:
    rng = random.Random(5)
    names = [p.name for p in PENTS.pieces]
    solvable = unsolvable = 0
    for _ in range(200):
        k = rng.choice([3, 4, 5])
        chosen = rng.sample(names, k)
        pcs = [PENTS.piece(n) for n in chosen]
        ref = brute_solutions(5, k, pcs)
        if not ref and unsolvable >= 3:
            continue
        res = count_distinct(Target.rectangle(5, k), pcs)
        assert res.count == len(ref), chosen
        assert res.distinct == brute_distinct(5, k, ref), chosen
        solvable += bool(ref)
        unsolvable += not ref
        if solvable >= 8:
            break
    assert solvable >= 8 and unsolvable >= 3


def test_l_p_u_do_not_tile_the_3x5() -> None:
    # `solve --board 3x5 --pieces pentominoes:LPU` prints 0 solutions: right, the independent
    # brute force finds no tiling either (pieces may be turned over). With L and P, only the V
    # completes a 3x5 (of the seven 3-pentomino sets that tile it: FPU, LNV, LPV, LTY, NPU,
    # PUV, PUY, found by the same brute force).
    lpu = [PENTS.piece(n) for n in "LPU"]
    assert brute_solutions(3, 5, lpu) == set() and solve_count("3x5", lpu).count == 0
    with_l_p = {n for n in "FINTUVWXYZ"
                if brute_solutions(3, 5, [PENTS.piece(m) for m in "LP" + n])}  # fmt: skip
    assert with_l_p == {"V"}
    assert solve_count("3x5", "pentominoes:LPV").count == len(
        brute_solutions(3, 5, [PENTS.piece(n) for n in "LPV"])) > 0  # fmt: skip


def test_mixed_sizes_with_copies_match_brute_force() -> None:
    duo = get_catalogue("katamino-duo")
    pcs = [duo.piece(n) for n in ("B", "C", "W1", "W2", "V1", "V2", "X")]  # 4+4+2+2+1+1+3
    board = Target.from_text("#####\n#####\n#####\n##---\n")  # 17 cells, not a rectangle
    got = solve_count(board, pcs).count
    # the same mask as a brute force over its cells
    cells = set(board.cells)
    assert got == _brute_mask(cells, pcs)
    assert got > 0


def _brute_mask(cells: set, pieces) -> int:
    shapes = [tuple(_orients_2d(p.cells)) for p in pieces]
    count = 0

    def rec(empty: frozenset, left: tuple):
        nonlocal count
        if not empty:
            count += 1
            return
        cell = min(empty, key=lambda c: (c[1], c[0]))
        tried = set()
        for k, s in enumerate(left):
            if s in tried:
                continue
            tried.add(s)
            for o in s:
                ax, ay = min(o, key=lambda c: (c[1], c[0]))
                placed = frozenset((x - ax + cell[0], y - ay + cell[1], 0) for x, y in o)
                if placed <= empty:
                    rec(empty - placed, left[:k] + left[k + 1 :])

    rec(frozenset(cells), tuple(shapes))
    return count


# ------------------------------------------------------------------------- rules and symmetry
def test_straight_piece_lies_horizontally() -> None:
    # One column of 5 rows: only a vertical I fits; the Katamino rule forbids it.
    assert solve_count("5x1", [I5]).count == 1
    assert solve_count("5x1", [I5], straight_horizontal=True).count == 0
    assert solve_count("1x5", [I5], straight_horizontal=True).count == 1
    # Shorter straight pieces too (I-tetromino A, I-tromino X), but not the domino W.
    assert solve_count("4x1", "katamino-duo:A", straight_horizontal=True).count == 0
    assert solve_count("3x1", "katamino-duo:X", straight_horizontal=True).count == 0
    assert solve_count("2x1", "katamino-duo:W", straight_horizontal=True).count == 1
    # In 3D "horizontal" means off the vertical: a 1x1x5 column is forbidden, a 1x5x1 row not.
    assert solve_count("1x1x5", [I5]).count == 1
    assert solve_count("1x1x5", [I5], straight_horizontal=True).count == 0
    assert solve_count("1x5x1", [I5], straight_horizontal=True).count == 1
    # 5x5 square with I and four more: with the rule, 90-degree turns are no longer symmetries.
    pcs = "pentominoes:ILPUY"
    assert len(Problem(Target.parse("5x5"), pcs).symmetry_group) == 8
    assert len(Problem(Target.parse("5x5"), pcs, straight_horizontal=True).symmetry_group) == 4
    ruled = count_distinct("5x5", pcs, straight_horizontal=True)
    sols = list(enumerate_solutions("5x5", pcs, straight_horizontal=True))
    assert ruled.count == len(sols)
    for s in sols:
        i_cells = next(p.cells for p in s.pieces if p.name == "I")
        assert len({y for _, y, _ in i_cells}) == 1


@pytest.mark.parametrize(
    ("board", "order"),
    [("5x8", 4), ("5x5", 8), ("2x3x10", 8), ("2x2x4", 16), ("3x3x3", 48), ("1x1x5", 16)],
)
def test_symmetry_group_orders(board: str, order: int) -> None:
    # Boxes: 8 with three different sides, 16 with two equal, 48 for a cube; 2D: 4 or 8.
    # The 1x1x5 box has the 16 symmetries of a square prism, but its cells lie on one line:
    # only 2 of them act differently on the cells (identity and end-to-end).
    target = Target.parse(board)
    assert len(target.symmetries()) == order
    cells = target.size
    n = len(Problem(target, [MONO] * cells).symmetry_group)
    assert n == (2 if board == "1x1x5" else order)


def test_reflections_need_a_mirror_closed_multiset() -> None:
    soma = get_catalogue("soma")
    a, b = soma.piece("A"), soma.piece("B")  # the two screws, mirror images
    cube = Target.box(2, 2, 2)
    assert len(Problem(cube, [a, b]).symmetry_group) == 48
    assert len(Problem(cube, [a, a]).symmetry_group) == 24  # rotations only
    # Distinct counts agree with a brute count of classes under the kept group.
    for pcs in ([a, b], [a, a]):
        p = Problem(cube, pcs)
        sols = list(enumerate_solutions(p))
        assert count_distinct(p).count == len(sols)
        assert count_distinct(p).distinct == len(list(enumerate_solutions(p, distinct=True)))


def test_distinct_without_a_single_copy_piece() -> None:
    # Only copies: the count falls back to enumerating and reducing every solution.
    # 2x2 by two dominoes: both flat or both upright, one class under the square's turns.
    assert count_distinct("2x2", [DOMINO] * 2).distinct == 1
    # 2x4: |||| , =||, ||=, |=|, == ; the mirror pairs =|| and ||= make one class: 4.
    res = count_distinct("2x4", [DOMINO] * 4)
    assert (res.count, res.distinct, res.group_order) == (5, 4, 4)


def test_mask_targets_use_their_automorphisms() -> None:
    # A plus-shaped mask has the 8 symmetries of the square; an L-shaped one only a diagonal.
    plus = Target.from_text("-#-\n###\n-#-\n")
    assert len(plus.symmetries()) == 8
    ell = Target.from_text("#--\n#--\n###\n")
    assert len(ell.symmetries()) == 2
    assert solve_count(plus, "pentominoes:X").count == 1
    assert count_distinct(ell, "pentominoes:V").distinct == 1


def test_3d_mask_from_layers() -> None:
    t = Target.from_text("##\n##\n\n#-\n--\n")
    assert t.dims == 3 and t.size == 5
    # The Soma tripod P plus a monomino: the tripod must take the corner column.
    sols = list(enumerate_solutions(t, [get_catalogue("soma").piece("P"), MONO]))
    assert len(sols) == solve_count(t, [get_catalogue("soma").piece("P"), MONO]).count
    assert all(sum(len(p.cells) for p in s.pieces) == 5 for s in sols)


# ------------------------------------------------------------------------- API behaviour
def test_solutions_are_exact_covers_in_piece_order() -> None:
    target = Target.parse("5x6")
    pcs = parse_pieces("pentominoes:LNPUVY")
    sols = list(enumerate_solutions(target, pcs))
    assert len(sols) == solve_count(target, pcs).count
    for s in sols:
        assert [p.name for p in s.pieces] == [p.name for p in pcs]
        covered = [c for p in s.pieces for c in p.cells]
        assert sorted(covered) == sorted(target.cells)
    assert len({s for s in sols}) == len(sols)
    assert solve_one(target, pcs) == sols[0]
    assert list(enumerate_solutions(target, pcs, limit=3)) == sols[:3]
    d = list(enumerate_solutions(target, pcs, distinct=True))
    assert len(d) == count_distinct(target, pcs).distinct


def test_area_mismatch_and_unplaceable_pieces_give_zero() -> None:
    assert solve_count("5x3", "pentominoes:LP").count == 0
    assert not is_solvable("2x5", "pentominoes:XP")  # X fits nowhere in 2 rows
    assert solve_one("2x5", "pentominoes:XP") is None


def test_bad_input_raises_clear_errors() -> None:
    with pytest.raises(SolverError, match="ROWSxCOLS"):
        Target.parse("5by8")
    with pytest.raises(SolverError, match="positive"):
        Target.parse("0x8")
    with pytest.raises(SolverError, match="line 2, column 2"):
        Target.from_text("##\n#?\n")
    with pytest.raises(SolverError, match="no piece named or labelled 'Q'"):
        parse_pieces("pentominoes:LQ")
    with pytest.raises(SolverError, match="unknown catalogue"):
        parse_pieces("hexominoes")
    with pytest.raises(SolverError, match="not flat"):
        Problem(Target.parse("3x3"), "soma:A")
    with pytest.raises(SolverError, match="backend"):
        solve_count("1x5", [I5], backend="gpu")


def test_piece_specs() -> None:
    assert [p.name for p in parse_pieces("katamino-duo:2,3,A,V,V")] == ["2", "3", "A", "V1", "V2"]
    assert [p.name for p in parse_pieces("katamino-duo:23AV")] == ["2", "3", "A", "V1"]
    assert len(parse_pieces("pentominoes")) == 12
    assert [p.name for p in parse_pieces("pentominoes:X+tetrominoes:O")] == ["X", "O"]


def test_results_serialise_to_json() -> None:
    import json

    res = count_distinct("3x20", "pentominoes")
    assert json.loads(json.dumps(res.to_dict()))["distinct"] == 2
    sol = solve_one("1x5", [I5])
    assert sol is not None
    assert sol.to_dict() == {"pieces": [{"name": "I", "label": "I",
                                         "cells": [[x, 0, 0] for x in range(5)]}]}  # fmt: skip


# ------------------------------------------------------------------------- backends
def test_python_backend_gives_the_same_answers() -> None:
    cases = [("5x6", "pentominoes:LNPUVY"), ("2x3x5", "pentominoes:LNPUVY"),
             ("3x3x3", "soma"), ("4x4", "katamino-duo:B,C,D,W,W,V,V")]  # fmt: skip
    for board, pcs in cases:
        fast = count_distinct(board, pcs, backend="numba")
        slow = count_distinct(board, pcs, backend="python")
        assert (fast.count, fast.distinct, fast.nodes) == (slow.count, slow.distinct, slow.nodes)
        assert (fast.backend, slow.backend) == ("numba", "python")
        if fast.count > 2000:
            continue
        a = list(enumerate_solutions(board, pcs, backend="numba"))
        b = list(enumerate_solutions(board, pcs, backend="python"))
        assert a == b


def test_region_pruning_keeps_the_counts() -> None:
    from tablesim.games.katamino import search

    for board, pcs in [("5x6", "pentominoes:LNPUVY"), ("4x4", "katamino-duo:B,C,D,W,W,V,V"),
                       ("2x3x5", "pentominoes:LNPUVY")]:  # fmt: skip
        p = Problem(Target.parse(board), pcs)
        runs = {}
        for backend in ("numba", "python"):
            for prune in (False, True):
                s = search.Search(p, backend=backend, prune=prune)
                rows = s.run(max_rows=100000)
                runs[backend, prune] = (s.solutions, s.nodes, rows)
        assert runs["numba", True] == runs["python", True]
        assert runs["numba", False] == runs["python", False]
        assert runs["numba", True][0] == runs["numba", False][0]
        assert sorted(runs["numba", True][2]) == sorted(runs["numba", False][2])
        if p.sizes() and min(p.sizes()) > 1:
            assert runs["numba", True][1] < runs["numba", False][1]  # the check does prune


def test_environment_variable_forces_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLESIM_SOLVER_BACKEND", "python")
    assert solve_count("3x5", "pentominoes:LPU").backend == "python"
    monkeypatch.setenv("TABLESIM_SOLVER_BACKEND", "auto")
    assert solve_count("3x5", "pentominoes:LPU").backend == "numba"
    monkeypatch.setenv("TABLESIM_SOLVER_BACKEND", "fast")
    with pytest.raises(SolverError, match="TABLESIM_SOLVER_BACKEND"):
        solve_count("3x5", "pentominoes:LPU")


def test_boards_over_64_cells_fall_back_to_python() -> None:
    # 5x13 = 65 cells: no fit for 64-bit boards; the 13 pieces L, P ... are not needed, a
    # 1x65 strip with 13 I pentominoes has exactly one tiling.
    res = solve_count("1x65", [I5] * 13)
    assert (res.count, res.backend) == (1, "python")
    with pytest.raises(SolverError, match="64"):
        solve_count("1x65", [I5] * 13, backend="numba")


def test_import_does_not_load_numba() -> None:
    import subprocess
    import sys

    code = (
        "import sys, tablesim.games.katamino as k\n"
        "k.count_distinct('3x5', 'pentominoes:LPU', backend='python')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numba', 'llvmlite', 'sim',"
        " 'scipy', 'trimesh', 'pybullet', 'panda3d', 'meshes')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ------------------------------------------------------------------------- hints
def test_every_hint_keeps_the_board_solvable() -> None:
    target = Target.parse("5x6")
    pcs = parse_pieces("pentominoes:LNPUVY")
    base = Problem(target, pcs)
    rng = random.Random(11)
    all_sols = list(enumerate_solutions(base))
    hints = unsolvable = 0
    for _trial in range(40):
        # A random partial board: some pieces of a random solution, sometimes one piece moved
        # to a random legal spot (often unsolvable).
        sol = rng.choice(all_sols)
        placed = list(rng.sample(sol.pieces, rng.randint(0, 4)))
        if placed and rng.random() < 0.5:
            moved = placed.pop()
            others = {c for p in placed for c in p.cells}
            t = next(t for t in base.types if any(q.name == moved.name for q in t.pieces))
            spots = [base.cells_of(base.masks[i]) for i in base.placements_of(t.index)]
            spots = [s for s in spots if not others & set(s)]
            placed.append(PlacedPiece(moved.name, moved.label, rng.choice(spots)))
        h = hint(base, placed=placed)
        truth = is_solvable(partial_problem(base, placed))
        assert h.solvable == truth
        if not h.solvable:
            unsolvable += 1
            assert h.placement is None and h.completions == 0
            for name in h.culprits:
                rest = [p for p in placed if p.name != name]
                assert is_solvable(partial_problem(base, rest))
            continue
        if h.placement is None:
            continue
        hints += 1
        after = [*placed, h.placement]
        assert is_solvable(partial_problem(base, after))
        assert h.completions == solve_count(partial_problem(base, placed)).count
    assert hints >= 10 and unsolvable >= 3


def test_hint_rejects_illegal_partial_boards() -> None:
    base = Problem(Target.parse("1x5"), [I5], straight_horizontal=True)
    with pytest.raises(SolverError, match="no unused piece"):
        hint(base, placed=[PlacedPiece("Q", "Q", ((0, 0, 0),))])
    with pytest.raises(SolverError, match="not a legal placement"):
        hint(base, placed=[PlacedPiece("I", "I", ((0, 0, 0), (1, 0, 0)))])
    full = hint(base, placed=[PlacedPiece("I", "I", tuple((x, 0, 0) for x in range(5)))])
    assert full.solvable and full.placement is None and full.completions == 1


# ------------------------------------------------------------------------- difficulty
def test_difficulty_features_by_hand() -> None:
    # 1x5 with I: one solution, one node, the only move is forced: score 0, beginner.
    d = difficulty("1x5", [I5])
    assert (d.solutions, d.nodes, d.forced_moves, d.steps) == (1, 1, 1, 1)
    assert d.score == 0 and d.level == "beginner"
    # No solution: impossible, no score.
    d = difficulty("5x3", "pentominoes:LP")
    assert d.solutions == 0 and d.level == "impossible" and d.score is None
    # Deterministic and consistent with the counts.
    a = difficulty("5x6", "pentominoes:LNPUVY")
    assert a == difficulty("5x6", "pentominoes:LNPUVY")
    assert a.solutions == solve_count("5x6", "pentominoes:LNPUVY").count
    assert 0 <= a.forced_moves <= a.steps == 6


def test_mask_text_round_trip_and_3d_partial() -> None:
    from tablesim.games.katamino.partial import parse_partial

    t = Target.from_text("##-\n###\n\n#--\n---\n")
    assert Target.from_text(t.to_text()) == t
    assert t.describe() == "3D mask of 6 cells"
    # A 3D partial board: the Soma V tromino on the bottom layer, three cells left.
    p = Problem(Target.box(2, 2, 2), "soma:V,P")  # 3 + 4 = 7 cells: no solution
    assert not p.area_matches
    p = Problem(Target.box(2, 2, 2), [get_catalogue("soma").piece("V"), MONO, *[DOMINO] * 2])
    placed = parse_partial("VV\nV.\n\n..\n..\n", p)
    assert [pp.name for pp in placed] == ["V"]
    assert placed[0].cells == ((0, 0, 0), (0, 1, 0), (1, 0, 0))
    h = hint(p, placed=placed)
    # Left: one bottom cell and the 2x2 top layer, for a monomino and two dominoes. The
    # dominoes lie in the top layer (2 ways) with the monomino below, or one stands on the
    # free bottom cell and the rest fills the top (3 top cells: 2 ways each): 2 + 2 = 4.
    assert h.solvable and h.completions == 4


def test_window_table_rows_are_the_fitting_placements_in_order() -> None:
    """Each row of the compiled kernel's candidate table (cell c, the 8 board bits after it w)
    lists exactly the placements anchored at c that miss the bits of w, in the plain table's
    order, with their type, then pad entries (id -1, type nt, mask 0) up to a multiple of 4;
    checked against a direct scan of the problem's placements. The rows past the last cell
    (a full board's) are empty."""
    import numpy as np

    from tablesim.games.katamino import Problem, Target
    from tablesim.games.katamino.search import row_types, window_table

    p = Problem(Target.rectangle(5, 6), "pentominoes")
    nt = len(p.counts())
    ptr, masks, ids, kinds = window_table(p.ptr, list(p.masks), p.nbits, nt, 8)
    assert len(ptr) == (p.nbits + 1) * 256 + 1 and ptr[p.nbits * 256] == ptr[-1] == len(ids)
    rng = random.Random(7)
    for _ in range(200):
        c, w = rng.randrange(p.nbits), rng.randrange(256)
        want = [
            (i, t)
            for t in range(nt)
            for i in range(p.ptr[c * nt + t], p.ptr[c * nt + t + 1])
            if not (p.masks[i] >> (c + 1)) & w
        ]
        row = c * 256 + w
        lo, hi = int(ptr[row]), int(ptr[row + 1])
        got = list(zip(ids[lo:hi].tolist(), kinds[lo:hi].tolist(), strict=True))
        pad = (-len(want)) % 4
        assert got == want + [(-1, nt)] * pad
        assert all(int(masks[k]) == p.masks[int(ids[k])] for k in range(lo, hi - pad))
        assert not masks[hi - pad : hi].any()
    assert np.all(np.diff(ptr) % 4 == 0)
    # row_types: the bitmask of the (real) types present in each row
    rtypes = row_types(ptr, kinds, nt)
    for row in rng.sample(range(len(ptr) - 1), 300):
        real = {1 << int(k) for k in kinds[ptr[row] : ptr[row + 1]] if k < nt}
        assert rtypes[row] == sum(real)


@pytest.mark.parametrize("backend", ["numba", "python"])
def test_kernel_tree_is_the_plain_lowest_cell_search(backend: str) -> None:
    """The kernel's node count and solution order are those of the plain search it
    accelerates, written here directly: fill the lowest empty cell with each fitting placement
    anchored there, type by type, in table order (3x20 pentominoes: 2 solutions, each found in
    its 4 symmetric images)."""
    from tablesim.games.katamino import Problem, Target
    from tablesim.games.katamino import search as ksearch

    p = Problem(Target.rectangle(3, 20), "pentominoes")
    nt = len(p.counts())
    counts = p.counts()
    nodes = 0
    found: list[tuple[int, ...]] = []

    def walk(board: int, chosen: list[int]) -> None:
        nonlocal nodes
        c = (~board & (board + 1)).bit_length() - 1
        for t in range(nt):
            if counts[t] == 0:
                continue
            for i in range(p.ptr[c * nt + t], p.ptr[c * nt + t + 1]):
                if p.masks[i] & board:
                    continue
                nodes += 1
                nb = board | p.masks[i]
                if nb == p.full:
                    found.append((*chosen, i))
                    continue
                counts[t] -= 1
                walk(nb, [*chosen, i])
                counts[t] += 1

    walk(p.start, [])
    s = ksearch.Search(p, backend=backend)
    rows = s.run(max_rows=100)
    assert (s.solutions, len(found)) == (8, 8)
    assert s.nodes == nodes and rows == found
