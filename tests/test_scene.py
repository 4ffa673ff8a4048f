"""Scene files: the loader, its error reports, the geometric checks and the shipped scenes.

Expected values are worked out by hand in the comments (Kozo cube edge a = 17.8 mm, balance
cube 10.2 mm, board 3.9 in = 99.06 mm square and 8 mm thick, grid square = a).
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from tablesim.sim.config import PhysicsConfig
from tablesim.sim.model import PosedBox, Scene
from tablesim.sim.scene import (
    PHYSICS_KEYS,
    InvalidSceneError,
    box_overlap,
    kozo_grid_origin,
    load_scene,
    parse_scene,
    physics_from_table,
    shipped_scene_names,
    shipped_scene_path,
)

A = 17.8e-3  # Kozo cube edge (m)
SCHEMA_PATH = Path(__file__).resolve().parent.parent / "scenes" / "scene.schema.json"
SHIPPED = ["cantilever-safe", "cantilever-tips", "kozo-marginal", "kozo-overhang", "kozo-tower"]


def problems_of(text: str) -> list:
    """The problems InvalidSceneError reports for ``text`` (fails if it loads)."""
    with pytest.raises(InvalidSceneError) as info:
        parse_scene(text)
    return info.value.problems


def one_piece(body: str, head: str = "") -> str:
    """A scene of one piece: ``body`` is the inside of its [[piece]] table."""
    return f"{head}\n[[piece]]\n{body}\n"


# ---------------------------------------------------------------------------------------
# Shipped scenes and the schema
# ---------------------------------------------------------------------------------------
def test_shipped_scene_names_and_paths() -> None:
    names = shipped_scene_names()
    for n in SHIPPED:
        assert n in names
    assert shipped_scene_path("kozo-tower").name == "kozo-tower.toml"
    assert shipped_scene_path("kozo-tower.toml") == shipped_scene_path("kozo-tower")
    assert shipped_scene_path("kozo-tower").is_file()
    with pytest.raises(ValueError, match="kozo-tower"):  # the message lists the shipped names
        shipped_scene_path("no-such-scene")


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_scene_loads_and_validates_against_schema(name: str) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA_PATH.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    path = shipped_scene_path(name)
    with path.open("rb") as f:
        data = tomllib.load(f)
    errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(data)]
    assert errors == []
    scene = load_scene(path)
    assert isinstance(scene, Scene)
    assert scene.name == name
    assert scene.source == str(path)
    assert scene.seconds == 5.0
    assert scene.ground is True


def test_schema_lists_the_same_keys_as_the_loader() -> None:
    schema = json.loads(SCHEMA_PATH.read_text())
    assert set(schema["$defs"]["physics"]["properties"]) == set(PHYSICS_KEYS)
    # every field of PhysicsConfig can be set from a scene
    assert {f for f, _ in PHYSICS_KEYS.values()} == set(PhysicsConfig.__dataclass_fields__)
    piece_keys = set(schema["$defs"]["piece"]["properties"])
    assert piece_keys == {
        "id", "piece", "cells", "cube", "box", "at", "corner", "rotate", "quaternion",
        "static", "color", "friction",
    }  # fmt: skip
    for key in piece_keys:  # the loader knows each of them (an unknown key would be reported)
        probs = problems_of(one_piece(f'{key} = "x"'))
        assert probs and not any("unknown key" in p.message for p in probs)


def test_schema_rejects_what_the_loader_rejects_structurally() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA_PATH.read_text()))
    for text in (
        'unit = "cm"',
        one_piece('piece = "kozo-standard:2a"\ncells = [[0, 0, 0]]\nat = [0, 0, 0]'),
        one_piece('piece = "kozo-standard:2a"\nat = [0, 0]'),
        one_piece('piece = "kozo-standard:2a"\nat = [0, 0, 0]\nrotation = [0, 0, 0]'),
        one_piece('piece = "kozo-standard:2a"'),
        one_piece(
            'piece = "kozo-standard:2a"\nat = [0, 0, 0]\nrotate = [0, 0, 0]\nquaternion = [0, 0, 0, 1]'
        ),
        "[physics]\nfrction = 0.3",
    ):
        assert list(validator.iter_errors(tomllib.loads(text))), text
        with pytest.raises(InvalidSceneError):
            parse_scene(text)


def test_loader_does_not_import_pybullet() -> None:
    code = "import sys, tablesim.sim.scene; sys.exit(1 if 'pybullet' in sys.modules else 0)"
    root = Path(__file__).resolve().parent.parent
    assert subprocess.run([sys.executable, "-c", code], cwd=root).returncode == 0


# ---------------------------------------------------------------------------------------
# Positions and orientations, by hand
# ---------------------------------------------------------------------------------------
def test_unit_kozo_position_in_metres() -> None:
    s = parse_scene(one_piece('piece = "kozo-standard:3I"\nat = [1, 0, 0]'))
    (p,) = s.pieces
    assert p.id == "3I" and p.source == "kozo-standard:3I" and p.cube == "kozo"
    assert p.position == pytest.approx((0.0178, 0.0, 0.0))  # 1 edge = 17.8 mm
    (box,) = p.world_boxes(s.physics)  # the 3-bar is one box: x from 17.8 to 17.8 + 53.4 mm
    assert box.corners().min(axis=0) == pytest.approx([0.0178, 0.0, 0.0])
    assert box.corners().max(axis=0) == pytest.approx([0.0712, 0.0178, 0.0178])


def test_rotation_90_about_z_maps_cells_by_hand() -> None:
    # Rz(90): (x, y, z) -> (-y, x, z). Cell (1,0,0) spans [1,2]x[0,1]x[0,1] edges, centre
    # (1.5, 0.5, 0.5) -> (-0.5, 1.5, 0.5): it now spans x in [-1, 0], y in [1, 2].
    s = parse_scene(one_piece('piece = "kozo-standard:3I"\nat = [0, 0, 0]\nrotate = [0, 0, 90]'))
    (p,) = s.pieces
    r = p.rotation()
    assert r @ np.array([1.5, 0.5, 0.5]) * A == pytest.approx(np.array([-0.5, 1.5, 0.5]) * A)
    (box,) = p.world_boxes(s.physics)
    assert box.corners().min(axis=0) == pytest.approx([-A, 0.0, 0.0])
    assert box.corners().max(axis=0) == pytest.approx([0.0, 3 * A, A])
    # the same pose written with corner: the bounding box's minimum corner at the origin
    # means the frame origin sits at x = +1 edge
    s2 = parse_scene(
        one_piece('piece = "kozo-standard:3I"\ncorner = [0, 0, 0]\nrotate = [0, 0, 90]')
    )
    assert s2.pieces[0].position == pytest.approx((A, 0.0, 0.0))


def test_euler_and_quaternion_agree() -> None:
    # 90 about z: q = (0, 0, sin 45, cos 45).
    h = math.sqrt(0.5)
    e = parse_scene(one_piece('piece = "kozo-standard:4L"\nat = [0, 0, 0]\nrotate = [0, 0, 90]'))
    q = parse_scene(
        one_piece(f'piece = "kozo-standard:4L"\nat = [0, 0, 0]\nquaternion = [0, 0, {h}, {h}]')
    )
    assert e.pieces[0].orientation == pytest.approx(q.pieces[0].orientation)
    # Extrinsic x 90 then z 90: Rx sends y->z, z->-y; Rz sends x->y, y->-x. So
    # e_x -> e_y, e_y -> e_z, e_z -> e_x: a 120-degree turn about (1,1,1), q = (1/2, 1/2, 1/2, 1/2).
    e = parse_scene(one_piece('piece = "kozo-standard:4L"\nat = [0, 0, 0]\nrotate = [90, 0, 90]'))
    q = parse_scene(
        one_piece('piece = "kozo-standard:4L"\nat = [0, 0, 0]\nquaternion = [0.5, 0.5, 0.5, 0.5]')
    )
    assert e.pieces[0].orientation == pytest.approx((0.5, 0.5, 0.5, 0.5))
    assert e.pieces[0].rotation() == pytest.approx(
        np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0]]), abs=1e-12
    )
    for be, bq in zip(
        e.pieces[0].world_boxes(e.physics), q.pieces[0].world_boxes(q.physics), strict=True
    ):
        assert be.corners() == pytest.approx(bq.corners())


def test_units_mm_balance_and_physics_overrides() -> None:
    mm = parse_scene(
        one_piece('cells = [[0, 0, 0]]\ncube = "kozo"\nat = [10, 20, 30]', 'unit = "mm"')
    )
    assert mm.pieces[0].position == pytest.approx((0.010, 0.020, 0.030))
    bal = parse_scene(one_piece('piece = "kozo-balance:b1"\nat = [1, 0, 0]', 'unit = "balance"'))
    assert bal.pieces[0].position == pytest.approx((0.0102, 0.0, 0.0))
    assert bal.pieces[0].cube == "balance"
    # a bigger Kozo cube moves kozo-unit positions with it
    text = one_piece(
        'piece = "kozo-standard:2a"\nat = [1, 0, 0]',
        "[physics]\nkozo_cube_mm = 20\nfriction = 0.3\ndensity = 800",
    )
    s = parse_scene(text)
    assert s.pieces[0].position == pytest.approx((0.020, 0.0, 0.0))
    assert (s.physics.kozo_cube, s.physics.friction, s.physics.density) == pytest.approx(
        (0.020, 0.3, 800.0)
    )
    # load-time overrides win over the file; readable or SI names
    plain = one_piece('piece = "kozo-standard:2a"\nat = [1, 0, 0]')
    assert parse_scene(plain, overrides={"kozo_cube_mm": 25}).pieces[0].position[
        0
    ] == pytest.approx(0.025)
    assert parse_scene(plain, overrides={"kozo_cube": 0.025}).pieces[0].position[
        0
    ] == pytest.approx(0.025)
    assert parse_scene(text, overrides={"friction": 0.6}).physics.friction == pytest.approx(0.6)
    assert parse_scene(plain, overrides={"clearance_mm": 0.3}).physics.clearance == pytest.approx(
        0.0003
    )


def test_box_pieces_and_defaults() -> None:
    s = parse_scene(one_piece("box = [2, 1, 0.5]\nat = [0, 0, 0]"))
    (p,) = s.pieces
    assert p.box == pytest.approx((2 * A, A, 0.5 * A))  # box sizes are in scene units
    assert p.static is True and p.cube is None and p.id == "box-0"
    s = parse_scene(one_piece("box = [2, 1, 0.5]\nat = [0, 0, 0]\nstatic = false"))
    assert s.pieces[0].static is False
    s = parse_scene(
        one_piece(
            'cells = [[0, 0, 0], [1, 0, 0]]\nat = [0, 0, 0]\ncolor = "#123abc"\nfriction = 0.2'
        )
    )
    p = s.pieces[0]
    assert (p.id, p.cube, p.static, p.color, p.friction, p.source) == (
        "inline-0",
        "kozo",
        False,
        "#123abc",
        0.2,
        "inline",
    )
    assert p.cells == ((0, 0, 0), (1, 0, 0))
    s = parse_scene(
        'name = "n"\ndescription = "d"\nseconds = 2.5\nground = false\n[camera]\nyaw = 30\n'
    )
    assert (s.name, s.description, s.seconds, s.ground, s.camera, s.pieces) == (
        "n",
        "d",
        2.5,
        False,
        {"yaw": 30},
        (),
    )


def test_kozo_base_and_grid_origin() -> None:
    # Board 99.06 mm square centred at the origin, 8 mm thick; the 3x3 grid of 17.8 mm squares
    # is centred too, so its minimum corner is at (-26.7, -26.7) mm on the board top z = 8 mm.
    s = parse_scene(
        one_piece('piece = "kozo-standard:2a"\nat = [0, 0, 0]', '[base]\nkind = "kozo"')
    )
    base, piece = s.pieces
    assert base.id == "base" and base.static and base.source == "base:kozo"
    assert base.box == pytest.approx((0.09906, 0.09906, 0.008))
    assert base.position == pytest.approx((-0.04953, -0.04953, 0.0))
    assert piece.position == pytest.approx((-0.0267, -0.0267, 0.008))
    assert kozo_grid_origin(PhysicsConfig()) == pytest.approx([-0.0267, -0.0267, 0.008])
    # a piece resting on the board touches it: no overlap reported
    assert len(s.dynamic) == 1


# ---------------------------------------------------------------------------------------
# Errors: key paths, messages, every problem at once, lines
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("body", "path", "needle"),
    [
        ('piece = "kozo-standard:2a"\nat = [1, 0]', "piece[0].at", "expected 3 numbers, got 2"),
        (
            'piece = "kozo-standard:2a"\nat = "here"',
            "piece[0].at",
            "expected an array of 3 numbers",
        ),
        ('piece = "kozo-standard:2a"\nat = [0, 0, nan]', "piece[0].at[2]", "finite"),
        ('piece = "kozo-standard:2a"\nat = [0, inf, 0]', "piece[0].at[1]", "finite"),
        ('piece = "kozo-standard:2a"\nat = [0, true, 0]', "piece[0].at[1]", "expected a number"),
        (
            'piece = "kozo-standard:9Z"\nat = [0, 0, 0]',
            "piece[0].piece",
            "unknown piece 'kozo-standard:9Z'",
        ),
        ('piece = "kozo:4L"\nat = [0, 0, 0]', "piece[0].piece", "unknown catalogue 'kozo'"),
        ('piece = "4L"\nat = [0, 0, 0]', "piece[0].piece", "catalogue:piece"),
        (
            'piece = "kozo-standard:2a"\nat = [0, 0, 0]\nrotation = [0, 0, 90]',
            "piece[0].rotation",
            "did you mean 'rotate'",
        ),
        (
            'piece = "kozo-standard:2a"\nat = [0, 0, 0]\nrotate = [0, 0, 9]\nquaternion = [0, 0, 0, 1]',
            "piece[0].quaternion",
            "not both",
        ),
        (
            'piece = "kozo-standard:2a"\nat = [0, 0, 0]\nquaternion = [0, 0, 1, 1]',
            "piece[0].quaternion",
            "unit quaternion",
        ),
        (
            'piece = "kozo-standard:2a"\nat = [0, 0, 0]\ncorner = [0, 0, 0]',
            "piece[0].corner",
            "not both",
        ),
        ('piece = "kozo-standard:2a"', "piece[0]", "missing position"),
        ("at = [0, 0, 0]", "piece[0]", "exactly one of piece, cells or box"),
        ('piece = "kozo-standard:2a"\nbox = [1, 1, 1]\nat = [0, 0, 0]', "piece[0]", "exactly one"),
        ("cells = [[0, 0, 0], [2, 0, 0]]\nat = [0, 0, 0]", "piece[0].cells", "not face-connected"),
        ("cells = [[0, 0, 0], [1.5, 0, 0]]\nat = [0, 0, 0]", "piece[0].cells[1]", "integer"),
        (
            'cells = [[0, 0, 0]]\ncube = "big"\nat = [0, 0, 0]',
            "piece[0].cube",
            "unknown value 'big'",
        ),
        ("box = [1, 0, 1]\nat = [0, 0, 0]", "piece[0].box", "> 0"),
        ('piece = "kozo-standard:2a"\nat = [0, 0, 0]\ncolor = "red"', "piece[0].color", "#rrggbb"),
        (
            'piece = "kozo-standard:2a"\nat = [0, 0, 0]\nstatic = "yes"',
            "piece[0].static",
            "true or false",
        ),
        ('piece = "kozo-standard:2a"\nat = [0, 0, 0]\nfriction = -1', "piece[0].friction", ">= 0"),
        ('piece = "kozo-standard:2a"\nat = [0, 0, 0]\nid = ""', "piece[0].id", "empty"),
    ],
)
def test_each_piece_error_names_its_key(body: str, path: str, needle: str) -> None:
    probs = problems_of(one_piece(body))
    assert [p.path for p in probs] == [path], probs
    assert needle in probs[0].message


def test_unknown_piece_lists_the_catalogue() -> None:
    (p,) = problems_of(one_piece('piece = "kozo-standard:9Z"\nat = [0, 0, 0]'))
    assert "2a, 2b, 3I, 3L, 4L, 4T, 4S, 4B, 4Q, 5U, 5V, 5R" in p.message


@pytest.mark.parametrize(
    ("text", "path", "needle"),
    [
        ('unit = "cm"', "unit", "allowed: 'kozo', 'balance', 'katamino', 'unit', 'mm'"),
        ("seconds = 0", "seconds", "> 0"),
        ("seconds = nan", "seconds", "finite"),
        ('ground = "yes"', "ground", "true or false"),
        ("name = 3", "name", "expected a string"),
        ('name = ""', "name", "must not be empty"),
        ("colour = 1", "colour", "unknown key 'colour'"),
        ("camera = 3", "camera", "expected a table"),
        ("[physics]\nfrction = 0.3", "physics.frction", "did you mean 'friction'"),
        ("[physics]\nkozo_cube_mm = -1", "physics.kozo_cube_mm", "> 0"),
        ("[physics]\nfriction = -0.1", "physics.friction", ">= 0"),
        ('[physics]\ndensity = "wood"', "physics.density", "expected a number"),
        ('[base]\nkind = "katamino"', "base.kind", "allowed: 'kozo'"),
        ("[base]\nid = 'b'", "base", "missing kind"),
        ('[base]\nkind = "kozo"\nsize = 3', "base.size", "unknown key"),
        (
            one_piece("cells = [[0, 0, 0]]\nat = [0, 0, 0]", 'unit = "mm"'),
            "piece[0].cube",
            "required with cells",
        ),
    ],
)
def test_each_scene_error_names_its_key(text: str, path: str, needle: str) -> None:
    probs = problems_of(text)
    assert [p.path for p in probs] == [path], probs
    assert needle in probs[0].message


def test_overrides_are_checked_too() -> None:
    probs = problems_of_overrides({"friction": -1, "colour": 2})
    assert sorted(p.path for p in probs) == ["overrides.colour", "overrides.friction"]


def problems_of_overrides(overrides: dict) -> list:
    with pytest.raises(InvalidSceneError) as info:
        parse_scene(one_piece('piece = "kozo-standard:2a"\nat = [0, 0, 0]'), overrides=overrides)
    return info.value.problems


def test_three_mistakes_give_three_problems_with_their_lines() -> None:
    text = "\n".join(
        [
            'name = "three mistakes"',  # 1
            "",  # 2
            "[[piece]]",  # 3
            'piece = "kozo-standard:3I"',  # 4
            "at = [0, 0]",  # 5: two numbers
            "",  # 6
            "[[piece]]",  # 7
            'piece = "kozo-standard:9Z"',  # 8: unknown piece
            "at = [0, 2, 0]",  # 9
            "",  # 10
            "[[piece]]",  # 11
            'piece = "kozo-standard:2a"',  # 12
            "at = [0, 4, 0]",  # 13
            "rotation = [0, 0, 90]",  # 14: unknown key
        ]
    )
    with pytest.raises(InvalidSceneError) as info:
        parse_scene(text, source="three.toml")
    probs = info.value.problems
    assert [(p.path, p.line) for p in probs] == [
        ("piece[0].at", 5),
        ("piece[1].piece", 8),
        ("piece[2].rotation", 14),
    ]
    path, message = probs[0]  # problems unpack as (key_path, message)
    assert (path, message) == ("piece[0].at", "expected 3 numbers, got 2")
    text_of_error = str(info.value)
    assert "three.toml: 3 problems:" in text_of_error
    assert "three.toml:5: piece[0].at: expected 3 numbers, got 2" in text_of_error
    assert isinstance(info.value, ValueError)


def test_lines_of_tables_and_inline_keys() -> None:
    text = "\n".join(
        [
            "[physics]",  # 1
            "friction = 0.4",  # 2
            "density = -5",  # 3
            "",  # 4
            "[[piece]]",  # 5
            'piece = "kozo-standard:2a"',  # 6
            "at = [0, 0, 0]",  # 7
            "",  # 8
            "[[piece]]",  # 9
            'piece = "kozo-standard:2a"',  # 10: duplicate id from the catalogue name
            "at = [0, 2, 0]",  # 11
        ]
    )
    probs = problems_of(text)
    assert [(p.path, p.line) for p in probs] == [("physics.density", 3), ("piece[1].piece", 10)]
    assert "duplicate id '2a'" in probs[1].message and "give an explicit id" in probs[1].message
    assert "piece[0]" in probs[1].message


def test_toml_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    f = tmp_path / "broken.toml"
    f.write_text('name = "broken"\n[[piece]]\npiece = kozo-standard:2a\nat = [0, 0, 0]\n')
    with pytest.raises(InvalidSceneError) as info:
        load_scene(f)
    (p,) = info.value.problems
    assert p.path == "toml" and p.line == 3  # the unquoted string
    assert "invalid TOML" in p.message and "line 3" in p.message
    assert f"{f}:3: toml:" in str(info.value)
    # an error tomllib places "at end of document" points at the last line
    with pytest.raises(InvalidSceneError) as info:
        parse_scene('name = "x"\n[[piece]]\nat = [0, 0, 0\n')
    assert info.value.problems[0].line == 3


def test_unreadable_file_is_an_invalid_scene(tmp_path: Path) -> None:
    with pytest.raises(InvalidSceneError) as info:
        load_scene(tmp_path / "missing.toml")
    assert info.value.problems[0].path == "file"


def test_file_name_is_the_default_scene_name(tmp_path: Path) -> None:
    f = tmp_path / "my-scene.toml"
    f.write_text('[[piece]]\npiece = "kozo-standard:2a"\nat = [0, 0, 0]\n')
    s = load_scene(f)
    assert (s.name, s.source) == ("my-scene", str(f))


# ---------------------------------------------------------------------------------------
# Geometry: overlaps and the table
# ---------------------------------------------------------------------------------------
def two_cubes(second: str, head: str = "") -> str:
    first = 'id = "a"\ncells = [[0, 0, 0]]\ncube = "kozo"\nat = [0, 0, 0]'
    return (
        one_piece(first, head)
        + "[[piece]]\n"
        + 'id = "b"\ncells = [[0, 0, 0]]\ncube = "kozo"\n'
        + second
        + "\n"
    )


def test_two_cubes_in_the_same_place_overlap() -> None:
    (p,) = problems_of(two_cubes("at = [0, 0, 0]"))
    assert p.path == "piece[1].at"
    assert "overlaps piece 'a' by 17.800 mm" in p.message  # full edge along every axis


def test_touching_cubes_are_fine() -> None:
    for at in ("[1, 0, 0]", "[0, 1, 0]", "[0, 0, 1]", "[1, 1, 0]", "[0.5, 0.5, 1]"):
        s = parse_scene(two_cubes(f"at = {at}"))
        assert len(s.pieces) == 2


def test_slight_overlap_and_tolerance() -> None:
    # 0.5 mm overlap along x: b starts at 17.3 mm
    (p,) = problems_of(two_cubes("at = [17.3, 0, 0]", 'unit = "mm"'))
    assert "by 0.500 mm" in p.message
    # 0.005 mm is under the 0.01 mm tolerance
    assert len(parse_scene(two_cubes("at = [17.795, 0, 0]", 'unit = "mm"')).pieces) == 2


def rotated_cube_at(gap_mm: float) -> str:
    # Cube b turned 45 degrees about z (about its frame origin, a corner). Its centre is
    # R (8.9, 8.9, 8.9) = (0, 8.9 sqrt 2, 8.9) = (0, 12.5865, 8.9) mm from the origin, and its
    # half-diagonal in x is 17.8 / sqrt 2 = 12.5865 mm. To put its leftmost edge at
    # x = 17.8 + gap (cube a spans x 0..17.8), the centre goes to x = 17.8 + 12.5865 + gap,
    # y = 8.9 (level with a), so at = (30.3865 + gap, 8.9 - 12.5865, 0).
    half_diag = 17.8 / math.sqrt(2)
    x, y = 17.8 + half_diag + gap_mm, 8.9 - half_diag
    return two_cubes(f"at = [{x!r}, {y!r}, 0]\nrotate = [0, 0, 45]", 'unit = "mm"')


def test_rotated_cube_touching_and_overlapping() -> None:
    assert round(17.8 / math.sqrt(2), 4) == 12.5865
    assert len(parse_scene(rotated_cube_at(0.0)).pieces) == 2  # edge on face: touching
    assert len(parse_scene(rotated_cube_at(0.3)).pieces) == 2  # a gap
    (p,) = problems_of(rotated_cube_at(-1.0))  # the edge 1 mm into a's face
    assert "overlaps piece 'a' by 1.000 mm" in p.message
    (p,) = problems_of(rotated_cube_at(-0.25))
    assert "by 0.250 mm" in p.message


def test_box_overlap_depth_by_hand() -> None:
    eye = np.eye(3)
    a = PosedBox(np.zeros(3), eye, np.array([1.0, 1.0, 1.0]))
    assert box_overlap(a, PosedBox(np.array([1.5, 0.0, 0.0]), eye, np.ones(3))) == pytest.approx(
        0.5
    )
    assert box_overlap(a, PosedBox(np.array([2.0, 0.5, 0.0]), eye, np.ones(3))) == pytest.approx(
        0.0
    )
    assert box_overlap(a, PosedBox(np.array([2.0, 3.0, 0.0]), eye, np.ones(3))) == pytest.approx(
        -1.0
    )
    # a unit cube (half 1) turned 45 degrees about z reaches sqrt 2 along x
    c, s = math.sqrt(0.5), math.sqrt(0.5)
    rz = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    b = PosedBox(np.array([1.0 + math.sqrt(2) - 0.1, 0.0, 0.0]), rz, np.ones(3))
    assert box_overlap(a, b) == pytest.approx(0.1)


def test_static_pieces_may_overlap_each_other() -> None:
    text = (
        one_piece("box = [2, 2, 1]\nat = [0, 0, 0]")
        + "[[piece]]\nbox = [1, 1, 2]\nat = [0.5, 0.5, 0]\n"
    )
    assert len(parse_scene(text).pieces) == 2
    # but not a dynamic one with a static one
    text = (
        one_piece("box = [2, 2, 1]\nat = [0, 0, 0]")
        + '[[piece]]\npiece = "kozo-standard:2a"\nat = [0, 0, 0.5]\n'
    )
    (p,) = problems_of(text)
    assert p.path == "piece[1].at" and "overlaps piece 'box-0' by 8.900 mm" in p.message


def test_piece_below_the_table() -> None:
    (p,) = problems_of(one_piece('piece = "kozo-standard:2a"\nat = [0, 0, -0.5]'))
    assert p.path == "piece[0].at" and "reaches z = -8.90 mm, below the table" in p.message
    # a cube turned -45 degrees about x with its frame origin on the table: the far bottom
    # edge (y = 17.8, z = 0) goes to z = -17.8 sin 45 = -12.59 mm
    (p,) = problems_of(
        one_piece('piece = "kozo-balance:b1"\ncube = "kozo"\nat = [0, 0, 0]\nrotate = [-45, 0, 0]')
    )
    assert "reaches z = -12.59 mm" in p.message
    # without a table there is nothing to be below
    assert parse_scene(
        one_piece('piece = "kozo-standard:2a"\nat = [0, 0, -0.5]', "ground = false")
    ).pieces


def test_geometry_and_field_problems_are_reported_together() -> None:
    text = (
        'unit = "kozo"\n'
        + one_piece('id = "x"\npiece = "kozo-standard:2a"\nat = [0, 0, -1]')
        + '[[piece]]\nid = "x"\npiece = "kozo-standard:2b"\nat = [5, 0, 0]\n'
        + '[[piece]]\npiece = "kozo-standard:3I"\nat = [0, 0, -1]\n'
        + '[[piece]]\npiece = "kozo-standard:3L"\nat = [0, 0]\n'
    )
    probs = problems_of(text)
    assert sorted(p.path for p in probs) == sorted(
        ["piece[0].at", "piece[1].id", "piece[2].at", "piece[2].at", "piece[3].at"]
    )  # below table twice, a duplicate id, 3I overlapping 2a, a short vector


# ---------------------------------------------------------------------------------------
# The Kozo placement rules, checked geometrically on the shipped Kozo scenes
# ---------------------------------------------------------------------------------------
EPS = 1e-9


def _aabb(box: PosedBox) -> tuple[np.ndarray, np.ndarray]:
    c = box.corners()
    return c.min(axis=0), c.max(axis=0)


def _area_overlap(lo1: np.ndarray, hi1: np.ndarray, lo2: np.ndarray, hi2: np.ndarray) -> float:
    """Overlap area of two xy rectangles."""
    dx = min(hi1[0], hi2[0]) - max(lo1[0], lo2[0])
    dy = min(hi1[1], hi2[1]) - max(lo1[1], lo2[1])
    return max(dx, 0.0) * max(dy, 0.0)


def kozo_rule_violations(scene: Scene) -> list[str]:
    """Every violation of the Kozo placement rules (rulebook 'Placement Rules'), as sentences.

    The base is a 3x3 grid of squares of edge ``square``; the centre square is the chimney.
    - polycubes lie within the prism of the 8 outer squares, nothing on or over the chimney;
    - polycubes are not placed on (nor touch) a balance cube;
    - balance cubes rest on a polycube, never on another balance cube, never under a
      polycube, and do not extend over the edges of the polycube they stand on.
    Pieces must be axis-aligned (turned by multiples of 90 degrees) for these box tests.
    """
    cfg = scene.physics
    s = cfg.square
    o = kozo_grid_origin(cfg)
    ring_lo, ring_hi = o[:2], o[:2] + 3 * s
    chim_lo, chim_hi = o[:2] + s, o[:2] + 2 * s
    out: list[str] = []
    poly = [p for p in scene.dynamic if p.source.startswith("kozo-standard:")]
    bal = [p for p in scene.dynamic if p.source.startswith("kozo-balance:")]
    others = [p for p in scene.dynamic if p not in poly and p not in bal]
    out += [f"{p.id}: not a Kozo piece" for p in others]
    boxes = {p.id: [_aabb(b) for b in p.world_boxes(cfg)] for p in scene.dynamic}
    for p in scene.dynamic:
        r = p.rotation()
        if not np.allclose(np.abs(r).sum(axis=0), 1.0):
            out.append(f"{p.id}: not axis-aligned")
    for p in poly:
        for lo, hi in boxes[p.id]:
            if (lo[:2] < ring_lo - EPS).any() or (hi[:2] > ring_hi + EPS).any():
                out.append(f"{p.id}: outside the prism of the 8 squares")
            if _area_overlap(lo, hi, chim_lo, chim_hi) > EPS**2:
                out.append(f"{p.id}: on or over the chimney")
            if lo[2] < o[2] - EPS:
                out.append(f"{p.id}: below the board top")
    for b in bal:
        ((blo, bhi),) = boxes[b.id]
        if _area_overlap(blo, bhi, chim_lo, chim_hi) > EPS**2:
            out.append(f"{b.id}: over the chimney")
        # what it stands on: boxes whose top is at its bottom, under its footprint
        under = [
            (q.id, lo, hi)
            for q in scene.dynamic
            if q.id != b.id
            for lo, hi in boxes[q.id]
            if abs(hi[2] - blo[2]) < 1e-7 and _area_overlap(lo, hi, blo, bhi) > EPS**2
        ]
        supporters = {qid for qid, _, _ in under}
        if not supporters:
            out.append(f"{b.id}: not standing on a polycube")
        if supporters & {q.id for q in bal}:
            out.append(f"{b.id}: on another balance cube")
        if len(supporters) > 1:
            out.append(f"{b.id}: straddles {sorted(supporters)}")
        # inside the supporting polycube's top face: the footprint area equals the area it
        # shares with that polycube's top boxes (boxes of one piece do not overlap)
        shared = sum(_area_overlap(lo, hi, blo, bhi) for _, lo, hi in under)
        if under and not math.isclose(shared, (bhi[0] - blo[0]) * (bhi[1] - blo[1]), rel_tol=1e-9):
            out.append(f"{b.id}: extends over the edge of {sorted(supporters)}")
        # nothing above it: no polycube anywhere in its vertical prism above it
        for q in poly:
            for lo, hi in boxes[q.id]:
                if lo[2] >= bhi[2] - 1e-7 and _area_overlap(lo, hi, blo, bhi) > EPS**2:
                    out.append(f"{b.id}: under polycube {q.id}")
        # no polycube rests on (or touches the top of) a balance cube
        for q in poly:
            for lo, hi in boxes[q.id]:
                if abs(lo[2] - bhi[2]) < 1e-7 and _area_overlap(lo, hi, blo, bhi) > 0:
                    out.append(f"{q.id}: placed on balance cube {b.id}")
    return out


@pytest.mark.parametrize("name", ["kozo-tower", "kozo-overhang", "kozo-marginal"])
def test_shipped_kozo_scenes_follow_the_placement_rules(name: str) -> None:
    scene = load_scene(shipped_scene_path(name))
    assert scene.pieces[0].source == "base:kozo" and scene.pieces[0].static
    assert kozo_rule_violations(scene) == []


def test_the_rule_check_catches_violations() -> None:
    head = '[base]\nkind = "kozo"'
    over_chimney = parse_scene(one_piece('piece = "kozo-standard:3I"\nat = [0, 1, 0]', head))
    assert "3I: on or over the chimney" in kozo_rule_violations(over_chimney)
    outside = parse_scene(one_piece('piece = "kozo-standard:3I"\nat = [-0.5, 0, 0]', head))
    assert "3I: outside the prism of the 8 squares" in kozo_rule_violations(outside)
    text = one_piece('piece = "kozo-standard:3I"\nat = [0, 0, 0]', head)
    stacked = text + '[[piece]]\npiece = "kozo-balance:b1"\nat = [0.1, 0.1, 1]\n'
    assert kozo_rule_violations(parse_scene(stacked)) == []
    overhanging = text + '[[piece]]\npiece = "kozo-balance:b1"\nat = [0.1, 0.6, 1]\n'
    assert "b1: extends over the edge of ['3I']" in kozo_rule_violations(parse_scene(overhanging))
    on_balance = stacked + '[[piece]]\npiece = "kozo-balance:b2"\nat = [0.1, 0.1, 1.573033707865]\n'
    assert "b2: on another balance cube" in kozo_rule_violations(parse_scene(on_balance))
    under = stacked + '[[piece]]\npiece = "kozo-standard:2a"\nat = [0, 0, 1.573033707865]\n'
    found = kozo_rule_violations(parse_scene(under))
    assert "b1: under polycube 2a" in found and "2a: placed on balance cube b1" in found


def test_kozo_tower_holds_the_whole_set() -> None:
    scene = load_scene(shipped_scene_path("kozo-tower"))
    sources = sorted(p.source for p in scene.dynamic)
    assert sources == sorted(
        [
            f"kozo-standard:{n}"
            for n in ("2a", "2b", "3I", "3L", "4L", "4T", "4S", "4B", "4Q", "5U", "5V", "5R")
        ]
        + [f"kozo-balance:b{i}" for i in range(1, 13)]
    )
    cfg = scene.physics
    cubes = sum(len(p.cells) for p in scene.dynamic if p.cube == "kozo")
    assert cubes == 45
    # six layers: the highest polycube top is 8 mm + 6 x 17.8 mm, the balance cubes on it
    tops = [max(b.corners()[:, 2].max() for b in p.world_boxes(cfg)) for p in scene.dynamic]
    assert max(
        t for t, p in zip(tops, scene.dynamic, strict=True) if p.cube == "kozo"
    ) == pytest.approx(0.008 + 6 * A)


# ---------------------------------------------------------------------------------------
# The arithmetic written in the shipped scenes' comments
# ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "offset_mm"), [("cantilever-safe", -2.0), ("cantilever-tips", 2.0)]
)
def test_cantilever_centre_of_mass_against_the_pedestal_edge(name: str, offset_mm: float) -> None:
    scene = load_scene(shipped_scene_path(name))
    pedestal, bar = scene.piece("pedestal"), scene.piece("bar")
    assert pedestal.static and not bar.static and bar.source == "kozo-standard:3I"
    edge_x = pedestal.position[0] + pedestal.box[0]  # 40 mm
    top_z = pedestal.position[2] + pedestal.box[2]  # 30 mm
    _, com = bar.mass_and_com(scene.physics)
    assert edge_x == pytest.approx(0.040) and top_z == pytest.approx(0.030)
    assert (com[0] - edge_x) * 1e3 == pytest.approx(offset_mm)
    assert bar.position[2] == pytest.approx(top_z)  # resting on the top face
    assert com[1] == pytest.approx(0.020)  # centred across the 40 mm pedestal


def test_overhang_and_marginal_centres_of_mass() -> None:
    # kozo-overhang: the 4L's centre of mass is 0.75 edge beyond its support (square A, x <= 1)
    sc = load_scene(shipped_scene_path("kozo-overhang"))
    o = kozo_grid_origin(sc.physics)
    _, com = sc.piece("4L").mass_and_com(sc.physics)
    assert (com[:2] - o[:2]) / A == pytest.approx([1.75, 0.75])
    # kozo-marginal: 2b's centre of mass is 0.06 edge = 1.068 mm inside its support's edge x = 2
    sc = load_scene(shipped_scene_path("kozo-marginal"))
    _, com = sc.piece("2b").mass_and_com(sc.physics)
    assert (2 * A - (com[0] - o[0])) * 1e3 == pytest.approx(1.068)


def test_lines_survive_multiline_arrays() -> None:
    text = "\n".join(
        [
            "[[piece]]",  # 1
            "cells = [",  # 2
            "  [0, 0, 0],",  # 3
            "  [1, 0, 0]",  # 4: looks like a header to a naive scan
            "]",  # 5
            "at = [0, 0, 0]",  # 6
            "",  # 7
            "[[piece]]",  # 8
            'piece = "kozo-standard:2a"',  # 9
            "at = [0, 0, 0, 1]",  # 10
        ]
    )
    probs = problems_of(text)
    assert [(p.path, p.line) for p in probs] == [("piece[1].at", 10)]


def test_scene_files_use_readable_physics_names_only() -> None:
    (p,) = problems_of("[physics]\nkozo_cube = 0.02")
    assert p.path == "physics.kozo_cube" and "did you mean 'kozo_cube_mm'" in p.message
    cfg = physics_from_table({"kozo_cube_mm": 20, "clearance": 0.0003})
    assert (cfg.kozo_cube, cfg.clearance) == pytest.approx((0.020, 0.0003))
    with pytest.raises(InvalidSceneError) as info:
        physics_from_table({"clearance": 0.0003, "friction": "high"}, si_names=False)
    assert sorted(p.path for p in info.value.problems) == ["physics.clearance", "physics.friction"]
