"""An input harness: mouse and key events sent to the interactive app offscreen.

Tests and scripts drive :class:`tablesim.sim.view.app.WindowApp` exactly as a window does (the same
``mouse_move``/``mouse_down``/``mouse_up``/``wheel``/``key`` methods the window loop calls),
on the tiny backend, with no display::

    with Harness("kozo", options={"table": "stand-in"}) as h:
        h.click_item("supply-4L")          # take 4L (touch-move)
        h.hover_world((0.0, 0.0, 0.008))   # the ghost over the board
        h.click()                          # drop: the move is measured and played
        h.settle()                         # run the animation to its end
        h.screenshot("kozo.png")

Points in the world are turned into pixels with the app's camera (the renderer's projection),
so a test can aim at a board cell or a piece without knowing the picture.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from tablesim.sim.view.app import WindowApp
from tablesim.sim.view.layout import Floats

if TYPE_CHECKING:
    from tablesim.games.katamino.solo import KataminoSolo
    from tablesim.games.kozo.rules import Kozo
    from tablesim.sim.slices.katamino.controller import KataminoController
    from tablesim.sim.slices.kozo.controller import KozoController

__all__ = ["Harness"]


class Harness:
    """A :class:`WindowApp` with a scripted mouse and keyboard (offscreen).

    Takes the :class:`WindowApp` arguments; ``backend`` defaults to ``tiny`` (no display).
    ``app`` may be given instead of the arguments to drive an existing app.
    """

    def __init__(self, game: str | None = None, *, app: WindowApp | None = None, **kw: Any) -> None:
        if app is None:
            if game is None:
                raise ValueError("Harness needs a game name or an app")
            kw.setdefault("backend", "tiny")
            kw.setdefault("size", (640, 360))
            app = WindowApp(game, **kw)
        self.app = app
        self.x, self.y = app.size[0] / 2, app.size[1] / 2
        self.app.frame()

    def __enter__(self) -> Harness:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the app."""
        self.app.close()

    # ---- where things are ----
    def pixel_of(self, point: Floats) -> tuple[float, float]:
        """The pixel (column, row) where world ``point`` (m) is drawn."""
        self.app.frame()
        view = self.app.renderer.view
        assert view is not None  # frame() showed a layout
        px = view.project(np.asarray([point], float), self.app.size)[0]
        if not np.isfinite(px).all():
            raise ValueError(f"point {tuple(point)} is behind the camera")
        return float(px[0]), float(px[1])

    def item_pixel(self, item_id: str) -> tuple[float, float]:
        """A pixel on the top of item ``item_id`` as drawn now (KeyError if not drawn)."""
        self.app.frame()
        items = {it.id: it for it in self.app.items()}
        if item_id not in items:
            raise KeyError(f"{item_id!r} is not on the table (items: {', '.join(items)})")
        v = items[item_id].world_vertices()
        top = v[:, 2].max()
        upper = v[v[:, 2] > top - 1e-6]
        # the centre of the top face's cube nearest the centre, so the ray hits the item
        c = upper.mean(axis=0)
        tri = items[item_id].world_triangles()
        cen = tri.mean(axis=1)
        tops = cen[np.abs(cen[:, 2] - top) < 1e-6]
        best = tops[np.argmin(np.linalg.norm(tops - c, axis=1))] if len(tops) else c
        return self.pixel_of(best)

    # ---- events ----
    def move(self, x: float, y: float) -> None:
        """Move the mouse to pixel (x, y)."""
        self.x, self.y = float(x), float(y)
        self.app.mouse_move(self.x, self.y)
        self.app.frame()  # as the window loop draws after each event

    def hover_world(self, point: Floats) -> tuple[float, float]:
        """Move the mouse over world ``point``; returns the pixel."""
        px = self.pixel_of(point)
        self.move(*px)
        return px

    def click(self, button: str = "left") -> bool:
        """Press and release ``button`` where the mouse is; True when a move was played."""
        played = self.app.mouse_down(self.x, self.y, button)
        played = self.app.mouse_up(self.x, self.y, button) or played
        self.app.frame()
        return played

    def click_item(self, item_id: str) -> bool:
        """Move onto item ``item_id`` and click it."""
        self.move(*self.item_pixel(item_id))
        return self.click()

    def click_world(self, point: Floats) -> bool:
        """Move over world ``point`` and click."""
        self.hover_world(point)
        return self.click()

    def drag(self, to: Floats, button: str = "left", steps: int = 4) -> bool:
        """Press here, move to pixel ``to`` in ``steps``, release; True when a move was played."""
        played = self.app.mouse_down(self.x, self.y, button)
        x0, y0 = self.x, self.y
        for k in range(1, steps + 1):
            f = k / steps
            self.move(x0 + f * (to[0] - x0), y0 + f * (to[1] - y0))
        played = self.app.mouse_up(self.x, self.y, button) or played
        self.app.frame()
        return played

    def key(self, *names: str) -> bool:
        """Press keys in order; True when one of them played a move."""
        played = False
        for n in names:
            played = self.app.key(n) or played
        if not self.app.closed:
            self.app.frame()
        return played

    def wheel(self, steps: float) -> None:
        """Turn the wheel (positive: zoom in)."""
        self.app.wheel(steps)

    # ---- time and pictures ----
    def settle(self, dt: float = 1 / 30, max_seconds: float = 30.0) -> int:
        """Tick until no animation runs and no bot has the turn (or ``max_seconds`` of app
        time pass); returns the frames drawn."""
        n, t = 0, 0.0
        while t < max_seconds:
            s = self.app.seat
            bot_turn = s is not None and self.app.seats[s].bot is not None
            if not self.app.busy and not bot_turn:
                break
            if bot_turn and not self.app.busy and self.app._bot_wait == float("inf"):
                break
            self.app.tick(dt)
            self.app.frame()
            n, t = n + 1, t + dt
        return n

    def frame(self) -> np.ndarray:
        """The picture now, (H, W, 3) uint8."""
        img = self.app.frame()
        assert img is not None  # the harness is offscreen
        return img

    def screenshot(self, path: str | Path) -> Path:
        """Save the picture now as a PNG."""
        from PIL import Image

        p = Path(path)
        Image.fromarray(self.frame()).save(p)
        return p

    def text(self) -> Mapping[str, str]:
        """The on-screen text by corner."""
        return self.app.text_blocks()


