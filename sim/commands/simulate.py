"""``tablesim simulate SCENE``: does it stand? A verdict with probability and explanation."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from tablesim.games.core import canonical_json
from tablesim.sim.cli import COMMAND_HELP, UsageError
from tablesim.sim.commands._common import MAX_REPLICAS, MAX_SEED, MAX_WORKERS, float_in, int_in

if TYPE_CHECKING:
    from tablesim.sim.config import Profile
    from tablesim.sim.verdict import Method


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``simulate`` subcommand."""
    p = sub.add_parser(
        "simulate",
        help=COMMAND_HELP["simulate"],
        description="SCENE is a scene file or the name of a shipped scene (e.g. kozo-tower).",
    )
    p.add_argument("scene", metavar="SCENE")
    p.add_argument(
        "--seconds",
        type=float_in(0, 600, low_open=True),
        default=None,
        help="window in seconds (default: the scene's, 5)",
    )
    p.add_argument("--replicas", type=int_in(1, MAX_REPLICAS), default=8,
                   help=f"ensemble size (default 8, at most {MAX_REPLICAS})")  # fmt: skip
    p.add_argument("--seed", type=int_in(0, MAX_SEED), default=0,
                   help="seed of the perturbations (default 0)")  # fmt: skip
    p.add_argument(
        "--profile", choices=("verdict", "display", "exact", "display-exact"), default="verdict",
        help="verdict (the default: what the rules judge), display, exact (a direct LCP "
        "solver, rigid contacts: 4-6x the CPU; for checking thin-margin towers) or "
        "display-exact (the display's looks on that solver)",
    )  # fmt: skip
    p.add_argument("--step", type=float_in(0, 0.02, low_open=True), default=None,
                   help="override the time step (s), at most 0.02")  # fmt: skip
    p.add_argument(
        "--method",
        choices=("auto", "simulate"),
        default=None,
        help="auto (the default): statics may settle safe cases; simulate: always simulate "
        "(implied by --full-window)",
    )
    p.add_argument("--workers", type=int_in(1, MAX_WORKERS), default=None,
                   help="processes (default: all cores)")  # fmt: skip
    p.add_argument(
        "--full-window",
        action="store_true",
        help="simulate every replica for the whole window, even when statics proves the scene "
        "stands and it has come to rest (default: stop such replicas early); implies "
        "--method simulate, and cannot be combined with --method auto",
    )
    p.add_argument(
        "--all-replicas",
        action="store_true",
        help="run every replica (default: stop once the verdict of all of them is certain and "
        "the 95 %% interval of the topple probability lies on one side of 0.5)",
    )
    p.add_argument(
        "--no-escalation",
        action="store_true",
        help="keep the profile's own solver on thin margins (default: the verdict and display "
        "profiles run a scene whose statics tilt margin is under 1.5 degrees in the direct "
        "solver of the exact / display-exact profile, and the JSON says so under 'escalation')",
    )
    p.add_argument("--json", action="store_true", help="one JSON object (byte-stable)")
    p.set_defaults(func=run)


def _profile(name: str, no_escalation: bool) -> str | Profile:
    """The profile by name, or a copy that never escalates (``--no-escalation``)."""
    if not no_escalation:
        return name
    from dataclasses import replace

    from tablesim.sim.config import get_profile

    return replace(get_profile(name), escalate_below_deg=None)


def run(args: argparse.Namespace) -> int:
    """Simulate and print; exit 0 for either verdict, 2 for bad input, 1 for a blow-up."""
    from tablesim.sim.commands._common import format_table
    from tablesim.sim.guard import PhysicsBlowUpError
    from tablesim.sim.scene import InvalidSceneError, resolve_scene
    from tablesim.sim.verdict import simulate

    if args.replicas < 1:
        raise UsageError(f"--replicas must be >= 1, got {args.replicas}")
    if args.workers is not None and args.workers < 1:
        raise UsageError(f"--workers must be >= 1, got {args.workers}")
    if args.full_window and args.method == "auto":
        raise UsageError(
            "--full-window simulates every replica for the whole window, but --method auto lets "
            "statics decide without simulating; drop --method auto (--full-window implies "
            "--method simulate)"
        )
    # argparse allows only these two
    method: Method = "simulate" if args.full_window or args.method == "simulate" else "auto"
    try:
        scene = resolve_scene(args.scene)
        verdict = simulate(
            scene,
            seconds=args.seconds,
            replicas=args.replicas,
            seed=args.seed,
            profile=_profile(args.profile, args.no_escalation),
            time_step=args.step,
            method=method,
            workers=args.workers,
            **({"early_stop": None} if args.full_window else {}),
            **({"sequential": None} if args.all_replicas else {}),
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
