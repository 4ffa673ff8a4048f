"""Scene files: TOML in, a validated :class:`tablesim.sim.model.Scene` out.

The format is documented in ``scenes/README.md`` and described by the JSON Schema
``scenes/scene.schema.json``. In short::

    name = "two bars"
    unit = "kozo"              # positions in Kozo cube edges (17.8 mm); or katamino, balance, unit, mm
    [physics]
    friction = 0.45
    [base]
    kind = "kozo"              # the Kozo board; positions then start at the 3x3 grid's corner
    [[piece]]
    piece = "kozo-standard:3I"
    at = [0, 0, 0]             # or corner = [...]: the minimum corner of the posed piece
    rotate = [0, 0, 90]        # degrees, extrinsic x then y then z; or quaternion = [x, y, z, w]

:func:`load_scene` and :func:`parse_scene` check everything and raise :class:`InvalidSceneError`
listing **every** problem (key path, message, line) rather than stopping at the first: wrong types,
unknown keys, unknown pieces, non-finite numbers, TOML syntax, duplicate ids, pieces that overlap
each other and pieces below the table. Nothing here imports PyBullet.
"""

from __future__ import annotations

import difflib
import math
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

import numpy as np

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from tablesim.games.polycubes import CATALOGUES, Cells, PieceError, as_cells, catalogue_names
from tablesim.sim.config import MM, PhysicsConfig
from tablesim.sim.guard import LIMITS, MAX_PIECES
from tablesim.sim.input_problems import InputProblem, LineIndex, ProblemCollector, describe_value
from tablesim.sim.model import PosedBox, Scene, ScenePiece, quat_from_euler_deg

__all__ = [
    "CUBE_KINDS",
    "OVERLAP_TOLERANCE",
    "PHYSICS_KEYS",
    "UNITS",
    "InvalidSceneError",
    "InputProblem",
    "box_overlap",
    "check_geometry",
    "find_scene",
    "kozo_grid_origin",
    "load_scene",
    "parse_scene",
    "physics_from_table",
    "shipped_scene_names",
    "shipped_scene_path",
]

CUBE_KINDS: tuple[str, ...] = ("kozo", "balance", "katamino", "unit")
"""Cube kinds a piece can be made of (their edges are :class:`PhysicsConfig` settings)."""
UNITS: tuple[str, ...] = (*CUBE_KINDS, "mm")
"""Allowed values of the top-level ``unit``: a cube kind (its edge is the unit) or millimetres."""
OVERLAP_TOLERANCE = 0.01 * MM
"""Two pieces may interpenetrate by at most this much (m); touching faces are fine."""
BELOW_TABLE_TOLERANCE = 0.01 * MM
"""A piece may reach at most this far (m) below the table top z = 0."""
MAX_SECONDS = 600.0
"""Longest simulation window (s) a scene may ask for (as ``tablesim simulate --seconds``)."""

_LENGTH_KEYS: dict[str, str] = {
    "clearance_mm": "clearance",
    "kozo_cube_mm": "kozo_cube",
    "balance_cube_mm": "balance_cube",
    "katamino_cube_mm": "katamino_cube",
    "unit_cube_mm": "unit_cube",
    "kozo_board_mm": "kozo_board",
    "kozo_board_thickness_mm": "kozo_board_thickness",
    "kozo_square_mm": "kozo_square",
}
_LENGTH_FIELDS = frozenset(_LENGTH_KEYS.values())


def _physics_keys() -> dict[str, tuple[str, float]]:
    """Readable ``[physics]`` key -> (PhysicsConfig field, factor to SI).

    Lengths are given in millimetres (``*_mm``); every other field (friction, density in kg/m^3,
    gravity in m/s^2, and any field added to PhysicsConfig later) keeps its own name and SI unit.
    """
    out: dict[str, tuple[str, float]] = {k: (f, MM) for k, f in _LENGTH_KEYS.items()}
    for f in fields(PhysicsConfig):
        if f.name not in _LENGTH_FIELDS:
            out[f.name] = (f.name, 1.0)
    return dict(sorted(out.items()))


PHYSICS_KEYS: dict[str, tuple[str, float]] = _physics_keys()
"""Keys of the ``[physics]`` table: readable name -> (PhysicsConfig field, factor to SI)."""

_MIN_VALUES: dict[str, tuple[float, bool]] = {
    # field: (bound, strict) -- value must be > bound (strict) or >= bound
    "friction": (0.0, False),
    "density": (0.0, True),
    "gravity": (0.0, False),
    "clearance": (0.0, False),
}

