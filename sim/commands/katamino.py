"""``tablesim katamino``: Katamino 3D boxes in physics.

``tablesim katamino assemble --board 3x3x4 [--pieces SET:LABELS] [--seed S] [--json]`` solves
the box, finds an order a hand can follow (each piece straight down, every partial structure
standing in physics), builds it piece by piece in PyBullet and judges the finished box.
``tablesim katamino stand --board 2x2x7 [--pieces ...] [--json]`` gives the verdict of a solved
construction standing alone. Exit 0: assembled and standing (stands); 1: no order, or it fell;
2: bad input. Documented in docs/assembly.md.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tablesim.games.core import canonical_json
from tablesim.sim.cli import COMMAND_HELP, UsageError
from tablesim.sim.commands._common import MAX_SEED, int_in


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``katamino`` subcommand and its actions."""
    p = sub.add_parser(
        "katamino",
        help=COMMAND_HELP["katamino"],
        description="Build Katamino 3D constructions in the physics table.",
    )
    acts = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    a = acts.add_parser(
        "assemble",
        help="solve a box, find an assembly order, build it piece by piece and judge it",
    )
    _common(a)
    a.add_argument(
        "--limit",
        type=int_in(1, 100_000),
        default=200,
        help="solutions to try for one with an order (default 200)",
    )
    a.add_argument(
        "--settle",
        "--window",
        dest="window",
        type=float,
        default=2.0,
        metavar="SECONDS",
        help="seconds the table is watched after each piece (default 2; --window: "
        "the old spelling -- elsewhere --window opens a window)",
    )
    a.set_defaults(func=run_assemble)
    s = acts.add_parser("stand", help="verdict of a solved construction standing alone")
    _common(s)
    s.set_defaults(func=run_stand)


def _common(p: argparse.ArgumentParser) -> None:
    from tablesim.sim.constructions import DEFAULT_PIECES

    p.add_argument(
        "--board",
        required=True,
        metavar="RxCxL",
        help="a box ROWSxCOLSxLAYERS (layers = height), e.g. 3x3x4",
    )
    p.add_argument(
        "--pieces",
        metavar="SET:LABELS",
        help="piece multiset, e.g. katamino-duo:2,3,4,5,6,A,B,W,V (default for "
        + ", ".join(sorted(DEFAULT_PIECES))
        + ": a set that tiles it)",
    )
    p.add_argument(
        "--seed", type=int_in(0, MAX_SEED), default=0, help="seed of the verdict ensembles"
    )
    p.add_argument(
        "--replicas",
        type=int_in(1, 64),
        default=4,
        help="ensemble size of the final verdict (1..64)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object (byte-stable)")
    p.add_argument(
        "--scene-out",
        metavar="FILE",
        help="also write the construction as a scene file (for tablesim render and record)",
    )
    p.add_argument("--force", action="store_true", help="replace the --scene-out file if it exists")


def _inputs(args: argparse.Namespace) -> tuple[str, str]:
    """Validate --board and --pieces; UsageError (exit 2) says what is allowed."""
    from tablesim.games.katamino import SolverError, Target, parse_pieces
    from tablesim.sim.constructions import DEFAULT_PIECES

    try:
        target = Target.parse(args.board)
    except SolverError as exc:
        raise UsageError(str(exc)) from None
    if target.dims != 3:
        raise UsageError(f"--board {args.board!r}: give a 3D box ROWSxCOLSxLAYERS, e.g. 3x3x4")
    board = "x".join(str(v) for v in _rcl(args.board))
    pieces = args.pieces or DEFAULT_PIECES.get(board)
    if pieces is None:
        raise UsageError(
            f"--pieces is required for {board} (defaults exist for "
            f"{', '.join(sorted(DEFAULT_PIECES))})"
        )
    try:
        parsed = parse_pieces(pieces)
    except SolverError as exc:
        raise UsageError(str(exc)) from None
    from tablesim.sim.commands.solve import check_search_size

    check_search_size(target.size, len(parsed), f"--board {board} --pieces {pieces[:200]}")
    cubes = sum(len(p.cells) for p in parsed)
    if cubes != target.size:
        raise UsageError(
            f"--pieces {pieces!r} has {cubes} cubes; the {board} box has {target.size}"
        )
    if args.replicas < 1 or args.replicas > 64:
        raise UsageError(f"--replicas {args.replicas}: allowed 1..64")
    return board, pieces


