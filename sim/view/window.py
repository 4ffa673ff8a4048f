"""The on-screen window of the interactive table: Panda3D's ShowBase runs the loop.

:func:`run_window` drives an app (:class:`tablesim.sim.view.app.WindowApp` or a subclass) whose renderer
opened a window (``window=True``). The app itself has no clock and no event source: it is told
``tick(dt)``, ``frame()``, ``key(name)``, ``type_char(ch)``, ``mouse_*`` and ``resize`` by
whoever drives it -- this module in a window, :class:`tablesim.sim.view.harness.Harness` offscreen.

Why ShowBase (``docs/architecture.md``, "The window"): its task manager gives the frame loop
(paced here to :data:`FRAME_RATE` by sleeping, ``dt`` clamped so a slow frame never jumps an
animation), Ctrl-C handling, and its event manager and messenger deliver the
window's own events (``window-event`` for resizes and closing). ShowBase is made with
``windowType="none"``: it opens no window of its own; the renderer's window and graphics
engine stay the renderer's, so the same :class:`~sim.view.renderer.Renderer` draws offscreen
and on screen.

Input: one ``MouseAndKeyboard`` on the window under ShowBase's data graph and one
``ButtonThrower`` that throws three general events only -- button down, button up (with the
button's name) and keystrokes (with the typed character). Panda3D also throws ``raw-KEY`` and
``KEY`` for every press; nothing listens to those, so each key reaches the app exactly once.
Keystrokes (which know the layout and shift: ``T``, ``,``) feed the move line; button names
(``r``, ``f1``, ``enter``) are the app's keys.
"""

from __future__ import annotations

import builtins
import os
import signal
import sys
import threading
import time
from typing import Any

__all__ = ["FRAME_RATE", "MAX_DT", "run_window", "stats_line"]

FRAME_RATE = 60.0
"""Frames per second the loop is limited to (it sleeps the rest: the machine may be shared).

The pacing is the driver's own (``time.sleep`` to the next frame's due time), not Panda3D's
``ClockObject`` in ``M_limited`` mode: every ``GraphicsEngine.render_frame`` ticks the global
clock, and two engines run each frame (the renderer's, which draws, and ShowBase's own in its
``igLoop`` task, which has no window), so the limited clock waited twice a frame (at most 30
frames a second, each ``dt`` half the frame's) and spun the CPU for up to its
``sleep-precision`` (10 ms) at each wait. Measured in the real window under Xvfb, 960x540
tiny: 7 ms of CPU a frame in ShowBase's ``renderFrame`` alone (docs/performance.md)."""
MAX_DT = 0.1
"""Longest time step (s) one frame may advance the app: a slower frame plays slower."""
REFRESH_S = 0.5
"""The renderer draws only what changed (``Renderer.incremental``); the whole picture is
drawn again at least this often (seconds) and after every window event, so a window that was
covered, mapped late or moved never keeps a stale picture for long. ``TABLESIM_WINDOW_REFRESH``
(seconds, 0: only after window events) overrides it (the window tests turn it off to see
that what changed is drawn at once)."""

_MODIFIERS = {
    "shift": "shift", "lshift": "shift", "rshift": "shift",
    "control": "control", "lcontrol": "control", "rcontrol": "control",
    "alt": "alt", "lalt": "alt", "ralt": "alt", "meta": "alt", "lmeta": "alt", "rmeta": "alt",
}  # fmt: skip
_BUTTONS = {"mouse1": "left", "mouse2": "middle", "mouse3": "right"}
_PREFIX = "tablesim-window-"
STATS = "TABLESIM_WINDOW_STATS"
"""With this environment variable set (to anything but empty or 0) the window prints, on
standard output as they happen, ``window: T ...`` lines (T: seconds on the monotonic clock) for
each move played and each moment a person's clock starts, once a second the frames drawn so far
and the worst gap between two frames in that second and the process's CPU time in it (every
thread: the load-independent figure on a shared machine), the main thread's CPU in it split into
the app's tick, the pointer's move (pick, ghost) and drawing, the most CPU one frame took, and the
longest time from reading a moved pointer to its frame drawn, and at exit the frames drawn, the frames
per second and the worst gap between two frames (``bench/window.py`` reads them)."""


