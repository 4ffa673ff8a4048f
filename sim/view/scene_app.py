"""A physics scene on the interactive table, no game (:class:`SceneApp`): look round it, run it
live and judge it; the sandbox (:mod:`tablesim.sim.view.sandbox`) builds on it."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from tablesim.sim.view.animation import Animator
from tablesim.sim.view.app import WindowApp, runs
from tablesim.sim.view.app_drawing import TableDrawing
from tablesim.sim.view.app_input import InputRouter
from tablesim.sim.view.layout import TableLayout
from tablesim.sim.view.orbit_camera import OrbitCamera
from tablesim.sim.view.status_panel import StatusPanel
from tablesim.sim.view.turns import TurnLoop

_SCENE_HELP = [
    "space: run it live (display physics), then judge it (verdict)",
    "r: put the pieces back where the scene file has them",
    "right-drag orbit, middle- or shift+right-drag pan, wheel zoom",
    "arrows orbit, +/- zoom, home reset view, f1 help, escape quit",
]


class SceneApp(WindowApp):
    """A physics scene on the table, no game: look around it; ``space`` runs the scene live
    and judges it; ``r`` puts it back as written.

    ``space`` starts two things at once (:mod:`tablesim.sim.view.live`): the scene falling in the
    display profile, stepped inside the frame loop (each frame advances the world by the
    frame's time, never by more than :data:`tablesim.sim.view.live.FRAME_BUDGET_S` of wall time, so
    the window keeps drawing), and the verdict (:func:`tablesim.sim.verdict.simulate`, the verdict
    profile, ``replicas`` runs) in a background process. The verdict appears when the run
    has ended and the verdict is in.

    Same camera, text, window loop and harness as :class:`WindowApp`; ``scene`` is a
    :class:`tablesim.sim.model.Scene`, ``seconds`` how long a run lasts (default: the scene's own).
    """

    game: Any  # None: a scene has no game and no session
    session: Any

    def __init__(
        self,
        scene: Any,
        *,
        size: Sequence[int] = (960, 540),
        backend: str = "tiny",
        window: bool = False,
        seconds: float | None = None,
        replicas: int = 8,
        seed: int = 0,
    ) -> None:
        from tablesim.sim.view.drawings.scene import scene_layout
        from tablesim.sim.view.interact import BaseController
        from tablesim.sim.view.renderer import Renderer

        self.scene = scene
        self.seconds = float(seconds if seconds is not None else (scene.seconds or 2.0))
        self.replicas = int(replicas)
        self.seed = int(seed)
        self._still = scene_layout(scene)
        self.game = None
        self.session = None
        self.seats: list[Any] = []
        self.roles: list[str] = []
        self._work = None
        self.threaded = False
        self.verdict = "space: run the scene; r: back to the scene as written"
        self.explanation = ""
        self.show_help = False
        self.typing = None
        self.closed = False
        self.referee = None
        self.controller = BaseController()
        self.renderer = Renderer(size, backend=backend, window=window, title="tablesim view")
        self.renderer.coarse_motion = True  # quick shadows while pieces move
        self.renderer.incremental = True  # draw only what changed (tiny: Renderer.render)
        self.renderer.floor = True  # zoomed out, the table lies on a floor, not in the sky
        self.size = self.renderer.size
        self.orbit_camera = OrbitCamera(self)
        self.panel = StatusPanel(self)
        self.input = InputRouter(self)
        self.turns = TurnLoop(self)
        self.film = Animator(self)
        self.drawing = TableDrawing(self)
        self._drag = None
        self._buttons = set()
        self._mods = set()
        self._layout = None
        self._dirty = True
        self._anim = None
        self._bot_wait = math.inf
        self._mouse = (self.size[0] / 2, self.size[1] / 2)
        self.live: Any = None
        """The :class:`tablesim.sim.view.live.LiveRun` being shown (None: the scene as written)."""
        self.job: Any = None
        """The :class:`tablesim.sim.view.live.VerdictJob` of the run (None before ``space``)."""
        self._text_at = -1.0
        self.on_verdict: Any = None
        """Called with (verdict line, explanation) when a run's verdict arrives (the
        terminal's log of ``tablesim view``)."""

    @property
    def seat(self) -> int | None:
        """Nobody moves in a scene."""
        return None

    @property
    def state(self) -> Any:
        """No game state: the scene."""
        return None

    @property
    def moves(self) -> list[Any]:
        """No moves in a scene."""
        return []

    def human_to_move(self) -> bool:
        """No moves in a scene."""
        return False

    def help_corner(self, text: str = "") -> str:
        """Bottom right: a scene's tower stands in the middle and reaches the top of the
        picture, while the table's near right corner is bare floor."""
        return "bottom-right"

    def text_blocks(self) -> dict[str, str]:
        """The text by corner, with the scene's own keys in the help."""
        blocks = super().text_blocks()
        if self.show_help:
            blocks[self.help_corner()] = "\n".join(_SCENE_HELP)
        return blocks

    def status_lines(self) -> list[str]:
        """Scene name, what happened (and, on a thin margin, which display physics runs)."""
        n = len(self.scene.pieces)
        lines = [f"scene {self.scene.name}: {n} piece{'s' * (n != 1)}"]
        note = self.live.note if self.live is not None else ""
        return lines + [t for t in (note, self.verdict, self.explanation) if t]

    def _base_layout(self) -> TableLayout:
        return self._still

    @property
    def busy(self) -> bool:
        """True while the run is being simulated (its verdict may still be awaited after)."""
        return self.live is not None and not self.live.done

    def run_scene(self, *, judge: bool = True) -> None:
        """Start the run (display physics, live) and, with ``judge``, its verdict."""
        from tablesim.sim.view.live import LiveRun, VerdictJob

        self._stop()
        self.live = LiveRun(self.scene, self.seconds)
        self.job = VerdictJob(self.scene, self.seconds, self.replicas, self.seed) if judge else None
        self._anim = {"layout": self._still, "t": 0.0, "live": self.live, "end": math.inf}
        self.verdict = f"running 0.00 / {self.seconds:g} s (display physics)"
        self.explanation = (f"judging in the background: verdict profile, {runs(self.replicas)}"
                            if judge else "")  # fmt: skip
        self._dirty = True

    def _stop(self) -> None:
        if self.live is not None:
            self.live.close()
        if self.job is not None:
            self.job.cancel()
        self.live, self.job, self._anim = None, None, None

    def close(self) -> None:
        """Stop the run and the verdict job, close the renderer (idempotent)."""
        if self.closed:
            return
        self.closed = True
        self._stop()
        self.renderer.close()

    def tick(self, dt: float) -> None:
        """Advance the live run by ``dt`` seconds (within the frame budget); take the verdict
        once the run has ended and it is in."""
        live = self.live
        if live is None:
            return
        if not live.done:
            live.advance(dt)
            self.verdict = f"running {live.time:.2f} / {self.seconds:g} s (display physics)"
            if live.done:
                self.verdict = f"ran {live.time:.2f} s (display physics)"
                if self.job is not None:
                    self.explanation = (f"judging: verdict profile, {runs(self.replicas)} "
                                        "(in the background)")  # fmt: skip
        if live.done:
            self._take_verdict()

    def _take_verdict(self) -> None:
        """When the background verdict is in: say it (status, :attr:`on_verdict`)."""
        if self.job is None or not self.job.ready():
            return
        from tablesim.sim.view.live import verdict_lines

        try:
            self.verdict, *rest = verdict_lines(self.job.result())
            self.explanation = " ".join(rest)
        except Exception as exc:  # noqa: BLE001 - shown, the window stays up
            self.explanation = f"the verdict failed: {exc}"
        self.job = None
        self._dirty = True
        if self.on_verdict is not None:
            self.on_verdict(self.verdict, self.explanation)

    def finish_run(self, timeout: float | None = None) -> None:
        """Simulate the rest of the run at once and wait for its verdict (headless use)."""
        if self.live is None:
            return
        self.live.advance(self.seconds, budget_s=math.inf)
        if self.job is not None:
            self.job.result(timeout)
        self.tick(0.0)

    def _anim_poses(self) -> dict[str, Any]:
        a = self._anim
        if a is not None and "live" in a:
            ids = set(self._still.ids)
            return {k: v for k, v in a["live"].poses.items() if k in ids}
        return super()._anim_poses()

    def frame(self) -> np.ndarray | None:
        """Draw; while running, the live poses (and the status text a few times a second)."""
        import time

        if self.live is not None and self._anim is not None and self._anim.get("shown"):
            now = time.monotonic()
            if now - self._text_at > 0.1:
                self._text_at = now
                self.renderer.set_text(self.text_blocks(), scale=self.text_scale())
        return super().frame()

    def key(self, name: str) -> bool:
        """``space`` runs, ``r`` resets; camera keys as in :class:`WindowApp`."""
        if name == "space":
            self.run_scene()
            return False
        if name == "r":
            self._stop()
            self.verdict, self.explanation = "reset: the scene as written", ""
            self._dirty = True
            return False
        if name in ("u", "backspace", "enter"):
            return False
        return super().key(name)