def _rcl(spec: str) -> list[int]:
    return [int(v) for v in spec.lower().replace(" ", "").split("x")]


def run_assemble(args: argparse.Namespace) -> int:
    """Assemble; exit 0 when the built box stood, 1 otherwise."""
    from tablesim.sim.assembly import assemble

    board, pieces = _inputs(args)
    _check_scene_out(args)
    if args.limit < 1:
        raise UsageError(f"--limit {args.limit}: must be at least 1")
    if not 0 < args.window <= 30:
        raise UsageError(f"--settle {args.window}: allowed (0, 30] seconds")
    report = assemble(
        board,
        pieces,
        seed=args.seed,
        limit=args.limit,
        window_s=args.window,
        replicas=args.replicas,
    )
    if args.scene_out and report.plan is not None and report.plan.found:
        _write_scene(args.scene_out, report.plan.order, board, pieces, "assembled")
    if args.json:
        print(canonical_json(report.to_json()))
    else:
        _print_assembly(report)
    return 0 if report.ok else 1


def _check_scene_out(args: argparse.Namespace) -> None:
    """--scene-out checked before the build (exit 2: folder missing, exists without --force)."""
    if args.scene_out:
        from tablesim.games.outputs import check_output

        check_output(args.scene_out, force=args.force, option="--scene-out")


def _write_scene(path: str, order: Any, board: str, pieces: str, what: str) -> None:
    from tablesim.sim.assembly import scene_toml
    from tablesim.sim.commands._common import atomic_write_text

    text = scene_toml(order, f"katamino-{board}", f"The {board} box of {pieces}, {what}.")
    try:
        atomic_write_text(path, text)
    except OSError as exc:
        raise UsageError(f"--scene-out {path}: cannot write: {exc}") from None


def _print_assembly(report: Any) -> None:
    out = sys.stdout
    print(f"{report.board} with {report.pieces}: {report.tried} solution(s) tried", file=out)
    plan = report.plan
    if plan is None or not plan.found:
        print("no assembly order: " + (plan.reason if plan else "the pieces do not tile it"))
        return
    print(f"assembly order ({report.judge_calls} partial structures judged in physics):")
    for i, step in enumerate(plan.steps, 1):
        cells = " ".join(",".join(map(str, c)) for c in step.piece.cells)
        built = report.build.steps[i - 1] if i <= len(report.build.steps) else None
        fell = f"  FELL: {', '.join(built['fell'])}" if built and built["fell"] else ""
        print(f"  {i}. {step.piece.name:>2} on {'+'.join(step.rests_on):<12} cells {cells}{fell}")
    final = report.build.final
    if final is not None:
        print(f"finished: {final.verdict} ({final.explanation})")
    print("result: " + ("assembled; it stands" if report.ok else "it fell"))


def run_stand(args: argparse.Namespace) -> int:
    """Verdict of the construction standing alone; exit 0 stands, 1 topples or no tiling."""
    from tablesim.games.katamino import solve_one
    from tablesim.sim.assembly import free_standing

    board, pieces = _inputs(args)
    _check_scene_out(args)
    v = free_standing(board, pieces, seed=args.seed, replicas=args.replicas)
    if args.scene_out and v is not None:
        sol = solve_one(board, pieces)
        if sol is not None:  # a verdict was measured, so the pieces tile the board
            _write_scene(args.scene_out, sol.pieces, board, pieces, "standing alone")
    if args.json:
        obj = {"board": board, "pieces": pieces, "verdict": None if v is None else v.to_json()}
        print(canonical_json(obj))
    elif v is None:
        print(f"{board}: {pieces} do not tile it")
    else:
        print(f"{board} with {pieces}: {v.verdict} ({v.explanation})")
    return 0 if v is not None and not v.toppled else 1
