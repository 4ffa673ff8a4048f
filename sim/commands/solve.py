"""``tablesim solve``: Katamino exact cover of a 2D board or a 3D target by a piece multiset.

``tablesim solve --board 5x8|2x3x5|FILE --pieces SET[:LABELS] [--count | --show N | --all |
--hint --partial FILE | --difficulty] [--distinct] [--straight-horizontal] [--json]``.
Exit 0 when a solution exists (or the partial board is still solvable), 1 when none does,
2 for bad input. The solver lives in ``tablesim.games.katamino`` (docs/katamino-solver.md).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from tablesim.games.core import canonical_json
from tablesim.sim.cli import COMMAND_HELP, UsageError


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``solve`` subcommand."""
    p = sub.add_parser(
        "solve",
        help=COMMAND_HELP["solve"],
        description=(
            "Exact cover of a board (ROWSxCOLS, e.g. 5x8), a box (ROWSxCOLSxLAYERS, e.g. 2x3x5) "
            "or a mask FILE ('#' cell, '-' or space none, layers bottom first separated by "
            "blank lines) by pieces from a catalogue: SET or SET:LABELS, e.g. pentominoes:LNPU "
            "or katamino-duo:2,3,A,V; join sets with '+'. Identical pieces count once per "
            "arrangement. Default: show one solution and the total count."
        ),
    )
    p.add_argument("--board", required=True, metavar="SIZE|FILE", help="5x8, 2x3x5 or a mask file")
    p.add_argument("--pieces", required=True, metavar="SET[:LABELS]", help="piece multiset")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--count", action="store_true", help="only count the solutions")
    mode.add_argument("--show", type=int, metavar="N", help="draw the first N solutions")
    mode.add_argument("--all", action="store_true", help="draw every solution")
    mode.add_argument("--hint", action="store_true", help="hint for the --partial board")
    mode.add_argument("--difficulty", action="store_true", help="measured difficulty")
    p.add_argument("--partial", metavar="FILE", help="partial board for --hint (see docs)")
    p.add_argument(
        "--distinct",
        action="store_true",
        help="also count (and draw only) solutions distinct up to the board's symmetries",
    )
    p.add_argument(
        "--straight-horizontal",
        action="store_true",
        help="Katamino rule: straight pieces lie along the board's length (off the vertical in 3D)",
    )
    p.add_argument("--backend", choices=("auto", "numba", "python"), default=None,
                   help="search kernel (default: $TABLESIM_SOLVER_BACKEND or auto)")  # fmt: skip
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                   help="colour the drawings (auto: on a terminal, unless NO_COLOR is set)")  # fmt: skip
    p.add_argument("--json", action="store_true", help="one JSON object (byte-stable)")
    p.set_defaults(func=run)


def read_board(spec: str):  # noqa: ANN201 - returns tablesim.games.katamino.Target
    """A size such as 5x8 / 2x3x5, or a mask file."""
    import re

    from tablesim.games.katamino import Target

    if re.fullmatch(r"\s*\d+\s*[xX]\s*\d+\s*([xX]\s*\d+\s*)?", spec):
        return Target.parse(spec)
    path = Path(spec)
    if not path.is_file():
        raise UsageError(
            f"--board {spec!r}: neither a size (ROWSxCOLS or ROWSxCOLSxLAYERS) nor a file"
        )
    return Target.from_text(_read(path, "--board"), where=str(path))


def check_search_size(cells: int, pieces: int, what: str) -> None:
    """UsageError for a search past the stated budget (README "Limits"): at most
    ``MAX_SOLVE_CELLS`` board cells and ``MAX_SOLVE_PIECES`` pieces, checked before it starts."""
    from tablesim.games.limits import MAX_SOLVE_CELLS, MAX_SOLVE_PIECES

    if cells > MAX_SOLVE_CELLS or pieces > MAX_SOLVE_PIECES:
        raise UsageError(
            f"{what}: {cells} cells and {pieces} pieces; a search takes at most "
            f"{MAX_SOLVE_CELLS} cells and {MAX_SOLVE_PIECES} pieces"
        )


def _read(path: Path, flag: str) -> str:
    from tablesim.games.inputs import InputTooLargeError, read_limited

    try:
        return read_limited(path, "board").decode("utf-8")
    except (OSError, UnicodeDecodeError, InputTooLargeError) as exc:
        raise UsageError(f"{flag} {path}: cannot read ({exc})") from None


