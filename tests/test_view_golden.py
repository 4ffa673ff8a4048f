"""Golden frames: each game's table rendered small on the tiny backend, compared with the
reviewed pictures in ``tests/golden/`` within a tolerance (as dm_control does).

On a mismatch the expected, actual and difference images are written next to each other in a
temporary folder named in the failure message. After a deliberate change of the look, rewrite
the goldens with ``TABLESIM_UPDATE_GOLDEN=1 pytest tests/test_view_golden.py`` and look at them
before committing.

Moving scenes are drawn from a recorded pose log, not from this machine's physics (see
:func:`_scene`). Tolerance: the mean absolute difference at most 1.5 (0-255 scale) and at most 0.5 % of the
pixels differing by more than 40 in any channel -- room for another CPU's rounding in the
software rasteriser and in PyBullet, not for a missing or moved piece (a 20 mm cube at these
sizes covers about 1 % of the picture).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("panda3d.core")
Image = pytest.importorskip("PIL.Image")

GOLDEN = Path(__file__).resolve().parent / "golden"
SIZE = (320, 180)
MEAN_TOL = 1.5
PIXEL_TOL = 40
FRACTION_TOL = 0.005


def compare_frames(
    expected: np.ndarray, actual: np.ndarray, out_dir: Path, name: str
) -> str | None:
    """None when ``actual`` matches ``expected`` within the tolerance; otherwise write
    ``<name>-expected.png``, ``-actual.png`` and ``-diff.png`` (differences x4) to ``out_dir``
    and return a message saying by how much and where the files are."""
    if expected.shape != actual.shape:
        problem = f"shape {actual.shape} instead of {expected.shape}"
    else:
        diff = np.abs(expected.astype(int) - actual.astype(int))
        mean = float(diff.mean())
        frac = float((diff.max(axis=-1) > PIXEL_TOL).mean())
        if mean <= MEAN_TOL and frac <= FRACTION_TOL:
            return None
        problem = (
            f"mean abs difference {mean:.2f} (tolerance {MEAN_TOL}), {frac:.2%} of pixels off "
            f"by more than {PIXEL_TOL} (tolerance {FRACTION_TOL:.1%})"
        )
    out_dir.mkdir(parents=True, exist_ok=True)
    Image.fromarray(expected).save(out_dir / f"{name}-expected.png")
    Image.fromarray(actual).save(out_dir / f"{name}-actual.png")
    if expected.shape == actual.shape:
        d = np.clip(np.abs(expected.astype(int) - actual.astype(int)) * 4, 0, 255)
        Image.fromarray(d.astype(np.uint8)).save(out_dir / f"{name}-diff.png")
    return f"golden frame {name}: {problem}; expected/actual/diff images in {out_dir}"


def _scene(name: str, seconds: float = 0.0):  # noqa: ANN202
    """A shipped scene as built, or at ``seconds`` into its fall drawn from the recorded pose
    log ``tests/golden/NAME-SECONDSs.poses.json``: the pixels of a moving scene must not depend
    on the physics bits (a falling piece's pose at 0.4 s differs between CPUs and wheels), so
    the frame is checked for drawing and the physics for what it claims
    (:func:`test_the_overhang_state_it_draws`). ``TABLESIM_UPDATE_GOLDEN=1`` records the log
    afresh from this machine's physics."""
    import json

    from tablesim.sim.scene import load_scene, shipped_scene_path
    from tablesim.sim.view.drawings import scene_layout
    from tablesim.sim.world import World

    scene = load_scene(shipped_scene_path(name))
    poses = None
    if seconds:
        log = GOLDEN / f"{name}-{seconds}s.poses.json"
        if os.environ.get("TABLESIM_UPDATE_GOLDEN") == "1" or not log.exists():
            with World(scene, "verdict") as world:
                world.run(seconds)
                poses = world.poses()
            rows = {
                k: [[float(x) for x in pos], [float(x) for x in q]] for k, (pos, q) in poses.items()
            }
            log.write_text(json.dumps(rows, indent=1) + "\n")
        rows = json.loads(log.read_text())
        poses = {k: (np.array(pos), np.array(q)) for k, (pos, q) in rows.items()}
    return scene_layout(scene, poses)


def test_the_overhang_state_it_draws() -> None:
    """The physics of the moving golden frame, checked on any machine by what it shows: at
    0.4 s the overhanging 4L has fallen (moved more than half a cube and tilted more than 20
    degrees: the topple rule's bounds, ``ToppleRule``) and every other piece stands (within
    the verdict's "stands" bounds, ``EarlyStop``: 0.5 mm, 1 degree)."""
    from tablesim.sim.scene import load_scene, shipped_scene_path
    from tablesim.sim.verdict import EarlyStop, ToppleRule
    from tablesim.sim.world import World

    rule, stands = ToppleRule(), EarlyStop()
    scene = load_scene(shipped_scene_path("kozo-overhang"))
    with World(scene, "verdict") as world:
        world.run(0.4)
        moved = dict(zip(world.piece_ids, world.baseline.com_displacements(), strict=True))
        tilt = dict(zip(world.piece_ids, world.baseline.tilts_deg(), strict=True))
        a = world.config.cube_edge("kozo")
    assert moved.pop("4L") > rule.drop_fraction * a and tilt.pop("4L") > rule.tilt_deg
    assert max(moved.values()) < stands.max_move and max(tilt.values()) < stands.max_tilt_deg


def _catego():  # noqa: ANN202
    from tablesim.games.registry import get_game
    from tablesim.sim.view.drawings import catego_layout

    game = get_game("catego")
    state = game.new_game(game.make_config({}, players=3), seed=2)
    for k in range(10):
        moves = game.legal_moves(state)
        state = game.apply(state, moves[(3 * k) % len(moves)])
    return catego_layout(state)


def _example(game: str):  # noqa: ANN202
    from tablesim.sim.view import drawings
    from tablesim.sim.view.drawings import examples

    return getattr(drawings, f"{game}_layout")(getattr(examples, f"example_{game}")())


CASES: dict[str, Callable[[], object]] = {
    "kozo-tower": lambda: _scene("kozo-tower"),
    "kozo-overhang-0.4s": lambda: _scene("kozo-overhang", 0.4),
    "catego": _catego,
    "katamino": lambda: _example("katamino"),
    "katoiz": lambda: _example("katoiz"),
    "kaito": lambda: _example("kaito"),
}


@pytest.mark.parametrize("name", list(CASES))
def test_golden_frame(name: str, tmp_path: Path) -> None:
    from tablesim.sim.view.snapshot import render_pixels

    actual = render_pixels(CASES[name](), size=SIZE, supersample=2, backend="tiny")
    path = GOLDEN / f"{name}.png"
    if os.environ.get("TABLESIM_UPDATE_GOLDEN") == "1":
        Image.fromarray(actual).save(path)
        pytest.skip(f"rewrote {path}")
    if not path.exists():
        pytest.fail(f"no golden frame {path}: run with TABLESIM_UPDATE_GOLDEN=1 and review it")
    with Image.open(path) as img:
        expected = np.asarray(img.convert("RGB"))
    message = compare_frames(expected, actual, tmp_path / "golden-failures", name)
    assert message is None, message


def test_comparison_fails_on_a_moved_piece_and_writes_the_images(tmp_path: Path) -> None:
    """The check itself can fail: a picture with a 16 px square moved by 12 px is rejected and
    leaves the three images; a picture with 1-level noise passes."""
    base = np.full((90, 120, 3), 200, dtype=np.uint8)
    a, b = base.copy(), base.copy()
    a[30:46, 30:46] = (200, 30, 30)
    b[30:46, 42:58] = (200, 30, 30)
    msg = compare_frames(a, b, tmp_path, "moved")
    assert msg is not None and "moved-diff.png" not in msg  # names the folder, not each file
    for suffix in ("expected", "actual", "diff"):
        assert (tmp_path / f"moved-{suffix}.png").is_file()
    noisy = np.clip(a.astype(int) + np.random.default_rng(0).integers(-1, 2, a.shape), 0, 255)
    assert compare_frames(a, noisy.astype(np.uint8), tmp_path / "ok", "noise") is None
    assert not (tmp_path / "ok").exists()
