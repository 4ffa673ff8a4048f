"""Dice thrown in PyBullet land showing the values the game state drew (sim/view/dice.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from tablesim.games.rng import Rng
from tablesim.sim.view.dice import FACE_AXES, catego_dice, katoiz_dice, relabel, up_face
from tablesim.sim.view.drawings.common import DIE_EDGE
from tablesim.sim.view.layout import LayoutError

COLOUR_FACES = ("yellow", "green", "white", "red", "blue", "purple")
PICTURE_FACES = ("round", "square", "triangle", "large", "small", "blank")


def _handedness(labels: dict) -> float:  # noqa: ANN001
    """det of the normals of faces 1, 2, 3: its sign is the die's handedness."""
    vec = {v: np.array(FACE_AXES[k]) for k, v in labels.items()}
    return float(np.linalg.det(np.stack([vec[1], vec[2], vec[3]])))


def test_catego_dice_show_the_drawn_values_for_many_seeds() -> None:
    """40 seeded throws of the two pip dice, values drawn independently of the throw: the face
    up at rest carries the drawn value; each die is still a proper die (opposite faces add
    up to 7, same handedness as a standard die: 1, 2, 3 counter-clockwise, det +1 here)."""
    rng = Rng.from_seed(1, "test-dice")
    up_keys = set()
    for seed in range(40):
        a, rng = rng.randint(1, 6)
        b, rng = rng.randint(1, 6)
        roll = catego_dice((a, b), seed)
        assert roll.up_labels() == (a, b)
        for i, lab in enumerate(roll.labels):
            assert all(lab[k] + lab[k.replace("+", "?").replace("-", "+").replace("?", "-")] == 7
                       for k in FACE_AXES)  # fmt: skip
            assert _handedness(lab) == pytest.approx(_handedness(roll.specs[i].labels))
            key, z = up_face(roll.throw.quats[i, -1])
            assert z > 0.995  # flat
            up_keys.add(key)
        # the dice rest on the table (centre at half an edge), apart from each other
        assert np.allclose(roll.throw.positions[:, -1, 2], DIE_EDGE / 2, atol=DIE_EDGE * 0.05)
        gap = np.linalg.norm(roll.throw.positions[0, -1, :2] - roll.throw.positions[1, -1, :2])
        assert gap >= DIE_EDGE * 0.99
    assert len(up_keys) >= 5  # the physics does land on different body faces


def test_katoiz_dice_show_the_drawn_faces() -> None:
    rng = Rng.from_seed(2, "test-dice")
    opposite = {frozenset(p) for p in (("yellow", "purple"), ("green", "blue"), ("white", "red"))}
    for seed in range(30):
        c, rng = rng.choice(COLOUR_FACES)
        p, rng = rng.choice(PICTURE_FACES)
        roll = katoiz_dice((c, p), seed)
        assert roll.up_labels() == (c, p)
        lab = roll.labels[0]
        pairs = {frozenset((lab[f"+{a}"], lab[f"-{a}"])) for a in "xyz"}
        assert pairs == opposite  # opposite faces stay opposite
    only = katoiz_dice(("red", None), 5)
    assert only.up_labels() == ("red",) and [s.id for s in only.specs] == ["colour-die"]


def test_the_dice_really_tumble() -> None:
    """The film shows a throw: the dice fall from above, travel and turn over."""
    roll = catego_dice((6, 6), 3)
    pos, quats = roll.throw.positions, roll.throw.quats
    assert pos[:, 0, 2].min() > 0.05  # thrown from 5 cm up or more
    assert np.linalg.norm(pos[:, -1, :2] - pos[:, 0, :2], axis=1).min() > 0.02
    for i in range(2):
        turn = 2 * np.degrees(np.arccos(min(1.0, abs(float(quats[i, 0] @ quats[i, -1])))))
        assert turn > 45
    assert roll.throw.frames >= 20  # a third of a second at 60 fps, at least


def test_same_seed_same_film_in_another_process() -> None:
    roll = catego_dice((2, 5), 17)
    code = (
        "import json; from tablesim.sim.view.dice import catego_dice; r = catego_dice((2, 5), 17); "
        "print(json.dumps([r.throw.positions.tolist(), r.throw.quats.tolist()]))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    pos, quats = json.loads(out.stdout)
    assert np.array_equal(np.asarray(pos), roll.throw.positions)
    assert np.array_equal(np.asarray(quats), roll.throw.quats)


def test_relabel_refuses_a_value_not_on_the_die() -> None:
    from tablesim.sim.view.drawings.common import die_faces

    with pytest.raises(LayoutError, match="no face 7"):
        relabel(die_faces(1), "+z", 7)
    with pytest.raises(LayoutError, match="no face"):
        catego_dice((0, 3), 1)


def test_items_and_poses_follow_the_throw() -> None:
    """The layout items of the last frame sit where the physics left the dice: the centre of
    each item's box (corner frame) is the body's centre."""
    roll = catego_dice((4, 1), 8)
    items = roll.items(-1)
    for i, item in enumerate(items):
        centre = np.asarray(item.position) + item.rotation() @ np.full(3, DIE_EDGE / 2)
        assert np.allclose(centre, roll.throw.positions[i, -1], atol=1e-9)
        assert set(item.faces) == set(FACE_AXES)


@pytest.mark.parametrize(
    ("game", "options"),
    [("catego", None), pytest.param("katoiz", {"type": "stapeltje"}, marks=pytest.mark.slow)],
)
def test_dice_come_to_rest_in_view(game: str, options: dict | None) -> None:
    """Bots play; after every throw the dice lie inside the picture the player sees (all eight
    corners of each die project into the frame) and are seen there: taking the dice away (a
    metre under the table) changes most pixels of each die's box (a die under the text boxes
    or off the frame would change none). The camera is set before the first throw, so later
    dice, which land anywhere in the tray, must be kept in view by the framing, not by luck."""
    from tablesim.sim.view.interact.tiles_app import app_for

    size = (480, 270)
    rolls = 0
    with app_for(game, options=options, players=("random", "random"), seed=0, size=size,
                 backend="tiny") as app:  # fmt: skip
        app.frame()
        for _ in range(6):
            n = len(app.moves)
            for _ in range(600):  # the bot's move, then its animation (dice film) to the end
                app.tick(1 / 30)
                if len(app.moves) > n and app._showing() is None:
                    break
            img = app.frame()
            roll = app.dice_roll()
            if roll is None:
                continue
            rolls += 1
            rest = roll.poses(-1)
            app.renderer.set_poses({k: ((p[0], p[1], p[2] - 1.0), q) for k, (p, q) in rest.items()})
            bare = app.renderer.render()
            app.renderer.set_poses(rest)
            for i, spec in enumerate(roll.specs):
                c = roll.throw.positions[i, -1]
                corners = np.array(
                    [c + DIE_EDGE * (np.array(s) - 0.5) for s in np.ndindex(2, 2, 2)]
                )
                px = app.renderer.view.project(corners, size)
                lo, hi = px.min(axis=0), px.max(axis=0)
                assert lo.min() >= 0 and hi[0] < size[0] and hi[1] < size[1], (spec.id, lo, hi)
                box = (slice(int(lo[1]), int(hi[1]) + 1), slice(int(lo[0]), int(hi[0]) + 1))
                seen = (np.abs(img[box].astype(int) - bare[box]).sum(axis=2) > 40).mean()
                assert seen > 0.4, (spec.id, c, seen)
    assert rolls >= 3, rolls
