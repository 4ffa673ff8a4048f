"""The display escalates on thin margins as the verdict does (issue #19, goal 3).

Hand geometry as in ``tests/test_stacks.py`` (whose ``stack`` and ``frac_for`` build the cases):
a leaning stack of n cubes with worst joint margin m carries n - 1 cubes over that joint, their
centre of mass (n - 1) a / 2 above it, so gravity may lean atan(m / ((n - 1) a / 2)) before the
rigid stack fails (the statics tilt margin). Every face-on-face joint of loose cubes (the table
joint included) is 4 corner points, so a straight or leaning n-stack has 4 n contact points.
"""

from __future__ import annotations

import shutil
from dataclasses import replace

import numpy as np
import pytest
from test_stacks import A, frac_for, stack
from test_view_window import NEEDS_X, Window, shots, xdisplay  # noqa: F401  (fixtures)

from tablesim.sim.config import DISPLAY
from tablesim.sim.escalation import LIVE_DIRECT_MAX_POINTS, live_display
from tablesim.sim.verdict import simulate


def hand_tilt_deg(n: int, margin_mm: float) -> float:
    """The tilt margin of an n-stack whose worst joint has ``margin_mm`` (module docstring)."""
    return float(np.degrees(np.arctan(margin_mm * 1e-3 / ((n - 1) * A / 2))))


def test_thin_margin_display_escalates_to_the_direct_solver() -> None:
    """9 cubes at +0.5 mm: tilt margin atan(0.5 mm / 4 a) = 0.40 deg, below the display's
    1.5 deg, so ``simulate(profile="display")`` runs in ``display-exact`` (the direct solver at
    1/180 s), says so in its JSON and stands as rigid statics says; with the display's
    escalation off its Gauss-Seidel springs topple the same stack within the second. 9 cubes
    at +2 mm (1.61 deg) stay on Gauss-Seidel and stand."""
    tilt = hand_tilt_deg(9, 0.5)
    assert tilt == pytest.approx(0.40, abs=0.01)
    kw: dict = dict(method="simulate", replicas=1, seconds=1.0, workers=1)
    v = simulate(stack(9, frac_for(9, 0.5)), profile="display", **kw)
    doc = v.to_json()
    assert doc["profile"] == "display" and doc["escalation"]["profile"] == "display-exact"
    assert doc["escalation"]["time_step"] == pytest.approx(1 / 180)
    assert doc["escalation"]["tilt_margin_deg"] == pytest.approx(tilt, abs=0.01)
    assert "direct solver" in v.explanation and v.verdict == "stands"
    off = replace(DISPLAY, escalate_below_deg=None)
    assert simulate(stack(9, frac_for(9, 0.5)), profile=off, **kw).verdict == "topples"
    assert hand_tilt_deg(9, 2.0) > 1.5
    wide = simulate(stack(9, frac_for(9, 2.0)), profile="display", **{**kw, "seconds": 0.2})
    assert wide.escalation is None and "escalation" not in wide.to_json()
    assert wide.verdict == "stands"


def test_live_view_escalates_only_where_the_direct_solver_fits_a_frame() -> None:
    """The live view's choice (:func:`tablesim.sim.escalation.live_display`): a thin 9-stack (36 points)
    runs in the direct solver and the HUD line says so; a thin 21-stack (84 points, over the
    bound) keeps Gauss-Seidel and the line says the display may disagree with the verdict; a
    wide 9-stack needs no line. A 20-stack (80 points) is the tallest the bound takes."""
    assert 20 * 4 <= LIVE_DIRECT_MAX_POINTS < 21 * 4
    small = live_display(stack(9, frac_for(9, 0.5)))
    assert small.escalated and small.profile.name == "display-exact"
    assert small.contact_points == 4 * 9 and "direct solver" in small.note
    assert f"{hand_tilt_deg(9, 0.5):.2f} deg" in small.note
    assert hand_tilt_deg(21, 2.0) < 1.5
    big = live_display(stack(21, frac_for(21, 2.0)))
    assert not big.escalated and big.profile.name == "display" and big.escalation is not None
    assert big.contact_points == 4 * 21 and "may disagree with the verdict" in big.note
    wide = live_display(stack(9, frac_for(9, 2.0)))
    assert wide.profile is DISPLAY and wide.note == "" and wide.escalation is None


