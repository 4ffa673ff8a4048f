"""Polycube geometry against published counts and hand-derived facts."""

from __future__ import annotations

import numpy as np
import pytest

from tablesim.games import polycubes as pc


def test_group_sizes() -> None:
    # The cube's symmetry group has 48 elements, half of them proper (determinant +1);
    # the square's has 8, of which 4 are rotations.
    assert len(pc.ROTATIONS) == 24
    assert len(pc.REFLECTIONS) == 24
    assert len(pc.PLANE_ROTATIONS) == 4
    assert len(pc.PLANE_SYMMETRIES) == 8
    for m in pc.ROTATIONS:
        assert round(np.linalg.det(m)) == 1
        assert (m @ m.T == np.eye(3)).all()


@pytest.mark.parametrize(
    ("n", "free", "one_sided", "fixed"),
    # OEIS A000105 (free), A000988 (one-sided), A001168 (fixed) polyominoes.
    [(1, 1, 1, 1), (2, 1, 1, 2), (3, 2, 2, 6), (4, 5, 7, 19), (5, 12, 18, 63), (6, 35, 60, 216)],
)
def test_polyomino_counts(n: int, free: int, one_sided: int, fixed: int) -> None:
    assert len(pc.enumerate_polycubes(n, 2, "plane")) == free
    assert len(pc.enumerate_polycubes(n, 2, "plane-rotations")) == one_sided
    assert len(pc.enumerate_polycubes(n, 2, "translation")) == fixed


@pytest.mark.parametrize(
    ("n", "with_mirrors", "proper_only"),
    # OEIS A038119 (free under all 48 symmetries) and A000162 (proper rotations only).
    [(3, 2, 2), (4, 7, 8), (5, 23, 29)],
)
def test_polycube_counts(n: int, with_mirrors: int, proper_only: int) -> None:
    assert len(pc.enumerate_polycubes(n, 3, "full")) == with_mirrors
    assert len(pc.enumerate_polycubes(n, 3, "rotations")) == proper_only


def test_flat_pieces_under_3d_rotations_are_free_polyominoes() -> None:
    # Turning a flat piece over in space is a plane reflection, so 3D proper rotations
    # identify exactly what the 8 plane symmetries identify.
    fixed = pc.enumerate_polycubes(5, 2, "translation")
    assert len(fixed) == 63
    assert len({pc.canonical(c, "rotations") for c in fixed}) == 12
    assert len({pc.canonical(c, "plane-rotations") for c in fixed}) == 18


def test_orientation_counts_of_known_pentominoes() -> None:
    # Fixed orientations in the plane: X has 1, I 2, V 4, F 8 (it has no symmetry).
    counts = {k: len(pc.orientations(v, "plane")) for k, v in pc.PENTOMINO_CELLS.items()}
    assert counts["X"] == 1
    assert counts["I"] == 2
    assert counts["V"] == 4
    assert counts["F"] == 8
    # Summed over the 12 free pentominoes this is the fixed count 63.
    assert sum(counts.values()) == 63
    # In space a flat piece has 24 / |stabiliser| orientations; the I pentomino's
    # stabiliser is the 8 symmetries of a bar -> 3 orientations.
    assert len(pc.orientations(pc.PENTOMINO_CELLS["I"], "rotations")) == 3


def test_catalogue_pentominoes_are_the_12_distinct_free_pentominoes() -> None:
    cat = pc.get_catalogue("pentominoes")
    canon = {pc.canonical(p.cells, "plane") for p in cat.pieces}
    assert canon == set(pc.enumerate_polycubes(5, 2, "plane"))


def test_soma_is_the_seven_irregular_polycubes_up_to_four() -> None:
    # Piet Hein's set: every polycube of 3 or 4 cubes that is not a straight bar or a
    # 2x2 square, counted under proper rotations (the two screws are mirror images).
    irregular = [
        c
        for n in (3, 4)
        for c in pc.enumerate_polycubes(n, 3, "rotations")
        if pc.bounding_box(c) not in ((1, 1, n), (1, n, 1), (n, 1, 1))
        and len(pc.merge_into_boxes(c)) > 1
    ]
    soma = {pc.canonical(p.cells, "rotations") for p in pc.get_catalogue("soma").pieces}
    assert len(irregular) == 7
    assert soma == set(irregular)
    assert pc.get_catalogue("soma").total_cubes == 27


def test_kozo_standard_values() -> None:
    cat = pc.get_catalogue("kozo-standard")
    values = sorted(p.value for p in cat.pieces)
    # Rulebook: values 2,2,3,3, five 4s and three 5s; the value is the number of cubes.
    assert values == [2, 2, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5]
    assert all(p.value == p.size for p in cat.pieces)
    assert cat.total_cubes == 45
    # Both 2-point pieces are 1x1x2 bars (docs/rules/kozo.md).
    assert [pc.bounding_box(p.cells) for p in cat.pieces if p.value == 2] == [(2, 1, 1)] * 2