def _use_colour(choice: str) -> bool:
    if choice == "always":
        return True
    if choice == "never":
        return False
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def run(args: argparse.Namespace) -> int:
    """Run the command; see the module docstring."""
    from tablesim.games.katamino import (
        Problem,
        count_distinct,
        difficulty,
        enumerate_solutions,
        hint,
        solve_count,
    )

    if args.show is not None and args.show < 1:
        raise UsageError(f"--show {args.show}: must be at least 1")
    if args.partial and not args.hint:
        raise UsageError("--partial goes with --hint")
    if args.hint and not args.partial:
        raise UsageError("--hint needs --partial FILE (the board drawn with the pieces placed)")
    target = read_board(args.board)
    problem = Problem(target, args.pieces, straight_horizontal=args.straight_horizontal)
    check_search_size(target.size, len(problem.pieces), f"--board {args.board[:200]}")
    colour = _use_colour(args.color) and not args.json
    out: dict = {
        "board": target.describe(),
        "pieces": [p.name for p in problem.pieces],
        "straight_horizontal": problem.straight_horizontal,
    }
    text: list[str] = []
    head = f"{target.describe()} with {len(problem.pieces)} pieces"
    if not problem.area_matches:  # bad input (exit 2), as `katamino assemble` says it
        advice = "; ".join(_fit_advice(problem, target, args))
        raise UsageError(
            f"{head}: the pieces cover {sum(p.size for p in problem.pieces)} cells, "
            f"the board has {target.size}: no solution (the areas must match)"
            + (f"; {advice}" if advice else "")
        )

    if args.hint or not args.count:
        from tablesim.games.katamino.render import draw  # the drawings: not needed to count
    if args.hint:
        from tablesim.games.katamino.partial import parse_partial

        placed = parse_partial(_read(Path(args.partial), "--partial"), problem, args.partial)
        h = hint(problem, placed=placed, backend=args.backend)
        out["count"] = h.completions
        out["hint"] = h.to_dict()
        text.append(draw(target, placed, colour=colour))
        if not h.solvable:
            why = f" (remove {', '.join(h.culprits)} to make it solvable)" if h.culprits else ""
            text.append(f"not solvable: {h.reason}{why}")
        elif h.placement is None:
            text.append("complete")
        else:
            text.append(
                f"solvable ({h.completions} completions); hint: place {h.placement.name} on "
                + " ".join(f"({x},{y},{z})" for x, y, z in h.placement.cells)
            )
            text.append(draw(target, [*placed, h.placement], colour=colour))
        return _finish(args, out, text, 0 if h.solvable else 1)

    if args.difficulty:
        d = difficulty(problem, backend=args.backend)
        out["count"] = d.solutions
        out["difficulty"] = d.to_dict()
        score = "none" if d.score is None else f"{d.score:.2f}"
        text.append(
            f"{head}: {d.solutions} solutions, {d.nodes} nodes ({d.nodes_to_first} to the "
            f"first), {d.forced_moves}/{d.steps} forced moves; score {score}: {d.level}"
        )
        return _finish(args, out, text, 0 if d.solutions else 1)

    if args.distinct:
        res = count_distinct(problem, backend=args.backend)
        out["distinct"] = res.distinct
        out["group_order"] = res.group_order
    else:
        res = solve_count(problem, backend=args.backend)
    out["count"] = res.count
    summary = f"{head}: {res.count} solutions"
    if args.distinct:
        summary += f", {res.distinct} distinct up to {res.group_order} symmetries"
    if problem.area_matches:
        text.append(summary)
    if not args.count and res.count:
        limit = None if args.all else (args.show or 1)
        sols = list(enumerate_solutions(problem, distinct=args.distinct, limit=limit,
                                        backend=args.backend))  # fmt: skip
        out["solutions"] = [
            dict(s.to_dict(), grid=draw(target, s.pieces).split("\n")) for s in sols
        ]
        for k, s in enumerate(sols, 1):
            text.append(f"solution {k}:\n" + draw(target, s.pieces, colour=colour))
    return _finish(args, out, text, 0 if res.count else 1)


def _fit_advice(problem, target, args: argparse.Namespace) -> list[str]:  # noqa: ANN001
    """What to pass instead when the pieces' area differs from the board's."""
    from tablesim.games.katamino.fit import fitting_subset

    area = sum(p.size for p in problem.pieces)
    if area < target.size:
        return [f"add pieces covering {target.size - area} more cells, or use a smaller board"]
    fit = fitting_subset(target, problem.pieces, straight_horizontal=problem.straight_horizontal,
                         backend=args.backend)  # fmt: skip
    if fit is None:
        return [f"no subset of these pieces covers exactly {target.size} cells"]
    how = "solvable" if fit.solvable else "same area, not checked"
    return [f"a subset that fits ({how}): --pieces {fit.spec}"]


def _finish(args: argparse.Namespace, out: dict, text: list[str], code: int) -> int:
    if args.json:
        print(canonical_json(out))
    else:
        print("\n\n".join(text))
    return code