_TOP_KEYS = (
    "name",
    "description",
    "unit",
    "seconds",
    "ground",
    "physics",
    "camera",
    "base",
    "piece",
    "judged",
)
_BASE_KEYS = ("kind", "id", "color")
_BASE_KINDS = ("kozo",)
_PIECE_KEYS = (
    "id",
    "piece",
    "cells",
    "cube",
    "box",
    "at",
    "corner",
    "rotate",
    "quaternion",
    "static",
    "color",
    "friction",
)
_COLOR_RE = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
_INLINE_COLOR = "#b08850"
_BOX_COLOR = "#9a9a9a"
_BASE_COLOR = "#d8c49a"


# ---------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------
class InvalidSceneError(ValueError):
    """A scene that cannot be loaded. ``problems`` lists every problem found, in file order, as
    :class:`InputProblem` pairs ``(key_path, message)`` with a ``line`` attribute; ``source`` is the
    file name (or ``<string>``)."""

    def __init__(self, source: str, problems: Sequence[InputProblem]) -> None:
        self.source = source
        self.problems: list[InputProblem] = list(problems)
        n = len(self.problems)
        lines = [f"{source}: {n} problem{'s' if n != 1 else ''}:"]
        for p in self.problems:
            where = f"{source}:{p.line}: " if p.line is not None else f"{source}: "
            lines.append(f"  {where}{p.path}: {p.message}")
        super().__init__("\n".join(lines))


# ---------------------------------------------------------------------------------------
# Physics
# ---------------------------------------------------------------------------------------
def _physics_value(
    col: ProblemCollector, key: str, value: Any, path: str
) -> tuple[str, float] | None:
    """Validate one readable physics setting; return (field, SI value)."""
    field_name, factor = PHYSICS_KEYS[key]
    v = col.number(value, path)
    if v is None:
        return None
    bound, strict = _MIN_VALUES.get(field_name, (0.0, True))
    if (strict and not v > bound) or (not strict and not v >= bound):
        col.add(path, f"must be {'>' if strict else '>='} {bound:g}, got {v:g}")
        return None
    limit = LIMITS.get(key)
    if limit is not None and (msg := limit.problem(v)) is not None:
        col.add(path, msg)
        return None
    return field_name, v * factor


def _read_physics(
    col: ProblemCollector,
    table: Mapping[str, Any],
    base: PhysicsConfig,
    path: str,
    si_names: bool,
) -> PhysicsConfig:
    """``base`` with the valid settings of ``table`` applied; problems go to ``col``."""
    allowed = list(PHYSICS_KEYS)
    si_fields = {f.name for f in fields(PhysicsConfig)} if si_names else set()
    values: dict[str, float] = {}
    for key, value in table.items():
        where = f"{path}.{key}"
        if key in PHYSICS_KEYS:
            got = _physics_value(col, key, value, where)
        elif key in si_fields:  # SI field name (e.g. clearance in metres)
            readable = next(k for k, (f, _) in PHYSICS_KEYS.items() if f == key)
            factor = PHYSICS_KEYS[readable][1]
            got = _physics_value(col, readable, value / factor if _is_num(value) else value, where)
        else:
            near = difflib.get_close_matches(key, allowed, n=1)
            hint = f"did you mean {near[0]!r}? " if near else ""
            col.add(where, f"unknown physics setting {key!r} ({hint}allowed: {', '.join(allowed)})")
            continue
        if got is not None:
            values[got[0]] = got[1]
    return base.with_overrides(**values)


def physics_from_table(
    table: Mapping[str, Any], base: PhysicsConfig | None = None, *, si_names: bool = True
) -> PhysicsConfig:
    """A :class:`PhysicsConfig`: ``base`` (default: the defaults) with readable settings applied
    (``friction``, ``density`` in kg/m^3, ``clearance_mm``, ``kozo_cube_mm``, ...; see
    :data:`PHYSICS_KEYS`).

    With ``si_names`` (the default, as for load-time overrides) PhysicsConfig field names in SI
    (``clearance``, ``kozo_cube``) are accepted too; scene files use the readable names only.
    Raises :class:`InvalidSceneError` listing every bad setting.
    """
    col = ProblemCollector(None)
    cfg = _read_physics(col, table, base or PhysicsConfig(), "physics", si_names)
    if col.problems:
        raise InvalidSceneError("<physics>", col.problems)
    return cfg


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def kozo_grid_origin(config: PhysicsConfig) -> np.ndarray:
    """World position (m) of the Kozo grid origin: the minimum corner of the 3x3 grid of squares
    (centred on the board, which is centred at the origin), at the board's top face."""
    s = config.square
    return np.array([-1.5 * s, -1.5 * s, config.kozo_board_thickness])


