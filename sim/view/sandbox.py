"""The free-building sandbox: ``tablesim view SCENE --sandbox``.

Pick up any piece of a catalogue (Kozo, Katamino Duo, the balance cubes) or of the table, move
it with the mouse, turn it, let it go and watch it settle in display physics; undo, reset,
save the table as a scene TOML that ``tablesim simulate`` reads. The table is a
:class:`tablesim.sim.model.Scene` value: every pick and drop makes a new one (the settled poses of the
pieces left, plus the piece let go) and the display world is rebuilt from it, so undo is the
previous value and a save writes exactly what is shown.

Mouse and keys (also in the on-screen help):

- ``n`` / ``b``: next / previous piece of the palette; ``p``: take it in hand;
- left click on a loose piece of the table: take it in hand; left click with a piece in hand:
  let it go there (it is put down 2 mm above what is under the pointer and falls);
- ``r`` / ``e``: turn the piece in hand 90 degrees about the vertical, ``t``: tip it over
  90 degrees; ``x``: put it back (no change);
- ``u``: undo the last take or let-go; ``c``: reset to the scene as loaded;
- ``s``: save the table to the scene file (``--save``, default ``sandbox.toml``);
- ``space``: judge the table as it stands (the verdict, as ``tablesim simulate``);
- camera as everywhere (right-drag, wheel, arrows, ``home``), ``f1`` help, ``escape`` quit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from tablesim.games.core import counted
from tablesim.games.quat import quat_mul
from tablesim.sim.view.app import pick, runs
from tablesim.sim.view.layout import Floats, TableLayout
from tablesim.sim.view.scene_app import SceneApp

__all__ = [
    "DROP_GAP",
    "PALETTE_CATALOGUES",
    "SandboxApp",
    "contents",
    "palette",
    "scene_toml",
    "separate",
]

PALETTE_CATALOGUES: tuple[str, ...] = ("kozo-standard", "katamino-duo", "kozo-balance")
"""Catalogues offered in the sandbox's palette, in this order."""
DROP_GAP = 0.002
"""Metres between the lowest point of a piece let go and what is under the pointer."""
HELD = "held"
"""Layout id of the piece in hand."""

_HELP = [
    "n / b: next / previous palette piece, p: take it",
    "click a piece: take it, click again: let it go",
    "r / e: turn, t: tip over, x: put back",
    "u: undo, c: reset, s: save the table, space: judge it",
]
_CAMERA_HELP = (
    "right-drag orbit, middle-drag pan, wheel zoom\nhome reset view, f1 help, escape quit"
)


def palette() -> list[tuple[str, str]]:
    """(catalogue, piece name) of every piece the sandbox offers."""
    from tablesim.games.polycubes import CATALOGUES

    return [(c, p.name) for c in PALETTE_CATALOGUES for p in CATALOGUES[c].pieces]


def _num(v: float) -> str:
    return f"{v:.6f}".rstrip("0").rstrip(".") if v != 0 else "0"


def _vec(values: Floats) -> str:
    return "[" + ", ".join(_num(float(v)) for v in values) + "]"


