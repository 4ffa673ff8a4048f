"""``tablesim meshes``: meshes of the pieces (a command group; its one subcommand is ``export``).

``tablesim meshes export --set NAME --format glb|obj|stl|urdf --out DIR`` writes one file per
piece of a catalogue and prints the files written. trimesh is imported only when the command
runs, so ``tablesim --help`` stays fast.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tablesim.meshes import FORMATS
from tablesim.sim.cli import COMMAND_HELP


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``meshes`` group and its subcommands to the top-level subparsers."""
    group = subparsers.add_parser(
        "meshes",
        help=COMMAND_HELP["meshes"],
        description="Triangle meshes and URDF models of the pieces.",
    )
    group.set_defaults(func=lambda args: _group_help(group))
    sub = group.add_subparsers(dest="meshes_command", metavar="SUBCOMMAND")

    export = sub.add_parser(
        "export",
        help="write one file per piece of a set",
        description=(
            "Write one file per piece of a piece set into DIR (created if missing; files of "
            "this format already there are refused unless --force is given). GLB: the display "
            "mesh in metres, y up (glTF's convention). OBJ/STL: the display mesh in metres, "
            "z up. URDF: one link with exact mass and inertia, and boxes for collision and "
            "visual; PyBullet uses the file's inertia only when loaded with "
            "flags=pybullet.URDF_USE_INERTIA_FROM_FILE (else it recomputes it from the boxes)."
        ),
    )
    export.add_argument(
        "--set",
        dest="piece_set",
        required=True,
        metavar="NAME",
        help="piece set, e.g. kozo-standard, katamino-duo, pentominoes, soma",
    )
    export.add_argument("--format", dest="fmt", required=True, choices=FORMATS)
    export.add_argument("-o", "--out", required=True, metavar="DIR", help="output directory")
    export.add_argument(
        "--force", action="store_true", help="replace files of this format already in DIR"
    )
    export.add_argument(
        "--units",
        choices=("m", "mm"),
        default="m",
        help="STL length unit (default m; slicers assume mm); other formats are metres",
    )
    export.add_argument("-q", "--quiet", action="store_true", help="print only the file count")
    export.set_defaults(func=_export)


def _group_help(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _export(args: argparse.Namespace) -> int:
    from tablesim.meshes.export import ExportError, export_catalogue
    from tablesim.sim.cli import UsageError

    out = Path(args.out)
    there = sorted(p.name for p in out.glob(f"*.{args.fmt.lower()}")) if out.is_dir() else []
    if there and not args.force:
        raise UsageError(
            f"--out {args.out}: already holds {args.fmt.upper()} files ({', '.join(there[:4])}"
            f"{', ...' if len(there) > 4 else ''}); pass --force to replace them"
        )
    try:
        paths = export_catalogue(
            args.piece_set, args.fmt, args.out, units=args.units, force=args.force
        )
    except ExportError as exc:
        raise UsageError(str(exc)) from None
    except FileExistsError as exc:
        raise UsageError(
            f"--out {args.out}: {Path(str(exc.filename2 or exc.filename)).name} appeared while "
            "exporting; pass --force to replace it (none of the set was left)"
        ) from None
    except OSError as exc:
        raise UsageError(f"cannot write to {args.out!r}: {exc.strerror or exc}") from None
    summary = f"{len(paths)} {args.fmt.upper()} files written to {args.out}"
    if args.quiet:
        print(summary)
        return 0
    for path in paths:  # stdout: one path a line, for pipes
        print(path)
    print(summary, file=sys.stderr)
    return 0