# ---------------------------------------------------------------------------------------
# Geometry checks
# ---------------------------------------------------------------------------------------
def box_overlap(a: PosedBox, b: PosedBox) -> float:
    """Penetration depth (m) of two oriented boxes by the separating-axis test.

    The result is the smallest overlap of the two boxes' projections over the 15 candidate
    axes (3 face normals of each box and the 9 edge cross products): positive when the boxes
    interpenetrate (by that much along the best axis), 0 when they touch, negative when a gap
    separates them.
    """
    ra, rb = np.asarray(a.rotation, float), np.asarray(b.rotation, float)
    d = np.asarray(b.centre, float) - np.asarray(a.centre, float)
    axes = [ra[:, i] for i in range(3)] + [rb[:, i] for i in range(3)]
    for i in range(3):
        for j in range(3):
            c = np.cross(ra[:, i], rb[:, j])
            n = float(np.linalg.norm(c))
            if n > 1e-9:  # parallel edges give no new axis
                axes.append(c / n)
    best = math.inf
    ha, hb = np.asarray(a.half, float), np.asarray(b.half, float)
    for ax in axes:
        pa = float(np.abs(ra.T @ ax) @ ha)
        pb = float(np.abs(rb.T @ ax) @ hb)
        best = min(best, pa + pb - abs(float(d @ ax)))
    return best


def _aabb(box: PosedBox) -> tuple[np.ndarray, np.ndarray]:
    ext = np.abs(np.asarray(box.rotation)) @ np.asarray(box.half)
    return box.centre - ext, box.centre + ext


def check_geometry(
    pieces: Sequence[ScenePiece],
    config: PhysicsConfig,
    *,
    ground: bool = True,
    tolerance: float = OVERLAP_TOLERANCE,
) -> list[tuple[int, str]]:
    """Geometric problems of posed pieces as ``(piece index, message)``.

    Overlaps: two pieces whose boxes interpenetrate by more than ``tolerance`` (pairs of static
    pieces are not checked: they never move, so a pedestal built from overlapping boxes is
    fine). Below the table: with ``ground``, any piece reaching below z = 0. Exact geometry (the
    clearance of :class:`PhysicsConfig` is the world's business).
    """
    out: list[tuple[int, str]] = []
    boxes = [p.world_boxes(config) for p in pieces]
    bounds = [[_aabb(b) for b in bs] for bs in boxes]
    if ground:
        for i, bs in enumerate(boxes):
            zmin = min(float(b.corners()[:, 2].min()) for b in bs)
            if zmin < -BELOW_TABLE_TOLERANCE:
                out.append((i, f"reaches z = {zmin / MM:.2f} mm, below the table top (z = 0)"))
    for j in range(len(pieces)):
        for i in range(j):
            if pieces[i].static and pieces[j].static:
                continue
            depth = -math.inf
            for bi, (lo_i, hi_i) in zip(boxes[i], bounds[i], strict=True):
                for bj, (lo_j, hi_j) in zip(boxes[j], bounds[j], strict=True):
                    if (lo_i > hi_j + tolerance).any() or (lo_j > hi_i + tolerance).any():
                        continue
                    depth = max(depth, box_overlap(bi, bj))
            if depth > tolerance:
                out.append(
                    (j, f"overlaps piece {pieces[i].id!r} by {depth / MM:.3f} mm "
                        f"(allowed: {tolerance / MM:g} mm; touching faces are fine)")
                )  # fmt: skip
    return out


# ---------------------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------------------
@dataclass
class _Draft:
    """A piece being built: everything but the final position."""

    index: int
    id: str | None
    id_from: str  # key path the id comes from (for messages)
    cells: Cells
    cube: str | None
    box: tuple[float, float, float] | None
    orientation: tuple[float, float, float, float]
    static: bool
    source: str
    color: str
    friction: float | None
    at: tuple[float, float, float] | None
    corner: tuple[float, float, float] | None


