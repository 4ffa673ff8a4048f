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
- ``u`` / ``backspace``: undo -- the game is rebuilt from a new game and the log of measured
  moves replayed (up to the last human turn when bots play);
- seats: humans (hot-seat: whoever's turn it is uses the mouse) and bots; a bot's move is
  chosen when its turn comes and animated like any other;
- the move line: ``enter`` starts typing a move's text (any game, with or without a
  controller), ``enter`` again plays it, ``escape`` cancels.

The app has no clock of its own: :meth:`WindowApp.tick` advances animations and bots by the
seconds given, :meth:`WindowApp.frame` draws. :meth:`WindowApp.run_window` is the loop of a window
(gl backend, a display); :class:`tablesim.sim.view.harness.Harness` drives the same methods offscreen.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

import numpy as np

from tablesim.games.core import GameError, PhysicsTable
from tablesim.sim.model import vec3
from tablesim.sim.view.camera import DEFAULT_PITCH, DEFAULT_YAW, camera_for_scene
from tablesim.sim.view.interact import Controller, Pointer, controller_for
from tablesim.sim.view.layout import Floats, Item, TableLayout
from tablesim.sim.view.window import stats_line

__all__ = ["ANIMATION_SLOW", "BOT_DELAY", "GLIDE_S", "SceneApp", "WindowApp", "pick"]

GLIDE_S = 0.4
"""Seconds a piece glides into place when a move was not judged by physics."""
BOT_DELAY = 0.3
"""Seconds a bot waits before its move, so its turn can be seen."""
ANIMATION_SLOW = 1.0
"""Playback speed of a judged run (1: real time)."""

_HELP = [
    "mouse: right-drag orbit, middle-drag or shift+right-drag pan, wheel zoom",
    "keys: arrows orbit, +/- zoom, home reset view, u undo, enter type a move, f1 help, "
    "escape quit",
]

_App = TypeVar("_App", bound="WindowApp")


def runs(n: int) -> str:
    """``n`` verdict runs as a status line says it ("1 run", "8 runs")."""
    return f"{n} run" if n == 1 else f"{n} runs"


_SCENE_HELP = [
    "space: run it live (display physics), then judge it (verdict)",
    "r: put the pieces back where the scene file has them",
    "right-drag orbit, middle- or shift+right-drag pan, wheel zoom",
    "arrows orbit, +/- zoom, home reset view, f1 help, escape quit",
]


def _hit_triangles(origin: np.ndarray, direction: np.ndarray, tri: np.ndarray) -> float:
    """Distance along the ray to the nearest triangle of ``tri`` (F, 3, 3) hit, else inf
    (Moller-Trumbore, both faces)."""
    if len(tri) == 0:
        return math.inf
    v0, e1, e2 = tri[:, 0], tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]
    p = np.cross(direction, e2)
    det = np.einsum("ij,ij->i", e1, p)
    ok = np.abs(det) > 1e-15
    inv = np.where(ok, 1.0 / np.where(ok, det, 1.0), 0.0)
    s = origin - v0
    u = np.einsum("ij,ij->i", s, p) * inv
    q = np.cross(s, e1)
    v = (q @ direction) * inv
    t = np.einsum("ij,ij->i", e2, q) * inv
    hit = ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 0)
    return float(t[hit].min()) if hit.any() else math.inf


def pick(
    layout: TableLayout, origin: Floats, direction: Floats, skip: str = "ghost"
) -> tuple[str | None, tuple[float, float, float] | None]:
    """The first item the ray hits (ids starting with ``skip`` are not picked) and the point
    hit; with no item, (None, the point on the table plane z = 0 or None)."""
    o, d = np.asarray(origin, float), np.asarray(direction, float)
    best, best_t = None, math.inf
    for it in layout.items:
        if skip and it.id.startswith(skip):
            continue
        tri = it.world_triangles()
        lo, hi = tri.reshape(-1, 3).min(axis=0), tri.reshape(-1, 3).max(axis=0)
        # slab test on the bounding box first
        with np.errstate(divide="ignore", invalid="ignore"):
            t1, t2 = (lo - o) / d, (hi - o) / d
        tmin = np.nanmax(np.minimum(t1, t2))
        tmax = np.nanmin(np.maximum(t1, t2))
        if tmax < max(tmin, 0.0) or tmin > best_t:
            continue
        t = _hit_triangles(o, d, tri)
        if t < best_t:
            best, best_t = it.id, t
    if best is not None:
        return best, tuple(float(v) for v in o + best_t * d)  # type: ignore[return-value]
    if d[2] < -1e-12:
        t = -o[2] / d[2]
        return None, tuple(float(v) for v in o + t * d)  # type: ignore[return-value]
    return None, None


_BOX_CORNERS = np.array([[i, j, k] for i in (0, 1) for j in (0, 1) for k in (0, 1)])


