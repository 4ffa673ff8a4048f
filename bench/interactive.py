"""Interactive table benchmark: what a mouse move costs in the app, and what a dice throw costs.

Run ``python bench/interactive.py`` (``--json`` adds one JSON object on the last line).
Figures, not pass/fail; each is printed next to a baseline measured in the same process.

- ``still``: the app's frame with nothing changed (the baseline), tiny backend, 960x540;
- ``*_drawn``: the same moves drawn as a window draws them (``Renderer.readback`` off: no
  copy of the frame back to RAM, 2-3 ms at 960x540);
- ``ghost``: Kozo with a piece in hand (the 2a domino, touch-move taken): the mouse moves over
  the board, so every frame snaps the ghost, checks its placement against the rules (green or
  red with the reason) and swaps the ghost item; reported per move and as a ratio to ``still``;
- ``katamino``: a Katamino piece pressed and dragged over the board, per mouse move, with the
  still frame of that table;
- ``display_physics``: the display profile stepping the 24-piece tower as the window's live
  run does (sim.view.live): CPU ms per 1/60 s of simulated time, real-time factor;
- ``dice``: Catego's two dice thrown in PyBullet to show a drawn roll (``tablesim.sim.view.dice``):
  physics per roll and throws per roll (a die that ends leaning is thrown again).

- ``empty``: the baseline of the machine as it is now: the same renderer drawing an empty
  table (the table top, the sky, no item, no text) at 960x540; every frame figure is also given
  as a ratio to it, which says more than milliseconds on a loaded machine.

The machine may be shared: CPU time (``time.process_time``) is printed next to wall time, with
the 1-minute load average before and after. ``--profile`` adds the cProfile top lines (CPU
clock) of the still frame, the ghost move and the drag.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def _timed(fn, n: int) -> tuple[float, float]:  # noqa: ANN001
    """Median wall and CPU seconds per call of ``fn`` over ``n`` calls."""
    walls, cpus = [], []
    for _ in range(n):
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
    return statistics.median(walls), statistics.median(cpus)


def _profiled(fn, n: int, top: int) -> str:  # noqa: ANN001
    """The ``top`` lines of a cProfile (CPU clock, sorted by own time) of ``n`` calls."""
    import cProfile
    import io
    import pstats

    prof = cProfile.Profile(time.process_time)
    prof.enable()
    for _ in range(n):
        fn()
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(top)
    return out.getvalue()


def bench_empty(frames: int) -> dict[str, float]:
    """The baseline: an empty table drawn by the same renderer (tiny, 960x540)."""
    from tablesim.sim.view.layout import TableLayout
    from tablesim.sim.view.renderer import Renderer

    with Renderer((960, 540), backend="tiny") as r:
        r.show(TableLayout("empty", ()))
        r.render()
        wall, cpu = _timed(r.render, frames)
    return {"empty_ms": wall * 1e3, "empty_cpu_ms": cpu * 1e3}


def _drawn_whole(h: Any) -> None:
    """A frame drawn from scratch (the app draws only what changed: this is the drawing a
    still table costs when it is drawn, e.g. after the window was uncovered)."""
    h.app.renderer.invalidate()
    h.app.frame()


def _orbited(h: Any) -> None:
    """One step of a camera orbit (a right-drag of 5 pixels) and its frame."""
    h.app.orbit(2.0, 0.0)
    h.app.frame()


def _moved_whole(h: Any, xy: tuple[float, float]) -> None:
    """A mouse move whose frame is drawn whole (as before incremental drawing)."""
    h.app.renderer.invalidate()
    h.move(*xy)


def bench_app(moves: int, profile: int = 0) -> dict[str, Any]:
    """Still frame vs a mouse move with a Kozo piece in hand (tiny backend, 960x540)."""
    import numpy as np

    from tablesim.sim.slices.kozo.referee import KozoReferee
    from tablesim.sim.view.harness import Harness

    with Harness("kozo", options={"table": "stand-in"}, seed=5, size=(960, 540)) as h:
        h.app.frame()
        still = _timed(lambda: _drawn_whole(h), moves)
        skipped = _timed(h.app.frame, moves)
        prof_still = _profiled(lambda: _drawn_whole(h), moves, profile) if profile else ""
        if not h.click_item("supply-2a"):
            raise RuntimeError("could not take the 2a domino from the supply")
        table = KozoReferee(h.app.state.config, h.app.state.seed)
        origin, edge = np.asarray(table.origin), table.edge
        points = [origin + np.array([gx, gy, 0.0]) * edge
                  for gx in np.linspace(0.0, 3.0, 7) for gy in np.linspace(0.0, 3.0, 7)]  # fmt: skip
        pixels = [h.pixel_of(p) for p in points]  # projected first: the timing is the move
        it = itertools.cycle(pixels)
        h.move(*next(it))  # the first move bakes the supply's shadows: not a typical one
        ghost = _timed(lambda: h.move(*next(it)), moves)
        h.app.renderer.readback = False  # drawn as in a window: no copy back to RAM
        ghost_drawn = _timed(lambda: h.move(*next(it)), moves)
        h.app.renderer.readback = True
        ghost_whole = _timed(lambda: _moved_whole(h, next(it)), moves)
        orbit = _timed(lambda: _orbited(h), moves)
        prof_ghost = _profiled(lambda: h.move(*next(it)), moves, profile) if profile else ""
    out: dict[str, Any] = {
        "still_ms": still[0] * 1e3,
        "still_cpu_ms": still[1] * 1e3,
        "still_skipped_cpu_ms": skipped[1] * 1e3,
        "ghost_ms": ghost[0] * 1e3,
        "ghost_cpu_ms": ghost[1] * 1e3,
        "ghost_over_still": ghost[1] / still[1],
        "ghost_drawn_cpu_ms": ghost_drawn[1] * 1e3,
        "ghost_whole_cpu_ms": ghost_whole[1] * 1e3,
        "orbit_cpu_ms": orbit[1] * 1e3,
        "frames": dict(h.app.renderer.stats),
    }
    if profile:
        out["profile"] = {"still": prof_still, "ghost": prof_ghost}
    return out


def bench_katamino_drag(moves: int, profile: int = 0) -> dict[str, Any]:
    """A Katamino piece pressed and dragged over the board (ghost snapped and checked every
    move), tiny backend, 960x540: per mouse move, and the still frame of that table."""
    from tablesim.sim.slices.katamino.controller import KataminoController
    from tablesim.sim.view.harness import Harness

    with Harness("katamino", options={"mode": "traditional"}, players=("human",), seed=0,
                 size=(960, 540)) as h:  # fmt: skip
        h.app.frame()
        still = _timed(lambda: _drawn_whole(h), moves)
        ctrl = h.app.controller
        if not isinstance(ctrl, KataminoController):
            raise TypeError(f"a Katamino table has a {type(ctrl).__name__}")
        loose = ctrl.loose()
        x0, y0 = h.item_pixel(f"piece-{loose[0]}")
        h.move(x0, y0)
        h.app.mouse_down(x0, y0, "left")
        w, hgt = h.app.size
        path = [(w * (0.3 + 0.4 * (k % 10) / 9), hgt * (0.3 + 0.2 * (k // 10 % 3)))
                for k in range(30)]  # fmt: skip
        it = itertools.cycle(path)
        h.move(*next(it))  # the first moves bake the shadows of the board without the piece
        h.move(*next(it))
        drag = _timed(lambda: h.move(*next(it)), moves)
        h.app.renderer.readback = False
        drag_drawn = _timed(lambda: h.move(*next(it)), moves)
        h.app.renderer.readback = True
        drag_whole = _timed(lambda: _moved_whole(h, next(it)), moves)
        prof = _profiled(lambda: h.move(*next(it)), moves, profile) if profile else ""
        h.app.mouse_up(*h.app._mouse, "left")
    out: dict[str, Any] = {"still_ms": still[0] * 1e3, "still_cpu_ms": still[1] * 1e3,
                           "drag_ms": drag[0] * 1e3, "drag_cpu_ms": drag[1] * 1e3,
                           "drag_over_still": drag[1] / still[1],
                           "drag_drawn_cpu_ms": drag_drawn[1] * 1e3,
                           "drag_whole_cpu_ms": drag_whole[1] * 1e3,
                           "frames": dict(h.app.renderer.stats)}  # fmt: skip
    if profile:
        out["profile"] = {"drag": prof}
    return out


def bench_display_physics(seconds: float = 2.0) -> dict[str, float]:
    """The display profile stepping the 24-piece ``kozo-tower`` as the window does: CPU ms
    per 1/60 s of simulated time at rest, and the real-time factor (simulated / CPU s)."""
    from tablesim.sim.scene import load_scene, shipped_scene_path
    from tablesim.sim.view.live import LiveRun

    scene = load_scene(shipped_scene_path("kozo-tower"))
    run = LiveRun(scene, seconds=seconds + 1.0)
    frames = int(seconds * 60)
    c0 = time.process_time()
    for _ in range(frames):
        run.advance(1 / 60, budget_s=1.0)
        if run.done:
            break
    cpu = time.process_time() - c0
    simulated = run.time
    run.close()
    return {"step_cpu_ms_per_frame": cpu / max(1, frames) * 1e3,
            "realtime_factor": simulated / cpu if cpu > 0 else float("inf"),
            "simulated_s": simulated}  # fmt: skip


def bench_dice(rolls: int) -> dict[str, float]:
    """Catego's two dice thrown to show seeded rolls."""
    from tablesim.games.rng import Rng
    from tablesim.sim.view.dice import catego_dice

    rng = Rng.from_seed(0, "bench", "dice")
    attempts = []
    w0, c0 = time.perf_counter(), time.process_time()
    for seed in range(rolls):
        a, rng = rng.randint(1, 6)
        b, rng = rng.randint(1, 6)
        roll = catego_dice((a, b), seed)
        if roll.up_labels() != (a, b):
            raise RuntimeError(f"seed {seed}: the dice show {roll.up_labels()}, drawn {(a, b)}")
        attempts.append(roll.throw.attempts)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    return {
        "roll_ms": wall / rolls * 1e3,
        "roll_cpu_ms": cpu / rolls * 1e3,
        "throws_per_roll": sum(attempts) / rolls,
    }


