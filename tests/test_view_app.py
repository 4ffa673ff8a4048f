"""The interactive app: picking, the orbit camera, on-screen text, the scene viewer, commands.

Geometry expectations come from the set-up: a ray straight down onto a box of known height hits
its top; the ray through the pixel where a point is drawn passes through that point.
"""

from __future__ import annotations

import numpy as np
import pytest

from tablesim.sim.cli import main
from tablesim.sim.view.app import SceneApp, pick
from tablesim.sim.view.camera import CameraView, pixel_ray
from tablesim.sim.view.harness import Harness
from tablesim.sim.view.layout import TableLayout, box_item


def test_pixel_ray_goes_through_the_projected_point() -> None:
    view = CameraView((0.3, -0.4, 0.25), (0.0, 0.0, 0.02), 30.0)
    pts = np.array([[0.0, 0.0, 0.0], [0.05, -0.02, 0.07], [-0.1, 0.08, 0.0]])
    for p, px in zip(pts, view.project(pts, (640, 360)), strict=True):
        o, d = pixel_ray(view, (640, 360), *px)
        assert abs(np.linalg.norm(d) - 1) < 1e-12
        # distance from p to the ray
        off = (p - o) - ((p - o) @ d) * d
        assert np.linalg.norm(off) < 1e-9


def test_pick_hits_the_nearest_top_and_falls_back_to_the_table() -> None:
    low = box_item("low", (0.02, 0.02, 0.01), (0.0, 0.0, 0.0), (1, 0, 0))
    high = box_item("high", (0.02, 0.02, 0.01), (0.0, 0.0, 0.01), (0, 1, 0))
    ghost = box_item("ghost", (0.02, 0.02, 0.01), (0.0, 0.0, 0.02), (0, 0, 1))
    lay = TableLayout("t", (low, high, ghost))
    item, point = pick(lay, (0.01, 0.01, 1.0), (0.0, 0.0, -1.0))
    assert item == "high" and point == pytest.approx((0.01, 0.01, 0.02))  # ghost not picked
    item, point = pick(lay, (0.5, 0.5, 1.0), (0.0, 0.0, -1.0))
    assert item is None and point == pytest.approx((0.5, 0.5, 0.0))
    assert pick(lay, (0.5, 0.5, 1.0), (0.0, 0.0, 1.0)) == (None, None)