def _screen_hulls(items: Sequence[Item], view: Any, size: tuple[int, int]) -> list[np.ndarray]:
    """Per item, the convex hull (K, 2) in picture pixels of its bounding box projected (the
    corners of its mesh's own bounds, posed): a board's or a tile's outline on the screen, a
    polycube's a little larger. Items partly behind the camera are left out."""
    if not items:
        return []
    local = np.stack([np.asarray(it.mesh.bounds, float) for it in items])  # (N, 2, 3)
    corners = local[:, _BOX_CORNERS, [0, 1, 2]]  # (N, 8, 3)
    rot = np.stack([it.rotation() for it in items])
    pos = np.stack([np.asarray(it.position, float) for it in items])
    world = np.einsum("nij,nkj->nki", rot, corners) + pos[:, None, :]
    px = view.project(world.reshape(-1, 3), size).reshape(-1, 8, 2)
    return [_hull(p) for p in px if np.isfinite(p).all()]


def _hull(points: np.ndarray) -> np.ndarray:
    """The convex hull of 2-D ``points`` (N, 2), counter-clockwise (Andrew's monotone chain)."""
    pts = sorted({(float(x), float(y)) for x, y in points})
    if len(pts) < 3:
        return np.asarray(pts, float).reshape(-1, 2)

    def chain(seq: list[tuple[float, float]]) -> list[tuple[float, float]]:
        out: list[tuple[float, float]] = []
        for p in seq:
            while (
                len(out) >= 2
                and (
                    (out[-1][0] - out[-2][0]) * (p[1] - out[-2][1])
                    - (out[-1][1] - out[-2][1]) * (p[0] - out[-2][0])
                )
                <= 0
            ):
                out.pop()
            out.append(p)
        return out

    lower, upper = chain(pts), chain(pts[::-1])
    return np.asarray(lower[:-1] + upper[:-1], float)


def _clipped_area(poly: np.ndarray, box: tuple[float, float, float, float]) -> float:
    """Area of convex ``poly`` (K, 2) inside the rectangle ``box`` (x0, x1, y0, y1)
    (Sutherland-Hodgman clipping, then the shoelace formula)."""
    x0, x1, y0, y1 = box
    pts = [tuple(p) for p in poly]
    for axis, bound, keep_low in ((0, x0, False), (0, x1, True), (1, y0, False), (1, y1, True)):
        if not pts:
            return 0.0
        out = []
        for k, cur in enumerate(pts):
            prev = pts[k - 1]
            cur_in = cur[axis] <= bound if keep_low else cur[axis] >= bound
            prev_in = prev[axis] <= bound if keep_low else prev[axis] >= bound
            if cur_in != prev_in:
                t = (bound - prev[axis]) / (cur[axis] - prev[axis])
                out.append(tuple(prev[i] + t * (cur[i] - prev[i]) for i in (0, 1)))
            if cur_in:
                out.append(cur)
        pts = out
    if len(pts) < 3:
        return 0.0
    a = np.asarray(pts, float)
    return float(
        abs(np.dot(a[:, 0], np.roll(a[:, 1], -1)) - np.dot(a[:, 1], np.roll(a[:, 0], -1))) / 2
    )


def _covered(box: tuple[float, float, float, float], hulls: Sequence[np.ndarray]) -> float:
    """Screen area (pixels) of the items' outlines ``hulls`` under ``box``, summed."""
    x0, x1, y0, y1 = box
    return sum(
        _clipped_area(h, box)
        for h in hulls
        if len(h) >= 3
        and h[:, 0].max() > x0 and h[:, 0].min() < x1 and h[:, 1].max() > y0 and h[:, 1].min() < y1
    )  # fmt: skip


def _recolour(layout: TableLayout, colours: Mapping[str, Sequence[float]]) -> TableLayout:
    if not colours:
        return layout
    items = tuple(
        replace(it, color=vec3(colours[it.id]), finish="plain") if it.id in colours else it
        for it in layout.items
    )
    return replace(layout, items=items)


STILL_M = 0.3e-3
"""A film skips the stretches where no piece moves more than this (m) from the poses shown (a
wait, a tower standing through its window, a balance cube that settles at once)."""
STILL_Q = 1e-3
"""... nor turns more than this (quaternion components, about 0.1 degree)."""
SKIP_BUDGET_S = 0.004
"""Seconds a frame may spend looking through a film for the next motion (bounded work)."""


def pose_rows(poses: dict[str, Any]) -> np.ndarray:
    """Poses (id -> (position, quaternion)) as one (n, 7) array, in the dict's order."""
    if not poses:
        return np.zeros((0, 7))
    return np.array([np.concatenate((p, q)) for p, q in poses.values()], float)


def _moved(pa: np.ndarray, pb: np.ndarray) -> bool:
    """Whether any piece of pose rows ``pb`` moved since rows ``pa`` (a piece more or less:
    moved)."""
    if pa.shape != pb.shape:
        return True
    if not len(pb):
        return False
    if np.abs(pb[:, :3] - pa[:, :3]).max() > STILL_M:
        return True
    dq = np.minimum(np.abs(pb[:, 3:] - pa[:, 3:]).max(axis=1),
                    np.abs(pb[:, 3:] + pa[:, 3:]).max(axis=1))  # fmt: skip
    return bool(dq.max() > STILL_Q)


