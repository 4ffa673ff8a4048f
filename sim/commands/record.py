"""``tablesim record SOURCE -o fall.gif|fall.mp4``: a film, rendered offscreen.

For a scene: the World runs in the verdict profile (what the rules judge; --profile display
for the smoother display settings; on a thin statics tilt margin either runs in its direct
solver, as its verdict does) and every frame shows its poses at that instant; --slow is
the playback speed (0.25: one second of film shows a quarter second of physics). For the log
of a Kozo or Kataboom game played on the physics table: the judged run of move --at (default:
the last move that passed time at the table), replayed through that table. For other logs (or
with --by-move): the game move by move, each state held --per-move seconds. A log is replayed
and checked first, as tablesim replay does: one that does not reproduce is refused (exit 1). MP4 needs the
optional imageio-ffmpeg package; GIF needs nothing more. A .glb output is an animated glTF
of the same run instead of pictures: one node per piece, a keyframe per frame at --fps.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from tablesim.games.core import counted
from tablesim.sim.cli import COMMAND_HELP, UsageError
from tablesim.sim.commands._common import int_in
from tablesim.sim.commands.render import (
    LogDivergedError,
    add_view_arguments,
    check_film_budget,
    check_framebuffer,
    check_output,
    example_layout,
    is_log,
    layout_of_state,
    log_states,
    parse_camera_arg,
    parse_size,
    read_game_log,
    replica_scene,
)

if TYPE_CHECKING:
    import numpy as np

    from tablesim.games.log import LogHeader
    from tablesim.sim.config import Profile
    from tablesim.sim.model import Scene


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``record`` subcommand."""
    p = sub.add_parser(
        "record",
        help=COMMAND_HELP["record"],
        description=__doc__.split("\n\n")[1] if __doc__ else None,
    )
    add_view_arguments(p, "640x360", 1)
    p.add_argument("--fps", type=float, default=30.0, help="frames per second (default 30)")
    p.add_argument(
        "--slow", type=float, default=1.0, help="playback speed: 0.25 = four times slower"
    )
    p.add_argument(
        "--seconds", type=float, default=2.0, help="scenes: seconds of physics to film (default 2)"
    )
    p.add_argument(
        "--per-move", type=float, default=0.6, help="logs: seconds each move is shown (0.6)"
    )
    p.add_argument(
        "--at",
        type=int_in(0),
        default=None,
        help="logs: stop after this many moves; Kozo/Kataboom on the physics table: film move "
        "AT (default: the last move that passed time at the table)",
    )
    p.add_argument(
        "--by-move",
        action="store_true",
        help="logs: show the game move by move, also for Kozo/Kataboom (default there: the "
        "judged run of one move)",
    )
    p.set_defaults(func=run)


def _judged_game(ref: str) -> bool:
    """True for the log of a game whose moves a physics table judged (Kozo, Kataboom)."""
    from tablesim.games.registry import judged_game_names

    header = read_game_log(ref).header
    return header.game in judged_game_names() and header.config.get("table", "physics") == "physics"


def _judged_move_number(log: object, args: argparse.Namespace) -> tuple[int, list[str]]:
    """The move --at names (default: the last move that passed time at the table), checked."""
    texts = [m.move for m in log.moves]  # type: ignore[attr-defined]
    timed = [i for i, t in enumerate(texts, 1) if t.split()[0] not in ("take", "nocube")]
    number = args.at if args.at is not None else (timed[-1] if timed else len(texts))
    if not (1 <= number <= len(texts)):
        raise UsageError(f"--at {number}: the log {args.source} has moves 1..{len(texts)}")
    return number, texts