def play_screenshots(out_dir: str | Path, *, backend: str = "gl", size: Sequence[int] = (960, 540),
                     ) -> list[Path]:  # fmt: skip
    """Pictures of each game in play, driven through the harness (the README's
    ``docs/img/play-*.png``): Kozo with a legal and an illegal ghost on a built tower, Kataboom
    with a ghost over the model, Katamino Duo with a piece dragged onto the board and a hint, a
    3-D construction assembled piece by piece. ``backend`` ``gl`` needs a display or Xvfb."""
    from tablesim.games.katamino.game import family

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []

    def shot(h: Harness, name: str) -> None:
        written.append(h.screenshot(out / f"play-{name}.png"))

    # Kozo on the physics table: two turns typed, then a piece held over the tower
    with Harness("kozo", seed=7, backend=backend, size=size) as h:
        for text in ("take 4L", "4L r0 at 0,0", "cube at 0.5,0.5", "take 3I", "3I r2 at 0,2"):
            h.app.type_move(text)
            h.settle()
        spots = [m for m in h.app.game.legal_moves(h.app.state) if m.kind == "cube"]
        if spots:
            h.app.play(spots[0])
            h.settle()
        h.click_item("supply-4T")
        kozo_ctl = cast("KozoController", h.app.controller)
        origin, edge = kozo_ctl.frame()
        legal = cast("Kozo", h.app.game).allowed_placements(h.app.state)
        best = max(legal, key=lambda m: (m.pos[2], m.rot == 0, m.pos))
        while kozo_ctl.rot != best.rot:
            h.key("r")
        cells = np.asarray(kozo_ctl.orientations("4T")[best.rot])
        ext = cells.max(axis=0) + 1
        centre = np.array([best.pos[0] + ext[0] / 2, best.pos[1] + ext[1] / 2, best.pos[2]])
        h.hover_world(np.asarray(origin) + centre * edge)
        shot(h, "kozo")
        h.hover_world(np.asarray(origin) + np.array([1.5, 1.5, 0.0]) * edge)
        shot(h, "kozo-illegal")
    # Kataboom: a piece held over the model
    with Harness("kataboom", seed=1, backend=backend, size=size) as h:
        h.click_item(f"supply-{h.app.state.supply[3]}")
        top = max(h.app.items(), key=lambda it: it.top() if not it.id.startswith("supply") else 0)
        v = top.world_vertices()
        h.hover_world((*v[:, :2].mean(axis=0), top.top()))
        shot(h, "kataboom")
    # Katamino: a piece dragged onto the board, the next one held, a hint shown
    with Harness("katamino", options={"mode": "traditional"}, players=("human",), seed=0,
                 backend=backend, size=size) as h:  # fmt: skip
        h.key("h")
        solo = cast("KataminoSolo", family(h.app.state.mode))
        hint = solo.solver_hint(h.app.state).placement
        if hint is None:
            raise RuntimeError("the Katamino tour's first position has no solver hint")
        katamino_ctl = cast("KataminoController", h.app.controller)
        h.app.play(katamino_ctl._move(hint.name, hint.cells))
        h.settle()
        h.key("h")
        name = katamino_ctl.loose()[0]
        h.click_item(f"piece-{name}")
        from tablesim.sim.slices.katamino.drawing import cell_centre

        h.hover_world(cell_centre(katamino_ctl.table(), (1, 2)))
        shot(h, "katamino")
    # a 3-D construction assembled by the solver, piece by piece (midway)
    with Harness("katamino", options={"mode": "construction"}, players=("human",), seed=1,
                 backend=backend, size=size) as h:  # fmt: skip
        n = len(cast("KataminoSolo", family(h.app.state.mode)).stage_pieces(h.app.state))
        h.key("w")
        for _ in range(400):
            h.app.tick(0.05)
            if len(h.app.state.placed) >= max(1, n - 1):
                break
        h.settle()
        h.key("home", "-", "-", "arrow_left", "arrow_left")  # the whole tower in the picture
        shot(h, "katamino-3d")
    return written


if __name__ == "__main__":
    import sys

    for p in play_screenshots(sys.argv[1] if len(sys.argv) > 1 else "docs/img"):
        print(f"wrote {p}")
