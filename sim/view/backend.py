"""Rendering backends: which Panda3D display module draws, and the X server it may need.

Two backends (compared in docs/view.md, "Backends"):

``tiny``
    ``p3tinydisplay``, Panda3D's software rasteriser, into an offscreen buffer. Needs no X, EGL
    or GPU, so it works everywhere; no shaders, so shadows are faked (:mod:`tablesim.sim.view.shadows`).
    Its pictures are the same bit for bit in every process on one machine.
``gl``
    ``pandagl`` (OpenGL; Mesa llvmpipe on a machine without a GPU) under an X display, with the
    shader generator on: per-pixel lighting and real shadow maps. It needs an X server: the one
    in ``$DISPLAY`` if set, else a private ``Xvfb`` this module starts on a free display number
    (``Xvfb -displayfd``), which ends when this process disconnects or dies. Headless EGL (``p3headlessgl``) is
    not offered: Panda3D 1.10's shader generator emits Cg, which does not compile there.

``auto`` takes ``gl`` when an X display is reachable (``$DISPLAY``, or ``Xvfb`` on the PATH) and
the pipe opens, else ``tiny``. The choice is made once per process.

Loading the gl backend's libraries (Mesa, LLVM) into a process changes a few pixels of the tiny
pictures drawn later in that process (measured: 3 to 6 of 10,800 pixels, by up to 78 levels);
tiny pictures are bit-identical across processes that never load gl (``backend="tiny"`` does
not; ``auto`` does whenever an X display or Xvfb is available).
"""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
from typing import Any

__all__ = [
    "BACKENDS",
    "BackendUnavailableError",
    "available_backends",
    "make_pipe",
    "resolve_backend",
    "start_xvfb",
    "xvfb_display",
]

BACKENDS: tuple[str, ...] = ("auto", "tiny", "gl")
"""Values of ``backend=`` / ``--backend``."""

_MODULES = {"tiny": "p3tinydisplay", "gl": "pandagl"}
_PIPES: dict[str, Any] = {}
_XVFB: dict[str, Any] = {}
_AUTO: list[str] = []
_INHERITED: list[Any] = []  # a forked child's copies of the parent's pipes: never used, never freed
_XVFB_ATEXIT: list[bool] = []
_NO_DISPLAY = ":65535"
"""The X display named to the tiny pipe: the highest number Xlib accepts, which no Xvfb of
ours takes (``-displayfd`` counts up from 0); the connection fails at once (no TCP: ``:N``
means the local socket only) and tiny falls back to its offscreen pipe."""


class BackendUnavailableError(RuntimeError):
    """A backend cannot run here; the message says why and what to do."""


def _check_name(backend: str) -> str:
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (allowed: {', '.join(BACKENDS)})")
    return backend