def judged_frame_bound(header: LogHeader, fps: float, slow: float) -> int:
    """The most frames a film of one judged move of this log's game can have, known before the
    log is replayed: a move's watch runs at most ``max(hold_s, window_s)`` s of table time (Kozo:
    ``hold_s`` after a polycube, ``window_s`` after the turn's end; Kataboom: ``window_s``), and
    the watch's last check is at most one check interval (10 ms) past it
    (:func:`tablesim.sim.referees.persistent_world.watch`). UsageError for a bad header config,
    or a film over :data:`tablesim.sim.view.film.MAX_FRAMES` frames."""
    from tablesim.games.core import ConfigError
    from tablesim.games.registry import get_game
    from tablesim.sim.verdict import ToppleRule
    from tablesim.sim.view.film import film_frame_count

    game = get_game(header.game)
    try:
        config = game.config_from_json(header.config)
    except ConfigError as exc:
        raise UsageError(f"header 'config': {exc}") from None
    seconds = max(float(getattr(config, "hold_s", 0.0)), float(config.window_s))
    try:
        return film_frame_count(seconds + ToppleRule().check_every, fps, slow)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def _judged_film(args: argparse.Namespace, common: dict) -> tuple[Iterator[np.ndarray], str]:
    """Frames of the judged run of one move, and what they show."""
    from tablesim.sim.view.film import judged_move_frames

    log = read_game_log(args.source)
    number, texts = _judged_move_number(log, args)
    check_film_budget(
        judged_frame_bound(log.header, args.fps, args.slow), common["size"], common["supersample"]
    )
    frames = judged_move_frames(log, number, fps=args.fps, slow=args.slow, **common)
    what = (
        f"{log.header.game} move {number} ({texts[number - 1]}) as the physics table judged it "
        f"(verdict profile) at speed {args.slow:g}"
    )
    return frames, what


def _check_timing(args: argparse.Namespace) -> None:
    """--fps, --slow and --seconds within their ranges, or a UsageError naming the option."""
    if not (1 <= args.fps <= 120):
        raise UsageError(f"--fps must be in [1, 120], got {args.fps}")
    if not (0.01 <= args.slow <= 100):
        raise UsageError(f"--slow must be in [0.01, 100], got {args.slow}")
    if not (0 < args.seconds <= 60):
        raise UsageError(f"--seconds must be in (0, 60], got {args.seconds}")


def _guarded(source: str, make: Callable[[], int]) -> int:
    """Run ``make`` (which writes the output and returns 0), mapping failures to exit codes.

    Bad input (a scene, a backend, an option value) -> UsageError (exit 2); a log that does not
    reproduce, or physics that blew up -> a line and exit 1. Nothing is written in either case:
    the writers are atomic.
    """
    from tablesim.games.session import Divergence
    from tablesim.sim.scene import InvalidSceneError
    from tablesim.sim.view.backend import BackendUnavailableError
    from tablesim.sim.world import PhysicsBlowUpError

    try:
        return make()
    except (InvalidSceneError, BackendUnavailableError) as exc:
        raise UsageError(str(exc)) from None
    except LogDivergedError as exc:
        print(f"tablesim record: {exc}; nothing written")
    except Divergence as exc:
        print(f"tablesim record: {source} does not reproduce: {exc}; nothing written")
    except PhysicsBlowUpError as exc:
        print(f"tablesim record: physics blew up (nothing written): {exc}")
    except (RuntimeError, ValueError) as exc:  # RuntimeError: MP4 without imageio-ffmpeg
        raise UsageError(str(exc)) from None
    return 1


def run(args: argparse.Namespace) -> int:
    """Film and print what was written; exit 2 for bad input, 1 for a physics blow-up."""
    if str(args.out).lower().endswith(".glb"):
        return run_glb(args)
    out = check_output(args.out, (".gif", ".mp4", ".glb"), force=args.force)
    size = parse_size(args.size)
    camera = parse_camera_arg(args.camera)
    _check_timing(args)
    if not (0 < args.per_move <= 60):
        raise UsageError(f"--per-move must be in (0, 60], got {args.per_move}")
    check_framebuffer(size, args.supersample)
    return _guarded(args.source, lambda: _film(args, out, size, camera))


