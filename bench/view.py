"""View benchmark: frames per second of the full Kozo tower at 1280x720 on each available
backend, and the cost of recording a GIF of a fall.

Run ``python bench/view.py`` (``--json`` adds one JSON object on the last line). Figures, not
pass/fail. The machine is shared: wall-clock rates are printed next to CPU-time rates
(``time.process_time``, which counts llvmpipe's threads too) and the 1-minute load average.

Figures, per backend (``tiny``: p3tinydisplay; ``gl``: pandagl under ``$DISPLAY`` or a private
Xvfb, with the shader generator and a 2048^2 shadow map):

- ``still``: the shipped ``kozo-tower`` scene, 1280x720, supersample 1, the same frame again and
  again: ``render()`` = draw + read back to an (H, W, 3) array (the honest frames-to-RAM rate;
  with GL a bare ``renderFrame`` returns before llvmpipe has finished);
- ``still_ss2``: the same at supersample 2 (rendered at 2560x1440 and shrunk), the look of
  ``tablesim render``;
- ``moving``: ``kozo-overhang`` falling: every frame sets the World's poses first, so the tiny
  backend also re-projects its faked shadows (physics time excluded: poses are precomputed);
- ``moving_tower``: the same with the 24-piece ``kozo-tower`` (its verdict run's poses), drawn
  as the interactive app draws motion (coarse faked shadows while poses change);
- ``live_tower``: ``tablesim view kozo-tower`` after ``space``: each frame steps the display
  world by 1/60 s (:mod:`tablesim.sim.view.live`) and draws it (physics CPU per frame printed too);
- ``empty``: the baseline measured in the same process: an empty table, 1280x720, render +
  readback; every rate is also printed as frames per empty-table frame (CPU), the figure that
  says most on a loaded machine;
- ``show``: building the graph of the tower (meshes, textures, lights), once;
- ``gif``: ``tablesim record``'s path for 2 s of the overhang's verdict run at 480x270, 20 fps
  (41 frames): physics + rendering + GIF encoding, total and per frame.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _clock() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def _rates(frames: int, t0: tuple[float, float]) -> dict[str, float | None]:
    wall = time.perf_counter() - t0[0]
    cpu = time.process_time() - t0[1]
    return {
        "frames": frames,
        "wall_s": round(wall, 4),
        "cpu_s": round(cpu, 4),
        "fps_wall": round(frames / wall, 2),
        "fps_cpu": round(frames / cpu, 2) if cpu > 0 else None,
    }


def _fall_poses(frames: int, fps: float, name: str = "kozo-overhang") -> list[dict[str, Any]]:
    from tablesim.sim.scene import load_scene, shipped_scene_path
    from tablesim.sim.world import World

    scene = load_scene(shipped_scene_path(name))
    out = []
    with World(scene, "verdict") as world:
        for k in range(frames):
            target = int(round(k / fps / world.time_step))
            if target > world.steps:
                world.step(target - world.steps)
            out.append(world.poses())
    return out


def bench_backend(backend: str, frames: int) -> dict[str, Any]:
    """Every figure of one backend."""
    from tablesim.sim.scene import load_scene, shipped_scene_path
    from tablesim.sim.view.drawings import scene_layout
    from tablesim.sim.view.layout import TableLayout
    from tablesim.sim.view.renderer import Renderer

    tower = scene_layout(load_scene(shipped_scene_path("kozo-tower")))
    res: dict[str, Any] = {"backend": backend, "load_before": round(os.getloadavg()[0], 2)}
    with Renderer((1280, 720), backend=backend) as r:
        r.show(TableLayout("empty", ()))
        r.render()
        t0 = _clock()
        for _ in range(frames):
            r.render()
        res["empty"] = _rates(frames, t0)
    for name, ss in (("still", 1), ("still_ss2", 2)):
        with Renderer((1280, 720), backend=backend, supersample=ss) as r:
            t0 = _clock()
            r.show(tower)
            if name == "still":
                res["show"] = {"wall_s": round(time.perf_counter() - t0[0], 4)}
            r.render()  # warm-up: first-frame costs (shader compilation on gl)
            n = frames if ss == 1 else max(5, frames // 4)
            t0 = _clock()
            for _ in range(n):
                r.render()
            res[name] = _rates(n, t0)
    overhang = scene_layout(load_scene(shipped_scene_path("kozo-overhang")))
    poses = _fall_poses(frames, 30.0)
    with Renderer((1280, 720), backend=backend) as r:
        r.show(overhang)
        r.render()
        t0 = _clock()
        for p in poses:
            r.set_poses(p)
            r.render()
        res["moving"] = _rates(len(poses), t0)
    tower_poses = _fall_poses(frames, 30.0, "kozo-tower")
    with Renderer((1280, 720), backend=backend) as r:
        r.coarse_motion = True  # as the interactive app draws motion
        r.show(tower)
        r.render()
        t0 = _clock()
        for p in tower_poses:
            r.set_poses(p)
            r.render()
        res["moving_tower"] = _rates(len(tower_poses), t0)
    res["live_tower"] = bench_live(backend, frames)
    res["gif"] = bench_gif(backend)
    res["load_after"] = round(os.getloadavg()[0], 2)
    return res


def bench_live(backend: str, frames: int) -> dict[str, Any]:
    """``tablesim view kozo-tower``'s frame after ``space``: the display world stepped by
    1/60 s inside the frame (sim.view.live) and drawn, 1280x720 (no verdict job)."""
    from tablesim.sim.scene import load_scene, shipped_scene_path
    from tablesim.sim.view.scene_app import SceneApp

    scene = load_scene(shipped_scene_path("kozo-tower"))
    with SceneApp(scene, size=(1280, 720), backend=backend) as app:
        app.frame()
        app.run_scene(judge=False)
        app.tick(1 / 60)
        app.frame()  # the run's table is built here
        t0 = _clock()
        for _ in range(frames):
            app.tick(1 / 60)
            app.frame()
        out = _rates(frames, t0)
        out["physics_cpu_ms_per_frame"] = round(app.live.step_cpu_s / (frames + 1) * 1e3, 3)
    return out


def bench_gif(backend: str) -> dict[str, Any]:
    """2 s of the overhang's verdict run to a 480x270 GIF at 20 fps."""
    from tablesim.sim.scene import load_scene, shipped_scene_path
    from tablesim.sim.view.film import scene_frames, write_film

    scene = load_scene(shipped_scene_path("kozo-overhang"))
    with tempfile.TemporaryDirectory() as tmp:
        t0 = _clock()
        frames = scene_frames(scene, seconds=2.0, fps=20, size=(480, 270), backend=backend)
        path, n = write_film(frames, Path(tmp) / "fall.gif", 20)
        out = _rates(n, t0)
        out["bytes"] = path.stat().st_size
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the figures and print them (``--json``: one JSON object on the last line)."""
    from tablesim.sim.view.backend import available_backends

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--frames", type=int, default=60, help="frames per rate (default 60)")
    ap.add_argument("--backends", default=None, help="comma-separated (default: all available)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    names = args.backends.split(",") if args.backends else available_backends()
    load = os.getloadavg()[0]
    results: dict[str, Any] = {"load_1min": round(load, 2), "backends": {}}
    print(f"view benchmark, load average {load:.2f}, backends: {', '.join(names)}")
    for name in names:
        r = bench_backend(name, args.frames)
        results["backends"][name] = r
        print(f"\n[{name}] load {r['load_before']:.2f} -> {r['load_after']:.2f}; building the "
              f"tower's graph: {r['show']['wall_s'] * 1000:.0f} ms")  # fmt: skip
        base = r["empty"]["cpu_s"] / r["empty"]["frames"]
        for key, label in (
            ("empty", "baseline: empty table 1280x720"),
            ("still", "tower 1280x720, render+readback"),
            ("still_ss2", "tower 1280x720, supersample 2"),
            ("moving", "falling overhang 1280x720, new poses per frame"),
            ("moving_tower", "24-piece tower 1280x720, new poses per frame"),
            ("live_tower", "view: tower live (display physics + draw)"),
        ):
            f = r[key]
            per = f["cpu_s"] / f["frames"]
            print(
                f"  {label:<48} {f['fps_wall']:7.1f} fps wall, {f['fps_cpu'] or 0:7.1f} fps CPU "
                f"({per * 1e3:.1f} ms CPU = {per / base:.2f} empty frames; {f['frames']} frames)"
            )
        g = r["gif"]
        print(
            f"  {'GIF of a 2 s fall, 480x270 @ 20 fps':<48} {g['wall_s']:7.2f} s wall "
            f"({g['frames']} frames, {g['fps_wall']:.1f} frames/s, {g['bytes'] / 1024:.0f} KiB)"
        )
    if args.json:
        print(json.dumps(results, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