def _resolve_piece_ref(
    col: ProblemCollector, ref: Any, path: str
) -> tuple[str, Cells, str, str] | None:
    """``catalogue:piece`` -> (piece name, cells, cube kind, colour)."""
    s = col.string(ref, path)
    if s is None:
        return None
    if ":" not in s:
        col.add(path, f"expected 'catalogue:piece' (e.g. 'kozo-standard:4L'), got {s!r}")
        return None
    cat_name, piece_name = s.split(":", 1)
    cat = CATALOGUES.get(cat_name)
    if cat is None:
        col.add(
            path,
            f"unknown catalogue {cat_name!r} in {s!r} (catalogues: {', '.join(catalogue_names())})",
        )
        return None
    for pc in cat.pieces:
        if pc.name == piece_name:
            return pc.name, pc.cells, cat.cube, pc.color
    names = ", ".join(pc.name for pc in cat.pieces)
    col.add(path, f"unknown piece {s!r} (pieces of {cat_name}: {names})")
    return None


def _parse_cells(col: ProblemCollector, value: Any, path: str) -> Cells | None:
    if not isinstance(value, list) or not value:
        col.add(
            path,
            f"expected a non-empty array of [x, y, z] integer cells, got {describe_value(value)}",
        )
        return None
    from tablesim.games.limits import MAX_PIECE_CELLS

    if len(value) > MAX_PIECE_CELLS:
        col.add(path, f"{len(value)} cells; a piece has at most {MAX_PIECE_CELLS}")
        return None
    ok = True
    for i, c in enumerate(value):
        if not isinstance(c, list) or len(c) not in (2, 3):
            col.add(f"{path}[{i}]", f"expected [x, y, z] (or [x, y]), got {describe_value(c)}")
            ok = False
        elif any(isinstance(v, bool) or not isinstance(v, int) for v in c):
            col.add(f"{path}[{i}]", f"expected integer coordinates, got {c!r}")
            ok = False
    if not ok:
        return None
    try:
        return as_cells(value)
    except PieceError as exc:
        col.add(path, str(exc))
        return None


def _parse_orientation(
    col: ProblemCollector, t: Mapping[str, Any], path: str
) -> tuple[float, float, float, float] | None:
    if "rotate" in t and "quaternion" in t:
        col.add(f"{path}.quaternion", "give either rotate or quaternion, not both")
        return None
    if "rotate" in t:
        r = col.vector(t["rotate"], f"{path}.rotate")
        return None if r is None else quat_from_euler_deg(*r)
    if "quaternion" in t:
        q = col.vector(t["quaternion"], f"{path}.quaternion", 4)
        if q is None:
            return None
        n = math.sqrt(sum(v * v for v in q))
        if abs(n - 1.0) > 1e-3:
            col.add(
                f"{path}.quaternion", f"expected a unit quaternion [x, y, z, w], got norm {n:.4f}"
            )
            return None
        return tuple(v / n for v in q)  # type: ignore[return-value]
    return (0.0, 0.0, 0.0, 1.0)


