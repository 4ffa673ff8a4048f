"""Piece and ghost colours a person can tell apart (issue 32): measured as CIE76 delta-E in
CIELAB (sRGB, D65), where about 2.3 is just noticeable and 20 reads as another colour at a
glance. The 4T and 4B of Kozo were 17 apart (an orange beside a pumpkin)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tablesim.games.polycubes import CATALOGUES

APART = 20.0
"""The least delta-E between two colours a person must tell apart at a glance."""


def lab(rgb: tuple[float, float, float]) -> np.ndarray:
    """CIELAB of an sRGB colour in 0..1 (the standard formulas, written out here)."""
    c = np.asarray(rgb, float)
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = m @ lin / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def delta_e(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """CIE76 colour difference."""
    return float(np.linalg.norm(lab(a) - lab(b)))


def hexrgb(h: str) -> tuple[float, float, float]:
    return (int(h[1:3], 16) / 255, int(h[3:5], 16) / 255, int(h[5:7], 16) / 255)


def test_delta_e_reads_known_pairs() -> None:
    """The measure itself: white to black is 100 (L* from 100 to 0); a colour to itself 0."""
    assert delta_e((1, 1, 1), (0, 0, 0)) == pytest.approx(100.0, abs=0.1)
    assert delta_e((0.3, 0.5, 0.7), (0.3, 0.5, 0.7)) == 0.0


@pytest.mark.parametrize("name", sorted(CATALOGUES))
def test_every_two_kinds_of_a_set_differ_at_a_glance(name: str) -> None:
    """Any two loose pieces can lie side by side in a supply (others are taken away between
    them), so every pair of pieces of different kinds (label) is at least APART; two of one
    kind (Katamino's V1/V2) may share their colour."""
    pieces = CATALOGUES[name].pieces
    close = [
        (p.name, q.name, round(delta_e(hexrgb(p.color), hexrgb(q.color)), 1))
        for p, q in itertools.combinations(pieces, 2)
        if p.label != q.label and delta_e(hexrgb(p.color), hexrgb(q.color)) < APART
    ]
    assert not close, close


def test_the_katamino_hint_ghost_is_no_piece_colour() -> None:
    """The hint ghost is drawn translucent (GHOST_ALPHA) over the board: its blend
    a * HINT + (1 - a) * board differs from every Katamino Duo piece, from the board and
    from the blends of the held piece's legal and illegal ghosts by at least APART."""
    from tablesim.sim.slices.common.towers import GHOST_ALPHA, ILLEGAL, LEGAL
    from tablesim.sim.slices.katamino.controller import HINT

    board = np.array((0.89, 0.81, 0.64))  # the board's wood (katamino drawing)

    def over(c: tuple[float, float, float]) -> tuple[float, float, float]:
        b = GHOST_ALPHA * np.asarray(c) + (1 - GHOST_ALPHA) * board
        return (float(b[0]), float(b[1]), float(b[2]))

    hint = over(HINT)
    others = [hexrgb(p.color) for p in CATALOGUES["katamino-duo"].pieces]
    others += [over(LEGAL), over(ILLEGAL), tuple(board)]
    worst = min(delta_e(hint, o) for o in others)
    assert worst >= APART, worst