def _load() -> float:
    return os.getloadavg()[0]


def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks and print their figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=60, help="mouse moves timed (default 60)")
    ap.add_argument("--rolls", type=int, default=50, help="dice rolls timed (default 50)")
    ap.add_argument("--profile", type=int, default=0, metavar="N",
                    help="print the N top lines of a cProfile of each frame figure")  # fmt: skip
    ap.add_argument("--json", action="store_true", help="one JSON object on the last line")
    args = ap.parse_args(argv)
    load = _load()
    empty = bench_empty(args.moves)
    base = empty["empty_cpu_ms"]
    print(f"baseline (tiny, 960x540, load {load:.2f}): an empty table {empty['empty_ms']:.1f} ms "
          f"wall, {base:.1f} ms CPU per frame")  # fmt: skip
    app = bench_app(args.moves, args.profile)
    print(f"kozo (load {_load():.2f}): still frame {app['still_ms']:.1f} ms wall, "
          f"{app['still_cpu_ms']:.1f} ms CPU ({app['still_cpu_ms'] / base:.2f}x empty); "
          f"mouse move with a ghost {app['ghost_ms']:.1f} ms wall, {app['ghost_cpu_ms']:.1f} ms "
          f"CPU ({app['ghost_cpu_ms'] / base:.2f}x empty, {app['ghost_over_still']:.2f}x still); "
          f"drawn as in a window (no readback) {app['ghost_drawn_cpu_ms']:.1f} ms CPU; "
          f"drawn whole {app['ghost_whole_cpu_ms']:.1f} ms CPU; a still frame not drawn again "
          f"{app['still_skipped_cpu_ms']:.2f} ms CPU; an orbit step {app['orbit_cpu_ms']:.1f} ms "
          f"CPU; frames {app['frames']}")  # fmt: skip
    drag = bench_katamino_drag(args.moves, args.profile)
    print(f"katamino (load {_load():.2f}): still frame {drag['still_ms']:.1f} ms wall, "
          f"{drag['still_cpu_ms']:.1f} ms CPU ({drag['still_cpu_ms'] / base:.2f}x empty); a drag "
          f"move {drag['drag_ms']:.1f} ms wall, {drag['drag_cpu_ms']:.1f} ms CPU "
          f"({drag['drag_cpu_ms'] / base:.2f}x empty, {drag['drag_over_still']:.2f}x still); "
          f"drawn as in a window {drag['drag_drawn_cpu_ms']:.1f} ms CPU; drawn whole "
          f"{drag['drag_whole_cpu_ms']:.1f} ms CPU; frames {drag['frames']}")  # fmt: skip
    for name, part in (("kozo", app), ("katamino", drag)):
        for what, text in part.get("profile", {}).items():
            print(f"\n--- cProfile, {name} {what}, {args.moves} calls (CPU clock) ---\n{text}")
    phys = bench_display_physics()
    print(f"display physics, 24-piece tower: {phys['step_cpu_ms_per_frame']:.2f} ms CPU per "
          f"1/60 s simulated ({phys['realtime_factor']:.1f}x real time, "
          f"{phys['simulated_s']:.2f} s simulated)")  # fmt: skip
    dice = bench_dice(args.rolls)
    print(f"dice: {dice['roll_ms']:.1f} ms per Catego roll (cpu {dice['roll_cpu_ms']:.1f}), "
          f"{dice['throws_per_roll']:.2f} throws per roll, {args.rolls} rolls")  # fmt: skip
    print(f"load after: {_load():.2f}")
    if args.json:
        for part in (app, drag):
            part.pop("profile", None)
        print(json.dumps({"load": load, "load_after": _load(), "empty": empty, "app": app,
                          "katamino": drag, "display_physics": phys, "dice": dice},
                         sort_keys=True))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
