"""``tablesim view SCENE``: look at a physics scene in a window (orbit, zoom, pan, run it).

A window opens (gl backend, the display in ``$DISPLAY``): right-drag orbits, middle-drag pans,
the wheel zooms, ``space`` runs the scene, ``r`` shows it as written, ``escape`` quits. Without
a display it exits 2 and says how to get pictures instead (``render``, ``record``).
``--headless`` draws the same view offscreen: ``--run`` simulates first and ``-o`` writes the
picture (with the on-screen text) as a PNG.

This module also holds :func:`play_in_window`, which ``tablesim play`` calls to open a game in
the interactive app (:mod:`tablesim.sim.view.app`).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from tablesim.games.core import counted
from tablesim.sim.cli import COMMAND_HELP, UsageError
from tablesim.sim.commands._common import add_force_argument, float_in, int_in

__all__ = ["display_available", "play_in_window", "register", "run"]


NO_DISPLAY_HINT = (
    "for pictures without a display use `tablesim render SCENE -o picture.png`, "
    "`tablesim record SCENE -o film.gif` (or `tablesim view SCENE --headless -o picture.png`)"
)
"""What to do instead of a window, said whenever a window cannot open."""


def display_available() -> bool:
    """True when an X display is named (``$DISPLAY``): a window can be tried."""
    return bool(os.environ.get("DISPLAY"))


def require_display(what: str) -> None:
    """Raise :class:`UsageError` (exit 2) when no X display is named: ``what`` needs one."""
    if not display_available():
        raise UsageError(
            f"{what} needs a display and there is none ($DISPLAY is not set); " + NO_DISPLAY_HINT
        )


def open_window_app(make: Any, what: str) -> Any:
    """``make()`` an app with a window; a window that cannot open is a :class:`UsageError`
    (exit 2) saying why and what to do instead."""
    from tablesim.sim.view.backend import BackendUnavailableError

    require_display(what)
    try:
        app = make()
        soft = app.renderer.software_gl
        if soft:
            print(
                f"tablesim: OpenGL here is a software rasteriser ({soft}): the window uses the "
                "tiny backend, which is faster there (--backend gl to force OpenGL)",
                file=sys.stderr,
            )
        return app
    except BackendUnavailableError as exc:
        raise UsageError(
            f"{what} could not open on display "
            f"{os.environ.get('DISPLAY')} ({exc}); {NO_DISPLAY_HINT}"
        ) from None


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``view`` subcommand."""
    p = sub.add_parser(
        "view",
        help=COMMAND_HELP["view"],
        description="Open SCENE (a scene file or shipped scene name) in a window when a display "
        "exists; headless, draw it offscreen (-o writes the picture).",
    )
    p.add_argument("scene", help="scene file or shipped scene name, e.g. kozo-tower")
    p.add_argument("--size", default="960x540", help="window size WIDTHxHEIGHT (default 960x540)")
    p.add_argument("--headless", action="store_true", help="no window: draw offscreen")
    p.add_argument(
        "--backend",
        choices=("auto", "gl", "tiny"),
        default="auto",
        help="window renderer: gl (OpenGL), tiny (software) or auto (gl unless its "
        "OpenGL is a software rasteriser such as Mesa llvmpipe; default)",
    )
    p.add_argument(
        "--replicas",
        type=int_in(1),
        default=8,
        help="runs of the verdict when space runs the scene (default 8, as simulate)",
    )
    p.add_argument("--run", action="store_true", help="simulate the scene first (verdict)")
    p.add_argument(
        "--seconds", type=float_in(0, 60, low_open=True), default=None, help="length of a run (s)"
    )
    p.add_argument("-o", "--out", help="headless: write the picture (PNG) here")
    p.add_argument(
        "--sandbox",
        action="store_true",
        help="build freely: take catalogue or table pieces, let them go, undo, save",
    )
    p.add_argument(
        "--save",
        default="sandbox.toml",
        metavar="FILE",
        help="sandbox: where s saves the table as a scene (default sandbox.toml)",
    )
    p.add_argument("--frames", type=int_in(1), default=None, help="window: quit after N frames")
    add_force_argument(p, "the -o picture")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Open the scene; exit 2 for bad input."""
    from tablesim.sim.commands.render import check_output, parse_size
    from tablesim.sim.scene import InvalidSceneError, resolve_scene
    from tablesim.sim.view.scene_app import SceneApp

    size = parse_size(args.size)
    out = check_output(args.out, (".png",), force=args.force) if args.out else None
    if args.seconds is not None and not (0 < args.seconds <= 60):
        raise UsageError(f"--seconds must be in (0, 60], got {args.seconds}")
    try:
        scene = resolve_scene(args.scene)
    except InvalidSceneError as exc:
        raise UsageError(str(exc)) from None
    window = not args.headless
    if window and out is not None:
        raise UsageError("-o writes a headless picture: add --headless")
    kind: Any = SceneApp
    extra: dict[str, Any] = {}
    if args.sandbox:
        from tablesim.sim.view.sandbox import SandboxApp

        if not args.save.endswith(".toml"):
            raise UsageError(f"--save: a scene file ends in .toml, got {args.save!r}")
        kind, extra = SandboxApp, {"save_to": args.save}
    if window:
        app = open_window_app(
            lambda: kind(
                scene,
                size=size,
                backend=args.backend,
                window=True,
                seconds=args.seconds,
                replicas=args.replicas,
                **extra,
            ),
            "the window",
        )
    else:
        app = kind(
            scene, size=size, backend="tiny", seconds=args.seconds, replicas=args.replicas, **extra
        )
    with app:
        if args.run:
            app.run_scene()
            app.finish_run()
        if window:
            app.on_verdict = lambda head, why: print(f"{head}\n{why}" if why else head, flush=True)
            app.run_window(args.frames)
            print("\n".join(app.status_lines()))  # what the window said last, verdict included
            return 0
        from PIL import Image

        img = app.frame()
        if out is not None:
            tmp = out.with_name(out.name + ".part")
            Image.fromarray(img).save(tmp, format="PNG")
            tmp.replace(out)
            print(f"wrote {out}")
        print("\n".join(app.status_lines()))
    return 0


def play_in_window(
    game: str,
    options: dict[str, Any],
    roles: list[str],
    seed: int,
    budget: int | None,
    frames: int | None = None,
    log: str | None = None,
) -> int:
    """Play ``game`` in the interactive app's window (humans with the mouse, bots animated);
    prints the result line when the window closes and writes the JSONL ``log`` of a finished
    game (as ``tablesim play --log``). Exit code 0."""
    from tablesim.sim.cli import version
    from tablesim.sim.commands._common import atomic_write_text
    from tablesim.sim.view.interact.tiles_app import app_for

    app = open_window_app(
        lambda: app_for(
            game,
            options=options,
            players=roles,
            seed=seed,
            backend="auto",
            window=True,
            budget=budget,
        ),
        "the window (--window)",
    )
    with app:
        app.run_window(frames)
        rec = app.record()
        for n, (text, seat) in enumerate(zip(rec.moves, rec.seats, strict=True), start=1):
            who = "" if seat is None else f"P{seat + 1} ({roles[seat]}): "
            print(f"move {n}: {who}{text}")
        print(app.score_text() or f"{game}: stopped after {counted(len(app.moves), 'move')}")
        if log and rec.result is not None:
            atomic_write_text(log, "\n".join(app.session.log_lines(version())) + "\n")
        elif log:
            print(f"the game did not finish: no log written to {log}", file=sys.stderr)
    return 0