def test_scene_view_runs_a_thin_stack_in_the_direct_solver_and_says_so() -> None:
    """The scene view (offscreen, through the input harness): ``space`` on a thin 9-stack builds
    its world in ``display-exact``, the top-left HUD says "direct solver", and the stack it
    shows stands for a second (no cube drops, rigid statics' answer), which the Gauss-Seidel
    display does not (``test_thin_margin_display_escalates_to_the_direct_solver``)."""
    from tablesim.sim.view.harness import Harness
    from tablesim.sim.view.scene_app import SceneApp

    with SceneApp(stack(9, frac_for(9, 0.5)), size=(320, 180), seconds=1.0, replicas=1) as app:
        h = Harness(app=app)
        app.run_scene(judge=False)
        assert app.live.world.profile.name == "display-exact"
        assert "display: direct solver" in h.text()["top-left"]
        before = app.live.poses
        app.live.advance(1.0, budget_s=np.inf)  # the run may end early, at rest (LiveRun)
        drop = max(float(before[k][0][2] - pos[2]) for k, (pos, _) in app.live.poses.items())
        assert drop < 1e-4, drop


def test_no_shipped_scene_escalates_in_the_display() -> None:
    """Every shipped scene's statics tilt margin is at least 1.5 deg or absent (docs: 20.6, 12.7,
    6.2 deg; the overhang and the tipping cantilever have no equilibrium), so neither
    ``simulate(profile="display")`` nor the live view changes for any of them."""
    from tablesim.sim.config import DISPLAY
    from tablesim.sim.escalation import escalation
    from tablesim.sim.scene import load_scene, shipped_scene_names, shipped_scene_path
    from tablesim.sim.statics import analyse

    for name in shipped_scene_names():
        scene = load_scene(shipped_scene_path(name))
        statics = analyse(scene, clearance=scene.physics.clearance)
        assert statics.tilt_margin_deg is None or statics.tilt_margin_deg > 1.5, name
        assert escalation(DISPLAY, DISPLAY.time_step, statics) is None, name
        assert live_display(scene).profile is DISPLAY and live_display(scene).note == "", name


# ---------------------------------------------------------------------- the real window
def _stack_toml(path, n: int, margin_mm: float) -> str:  # noqa: ANN001
    frac = frac_for(n, margin_mm)
    lines = [f'name = "lean-{n}"', 'unit = "kozo"', "seconds = 2.0"]
    for k in range(n):
        lines += ["", "[[piece]]", f'id = "c{k}"', "cells = [[0, 0, 0]]", 'cube = "kozo"',
                  f"at = [{-0.5 + k * frac!r}, -0.5, {k}]"]  # fmt: skip
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def _panel_rows(pixels: np.ndarray) -> int:
    """Rows of the top-left status panel (its dark slate colour at x = 11, left of the text)."""
    return int((pixels.astype(int)[:, 11].max(axis=1) < 100).sum())