def _die_with_parent() -> None:  # pragma: no cover - runs in the child before exec
    """Linux: have the kernel send SIGTERM to this child when the thread that started it ends
    (``PR_SET_PDEATHSIG`` watches the parent *thread*, not the process: only ever set from the
    main thread, whose end is the process's)."""
    import contextlib
    import ctypes
    import signal

    with contextlib.suppress(OSError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def start_xvfb(
    screen: str = "1280x800x24",
    *,
    exe: str = "Xvfb",
    terminate: bool = False,
    die_with_parent: bool = False,
) -> tuple[subprocess.Popen[bytes], str] | None:
    """Start a private Xvfb on a display number it picks itself (``-displayfd``, so parallel
    runs never collide): (the process, ``":N"``), or None when it did not start (then it is
    killed and reaped). ``screen`` is Xvfb's ``WxHxDEPTH``; ``terminate`` adds ``-terminate``
    (the server ends when its last client disconnects); ``die_with_parent`` has the kernel
    stop it when the calling thread ends (only from the main thread: :func:`_die_with_parent`).
    The caller owns the process (the real-window tests and benches stop it themselves)."""
    args = [exe, "-displayfd", "", "-screen", "0", screen, "-nolisten", "tcp"]
    if terminate:
        args.append("-terminate")
    read_fd, write_fd = os.pipe()
    args[2] = str(write_fd)
    try:
        proc = subprocess.Popen(
            args,
            pass_fds=(write_fd,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent if die_with_parent else None,
        )
    finally:
        os.close(write_fd)
    with os.fdopen(read_fd) as fh:
        number = fh.readline().strip()
    if not number.isdigit():
        proc.kill()
        proc.wait()
        return None
    return proc, f":{number}"


def xvfb_display() -> str | None:
    """The X display for the ``gl`` backend: ``$DISPLAY`` if set, else a private Xvfb started
    now (once per process, again if it has ended); None when neither exists.

    The Xvfb must outlive every X connection of this process: Panda3D closes its display only
    when the interpreter tears the pipe down, after ``atexit`` handlers, and an X server gone
    before that makes Xlib abort the process with exit code 1. So it is never stopped from
    here: it is started with ``-terminate`` and ends when its last client (this process)
    disconnects, which the kernel also does when this process is killed. Started from the main
    thread it also gets a parent-death signal (for a kill before the first connection); not
    from another thread: that signal fires when the *starting thread* ends, which took the
    server away under a live gl pipe (a green test run exited 1 at teardown).
    """
    import threading

    if os.environ.get("DISPLAY"):
        return os.environ["DISPLAY"]
    proc = _XVFB.get("proc")
    if proc is not None and proc.poll() is None:
        return _XVFB["display"]
    _XVFB.clear()
    exe = shutil.which("Xvfb")
    if exe is None:
        return None
    main = threading.current_thread() is threading.main_thread()
    started = start_xvfb("1920x1080x24", exe=exe, terminate=True, die_with_parent=main)
    if started is None:
        return None
    _XVFB["proc"], _XVFB["display"] = started
    if not _XVFB_ATEXIT:
        _XVFB_ATEXIT.append(True)
        atexit.register(_release_gl_pipe)
    return _XVFB["display"]


def _forget_in_child() -> None:  # pragma: no cover - runs in forked children
    """A forked child shares the parent's X connections (the same sockets): it must never use
    nor close them (either would corrupt the parent's connection). Keep the parent's pipes
    referenced for good and let the child open its own if it draws."""
    _INHERITED.extend(_PIPES.values())
    _PIPES.clear()
    _AUTO.clear()
    _XVFB.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)


def _release_gl_pipe() -> None:
    """At exit, drop the cached gl pipe while the interpreter still runs, so Panda3D closes
    its X connection to the private Xvfb in order (which then ends by itself, -terminate)."""
    import gc

    _PIPES.pop("gl", None)
    _AUTO.clear()
    gc.collect()


def _stop_unused_xvfb() -> None:
    """Stop a private Xvfb no pipe connected to (with no client, -terminate never fires)."""
    proc = _XVFB.pop("proc", None)
    _XVFB.pop("display", None)
    if proc is not None and proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()


def _open(backend: str) -> Any:
    """Load the display module of ``backend`` and make its pipe (cached), or raise
    :class:`BackendUnavailableError`."""
    if backend in _PIPES:
        return _PIPES[backend]
    from panda3d.core import ConfigVariableString, GraphicsPipeSelection, Notify, NS_fatal

    display = None
    if backend == "gl":
        display = xvfb_display()
        if display is None:
            raise BackendUnavailableError(
                "the gl backend needs an X display: set DISPLAY, or install Xvfb "
                "(apt-get install xvfb); the tiny backend needs neither"
            )
    # Panda3D's x11 pipes never see a $DISPLAY set at run time: they read the prc variable
    # ``display``, else the environment as it was when the process started (read once from
    # /proc/self/environ), else ":0.0". Without the variable a process whose own Xvfb got :1
    # connected to whatever server held :0 (another process's private Xvfb) and was aborted
    # ("X fatal error", then a mutex assertion, signal 6) when that process ended and took its
    # server along: two gl renders started together aborted 4 times in 6. So the display is
    # always named: this process's own for gl; for tiny, which tries X first (its on-screen
    # window needs that) and falls back to offscreen, $DISPLAY now, else a display nobody
    # serves, so that it never holds a connection to another process's server.
    # $DISPLAY is also set for that moment (Mesa and Xlib read it); "could not open display"
    # of tiny's attempt is muted.
    old_env = os.environ.get("DISPLAY")
    display_var = ConfigVariableString("display", "")
    old_display_var = display_var.get_value()
    cats = [Notify.ptr().get_category(c) for c in (":display:x11display", ":display")]
    old = [c.get_severity() for c in cats]
    saved_err = os.dup(2)
    try:
        display_var.set_value(display or os.environ.get("DISPLAY") or _NO_DISPLAY)
        if display is not None:
            os.environ["DISPLAY"] = display
        for c in cats:
            c.set_severity(NS_fatal)
        # Xlib prints 'extension "XFree86-DGA" missing' straight to fd 2 when pandagl opens an
        # Xvfb display: harmless, so fd 2 goes to /dev/null for that moment
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            pipe = GraphicsPipeSelection.get_global_ptr().make_module_pipe(_MODULES[backend])
    finally:
        os.dup2(saved_err, 2)
        os.close(saved_err)
        for c, s in zip(cats, old, strict=True):
            c.set_severity(s)
        display_var.set_value(old_display_var)
        if old_env is None:
            os.environ.pop("DISPLAY", None)
        else:
            os.environ["DISPLAY"] = old_env
    if pipe is None or (backend == "gl" and not pipe.is_valid()):
        if backend == "gl":
            _stop_unused_xvfb()
        raise BackendUnavailableError(
            f"Panda3D could not open the {_MODULES[backend]} pipe for the {backend} backend"
        )
    _PIPES[backend] = pipe
    return pipe


def resolve_backend(backend: str = "auto") -> str:
    """``tiny`` or ``gl``: the backend ``backend`` stands for here (``auto``: gl if it opens)."""
    _check_name(backend)
    if backend != "auto":
        return backend
    if not _AUTO:
        try:
            _open("gl")
            _AUTO.append("gl")
        except BackendUnavailableError:
            _AUTO.append("tiny")
    return _AUTO[0]


def make_pipe(backend: str) -> tuple[str, Any]:
    """(resolved backend name, its ``GraphicsPipe``) for ``backend`` (auto, tiny or gl).

    Raises :class:`BackendUnavailableError` when a forced backend cannot run here and ValueError
    for an unknown name.
    """
    name = resolve_backend(backend)
    return name, _open(name)


def available_backends() -> list[str]:
    """The concrete backends that open here, ``tiny`` first."""
    out = []
    for name in ("tiny", "gl"):
        try:
            _open(name)
            out.append(name)
        except BackendUnavailableError:
            pass
    return out
