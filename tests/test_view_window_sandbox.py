"""The sandbox (``tablesim view SCENE --sandbox``): take a piece, let it go, watch it settle
in display physics, undo, reset, save a scene that ``simulate`` reads.

The logic runs offscreen through the input harness (the same methods a window calls); one
real-window test drives ``tablesim view --sandbox`` under Xvfb with xdotool and checks the
saved file. Expected values come from physics, not from the code: a piece let go 2 mm above
the table falls and comes to rest on it (its lowest point at z = 0 within the soft contact's
fraction of a millimetre).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from test_view_window import NEEDS_X, Window, shots, xdisplay  # noqa: F401  (fixtures)

from tablesim.sim.cli import main
from tablesim.sim.scene import load_scene, resolve_scene
from tablesim.sim.view.harness import Harness
from tablesim.sim.view.sandbox import DROP_GAP, SandboxApp, palette, scene_toml


def _lowest(piece, cfg) -> float:  # noqa: ANN001
    return min(float(b.corners()[:, 2].min()) for b in piece.world_boxes(cfg))


def _settle(app: SandboxApp, seconds: float = 3.0) -> None:
    for _ in range(int(seconds * 30)):
        app.tick(1 / 30)
        if app.live.done:
            break


def test_palette_offers_every_catalogue_piece() -> None:
    names = palette()
    assert ("kozo-standard", "4L") in names and ("kozo-balance", "b1") in names
    assert ("katamino-duo", "V1") in names
    assert len(names) == 12 + 18 + 12  # the three catalogues' published piece counts


def test_take_let_go_settle_undo_reset_and_save_round_trip(tmp_path) -> None:  # noqa: ANN001
    scene = resolve_scene("cantilever-safe")
    out = tmp_path / "built.toml"
    with SandboxApp(scene, size=(480, 270), save_to=out, replicas=1) as app:
        h = Harness(app=app)
        h.frame()
        start = len(app.table.pieces)
        app.pick_index = palette().index(("kozo-standard", "2a"))
        h.move(60, 230)  # the front left of the table, away from the scene's pieces
        h.key("p")
        assert app.held is not None and app.held.source == "kozo-standard:2a"
        h.move(60, 232)
        h.key("r")  # a quarter turn about the vertical
        held_z = _lowest(app._held_piece(), scene.physics)
        assert held_z == pytest.approx(DROP_GAP, abs=1e-9)  # 2 mm above the table
        assert h.click()
        assert len(app.table.pieces) == start + 1 and app.held is None
        _settle(app)
        assert app.live.done  # at rest: the run ended by itself
        settled = app._settled()
        dropped = next(p for p in settled.pieces if p.id == "2a")
        assert abs(_lowest(dropped, scene.physics)) < 2e-4  # fell 2 mm, lies on the table
        path = app.save()
        loaded = load_scene(path)  # the loader's own checks: no overlaps, nothing below z = 0
        assert [p.id for p in loaded.pieces] == [p.id for p in settled.pieces]
        for a, b in zip(loaded.pieces, settled.pieces, strict=True):
            assert np.allclose(a.position, b.position, atol=5e-5)  # moved apart <= 0.05 mm
            assert np.allclose(np.abs(np.dot(a.orientation, b.orientation)), 1.0, atol=1e-9)
        h.key("u")
        assert len(app.table.pieces) == start
        h.key("c")
        assert [p.position for p in app.table.pieces] == [p.position for p in scene.pieces]
    assert main(["simulate", str(out), "--replicas", "2"]) == 0


def test_a_held_piece_is_never_let_go_inside_another() -> None:
    """A pose 5 mm inside a piece of the scene is refused (the piece stays in hand, the table
    is unchanged); lifted 1 mm clear of it, the same piece is let go."""
    scene = resolve_scene("cantilever-safe")
    with SandboxApp(scene, size=(320, 180), replicas=1) as app:
        h = Harness(app=app)
        h.frame()
        start = len(app.table.pieces)
        app.pick_index = palette().index(("kozo-standard", "2a"))
        h.key("p")
        assert app.held is not None
        target = max(
            scene.dynamic,
            key=lambda p: max(b.corners()[:, 2].max() for b in p.world_boxes(scene.physics)),
        )
        top = max(float(b.corners()[:, 2].max()) for b in target.world_boxes(scene.physics))
        lo = min(float(b.corners()[:, 2].min()) for b in target.world_boxes(scene.physics))
        q = app._held_quat()
        probe = replace(app.held, position=(0.0, 0.0, 0.0), orientation=q)
        under = min(float(b.corners()[:, 2].min()) for b in probe.world_boxes(scene.physics))
        centre = np.mean([b.centre for b in target.world_boxes(scene.physics)], axis=0)
        for z_low, ok in ((top - 0.005, False), (top + 0.001, True)):
            assert z_low > lo
            app._held_pose = (np.array([centre[0], centre[1], z_low - under]), q)
            assert app.let_go() is ok, app.verdict
            if not ok:
                assert app.held is not None and len(app.table.pieces) == start
                assert app.verdict.startswith("refused: 2a would be"), app.verdict
        assert len(app.table.pieces) == start + 1 and app.held is None


def test_the_palette_is_drawn_and_a_click_takes_its_piece() -> None:
    with SandboxApp(resolve_scene("cantilever-safe"), size=(640, 360), replicas=1) as app:
        h = Harness(app=app)
        h.frame()
        drawn = {it.id for it in app.items() if it.id.startswith("palette-")}
        assert drawn == {f"palette-{k}" for k in range(len(palette()))}  # every piece
        k = palette().index(("kozo-standard", "4L"))
        h.move(*h.item_pixel(f"palette-{k}"))
        h.click()
        assert app.held is not None and app.held.source == "kozo-standard:4L"


def test_scene_toml_writes_what_the_loader_reads_back() -> None:
    scene = resolve_scene("kozo-overhang")
    text = scene_toml(scene)
    path_scene = load_scene_from_text(text)
    assert [p.id for p in path_scene.pieces] == [p.id for p in scene.pieces]
    for a, b in zip(path_scene.pieces, scene.pieces, strict=True):
        assert np.allclose(a.position, b.position, atol=1e-9)
        assert a.static == b.static
        if b.box is not None:  # the board is written as the static box it is
            assert np.allclose(a.box, b.box, atol=1e-9)
        else:
            assert a.source == b.source and a.cells == b.cells


def test_scene_toml_keeps_the_judged_pieces() -> None:
    # a drop scene judges only its stack: the file must say so, or the dropped piece rolling
    # off would read back as a fall of the scene (issue 31)
    scene = resolve_scene("kozo-overhang")
    ids = [p.id for p in scene.dynamic]
    judged = replace(scene, judged=(ids[-1], ids[0]))
    assert load_scene_from_text(scene_toml(judged)).judged == (ids[-1], ids[0])
    assert load_scene_from_text(scene_toml(scene)).judged is None


def load_scene_from_text(text: str):  # noqa: ANN201
    from tablesim.sim.scene import parse_scene

    return parse_scene(text, "<sandbox>")


@NEEDS_X
@pytest.mark.slow
def test_sandbox_window_builds_and_saves(xdisplay: str, shots, tmp_path) -> None:  # noqa: ANN001, F811
    out = tmp_path / "w.toml"
    w = Window(xdisplay, ["view", "cantilever-safe", "--sandbox", "--size", "640x360", "--save",
                          str(out)], "tablesim view", shots)  # fmt: skip
    try:
        before = w.grab("sandbox-start")
        w.keys("p")
        w.point(0.15, 0.85)
        w.wait(lambda: (np.abs(w.grab().astype(int) - before).sum(axis=2) > 30).mean() > 0.002,
               "the piece in hand is not drawn")  # fmt: skip
        w.xdotool("click", "1")
        w.grab("sandbox-dropped")
        w.keys("s")
        w.wait(lambda: out.is_file(), "s did not save the table")
        w.keys("Escape")
        code, _, err = w.finish()
        assert code == 0, err
        scene = load_scene(out)
        assert len(scene.pieces) == len(resolve_scene("cantilever-safe").pieces) + 1
    finally:
        w.kill()
