"""``tablesim demo``: the most useful thing tablesim can show right now.

It judges the shipped Kozo tower (stands) and the overhanging tower (topples) in the verdict
profile, explaining both, plays one seeded Catego game between two bots, and draws them: a
picture of the tower, a GIF of the overhang falling (the verdict-profile run the rules judged)
and the final Catego pad, written to a directory it prints (default ``./tablesim-demo/``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from games.play import make_seats, play_game
from games.registry import get_game


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``demo`` subcommand."""
    p = sub.add_parser(
        "demo", help="judge the shipped towers in physics, play a bot game, draw and film them"
    )
    p.add_argument("--replicas", type=int, default=8, help="ensemble size per scene (default 8)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--out",
        default="tablesim-demo",
        help="folder for the pictures and the film (default ./tablesim-demo/)",
    )
    p.add_argument(
        "--backend", choices=("auto", "tiny", "gl"), default="auto", help="rendering backend"
    )
    p.add_argument("--no-pictures", action="store_true", help="skip the pictures and the film")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the demo; exit 0."""
    from sim.cli import UsageError
    from sim.commands.simulate import format_table, resolve_scene
    from sim.verdict import simulate

    out_dir = Path(args.out)
    if not args.no_pictures:
        if out_dir.exists() and not out_dir.is_dir():
            raise UsageError(f"--out {args.out}: exists and is not a folder")
        out_dir.mkdir(parents=True, exist_ok=True)

    scenes = {}
    for name in ("kozo-tower", "kozo-overhang"):
        scene = resolve_scene(name)
        scenes[name] = scene
        print(f"=== {name}: {scene.description}")
        verdict = simulate(scene, replicas=args.replicas, seed=args.seed, method="simulate")
        print(format_table(verdict))
        print()

    game = get_game("catego")
    roles = ["strong", "random"]
    config = game.make_config({}, players=2)
    rec = play_game(game, config, make_seats("catego", roles, args.seed), args.seed)
    assert rec.result is not None
    scores = " vs ".join(f"{r} {s:g}" for r, s in zip(roles, rec.result.scores, strict=True))
    print(f"=== catego, strong bot vs random bot (seed {args.seed}): {scores} in {rec.turns} turns")
    print(game.describe(rec.final_state))
    print()

    if not args.no_pictures:
        _pictures(out_dir, scenes, rec.final_state, args.backend)
    print("next: tablesim simulate SCENE.toml | tablesim play catego --players human,strong")
    print("      tablesim render SCENE -o out.png | tablesim record SCENE -o fall.gif")
    return 0


def _pictures(out_dir: Path, scenes: dict, catego_state: object, backend: str) -> None:
    """The tower picture, the overhang's fall as a GIF, and the Catego pad."""
    from sim.view.backend import resolve_backend
    from sim.view.film import scene_frames, write_film
    from sim.view.snapshot import render_layout
    from sim.view.tables import catego_layout, scene_layout

    t0 = time.perf_counter()
    used = resolve_backend(backend)
    tower = render_layout(
        scene_layout(scenes["kozo-tower"]),
        out_dir / "kozo-tower.png",
        size=(1280, 720),
        backend=used,
    )
    frames = scene_frames(
        scenes["kozo-overhang"],
        seconds=1.5,
        fps=20,
        slow=0.5,
        profile="verdict",
        size=(480, 270),
        backend=used,
    )
    fall, n = write_film(frames, out_dir / "kozo-overhang-fall.gif", 20)
    pad = render_layout(
        catego_layout(catego_state), out_dir / "catego.png", size=(960, 540), backend=used
    )
    print(f"=== pictures ({used} backend, {time.perf_counter() - t0:.1f} s) in {out_dir}/:")
    print(f"  {tower.name}: the Kozo tower, 1280x720")
    print(
        f"  {fall.name}: the overhang falling, 1.5 s of the verdict run at half speed, {n} frames"
    )
    print(f"  {pad.name}: the final Catego pad")