def advance_film(a: dict[str, Any], dt: float) -> None:
    """Advance a film ``a`` (``samples``: (t, poses) in time order, growing while the table
    measures; ``t`` its time, ``i`` the sample shown; ``rows``: the samples' :func:`pose_rows`,
    filled here when the recorder did not) by ``dt`` s, never past the last sample, skipping at
    once over stretches in which nothing moves (a person's wait, a tower that stands): the
    film shows motion at its own pace and nothing else."""
    samples = a["samples"]
    if not samples:
        return
    rows: list[np.ndarray] = a.setdefault("rows", [])
    i = int(a.get("i", 0))
    if "i" not in a:  # the film starts at its first sample (a filmed wait: before 0)
        a["t"] = float(samples[0][0])
    last = len(samples) - 1

    def row(k: int) -> np.ndarray:
        while len(rows) <= k:
            rows.append(pose_rows(samples[len(rows)][1]))
        return rows[k]

    shown = row(i)
    j, until = i, time.perf_counter() + SKIP_BUDGET_S
    while j < last and time.perf_counter() < until and not _moved(shown, row(j + 1)):
        j += 1
    if j > i:
        a["t"] = max(float(a["t"]), samples[j][0])
        i = j
    a["t"] = min(float(a["t"]) + dt, samples[last][0])
    while i < last and samples[i + 1][0] <= a["t"] + 1e-9:
        i += 1
    if i == last and j == last and a.get("end", math.inf) != math.inf:
        a["t"] = max(float(a["t"]), float(a["end"]))  # nothing moves to the end: done
    a["i"] = i


class _Work:
    """One call of ``fn`` -- in a daemon thread (``threaded``) or at once -- whose result (or
    error) the main loop picks up with :meth:`done`; ``on_done(work)`` runs then, in the main
    thread. Panda3D is only ever touched by the main thread."""

    def __init__(self, fn: Callable[[], Any], *, threaded: bool) -> None:
        import threading

        self.result: Any = None
        self.error: BaseException | None = None
        self.on_done: Callable[[_Work], None] | None = None
        self._thread: Any = None
        if threaded:
            self._thread = threading.Thread(target=self._run, args=(fn,), daemon=True,
                                            name="tablesim-work")  # fmt: skip
            self._thread.start()
        else:
            self._run(fn)

    def _run(self, fn: Callable[[], Any]) -> None:
        try:
            self.result = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread
            self.error = exc

    def done(self) -> bool:
        """True once ``fn`` returned or raised."""
        return self._thread is None or not self._thread.is_alive()

    def join(self) -> None:
        """Wait for ``fn`` to end."""
        if self._thread is not None:
            self._thread.join()