def stats_on() -> bool:
    """Whether :data:`STATS` asks for the window's figures."""
    return os.environ.get(STATS, "") not in ("", "0")


def stats_line(text: str) -> None:
    """Print ``window: T text`` when :data:`STATS` is set (T: the monotonic clock, s)."""
    if stats_on():
        print(f"window: {time.monotonic():.3f} {text}", flush=True)


def _showbase() -> Any:
    """ShowBase without a window of its own (made once per process, reused)."""
    base = getattr(builtins, "base", None)
    if base is not None:
        return base
    from panda3d.core import load_prc_file_data

    # no audio device, no joystick scan of /dev/input (it prints errors in containers)
    load_prc_file_data("tablesim-window", "audio-library-name null\nnotify-level-device fatal\n")
    from direct.showbase.ShowBase import ShowBase

    return ShowBase(windowType="none")


_EXPOSURE_MASK, _STRUCTURE_NOTIFY_MASK = 1 << 15, 1 << 17  # X.h event masks
_EXPOSE, _DESTROY_NOTIFY, _MAP_NOTIFY = 12, 17, 19  # X.h event types


def _quiet_x11() -> None:
    """Panda3D's X11 messages off (fatal ones kept): once the window is destroyed from
    outside, its last frame and its clean-up still talk to it, and each answer was printed as
    ``:display:x11display(error): BadWindow`` on the way out."""
    from panda3d.core import Notify, NS_fatal

    Notify.ptr().get_category(":display:x11display").set_severity(NS_fatal)


class _XWatch:
    """Whether the window still exists on the X server: ``xdotool windowclose`` (or any
    client) can destroy it with no window manager to ask first, and Panda3D then draws into
    a window that is gone (``BadDrawable`` on every frame, forever). Asked a few times a
    second over a connection of its own (libX11 through ctypes), with an error handler set
    only for the one request (Panda3D's own handler is put back at once)."""

    def __init__(self, handle: int | None) -> None:
        self._lib: Any = None
        self._dpy: Any = None
        self.handle = handle
        if not handle or not os.environ.get("DISPLAY"):
            return
        try:
            import ctypes
            import ctypes.util

            name = ctypes.util.find_library("X11") or "libX11.so.6"
            lib = ctypes.CDLL(name)
            lib.XOpenDisplay.restype = ctypes.c_void_p
            lib.XOpenDisplay.argtypes = [ctypes.c_char_p]
            lib.XSetErrorHandler.restype = ctypes.c_void_p
            lib.XSetErrorHandler.argtypes = [ctypes.c_void_p]
            lib.XGetWindowAttributes.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_void_p]
            lib.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
            lib.XCloseDisplay.argtypes = [ctypes.c_void_p]
            lib.XSelectInput.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_long]
            lib.XPending.argtypes = [ctypes.c_void_p]
            lib.XNextEvent.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
            dpy = lib.XOpenDisplay(None)
        except (OSError, AttributeError):
            return
        if not dpy:
            return
        self._ct = ctypes
        self._lib, self._dpy = lib, dpy
        self._errors: list[int] = []
        kind = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
        self._handler = kind(self._on_error)
        self._attrs = ctypes.create_string_buffer(512)  # XWindowAttributes (< 200 bytes)
        self._event = ctypes.create_string_buffer(256)  # an XEvent (a union of 24 longs)
        # the window's Expose and map events come to this connection too (any client may
        # select them): the picture is sent again when the X server lost it
        old = lib.XSetErrorHandler(ctypes.cast(self._handler, ctypes.c_void_p))
        try:
            lib.XSelectInput(dpy, handle, _EXPOSURE_MASK | _STRUCTURE_NOTIFY_MASK)
            lib.XSync(dpy, 0)
        finally:
            lib.XSetErrorHandler(old)
        self.destroyed = False
        """Set once the X server said the window was destroyed (DestroyNotify)."""

    def _on_error(self, display: Any, event: Any) -> int:
        self._errors.append(1)
        return 0

    def gone(self) -> bool:
        """True once the window no longer exists (False when it cannot tell)."""
        lib = self._lib
        if lib is None:
            return False
        if self.destroyed:
            return True
        self._errors.clear()
        old = lib.XSetErrorHandler(self._ct.cast(self._handler, self._ct.c_void_p))
        try:
            ok = lib.XGetWindowAttributes(self._dpy, self.handle, self._attrs)
            lib.XSync(self._dpy, 0)
        finally:
            lib.XSetErrorHandler(old)
        if not ok or self._errors:
            _quiet_x11()
            return True
        return False

    def exposed(self) -> bool:
        """True when the X server said since the last call that the window's picture was lost
        or not yet shown (Expose, MapNotify: a window mapped after its first frame was drawn,
        uncovered, or moved). The idle window sends nothing to the X server
        (:meth:`~tablesim.sim.view.frame_draw.FrameDrawer.idle_frame`), so such a picture is
        drawn again whole. Reads only events already received (no round trip)."""
        lib = self._lib
        if lib is None:
            return False
        seen = False
        while lib.XPending(self._dpy):
            lib.XNextEvent(self._dpy, self._event)
            kind = int.from_bytes(self._event.raw[:4], sys.byteorder)
            seen = seen or kind in (_EXPOSE, _MAP_NOTIFY)
            if kind == _DESTROY_NOTIFY:
                self.destroyed = True
                _quiet_x11()
        return seen

    def close(self) -> None:
        if self._lib is not None and self._dpy:
            self._lib.XCloseDisplay(self._dpy)
        self._lib = self._dpy = None


