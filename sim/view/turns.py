"""The interactive table's turn loop (:class:`TurnLoop`): a move checked, handed to the game's
referee (the physics table measures it, in a worker thread in a window, its poses streamed for
the film), applied and said; undo; bots' turns and the controller's own moves; and
:meth:`TurnLoop.tick`, which advances the animation and takes what the worker finished.

Every call goes back through the app, so an app's own ``tick``, ``undo`` or
``_start_animation`` (a scene, the sandbox, the tile games) is the one used."""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING, Any

from tablesim.games.core import GameError
from tablesim.sim.view.film_playback import advance_film, pose_rows
from tablesim.sim.view.layout import TableLayout
from tablesim.sim.view.window import stats_line
from tablesim.sim.view.work import _Work

if TYPE_CHECKING:
    from tablesim.sim.view.app import WindowApp

BOT_DELAY = 0.3
"""Seconds a bot waits before its move, so its turn can be seen."""


ANIMATION_SLOW = 1.0
"""Playback speed of a judged run (1: real time)."""


class TurnLoop:
    """The moves of one app (``app``)."""

    def __init__(self, app: WindowApp) -> None:
        self.app: WindowApp = weakref.proxy(app)

    def _person_waited(self) -> float | None:
        """Seconds the person to move has had the table (None when no person's clock runs):
        read by the referee's thread that simulates their wait.

        The clock is the one of the turn on screen only: :meth:`tick` hands it over
        (``app._person_clock``) when the table becomes a person's for the state shown, and
        :meth:`play`, :meth:`undo` and :meth:`_set_state` take it back first, in the main
        thread, before a move leaves the person's hands. So while a move is judged in the
        worker, applied, filmed, and through a bot's whole turn, this is None, whatever the
        threads' interleaving: the wait simulated after a move never reads the clock of the
        turn that made it (a balance cube after 12 s of thought once let the next wait run
        12 s ahead of a bot that placed at once). The controller's ``idle_waited`` (when it
        has one) also stops at the moment a placement is stamped."""
        clock = self.app._person_clock
        return None if clock is None else clock()

    def _hand_over_clock(self) -> None:
        """The table is the person's for the state shown (main thread): their clock is the
        one the referee's simulated wait may read (:meth:`_person_waited`)."""
        if self.app._person_clock is None:
            c = self.app.controller
            self.app._person_clock = getattr(c, "idle_waited", None) or getattr(c, "waited", None)

    def _observe(self, world: Any, index: int, t: float) -> None:
        """The referee's read-only hook: poses of the move being judged."""
        if index == self.app._watch_index:
            poses = world.poses()
            self.app._rows.append(pose_rows(poses))  # for the film's stillness test, off the loop
            self.app._samples.append((float(t), poses))

    def play(self, move: Any) -> bool:
        """Check, measure, apply and animate ``move`` for the seat to move. Returns True when
        it was played -- or, live (a window), handed to the physics table, whose verdict
        follows; otherwise the verdict line says why not."""
        self.app._person_clock = None  # the move leaves the person's hands (see _person_waited)
        if self.app.game.is_terminal(self.app.state):
            self.app.verdict, self.app.explanation = "the game is over", ""
            self.app._dirty = True
            return False
        if self.app._work is not None:
            return False
        try:
            self.app.session.check(move)
        except GameError as exc:
            return self.app._refused(move, exc)
        old_layout = self.app._layout
        ghosts = [g for g in self.app.controller.ghosts() if g.id.startswith("ghost")]
        if self.app.referee is None:
            try:
                played = self.app.session.play(move)
            except GameError as exc:
                return self.app._refused(move, exc)
            self.app._played(played, old_layout)
            return True
        # a judged move: the table measures it (the referee's knock hook streams its poses)
        self.app._samples, self.app._rows = [], []
        self.app._watch_index = len(getattr(self.app.state, "history", ()))
        before = self.app.state
        work = _Work(lambda: self.app.session.play(move), threaded=self.app.threaded)
        work.on_done = lambda w: self.app._measured(w, move, before, old_layout)
        self.app._work = work
        self.app._live_film(old_layout, ghosts)
        self.app.verdict = f"the table is judging {self.app.game.format_move(before, move)}..."
        self.app.explanation = ""
        self.app._dirty = True
        if not self.app.threaded:
            self.app._finish_work()
            return bool(self.app.session.played) and self.app.session.played[-1].before is before
        return True

    def _refused(self, move: Any, exc: Exception) -> bool:
        resume = getattr(self.app.controller, "resume_clock", None)
        if resume is not None:  # the person goes on thinking: their clock goes on
            resume()
        self.app.verdict = "refused: " + self.app.game.format_move(self.app.state, move)
        self.app.explanation = str(exc)
        self.app._dirty = True
        return False

    def _measured(self, work: _Work, move: Any, before: Any, old: TableLayout | None) -> None:
        """The table's measurement finished (main thread): show the verdict, animate the
        rest of the film."""
        self.app._watch_index = None
        if work.error is not None:
            if not isinstance(work.error, GameError):
                raise work.error
            self.app._anim = None
            self.app._refused(move, work.error)
            return
        self.app._played(work.result, old, live=True)

    def _move_line(self, seat: int, text: str) -> str:
        """``text`` about seat ``seat``'s move, led by the player's name once (most games'
        descriptions already name the mover: "P1 take 4L", "Red places ...")."""
        name = self.app.game.player_name(seat)
        if text.startswith((name, f"P{seat + 1}")):
            return text
        return f"{name}: {text}"

    def _played(self, played: Any, old_layout: TableLayout | None, live: bool = False) -> None:
        measured, before = played.move, played.before
        stats_line(f"played {played.text}")
        if self.app.show_help and not self.app._help_shown_once:
            self.app.show_help = False  # shown at the start; after the first move only on f1
        self.app._help_shown_once = True
        self.app.verdict = self.app._move_line(
            played.seat, self.app.game.describe_move(before, measured)
        )
        self.app.explanation = self.app._explain(measured)
        self.app._set_state()
        if live and self.app._anim is not None and "film" in self.app._anim and self.app._samples:
            # the film is on screen already: it plays on to its end at its own pace, on the
            # new state's table when the world's pieces are all on it (a typed move has no
            # ghost to stand in for the piece dropped), and the verdict is said at the end
            new = self.app._with_supply(self.app._base_layout())
            if set(self.app._samples[0][1]) <= set(new.ids):
                self.app._anim["layout"], self.app._anim["shown"] = new, False
            self.app._film_layout()
            self.app._anim["end"] = self.app._samples[-1][0]
            self.app._anim["say"] = (self.app.verdict, self.app.explanation)
            self.app.verdict = self.app._move_line(
                played.seat, f"{played.text}: the table measured it..."
            )
            self.app.explanation = ""
        else:
            self.app._anim = None
            self.app._start_animation(old_layout, measured)

    def _finish_work(self) -> None:
        work = self.app._work
        if work is None or not work.done():
            return
        self.app._work = None
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
        if not self.app.session.played:
            self.app.verdict, self.app.explanation = "nothing to undo", ""
            self.app._dirty = True
            return False
        from tablesim.games.session import UndoRefused

        self.app._person_clock = None
        try:
            self.app.session.undo(to_human=True)
        except UndoRefused as exc:  # dice seen, a tower fallen: the outcome stands
            self.app.verdict, self.app.explanation = str(exc), ""
            self.app._dirty = True
            return False
        self.app._anim = None
        self.app._set_state()
        self.app.verdict = f"undone: back to move {self.app.session.turns + 1}"
        self.app.explanation = ""
        return True

    def _set_state(self) -> None:
        self.app._person_clock = None  # handed over again when the table is a person's
        self.app.controller.reset(self.app.game, self.app.state)
        self.app._bot_wait = BOT_DELAY
        self.app._dirty = True

    def tick(self, dt: float) -> None:
        """Advance the animation, take a finished measurement or bot choice, and let a bot
        (or a watching controller) move when its turn comes (``dt`` seconds)."""
        if self.app._work is not None:
            self.app._finish_work()
        rule = getattr(self.app.controller, "rule_line", None)
        if rule is not None:  # a countdown on screen: redraw the text when it changes
            text = rule()
            if text != self.app._rule_text:
                self.app._rule_text = text
                self.app._dirty = True
                if self.app._anim is not None and self.app._anim.get("shown"):
                    self.app.renderer.set_text(self.app.text_blocks(), scale=self.app.text_scale())
        a = self.app._anim
        if a is not None:
            if "film" in a:
                self.app._film_layout()
                advance_film(a, dt * ANIMATION_SLOW)  # never ahead of the table
                if a["layout"] is None and a["end"] != math.inf:
                    self.app._anim = None  # nothing was filmed
                elif a["t"] >= a["end"]:
                    self.app._anim = None
                    if "say" in a:
                        self.app.verdict, self.app.explanation = a["say"]
            else:
                if "samples" in a:
                    advance_film(a, dt * ANIMATION_SLOW)
                else:
                    a["t"] += dt * ANIMATION_SLOW
                if a["t"] >= a["end"]:
                    self.app._anim = None
            self.app._dirty = True
            return
        if self.app._work is not None:
            return  # a bot is thinking
        s = self.app.seat
        if s is None:
            return
        auto = getattr(self.app.controller, "auto_move", None)
        if self.app.seats[s].bot is None:
            if self.app._ghost_for is not self.app.state:
                # the table is the person's again: the ghost follows the pointer where it is
                # now (not where it was when the last move began: the click plays what the
                # ghost shows)
                self.app._ghost_for = self.app.state
                self.app.controller.on_mouse_move(self.app.pointer(*self.app._mouse))
                self.app._dirty = True
            start = getattr(self.app.controller, "start_clock", None)
            if start is not None and getattr(self.app.controller, "shown_at", 0.0) is None:
                start()  # the person's time runs from the moment the table is theirs
                stats_line(f"yours P{s + 1}")
            self._hand_over_clock()
            if auto is None:
                return
            self.app._bot_wait -= dt
            if self.app._bot_wait <= 0:
                move = auto()  # a controller playing for the person (watch the solver)
                if move is not None and not self.app.play(move):
                    self.app._bot_wait = math.inf
            return
        self.app._bot_wait -= dt
        if self.app._bot_wait > 0:
            return
        self.app._think(s)

    def _think(self, seat: int) -> None:
        """The bot of ``seat`` chooses (in a worker thread in a window), then plays."""

        def chosen(work: _Work) -> None:
            if work.error is not None:
                self.app.explanation = f"bot {self.app.roles[seat]} failed: {work.error}"
                self.app._bot_wait = math.inf
                return
            if not self.app.play(work.result):
                # a bot must not stall the table: say so and stop asking it
                self.app.explanation = (f"bot {self.app.roles[seat]} proposed a refused move: "
                                    f"{self.app.explanation}")  # fmt: skip
                self.app._bot_wait = math.inf

        self.app._work = _Work(self.app.session.bot_move, threaded=self.app.threaded)
        self.app._work.on_done = chosen
        self.app._dirty = True
        if not self.app.threaded:
            self.app._finish_work()
