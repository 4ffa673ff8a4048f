"""Still pictures: a scene or any table layout rendered offscreen to a PNG (no display needed).

:func:`render_scene` draws a :class:`tablesim.sim.model.Scene` on a wooden table and writes a PNG::

    from tablesim.sim.scene import load_scene, shipped_scene_path
    from tablesim.sim.view.snapshot import render_scene, simulated_poses

    scene = load_scene(shipped_scene_path("kozo-overhang"))
    render_scene(scene, "overhang.png", poses=simulated_poses(scene, 1.0))

or from the shell: ``python -m tablesim.sim.view.snapshot kozo-overhang overhang.png --seconds 1`` (the
full command is ``tablesim render``). The work is done by :class:`tablesim.sim.view.renderer.Renderer`
on a layout from :mod:`tablesim.sim.view.drawings`; this module keeps the picture-file functions.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from tablesim.sim.model import Scene
from tablesim.sim.view.camera import CameraView, camera_for_scene, frame_points
from tablesim.sim.view.layout import Pose, TableLayout
from tablesim.sim.view.renderer import SKY_BOTTOM, SKY_TOP, TABLE_COLOR

if TYPE_CHECKING:
    from tablesim.sim.config import Profile

__all__ = [
    "SKY_BOTTOM",
    "SKY_TOP",
    "TABLE_COLOR",
    "CameraView",
    "camera_for_scene",
    "frame_points",
    "render_layout",
    "render_pixels",
    "render_scene",
    "save_png",
    "scene_points",
    "simulated_poses",
]


def render_pixels(
    layout: TableLayout,
    *,
    size: Sequence[int] = (1280, 720),
    camera: Mapping[str, Any] | None = None,
    supersample: int = 2,
    backend: str = "tiny",
) -> np.ndarray:
    """One frame of ``layout``: (H, W, 3) uint8, row 0 at the top (see
    :class:`tablesim.sim.view.renderer.Renderer` for the arguments)."""
    from tablesim.sim.view.renderer import Renderer

    with Renderer(size, backend=backend, supersample=supersample) as r:
        r.show(layout, camera)
        return r.render()  # type: ignore[return-value]


def save_png(pixels: np.ndarray, out_png: str | Path) -> Path:
    """Write an (H, W, 3) uint8 array as a PNG through a temporary file (nothing half written);
    parent directories are created."""
    from PIL import Image

    from tablesim.games.outputs import atomic_write

    out = Path(out_png)
    out.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(out, lambda tmp: Image.fromarray(pixels, "RGB").save(tmp, format="PNG"),
                 suffix=".png")  # fmt: skip
    return out


def render_layout(layout: TableLayout, out_png: str | Path, **kwargs: Any) -> Path:
    """Render ``layout`` to the PNG ``out_png`` (arguments of :func:`render_pixels`)."""
    return save_png(render_pixels(layout, **kwargs), out_png)


def render_scene(
    scene: Scene,
    out_png: str | Path,
    *,
    size: tuple[int, int] = (1280, 720),
    poses: Mapping[str, Pose] | None = None,
    camera: Mapping[str, Any] | None = None,
    supersample: int = 2,
    backend: str = "tiny",
) -> Path:
    """Render ``scene`` on a wooden table to the PNG ``out_png`` (offscreen, no display needed).

    Parameters
    ----------
    scene:
        The pieces to draw (static ones too), with their colours.
    out_png:
        Output path; parent directories are created.
    size:
        (width, height) of the picture in pixels.
    poses:
        Piece id -> (position (m), quaternion (x, y, z, w)) of the piece frame, overriding the
        scene's poses (e.g. :func:`simulated_poses` or ``World.poses()`` after a simulation).
    camera:
        A camera spec (see :func:`camera_for_scene`) replacing ``scene.camera``; without either,
        the camera frames all pieces in a 3/4 view from above.
    supersample:
        Render at this many times the size and downscale (1 = off).
    backend:
        ``tiny`` (default: the same picture on every machine), ``gl`` or ``auto``.

    Returns ``out_png``. Raises KeyError when ``poses`` names a piece the scene does not have,
    ValueError for a bad size, :class:`tablesim.sim.view.backend.BackendUnavailableError` when the
    backend cannot run here.
    """
    from tablesim.sim.view.drawings.scene import scene_layout

    layout = scene_layout(scene, poses)
    return render_layout(
        layout, out_png, size=size, camera=camera, supersample=supersample, backend=backend
    )


def scene_points(scene: Scene, poses: Mapping[str, Any] | None = None) -> np.ndarray:
    """All mesh vertices of the scene's pieces posed in the world, (N, 3) m."""
    from tablesim.sim.view.drawings.scene import scene_layout

    return scene_layout(scene, poses).points()


def simulated_poses(
    scene: Scene, seconds: float, profile: str | Profile = "display"
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Poses of the dynamic pieces after simulating ``scene`` for ``seconds`` (PyBullet) in
    ``profile`` (a name or a :class:`tablesim.sim.config.Profile`)."""
    from tablesim.sim.world import World

    with World(scene, profile) as world:
        world.run(seconds)
        return world.poses()


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m tablesim.sim.view.snapshot SCENE OUT.png [--seconds S] [--size WxH]``."""
    from tablesim.sim.scene import resolve_scene

    ap = argparse.ArgumentParser(
        prog="python -m tablesim.sim.view.snapshot", description=__doc__.split("\n")[0]
    )
    ap.add_argument("scene", help="a .toml file or a shipped scene name")
    ap.add_argument("out", help="output PNG")
    ap.add_argument("--seconds", type=float, default=0.0, help="simulate first (display profile)")
    ap.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT (default 1280x720)")
    ap.add_argument("--supersample", type=int, default=2)
    args = ap.parse_args(argv)
    scene = resolve_scene(args.scene)
    w, h = (int(v) for v in args.size.lower().split("x"))
    poses = simulated_poses(scene, args.seconds) if args.seconds > 0 else None
    t0 = time.perf_counter()
    out = render_scene(scene, args.out, size=(w, h), poses=poses, supersample=args.supersample)
    print(f"{out}: {w}x{h}, {1000 * (time.perf_counter() - t0):.0f} ms")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
