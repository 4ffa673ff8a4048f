"""``tablesim render SOURCE -o out.png``: a picture of a scene, of a game from its log, or of an
example table, rendered offscreen (no display needed).

SOURCE is a scene file or shipped scene name (kozo-tower), a game log written by
tablesim play --log (drawn after --at moves, default all; the moves are replayed and checked
as tablesim replay does, exit 1 when they do not reproduce), or example:GAME for the seeded example tables of the
neutral descriptions (katamino, katoiz, kaito).

The helpers here are shared with ``tablesim record``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from tablesim.games.core import counted
from tablesim.sim.cli import COMMAND_HELP, UsageError
from tablesim.sim.commands._common import MAX_REPLICAS, MAX_SEED, int_in

EXAMPLES = ("katamino", "katoiz", "kaito")


def parse_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` -> (1280, 720); UsageError naming the expected form otherwise."""
    parts = text.lower().split("x")
    try:
        w, h = (int(p) for p in parts)
    except ValueError:
        raise UsageError(f"--size {text!r}: expected WIDTHxHEIGHT, e.g. 1280x720") from None
    if not (1 <= w <= 8192 and 1 <= h <= 8192):
        raise UsageError(f"--size {text!r}: width and height must be 1..8192 pixels")
    return w, h


MAX_FRAMEBUFFER_SIDE = 8192
"""The largest side of the framebuffer drawn, ``--size`` times ``--supersample`` (pixels): a
larger one crashes the renderers (SIGSEGV/SIGABRT) or takes gigabytes."""
MAX_FILM_PIXELS = 2**31
"""A film's frames times width times height at most (about 2 GB of frames held for a GIF)."""
MAX_FILM_DRAWN_PIXELS = 2**34
"""A film's pixels drawn at most: frames times width times height times ``--supersample``
squared (the renderer draws each frame supersampled, then shrinks it): 1.7e10; a 60 s
film at 30 fps of 1280x720 with ``--supersample 3`` (1.5e10, minutes of drawing) fits."""


def check_framebuffer(size: tuple[int, int], supersample: int) -> None:
    """UsageError unless ``--supersample`` is 1..4 and ``--size`` x it fits the framebuffer."""
    if not 1 <= supersample <= 4:
        raise UsageError(f"--supersample must be 1..4, got {supersample}")
    w, h = size
    if max(w, h) * supersample > MAX_FRAMEBUFFER_SIDE:
        raise UsageError(
            f"--size {w}x{h} with --supersample {supersample} draws {w * supersample}x"
            f"{h * supersample} pixels; at most {MAX_FRAMEBUFFER_SIDE} a side (a smaller "
            "--size or --supersample)"
        )


def check_film_budget(frames: int, size: tuple[int, int], supersample: int = 1) -> None:
    """UsageError when ``frames`` frames of ``size`` pass :data:`MAX_FILM_PIXELS`, or drawn at
    ``supersample`` pass :data:`MAX_FILM_DRAWN_PIXELS` (checked before any frame is drawn)."""
    pixels = frames * size[0] * size[1]
    if pixels > MAX_FILM_PIXELS:
        raise UsageError(
            f"a film of {frames} frames at {size[0]}x{size[1]} is {pixels:.3g} pixels; at most "
            f"{MAX_FILM_PIXELS:.3g} (fewer frames, a lower --fps or a smaller --size)"
        )
    drawn = pixels * supersample**2
    if drawn > MAX_FILM_DRAWN_PIXELS:
        raise UsageError(
            f"a film of {frames} frames at {size[0]}x{size[1]} with --supersample {supersample} "
            f"draws {drawn:.3g} pixels; at most {MAX_FILM_DRAWN_PIXELS:.3g} (fewer frames, a "
            "lower --fps, a smaller --size or --supersample)"
        )


