"""The Kozo polycube rules are coded once (``games.kozo.placement.placement_verdicts``): the
rule check of one placement (``check_polycube``) and the candidates of a position
(``candidate_spots``) both judge with it. Here both are held to a reference written from the
rule relations of the module docstring (plain loops over cube and box pairs), on generated
towers (polycubes and balance cubes, tilted boxes included) and generated placements."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tablesim.games.kozo.blocks import GRID, Blocks, build_blocks, piece_orientations
from tablesim.games.kozo.placement import (
    ChimneyError,
    OnBalanceCubeError,
    OutsideBaseError,
    OverlapError,
    PlacementError,
    TouchesBalanceCubeError,
    UnsupportedError,
    candidate_spots,
    check_polycube,
    drop_height,
    footprint_positions,
)
from tablesim.games.kozo.rules import q4

TOL = 0.1
ERRORS = {
    "within-squares": OutsideBaseError,
    "chimney": ChimneyError,
    "board": OverlapError,
    "overlap": OverlapError,
    "not-on-balance-cube": OnBalanceCubeError,
    "not-touching-balance-cube": TouchesBalanceCubeError,
    "resting": UnsupportedError,
}


def _ov(a0: float, a1: float, b0: float, b1: float) -> float:
    return min(a1, b1) - max(a0, b0)


def reference(cells: tuple, pos: tuple, blocks: Blocks, tol: float) -> str | None:
    """The first rule broken, from the docstring's relations, one pair at a time."""
    cubes = [tuple(c[i] + pos[i] for i in range(3)) for c in cells]
    boxes = list(zip(blocks.lo.tolist(), blocks.hi.tolist(), blocks.balance.tolist(), strict=True))
    if any(x < -tol or y < -tol or x + 1 > GRID + tol or y + 1 > GRID + tol for x, y, _ in cubes):
        return "within-squares"
    if any(_ov(x, x + 1, 1, 2) > tol and _ov(y, y + 1, 1, 2) > tol for x, y, _ in cubes):
        return "chimney"
    if any(z < -tol for _, _, z in cubes):
        return "board"

    def horiz(c: tuple, lo: list, hi: list) -> bool:
        return _ov(c[0], c[0] + 1, lo[0], hi[0]) > tol and _ov(c[1], c[1] + 1, lo[1], hi[1]) > tol

    def rests(c: tuple, lo: list, hi: list) -> bool:
        return horiz(c, lo, hi) and abs(c[2] - hi[2]) <= tol

    pairs = [(c, lo, hi, bal) for c in cubes for lo, hi, bal in boxes]
    if any(horiz(c, lo, hi) and _ov(c[2], c[2] + 1, lo[2], hi[2]) > tol for c, lo, hi, _ in pairs):
        return "overlap"
    if any(bal and rests(c, lo, hi) for c, lo, hi, bal in pairs):
        return "not-on-balance-cube"
    if any(
        bal and all(_ov(c[i], c[i] + 1, lo[i], hi[i]) > -tol for i in range(3))
        for c, lo, hi, bal in pairs
    ):
        return "not-touching-balance-cube"
    on_board = any(abs(z) <= tol for _, _, z in cubes)
    if not on_board and not any(not bal and rests(c, lo, hi) for c, lo, hi, bal in pairs):
        return "resting"
    return None


def random_tower(rng: random.Random) -> Blocks:
    """Polycubes and balance cubes at random half-lattice poses (some a little tilted), with
    no regard for the rules: the kernel judges any tower."""
    pieces = ["3I", "3L", "4T", "4S", "5R", "4Q"]
    items = []
    for i in range(rng.randint(1, 5)):
        cells = rng.choice(piece_orientations("kozo-standard", rng.choice(pieces)))
        x, y, z = (rng.randrange(0, 5) * 0.5 for _ in range(3))
        tilt = rng.choice([0.0, 0.0, 0.02])
        items.append((f"p{i}", cells, 1.0, (x, y, z, tilt, 0.0, 0.0, 1.0), False))
    for i in range(rng.randint(0, 3)):
        x, y, z = (rng.randrange(0, 6) * 0.5 for _ in range(3))
        items.append((f"b{i}", ((0, 0, 0),), 0.5, (x, y, z, 0.0, 0.0, 0.0, 1.0), True))
    return build_blocks(items)