def _parse_piece(col: ProblemCollector, t: Any, i: int, default_cube: str | None) -> _Draft | None:
    path = f"piece[{i}]"
    if not isinstance(t, dict):
        col.add(path, f"expected a table ([[piece]]), got {describe_value(t)}")
        return None
    n0 = len(col.problems)
    col.keys(t, _PIECE_KEYS, path)

    kinds = [k for k in ("piece", "cells", "box") if k in t]
    cells: Cells | None = ((0, 0, 0),)
    cube: str | None = None
    box: tuple[float, float, float] | None = None
    source, color, name = "inline", _INLINE_COLOR, None
    if len(kinds) != 1:
        got = "none" if not kinds else " and ".join(kinds)
        col.add(path, f"give exactly one of piece, cells or box (got {got})")
        cells = None
    elif kinds[0] == "piece":
        ref = _resolve_piece_ref(col, t["piece"], f"{path}.piece")
        if ref is None:
            cells = None
        else:
            name, cells, cube, color = ref
            source = t["piece"]
    elif kinds[0] == "cells":
        cells = _parse_cells(col, t["cells"], f"{path}.cells")
        cube = default_cube
        if cube is None and "cube" not in t:
            col.add(
                f"{path}.cube",
                f"required with cells when unit = 'mm' (allowed: {', '.join(CUBE_KINDS)})",
            )
    else:
        size = col.vector3(t["box"], f"{path}.box")
        if size is not None and min(size) <= 0:
            col.add(f"{path}.box", f"sizes must be > 0, got {list(size)}")
            size = None
        box = size
        source, color = "box", _BOX_COLOR
        if "cube" in t:
            col.add(f"{path}.cube", "not used with box (its size is in scene units)")

    if "cube" in t and kinds in (["piece"], ["cells"]):
        c = col.string(t["cube"], f"{path}.cube", CUBE_KINDS)
        if c is not None:
            cube = c

    at = corner = None
    if "at" in t and "corner" in t:
        col.add(f"{path}.corner", "give either at or corner, not both")
    elif "at" in t:
        at = col.vector3(t["at"], f"{path}.at")
    elif "corner" in t:
        corner = col.vector3(t["corner"], f"{path}.corner")
    else:
        col.add(path, "missing position: give at = [x, y, z] (or corner = [x, y, z])")

    orientation = _parse_orientation(col, t, path)
    static = box is not None or "box" in t
    if "static" in t:
        s = col.boolean(t["static"], f"{path}.static")
        static = bool(s) if s is not None else static
    if "color" in t:
        color = col.color(t["color"], f"{path}.color") or color
    friction = None
    if "friction" in t:
        friction = col.number(t["friction"], f"{path}.friction")
        if friction is not None and friction < 0:
            col.add(f"{path}.friction", f"must be >= 0, got {friction:g}")
            friction = None
        elif friction is not None and (msg := LIMITS["friction"].problem(friction)):
            col.add(f"{path}.friction", msg)
            friction = None
    pid, id_from = name, f"{path}.piece"
    if "id" in t:
        pid = col.string(t["id"], f"{path}.id")
        id_from = f"{path}.id"
        if pid is not None and not pid.strip():
            col.add(f"{path}.id", "must not be empty")
            pid = None
    elif name is None:
        pid, id_from = f"{source}-{i}", path

    if len(col.problems) > n0 or cells is None or orientation is None:
        return None
    return _Draft(
        i, pid, id_from, cells, cube, box, orientation, static, source, color, friction, at, corner
    )


def _place(draft: _Draft, config: PhysicsConfig, scale: float, origin: np.ndarray) -> ScenePiece:
    box_m = None if draft.box is None else tuple(float(v) * scale for v in draft.box)
    piece = ScenePiece(
        id=draft.id or f"piece-{draft.index}",
        cells=draft.cells,
        cube=draft.cube,
        position=(0.0, 0.0, 0.0),
        orientation=draft.orientation,
        static=draft.static,
        source=draft.source,
        color=draft.color,
        box=box_m,  # type: ignore[arg-type]
        friction=draft.friction,
    )
    if draft.at is not None:
        pos = origin + scale * np.asarray(draft.at, dtype=float)
    else:
        lo = np.min([b.corners().min(axis=0) for b in piece.world_boxes(config)], axis=0)
        pos = origin + scale * np.asarray(draft.corner, dtype=float) - lo
    return replace(piece, position=(float(pos[0]), float(pos[1]), float(pos[2])))


_CAMERA_VECTORS = ("pos", "look_at", "target")
_CAMERA_NUMBERS: dict[str, tuple[float, float]] = {
    "distance": (1e-3, 100.0),
    "yaw": (-3600.0, 3600.0),
    "pitch": (-90.0, 90.0),
    "fov": (1.0, 170.0),
    "fill": (0.01, 1.0),
}
_CAMERA_KEYS = (*_CAMERA_VECTORS, *_CAMERA_NUMBERS)
_CAMERA_REACH_M = 100.0


def _read_camera(col: ProblemCollector, table: Mapping[str, Any]) -> dict[str, Any]:
    """The ``[camera]`` table, checked (keys, 3-vectors within 100 m, numbers in range)."""
    col.keys(table, _CAMERA_KEYS, "camera")
    out: dict[str, Any] = {}
    for key, value in table.items():
        path = f"camera.{key}"
        if key in _CAMERA_VECTORS:
            v = col.vector(value, path)
            if v is not None and max(abs(c) for c in v) > _CAMERA_REACH_M:
                col.add(path, f"must be within {_CAMERA_REACH_M:g} m of the origin, got {list(v)}")
            elif v is not None:
                out[key] = list(v)
        elif key in _CAMERA_NUMBERS:
            x = col.number(value, path)
            low, high = _CAMERA_NUMBERS[key]
            if x is not None and not low <= x <= high:
                col.add(path, f"must be in [{low:g}, {high:g}], got {x:g}")
            elif x is not None:
                out[key] = x
    return out