def parse_camera_arg(text: str) -> dict[str, Any] | None:
    """``--camera`` as a camera spec (UsageError listing the names otherwise)."""
    from tablesim.sim.view.camera import parse_camera

    try:
        return parse_camera(text)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def is_log(ref: str) -> bool:
    """True when ``ref`` is a file whose first non-empty line is a tablesim log header."""
    path = Path(ref)
    if not path.is_file() or path.suffix.lower() == ".toml":
        return False
    try:
        with path.open("rb") as fh:
            head = fh.read(1 << 20)  # a header line is short: the first MiB decides
        for line in head.decode("utf-8", "ignore").splitlines():
            if line.strip():
                obj = json.loads(line)
                return isinstance(obj, dict) and obj.get("type") == "header"
    except (ValueError, RecursionError):  # not JSON, nested too deeply, 5000-digit integers
        return False
    return False


def read_game_log(ref: str) -> Any:
    """The parsed log file ``ref`` (:class:`tablesim.games.log.GameLog`; LogError names the line)."""
    from tablesim.games.log import read_log_file

    return read_log_file(ref)


class LogDivergedError(Exception):
    """A log whose moves do not reproduce on replay (exit 1: nothing is drawn from it)."""


def log_states(ref: str, at: int | None = None, *, whole: bool = False) -> tuple[str, list[Any]]:
    """(game name, states from the start to move ``at`` (default: every move)) of a log.

    The moves are replayed exactly as ``tablesim replay`` does (:func:`tablesim.games.session.replay_log`:
    a fresh game, moves a physics table measured re-measured, bots choosing again, every
    recorded field checked) up to move ``at``, or through the result line when ``whole``.
    UsageError for ``at`` out of range; LogDivergedError naming the first divergence.
    """
    from tablesim.games.session import replay_log

    log = read_game_log(ref)
    if at is not None and not (0 <= at <= len(log.moves)):
        raise UsageError(f"--at {at}: the log {ref} has moves 0..{len(log.moves)}")
    report = replay_log(log, upto=None if whole else at)
    if not report.ok:
        raise LogDivergedError(f"{ref} does not reproduce: {report.message}")
    assert report.session is not None  # replay_log always returns its session
    played = report.session.played[: len(log.moves) if at is None else at]
    start = played[0].before if played else report.session.state
    return log.header.game, [start, *(p.after for p in played)]


def layout_of_state(game: str, state: Any) -> Any:
    """The table of a game state (UsageError when the game has no drawing yet)."""
    from tablesim.sim.view.drawings import layout_for_state

    try:
        return layout_for_state(game, state)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def example_layout(ref: str) -> Any:
    """The layout of ``example:GAME``."""
    from tablesim.sim.view.drawings import kaito_layout, katamino_layout, katoiz_layout
    from tablesim.sim.view.drawings.examples import example_kaito, example_katamino, example_katoiz

    name = ref.split(":", 1)[1]
    makers = {
        "katamino": lambda: katamino_layout(example_katamino()),
        "katoiz": lambda: katoiz_layout(example_katoiz()),
        "kaito": lambda: kaito_layout(example_kaito()),
    }
    if name not in makers:
        raise UsageError(f"{ref}: no such example (examples: {', '.join(EXAMPLES)})")
    return makers[name]()


def check_output(path: str, suffixes: tuple[str, ...], *, force: bool = False) -> Path:
    """The output path, checked before any work: allowed suffix, then
    :func:`tablesim.games.outputs.check_output` (folder exists and takes a file; existing file only with
    ``force``)."""
    from tablesim.games.outputs import check_output as check_writable

    out = Path(path)
    if out.suffix.lower() not in suffixes:
        raise UsageError(f"-o {path}: the output must end in {' or '.join(suffixes)}")
    return check_writable(out, force=force, option="-o")


def replica_scene(scene: Any, replica: int, seed: int) -> Any:
    """Replica ``replica`` of the verdict ensemble of ``scene`` with ``seed``: exactly the
    scene that run simulated (:func:`tablesim.sim.verdict.perturb_scene`, default perturbation)."""
    from tablesim.sim.verdict import Perturbation, perturb_scene

    if replica < 0:
        raise UsageError(f"--replica must be >= 0, got {replica}")
    return perturb_scene(scene, seed, replica, Perturbation())