def test_both_codings_match_the_reference_on_generated_placements() -> None:
    rng = random.Random(36)
    judged: dict[str | None, int] = {}
    for _ in range(40):
        blocks = random_tower(rng)
        for piece in ("3I", "4T", "5U"):
            for cells in piece_orientations("kozo-standard", piece)[::3]:
                spots = set(candidate_spots(cells, blocks, TOL))
                for x, y in footprint_positions(cells):
                    z = q4(drop_height(cells, x, y, blocks, TOL))
                    want = reference(cells, (x, y, z), blocks, TOL)
                    assert ((x, y, z) in spots) == (want is None), (cells, x, y, z, want)
                    judged[want] = judged.get(want, 0) + 1
                # any pose, not only lowered ones: check_polycube names the reference's rule
                for _ in range(3):
                    pos = (rng.uniform(-0.6, 2.6), rng.uniform(-0.6, 2.6), rng.uniform(-0.8, 2.5))
                    want = reference(cells, pos, blocks, TOL)
                    judged[want] = judged.get(want, 0) + 1
                    if want is None:
                        check_polycube(cells, pos, blocks, tol=TOL)
                    else:
                        with pytest.raises(ERRORS[want]):
                            check_polycube(cells, pos, blocks, tol=TOL)
    # the generator reached every rule (and legal placements), so each branch was compared
    assert set(judged) == {*ERRORS, None}, judged


def test_hand_placed_cases_keep_the_rules_words() -> None:
    """Each rule on a tower drawn by hand: a 3I lying along x at the origin (x 0..3, y 0..1,
    z 0..1), balance cube B (edge 0.5) on the base at x 0..0.5, y 1.5..2, and B2 on the 3I's
    far end at x 2.5..3, y 0..0.5, z 1..1.5."""
    cells = piece_orientations("kozo-standard", "3I")
    along_x = next(c for c in cells if {z for *_, z in c} == {0} and {y for _, y, _ in c} == {0})
    one = ((0, 0, 0),)
    blocks = build_blocks(
        [
            ("3I", along_x, 1.0, (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0), False),
            ("B", ((0, 0, 0),), 0.5, (0.0, 1.5, 0.0, 0.0, 0.0, 0.0, 1.0), True),
            ("B2", ((0, 0, 0),), 0.5, (2.5, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0), True),
        ]
    )
    cases = [
        (one, (2.0, 2.0, 0.0), None, ""),  # on the base, clear of the chimney
        (one, (0.0, 0.0, 1.0), None, ""),  # on the 3I
        (along_x, (0.0, 0.0, 0.5), OverlapError, "passes through '3I'"),
        (along_x, (0.0, 1.0, 0.0), ChimneyError, "center square"),
        (along_x, (-0.5, 2.0, 0.0), OutsideBaseError, "within the eight squares"),
        (along_x, (0.0, 2.0, 1.5), UnsupportedError, "rests on nothing"),
        (along_x, (0.0, 0.0, -0.5), OverlapError, "into the board"),
        (along_x, (0.0, 2.0, 0.0), TouchesBalanceCubeError, "aren't directly touching"),
        (along_x, (0.0, 0.0, 1.5), OnBalanceCubeError, "may not be placed on a Balance Cube"),
    ]
    for piece, pos, error, words in cases:
        if error is None:
            check_polycube(piece, pos, blocks, tol=TOL)
            assert reference(piece, pos, blocks, TOL) is None
            continue
        with pytest.raises(error, match=words) as info:
            check_polycube(piece, pos, blocks, tol=TOL)
        assert isinstance(info.value, PlacementError)
        assert error is ERRORS[str(reference(piece, pos, blocks, TOL))]
    # lowered at the origin it comes to rest on B2 (top 1.5), above the 3I (top 1)
    assert np.isclose(drop_height(along_x, 0.0, 0.0, blocks, TOL), 1.5)