def _film(args: argparse.Namespace, out: Path, size: tuple[int, int], camera: object) -> int:
    """Render the film of ``args.source`` to ``out`` and print what was written."""
    from tablesim.sim.scene import resolve_scene
    from tablesim.sim.view.backend import resolve_backend
    from tablesim.sim.view.film import film_frame_count, scene_frames, state_frames, write_film

    t0 = time.perf_counter()
    backend = resolve_backend(args.backend)
    common = dict(size=size, backend=backend, camera=camera, supersample=args.supersample)
    hold = max(1, round(args.per_move * args.fps))
    if args.source.startswith("example:"):
        frames = state_frames([example_layout(args.source)], hold=hold, **common)
        what = args.source
    elif is_log(args.source) and not args.by_move and _judged_game(args.source):
        frames, what = _judged_film(args, common)
    elif is_log(args.source):
        game, states = log_states(args.source, args.at, whole=True)
        check_film_budget(len(states) * hold, size, args.supersample)
        layouts = [layout_of_state(game, s) for s in states]
        frames = state_frames(layouts, hold=hold, **common)
        what = f"{game}, {counted(len(states) - 1, 'move')}, {args.per_move:g} s each"
    else:
        if args.at is not None:
            raise UsageError("--at applies to game logs; for a scene use --seconds")
        written = resolve_scene(args.source)
        scene = replica_scene(written, args.replica, args.seed)
        check_film_budget(
            film_frame_count(args.seconds, args.fps, args.slow), size, args.supersample
        )
        prof, esc = _run_profile(written, args.profile)
        frames = scene_frames(
            scene,
            seconds=args.seconds,
            fps=args.fps,
            slow=args.slow,
            profile=prof,
            **common,
        )
        what = (
            f"{scene.name}, {args.seconds:g} s of physics ({args.profile} profile"
            + (f", replica {args.replica} of seed {args.seed}" if args.replica else "")
            + f"{esc}) at speed {args.slow:g}"
        )
    path, n = write_film(frames, out, args.fps)
    secs = time.perf_counter() - t0
    print(
        f"{path}: {what}; {n} frames, {size[0]}x{size[1]}, {args.fps:g} fps, "
        f"{backend} backend, {secs:.1f} s"
    )
    return 0


def _run_profile(scene: Scene, name: str) -> tuple[Profile, str]:
    """The profile a scene's film runs in (escalated on a thin margin, as its verdict is:
    :func:`tablesim.sim.escalation.escalated_profile`) and a clause saying so ('' when not)."""
    from tablesim.sim.escalation import escalated_profile

    prof, esc = escalated_profile(scene, name)
    if esc is None:
        return prof, ""
    return prof, (
        f"; thin tilt margin {esc.tilt_margin_deg:.2f} deg: run in the direct solver"
        f" of the {prof.name} profile, as its verdict is"
    )


def run_glb(args: argparse.Namespace) -> int:
    """``-o fall.glb``: the scene's run (or a judged Kozo/Kataboom move) as an animated glTF."""
    out = check_output(args.out, (".glb",), force=args.force)
    _check_timing(args)
    if args.source.startswith("example:") or (
        is_log(args.source) and not _judged_game(args.source)
    ):
        raise UsageError(
            f"{args.source}: a .glb film needs physics: a scene, or the log of a Kozo or "
            "Kataboom game played on the physics table (use .gif or .mp4 for the others)"
        )
    return _guarded(args.source, lambda: _glb(args, out))


def _glb(args: argparse.Namespace, out: Path) -> int:
    """Write the animated glTF of ``args.source`` to ``out`` and print what was written."""
    from tablesim.sim.scene import resolve_scene
    from tablesim.sim.view.gltf_anim import judged_move_tracks, scene_tracks, write_glb

    if is_log(args.source):
        log = read_game_log(args.source)
        number, texts = _judged_move_number(log, args)
        scene, track = judged_move_tracks(log, number, fps=args.fps, slow=args.slow)
        what = f"{log.header.game} move {number} ({texts[number - 1]}) as the table judged it"
    else:
        if args.at is not None:
            raise UsageError("--at applies to game logs; for a scene use --seconds")
        written = resolve_scene(args.source)
        scene = replica_scene(written, args.replica, args.seed)
        prof, esc = _run_profile(written, args.profile)
        track = scene_tracks(
            scene, seconds=args.seconds, fps=args.fps, slow=args.slow, profile=prof
        )
        what = f"{scene.name}, {args.seconds:g} s of physics ({args.profile} profile{esc})"
    path, n = write_glb(out, scene, track, name=Path(out).stem)
    print(
        f"{path}: {what} at speed {args.slow:g}; animated glTF, {len(scene.pieces)} nodes, "
        f"{len(track[1])} animated, {n} keyframes at {args.fps:g} fps ({(n - 1) / args.fps:.2f} s)"
    )
    return 0
