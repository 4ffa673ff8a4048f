"""Films: frames of a physics run or of a game played move by move, written as GIF or MP4.

What a user sees falling is what the World computed: :func:`scene_frames` builds one
:class:`tablesim.sim.world.World` of the scene (``profile="verdict"`` by default, the settings every
rule decision uses; replica 0 of a verdict is exactly this unperturbed run), steps it at its
fixed step and draws the poses at each frame's instant. ``slow`` is the playback speed: at
0.25 one second of film shows a quarter of a second of physics.

GIF goes through Pillow (frames quantised to 256 colours one by one, so a long film stays
small in memory); MP4 (H.264) through the ffmpeg binary of the optional ``imageio-ffmpeg``
package. Files are written to a temporary name and renamed, so nothing is half written.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from tablesim.sim.config import Profile

__all__ = [
    "FORMATS",
    "MAX_FRAMES",
    "film_frame_count",
    "scene_frames",
    "state_frames",
    "write_film",
]

FORMATS: tuple[str, ...] = (".gif", ".mp4")
"""File types :func:`write_film` writes, chosen by the suffix."""
MAX_FRAMES = 3000
"""Most frames a film may have (100 s at 30 fps)."""


def _offscreen_frame(r: Any) -> np.ndarray:
    """The frame an offscreen :class:`tablesim.sim.view.renderer.Renderer` drew (only a window draws
    none)."""
    frame = r.render()
    if frame is None:
        raise RuntimeError("the offscreen renderer returned no frame")
    return frame


def film_frame_count(seconds: float, fps: float, slow: float) -> int:
    """Frames of a film showing ``seconds`` of physics at ``fps`` played at speed ``slow``:
    one at t = 0 and one per ``1 / fps`` of film after it. ValueError for bad numbers or a film
    longer than :data:`MAX_FRAMES`."""
    for name, v in (("seconds", seconds), ("fps", fps), ("slow", slow)):
        if not (isinstance(v, (int, float)) and v > 0 and np.isfinite(v)):
            raise ValueError(f"{name} must be a positive number, got {v!r}")
    n = int(round(seconds / slow * fps)) + 1
    if n > MAX_FRAMES:
        raise ValueError(
            f"{seconds:g} s of physics at speed {slow:g} and {fps:g} fps is {n} frames; "
            f"at most {MAX_FRAMES} are allowed (fewer seconds, a higher --slow or a lower --fps)"
        )
    return n


def scene_frames(
    scene: Any,
    *,
    seconds: float,
    fps: float = 30.0,
    slow: float = 1.0,
    profile: str | Profile = "verdict",
    size: Sequence[int] = (640, 360),
    backend: str = "auto",
    camera: Mapping[str, Any] | None = None,
    supersample: int = 1,
    renderer: Any = None,
) -> Iterator[np.ndarray]:
    """Frames (H, W, 3) uint8 of ``scene`` simulated for ``seconds`` in ``profile`` (a name or a
    :class:`tablesim.sim.config.Profile`; ``tablesim record`` passes the one
    :func:`tablesim.sim.escalation.escalated_profile` chooses).

    Frame k shows the World at the whole step nearest to ``k * slow / fps`` seconds. The camera
    stays where it frames the scene as built. ``renderer`` reuses an open
    :class:`~sim.view.renderer.Renderer` (its size and backend win).
    """
    from tablesim.sim.view.drawings.scene import scene_layout
    from tablesim.sim.view.renderer import Renderer
    from tablesim.sim.world import World

    n = film_frame_count(seconds, fps, slow)
    own = renderer is None
    r = Renderer(size, backend=backend, supersample=supersample) if own else renderer
    try:
        with World(scene, profile) as world:
            r.show(scene_layout(scene), camera)
            for k in range(n):
                target = int(round(k * slow / fps / world.time_step))
                if target > world.steps:
                    world.step(target - world.steps)
                r.set_poses(world.poses())
                yield _offscreen_frame(r)
    finally:
        if own:
            r.close()


def state_frames(
    layouts: Iterable[Any],
    *,
    hold: int,
    size: Sequence[int] = (640, 360),
    backend: str = "auto",
    camera: Mapping[str, Any] | None = None,
    supersample: int = 1,
) -> Iterator[np.ndarray]:
    """A game move by move: each :class:`~sim.view.layout.TableLayout` shown for ``hold``
    frames (the picture is rendered once and repeated)."""
    from tablesim.sim.view.renderer import Renderer

    if hold < 1:
        raise ValueError(f"hold must be >= 1 frame, got {hold}")
    with Renderer(size, backend=backend, supersample=supersample) as r:
        for layout in layouts:
            r.show(layout, camera)
            frame = _offscreen_frame(r)
            for _ in range(hold):
                yield frame


def _even(frame: np.ndarray) -> np.ndarray:
    """Crop to even width and height (H.264 in yuv420p needs them)."""
    h, w = frame.shape[:2]
    return np.ascontiguousarray(frame[: h - h % 2, : w - w % 2])


def write_film(frames: Iterable[np.ndarray], path: str | Path, fps: float) -> tuple[Path, int]:
    """Write ``frames`` to ``path`` (.gif or .mp4, by suffix) at ``fps``; returns (path, number
    of frames). ValueError for another suffix or no frames; RuntimeError when MP4 is asked for
    without ``imageio-ffmpeg`` installed. The file appears only when complete."""
    from PIL import Image

    from tablesim.games.outputs import atomic_write

    out = Path(path)
    suffix = out.suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(f"{out}: a film is written as {' or '.join(FORMATS)}, not {suffix!r}")
    if suffix == ".mp4":
        try:
            import imageio_ffmpeg
        except ImportError:
            from tablesim.games.extras import install_hint

            raise RuntimeError(
                f"MP4 needs the imageio-ffmpeg package; {install_hint('video')}; "
                "GIF works without it"
            ) from None
    count = 0

    def write(tmp: str) -> None:
        nonlocal count
        if suffix == ".gif":
            images = []
            for f in frames:
                img = Image.fromarray(f, "RGB")
                images.append(
                    img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
                )
            count = len(images)
            if not count:
                raise ValueError("no frames to write")
            images[0].save(
                tmp,
                format="GIF",
                save_all=True,
                append_images=images[1:],
                duration=max(20, int(round(1000 / fps))),
                loop=0,
            )
        else:
            writer = None
            for f in frames:
                f = _even(f)
                if writer is None:
                    writer = imageio_ffmpeg.write_frames(
                        tmp,
                        (f.shape[1], f.shape[0]),
                        fps=fps,
                        codec="libx264",
                        macro_block_size=2,
                        output_params=["-movflags", "+faststart"],
                    )
                    writer.send(None)
                writer.send(f)
                count += 1
            if writer is None:
                raise ValueError("no frames to write")
            writer.close()

    atomic_write(out, write, suffix=suffix)
    return out, count


def judged_move_run(log: Any, number: int) -> tuple[Any, list[tuple[float, dict[str, Any]]]]:
    """The judged run of move ``number`` (1-based) of a Kozo or Kataboom game (``log``: a
    :class:`tablesim.games.log.GameLog`) on the physics table.

    The whole log is replayed in a :class:`tablesim.games.session.Session` whose referee is the game's
    physics table (its spec's referee, :func:`tablesim.games.registry.judged_game_names`), the
    referee that measured it (same seed, same moves,
    so the same verdict-profile world bit for bit), every recorded field checked as
    ``tablesim replay`` does; the World's poses are sampled at every check instant of move
    ``number``'s watch (every 10 ms of simulated time) through the table's read-only observer
    hook. Returns (the state after the move, [(seconds since the move started, piece id ->
    pose)]). :class:`tablesim.games.session.Divergence` when the log does not reproduce; ValueError when
    the move passes no table time (``take``) or ``number`` is out of range.
    """

    from tablesim.games.core import PhysicsTable
    from tablesim.games.registry import judged_game_names
    from tablesim.games.session import Session

    game_name = log.header.game
    judged = judged_game_names()
    if game_name not in judged:
        raise ValueError(f"{game_name}: no physics table (judged games: {', '.join(judged)})")
    if not (1 <= number <= len(log.moves)):
        raise ValueError(f"move {number}: the log has moves 1..{len(log.moves)}")
    samples: list[tuple[float, dict[str, Any]]] = []
    watching: dict[str, int | None] = {"index": None}

    def observe(world: Any, index: int, t: float) -> None:  # read-only: poses of the world
        if index == watching["index"]:
            samples.append((float(t), world.poses()))

    state = None
    with Session.from_header(log.header, source=log.source) as session:
        if not isinstance(session.referee, PhysicsTable):
            raise ValueError(
                f"{log.source}: this {game_name} game was not played on the physics table"
            )
        session.referee.knock = observe
        for entry in log.moves:
            watching["index"] = len(session.state.history) if entry.n == number else None
            played = session.follow(entry)
            if entry.n == number:
                state = played.after
        session.check_result(log.result)
    if not samples:
        text = log.moves[number - 1].move
        raise ValueError(
            f"move {number} ({text!r}) passes no time at the table: film a place or cube move"
        )
    return state, samples


def judged_move_frames(
    log: Any,
    number: int,
    *,
    fps: float = 30.0,
    slow: float = 1.0,
    size: Sequence[int] = (640, 360),
    backend: str = "auto",
    camera: Mapping[str, Any] | None = None,
    supersample: int = 1,
) -> Iterator[np.ndarray]:
    """Frames of :func:`judged_move_run`: the tower as the move was judged, each frame the
    sampled instant nearest to its time (``slow`` as in :func:`scene_frames`)."""
    from tablesim.sim.view.drawings import layout_for_state
    from tablesim.sim.view.renderer import Renderer

    state, samples = judged_move_run(log, number)
    layout = layout_for_state(log.header.game, state)
    ids = set(layout.ids)
    times = np.array([t for t, _ in samples])
    n = film_frame_count(float(times[-1]), fps, slow)
    if camera is None or "pos" not in camera:
        # frame the move from where the piece was let go to where everything settled
        from tablesim.sim.view.camera import camera_for_scene

        first = layout.with_poses({k: v for k, v in samples[0][1].items() if k in ids})
        pts = np.concatenate([first.points(), layout.points()])
        view = camera_for_scene(camera or layout.camera, pts, size[0] / size[1])
        camera = {"pos": list(view.pos), "look_at": list(view.look_at), "fov": view.fov}
    with Renderer(size, backend=backend, supersample=supersample) as r:
        r.show(layout, camera)
        for k in range(n):
            i = int(np.argmin(np.abs(times - k * slow / fps)))
            r.set_poses({pid: pose for pid, pose in samples[i][1].items() if pid in ids})
            yield _offscreen_frame(r)