def test_katamino_duo_set() -> None:
    cat = pc.get_catalogue("katamino-duo")
    labels = [p.label for p in cat.pieces]
    assert labels == list("2345678ABCDE") + ["V", "V", "W", "W", "X", "Y"]
    assert cat.total_cubes == 67  # 7*5 + 5*4 + 1+1+2+2+3+3
    pento = {pc.canonical(p.cells, "plane") for p in cat.pieces if p.size == 5}
    expected = {pc.canonical(pc.PENTOMINO_CELLS[k], "plane") for k in "LNPUVYZ"}
    assert pento == expected
    tetra = {pc.canonical(p.cells, "plane") for p in cat.pieces if p.size == 4}
    assert tetra == set(pc.enumerate_polycubes(4, 2, "plane"))


def test_chirality_and_flatness() -> None:
    soma = pc.get_catalogue("soma")
    assert pc.is_chiral(soma.piece("A").cells)
    assert pc.canonical(soma.piece("B").cells, "rotations") == pc.canonical(
        pc.mirror(soma.piece("A").cells), "rotations"
    )
    assert not pc.is_chiral(soma.piece("P").cells)
    assert pc.is_flat(pc.PENTOMINO_CELLS["F"])
    assert not pc.is_flat(soma.piece("P").cells)


def test_merge_into_boxes_partitions_the_piece() -> None:
    for cat in pc.CATALOGUES.values():
        for p in cat.pieces:
            boxes = pc.merge_into_boxes(p.cells)
            covered = [c for b in boxes for c in b.cells()]
            assert sorted(covered) == sorted(p.cells)  # a partition: no gaps, no overlaps
            assert len(boxes) <= 16  # Bullet's compound child limit
    # By hand: the I pentomino is one bar, the O tetromino one 2x2 box, the L tetromino a
    # 3-bar plus a cube, the X pentomino a 3-bar plus two cubes.
    assert len(pc.merge_into_boxes(pc.PENTOMINO_CELLS["I"])) == 1
    assert [b.size for b in pc.merge_into_boxes(pc.TETROMINO_CELLS["O"])] == [(2, 2, 1)]
    assert sorted(b.volume for b in pc.merge_into_boxes(pc.TETROMINO_CELLS["L"])) == [1, 3]
    assert sorted(b.volume for b in pc.merge_into_boxes(pc.PENTOMINO_CELLS["X"])) == [1, 1, 3]


def test_mass_properties_of_a_bar_by_hand() -> None:
    # A 1x1x2 bar of edge a and density rho is a box a x a x 2a: mass 2 rho a^3, centre
    # (a/2, a, a/2) for cells (0,0,0),(0,1,0); I about the long axis = m (a^2 + a^2)/12,
    # about the short axes m (a^2 + 4a^2)/12.
    a, rho = 0.02, 700.0
    mp = pc.mass_properties([(0, 0, 0), (0, 1, 0)], a, rho)
    m = 2 * rho * a**3
    assert mp.mass == pytest.approx(m, rel=1e-12)
    assert np.allclose(mp.com, [a / 2, a, a / 2], rtol=1e-12)
    assert np.allclose(
        np.diag(mp.inertia),
        [m * 5 * a * a / 12, m * 2 * a * a / 12, m * 5 * a * a / 12],
        rtol=1e-12,
    )
    assert np.allclose(
        mp.principal_moments, sorted([m * 2 * a * a / 12, m * 5 * a * a / 12, m * 5 * a * a / 12])
    )
    assert np.linalg.det(mp.principal_axes) == pytest.approx(1.0)


def test_mass_properties_of_an_l_tricube_by_hand() -> None:
    # Cells (0,0,0),(1,0,0),(0,1,0), a = 1, rho = 1: cube centres (.5,.5,.5),(1.5,.5,.5),(.5,1.5,.5);
    # COM (5/6, 5/6, 1/2). Products of inertia: Ixy = -sum m x' y' with offsets
    # (-1/3,-1/3), (2/3,-1/3), (-1/3,2/3) -> sum x'y' = 1/9 - 2/9 - 2/9 = -1/3, so Ixy = +1/3.
    mp = pc.mass_properties([(0, 0, 0), (1, 0, 0), (0, 1, 0)], 1.0, 1.0)
    assert np.allclose(mp.com, [5 / 6, 5 / 6, 0.5])
    assert mp.inertia[0, 1] == pytest.approx(1 / 3)
    # Izz = 3 * (1/6) + sum (x'^2 + y'^2) = 1/2 + (2/9 + 5/9 + 5/9) = 1/2 + 4/3.
    assert mp.inertia[2, 2] == pytest.approx(0.5 + 4 / 3)


def test_bad_pieces_raise_clear_errors() -> None:
    with pytest.raises(pc.PieceError, match="not face-connected"):
        pc.as_cells([(0, 0, 0), (2, 0, 0)])
    with pytest.raises(pc.PieceError, match="duplicate"):
        pc.as_cells([(0, 0, 0), (0, 0, 0)])
    with pytest.raises(pc.PieceError, match="at least one cell"):
        pc.as_cells([])
    with pytest.raises(pc.PieceError, match="integers"):
        pc.as_cells([(0.5, 0, 0)])
    with pytest.raises(pc.PieceError, match="unknown catalogue 'nope'.*kozo-standard"):
        pc.get_catalogue("nope")
    with pytest.raises(pc.PieceError, match="no piece 'Q'.*F, I, L"):
        pc.find_piece("pentominoes:Q")