def _toml_str(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _catalogue_ref(piece: Any) -> str | None:
    """``piece``'s ``catalogue:piece`` reference when the loader reads it back as the same piece
    (same cells, same cube kind), else None. The Kozo table's balance cubes carry the bare
    catalogue name (``source = "kozo-balance"``) and its polycubes their posed cells, neither
    of which the loader's ``piece =`` accepts: those are written as cells."""
    from tablesim.games.polycubes import CATALOGUES

    cat_name, _, name = str(piece.source).partition(":")
    cat = CATALOGUES.get(cat_name)
    if cat is None or not name or piece.cube != cat.cube:
        return None
    pc = next((c for c in cat.pieces if c.name == name), None)
    if pc is None or sorted(map(tuple, pc.cells)) != sorted(map(tuple, piece.cells)):
        return None
    return str(piece.source)


def contents(pieces: Any) -> str:
    """What ``pieces`` are, counted by kind, for a saved scene's description: ``28 pieces (12
    kozo-standard, 15 kozo-balance, 1 static box)``. A piece's kind is its catalogue (also for a
    bare ``kozo-balance`` source), else ``static box`` / ``loose box`` / ``polycube`` (inline
    cells)."""
    from tablesim.games.polycubes import CATALOGUES

    counts: dict[str, int] = {}
    for p in pieces:
        cat = str(p.source).partition(":")[0]
        if p.box is not None:
            kind = "static box" if p.static else "loose box"
        elif cat in CATALOGUES:
            kind = cat
        else:
            kind = "polycube"
        kind += " (static)" if p.static and p.box is None else ""
        counts[kind] = counts.get(kind, 0) + 1
    kinds = ", ".join(f"{k_n} {k}" for k, k_n in counts.items())
    return counted(sum(counts.values()), "piece") + (f" ({kinds})" if kinds else "")


def _physics_lines(cfg: Any) -> list[str]:
    """The ``[physics]`` table of the settings where ``cfg`` differs from the defaults (the
    loader's readable keys and units), or nothing: cube edges set in a scene change every
    piece's size, so a save without them would not hold the same table."""
    from tablesim.sim.config import PhysicsConfig
    from tablesim.sim.scene import PHYSICS_KEYS

    default = PhysicsConfig()
    lines = []
    for key, (field, factor) in PHYSICS_KEYS.items():
        value = getattr(cfg, field, None)
        if value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if value != getattr(default, field):
            lines.append(f"{key} = {float(value) / factor!r}")
    return ["", "[physics]", *lines] if lines else []


def _judged_without(judged: tuple[str, ...] | None, piece_id: str) -> tuple[str, ...] | None:
    """A scene's ``judged`` once ``piece_id`` is off the table: the others; if it was the only
    one, None (the scene format refuses an empty list). The sandbox judges it again when it is
    let go."""
    if judged is None:
        return None
    return tuple(i for i in judged if i != piece_id) or None


def _judged_lines(scene: Any) -> list[str]:
    """The top-level ``judged = [ids]`` of a scene that names its judged pieces (none when it
    judges every piece)."""
    judged = getattr(scene, "judged", None)
    if judged is None:
        return []
    return [f"judged = [{', '.join(_toml_str(i) for i in judged)}]"]


def scene_toml(
    scene: Any, poses: Mapping[str, Any] | None = None, *, name: str | None = None
) -> str:
    """The TOML text of ``scene`` (pieces at ``poses`` where given: id -> (position,
    quaternion x, y, z, w)), in millimetres, every piece explicit (the board as a static box),
    readable by :func:`tablesim.sim.scene.load_scene`: a catalogue piece as ``piece =
    "catalogue:name"`` when that reads back as the same piece (:func:`_catalogue_ref`), any
    other (the Kozo table's balance cubes and posed polycubes) as cells and cube kind.
    Positions are written to 1e-6 mm, quaternions exactly (``repr``). ``name``: the scene's
    name (default ``scene.name``); the description says what the file holds
    (:func:`contents`) and which scene it was built from. Physics settings that differ from
    the defaults are written as ``[physics]``; the judged pieces (``scene.judged``) as the
    top-level ``judged``."""
    poses = dict(poses or {})
    out = [
        f"# written by tablesim view --sandbox: {counted(len(scene.pieces), 'piece')}",
        f"name = {_toml_str(name if name is not None else scene.name)}",
        "description = "
        + _toml_str(f"Built in the sandbox from scene '{scene.name}': {contents(scene.pieces)}."),
        'unit = "mm"',
        f"seconds = {_num(scene.seconds)}",
        f"ground = {'true' if scene.ground else 'false'}",
        *_judged_lines(scene),
        *_physics_lines(scene.physics),
    ]
    for p in scene.pieces:
        pos, quat = poses.get(p.id, (p.position, p.orientation))
        out += ["", "[[piece]]", f"id = {_toml_str(p.id)}"]
        ref = None if p.box is not None else _catalogue_ref(p)
        if p.box is not None:
            out.append(f"box = {_vec(np.asarray(p.box) * 1000)}")
        elif ref is not None:
            out.append(f"piece = {_toml_str(ref)}")
        else:
            cells = ", ".join(_vec(c) for c in p.cells)
            out += [f"cells = [{cells}]", f"cube = {_toml_str(p.cube or 'unit')}"]
        out.append(f"at = {_vec(np.asarray(pos, float) * 1000)}")
        q = np.asarray(quat, float)
        out.append(f"quaternion = [{', '.join(repr(float(v)) for v in q / np.linalg.norm(q))}]")
        out.append(f"static = {'true' if p.static else 'false'}")
        out.append(f"color = {_toml_str(p.color)}")
        if p.friction is not None:
            out.append(f"friction = {_num(p.friction)}")
    return "\n".join(out) + "\n"


LET_GO_OVERLAP = 0.5e-3
"""Metres a held piece may reach into another and still be let go (a resting piece sinks a
few hundredths of a millimetre into its support; a piece let go inside another is shot out by
the contact solver: the tipped domino that launched three balance cubes)."""


def _overlapping(piece: Any, table: Any) -> tuple[str, float] | None:
    """The piece of ``table`` that ``piece`` reaches into by more than
    :data:`LET_GO_OVERLAP`, and by how much (m); None when it is clear."""
    from tablesim.sim.scene import box_overlap

    cfg = table.physics
    mine = piece.world_boxes(cfg)
    worst: tuple[str, float] | None = None
    for other in table.pieces:
        for b in other.world_boxes(cfg):
            for a in mine:
                depth = box_overlap(a, b)
                if depth > LET_GO_OVERLAP and (worst is None or depth > worst[1]):
                    worst = (other.id, depth)
    return worst


LIFT_STEP = 2e-5
"""Metres a saved piece is lifted per pass while it overlaps a piece below (see
:func:`separate`)."""


def separate(scene: Any, max_passes: int = 400) -> Any:
    """``scene`` with loose pieces moved apart just enough (steps of :data:`LIFT_STEP`) that
    no two overlap by more than half the loader's tolerance and none reaches below the table:
    settled contacts are soft (a resting piece sinks a few hundredths of a millimetre into its
    support), and :func:`tablesim.sim.scene.load_scene` refuses overlaps. Of an overlapping pair the
    loose piece with the higher centre of mass moves, away from the other's centre of mass;
    a piece below the table moves up. ValueError when that does not converge."""
    import re

    from tablesim.sim.scene import OVERLAP_TOLERANCE, check_geometry

    pieces = list(scene.pieces)
    index = {p.id: k for k, p in enumerate(pieces)}
    cfg = scene.physics
    for _ in range(max_passes):
        problems = check_geometry(pieces, cfg, ground=scene.ground, tolerance=OVERLAP_TOLERANCE / 2)
        if not problems:
            return replace(scene, pieces=tuple(pieces))
        moves: dict[int, np.ndarray] = {}
        for j, message in problems:
            m = re.search(r"overlaps piece '(.+)' by", message)
            if m is None:  # below the table
                moves[j] = np.array([0.0, 0.0, 1.0])
                continue
            i = index[m.group(1)]
            ci, cj = (pieces[k].mass_and_com(cfg)[1] for k in (i, j))
            mover, other = (j, i) if (cj[2] >= ci[2] or pieces[i].static) else (i, j)
            if pieces[mover].static:
                continue
            d = pieces[mover].mass_and_com(cfg)[1] - pieces[other].mass_and_com(cfg)[1]
            moves[mover] = d / max(float(np.linalg.norm(d)), 1e-12)
        for k, direction in moves.items():
            pos = np.asarray(pieces[k].position) + LIFT_STEP * direction
            pieces[k] = replace(pieces[k], position=tuple(float(v) for v in pos))
    raise ValueError(f"the pieces still overlap after {max_passes} small moves")


def _axis_quat(axis: str, degrees: float) -> tuple[float, float, float, float]:
    h = math.radians(degrees) / 2
    s = math.sin(h)
    return {"x": (s, 0.0, 0.0, math.cos(h)), "z": (0.0, 0.0, s, math.cos(h))}[axis]


class SandboxApp(SceneApp):
    """The sandbox (module docstring): a :class:`SceneApp` whose table can be rebuilt.

    ``scene``: the table to start from; ``save_to``: where ``s`` writes the scene TOML.
    """

    _palette_cache: tuple[tuple[float, float], tuple[Any, ...]] | None = None
    """:meth:`_palette_items`: (where the palette was laid out, its items), laid out once."""

    def __init__(self, scene: Any, *, save_to: str | Path = "sandbox.toml", **kw: Any) -> None:
        super().__init__(scene, **kw)
        self.start = scene
        self.table = scene
        """The table now (a :class:`tablesim.sim.model.Scene`; poses: where pieces were let go or last
        settled)."""
        self.history: list[Any] = []
        self.save_to = Path(save_to)
        self.palette = palette()
        self.pick_index = 0
        self.held: Any = None
        """The :class:`tablesim.sim.model.ScenePiece` in hand (its pose is the pointer's), or None."""
        self._turn = (0, 0)  # quarter turns about z, tips about x
        self._held_judged = False  # the held piece came off the table from the scene's judged
        self._held_pose: tuple[np.ndarray, tuple[float, ...]] | None = None
        self._count = 0
        self.show_help = True
        self.verdict = "sandbox: p takes a piece of the palette, click takes one of the table"
        self._restart()

    # ---- the table ------------------------------------------------------------------------
    def _restart(self) -> None:
        """Rebuild the display world and the drawn table from :attr:`table` (and the held
        piece)."""
        from tablesim.sim.view.drawings.scene import scene_layout
        from tablesim.sim.view.live import LiveRun

        if self.live is not None:
            self.live.close()
        self.live = LiveRun(self.table, seconds=3600.0)
        shown = self.table
        if self.held is not None:
            shown = replace(self.table, pieces=(*self.table.pieces, self._held_piece()))
        still = scene_layout(shown)
        self._still = replace(still, items=still.items + tuple(self._palette_items(still)))
        self._anim = {"layout": self._still, "t": 0.0, "live": self.live, "end": math.inf}
        self._dirty = True

    def _palette_items(self, still: TableLayout) -> list[Any]:
        """The palette drawn on the table behind the scene, in rows (ids ``palette-K``, K its
        index in :attr:`palette`): click one to take it. Laid out once, behind the scene as
        loaded, and kept there: pieces let go far away move neither the palette nor the table
        (its extent is fixed from the first table, :mod:`tablesim.sim.view.table_extent`)."""
        from tablesim.games.polycubes import CATALOGUES
        from tablesim.sim.model import ScenePiece
        from tablesim.sim.view.layout import polycube_item

        cached = self._palette_cache
        if cached is not None:
            return list(cached[1])
        pts = still.points()
        x0, y_far = float(pts[:, 0].min()), float(pts[:, 1].max())
        key = (round(x0, 3), round(y_far, 3))
        cfg = self.table.physics
        items, x, y, depth = [], x0, y_far + 0.04, 0.0
        for k, (cat_name, name) in enumerate(self.palette):
            cat = CATALOGUES[cat_name]
            pc = next(p for p in cat.pieces if p.name == name)
            edge = ScenePiece(name, pc.cells, cat.cube, (0.0, 0.0, 0.0)).edge(cfg)
            flat = np.asarray(pc.cells, int)
            flat = flat - flat.min(axis=0)
            ext = flat.max(axis=0) + 1
            if x > x0 + 0.45:  # rows of about 45 cm
                x, y, depth = x0, y + depth + 0.012, 0.0
            items.append(polycube_item(f"palette-{k}", [tuple(int(v) for v in c) for c in flat],
                                       edge, (x, y, 0.0), pc.color))  # fmt: skip
            x += float(ext[0]) * edge + 0.012
            depth = max(depth, float(ext[1]) * edge)
        self._palette_cache = (key, tuple(items))
        return items

    def _settled(self) -> Any:
        """:attr:`table` with every loose piece where the display world has it now."""
        poses = self.live.poses if self.live is not None else {}
        pieces = []
        for p in self.table.pieces:
            if p.id in poses:
                pos, q = poses[p.id]
                p = replace(p, position=tuple(float(v) for v in pos),
                            orientation=tuple(float(v) for v in q))  # fmt: skip
            pieces.append(p)
        return replace(self.table, pieces=tuple(pieces))

    def undo(self) -> bool:
        """Back to the table before the last take or let-go (False: nothing to undo)."""
        if not self.history:
            self.verdict, self.explanation = "nothing to undo", ""
            self._dirty = True
            return False
        self.table = self.history.pop()
        self.held, self._held_judged = None, False
        self._restart()
        n = len(self.history)
        self.verdict, self.explanation = f"undone ({n} step{'' if n == 1 else 's'} left)", ""
        return True

    def reset(self) -> None:
        """Back to the scene as loaded (undo can return to the table before)."""
        self.history.append(self._settled())
        self.table, self.held = self.start, None
        self._restart()
        self.verdict, self.explanation = "reset: the scene as loaded", ""

    def save(self, path: str | Path | None = None) -> Path:
        """Write the table as it stands (settled poses) to ``path`` (default :attr:`save_to`)
        atomically (:func:`tablesim.games.outputs.atomic_write`); returns the path.

        Pressing save is the person's explicit word, so an earlier save (a regular file) is
        replaced; a folder, a device, a FIFO or a socket at ``path`` never is: the status line
        then says why nothing was saved (and nothing is written)."""
        from tablesim.games.outputs import OutputError, atomic_write

        target = Path(path) if path is not None else self.save_to
        text = scene_toml(separate(self._settled()), name=target.stem)
        try:
            atomic_write(target, text, suffix=".toml", force=True)
        except OutputError as exc:
            self.verdict, self.explanation = f"not saved: {exc}", ""
            self._dirty = True
            return target
        self.verdict, self.explanation = (
            f"saved {counted(len(self.table.pieces), 'piece')} to {target}",
            "",
        )
        self._dirty = True
        return target

    # ---- the piece in hand ------------------------------------------------------------------
    def take_palette(self, index: int | None = None) -> None:
        """Take the palette's piece ``index`` (default: the one selected) in hand."""
        from tablesim.games.polycubes import CATALOGUES
        from tablesim.sim.model import ScenePiece

        if self.held is not None:
            return
        cat_name, name = self.palette[self.pick_index if index is None else index]
        cat = CATALOGUES[cat_name]
        pc = next(p for p in cat.pieces if p.name == name)
        self._count += 1
        ids = {p.id for p in self.table.pieces}
        pid = name
        while pid in ids:
            pid = f"{name}-{self._count}"
            self._count += 1
        self.held = ScenePiece(pid, pc.cells, cat.cube, (0.0, 0.0, 0.0), source=f"{cat_name}:{name}",
                               color=pc.color)  # fmt: skip
        self._turn = (0, 0)
        self.history.append(self._settled())
        self._place_held(*self._mouse)
        self._restart()
        self.verdict = f"in hand: {cat_name}:{name} (click to let it go, x to put it back)"

    def take_from_table(self, piece_id: str) -> bool:
        """Take the loose piece ``piece_id`` off the table into the hand."""
        table = self._settled()
        found = [p for p in table.pieces if p.id == piece_id and not p.static]
        if self.held is not None or not found:
            return False
        self.history.append(table)
        self.held = replace(found[0], position=(0.0, 0.0, 0.0))
        self._turn = (0, 0)
        self._held_judged = table.judged is not None and piece_id in table.judged
        self.table = replace(table, pieces=tuple(p for p in table.pieces if p.id != piece_id),
                             judged=_judged_without(table.judged, piece_id))  # fmt: skip
        self._place_held(*self._mouse)
        self._restart()
        self.verdict = f"in hand: {piece_id} (click to let it go, x to put it back)"
        return True

    def _held_piece(self) -> Any:
        """The held piece as a scene piece with id :data:`HELD`, at its pose."""
        pos, q = self._held_pose if self._held_pose is not None else ((0.0, 0.0, 0.03), None)
        q = q if q is not None else self._held_quat()
        return replace(self.held, id=HELD, position=tuple(float(v) for v in pos),
                       orientation=tuple(float(v) for v in q))  # fmt: skip

    def _held_quat(self) -> tuple[float, float, float, float]:
        yaw, tip = self._turn
        turn = quat_mul(_axis_quat("z", 90.0 * yaw), _axis_quat("x", 90.0 * tip))
        return quat_mul(turn, self.held.orientation)

    def _place_held(self, x: float, y: float) -> None:
        """Put the held piece under pixel (x, y): footprint centred on the point under the
        pointer, lowest point :data:`DROP_GAP` above it."""
        if self.held is None or self._layout is None:
            return
        origin, direction = self.renderer.ray(x, y)
        layout = self._anim["layout"] if self._anim is not None else self._still
        _, point = pick(layout, origin, direction, skip=HELD)
        if point is None:
            return
        # kept inside the table's play bound: a piece carried far away neither leaves the
        # table nor makes it grow (sim.view.table_extent)
        point = (*self.table_extent().clamp(point[0], point[1]), point[2])
        q = self._held_quat()
        probe = replace(self.held, position=(0.0, 0.0, 0.0), orientation=q)
        corners = np.concatenate([b.corners() for b in probe.world_boxes(self.table.physics)])
        lo, hi = corners.min(axis=0), corners.max(axis=0)
        centre = (lo[:2] + hi[:2]) / 2
        pos = np.array([point[0] - centre[0], point[1] - centre[1],
                        point[2] + DROP_GAP - lo[2]])  # fmt: skip
        self._held_pose = (pos, q)

    def let_go(self) -> bool:
        """Let the held piece go where it is shown: it joins the table and falls."""
        if self.held is None or self._held_pose is None:
            return False
        pos, q = self._held_pose
        piece = replace(self.held, position=tuple(float(v) for v in pos),
                        orientation=tuple(float(v) for v in q))  # fmt: skip
        table = self._settled()
        inside = _overlapping(piece, table)
        if inside is not None:  # never let go inside another piece: it would be shot out
            other, depth = inside
            self.verdict = f"refused: {piece.id} would be {depth * 1e3:.1f} mm inside {other}"
            self.explanation = "move it clear (or lift it: the drop point is under the pointer)"
            self._dirty = True
            return False
        self.held, self._held_pose = None, None
        judged = table.judged
        if self._held_judged:  # a judged piece taken off the table is judged again when let go
            judged = (*(judged or ()), piece.id)
        self._held_judged = False
        self.table = replace(table, pieces=(*table.pieces, piece), judged=judged)
        self.show_help = False  # shown until the first piece is let go; f1 brings it back
        self._restart()
        self.verdict = (
            f"let go: {piece.id} ({counted(len(self.table.pieces), 'piece')} on the table)"
        )
        self.explanation = ""
        return True

    def put_back(self) -> None:
        """Drop the held piece from the hand: the table as before it was taken."""
        if self.held is not None:
            self.held, self._held_judged = None, False
            self.table = self.history.pop() if self.history else self.table
            self._restart()
            self.verdict = "put back"

    # ---- events ------------------------------------------------------------------------------
    def mouse_move(self, x: float, y: float) -> None:
        """Camera drags, else the held piece follows the pointer."""
        if self._drag is None and self.held is not None:
            self._mouse = (x, y)
            self._place_held(x, y)
            self._dirty = True
            return
        super().mouse_move(x, y)

    def mouse_down(self, x: float, y: float, button: str = "left") -> bool:
        """Left: let go of the held piece, or take the piece under the pointer."""
        if button != "left":
            return super().mouse_down(x, y, button)
        self._mouse = (x, y)
        if self.held is not None:
            self._place_held(x, y)
            return self.let_go()
        if self._layout is None:
            self.frame()
        origin, direction = self.renderer.ray(x, y)
        item, _ = pick(self._anim["layout"] if self._anim else self._still, origin, direction,
                       skip=HELD)  # fmt: skip
        if item is not None and item.startswith("palette-"):
            self.pick_index = int(item[len("palette-") :])
            self.take_palette()
            return False
        return item is not None and self.take_from_table(item)

    def mouse_up(self, x: float, y: float, button: str = "left") -> bool:
        """Only the camera's buttons act on release."""
        if button != "left":
            return super().mouse_up(x, y, button)
        return False

    def key(self, name: str) -> bool:
        """Sandbox keys (module docstring), then the camera's."""
        n = len(self.palette)
        if name in ("n", "b") and self.held is None:
            self.pick_index = (self.pick_index + (1 if name == "n" else -1)) % n
            cat, piece = self.palette[self.pick_index]
            self.verdict = f"palette: {cat}:{piece} ({self.pick_index + 1}/{n}; p takes it)"
        elif name == "p":
            self.take_palette()
        elif name in ("r", "e", "t") and self.held is not None:
            yaw, tip = self._turn
            self._turn = (yaw + (1 if name == "r" else -1 if name == "e" else 0),
                          tip + (1 if name == "t" else 0))  # fmt: skip
            self._place_held(*self._mouse)
        elif name == "x":
            self.put_back()
        elif name in ("u", "backspace"):
            self.undo()
        elif name == "c":
            self.reset()
        elif name == "s":
            self.save()
        elif name == "space":
            self.judge()
        else:
            return super().key(name) if name != "r" else False
        self._dirty = True
        return False

    def judge(self) -> None:
        """The verdict of the table as it stands (background process), the world going on."""
        from tablesim.sim.view.live import VerdictJob

        if self.job is not None:
            self.job.cancel()
        table = self._settled()
        self.job = VerdictJob(table, table.seconds, self.replicas, self.seed)
        self.explanation = f"judging the table: verdict profile, {runs(self.replicas)}"

    def tick(self, dt: float) -> None:
        """Step the display world; take a verdict when it is in."""
        if self.live is not None and not self.live.done:
            self.live.advance(dt)
        self._take_verdict()

    def _anim_poses(self) -> dict[str, Any]:
        poses = dict(self.live.poses) if self.live is not None else {}
        if self.held is not None:
            p = self._held_piece()
            poses[HELD] = (np.asarray(p.position), np.asarray(p.orientation))
        ids = set(self._still.ids)
        return {k: v for k, v in poses.items() if k in ids}

    def _base_layout(self) -> TableLayout:
        return self._still

    def text_blocks(self) -> dict[str, str]:
        """The scene app's text with the sandbox's own help (f1)."""
        blocks = super().text_blocks()
        if self.show_help:
            blocks[self.help_corner()] = "\n".join([*_HELP, _CAMERA_HELP])
        return blocks

    def status_lines(self) -> list[str]:
        """Pieces on the table, what happened."""
        lines = [f"sandbox {self.table.name}: {counted(len(self.table.pieces), 'piece')}"]
        note = self.live.note if self.live is not None else ""
        return lines + [t for t in (note, self.verdict, self.explanation) if t]
