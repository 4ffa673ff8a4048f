"""The Kozo table in the app (offscreen): the supply stays on the table while a move is judged
and filmed, taken pieces leave gaps (the others never move about), the 5-second rule is on
screen with a countdown and who answers for the tower, a person's ``@`` time counts only their
own turn, and a film of nothing moving is skipped."""

from __future__ import annotations

import numpy as np
import pytest

from tablesim.sim.view.app import advance_film
from tablesim.sim.view.harness import Harness


def first(app, kinds: tuple[str, ...]) -> str:  # noqa: ANN001
    m = next(m for m in app.game.legal_moves(app.state) if m.kind in kinds)
    return app.game.format_move(app.state, m)


def ticks(app, n: int = 400, dt: float = 1 / 30) -> None:  # noqa: ANN001
    for _ in range(n):
        app.tick(dt)
        app.frame()
        if not app.busy:
            return


def first_turn(app, start: float) -> list[float]:  # noqa: ANN001
    """Put a hand clock (``clock[0]`` s) on the controller and play P1's first turn."""
    clock = [start]
    app.controller.now = lambda: clock[0]
    for kinds in (("place",), ("cube", "nocube")):
        ticks(app)
        assert app.type_move(first(app, kinds))
    return clock


def supply_slots(app) -> dict[str, tuple[float, ...]]:  # noqa: ANN001
    return {it.id: tuple(np.round(it.position, 6)) for it in app.items()
            if it.id.startswith("supply-")}  # fmt: skip


def test_the_supply_stays_in_view_and_in_its_slots_while_a_move_is_judged() -> None:
    with Harness("kozo", players=("human", "human"), seed=2, size=(160, 90)) as h:
        app = h.app
        app.frame()
        before = supply_slots(app)
        assert len(before) > 5
        text = first(app, ("place",))
        piece = text.split()[0]
        assert app.type_move(text)
        assert app.busy  # the film of the judged move plays
        app.tick(1 / 30)
        app.frame()
        during = supply_slots(app)
        # every piece but the one put down is still on the table, where it lay
        assert during == {k: v for k, v in before.items() if k != f"supply-{piece}"}
        ticks(app)
        after = supply_slots(app)
        assert after == during


def test_the_five_second_rule_counts_down_and_names_who_answers() -> None:
    with Harness("kozo", players=("human", "human"), seed=2, size=(160, 90)) as h:
        app, c = h.app, h.app.controller
        clock = first_turn(app, 1000.0)
        ticks(app)
        assert app.human_to_move() and app.seat == 1
        app.tick(1 / 30)  # the table is P2's: their clock starts now
        clock[0] += 2.0
        line = c.rule_line()
        assert line == "5-second rule: P1 answers for the tower, 3.0 s left", line
        assert line in app.status_lines()
        clock[0] += 3.5
        assert c.rule_line() == "5-second rule: P2 (to move) answers for the tower"
        text = first(app, ("place",))
        assert app.type_move(text)
        assert app.moves[-1].secs == 5.5  # only P2's own seconds


def test_a_person_s_clock_starts_when_the_table_is_theirs() -> None:
    """Seconds spent before the person has the table (a film, a bot) are not theirs."""
    with Harness("kozo", players=("human", "human"), seed=2, size=(160, 90)) as h:
        app, c = h.app, h.app.controller
        clock = first_turn(app, 50.0)
        clock[0] += 30.0  # the film and everything before P2 has the table
        assert c.waited() is None
        ticks(app)
        app.tick(1 / 30)
        clock[0] += 1.25
        assert app.type_move(first(app, ("place",)))
        assert app.moves[-1].secs == 1.2  # 1.25 s (the rules keep 0.1 s: half to even)


def test_a_film_of_nothing_moving_is_skipped() -> None:
    still = {"a": (np.zeros(3), np.array([0.0, 0.0, 0.0, 1.0]))}
    moved = {"a": (np.array([0.0, 0.0, 0.01]), np.array([0.0, 0.0, 0.0, 1.0]))}
    samples = [(t / 100, still) for t in range(-500, 50)]  # a 5 s wait, nothing moving
    samples += [(t / 100, moved) for t in range(50, 60)]
    a = {"samples": samples, "t": 0.0, "end": samples[-1][0]}
    frames = 0
    while samples[a.get("i", 0)][0] < 0.49 and frames < 100:
        advance_film(a, 1 / 30)
        frames += 1
    # a few frames (each looks a few ms ahead), not the 165 frames of 5.5 s played through
    assert frames <= 10, frames
    a2 = {"samples": [(t / 100, still) for t in range(0, 500)], "t": 0.0, "end": 4.99}
    for _ in range(10):
        advance_film(a2, 1 / 30)
        if a2["t"] >= a2["end"]:
            break
    assert a2["t"] >= a2["end"]  # nothing moves at all: the film is over at once


