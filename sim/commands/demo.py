"""``tablesim demo``: the most useful thing tablesim can show right now.

It judges the shipped Kozo tower (stands) and the overhanging tower (topples) in the verdict
profile, explaining both, plays one round of Kozo at the physics table (careful vs greedy) and
one seeded Catego game between two bots, and draws them: a picture of the tower, GIFs of the
overhang falling (the verdict-profile run the rules judged) and of the Kozo round's last judged
move, the round's log and the final Catego pad, written to a directory it prints (default
``./tablesim-demo/``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from tablesim.games.core import counted
from tablesim.games.registry import get_game
from tablesim.games.session import make_seats, play_game
from tablesim.sim.cli import COMMAND_HELP
from tablesim.sim.commands._common import MAX_REPLICAS, MAX_SEED, int_in


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``demo`` subcommand."""
    p = sub.add_parser("demo", help=COMMAND_HELP["demo"])
    p.add_argument(
        "--replicas",
        type=int_in(1, MAX_REPLICAS),
        default=8,
        help="ensemble size per scene (default 8)",
    )
    p.add_argument("--seed", type=int_in(0, MAX_SEED), default=0)
    p.add_argument(
        "-o",
        "--out",
        default="tablesim-demo",
        help="folder for the pictures and the film (default ./tablesim-demo/)",
    )
    p.add_argument(
        "--backend", choices=("auto", "tiny", "gl"), default="auto", help="rendering backend"
    )
    p.add_argument("--no-pictures", action="store_true", help="skip the pictures and the film")
    p.add_argument("--force", action="store_true", help="replace the files of an earlier demo")
    p.set_defaults(func=run)


DEMO_FILES = (
    "kozo-tower.png",
    "kozo-overhang-fall.gif",
    "catego.png",
    "kozo-game.jsonl",
    "kozo-game-fall.gif",
)
"""What the demo writes in its folder (an earlier demo's files are replaced only with --force)."""


def run(args: argparse.Namespace) -> int:
    """Run the demo; exit 0."""
    from tablesim.sim.cli import UsageError
    from tablesim.sim.commands._common import format_table
    from tablesim.sim.scene import resolve_scene
    from tablesim.sim.verdict import simulate

    out_dir = Path(args.out)
    if not args.no_pictures:
        if out_dir.exists() and not out_dir.is_dir():
            raise UsageError(f"--out {args.out}: exists and is not a folder")
        there = [n for n in DEMO_FILES if (out_dir / n).exists()]
        if there and not args.force:
            raise UsageError(
                f"--out {args.out}: holds an earlier demo ({', '.join(there)}); pass --force to "
                "replace it, or choose another --out"
            )
        out_dir.mkdir(parents=True, exist_ok=True)
        from tablesim.games.outputs import check_output

        for n in DEMO_FILES:  # records --force for each file: replaced at the end only with it
            check_output(out_dir / n, force=args.force, option="--out")

    scenes = {}
    for name in ("kozo-tower", "kozo-overhang"):
        scene = resolve_scene(name)
        scenes[name] = scene
        print(f"=== {name}: {scene.description}")
        verdict = simulate(scene, replicas=args.replicas, seed=args.seed, method="simulate")
        print(format_table(verdict))
        print()

    kozo = _kozo_round(args.seed, None if args.no_pictures else out_dir)

    game = get_game("catego")
    roles = ["strong", "random"]
    config = game.make_config({}, players=2)
    rec = play_game(game, config, make_seats("catego", roles, args.seed), args.seed)
    assert rec.result is not None
    scores = " vs ".join(f"{r} {s:g}" for r, s in zip(roles, rec.result.scores, strict=True))
    print(
        f"=== catego, strong bot vs random bot (seed {args.seed}): {scores} in "
        f"{counted(rec.turns, 'turn')}"
    )
    print(game.describe(rec.final_state))
    print()

    if not args.no_pictures:
        _pictures(out_dir, scenes, rec.final_state, args.backend)
        _kozo_film(out_dir, kozo, args.backend)
    print("next: tablesim simulate SCENE.toml | tablesim play kozo --players human,careful")
    print("      tablesim render SCENE -o out.png | tablesim record SCENE -o fall.gif")
    return 0


