"""The table's fixed extent (issue 32): the table top, its faked shadows' area and the start
view are computed once from the game's layout bound and never change as pieces move, go far
away or leave the table (before, a piece carried 1 m away grew the table and stretched the
shadow decal into blocky texels; a Katamino piece leaving the supply shrank the table).

The pure computation (:func:`tablesim.sim.view.table_extent.table_extent`) is checked on
layouts whose bound is worked out by hand; the apps offscreen (tiny backend)."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from tablesim.sim.view.table_extent import table_extent

TAN52 = math.tan(math.radians(52.0))  # the key light's elevation (sim.view.shadows)
BLUR4 = 4 * 1.6e-3  # four shadow blur radii


# ---- the pure computation -------------------------------------------------------------------
def test_a_small_flat_layout() -> None:
    # bound (0, 0, 0)..(0.2, 0.1, 0.05): half diagonal sqrt(0.05)/2, top 0.05
    e = table_extent(np.array([[0.0, 0.0, 0.0], [0.2, 0.1, 0.05], [0.1, 0.05, 0.02]]))
    r = math.sqrt(0.2**2 + 0.1**2) / 2
    assert e.half == pytest.approx(4 * r)  # 4 r = 0.447 > 2.5 * 0.05
    assert e.centre == pytest.approx((0.1, 0.05))
    assert e.thickness == pytest.approx(0.06 * 4 * r)
    # margin max(0.05, 0.25 * 0.2) = 0.05
    assert e.play_lo == pytest.approx((-0.05, -0.05, 0.0))
    assert e.play_hi == pytest.approx((0.25, 0.15, 0.05))
    reach = 0.05 / TAN52 + BLUR4  # 0.0455 m
    assert e.shadow_lo == pytest.approx((-0.05 - reach, -0.05 - reach))
    assert e.shadow_hi == pytest.approx((0.25 + reach, 0.15 + reach))
    assert e.table_lo == pytest.approx(np.array([0.1, 0.05]) - 4 * r)


def test_a_tall_tower_widens_the_table_and_the_shadow_area() -> None:
    # a 2 cm x 2 cm column 30 cm tall: the table's half side is 2.5 * 0.3, not 4 r
    e = table_extent(np.array([[-0.01, -0.01, 0.0], [0.01, 0.01, 0.3]]))
    assert e.half == pytest.approx(0.75)
    assert e.thickness == pytest.approx(0.045)
    assert e.play_lo == pytest.approx((-0.06, -0.06, 0.0))
    assert e.play_hi == pytest.approx((0.06, 0.06, 0.3))
    reach = 0.3 / TAN52 + BLUR4  # the shadow of the top at 52 degrees: 0.241 m
    assert e.shadow_lo == pytest.approx((-0.06 - reach,) * 2)
    assert e.shadow_hi == pytest.approx((0.06 + reach,) * 2)


def test_a_wide_layout_gets_a_proportional_margin_and_clamps_far_points() -> None:
    e = table_extent(np.array([[0.0, 0.0, 0.0], [1.0, 0.2, 0.0]]))
    assert e.half == pytest.approx(2 * math.sqrt(1.04))  # 4 * sqrt(1 + 0.04) / 2
    # margin 0.25 * 1.0 = 0.25 (more than 0.05)
    assert e.play_lo == pytest.approx((-0.25, -0.25, 0.0))
    assert e.play_hi == pytest.approx((1.25, 0.45, 0.0))
    assert e.shadow_lo == pytest.approx((-0.25 - BLUR4, -0.25 - BLUR4))
    assert e.clamp(5.0, -3.0) == pytest.approx((1.25, -0.25))
    assert e.clamp(0.3, 0.1) == (0.3, 0.1)


def test_no_points_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="at least one finite point"):
        table_extent(np.zeros((0, 3)))
    with pytest.raises(ValueError, match="at least one finite point"):
        table_extent(np.array([[0.0, np.nan, 0.0]]))


# ---- the apps -------------------------------------------------------------------------------
pytest.importorskip("panda3d.core")

SIZE = (320, 180)


def _drawn(app: Any) -> tuple[Any, ...]:
    """The table top's node bounds and the area of the table's shadow map (origin, the side
    of its texel grid in m: the same at full and at coarse texels), drawn."""
    app.frame()
    r = app.renderer
    lo, hi = r._nodes["__table__"].get_tight_bounds()
    top = tuple(round(float(v), 6) for v in (*lo, *hi))
    m = r.shadows._static_maps.get("__table__")
    shadow = (
        None
        if m is None
        else (tuple(np.round(m[2], 6)), tuple(np.round(np.array(m[0].shape) * m[1], 6)))
    )
    return top, shadow


def _view(app: Any) -> tuple[float, ...]:
    """The orbit camera: target (x, y, z), distance, yaw, pitch."""
    c = app.camera_spec()
    return (*(float(v) for v in c["target"]), c["distance"], c["yaw"], c["pitch"])


def _start_extent(app: Any) -> Any:
    """The extent of the start table: that of the points its start view frames."""
    return table_extent(np.asarray(app.framing_points(app._base_layout()), float))


def _redraw_with(app: Any, base: Any, ghosts: tuple[Any, ...] | None = None) -> tuple[Any, ...]:
    """Draw ``base`` as the game's table (and ``ghosts`` as the controller's items)."""
    app._base_layout = lambda: base
    if ghosts is not None:
        app._shown_ghosts = lambda: ghosts
    app._dirty = True
    return _drawn(app)


GAMES = [
    ("kozo", {"players": ("human", "human")}),
    ("kataboom", {"players": ("human", "human")}),
    ("katamino", {"players": ("human",), "options": {"mode": "solo3d"}}),
]


@pytest.mark.parametrize(("game", "kw"), GAMES, ids=[g for g, _ in GAMES])
def test_the_table_and_its_shadow_area_stay_when_pieces_go_far_or_leave(
    game: str, kw: dict[str, Any]
) -> None:
    from tablesim.sim.view.harness import Harness

    with Harness(game, seed=0, size=SIZE, **kw) as h:
        app = h.app
        start = _drawn(app)
        assert start[1] is not None  # the pieces cast a shadow on the table
        base = app._base_layout()
        ghosts = tuple(app._shown_ghosts())
        it = base.items[-1]  # a piece taken 1 m away from the table
        far = replace(it, position=(it.position[0] + 1.0, it.position[1], it.position[2]))
        moved = replace(base, items=(*base.items[:-1], far))
        view = _view(app)
        assert _redraw_with(app, moved, ghosts) == start
        app._reset_view()  # home: the start view, not one framing the far piece
        assert _drawn(app) == start
        assert _view(app) == pytest.approx(view)
        # pieces removed: only the first item of the table left, the supply gone
        assert _redraw_with(app, replace(base, items=base.items[:1]), ()) == start
        assert _redraw_with(app, base, ghosts) == start


def test_a_held_kozo_ghost_stays_inside_the_play_bound() -> None:
    from tablesim.sim.view.harness import Harness

    with Harness("kozo", players=("human", "human"), seed=0, size=SIZE) as h:
        start = _drawn(h.app)
        ext = _start_extent(h.app)
        supply = next(it.id for it in h.app.items() if it.id.startswith("supply-"))
        h.click_item(supply)
        h.hover_world((ext.play_hi[0] + 1.0, ext.play_hi[1] + 0.5, 0.0))
        ghost = [it for it in h.app.items() if it.id.startswith("ghost")]
        assert ghost, "taking a supply piece shows its ghost"
        v = np.concatenate([g.world_vertices() for g in ghost])
        centre = (v[:, :2].min(axis=0) + v[:, :2].max(axis=0)) / 2
        # the pointer's point is clamped to the bound; the ghost's footprint is centred near it
        assert ext.play_lo[0] - 0.05 <= centre[0] <= ext.play_hi[0] + 0.05, centre
        assert ext.play_lo[1] - 0.05 <= centre[1] <= ext.play_hi[1] + 0.05, centre
        assert _drawn(h.app) == start


def test_a_sandbox_piece_let_go_far_away_lands_inside_the_bound_on_the_same_table() -> None:
    from tablesim.sim.scene import resolve_scene
    from tablesim.sim.view.harness import Harness
    from tablesim.sim.view.sandbox import HELD, SandboxApp

    app = SandboxApp(resolve_scene("kozo-tower"), size=SIZE, replicas=1)
    with Harness(app=app) as h:
        start = _drawn(app)
        ext = _start_extent(app)
        palette = {it.id: it.position for it in app.items() if it.id.startswith("palette-")}
        assert palette
        app.take_palette(0)
        h.hover_world((ext.play_hi[0] + 1.0, ext.play_hi[1] + 0.3, 0.0))
        pos = app._held_pose[0]
        assert ext.play_lo[0] - 0.1 <= pos[0] <= ext.play_hi[0] + 0.1, pos
        assert ext.play_lo[1] - 0.1 <= pos[1] <= ext.play_hi[1] + 0.1, pos
        assert app.let_go(), app.verdict
        assert _drawn(app) == start
        assert HELD not in {it.id for it in app.items()}
        assert getattr(app.renderer, "extent", None) == ext
        # and the palette drawn behind the scene stays where it was laid out
        assert {it.id: it.position for it in app.items() if it.id.startswith("palette-")} == palette


def test_zoomed_out_the_table_lies_on_a_grey_floor_not_in_the_blue_sky() -> None:
    """At the farthest zoom (20 m) the picture's bottom corner, off the table, is the floor's
    neutral grey (before: the sky's pale blue, (226, 236, 244) at the bottom)."""
    from tablesim.sim.view.harness import Harness
    from tablesim.sim.view.panda_nodes import SKY_BOTTOM

    with Harness("kozo", players=("human", "human"), seed=0, size=SIZE) as h:
        h.app.zoom(100.0)  # clamped to 20 m
        assert h.app.camera_spec()["distance"] == pytest.approx(20.0)
        img = h.frame().astype(float)
        corner = img[-8:, -40:].reshape(-1, 3).mean(axis=0)
        assert corner.mean() < 200, corner  # far darker than the sky's bottom (235)
        assert corner[2] - corner[0] < 10, corner  # grey, not blue
        assert np.abs(corner - SKY_BOTTOM).max() > 40, corner
        assert h.app.renderer._dr_sky.is_active()  # the sky stays above the horizon
        top = img[:4].reshape(-1, 3).mean(axis=0)
        assert top[2] > top[0] + 20, top  # the blue sky at the top of the picture


def test_a_sandbox_at_rest_draws_full_shadows_not_coarse_blocks() -> None:
    """The sandbox's live world sets every pose each frame; poses that did not change no
    longer count as motion, so once the pieces rest the table's shadows are drawn at full
    detail (before: coarse 4x texels, 256 a side, for as long as the window stayed open)."""
    from tablesim.sim.scene import resolve_scene
    from tablesim.sim.view.harness import Harness
    from tablesim.sim.view.sandbox import SandboxApp
    from tablesim.sim.view.shadows import SHADOW_MAX_TEXELS

    app = SandboxApp(resolve_scene("kozo-tower"), size=SIZE, replicas=1)
    with Harness(app=app) as h:
        for _ in range(60):  # two seconds of the live world: the tower at rest
            app.tick(1 / 30)
            h.frame()
        m = app.renderer.shadows._static_maps["__table__"]
        assert not app.renderer._coarse
        assert max(m[0].shape) == SHADOW_MAX_TEXELS, m[0].shape