def add_view_arguments(p: argparse.ArgumentParser, size: str, supersample: int) -> None:
    """Options common to render and record."""
    from tablesim.sim.view.backend import BACKENDS
    from tablesim.sim.view.camera import CAMERA_NAMES

    p.add_argument("source", metavar="SCENE|LOG", help="scene file/name, game log, example:GAME")
    p.add_argument("-o", "--out", required=True, help="output file")
    p.add_argument("--force", action="store_true", help="replace the output if it exists")
    p.add_argument("--size", default=size, help=f"WIDTHxHEIGHT in pixels (default {size})")
    p.add_argument(
        "--camera",
        default="auto",
        help=f"a named camera ({', '.join(CAMERA_NAMES)}) or a position x,y,z in metres",
    )
    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default="auto",
        help="auto: gl under an X display or Xvfb if there is one, else tiny (software)",
    )
    p.add_argument(
        "--profile",
        choices=("verdict", "display"),
        default="verdict",
        help="physics settings of the run (default verdict: what the rules judge)",
    )
    p.add_argument(
        "--replica",
        type=int_in(0, MAX_REPLICAS),
        default=0,
        help="scenes: replay this replica of the verdict ensemble (0: the scene as written; "
        "k > 0: the seeded perturbation `tablesim simulate --seed` used for run k)",
    )
    p.add_argument(
        "--seed", type=int_in(0, MAX_SEED), default=0, help="seed of the replicas (default 0)"
    )
    p.add_argument(
        "--supersample",
        type=int_in(1, 4),
        default=supersample,
        help=f"render this many times larger and shrink, for smooth edges (default {supersample})",
    )


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``render`` subcommand."""
    p = sub.add_parser(
        "render",
        help=COMMAND_HELP["render"],
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    add_view_arguments(p, "1280x720", 2)
    p.add_argument("--at", type=int_in(0), default=None, help="logs: draw after this many moves")
    p.add_argument(
        "--seconds",
        type=float,
        default=0.0,
        help="scenes: simulate this long first and draw the poses (default 0: as built)",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Render and print what was written; exit 2 for bad input."""
    from tablesim.sim.scene import InvalidSceneError, resolve_scene
    from tablesim.sim.view.backend import BackendUnavailableError
    from tablesim.sim.view.drawings import scene_layout
    from tablesim.sim.view.snapshot import render_layout, simulated_poses

    out = check_output(args.out, (".png",), force=args.force)
    size = parse_size(args.size)
    camera = parse_camera_arg(args.camera)
    check_framebuffer(size, args.supersample)
    if not (0 <= args.seconds <= 60):
        raise UsageError(f"--seconds must be in [0, 60], got {args.seconds}")
    t0 = time.perf_counter()
    what: str
    if args.source.startswith("example:"):
        layout, what = example_layout(args.source), args.source
    elif is_log(args.source):
        try:
            game, states = log_states(args.source, args.at)
        except LogDivergedError as exc:
            print(f"tablesim render: {exc}; nothing written")
            return 1
        layout = layout_of_state(game, states[-1])
        what = f"{game} after {counted(len(states) - 1, 'move')}"
    else:
        if args.at is not None:
            raise UsageError("--at applies to game logs; for a scene use --seconds")
        try:
            scene = resolve_scene(args.source)
        except InvalidSceneError as exc:
            raise UsageError(str(exc)) from None
        from tablesim.sim.escalation import escalated_profile

        prof, esc = escalated_profile(scene, args.profile) if args.seconds > 0 else (None, None)
        scene = replica_scene(scene, args.replica, args.seed)
        poses = simulated_poses(scene, args.seconds, prof) if prof is not None else None
        layout = scene_layout(scene, poses)
        what = f"{scene.name}" + (f" after {args.seconds:g} s ({args.profile})" if poses else "")
        if esc is not None:  # thin margin: the run took the direct solver, as the verdict does
            what += f" in the direct solver ({esc.profile.name} profile: thin tilt margin)"
    try:
        from tablesim.sim.view.backend import resolve_backend

        backend = resolve_backend(args.backend)
        render_layout(
            layout,
            out,
            size=size,
            camera=camera,
            supersample=args.supersample,
            backend=backend,
        )
    except BackendUnavailableError as exc:
        raise UsageError(str(exc)) from None
    ms = 1000 * (time.perf_counter() - t0)
    print(f"{out}: {what}, {size[0]}x{size[1]}, {backend} backend, {ms:.0f} ms")
    return 0