def _pick_one_by_one(lay, origin, direction):  # noqa: ANN001, ANN202  (the former pick)
    o, d = np.asarray(origin, float), np.asarray(direction, float)
    best, best_t = None, np.inf
    for it in lay.items:
        if it.id.startswith("ghost"):
            continue
        tri = it.world_triangles()
        lo, hi = tri.reshape(-1, 3).min(axis=0), tri.reshape(-1, 3).max(axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            t1, t2 = (lo - o) / d, (hi - o) / d
        tmin, tmax = np.nanmax(np.minimum(t1, t2)), np.nanmin(np.maximum(t1, t2))
        if tmax < max(tmin, 0.0) or tmin > best_t:
            continue
        from tablesim.sim.view.picking import _hit_triangles

        t = _hit_triangles(o, d, tri)
        if t < best_t:
            best, best_t = it.id, t
    return best, (None if best is None else tuple(o + best_t * d))


def test_pick_answers_as_testing_every_item_one_by_one_did() -> None:
    """The boxes tested all at once pick the same item at the same point as testing every
    item in turn, on a Kozo table with its supply and a tower, from 400 seeded rays through
    the picture (over the tower, the supply and bare table)."""
    with Harness("kozo", options={"table": "stand-in"}, seed=2) as h:
        for text in ("take 2a", "2a r0 at 1,1"):
            h.app.type_move(text)
            h.settle()
        lay = h.app.layout()
        rng = np.random.default_rng(0)
        hits = 0
        for x, y in rng.uniform((0, 0), h.app.size, size=(400, 2)):
            o, d = h.app.renderer.ray(float(x), float(y))
            item, point = pick(lay, o, d)
            want, at = _pick_one_by_one(lay, o, d)
            assert item == want, (x, y)
            if want is not None:
                hits += 1
                assert point == pytest.approx(at, abs=1e-12)
        assert hits > 40  # the rays did hit pieces


def test_orbit_zoom_pan_and_text() -> None:
    with Harness("kozo", options={"table": "stand-in"}, seed=1) as h:
        app = h.app
        cam = app.camera_spec()
        d0, yaw0 = cam["distance"], cam["yaw"]
        h.wheel(1)
        assert app.camera_spec()["distance"] == pytest.approx(d0 * 0.9)
        h.key("arrow_right")
        assert app.camera_spec()["yaw"] == pytest.approx((yaw0 + 10) % 360)
        # right-drag orbits: 100 px to the left turns by +40 degrees
        h.move(400, 200)
        h.drag((300, 200), button="right")
        assert app.camera_spec()["yaw"] == pytest.approx((yaw0 + 50) % 360)
        t0 = np.asarray(app.camera_spec()["target"])
        h.move(300, 200)
        h.drag((300, 260), button="middle")
        assert np.linalg.norm(np.asarray(app.camera_spec()["target"]) - t0) > 0
        h.key("home")
        assert app.camera_spec()["yaw"] == pytest.approx(yaw0)
        text = h.text()
        assert "P1 to move (human)" in text["top-left"]
        assert "score: P1 0, P2 0" in text["top-left"]
        assert text["top-right"] == "f1: help"  # the help never covers the table unasked
        h.key("f1")
        shown = h.text()
        assert "f1: help" not in shown.values()
        # the help goes to a right-hand corner (the one hiding less of the game)
        assert any("undo" in shown.get(c, "") for c in ("top-right", "bottom-right")), shown
        h.key("f1")
        assert h.text()["top-right"] == "f1: help"
        img = h.frame()
        assert img.shape == (360, 640, 3) and img.dtype == np.uint8


def test_move_line_plays_typed_moves_and_reports_bad_ones() -> None:
    with Harness("kozo", options={"table": "stand-in"}, seed=1) as h:
        assert not h.app.type_move("take nosuchpiece")
        assert "nosuchpiece" in h.app.explanation
        assert h.app.type_move("take 2a")
        assert h.app.state.touched == "2a"
        assert "move> " not in h.text().get("bottom-left", "")


def test_a_game_over_refuses_moves() -> None:
    with Harness("katamino", options={"mode": "traditional"}, players=("human",), seed=0) as h:
        assert h.app.type_move("quit")
        assert h.app.game.is_terminal(h.app.state)
        assert not h.app.play(h.app.game.parse_move(h.app.state, "hint"))
        assert "over" in h.app.verdict
        assert "game over" in h.text()["top-left"]


def test_scene_app_runs_the_scene_live_then_shows_the_verdict() -> None:
    from tablesim.sim.scene import resolve_scene

    scene = resolve_scene("kozo-overhang")  # 4L's centre of mass lies 13.5 mm off its support
    with SceneApp(scene, size=(320, 180), seconds=1.0, replicas=1) as app:
        h = Harness(app=app)
        before = {it.id: it.position for it in app.items()}
        h.key("space")
        assert app.busy and "judging" in app.explanation
        h.app.tick(1 / 30)
        assert 0 < app.live.time <= 1 / 30 + 1e-9  # one frame advanced by one frame's time
        h.settle()
        assert not app.busy
        app.finish_run(timeout=120)
        assert app.verdict.startswith("verdict (verdict profile): topples"), app.verdict
        moved = {it.id: it.position for it in app.layout().items}  # what is drawn now
        assert set(moved) == set(before)
        assert max(np.linalg.norm(np.subtract(moved[k], before[k])) for k in before) > 0.005
        h.key("r")
        assert {it.id: it.position for it in app.layout().items} == before


def test_view_command_headless(tmp_path, capsys) -> None:  # noqa: ANN001
    out = tmp_path / "v.png"
    assert main(["view", "kozo-tower", "--headless", "--size", "320x180", "-o", str(out)]) == 0
    assert out.is_file() and out.stat().st_size > 0
    assert "scene kozo-tower" in capsys.readouterr().out
    assert main(["view", "no-such-scene", "--headless"]) == 2
    assert main(["view", "kozo-tower", "--headless", "--size", "0x5"]) == 2
    assert main(["view", "kozo-tower", "--headless", "-o", str(tmp_path / "x.gif")]) == 2
    assert not (tmp_path / "x.gif").exists()


def test_play_headless_is_unchanged(capsys) -> None:  # noqa: ANN001
    assert main(["play", "catego", "--players", "random,random", "--seed", "3", "--headless"]) == 0
    assert "result:" in capsys.readouterr().out


def test_record_of_a_finished_game_replays(tmp_path) -> None:  # noqa: ANN001
    from tablesim.games.log import log_lines, parse_log
    from tablesim.games.session import log_header, replay_log
    from tablesim.sim.cli import version

    with Harness("katamino", options={"mode": "traditional"}, players=("human",), seed=0) as h:
        h.app.type_move("hint")
        h.app.type_move("quit")
        rec = h.app.record()
        assert rec.moves == ["hint", "quit"] and rec.result is not None
        header = log_header(h.app.game, h.app.config, 0, h.app.seats, version())
        path = tmp_path / "g.jsonl"
        path.write_text("\n".join(log_lines(header, rec)) + "\n")
    report = replay_log(parse_log(path.read_text().splitlines(), str(path)))
    assert report.ok and report.moves_checked == 2, report.message


def test_renderer_replace_items_adds_and_removes_without_a_rebuild() -> None:
    from tablesim.sim.view.renderer import Renderer

    base = TableLayout(
        "t", (box_item("b", (0.04, 0.04, 0.02), (-0.02, -0.02, 0.0), (0.5, 0.5, 0.5)),)
    )
    red = box_item("ghost", (0.02, 0.02, 0.02), (0.03, -0.01, 0.0), (1.0, 0.0, 0.0))
    with Renderer((160, 90), backend="tiny") as r:
        view = r.show(base)
        first = r.render()
        r.replace_items([], [red])
        col, row = view.project(np.array([[0.04, 0.0, 0.02]]), (160, 90))[0]
        with_red = r.render()
        px = with_red[int(row), int(col)].astype(int)
        assert px[0] > px[1] + 60 and px[0] > px[2] + 60  # red where the box top is drawn
        r.replace_items(["ghost"], [])
        assert np.array_equal(r.render(), first)
        with pytest.raises(KeyError):
            r.replace_items(["ghost"], [])
        with pytest.raises(ValueError):
            r.replace_items([], [base.items[0]])