class WindowApp:
    """A game at the table, driven by events; see the module docstring.

    Parameters: ``game`` (a registered name), ``options`` (game options by name, as
    ``tablesim play`` takes them), ``players`` (roles: ``human`` or bot names, one per seat),
    ``seed``, ``size`` (pixels), ``backend`` (``tiny``, ``gl``, ``auto``), ``window`` (an
    on-screen window: gl and a display), ``budget`` (bots' budget), ``controller`` (instead of
    the registered one). Raises the game's ConfigError for bad options or players.
    """

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
        self.size = self.renderer.size
        self._orbit: dict[str, Any] | None = None
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
        if self.game.is_terminal(self.state):
            res = self.game.result(self.state)
            name = self.game.player_name
            who = " and ".join(name(w) for w in res.winners) or "nobody"
            return (
                "game over: "
                + ", ".join(f"{name(i)} {v:g}" for i, v in enumerate(res.scores))
                + f"; {who} won"
            )
        totals = getattr(self.game, "totals", None)
        if totals is not None:
            return "score: " + ", ".join(f"P{i + 1} {v}" for i, v in enumerate(totals(self.state)))
        return ""

    def status_lines(self) -> list[str]:
        """The top-left block: game, turn, score, verdict and explanation."""
        lines = [f"{self.game.title}  move {len(self.moves) + 1}"]
        s = self.seat
        if s is not None:
            who = self.roles[s]
            lines.append(f"P{s + 1} to move ({who})" + ("  ...thinking" if who != "human" else ""))
        score = self.score_text()
        if score:
            lines.append(score)
        if self.verdict:
            lines.append(self.verdict)
        if self.explanation:
            lines.append(self.explanation)
        rule = getattr(self.controller, "rule_line", None)
        if rule is not None and rule():
            lines.append(rule())
        return lines

    def _person_waited(self) -> float | None:
        """Seconds the person to move has had the table (None when no person's clock runs):
        read by the referee's thread that simulates their wait."""
        waited = getattr(self.controller, "waited", None)
        s = self.seat
        if waited is None or s is None or self.seats[s].bot is not None:
            return None
        return waited()

    # ------------------------------------------------------------------ moves
    def _observe(self, world: Any, index: int, t: float) -> None:
        """The referee's read-only hook: poses of the move being judged."""
        if index == self._watch_index:
            poses = world.poses()
            self._rows.append(pose_rows(poses))  # for the film's stillness test, off the loop
            self._samples.append((float(t), poses))

    def play(self, move: Any) -> bool:
        """Check, measure, apply and animate ``move`` for the seat to move. Returns True when
        it was played -- or, live (a window), handed to the physics table, whose verdict
        follows; otherwise the verdict line says why not."""
        if self.game.is_terminal(self.state):
            self.verdict, self.explanation = "the game is over", ""
            self._dirty = True
            return False
        if self._work is not None:
            return False
        try:
            self.session.check(move)
        except GameError as exc:
            return self._refused(move, exc)
        old_layout = self._layout
        ghosts = [g for g in self.controller.ghosts() if g.id.startswith("ghost")]
        if self.referee is None:
            try:
                played = self.session.play(move)
            except GameError as exc:
                return self._refused(move, exc)
            self._played(played, old_layout)
            return True
        # a judged move: the table measures it (the referee's knock hook streams its poses)
        self._samples, self._rows = [], []
        self._watch_index = len(getattr(self.state, "history", ()))
        before = self.state
        work = _Work(lambda: self.session.play(move), threaded=self.threaded)
        work.on_done = lambda w: self._measured(w, move, before, old_layout)
        self._work = work
        self._live_film(old_layout, ghosts)
        self.verdict = f"the table is judging {self.game.format_move(before, move)}..."
        self.explanation = ""
        self._dirty = True
        if not self.threaded:
            self._finish_work()
            return bool(self.session.played) and self.session.played[-1].before is before
        return True

    def _refused(self, move: Any, exc: Exception) -> bool:
        self.verdict = "refused: " + self.game.format_move(self.state, move)
        self.explanation = str(exc)
        self._dirty = True
        return False

    def _measured(self, work: _Work, move: Any, before: Any, old: TableLayout | None) -> None:
        """The table's measurement finished (main thread): show the verdict, animate the
        rest of the film."""
        self._watch_index = None
        if work.error is not None:
            if not isinstance(work.error, GameError):
                raise work.error
            self._anim = None
            self._refused(move, work.error)
            return
        self._played(work.result, old, live=True)

    def _move_line(self, seat: int, text: str) -> str:
        """``text`` about seat ``seat``'s move, led by the player's name once (most games'
        descriptions already name the mover: "P1 take 4L", "Red places ...")."""
        name = self.game.player_name(seat)
        if text.startswith((name, f"P{seat + 1}")):
            return text
        return f"{name}: {text}"

    def _played(self, played: Any, old_layout: TableLayout | None, live: bool = False) -> None:
        measured, before = played.move, played.before
        stats_line(f"played {played.text}")
        if self.show_help and not self._help_shown_once:
            self.show_help = False  # shown at the start; after the first move only on f1
        self._help_shown_once = True
        self.verdict = self._move_line(played.seat, self.game.describe_move(before, measured))
        self.explanation = self._explain(measured)
        self._set_state()
        if live and self._anim is not None and "film" in self._anim and self._samples:
            # the film is on screen already: it plays on to its end at its own pace, on the
            # new state's table when the world's pieces are all on it (a typed move has no
            # ghost to stand in for the piece dropped), and the verdict is said at the end
            new = self._with_supply(self._base_layout())
            if set(self._samples[0][1]) <= set(new.ids):
                self._anim["layout"], self._anim["shown"] = new, False
            self._film_layout()
            self._anim["end"] = self._samples[-1][0]
            self._anim["say"] = (self.verdict, self.explanation)
            self.verdict = self._move_line(played.seat, f"{played.text}: the table measured it...")
            self.explanation = ""
        else:
            self._anim = None
            self._start_animation(old_layout, measured)

    def _finish_work(self) -> None:
        work = self._work
        if work is None or not work.done():
            return
        self._work = None
        if work.on_done is not None:
            work.on_done(work)

    def _explain(self, move: Any) -> str:
        """What the table saw (measured moves), in words."""
        out = getattr(move, "outcome", None)
        if out is None:
            return ""
        if out.fell:
            when = "" if out.fall_time is None else f" after {out.fall_time:.2f} s"
            return f"{out.judge} table: {', '.join(out.fell)} fell{when}"
        return f"{out.judge} table: everything stood"

    def undo(self) -> bool:
        """Take back the last move (and the bots' moves after the last human one): the
        session returns to the state before them. False when nothing to undo."""
        if not self.session.played:
            self.verdict, self.explanation = "nothing to undo", ""
            self._dirty = True
            return False
        from tablesim.games.session import UndoRefused

        try:
            self.session.undo(to_human=True)
        except UndoRefused as exc:  # dice seen, a tower fallen: the outcome stands
            self.verdict, self.explanation = str(exc), ""
            self._dirty = True
            return False
        self._anim = None
        self._set_state()
        self.verdict = f"undone: back to move {self.session.turns + 1}"
        self.explanation = ""
        return True

    def record(self) -> Any:
        """The game so far as a :class:`tablesim.games.log.Record` (move texts, seats, digests, the
        result once over)."""
        return self.session.record()

    def _set_state(self) -> None:
        self.controller.reset(self.game, self.state)
        self._bot_wait = BOT_DELAY
        self._dirty = True

    # ------------------------------------------------------------------ animation
    def _base_layout(self) -> TableLayout:
        """The game's table for the current state (cached per state: states are frozen)."""
        from tablesim.sim.view.drawings import layout_for_state

        cached = getattr(self, "_base_cache", None)
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
        new = self._with_supply(self._base_layout())
        if self._samples:
            ids = set(new.ids)
            frames = self._samples
            if not all(set(p) <= ids for _, p in frames[:1]) and old is not None:
                # the round ended (the tower fell and was cleared): film on the old table
                # plus the ghost of the piece moved, renamed to the world's id
                missing = sorted(set(frames[0][1]) - set(old.ids))
                ghosts = [g for g in self.controller.ghosts() if g.id.startswith("ghost")]
                extra = [
                    replace(g, id=m, alpha=1.0)
                    for g, m in zip(ghosts[:1], missing[:1], strict=False)
                ]
                new = replace(old, items=old.items + tuple(extra))
            self._anim = {"layout": new, "t": 0.0, "samples": frames, "end": frames[-1][0],
                          "rows": self._rows}  # fmt: skip
        elif old is not None:
            start = {}
            for it in new.items:
                try:
                    prev = old.item(it.id)
                except KeyError:
                    prev = replace(it, position=(it.position[0], it.position[1],
                                                 it.position[2] + 0.06))  # fmt: skip
                if np.allclose(prev.position, it.position) and np.allclose(prev.quat, it.quat):
                    continue
                start[it.id] = ((prev.position, prev.quat), (it.position, it.quat))
            if start:
                self._anim = {"layout": new, "t": 0.0, "glide": start, "end": GLIDE_S}
        self._dirty = True

    def _anim_poses(self) -> dict[str, Any]:
        a = self._anim
        assert a is not None  # only called while animating
        ids = set(a["layout"].ids)
        if "samples" in a:
            if not a["samples"]:
                return {}
            i = min(int(a.get("i", 0)), len(a["samples"]) - 1)
            return {k: v for k, v in a["samples"][i][1].items() if k in ids}
        f = min(1.0, a["t"] / GLIDE_S)
        f = f * f * (3 - 2 * f)
        out = {}
        for pid, ((p0, q0), (p1, q1)) in a["glide"].items():
            pos = (1 - f) * np.asarray(p0) + f * np.asarray(p1)
            q = q1 if f > 0.5 else q0
            out[pid] = (pos, q)
        return out

    # ------------------------------------------------------------------ time
    def _showing(self) -> dict[str, Any] | None:
        """The animation being drawn (None: none, or a film whose first poses are not in)."""
        a = self._anim
        return a if a is not None and a.get("layout") is not None else None

    def _live_film(self, old: TableLayout | None, ghosts: Sequence[Item]) -> None:
        """Show the judged move's run as the table measures it: the referee's poses
        (:meth:`_observe`) on the old table, the held piece renamed to the world's id."""
        self._anim = {"film": True, "layout": None, "old": old, "ghosts": list(ghosts), "t": 0.0,
                      "samples": self._samples, "rows": self._rows, "end": math.inf}  # fmt: skip
        self._film_layout()

    def _film_layout(self) -> None:
        a = self._anim
        if a is None or a.get("layout") is not None or not self._samples:
            return
        base = a["old"] if a["old"] is not None else self._base_layout()
        base = replace(base, items=tuple(it for it in base.items if not it.id.startswith("ghost")))
        missing = sorted(set(self._samples[0][1]) - set(base.ids))
        extra = [
            replace(g, id=m, alpha=1.0) for g, m in zip(a["ghosts"][:1], missing[:1], strict=False)
        ]
        a["layout"] = replace(base, items=base.items + tuple(extra))
        a["shown"] = False

    def tick(self, dt: float) -> None:
        """Advance the animation, take a finished measurement or bot choice, and let a bot
        (or a watching controller) move when its turn comes (``dt`` seconds)."""
        if self._work is not None:
            self._finish_work()
        rule = getattr(self.controller, "rule_line", None)
        if rule is not None:  # a countdown on screen: redraw the text when it changes
            text = rule()
            if text != getattr(self, "_rule_text", ""):
                self._rule_text = text
                self._dirty = True
                if self._anim is not None and self._anim.get("shown"):
                    self.renderer.set_text(self.text_blocks(), scale=self.text_scale())
        a = self._anim
        if a is not None:
            if "film" in a:
                self._film_layout()
                advance_film(a, dt * ANIMATION_SLOW)  # never ahead of the table
                if a["layout"] is None and a["end"] != math.inf:
                    self._anim = None  # nothing was filmed
                elif a["t"] >= a["end"]:
                    self._anim = None
                    if "say" in a:
                        self.verdict, self.explanation = a["say"]
            else:
                if "samples" in a:
                    advance_film(a, dt * ANIMATION_SLOW)
                else:
                    a["t"] += dt * ANIMATION_SLOW
                if a["t"] >= a["end"]:
                    self._anim = None
            self._dirty = True
            return
        if self._work is not None:
            return  # a bot is thinking
        s = self.seat
        if s is None:
            return
        auto = getattr(self.controller, "auto_move", None)
        if self.seats[s].bot is None:
            if getattr(self, "_ghost_for", None) is not self.state:
                # the table is the person's again: the ghost follows the pointer where it is
                # now (not where it was when the last move began: the click plays what the
                # ghost shows)
                self._ghost_for = self.state
                self.controller.on_mouse_move(self.pointer(*self._mouse))
                self._dirty = True
            start = getattr(self.controller, "start_clock", None)
            if start is not None and getattr(self.controller, "shown_at", 0.0) is None:
                start()  # the person's time runs from the moment the table is theirs
                stats_line(f"yours P{s + 1}")
            if auto is None:
                return
            self._bot_wait -= dt
            if self._bot_wait <= 0:
                move = auto()  # a controller playing for the person (watch the solver)
                if move is not None and not self.play(move):
                    self._bot_wait = math.inf
            return
        self._bot_wait -= dt
        if self._bot_wait > 0:
            return
        self._think(s)

    def _think(self, seat: int) -> None:
        """The bot of ``seat`` chooses (in a worker thread in a window), then plays."""

        def chosen(work: _Work) -> None:
            if work.error is not None:
                self.explanation = f"bot {self.roles[seat]} failed: {work.error}"
                self._bot_wait = math.inf
                return
            if not self.play(work.result):
                # a bot must not stall the table: say so and stop asking it
                self.explanation = (f"bot {self.roles[seat]} proposed a refused move: "
                                    f"{self.explanation}")  # fmt: skip
                self._bot_wait = math.inf

        self._work = _Work(self.session.bot_move, threaded=self.threaded)
        self._work.on_done = chosen
        self._dirty = True
        if not self.threaded:
            self._finish_work()

    # ------------------------------------------------------------------ camera
    def _ensure_orbit(self, layout: TableLayout) -> None:
        if self._orbit is not None:
            return
        spec = dict(layout.camera or {})
        yaw = float(spec.get("yaw", DEFAULT_YAW))
        pitch = float(spec.get("pitch", DEFAULT_PITCH))
        view = camera_for_scene(spec, self.framing_points(layout), self.size[0] / self.size[1])
        self._orbit = {
            "target": np.asarray(view.look_at, float),
            "distance": float(np.linalg.norm(np.subtract(view.pos, view.look_at))),
            "yaw": yaw,
            "pitch": pitch,
            "fov": view.fov,
        }

    def framing_points(self, layout: TableLayout) -> np.ndarray:
        """The points (N, 3) m the first camera frames: the table's items and the
        controller's own (a tower game's supply: never cut off at the edges), a subclass adds
        where things will come, e.g. the area thrown dice can land in."""
        return self._with_supply(layout).points()

    def camera_spec(self) -> dict[str, Any]:
        """The orbit camera as a camera spec (target, distance, yaw, pitch, fov)."""
        o = self._orbit or {}
        return {
            "target": list(o["target"]),
            "distance": o["distance"],
            "yaw": o["yaw"],
            "pitch": o["pitch"],
            "fov": o["fov"],
        }

    def orbit(self, dyaw: float, dpitch: float) -> None:
        """Turn the camera round the target (degrees); pitch stays within -89..-3."""
        if self._orbit is None:
            self.frame()
        o = self._orbit
        assert o is not None
        o["yaw"] = (o["yaw"] + dyaw) % 360
        o["pitch"] = min(-3.0, max(-89.0, o["pitch"] + dpitch))
        self._camera_moved()
        self._dirty = True

    def zoom(self, factor: float) -> None:
        """Move the camera ``factor`` times its distance from the target (0.05..20 m)."""
        if self._orbit is None:
            self.frame()
        o = self._orbit
        assert o is not None
        o["distance"] = min(20.0, max(0.05, o["distance"] * factor))
        self._camera_moved()
        self._dirty = True

    def pan(self, dx: float, dy: float) -> None:
        """Slide the target by pixels (dx right, dy down) at the target's distance."""
        if self._orbit is None:
            self.frame()
        o = self._orbit
        assert o is not None
        h, p = math.radians(o["yaw"]), math.radians(o["pitch"])
        right = np.array([math.cos(h), math.sin(h), 0.0])
        fwd = np.array([-math.sin(h) * math.cos(p), math.cos(h) * math.cos(p), math.sin(p)])
        up = np.cross(right, fwd)
        scale = 2 * o["distance"] * math.tan(math.radians(o["fov"]) / 2) / self.size[1]
        o["target"] = o["target"] + scale * (-dx * right + dy * up)
        self._camera_moved()
        self._dirty = True

    # ------------------------------------------------------------------ events
    def pointer(self, x: float, y: float, button: str | None = None) -> Pointer:
        """The :class:`Pointer` at pixel (x, y) on the table drawn last."""
        if self._layout is None:
            self.frame()
        origin, direction = self.renderer.ray(x, y)
        assert self._layout is not None
        item, point = pick(self._layout, origin, direction)
        return Pointer(
            float(x), float(y), tuple(origin.tolist()), tuple(direction.tolist()),
            item, point, button, frozenset(self._buttons), frozenset(self._mods),
        )  # fmt: skip

    def mouse_move(self, x: float, y: float) -> None:
        """The mouse moved to pixel (x, y): camera drags, else the controller."""
        px, py = self._mouse
        self._mouse = (x, y)
        if self._drag is not None:
            kind = self._drag[0]
            if kind == "orbit":
                self.orbit(-(x - px) * 0.4, -(y - py) * 0.3)
            else:
                self.pan(x - px, y - py)
            return
        if self.human_to_move():
            self.controller.on_mouse_move(self.pointer(x, y))
            self._dirty = True

    def mouse_down(self, x: float, y: float, button: str = "left") -> bool:
        """A button went down at (x, y); True when it made a move."""
        self._mouse = (x, y)
        self._buttons.add(button)
        if button == "right" or button == "middle":
            pan = button == "middle" or "shift" in self._mods
            self._drag = ("pan" if pan else "orbit", x, y)
            return False
        if not self.human_to_move():
            return False
        return self._propose(self.controller.on_click(self.pointer(x, y, button)))

    def mouse_up(self, x: float, y: float, button: str = "left") -> bool:
        """A button went up; True when it made a move (end of a drag)."""
        self._buttons.discard(button)
        if button in ("right", "middle"):
            self._drag = None
            return False
        if not self.human_to_move():
            return False
        return self._propose(self.controller.on_release(self.pointer(x, y, button)))

    def wheel(self, steps: float) -> None:
        """Zoom: positive steps come closer."""
        self.zoom(0.9**steps)

    def modifiers(self, mods: Sequence[str]) -> None:
        """Set the modifier keys held (``shift``, ``control``, ``alt``)."""
        self._mods = set(mods)

    def key(self, name: str) -> bool:
        """A key press (Panda3D names); True when it made a move. App keys first (unless a
        move is being typed), then the controller's."""
        if self.typing is not None:
            return self._type(name)
        app_keys = {
            "arrow_left": lambda: self.orbit(-10, 0),
            "arrow_right": lambda: self.orbit(10, 0),
            "arrow_up": lambda: self.orbit(0, -8),
            "arrow_down": lambda: self.orbit(0, 8),
            "+": lambda: self.zoom(0.85),
            "=": lambda: self.zoom(0.85),
            "-": lambda: self.zoom(1 / 0.85),
            "home": self._reset_view,
            "f1": self._toggle_help,
            "escape": self.close,
        }
        if name in app_keys:
            app_keys[name]()
            self._dirty = True
            return False
        if name in ("u", "backspace"):
            if not self.busy:
                self.undo()
            return False
        if name == "enter":
            self.typing = ""
            self._dirty = True
            return False
        if not self.human_to_move():
            return False
        self._dirty = True
        return self._propose(self.controller.on_key(name))

    def _type(self, name: str) -> bool:
        """A key while the move line is open: only editing keys act; characters come through
        :meth:`type_char` (a window sends both for one press)."""
        self._dirty = True
        if name == "escape":
            self.typing = None
        elif name == "backspace":
            self.typing = (self.typing or "")[:-1]
        elif name == "enter":
            text, self.typing = (self.typing or "").strip(), None
            if not text:
                return False
            if not self.human_to_move():
                self.verdict, self.explanation = f"not your turn: {text!r} not played", ""
                return False
            try:
                move = self.game.parse_move(self.state, text)
            except GameError as exc:
                from tablesim.sim.view.move_words import move_line_answer

                said = move_line_answer(self.game, self.state, text)
                self.verdict, self.explanation = said or (f"cannot read {text!r}", str(exc))
                return False
            return self.play(self.controller.stamp(move))
        return False

    def type_char(self, char: str) -> None:
        """A typed character (with shift and the keyboard layout applied): goes to the move
        line when it is open; ignored otherwise (keys act through :meth:`key`)."""
        if self.typing is None or len(char) != 1 or not char.isprintable():
            return
        self.typing += char
        self._dirty = True

    def type_move(self, text: str) -> bool:
        """Type ``text`` on the move line and play it (True when played)."""
        self.key("enter")
        for ch in text:
            self.type_char(ch)
        return self._type("enter")

    def _propose(self, move: Any) -> bool:
        self._dirty = True
        return False if move is None else self.play(move)

    def _reset_view(self) -> None:
        self._orbit = None
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
        items = tuple(self.controller.ghosts())
        if self.human_to_move():
            return items
        return tuple(it for it in items if not it.id.startswith("ghost"))

    def layout(self) -> TableLayout:
        """What is drawn now: the game's table (or the animation's), the controller's
        highlights and ghosts."""
        if self._showing() is not None:
            base = self._anim["layout"].with_poses(self._anim_poses())  # type: ignore[index]
        else:
            base = self._base_layout()
            base = _recolour(base, dict(self.controller.highlights()))
            ghosts = self._shown_ghosts()
            if ghosts:
                base = replace(base, items=base.items + ghosts)
        return base

    def text_blocks(self) -> dict[str, str]:
        """The on-screen text by corner."""
        blocks = {"top-left": "\n".join(self.status_lines())}
        # the controller's prompts only while a person has the turn (never while a bot thinks)
        mine = list(self.controller.overlay()) if self.human_to_move() else []
        if self.typing is not None:
            mine.append(f"move> {self.typing}_")
        if mine:
            blocks["bottom-left"] = "\n".join(mine)
        if self.show_help:
            text = "\n".join([*self.controller.help(), *_HELP])
            blocks[self.help_corner(text)] = text
        else:  # the one-line hint: where a help without text goes (top right in a game)
            blocks[self.help_corner()] = "f1: help"
        return blocks

    def help_corner(self, text: str = "") -> str:
        """Where the key help ``text`` goes: of the two right-hand corners (the left ones hold
        the status and the prompts), the one whose panel hides less of the table's pieces,
        boards and tiles as the camera sees them now (top right on a tie)."""
        view = getattr(self.renderer, "view", None)
        if view is None or not text or self._layout is None:
            return "top-right"
        # everything but the ghost of the move being made (ids "ghost...", as picking skips
        # them): the help does not follow the hand about; the controller's other items (a
        # Kozo supply, say) count
        items = [it for it in self._layout.items if not it.id.startswith("ghost")]
        placed = tuple((it.id, tuple(it.position), tuple(it.quat)) for it in items)
        key = (placed, view, tuple(self.size), text)
        cached = getattr(self, "_help_spot", None)
        if cached is not None and cached[0] == key:
            return str(cached[1])
        hulls = _screen_hulls(items, view, (int(self.size[0]), int(self.size[1])))
        scale = self.text_scale()
        hidden = {
            c: _covered(self.renderer.text_box(c, text, scale=scale), hulls)
            for c in ("top-right", "bottom-right")
        }
        best = "bottom-right" if hidden["bottom-right"] < hidden["top-right"] else "top-right"
        self._help_spot = (key, best)
        return best

    def frame(self) -> np.ndarray | None:
        """Draw the table (rebuilt when something changed): (H, W, 3) uint8 offscreen, None in
        a window."""
        if self.closed:
            raise RuntimeError("the app is closed")
        anim = self._showing()
        if anim is not None and anim.get("shown") and self._layout is not None:
            # the animation's table is built: only move its pieces (no rebuild, no new shaders)
            self.renderer.set_poses(self._anim_poses())
            self._dirty = False
        elif self._dirty or self._layout is None:
            self._redraw(anim)
        return self.renderer.render()

    def _redraw(self, anim: dict[str, Any] | None) -> None:
        """Rebuild the table, or when only the controller's ghosts changed, swap them."""
        if anim is not None:
            anim["shown"] = True
            self._shown_key = None
            layout = self.layout()
            self._ensure_orbit(self._base_layout())
            self.renderer.show(layout, self.camera_spec())
        else:
            base = self._base_layout()
            colours = dict(self.controller.highlights())
            ghosts = self._shown_ghosts()
            self._ensure_orbit(base)
            cam = self.camera_spec()
            key = (id(base), tuple(sorted((k, tuple(v)) for k, v in colours.items())))
            view = (tuple(cam["target"]), cam["distance"], cam["yaw"], cam["pitch"], self.size)
            table = _recolour(base, colours)
            layout = replace(table, items=table.items + ghosts) if ghosts else table
            if self._layout is not None and getattr(self, "_shown_key", None) == key:
                # the same table: the ghosts swapped, the camera moved (an orbit, a zoom, a
                # resize) without building the table again
                if getattr(self, "_shown_view", None) != view:
                    self.renderer.set_camera(cam)
                self.renderer.replace_items(self._ghost_ids, ghosts)
            else:
                self.renderer.show(layout, cam)
            self._shown_key = key
            self._shown_view = view
            self._ghost_ids: list[str] = [g.id for g in ghosts]
        self._layout = layout
        self.renderer.set_text(self.text_blocks(), scale=self.text_scale())
        self._dirty = False

    def text_scale(self) -> float:
        """Pixels per line of the on-screen text: 15 at 540 rows, growing with the picture."""
        return max(15.0, self.size[1] / 36)

    def items(self) -> list[Item]:
        """The items drawn last (for tests and controllers)."""
        return list(self._layout.items) if self._layout is not None else []

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
        self.size = self.renderer.size
        self._orbit = None
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
