"""The interactive table: play a registered game with the mouse, in a window or offscreen.

:class:`WindowApp` puts a game on the table view (:mod:`tablesim.sim.view.renderer`) and turns mouse and
key events into moves through the game's controller (:mod:`tablesim.sim.view.interact`):

- camera: right-drag orbits, middle-drag (or shift + right-drag) pans, the wheel zooms; the
  arrow keys orbit, ``+``/``-`` zoom, ``home`` frames the table again;
- text on screen: the game and whose turn (human or bot), the score, the last verdict and its
  explanation (why a move was refused, what the physics table saw), the controller's lines, and
  the help (``f1`` shows or hides it);
- moves: a controller proposes a move; the app checks it (``check_move``), lets the game's
  referee measure it (the physics table of Kozo and Kataboom: the piece is put down and watched
  in the verdict profile), applies it, and animates it: the judged run itself, pose by pose,
  for measured moves; a glide into place for the others;
- ``u`` / ``backspace``: undo -- the session goes back to the state before the move (up to
  the last human turn when bots play), unless the game refuses (``UndoRefused``);
- seats: humans (hot-seat: whoever's turn it is uses the mouse) and bots; a bot's move is
  chosen when its turn comes and animated like any other;
- the move line: ``enter`` starts typing a move's text (any game, with or without a
  controller), ``enter`` again plays it, ``escape`` cancels.

The app has no clock of its own: :meth:`WindowApp.tick` advances animations and bots by the
seconds given, :meth:`WindowApp.frame` draws. :meth:`WindowApp.run_window` is the loop of a window
(gl backend, a display); :class:`tablesim.sim.view.harness.Harness` drives the same methods offscreen.

:class:`WindowApp` holds the state (session, controller, renderer, the animation, the caches)
and the hooks its subclasses override (``_base_layout``, ``status_lines``, ``tick``, ...); the
work is done by collaborators that call back through the app, each in a module of its own:
:class:`~tablesim.sim.view.turns.TurnLoop` (``turns``: moves, undo, bots, the clock),
:class:`~tablesim.sim.view.animation.Animator` (``film``: glides and films),
:class:`~tablesim.sim.view.app_drawing.TableDrawing` (``drawing``: what is drawn, each frame),
:class:`~tablesim.sim.view.app_input.InputRouter` (``input``: mouse, keys, the move line),
:class:`~tablesim.sim.view.orbit_camera.OrbitCamera` (``orbit_camera``) and
:class:`~tablesim.sim.view.status_panel.StatusPanel` (``panel``: the text); picking is
:mod:`tablesim.sim.view.picking`, film stepping :mod:`tablesim.sim.view.film_playback`, the
worker :mod:`tablesim.sim.view.work`. :class:`SceneApp` lives in :mod:`tablesim.sim.view.scene_app`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

import numpy as np

from tablesim.games.core import PhysicsTable
from tablesim.sim.view.animation import GLIDE_S, Animator
from tablesim.sim.view.app_drawing import TableDrawing
from tablesim.sim.view.app_input import InputRouter
from tablesim.sim.view.film_playback import SKIP_BUDGET_S, STILL_M, STILL_Q, advance_film, pose_rows
from tablesim.sim.view.interact import Controller, Pointer, controller_for
from tablesim.sim.view.layout import Item, TableLayout
from tablesim.sim.view.orbit_camera import OrbitCamera
from tablesim.sim.view.picking import pick
from tablesim.sim.view.status_panel import StatusPanel
from tablesim.sim.view.table_extent import TableExtent, table_extent
from tablesim.sim.view.turns import ANIMATION_SLOW, BOT_DELAY, TurnLoop
from tablesim.sim.view.work import _Work

__all__ = [
    "ANIMATION_SLOW",
    "BOT_DELAY",
    "GLIDE_S",
    "SKIP_BUDGET_S",
    "STILL_M",
    "STILL_Q",
    "WindowApp",
    "advance_film",
    "pick",
    "pose_rows",
    "runs",
]


_App = TypeVar("_App", bound="WindowApp")


def runs(n: int) -> str:
    """``n`` verdict runs as a status line says it ("1 run", "8 runs")."""
    return f"{n} run" if n == 1 else f"{n} runs"


class WindowApp:
    """A game at the table, driven by events; see the module docstring.

    Parameters: ``game`` (a registered name), ``options`` (game options by name, as
    ``tablesim play`` takes them), ``players`` (roles: ``human`` or bot names, one per seat),
    ``seed``, ``size`` (pixels), ``backend`` (``tiny``, ``gl``, ``auto``), ``window`` (an
    on-screen window: gl and a display), ``budget`` (bots' budget), ``controller`` (instead of
    the registered one). Raises the game's ConfigError for bad options or players.
    """

    # caches the collaborators keep on the app (set on first use; tests reset some)
    _shown_key: Any = None
    _shown_view: Any = None
    _ghost_ids: list[str]
    _rule_text: str = ""
    _ghost_for: Any = None
    _person_clock: Callable[[], float | None] | None = None
    """The clock of the person the table is handed to (:meth:`TurnLoop._person_waited`)."""
    _base_cache: tuple[Any, TableLayout] | None = None
    """:meth:`_base_layout`: (the state, its table)."""
    _extent: TableExtent | None = None
    """:meth:`table_extent`: the table's fixed extent, once computed."""
    _start_points: np.ndarray
    """:meth:`table_extent`: the framing points of the first table (the start view's)."""

    def __init__(
        self,
        game: str,
        *,
        options: Mapping[str, Any] | None = None,
        players: Sequence[str] = ("human", "human"),
        seed: int = 0,
        size: Sequence[int] = (960, 540),
        backend: str = "tiny",
        window: bool = False,
        budget: int | None = None,
        controller: Controller | None = None,
    ) -> None:
        from tablesim.games.session import Session
        from tablesim.sim.view.renderer import Renderer

        self.roles = [str(r) for r in players]
        self.session = Session.new(game, self.roles, int(seed), options=options, budget=budget)
        """The game being played (:class:`tablesim.games.session.Session`): rules, seats, referee, the
        measured moves; the app only turns input into its moves and draws its state."""
        self.game = self.session.game
        self.config = self.session.config
        self.seed = self.session.seed
        self.seats = self.session.seats
        self.referee = self.session.referee
        if isinstance(self.referee, PhysicsTable):
            self.referee.knock = self._observe
        if self.referee is not None and hasattr(self.referee, "idle_clock") and window:
            self.referee.idle_clock = self._person_waited  # the wait simulated as it runs
        self.threaded = bool(window)
        """Measure judged moves and let bots think in a worker thread while the window keeps
        drawing (the fall is shown as it is simulated); offscreen (tests) both run inline."""
        self._work: _Work | None = None
        self.verdict = ""
        self.explanation = ""
        self.show_help = False
        """The key help (f1); off at the start so it never covers the table ("f1: help")."""
        self._help_shown_once = False
        self.typing: str | None = None
        self.closed = False
        self.controller = controller if controller is not None else controller_for(game)
        self.controller.reset(self.game, self.state)
        self.renderer = Renderer(size, backend=backend, window=window, title=f"tablesim {game}")
        self.renderer.coarse_motion = True  # quick shadows while pieces move
        self.renderer.incremental = True  # draw only what changed (tiny: Renderer.render)
        self.renderer.floor = True  # zoomed out, the table lies on a floor, not in the sky
        self.size = self.renderer.size
        self.orbit_camera = OrbitCamera(self)
        """The camera the person turns (:mod:`tablesim.sim.view.orbit_camera`)."""
        self.panel = StatusPanel(self)
        """The text on screen (:mod:`tablesim.sim.view.status_panel`)."""
        self.input = InputRouter(self)
        """Mouse and keys (:mod:`tablesim.sim.view.app_input`)."""
        self.turns = TurnLoop(self)
        """Moves, undo, bots, the clock (:mod:`tablesim.sim.view.turns`)."""
        self.film = Animator(self)
        """Glides and films of moves (:mod:`tablesim.sim.view.animation`)."""
        self.drawing = TableDrawing(self)
        """What is drawn, frame by frame (:mod:`tablesim.sim.view.app_drawing`)."""
        self._drag: tuple[str, float, float] | None = None
        self._buttons: set[str] = set()
        self._mods: set[str] = set()
        self._layout: TableLayout | None = None
        self._dirty = True
        self._samples: list[tuple[float, dict[str, Any]]] = []
        self._rows: list[np.ndarray] = []
        self._watch_index: int | None = None
        self._anim: dict[str, Any] | None = None
        self._bot_wait = 0.0
        self._mouse = (self.size[0] / 2, self.size[1] / 2)

    # ------------------------------------------------------------------ lifecycle
    def close(self) -> None:
        """Close the session (its referee) and the renderer (idempotent); a measurement in
        progress is waited for (its world must not close under it)."""
        if self.closed:
            return
        self.closed = True
        if self._work is not None:
            self._work.join()
            self._work = None
        self.session.close()
        self.renderer.close()

    @property
    def state(self) -> Any:
        """The game state drawn (the session's)."""
        return self.session.state

    @property
    def moves(self) -> list[Any]:
        """The measured moves applied so far."""
        return [p.move for p in self.session.played]

    def __enter__(self: _App) -> _App:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ who and what
    @property
    def seat(self) -> int | None:
        """The seat to move (None when the game is over)."""
        return None if self.game.is_terminal(self.state) else self.game.current_player(self.state)

    @property
    def busy(self) -> bool:
        """True while a move is being measured or animated, or a bot thinks."""
        return self._anim is not None or self._work is not None

    def human_to_move(self) -> bool:
        """True when a person has the turn (and nothing is being animated)."""
        s = self.seat
        return s is not None and not self.busy and self.seats[s].bot is None

    def score_text(self) -> str:
        """The score line: totals so far, or the result at the end."""
        return self.panel.score_text()

    def status_lines(self) -> list[str]:
        """The top-left block: game, turn, score, verdict and explanation."""
        return self.panel.status_lines()

    def _person_waited(self) -> float | None:
        """Seconds the person to move has had the table (None when no person's clock runs):
        read by the referee's thread that simulates their wait."""
        return self.turns._person_waited()

    # ------------------------------------------------------------------ moves
    def _observe(self, world: Any, index: int, t: float) -> None:
        """The referee's read-only hook: poses of the move being judged."""
        self.turns._observe(world, index, t)

    def play(self, move: Any) -> bool:
        """Check, measure, apply and animate ``move`` for the seat to move. Returns True when
        it was played -- or, live (a window), handed to the physics table, whose verdict
        follows; otherwise the verdict line says why not."""
        return self.turns.play(move)

    def _refused(self, move: Any, exc: Exception) -> bool:
        return self.turns._refused(move, exc)

    def _measured(self, work: _Work, move: Any, before: Any, old: TableLayout | None) -> None:
        """The table's measurement finished (main thread): show the verdict, animate the
        rest of the film."""
        self.turns._measured(work, move, before, old)

    def _move_line(self, seat: int, text: str) -> str:
        """``text`` about seat ``seat``'s move, led by the player's name once (most games'
        descriptions already name the mover: "P1 take 4L", "Red places ...")."""
        return self.turns._move_line(seat, text)

    def _played(self, played: Any, old_layout: TableLayout | None, live: bool = False) -> None:
        self.turns._played(played, old_layout, live)

    def _finish_work(self) -> None:
        self.turns._finish_work()

    def _explain(self, move: Any) -> str:
        """What the table saw (measured moves), in words."""
        return self.turns._explain(move)

    def undo(self) -> bool:
        """Take back the last move (and the bots' moves after the last human one): the
        session returns to the state before them. False when nothing to undo."""
        return self.turns.undo()

    def record(self) -> Any:
        """The game so far as a :class:`tablesim.games.log.Record` (move texts, seats, digests, the
        result once over)."""
        return self.session.record()

    def _set_state(self) -> None:
        self.turns._set_state()

    # ------------------------------------------------------------------ animation
    def _base_layout(self) -> TableLayout:
        """The game's table for the current state (cached per state: states are frozen)."""
        from tablesim.sim.view.drawings import layout_for_state

        cached = self._base_cache
        if cached is None or cached[0] is not self.state:
            cached = (self.state, layout_for_state(self.game.name, self.state))
            self._base_cache = cached
        return cached[1]

    def _with_supply(self, layout: TableLayout) -> TableLayout:
        """``layout`` with the controller's own table items that are not ghosts (a tower
        game's supply): the table stays on the table while a move is judged and filmed."""
        ids = set(layout.ids)
        own = tuple(it for it in self.controller.ghosts()
                    if not it.id.startswith("ghost") and it.id not in ids)  # fmt: skip
        return replace(layout, items=layout.items + own) if own else layout

    def _start_animation(self, old: TableLayout | None, move: Any) -> None:
        self.film._start_animation(old, move)

    def _anim_poses(self) -> dict[str, Any]:
        return self.film._anim_poses()

    # ------------------------------------------------------------------ time
    def _showing(self) -> dict[str, Any] | None:
        """The animation being drawn (None: none, or a film whose first poses are not in)."""
        return self.film._showing()

    def _live_film(self, old: TableLayout | None, ghosts: Sequence[Item]) -> None:
        """Show the judged move's run as the table measures it: the referee's poses
        (:meth:`_observe`) on the old table, the held piece renamed to the world's id."""
        self.film._live_film(old, ghosts)

    def _film_layout(self) -> None:
        self.film._film_layout()

    def tick(self, dt: float) -> None:
        """Advance the animation, take a finished measurement or bot choice, and let a bot
        (or a watching controller) move when its turn comes (``dt`` seconds)."""
        self.turns.tick(dt)

    def _think(self, seat: int) -> None:
        """The bot of ``seat`` chooses (in a worker thread in a window), then plays."""
        self.turns._think(seat)

    # ------------------------------------------------------------------ camera
    def _ensure_orbit(self, layout: TableLayout) -> None:
        self.orbit_camera._ensure_orbit(layout)

    def framing_points(self, layout: TableLayout) -> np.ndarray:
        """The points (N, 3) m the first camera frames: the table's items and the
        controller's own (a tower game's supply: never cut off at the edges), a subclass adds
        where things will come, e.g. the area thrown dice can land in; a controller's own
        ``framing_points()`` (N, 3) are added (a Katamino 3-D box to be built: its full
        height)."""
        pts = np.asarray(self._with_supply(layout).points(), float)
        extra = getattr(self.controller, "framing_points", None)
        if extra is not None:
            more = np.asarray(extra(), float).reshape(-1, 3)
            if len(more):
                pts = np.concatenate([pts.reshape(-1, 3), more])
        return pts

    def table_extent(self) -> TableExtent:
        """The table's fixed extent (:mod:`tablesim.sim.view.table_extent`): computed once,
        from :meth:`framing_points` of the first table, when the table is first built; the
        table top, the shadow area, the pointer's bound and the home view keep it however the
        pieces move afterwards."""
        ext = self._extent
        if ext is None:
            pts = np.asarray(self.framing_points(self._base_layout()), float)
            self._start_points = pts
            ext = table_extent(pts)
            self._extent = ext
        return ext

    def camera_spec(self) -> dict[str, Any]:
        """The orbit camera as a camera spec (target, distance, yaw, pitch, fov)."""
        return self.orbit_camera.camera_spec()

    def orbit(self, dyaw: float, dpitch: float) -> None:
        """Turn the camera round the target (degrees); pitch stays within -89..-3."""
        self.orbit_camera.orbit(dyaw, dpitch)

    def zoom(self, factor: float) -> None:
        """Move the camera ``factor`` times its distance from the target (0.05..20 m)."""
        self.orbit_camera.zoom(factor)

    def pan(self, dx: float, dy: float) -> None:
        """Slide the target by pixels (dx right, dy down) at the target's distance."""
        self.orbit_camera.pan(dx, dy)

    # ------------------------------------------------------------------ events
    def pointer(self, x: float, y: float, button: str | None = None) -> Pointer:
        """The :class:`Pointer` at pixel (x, y) on the table drawn last."""
        return self.input.pointer(x, y, button)

    def mouse_move(self, x: float, y: float) -> None:
        """The mouse moved to pixel (x, y): camera drags, else the controller."""
        self.input.mouse_move(x, y)

    def mouse_down(self, x: float, y: float, button: str = "left") -> bool:
        """A button went down at (x, y); True when it made a move."""
        return self.input.mouse_down(x, y, button)

    def mouse_up(self, x: float, y: float, button: str = "left") -> bool:
        """A button went up; True when it made a move (end of a drag)."""
        return self.input.mouse_up(x, y, button)

    def wheel(self, steps: float) -> None:
        """Zoom: positive steps come closer."""
        self.input.wheel(steps)

    def modifiers(self, mods: Sequence[str]) -> None:
        """Set the modifier keys held (``shift``, ``control``, ``alt``)."""
        self.input.modifiers(mods)

    def key(self, name: str) -> bool:
        """A key press (Panda3D names); True when it made a move. App keys first (unless a
        move is being typed), then the controller's."""
        return self.input.key(name)

    def _type(self, name: str) -> bool:
        """A key while the move line is open: only editing keys act; characters come through
        :meth:`type_char` (a window sends both for one press)."""
        return self.input._type(name)

    def type_char(self, char: str) -> None:
        """A typed character (with shift and the keyboard layout applied): goes to the move
        line when it is open; ignored otherwise (keys act through :meth:`key`)."""
        self.input.type_char(char)

    def type_move(self, text: str) -> bool:
        """Type ``text`` on the move line and play it (True when played)."""
        return self.input.type_move(text)

    def _propose(self, move: Any) -> bool:
        return self.input._propose(move)

    def _reset_view(self) -> None:
        self.orbit_camera.reset()
        self._camera_moved()

    def _camera_moved(self) -> None:
        if self._anim is not None:
            self._anim["shown"] = False  # rebuild the animation's table for the new camera
        self._dirty = True

    def _toggle_help(self) -> None:
        self.show_help = not self.show_help
        self._help_shown_once = True

    # ------------------------------------------------------------------ drawing
    def _shown_ghosts(self) -> tuple[Item, ...]:
        """The controller's items drawn now: its ghosts (ids ``ghost...``) only while a person
        has the table (never a stale ghost while a bot thinks or a move is judged)."""
        return self.drawing._shown_ghosts()

    def layout(self) -> TableLayout:
        """What is drawn now: the game's table (or the animation's), the controller's
        highlights and ghosts."""
        return self.drawing.layout()

    def text_blocks(self) -> dict[str, str]:
        """The on-screen text by corner."""
        return self.panel.text_blocks()

    def help_corner(self, text: str = "") -> str:
        """Where the key help ``text`` goes: of the two right-hand corners (the left ones hold
        the status and the prompts), the one whose panel hides less of the table's pieces,
        boards and tiles as the camera sees them now (top right on a tie)."""
        return self.panel.help_corner(text)

    def frame(self) -> np.ndarray | None:
        """Draw the table (rebuilt when something changed): (H, W, 3) uint8 offscreen, None in
        a window."""
        return self.drawing.frame()

    def _redraw(self, anim: dict[str, Any] | None) -> None:
        """Rebuild the table, or when only the controller's ghosts changed, swap them."""
        self.drawing._redraw(anim)

    def text_scale(self) -> float:
        """Pixels per line of the on-screen text: 15 at 540 rows, growing with the picture."""
        return self.panel.text_scale()

    def items(self) -> list[Item]:
        """The items drawn last (for tests and controllers)."""
        return self.drawing.items()

    # ------------------------------------------------------------------ the window
    def resize(self, size: Sequence[int]) -> None:
        """The picture is now ``size`` (width, height) pixels (a window was resized): the
        camera, the text and picking follow."""
        self.renderer.resize(size)
        self.size = self.renderer.size
        self._camera_moved()

    def run_window(self, max_frames: int | None = None) -> int:
        """The window's loop (:func:`tablesim.sim.view.window.run_window`): events, ticks and frames
        until escape, the window is closed, or ``max_frames`` frames were drawn. Returns the
        frames drawn."""
        from tablesim.sim.view.window import run_window

        return run_window(self, max_frames)


def __getattr__(name: str) -> Any:
    """``SceneApp`` lives in :mod:`tablesim.sim.view.scene_app` (loaded on first use: it builds on
    :class:`WindowApp`)."""
    if name == "SceneApp":
        from tablesim.sim.view.scene_app import SceneApp

        return SceneApp
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
