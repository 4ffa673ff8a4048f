"""Export every piece of a catalogue as one file per piece: GLB, OBJ, STL or URDF.

Files are written into a hidden temporary directory inside the output directory and moved into
place only when every piece has been written, so a failure leaves no half-written set. The move
is one step against Ctrl-C and SIGTERM: a file it replaces (``force``) is first linked beside
the new ones, and a signal or a failure while the set moves in puts every old file back, so
the folder holds the old set or the new one, never a mix. Only SIGKILL (or a power cut) in the
moves themselves, a few renames long, can leave a mix; the hidden folder it leaves is removed
by the next export there.

Mesh formats (GLB, OBJ, STL) hold the face-culled mesh of :func:`tablesim.meshes.polycube.piece_mesh`
in the piece frame (metres). OBJ and STL keep the frame's z up; GLB is turned to glTF's
y up (:data:`Z_UP_TO_Y_UP`: x stays, z becomes y, y becomes -z), so Blender, three.js and
every glTF viewer show pieces upright. OBJ carries the colour as
``v x y z r g b`` and never a material (.mtl) file. URDF describes one link: the exact mass,
centre of mass and full inertia tensor (``tablesim.games.polycubes.mass_properties``) and one ``<box>``
per box of ``tablesim.games.polycubes.merge_into_boxes`` for both collision and visual, so a URDF needs
no mesh file beside it.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import numpy as np

from tablesim.games.polycubes import (
    Catalogue,
    Piece,
    PieceError,
    PieceSizes,
    catalogue_names,
    get_catalogue,
    mass_properties,
    merge_into_boxes,
)
from tablesim.meshes import FORMATS
from tablesim.meshes.polycube import hex_to_rgba, piece_mesh

__all__ = [
    "FORMATS",
    "Z_UP_TO_Y_UP",
    "ExportError",
    "export_catalogue",
    "piece_bytes",
    "safe_file_stem",
    "urdf_text",
]


class ExportError(ValueError):
    """Bad export input: unknown catalogue or format, or an output path that is not a directory."""


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_RESERVED = {"CON", "PRN", "AUX", "NUL"} | {f"{d}{i}" for d in ("COM", "LPT") for i in range(1, 10)}


def safe_file_stem(name: str) -> str:
    """A file name stem for a piece name: letters, digits, ``.``, ``_`` and ``-`` only.

    Other runs of characters become ``_``; leading dots are dropped (no hidden files); names
    reserved on Windows (``CON``, ``NUL``, ...) get a leading ``_``; empty gives ``piece``.
    """
    stem = _UNSAFE.sub("_", name).lstrip(".") or "piece"
    if stem.split(".")[0].upper() in _RESERVED:
        stem = "_" + stem
    return stem


def _file_stems(pieces: tuple[Piece, ...]) -> list[str]:
    """Safe stems, unique even on case-insensitive file systems (``_2``, ``_3`` on a clash)."""
    seen: set[str] = set()
    stems = []
    for p in pieces:
        base = stem = safe_file_stem(p.name)
        n = 1
        while stem.casefold() in seen:
            n += 1
            stem = f"{base}_{n}"
        seen.add(stem.casefold())
        stems.append(stem)
    return stems


def _num(x: float) -> str:
    """Shortest text that reads back as the same double."""
    return repr(float(x))


def _vec(v) -> str:
    return " ".join(_num(x) for x in v)


def urdf_text(piece: Piece, edge: float, density: float) -> str:
    """URDF of one piece: a robot named after the piece with one link ``piece``.

    The link frame is the piece frame (cell ``(i, j, k)`` spans ``[i, i+1] x ... * edge``).
    ``<inertial>``: origin at the centre of mass, mass (kg) and the full inertia tensor about
    the centre of mass (kg m^2, off-diagonal entries as tensor entries, ixy = -sum m x y).
    ``<collision>`` and ``<visual>``: one ``<box>`` per box of ``merge_into_boxes``, origin at
    the box centre; the visuals use one material of the piece colour.
    """
    mp = mass_properties(piece.cells, edge, density)
    rgba = hex_to_rgba(piece.color) / 255.0
    robot = ET.Element("robot", name=piece.name)
    robot.append(
        ET.Comment(
            f" tablesim piece {piece.name!r} (label {piece.label!r}): {piece.size} cubes of "
            f"{_num(edge)} m, density {_num(density)} kg/m^3 "
        )
    )
    material = ET.SubElement(robot, "material", name=f"{piece.name}-colour")
    ET.SubElement(material, "color", rgba=_vec(rgba))
    link = ET.SubElement(robot, "link", name="piece")
    inertial = ET.SubElement(link, "inertial")
    ET.SubElement(inertial, "origin", xyz=_vec(mp.com), rpy="0 0 0")
    ET.SubElement(inertial, "mass", value=_num(mp.mass))
    inertia = mp.inertia
    ET.SubElement(
        inertial,
        "inertia",
        ixx=_num(inertia[0, 0]),
        ixy=_num(inertia[0, 1]),
        ixz=_num(inertia[0, 2]),
        iyy=_num(inertia[1, 1]),
        iyz=_num(inertia[1, 2]),
        izz=_num(inertia[2, 2]),
    )
    boxes = merge_into_boxes(piece.cells)
    for tag in ("visual", "collision"):
        for box in boxes:
            element = ET.SubElement(link, tag)
            ET.SubElement(element, "origin", xyz=_vec(c * edge for c in box.centre()), rpy="0 0 0")
            geometry = ET.SubElement(element, "geometry")
            ET.SubElement(geometry, "box", size=_vec(s * edge for s in box.size))
            if tag == "visual":
                ET.SubElement(element, "material", name=f"{piece.name}-colour")
    ET.indent(robot)
    return '<?xml version="1.0"?>\n' + ET.tostring(robot, encoding="unicode") + "\n"


Z_UP_TO_Y_UP = np.array(
    [[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, -1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]]
)
"""The rotation (4 x 4, -90 degrees about x) from the table's z-up frame to glTF's y-up one:
``(x, y, z) -> (x, z, -y)``; right-handed both sides (glTF 2.0, section 3.4)."""


def _glb(piece: Piece, cube: str, config: PieceSizes) -> bytes:
    from trimesh.exchange.gltf import export_glb

    mesh = piece_mesh(piece, config, cube=cube).copy()
    mesh.apply_transform(Z_UP_TO_Y_UP)
    return export_glb(mesh)


def _obj(piece: Piece, cube: str, config: PieceSizes) -> bytes:
    from trimesh.exchange.obj import export_obj

    # No texture and no resolver: trimesh then never writes or references a .mtl file.
    text = export_obj(
        piece_mesh(piece, config, cube=cube),
        include_normals=False,
        include_color=True,
        include_texture=False,
        return_texture=False,
        write_texture=False,
        resolver=None,
        header=f"tablesim piece {piece.name} (metres, z up)",
    )
    return text.encode("utf-8")


UNITS: dict[str, float] = {"m": 1.0, "mm": 1000.0}
"""STL length units (``--units``): STL files carry no unit; slicers assume millimetres, CAD
and physics tools often metres."""


def _stl(piece: Piece, cube: str, config: PieceSizes, units: str = "m") -> bytes:
    from trimesh.exchange.stl import export_stl

    mesh = piece_mesh(piece, config, cube=cube)
    if UNITS[units] != 1.0:
        mesh = mesh.copy()
        mesh.apply_scale(UNITS[units])
    return export_stl(mesh)


def _urdf(piece: Piece, cube: str, config: PieceSizes) -> bytes:
    return urdf_text(piece, config.cube_edge(cube), config.density).encode("utf-8")


_WRITERS: dict[str, Callable[[Piece, str, PieceSizes], bytes]] = {
    "glb": _glb,
    "obj": _obj,
    "stl": _stl,
    "urdf": _urdf,
}


def piece_bytes(
    piece: Piece, cube: str, fmt: str, config: PieceSizes | None = None, units: str = "m"
) -> bytes:
    """The file content of one piece in format ``fmt`` (one of :data:`FORMATS`); ``units``
    (:data:`UNITS`) for STL only, the other formats are metres by their specifications."""
    if fmt not in _WRITERS:
        raise ExportError(f"unknown format {fmt!r} (allowed: {', '.join(FORMATS)})")
    check_units(fmt, units)
    config = PieceSizes() if config is None else config
    if units != "m":  # STL (check_units): the one writer with a unit
        return _stl(piece, cube, config, units)
    return _WRITERS[fmt](piece, cube, config)


def check_units(fmt: str, units: str) -> None:
    """ExportError unless ``units`` is known and, when not metres, ``fmt`` is STL."""
    if units not in UNITS:
        raise ExportError(f"unknown units {units!r} (allowed: {', '.join(UNITS)})")
    if units != "m" and fmt != "stl":
        raise ExportError(f"units {units!r} apply to STL only ({fmt.upper()} is in metres)")


def _resolve(name: str | Catalogue) -> Catalogue:
    if isinstance(name, Catalogue):
        return name
    try:
        return get_catalogue(name)
    except PieceError:
        raise ExportError(
            f"unknown piece set {name!r} (known: {', '.join(catalogue_names())})"
        ) from None


def export_catalogue(
    name: str | Catalogue,
    fmt: str,
    out_dir: str | os.PathLike[str],
    config: PieceSizes | None = None,
    units: str = "m",
    *,
    force: bool = True,
) -> list[Path]:
    """Write one ``<piece>.<fmt>`` file per piece of a catalogue into ``out_dir``.

    Parameters
    ----------
    name : str or Catalogue
        Catalogue name (``tablesim.games.polycubes.catalogue_names()``) or a catalogue.
    fmt : str
        ``glb``, ``obj``, ``stl`` or ``urdf`` (also the file extension).
    out_dir : path
        Output directory, created if missing. Files of the same names are replaced (the
        command line refuses them without ``--force``); other files are left alone.
    config : PieceSizes, optional
        Cube edges and density (default ``PieceSizes()``, the real pieces; a scene's
        ``tablesim.sim.config.PhysicsConfig`` is one too).
    units : str
        ``m`` (default) or ``mm``: the length unit of STL files (:data:`UNITS`); other
        formats are metres only.
    force : bool
        Replace files of the same names (the default); False: a file of the set that exists
        when the set is moved in stops the export (FileExistsError, none of the set left).

    Returns
    -------
    list of Path
        The files written, in catalogue order; nothing else is written.

    Raises
    ------
    ExportError
        Unknown catalogue (the message lists the known ones) or format, or ``out_dir`` (or
        one of its parents) is not a directory.
    OSError
        Writing failed (then no file of the set has been moved into ``out_dir``).
    """
    config = PieceSizes() if config is None else config
    fmt_key = fmt.lower() if isinstance(fmt, str) else None
    if fmt_key not in _WRITERS:
        raise ExportError(f"unknown format {fmt!r} (allowed: {', '.join(FORMATS)})")
    check_units(fmt_key, units)
    catalogue = _resolve(name)
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ExportError(f"output path {str(out)!r} exists and is not a directory")
    created = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise ExportError(
            f"cannot create output directory {str(out)!r}: a parent is a file"
        ) from None

    stems = _file_stems(catalogue.pieces)
    targets = [out / f"{stem}.{fmt_key}" for stem in stems]
    blocked = [t.name for t in targets if t.is_dir()]
    if blocked:  # checked first: os.replace would fail halfway through the moves
        raise ExportError(f"cannot replace directories {blocked} in {str(out)!r} with files")
    from tablesim.games import interrupts
    from tablesim.games.outputs import clean_stale

    clean_stale(out)  # a set a killed export left behind (its process gone)
    # Hidden temp dir inside out_dir: same file system, so the moves below are renames.
    tmp: Path | None = None
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".tablesim-export-{os.getpid()}-", dir=out))
        staged = []
        for piece, target in zip(catalogue.pieces, targets, strict=True):
            path = tmp / target.name
            path.write_bytes(piece_bytes(piece, catalogue.cube, fmt_key, config, units))
            interrupts.check()  # trimesh swallows Ctrl-C/SIGTERM: raise them again here
            staged.append(path)
        with interrupts.deferred() as arrived:  # the set moves in whole, or not at all
            moved = _move_in(staged, targets, tmp / "old", force)
            if arrived:  # a signal came while the set moved in: put the old set back
                _roll_back(moved)
            else:
                shutil.rmtree(tmp, ignore_errors=True)  # the staged links and the old files
        if arrived:
            interrupts.note(arrived[-1])
            interrupts.check()  # raises (the CLI: exit 130/143)
            raise KeyboardInterrupt  # a handler that did not raise: still not done
    except BaseException:
        ours = [tmp] if tmp is not None else list(out.glob(f".tablesim-export-{os.getpid()}-*"))
        for folder in ours:  # a signal inside mkdtemp: the folder is made, its name not known
            shutil.rmtree(folder, ignore_errors=True)
        if created:
            with contextlib.suppress(OSError):  # only if still empty: never remove others' files
                out.rmdir()
        raise
    return targets


def _move_in(
    staged: list[Path], targets: list[Path], old: Path, force: bool
) -> list[tuple[Path, Path | None]]:
    """Move the finished files onto their targets; returns (target, its old file kept in
    ``old`` or None) per move. With ``force`` an existing regular file is first linked into
    ``old`` (so the set can be put back) and then replaced; without it each file is linked in,
    which fails when anything is at the target. Any failure puts back what was moved (the
    targets are as before) and raises."""
    from tablesim.games.outputs import refuse_special

    moved: list[tuple[Path, Path | None]] = []
    try:
        for path, target in zip(staged, targets, strict=True):
            if not force:  # never replacing: a file that appeared meanwhile stops the set
                os.link(path, target)
                moved.append((target, None))
                continue
            refuse_special(target)  # a device, FIFO or folder is never replaced
            saved = None
            if os.path.lexists(target):
                old.mkdir(exist_ok=True)
                saved = old / target.name
                os.link(target, saved, follow_symlinks=False)
            os.replace(path, target)
            moved.append((target, saved))
    except BaseException:
        _roll_back(moved)
        raise
    return moved


def _roll_back(moved: list[tuple[Path, Path | None]]) -> None:
    """Undo :func:`_move_in`'s moves: each old file back at its target, new targets removed."""
    for target, saved in reversed(moved):
        with contextlib.suppress(OSError):
            if saved is None:
                os.unlink(target)
            else:
                os.replace(saved, target)