def _window_handle(win: Any) -> int | None:
    """The X window id of a Panda3D window (None when it has none)."""
    try:
        handle = win.get_window_handle()
        return int(handle.get_int_handle()) if handle is not None else None
    except (AttributeError, TypeError):
        return None


class _Driver:
    """Feeds one window's events to the app and draws it every frame."""

    def __init__(self, app: Any, max_frames: int | None) -> None:
        from panda3d.core import ButtonThrower, MouseAndKeyboard

        self.app = app
        self.base = _showbase()
        self.win = app.renderer.output
        self.max_frames = max_frames
        self.frames = 0
        self.started = time.monotonic()
        self.last_frame = self.started
        self.due = self.started
        """When the next frame may start (the pacing, :data:`FRAME_RATE`)."""
        self.ticked = self.started
        self.worst_gap = 0.0
        """Longest wall time (s) between two frames drawn (the first frame excluded)."""
        self.second_gap = 0.0
        self.stats = stats_on()
        self.stats_at = self.started
        self.refreshed = self.started
        self.cpu_started = self.cpu_at = time.process_time()
        self.cpu_parts = [0.0, 0.0, 0.0]
        """The main thread's CPU (s) this second in the app's tick, in the pointer's move (the
        pick, the ghost snapped and checked) and in drawing (stats)."""
        self.worst_cpu = 0.0
        """The most main-thread CPU (s) one frame took this second (tick to drawn)."""
        self.to_drawn = 0.0
        """The longest wall time (s) this second from reading a moved pointer to the frame
        with its ghost drawn (and shown: the engine flips as it draws)."""
        refresh = os.environ.get("TABLESIM_WINDOW_REFRESH")
        self.refresh = REFRESH_S if refresh is None else float(refresh)
        self.mods: set[str] = set()
        self.held: dict[str, str] = {}
        self.size = tuple(app.size)
        self._mak = self.base.dataRoot.attach_new_node(MouseAndKeyboard(self.win, 0, "tablesim"))
        thrower = ButtonThrower("tablesim-buttons")
        thrower.set_prefix(_PREFIX)  # the per-key events (never listened to) stay out of the way
        thrower.set_button_down_event(_PREFIX + "down")
        thrower.set_button_up_event(_PREFIX + "up")
        thrower.set_keystroke_event(_PREFIX + "keystroke")
        self._thrower = self._mak.attach_new_node(thrower)
        self.base.accept(_PREFIX + "down", self.down)
        self.base.accept(_PREFIX + "up", self.up)
        self.base.accept(_PREFIX + "keystroke", self.keystroke)
        self.base.accept("window-event", self.window_event)
        self.win.set_close_request_event(_PREFIX + "close")
        self.base.accept(_PREFIX + "close", self.stop)
        self.xwatch = _XWatch(_window_handle(self.win))
        self.terminated: int | None = None
        """The signal that ended the loop (SIGTERM), re-raised after it as the CLI's."""

    # ---- events ----------------------------------------------------------------------------
    def pointer(self) -> tuple[float, float] | None:
        ptr = self.win.get_pointer(0)
        return (ptr.get_x(), ptr.get_y()) if ptr.get_in_window() else None

    def down(self, name: str) -> None:
        xy = self.pointer() or self.app._mouse
        if name in _MODIFIERS:
            self.mods.add(_MODIFIERS[name])
            self.app.modifiers(sorted(self.mods))
        elif name in _BUTTONS:
            self.held[name] = _BUTTONS[name]
            self.app.mouse_down(*xy, _BUTTONS[name])
        elif name == "wheel_up":
            self.app.wheel(1)
        elif name == "wheel_down":
            self.app.wheel(-1)
        else:
            self.app.key(f"shift-{name}" if "shift" in self.mods and len(name) == 1 else name)
        self._check_closed()

    def up(self, name: str) -> None:
        if name in _MODIFIERS:
            self.mods.discard(_MODIFIERS[name])
            self.app.modifiers(sorted(self.mods))
        elif name in self.held:
            xy = self.pointer() or self.app._mouse
            self.app.mouse_up(*xy, self.held.pop(name))

    def keystroke(self, char: str) -> None:
        self.app.type_char(char)

    def window_event(self, win: Any) -> None:
        if win != self.win:
            return
        self.app.renderer.invalidate()
        props = win.get_properties()
        if not props.get_open():
            self.stop()
            return
        size = (props.get_x_size(), props.get_y_size())
        if size != self.size and min(size) > 0:
            self.size = size
            self.app.resize(size)

    # ---- the frame --------------------------------------------------------------------------
    def frame(self, task: Any) -> Any:
        if self.app.closed or self.win.is_closed():
            return self.stop()
        start = time.monotonic()
        if start < self.due:  # paced: sleep (never spin) to the frame's due time
            time.sleep(self.due - start)
            start = time.monotonic()
        self.due = max(self.due + 1.0 / FRAME_RATE, start)
        if self.xwatch.exposed():  # the X server lost the picture (or never showed it)
            self.app.renderer.invalidate()
        if self.xwatch.destroyed:  # destroyed without a window manager: end, quietly
            return self.stop("the window was destroyed")
        dt, self.ticked = start - self.ticked, start
        c0 = time.thread_time()
        self.app.tick(min(dt, MAX_DT))
        if self.app.closed:
            return self.stop()
        c1 = time.thread_time()
        now = time.monotonic()
        if now - self.refreshed >= (self.refresh if self.refresh > 0 else REFRESH_S):
            self.refreshed = now
            if self.xwatch.gone():  # destroyed without a window manager: end, quietly
                return self.stop("the window was destroyed")
            if self.refresh > 0:
                self.app.renderer.invalidate()
        # the pointer is read last, right before the frame is drawn: the ghost drawn is where
        # the pointer is now (Panda3D asks the X server: XQueryPointer, not the last event)
        read = time.monotonic()
        xy = self.pointer()
        moved = False
        if xy is not None and xy != self.app._mouse:
            moved = True
            self.app.mouse_move(*xy)
        c2 = time.thread_time()
        self.app.frame()
        self.frames += 1
        done = time.monotonic()
        c3 = time.thread_time()
        self.cpu_parts[0] += c1 - c0
        self.cpu_parts[1] += c2 - c1
        self.cpu_parts[2] += c3 - c2
        self.worst_cpu = max(self.worst_cpu, c3 - c0)
        if moved:
            self.to_drawn = max(self.to_drawn, done - read)
        if self.frames > 1:
            self.worst_gap = max(self.worst_gap, done - self.last_frame)
            self.second_gap = max(self.second_gap, done - self.last_frame)
        self.last_frame = done
        if self.stats and done - self.stats_at >= 1.0:  # once a second: frames so far
            self.stats_at = done
            cpu = time.process_time()
            tick, move, draw = (v * 1e3 for v in self.cpu_parts)
            stats_line(f"frames {self.frames}, worst gap this second "
                       f"{self.second_gap * 1e3:.0f} ms, CPU this second "
                       f"{(cpu - self.cpu_at) * 1e3:.0f} ms; main thread {tick + move + draw:.1f} "
                       f"ms (tick {tick:.1f}, pointer and ghost {move:.1f}, draw {draw:.1f}), "
                       f"worst frame {self.worst_cpu * 1e3:.1f} ms CPU, pointer read to "
                       f"drawn worst {self.to_drawn * 1e3:.1f} ms")  # fmt: skip
            self.second_gap, self.cpu_at = 0.0, cpu
            self.cpu_parts, self.worst_cpu, self.to_drawn = [0.0, 0.0, 0.0], 0.0, 0.0
        if self.max_frames is not None and self.frames >= self.max_frames:
            return self.stop()
        return task.cont

    def stop(self, *why: Any) -> Any:
        from direct.task import Task

        if os.environ.get("TABLESIM_WINDOW_DEBUG"):
            wall = time.monotonic() - self.started
            stats = getattr(self.app.renderer, "stats", {})
            cpu = time.process_time() - self.cpu_started
            print(f"window: stop after {self.frames} frames, {wall:.1f} s, {cpu:.1f} s CPU, "
                  f"{self.frames / max(wall, 1e-9):.1f} fps {why}; drawn whole "
                  f"{stats.get('full')}, as rectangles {stats.get('rect')}, "
                  f"not drawn {stats.get('skipped')}", file=sys.stderr)  # fmt: skip
        if stats_on():
            wall = time.monotonic() - self.started
            stats_line(f"stats: {self.frames} frames in {wall:.1f} s, "
                       f"{self.frames / max(wall, 1e-9):.1f} fps, "
                       f"worst frame gap {self.worst_gap * 1e3:.0f} ms, "
                       f"{time.process_time() - self.cpu_started:.1f} s CPU")  # fmt: skip
        self.base.taskMgr.stop()
        return Task.done

    def _check_closed(self) -> None:
        if self.app.closed:
            self.base.taskMgr.stop()

    def run(self) -> None:
        task = self.base.taskMgr.add(self.frame, "tablesim-frame", sort=60)
        old = None
        if threading.current_thread() is threading.main_thread():
            # Panda3D's loop swallows a KeyboardInterrupt raised in a task (so the CLI's
            # SIGTERM would exit 0): note the signal, end the loop, raise it after
            old = signal.signal(signal.SIGTERM, self._on_term)
        try:
            self.base.taskMgr.run()
        finally:
            if old is not None:
                signal.signal(signal.SIGTERM, old)
            self.xwatch.close()
            self.base.taskMgr.remove(task)
            for ev in ("down", "up", "keystroke", "close"):
                self.base.ignore(_PREFIX + ev)
            self.base.ignore("window-event")
            self._mak.remove_node()
        if self.terminated is not None:
            from tablesim.sim.cli import Terminated

            raise Terminated(self.terminated)

    def _on_term(self, signum: int, frame: Any) -> None:
        self.terminated = signum
        self.base.taskMgr.stop()


def run_window(app: Any, max_frames: int | None = None) -> int:
    """Run ``app``'s window until escape (the app closes), the window is closed, or
    ``max_frames`` frames were drawn. Returns the number of frames drawn. RuntimeError when
    the app's renderer has no window."""
    if not getattr(app.renderer, "window", False):
        raise RuntimeError("run_window needs an app made with window=True")
    driver = _Driver(app, max_frames)
    app.frame()  # the first picture before any event
    driver.run()
    return driver.frames
