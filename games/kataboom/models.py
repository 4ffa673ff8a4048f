"""The 18 starting models of Kataboom, as data.

The rulebook pictures 18 models of 2 or 3 pieces; the pictures are missing, so these are our
own (``docs/rules/kataboom.md``). Each model lists its pieces bottom-up as absolute cells in
the grid frame (cube edges, table top z = 0), optionally shifted by a fraction of an edge.
They run from easy (flat pieces resting fully on flat pieces) to hard (pieces standing on end,
cantilevers), ordered by a measured key: first the static tilt margin of the built model (the
angle in whole degrees the table could be tilted before it gives, :func:`tablesim.sim.statics.analyse`;
24 degrees is the friction limit), largest first; then the number of safe first placements
(support margin at least 0.3 edge, :data:`tablesim.games.kataboom.bots.SAFE`), most first.
``tests/test_kataboom_models.py`` checks that every model stands in physics and that the order
holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from tablesim.games.kataboom.geometry import orientations
from tablesim.games.polycubes import normalize


@dataclass(frozen=True)
class ModelPiece:
    """One piece of a model: ``name``, orientation ``rot`` and minimum corner ``pos``."""

    name: str
    rot: int
    pos: tuple[float, float, float]


@dataclass(frozen=True)
class Model:
    """A starting model: ``number`` (1..18), a short ``title`` and its ``pieces`` bottom-up."""

    number: int
    title: str
    pieces: tuple[ModelPiece, ...]


def _cell(text: str) -> tuple[int, int, int]:
    """``"x,y,z"`` as a cell."""
    x, y, z = (int(v) for v in text.split(","))
    return (x, y, z)


def _piece(name: str, cells: str, shift: tuple[float, float] = (0.0, 0.0)) -> ModelPiece:
    """A piece from absolute cells ``"x,y,z x,y,z ..."`` (+ a horizontal ``shift``)."""
    pts = [_cell(t) for t in cells.split()]
    norm = normalize(pts)
    rot = orientations(name).index(norm)
    lo = [min(p[k] for p in pts) for k in range(3)]
    return ModelPiece(name, rot, (lo[0] + shift[0], lo[1] + shift[1], float(lo[2])))


_RAW: tuple[tuple[str, tuple[ModelPiece, ...]], ...] = (
    ("square with a long bar and a short bar", (
        _piece("C", "0,0,0 1,0,0 0,1,0 1,1,0"),
        _piece("A", "-1,0,1 0,0,1 1,0,1 2,0,1"),
        _piece("X", "0,1,1 1,1,1 2,1,1"),
    )),
    ("V and T", (
        _piece("7", "0,0,0 0,1,0 0,2,0 1,0,0 2,0,0"),
        _piece("E", "0,0,1 1,0,1 1,1,1 2,0,1"),
    )),
    ("cross of Y and bar", (
        _piece("3", "0,0,0 1,0,0 1,1,0 2,0,0 3,0,0"),
        _piece("A", "1,-1,1 1,0,1 1,1,1 1,2,1"),
    )),
    ("square and two dominoes", (
        _piece("C", "0,0,0 1,0,0 0,1,0 1,1,0"),
        _piece("W1", "0,0,1 1,0,1"),
        _piece("W2", "0,1,1 1,1,1"),
    )),
    ("P with the square on it", (
        _piece("5", "0,0,0 0,1,0 0,2,0 1,0,0 1,1,0"),
        _piece("C", "0,0,1 1,0,1 0,1,1 1,1,1"),
    )),
    ("N and S", (
        _piece("4", "0,0,0 1,0,0 2,0,0 2,1,0 3,1,0"),
        _piece("D", "1,0,1 2,0,1 2,1,1 3,1,1"),
    )),
    ("U and a bar on its back", (
        _piece("6", "0,0,0 0,1,0 1,1,0 2,0,0 2,1,0"),
        _piece("X", "0,1,1 1,1,1 2,1,1"),
    )),
    ("Z under an L", (
        _piece("8", "0,0,0 1,0,0 1,1,0 1,2,0 2,2,0"),
        _piece("B", "1,0,1 1,1,1 1,2,1 2,2,1"),
    )),
    ("L on its edge with a bar in its corner", (
        _piece("2", "0,0,0 1,0,0 2,0,0 3,0,0 0,0,1"),
        _piece("X", "1,0,1 2,0,1 3,0,1"),
    )),
    ("L, bar and corner", (
        _piece("2", "0,0,0 0,1,0 1,0,0 2,0,0 3,0,0"),
        _piece("A", "0,0,1 1,0,1 2,0,1 3,0,1"),
        _piece("Y", "1,0,2 1,1,2 2,0,2"),
    )),
    ("domino post with a square cap", (
        _piece("W1", "0,0,0 0,0,1"),
        _piece("C", "0,0,2 1,0,2 0,1,2 1,1,2", (-0.5, -0.5)),
    )),
    ("standing V", (
        _piece("7", "0,0,0 1,0,0 2,0,0 0,0,1 0,0,2"),
        _piece("Y", "0,0,3 0,1,3 1,0,3", (-0.25, -0.25)),
    )),
    ("U on its side with a roof", (
        _piece("6", "0,0,0 1,0,0 0,0,1 0,0,2 1,0,2"),
        _piece("C", "0,0,3 1,0,3 0,1,3 1,1,3", (0.0, -0.5)),
    )),
    ("T on its back and a standing bar", (
        _piece("E", "0,0,0 1,0,0 1,1,0 2,0,0"),
        _piece("X", "1,0,1 1,0,2 1,0,3"),
        _piece("W1", "0,0,4 1,0,4", (0.5, 0.0)),
    )),
    ("tower of three", (
        _piece("C", "0,0,0 1,0,0 0,1,0 1,1,0"),
        _piece("A", "0,0,1 0,0,2 0,0,3 0,0,4"),
        _piece("X", "-1,0,5 0,0,5 1,0,5"),
    )),
    ("standing bar under a corner", (
        _piece("X", "0,0,0 0,0,1 0,0,2"),
        _piece("B", "-1,0,3 -1,1,3 0,0,3 1,0,3"),
    )),
    ("cantilever on a post", (
        _piece("W1", "0,0,0 0,0,1"),
        _piece("A", "-1,0,2 0,0,2 1,0,2 2,0,2", (-0.25, 0.0)),
        _piece("W2", "-1,0,3 -1,0,4"),
    )),
    ("needle", (
        _piece("A", "0,0,0 0,0,1 0,0,2 0,0,3"),
        _piece("X", "0,0,4 0,0,5 0,0,6"),
    )),
)  # fmt: skip

MODELS: tuple[Model, ...] = tuple(
    Model(i + 1, title, pieces) for i, (title, pieces) in enumerate(_RAW)
)
"""The 18 models, model 1 first (easiest)."""


def get_model(number: int) -> Model:
    """Model ``number`` (1..18); ValueError otherwise."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(MODELS):
        raise ValueError(f"model must be an integer 1..{len(MODELS)}, got {number!r}")
    return MODELS[number - 1]
