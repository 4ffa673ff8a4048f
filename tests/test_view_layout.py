"""The table descriptions and camera arithmetic, without rendering.

Expected values come from the rules of the games (piece shapes, what a die shows) and from
geometry worked by hand, never from the code under test.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from tablesim.sim.view.camera import CameraView, camera_for_scene, parse_camera
from tablesim.sim.view.drawings import (
    KaitoTable,
    KaitoTile,
    KataminoPlacement,
    KataminoTable,
    KatoizDisc,
    KatoizStack,
    KatoizTable,
    KatoizTile,
    kaito_layout,
    katamino_layout,
    katoiz_layout,
    layout_for_state,
)
from tablesim.sim.view.drawings.common import die_faces
from tablesim.sim.view.drawings.examples import (
    example_kaito,
    example_katoiz,
    kaito_tiles,
    katoiz_tiles,
)
from tablesim.sim.view.film import MAX_FRAMES, film_frame_count
from tablesim.sim.view.layout import LayoutError


# ---------------------------------------------------------------------------- dice
@pytest.mark.parametrize("top", range(1, 7))
def test_die_faces_are_a_real_die(top: int) -> None:
    faces = die_faces(top)
    assert faces["+z"] == top
    assert sorted(faces.values()) == [1, 2, 3, 4, 5, 6]
    for a, b in (("+x", "-x"), ("+y", "-y"), ("+z", "-z")):
        assert faces[a] + faces[b] == 7  # opposite faces of a die add up to 7
    # right-handed die: 1, 2, 3 meet at a corner and run counter-clockwise seen from outside,
    # i.e. the face vectors of 1, 2, 3 form a right-handed triple
    vec = {"+x": (1, 0, 0), "-x": (-1, 0, 0), "+y": (0, 1, 0), "-y": (0, -1, 0),
           "+z": (0, 0, 1), "-z": (0, 0, -1)}  # fmt: skip
    where = {v: np.array(vec[k]) for k, v in faces.items()}
    assert np.dot(np.cross(where[1], where[2]), where[3]) == pytest.approx(1.0)


def test_die_shows_one_to_six_only() -> None:
    with pytest.raises(LayoutError, match="1 to 6"):
        die_faces(7)


# ---------------------------------------------------------------------------- Katamino
def _l_pentomino() -> KataminoPlacement:
    return KataminoPlacement("2", ((0, 0), (1, 0), (2, 0), (3, 0), (0, 1)))  # 2 is the L


def test_katamino_accepts_any_rotation_or_mirror_of_the_shape() -> None:
    mirrored = KataminoPlacement("2", ((0, 0), (1, 0), (2, 0), (3, 0), (3, 1)))
    rotated = KataminoPlacement("2", ((5, 0), (5, 1), (5, 2), (5, 3), (6, 3)))
    lay = katamino_layout(KataminoTable((7,), (mirrored,)))
    assert "piece-2" in lay.ids and "slider7" in lay.ids
    katamino_layout(KataminoTable((), (rotated,)))


def test_katamino_reports_every_problem() -> None:
    bad = KataminoTable(
        (0, 12),
        (
            _l_pentomino(),
            KataminoPlacement("4", ((0, 0), (1, 0), (2, 0), (3, 0), (4, 0))),  # I, not N
            KataminoPlacement("Q", ((9, 0),)),
            KataminoPlacement("V1", ((12, 4),)),
        ),
    )
    with pytest.raises(LayoutError) as exc:
        katamino_layout(bad)
    text = str(exc.value)
    for part in ("slider 0", "slider 12", "not the shape of piece 4", "cell (0, 0) is already",
                 "(Q): no such piece", "off the 12x5 board"):  # fmt: skip
        assert part in text, part


# ---------------------------------------------------------------------------- Katoiz
def test_katoiz_set_has_45_tiles() -> None:
    tiles = katoiz_tiles()
    assert len(tiles) == 45  # 30 unique + 10 duplicates + 5 blanks (docs/rules/katoiz.md)
    assert sum(t.blank for t in tiles) == 5
    assert len({(t.colour, t.shape, t.size) for t in tiles if not t.blank}) == 30


def test_katoiz_reports_every_problem() -> None:
    table = KatoizTable(
        (
            KatoizStack((0, 0), (KatoizTile("purple", "round", "large"),)),
            KatoizStack((0, 0), (KatoizTile("red", "star", "large"),)),
            KatoizStack((9, 0), (KatoizTile("red", "round"),)),
        ),
        (KatoizDisc((3, 3), "orange"), KatoizDisc((0, 0), "teal")),
        roll=("pink", "hexagon"),
    )
    with pytest.raises(LayoutError) as exc:
        katoiz_layout(table)
    text = str(exc.value)
    for part in ("colour 'purple'", "a second stack", "shape 'star'", "too far from the 6x6",
                 "both shape and size", "no tile there", "colour 'teal'", "colour face 'pink'",
                 "picture face 'hexagon'"):  # fmt: skip
        assert part in text, part


def test_katoiz_stack_heights_and_discs() -> None:
    table = example_katoiz()
    lay = katoiz_layout(table)
    # one item per tile, one per disc
    assert len(lay.items) == sum(len(s.tiles) for s in table.stacks) + len(table.discs)
    # the 3-high stack's top tile lies two tile thicknesses up
    from tablesim.sim.slices.katoiz.drawing import THICKNESS

    assert lay.item("tile-2-4-2").position[2] == pytest.approx(2 * THICKNESS)
    disc = lay.item("disc-2-4")
    assert disc.position[2] == pytest.approx(3 * THICKNESS)  # on top of the 3-high stack


# ---------------------------------------------------------------------------- Kaito
def test_kaito_set_has_36_tiles() -> None:
    tiles = kaito_tiles()
    assert len(tiles) == 36
    for colour in ("red", "black"):
        mine = [t for t in tiles if t.colour == colour]
        assert len(mine) == 17
        assert sum(t.kind == "katana" for t in mine) == 7
        assert sum(t.kind == "kabuto" for t in mine) == 3
        assert sorted(t.value for t in mine if t.kind == "mon") == [1, 1, 1, 2, 2, 3, 3]


def test_kaito_reports_every_problem() -> None:
    table = KaitoTable(
        (((0, 0), KaitoTile("red", "mon", 4)), ((0, 0), KaitoTile("blue", "katana")),
         ((1, 0), KaitoTile("red", "opening")), ((2, 0), KaitoTile("red", "katana", 2))),
        kaito=(6, 1),
        kaito_up="green",
    )  # fmt: skip
    with pytest.raises(LayoutError) as exc:
        kaito_layout(table)
    text = str(exc.value)
    for part in ("worth 1, 2 or 3", "a second tile", "colour 'blue'", "opening tile has no",
                 "only a Mon has a value", "off the grid", "kaito_up 'green'"):  # fmt: skip
        assert part in text, part


def test_kaito_piece_sits_on_a_tile_or_on_the_table() -> None:
    from tablesim.sim.slices.kaito.drawing import KAITO_HALF, THICKNESS

    ex = example_kaito()
    lay = kaito_layout(ex)  # the example's Kaito stands on an empty spot
    assert lay.item("kaito-under").position[2] == pytest.approx(0.0)
    assert lay.item("kaito").position[2] == pytest.approx(KAITO_HALF)
    on = KaitoTable((((2, 2), KaitoTile("red", "kabuto")),), kaito=(2, 2), kaito_up="red")
    lay = kaito_layout(on)
    assert lay.item("kaito-under").position[2] == pytest.approx(THICKNESS)
    # red up: the top half is red, the bottom half black
    assert lay.item("kaito").color[0] > 0.6 and lay.item("kaito-under").color[0] < 0.2


def test_state_adapter_point_names_what_is_drawn() -> None:
    with pytest.raises(ValueError, match=r"drawn: catego, .*kozo\); give its GameSpec a drawing"):
        layout_for_state("chess", object())


# ---------------------------------------------------------------------------- cameras
def test_projection_by_hand() -> None:
    """Camera 1 m above the origin looking along +y (pitch 0), 90 degree vertical fov, a
    200 x 100 picture: tan 45 = 1, so a point 1 m ahead and 0.5 m up lands halfway between
    the centre and the top edge; the horizontal half-angle has tan 2 (aspect 2)."""
    view = CameraView((0.0, 0.0, 1.0), (0.0, 1.0, 1.0), 90.0)
    px = view.project(np.array([[0.0, 1.0, 1.0], [0.0, 1.0, 1.5], [1.0, 1.0, 1.0]]), (200, 100))
    assert px[0] == pytest.approx((100, 50))
    assert px[1] == pytest.approx((100, 25))
    assert px[2] == pytest.approx((150, 50))  # x = 1 at depth 1: 1/2 of the half-width
    behind = view.project(np.array([[0.0, -1.0, 1.0]]), (200, 100))
    assert np.isnan(behind).all()


def test_named_and_positioned_cameras() -> None:
    assert parse_camera("auto") is None
    assert parse_camera("TOP") == {"yaw": 0.0, "pitch": -89.0}
    assert parse_camera("0.3, -0.4, 0.2") == {"pos": [0.3, -0.4, 0.2]}
    for bad in ("sideways", "1,2", "1,2,nan", "a,b,c"):
        with pytest.raises(ValueError, match="expected a name"):
            parse_camera(bad)
    pts = np.array([[-0.1, -0.1, 0.0], [0.1, 0.1, 0.0]])
    view = camera_for_scene({"pos": [0.0, -1.0, 1.0]}, pts, 16 / 9)
    assert view.look_at == pytest.approx((0.0, 0.0, 0.0))  # looks at the contents' centre
    top = camera_for_scene(parse_camera("top"), pts, 1.0)
    assert math.degrees(math.asin(-top.forward[2])) == pytest.approx(89.0)


def test_film_frame_count() -> None:
    # 2 s of physics at quarter speed and 30 fps: 8 s of film, 240 intervals, 241 frames
    assert film_frame_count(2.0, 30, 0.25) == 241
    assert film_frame_count(1.0, 10, 1.0) == 11
    with pytest.raises(ValueError, match="at most"):
        film_frame_count(60.0, 60, 0.25)
    assert film_frame_count((MAX_FRAMES - 1) / 30, 30, 1.0) == MAX_FRAMES  # the limit itself
    for bad in (0, -1, float("nan")):
        with pytest.raises(ValueError, match="positive"):
            film_frame_count(bad, 30, 1.0)