def _placement_problems(
    piece: ScenePiece, draft: _Draft, config: PhysicsConfig
) -> list[tuple[str, str]]:
    """Limits of tablesim.sim.guard.LIMITS a placed piece breaks: box sizes, on the table, height."""
    out: list[tuple[str, str]] = []
    here = f"piece[{draft.index}]"
    if piece.box is not None:
        lim = LIMITS["box_m"]
        for side in piece.box:
            if (msg := lim.problem(side)) is not None:
                out.append((f"{here}.box", f"each side {msg}"))
                break
    pos = f"{here}.{'at' if draft.at is not None else 'corner'}"
    with np.errstate(all="ignore"):  # absurd inputs overflow to inf, which is reported
        boxes = piece.world_boxes(config)
        lo = np.min([b.corners().min(axis=0) for b in boxes], axis=0)
        hi = np.max([b.corners().max(axis=0) for b in boxes], axis=0)
    reach = float(max(np.abs(lo[:2]).max(), np.abs(hi[:2]).max()))
    if not reach <= LIMITS["x_m"].high:
        out.append((pos, f"reaches {reach:g} m from the table centre; the table is 4 m "
                         f"square (x and y within +-{LIMITS['x_m'].high:g} m)"))  # fmt: skip
    zlim = LIMITS["z_m"]
    if not (zlim.low <= float(lo[2]) and float(hi[2]) <= zlim.high):
        out.append((pos, f"spans z = {float(lo[2]):g} to {float(hi[2]):g} m; pieces must lie "
                         f"within z = {zlim.low:g} to {zlim.high:g} m"))  # fmt: skip
    return out


def _build(
    data: dict[str, Any],
    source: str,
    text: str | None,
    overrides: Mapping[str, Any] | None,
    default_name: str,
) -> Scene:
    col = ProblemCollector(LineIndex(text) if text is not None else None)
    col.keys(data, _TOP_KEYS, "")

    name = default_name
    if "name" in data:
        name = col.string(data["name"], "name") or name
        if data["name"] == "":
            col.add("name", "must not be empty")
    description = ""
    if "description" in data:
        description = col.string(data["description"], "description") or ""
    unit = "kozo"
    if "unit" in data:
        unit = col.string(data["unit"], "unit", UNITS) or unit
    seconds = 5.0
    if "seconds" in data:
        s = col.number(data["seconds"], "seconds")
        if s is not None and not 0 < s <= MAX_SECONDS:
            col.add("seconds", f"must be > 0 and at most {MAX_SECONDS:g} s, got {s:g}")
        elif s is not None:
            seconds = s
    ground = True
    if "ground" in data:
        g = col.boolean(data["ground"], "ground")
        ground = ground if g is None else g
    camera: dict[str, Any] = {}
    if "camera" in data:
        if isinstance(data["camera"], dict):
            camera = _read_camera(col, data["camera"])
        else:
            col.add("camera", f"expected a table, got {describe_value(data['camera'])}")

    config = PhysicsConfig()
    if "physics" in data:
        if isinstance(data["physics"], dict):
            config = _read_physics(col, data["physics"], config, "physics", si_names=False)
        else:
            col.add("physics", f"expected a table, got {describe_value(data['physics'])}")
    if overrides:
        config = _read_physics(col, overrides, config, "overrides", si_names=True)

    base_piece: ScenePiece | None = None
    origin = np.zeros(3)
    if "base" in data:
        b = data["base"]
        if not isinstance(b, dict):
            col.add("base", f"expected a table, got {describe_value(b)}")
        else:
            col.keys(b, _BASE_KEYS, "base")
            kind = col.string(b.get("kind"), "base.kind", _BASE_KINDS) if "kind" in b else None
            if "kind" not in b:
                col.add("base", f"missing kind (allowed: {', '.join(_BASE_KINDS)})")
            bid = "base"
            if "id" in b:
                bid = col.string(b["id"], "base.id") or bid
            bcolor = col.color(b["color"], "base.color") if "color" in b else None
            if kind == "kozo":
                side, thick = config.kozo_board, config.kozo_board_thickness
                base_piece = ScenePiece(
                    id=bid,
                    cells=((0, 0, 0),),
                    cube=None,
                    position=(-side / 2, -side / 2, 0.0),
                    static=True,
                    source="base:kozo",
                    color=bcolor or _BASE_COLOR,
                    box=(side, side, thick),
                )
                origin = kozo_grid_origin(config)

    scale = MM if unit == "mm" else config.cube_edge(unit)
    default_cube = None if unit == "mm" else unit
    drafts: list[_Draft] = []
    raw = data.get("piece", [])
    if not isinstance(raw, list):
        col.add("piece", f"expected [[piece]] tables, got {describe_value(raw)}")
        raw = []
    if len(raw) > MAX_PIECES:
        col.add("piece", f"{len(raw)} pieces; at most {MAX_PIECES} in one scene")
        raw = []
    for i, t in enumerate(raw):
        d = _parse_piece(col, t, i, default_cube)
        if d is not None:
            drafts.append(d)

    pieces: list[ScenePiece] = []
    paths: list[str] = []
    if base_piece is not None:
        pieces.append(base_piece)
        paths.append("base")
    seen: dict[str, str] = {base_piece.id: "base"} if base_piece is not None else {}
    misplaced = False
    for d in drafts:
        p = _place(d, config, scale, origin)
        if p.id in seen:
            how = (
                ""
                if d.id_from.endswith(".id")
                else " (taken from the catalogue; give an explicit id)"
            )
            col.add(d.id_from, f"duplicate id {p.id!r}{how}, already used by {seen[p.id]}")
        else:
            seen[p.id] = f"piece[{d.index}]"
        pieces.append(p)
        paths.append(f"piece[{d.index}].{'at' if d.at is not None else 'corner'}")
        for where, message in _placement_problems(p, d, config):
            col.add(where, message)
            misplaced = True

    # overlaps of pieces off the table or of absurd size mean nothing (and overflow)
    for k, message in [] if misplaced else check_geometry(pieces, config, ground=ground):
        col.add(paths[k], message)
    judged = _read_judged(col, data["judged"], pieces) if "judged" in data else None

    if col.problems:
        raise InvalidSceneError(source, sorted(col.problems, key=_problem_order))
    return Scene(
        name=name,
        pieces=tuple(pieces),
        physics=config,
        description=description,
        seconds=seconds,
        ground=ground,
        camera=camera,
        source=source,
        judged=judged,
    )