def _pictures(out_dir: Path, scenes: dict, catego_state: object, backend: str) -> None:
    """The tower picture, the overhang's fall as a GIF, and the Catego pad."""
    from tablesim.sim.view.backend import resolve_backend
    from tablesim.sim.view.drawings import catego_layout, scene_layout
    from tablesim.sim.view.film import scene_frames, write_film
    from tablesim.sim.view.snapshot import render_layout

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
    fall, _ = write_film(frames, out_dir / "kozo-overhang-fall.gif", 20)
    pad = render_layout(
        catego_layout(catego_state), out_dir / "catego.png", size=(960, 540), backend=used
    )
    print(f"=== pictures ({used} backend, {time.perf_counter() - t0:.1f} s) in {out_dir}/:")
    print(f"  {tower.name}: the Kozo tower, {_picture_size(tower)}")
    print(f"  {fall.name}: the overhang falling, 1.5 s of the verdict run at half speed, "
          f"{_picture_size(fall)}")  # fmt: skip
    print(f"  {pad.name}: the final Catego pad, {_picture_size(pad)}")


def _picture_size(path: Path) -> str:
    """``1280x720`` (``, 31 frames`` for a film), read back from the file as written."""
    from PIL import Image

    with Image.open(path) as img:
        frames = getattr(img, "n_frames", 1)
        size = f"{img.size[0]}x{img.size[1]}"
    return size + (f", {counted(frames, 'frame')}" if frames > 1 else "")


def _kozo_round(seed: int, out_dir: Path | None) -> tuple[object, int, list[str]]:
    """One round of Kozo at the physics table, careful bot vs greedy bot; its log is written
    to ``out_dir/kozo-game.jsonl`` (replayable with ``tablesim replay``). Returns (config,
    seed, move texts)."""
    from tablesim.games.kozo.state import KozoMove, KozoState
    from tablesim.games.log import log_lines
    from tablesim.games.session import log_header
    from tablesim.sim.cli import version
    from tablesim.sim.commands._common import atomic_write_text

    game = get_game("kozo")
    roles = ["careful", "greedy"]
    config = game.make_config({"rounds": 1}, players=2)
    seats = make_seats("kozo", roles, seed)
    print(f"=== kozo, one round at the physics table: careful bot vs greedy bot (seed {seed})")

    def on_move(before: KozoState, seat: int, move: KozoMove, after: KozoState) -> None:
        print(f"  {roles[seat]}: {game.describe_move(before, move)}")

    rec = play_game(game, config, seats, seed, on_move=on_move)
    assert rec.result is not None
    scores = " vs ".join(f"{r} {s:g}" for r, s in zip(roles, rec.result.scores, strict=True))
    print(f"  result: {scores} in {counted(rec.turns, 'turn')}")
    print()
    if out_dir is not None:
        header = log_header(game, config, seed, seats, version())
        atomic_write_text(
            str(out_dir / "kozo-game.jsonl"), "\n".join(log_lines(header, rec)) + "\n"
        )
    return config, seed, list(rec.moves)


def _kozo_film(out_dir: Path, kozo: tuple[object, int, list[str]], backend: str) -> None:
    """A GIF of the round's last judged move, as the physics table ran it."""
    from tablesim.games.log import read_log_file
    from tablesim.sim.view.backend import resolve_backend
    from tablesim.sim.view.film import judged_move_frames, write_film

    _, _, texts = kozo
    timed = [i for i, t in enumerate(texts, 1) if t.split()[0] not in ("take", "nocube")]
    if not timed:
        return
    t0 = time.perf_counter()
    frames = judged_move_frames(
        read_log_file(str(out_dir / "kozo-game.jsonl")),
        timed[-1],
        fps=20,
        slow=0.5,
        size=(480, 270),
        backend=resolve_backend(backend),
    )
    film, _ = write_film(frames, out_dir / "kozo-game-fall.gif", 20)
    print(f"  {film.name}: the Kozo round's last move as the table judged it, half speed, "
          f"{_picture_size(film)} ({time.perf_counter() - t0:.1f} s)")  # fmt: skip
    print("  kozo-game.jsonl: its log (tablesim replay / tablesim record it)")
