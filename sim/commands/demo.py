"""``tablesim demo``: the most useful thing tablesim can show right now.

It judges the shipped Kozo tower (stands) and the overhanging tower (topples) in the verdict
profile, explaining both, then plays one seeded Catego game between two bots.
"""

from __future__ import annotations

import argparse

from games.play import make_seats, play_game
from games.registry import get_game


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``demo`` subcommand."""
    p = sub.add_parser("demo", help="judge the shipped towers in physics and play a bot game")
    p.add_argument("--replicas", type=int, default=8, help="ensemble size per scene (default 8)")
    p.add_argument("--seed", type=int, default=0)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the demo; exit 0."""
    from sim.commands.simulate import format_table, resolve_scene
    from sim.verdict import simulate

    for name in ("kozo-tower", "kozo-overhang"):
        scene = resolve_scene(name)
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
    print("next: tablesim simulate SCENE.toml | tablesim play catego --players human,strong")
    return 0