def _read_judged(
    col: ProblemCollector, value: Any, pieces: Sequence[ScenePiece]
) -> tuple[str, ...] | None:
    """The top-level ``judged``: the ids of the pieces the topple rule judges
    (:attr:`tablesim.sim.model.Scene.judged`), a non-empty array of distinct ids of the scene's
    dynamic pieces, in any order (kept as written); None after reporting every problem."""
    dynamic = [p.id for p in pieces if not p.static]
    static = {p.id for p in pieces if p.static}
    if not isinstance(value, list):
        col.add("judged", f"expected an array of piece ids, got {describe_value(value)}")
        return None
    if not value:
        col.add("judged", "must name one or more pieces (leave the key out to judge every piece)")
        return None
    ok = True
    seen: set[str] = set()
    for k, pid in enumerate(value):
        path = f"judged[{k}]"
        if col.string(pid, path) is None:
            ok = False
        elif pid in seen:
            col.add(path, f"{pid!r} is named twice")
            ok = False
        elif pid in static:
            col.add(path, f"{pid!r} is static: only a dynamic piece can fall")
            ok = False
        elif pid not in dynamic:
            near = difflib.get_close_matches(pid, dynamic, n=1)
            hint = f"did you mean {near[0]!r}? " if near else ""
            col.add(path, f"no dynamic piece {pid!r} ({hint}dynamic pieces: {', '.join(dynamic)})")
            ok = False
        else:
            seen.add(pid)
    return tuple(value) if ok else None


def _problem_order(p: InputProblem) -> int:
    """Sort key: file order (problems without a line last; the sort is stable)."""
    return p.line if p.line is not None else 10**9