@NEEDS_X
@pytest.mark.slow
def test_view_window_says_the_display_runs_the_direct_solver(
    xdisplay: str,  # noqa: F811 (the fixture)
    shots,  # noqa: ANN001, F811
    tmp_path,  # noqa: ANN001
) -> None:
    """The real program: ``tablesim view`` of a 20-stack at +0.1 edge (tilt margin 0.60 deg, 80
    contact points) under Xvfb, ``space`` pressed with xdotool, the window grabbed with
    ImageMagick's ``import -window``: its status panel has one line more than the same view of
    a 20-stack at +5 mm (1.69 deg: no escalation, no line), the line being "display physics:
    direct solver, as the verdict (...)" (looked at: the screenshots are kept in
    ``$TABLESIM_WINDOW_SHOTS``), and the verdict printed is "stands"."""
    import subprocess

    if shutil.which("import") is None:
        pytest.skip("needs ImageMagick's import")
    from PIL import Image

    rows, outputs = {}, {}
    for name, margin in (("thin", 0.1 * A * 1e3), ("wide", 5.0)):
        assert (hand_tilt_deg(20, margin) < 1.5) == (name == "thin")
        scene = _stack_toml(tmp_path / f"{name}.toml", 20, margin)
        w = Window(xdisplay, ["view", scene, "--size", "960x540", "--replicas", "1"],
                   "tablesim view", shots)  # fmt: skip
        try:
            before = _panel_rows(w.grab())  # 2 lines: the scene, "space: run the scene ..."
            w.keys("space")
            # the run's lines (the scene, [the display line], "running", "judging") until the
            # verdict arrives, seconds later (a fresh process judges it)
            w.wait(lambda w=w, b=before: _panel_rows(w.grab()) > b, "space did not start a run")
            png = shots / f"view-direct-solver-{name}.png"
            subprocess.run(["import", "-window", w.wid, str(png)], env=w.env, check=True,
                           timeout=60)  # fmt: skip
            rows[name] = _panel_rows(np.asarray(Image.open(png).convert("RGB")))
            w.wait(lambda w=w: "verdict (" in w.output(), "no verdict printed", timeout=180)
            outputs[name] = w.output()
            w.keys("Escape")
            code, _, err = w.finish()
            assert code == 0, err
        finally:
            w.kill()
    assert "verdict (verdict profile): stands" in outputs["thin"], outputs["thin"]
    assert "used the direct solver" in outputs["thin"]
    assert "verdict (verdict profile): stands" in outputs["wide"], outputs["wide"]
    # one text line is ~15 px at 960x540: the thin run's panel holds one line more
    assert 10 <= rows["thin"] - rows["wide"] <= 20, rows


def test_films_of_a_thin_scene_run_where_its_verdict_runs(tmp_path, capsys) -> None:  # noqa: ANN001
    """``tablesim record`` of 9 cubes at +0.5 mm (tilt margin 0.40 deg) as an animated glTF: the
    film runs in the exact profile's direct solver, as the verdict's replicas do, says so, and
    its stack stands (the top cube's last keyframe within 0.1 mm of its first); the same film
    with ``--profile display`` runs in display-exact. A wide stack's film is the profile's own."""
    from tablesim.sim.cli import main
    from tablesim.sim.escalation import escalated_profile

    path = _stack_toml(tmp_path / "lean-9.toml", 9, 0.5)
    for name, direct in (("verdict", "exact"), ("display", "display-exact")):
        prof, esc = escalated_profile(stack(9, frac_for(9, 0.5)), name)
        assert prof.name == direct and esc is not None
        assert esc.tilt_margin_deg == pytest.approx(hand_tilt_deg(9, 0.5), abs=0.01)
        wide, none = escalated_profile(stack(9, frac_for(9, 2.0)), name)
        assert wide.name == name and none is None
    out = tmp_path / "lean-9.glb"
    assert main(["record", path, "-o", str(out), "--seconds", "0.1"]) == 0
    assert "run in the direct solver of the exact profile" in capsys.readouterr().out
    from tablesim.sim.scene import load_scene
    from tablesim.sim.view.gltf_anim import scene_tracks

    _, tracks = scene_tracks(load_scene(path), seconds=1.0, fps=30, slow=1.0,
                             profile=escalated_profile(load_scene(path), "verdict")[0])  # fmt: skip
    top = tracks["c8"]
    assert float(np.linalg.norm(top[-1, :3] - top[0, :3])) < 1e-4