def test_ghost_colours_are_no_piece_s_colour_and_not_the_spot_plates() -> None:
    from tablesim.games.polycubes import get_catalogue
    from tablesim.sim.slices.common.towers import ILLEGAL, LEGAL, SPOT
    from tablesim.sim.view.art import hex_rgb

    colours = {hex_rgb(p.color) for c in ("kozo-standard", "katamino-duo")
               for p in get_catalogue(c).pieces}  # fmt: skip
    colours |= {hex_rgb("#f5e6c8"), SPOT}  # the balance cube; the legal-spot plates
    for ghost in (LEGAL, ILLEGAL):
        nearest = min(float(np.abs(np.subtract(ghost, c)).max()) for c in colours)
        assert nearest > 0.3, (ghost, nearest)  # a channel apart by 0.3 at least
    assert float(np.abs(np.subtract(LEGAL, ILLEGAL)).max()) > 0.5


@pytest.mark.slow  # a sandbox app starts its display world and verdict process: seconds
def test_the_sandbox_counts_its_undo_steps_in_english() -> None:
    from tablesim.sim.scene import resolve_scene
    from tablesim.sim.view.sandbox import SandboxApp

    with SandboxApp(resolve_scene("kozo-overhang"), size=(160, 90), replicas=1) as app:
        table = app.table
        app.history = [table, table]  # two steps to take back
        assert app.undo() and app.verdict == "undone (1 step left)"
        assert app.undo() and app.verdict == "undone (0 steps left)"


def test_the_start_camera_shows_the_whole_kozo_supply() -> None:
    with Harness("kozo", players=("human", "human"), seed=2, size=(960, 540)) as h:
        app = h.app
        app.frame()
        view = app.renderer.view
        for it in app.items():
            if not it.id.startswith("supply-"):
                continue
            lo, hi = it.mesh.bounds
            corners = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                                for z in (lo[2], hi[2])]) + np.asarray(it.position)  # fmt: skip
            px = view.project(corners, app.size)
            assert np.isfinite(px).all(), it.id
            assert (px[:, 0] >= 0).all() and (px[:, 0] <= 960).all(), (it.id, px)
            assert (px[:, 1] >= 0).all() and (px[:, 1] <= 540).all(), (it.id, px)


def test_no_ghost_is_drawn_while_a_bot_has_the_table() -> None:
    with Harness("kozo", players=("careful", "human"), seed=2, size=(160, 90)) as h:
        app, c = h.app, h.app.controller
        c.selected, c.hover = "2a", (1.0, 1.0)  # a ghost left from a person's last turn
        c._refresh()
        assert c.ghost_move is not None and any(g.id.startswith("ghost") for g in c.ghosts())
        app._dirty = True
        app.frame()
        assert not app.human_to_move()
        assert not [it.id for it in app.items() if it.id.startswith("ghost")]
        assert [it.id for it in app.items() if it.id.startswith("supply-")]  # the supply stays


def test_a_low_ray_over_the_tower_reaches_its_top_not_the_table_behind() -> None:
    from tablesim.sim.view.interact import Pointer

    with Harness("kozo", players=("human", "human"), seed=2, size=(160, 90)) as h:
        app, c = h.app, h.app.controller
        first_turn(app, 0.0)
        ticks(app)
        top = c.top_level()
        assert top >= 1.0
        origin, edge = c.frame()
        aim = origin + np.array([1.5, 1.5, top]) * edge  # over the board's middle, at the top
        eye = aim + np.array([0.0, -0.40, 0.06])  # a low camera in front
        d = (aim - eye) / np.linalg.norm(aim - eye)
        t = (0.0 - eye[2]) / d[2]  # the ray goes on to the table (z = 0), far behind
        behind = eye + t * d
        assert (behind[1] - origin[1]) / edge > 3.5  # behind the board
        p = Pointer(80.0, 45.0, tuple(eye), tuple(d), None, tuple(behind))
        gx, gy = c.grid_point(p)
        assert abs(gx - 1.5) < 1e-6 and abs(gy - 1.5) < 1e-6, (gx, gy)
        # a ray onto the board in front of the tower keeps its spot on the board
        front = origin + np.array([1.5, 0.2, 0.0]) * edge
        d2 = (front - eye) / np.linalg.norm(front - eye)
        gx, gy = c.grid_point(Pointer(80.0, 45.0, tuple(eye), tuple(d2), None, None))
        assert abs(gx - 1.5) < 1e-6 and abs(gy - 0.2) < 1e-6, (gx, gy)