def parse_scene(
    text: str,
    source: str = "<string>",
    overrides: Mapping[str, Any] | None = None,
    *,
    name: str | None = None,
) -> Scene:
    """Parse and validate TOML text into a :class:`Scene` (InvalidSceneError listing every
    problem). ``overrides`` are physics settings applied over the file's ``[physics]``; ``name``
    is the default scene name when the text has none."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = re.search(r"line (\d+)", msg)
        line = int(m.group(1)) if m else None
        if line is None and "end of document" in msg:
            line = max(1, len(text.splitlines()))
        raise InvalidSceneError(
            source, [InputProblem("toml", f"invalid TOML: {msg}", line)]
        ) from None
    except RecursionError:
        raise InvalidSceneError(source, [InputProblem("toml", "nested too deeply", 1)]) from None
    except ValueError as exc:  # an integer of over 4300 digits (Python's int-str limit)
        raise InvalidSceneError(source, [InputProblem("toml", f"invalid TOML: {exc}")]) from None
    return _build(data, source, text, overrides, name or "scene")


def load_scene(path: str | Path, overrides: Mapping[str, Any] | None = None) -> Scene:
    """Load and validate a scene file (InvalidSceneError listing every problem).

    ``overrides``: physics settings applied over the file's ``[physics]`` table, in the same
    readable form (``friction``, ``clearance_mm``, ...) or as PhysicsConfig field names in SI
    (``clearance``); they change sizes before positions are computed.
    """
    p = Path(path)
    return parse_scene(read_text_file(p, InvalidSceneError), str(p), overrides, name=p.stem)


def read_text_file(path: Path, error: Any, kind: str = "scene") -> str:
    """The UTF-8 text of ``path`` (scenes, sweep specs); ``error(source, problems)`` -- an
    InvalidSceneError-like class -- for an unreadable, binary or non-UTF-8 (e.g. UTF-16) file,
    or one over its ``kind``'s size limit (:data:`tablesim.games.inputs.MAX_INPUT_BYTES`)."""
    from tablesim.games.inputs import InputTooLargeError, read_limited

    try:
        data = read_limited(path, kind)
    except OSError as exc:
        raise error(
            str(path), [InputProblem("file", f"cannot read: {exc.strerror or exc}")]
        ) from None
    except InputTooLargeError as exc:
        raise error(str(path), [InputProblem("file", str(exc).split(": ", 1)[-1])]) from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data:
        kind = "UTF-16 text" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "binary data"
        raise error(
            str(path),
            [InputProblem("file", f"not a UTF-8 text file ({kind}); save it as UTF-8 TOML")],
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise error(
            str(path),
            [
                InputProblem(
                    "file", f"not UTF-8 text (byte {exc.start}); save it as UTF-8 TOML", line
                )
            ],
        ) from None
    return text.removeprefix("\ufeff")


# ---------------------------------------------------------------------------------------
# Shipped scenes
# ---------------------------------------------------------------------------------------
def shipped_scene_names() -> list[str]:
    """Names (file stems) of the scenes shipped with tablesim, sorted (never the current
    folder's ``scenes/``: see :mod:`tablesim.data`)."""
    from tablesim.data import scene_names

    return scene_names()


def shipped_scene_path(name: str) -> Path:
    """Path of a shipped scene (``kozo-tower`` or ``kozo-tower.toml``); ValueError listing the
    shipped names if there is none."""
    from tablesim.data import scene_file

    return Path(str(scene_file(name)))


def find_scene(ref: str, base_dir: Path | None = None) -> Path | None:
    """The file a scene reference names: a scene file (a relative one under ``base_dir``, by
    default the working directory), else the shipped scene of that name (``kozo-tower`` or
    ``kozo-tower.toml``); None when it is neither. The one lookup of scene references."""
    path = Path(ref)
    if base_dir is not None and not path.is_absolute():
        path = base_dir / path
    if path.is_file():
        return path
    bare = Path(ref)
    name = bare.name[:-5] if bare.name.endswith(".toml") else bare.name
    if str(bare.parent) in ("", ".") and name in shipped_scene_names():
        return shipped_scene_path(name)
    return None


def resolve_scene(ref: str) -> Scene:
    """The scene ``ref`` names: a scene file, or a shipped scene by name (``kozo-tower``).
    InvalidSceneError when it is neither (listing the shipped names) or does not load."""
    path = find_scene(ref)
    if path is None:
        raise SceneNotFoundError(ref)
    return load_scene(path)


class SceneNotFoundError(InvalidSceneError):
    """A scene reference that is neither a file nor a shipped scene's name (one line)."""

    def __init__(self, ref: str) -> None:
        message = (
            f"no such file, and no shipped scene of that name "
            f"(shipped: {', '.join(shipped_scene_names())})"
        )
        self.source = ref
        self.problems = [InputProblem("scene", message)]
        ValueError.__init__(self, f"{ref}: {message}")
