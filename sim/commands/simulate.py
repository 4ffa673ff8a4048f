"""``tablesim simulate SCENE``: does it stand? A verdict with probability and explanation."""

from __future__ import annotations

import argparse

from games.core import canonical_json
from sim.cli import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``simulate`` subcommand."""
    p = sub.add_parser(
        "simulate",
        help="judge a scene in physics: stands or topples, with probability and explanation",
        description="SCENE is a scene file or the name of a shipped scene (e.g. kozo-tower).",
    )
    p.add_argument("scene", metavar="SCENE")
    p.add_argument(
        "--seconds", type=float, default=None, help="window in seconds (default: the scene's, 5)"
    )
    p.add_argument("--replicas", type=int, default=8, help="ensemble size (default 8)")
    p.add_argument("--seed", type=int, default=0, help="seed of the perturbations (default 0)")
    p.add_argument("--profile", choices=("verdict", "display"), default="verdict")
    p.add_argument("--step", type=float, default=None, help="override the time step (s)")
    p.add_argument(
        "--method",
        choices=("auto", "simulate"),
        default="auto",
        help="auto: statics may settle safe cases; simulate: always simulate",
    )
    p.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    p.add_argument(
        "--full-window",
        action="store_true",
        help="simulate every replica for the whole window, even when statics proves the scene "
        "stands and it has come to rest (default: stop such replicas early)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object (byte-stable)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Simulate and print; exit 0 for either verdict, 2 for bad input, 1 for a blow-up."""
    from sim.commands._common import format_table
    from sim.scene import InvalidSceneError, resolve_scene
    from sim.verdict import simulate
    from sim.world import PhysicsBlowUpError

    if args.replicas < 1:
        raise UsageError(f"--replicas must be >= 1, got {args.replicas}")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be >= 1, got {args.workers}")
    try:
        scene = resolve_scene(args.scene)
        verdict = simulate(
            scene,
            seconds=args.seconds,
            replicas=args.replicas,
            seed=args.seed,
            profile=args.profile,
            time_step=args.step,
            method=args.method,
            workers=args.workers,
            **({"early_stop": None} if args.full_window else {}),
        )
    except InvalidSceneError as exc:
        raise UsageError(str(exc)) from None
    except PhysicsBlowUpError as exc:
        print(f"tablesim simulate: physics blew up (an error, not a verdict): {exc}")
        return 1
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        print(canonical_json(verdict.to_json()))
    else:
        print(f"scene: {scene.name} ({scene.source})")
        print(format_table(verdict))
    return 0
