"""``tablesim simulate SCENE``: does it stand? A verdict with probability and explanation."""

from __future__ import annotations

import argparse
from pathlib import Path

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
        default=None,
        help="auto (the default): statics may settle safe cases; simulate: always simulate "
        "(implied by --full-window)",
    )
    p.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    p.add_argument(
        "--full-window",
        action="store_true",
        help="simulate every replica for the whole window, even when statics proves the scene "
        "stands and it has come to rest (default: stop such replicas early); implies "
        "--method simulate, and cannot be combined with --method auto",
    )
    p.add_argument("--json", action="store_true", help="one JSON object (byte-stable)")
    p.set_defaults(func=run)


def resolve_scene(ref: str):  # noqa: ANN201 - returns sim.model.Scene
    """Load a scene from a path, or a shipped scene by name (``kozo-tower``)."""
    from sim.scene import load_scene, shipped_scene_names, shipped_scene_path

    path = Path(ref)
    if path.is_file():
        return load_scene(path)
    name = ref[:-5] if ref.endswith(".toml") else ref
    if name in shipped_scene_names():
        return load_scene(shipped_scene_path(name))
    raise UsageError(
        f"{ref}: no such file, and no shipped scene of that name (shipped: {', '.join(shipped_scene_names())})"
    )


def format_table(verdict) -> str:  # noqa: ANN001
    """The human-readable piece table and verdict."""
    rows = [f"{'piece':<10} {'moved mm':>9} {'tilt deg':>9} {'fell p':>7} {'margin mm':>10}"]
    for p in verdict.pieces:

        def f(x: float | None, fmt: str) -> str:
            width = int(fmt.split(".")[0])
            return "-".rjust(width) if x is None else format(x, fmt)

        rows.append(
            f"{p.id:<10} {f(p.displacement_mm, '9.3f')} {f(p.tilt_deg, '9.2f')} "
            f"{f(p.fall_probability, '7.2f')} {f(p.margin_mm, '10.2f')}"
            + ("  marginal" if p.marginal else "")
        )
    rows.append("")
    rows.append(
        f"verdict: {verdict.verdict.upper()} (topple probability {verdict.topple_probability:.2f}, "
        f"{verdict.replicas} replicas, {verdict.seconds:g} s, {verdict.profile} profile, "
        f"step {verdict.time_step * 1e3:g} ms, by {verdict.decided_by})"
    )
    rows.append(verdict.explanation)
    return "\n".join(rows)


def run(args: argparse.Namespace) -> int:
    """Simulate and print; exit 0 for either verdict, 2 for bad input, 1 for a blow-up."""
    from sim.scene import InvalidSceneError
    from sim.verdict import simulate
    from sim.world import PhysicsBlowUpError

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
    method = "simulate" if args.full_window else (args.method or "auto")
    try:
        scene = resolve_scene(args.scene)
        verdict = simulate(
            scene,
            seconds=args.seconds,
            replicas=args.replicas,
            seed=args.seed,
            profile=args.profile,
            time_step=args.step,
            method=method,
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
