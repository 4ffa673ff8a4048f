"""Katamino 3D boxes built in physics, piece by piece (``tablesim katamino assemble``).

:func:`assemble` solves the box (:mod:`tablesim.games.katamino`), finds an assembly order a hand can
follow (:func:`tablesim.games.katamino.assembly.first_assemblable`), with every partial structure judged
in physics (:class:`PhysicsJudge`: the statics LP when it safely says "stands", else a seeded
ensemble of the verdict profile), then builds the order in one running PyBullet world
(:func:`build`): each piece is put down 0.3 mm above its place, at rest, and the table is
watched for ``window_s`` with the topple rule before the next piece comes. The finished box
gets a full ensemble verdict. :func:`free_standing` gives the verdict of a solved construction
standing alone (the tall ones: 2x2x7, 2x2x6, 3x3x6).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tablesim.games.katamino import PlacedPiece, Solution, solve_one
from tablesim.games.katamino.assembly import AssemblyPlan, first_assemblable
from tablesim.games.polycubes import PieceError, get_catalogue
from tablesim.games.rng import Rng
from tablesim.sim.config import PhysicsConfig
from tablesim.sim.constructions import DEFAULT_PIECES  # noqa: F401 (re-exported: the default sets)
from tablesim.sim.model import Scene, ScenePiece
from tablesim.sim.referees.persistent_world import Hand, PersistentWorld, hand_place, watch
from tablesim.sim.verdict import ToppleRule, Verdict, simulate
from tablesim.sim.world import TABLE

TALL = ("2x2x7", "2x2x6", "3x3x6")
RULE = ToppleRule()
LIFT_MM = 0.3


def scene_of(pieces: Sequence[PlacedPiece], phys: PhysicsConfig | None = None) -> Scene:
    """A scene of placed pieces (grid cells, Katamino cubes) on the table."""
    phys = phys or PhysicsConfig()
    e = phys.katamino_cube
    out = []
    for p in pieces:
        lo = np.asarray(p.cells).min(axis=0)
        cells = tuple(tuple(int(v) for v in np.asarray(c) - lo) for c in p.cells)
        out.append(ScenePiece(p.name, cells, "katamino", tuple(float(v) * e for v in lo),  # type: ignore[arg-type]
                              source=f"katamino-duo:{p.name}"))  # fmt: skip
    return Scene("katamino-build", tuple(out), phys)


def scene_toml(pieces: Sequence[PlacedPiece], name: str, description: str = "") -> str:
    """A scene file (TOML, ``unit = "katamino"``) of placed pieces, loadable by
    :func:`tablesim.sim.scene.load_scene`, so ``tablesim render`` and ``tablesim record`` can show it."""
    lines = [
        f"# {description or name}",
        "# Written by tablesim katamino (sim/assembly.py); positions in Katamino cube edges.",
        "",
        f"name = {json.dumps(name)}",
        f"description = {json.dumps(description or name)}",
        'unit = "katamino"',
        "seconds = 5.0",
    ]
    catalogue = get_catalogue("katamino-duo")
    for p in pieces:
        try:
            color = catalogue.piece(p.name).color
        except PieceError:
            color = "#b08850"
        lo = np.asarray(p.cells).min(axis=0)
        cells = ", ".join(f"[{x}, {y}, {z}]" for x, y, z in (np.asarray(p.cells) - lo).tolist())
        lines += ["", "[[piece]]", f"id = {json.dumps(p.name)}", f"cells = [{cells}]",
                  f"at = [{', '.join(str(int(v)) for v in lo)}]", f'color = "{color}"']  # fmt: skip
    return "\n".join(lines) + "\n"


def verdict_of(scene: Scene, *, seconds: float, replicas: int, seed: int) -> Verdict:
    """The ensemble verdict; a static "topples" is confirmed by simulation (pieces that touch
    only through the simulation's clearance gaps can read as unsupported to the LP)."""
    run = dict(seconds=seconds, replicas=replicas, seed=seed, workers=1, rule=RULE)
    v = simulate(scene, method="auto", **run)  # type: ignore[arg-type]
    if v.method == "statics" and v.toppled:
        v = simulate(scene, method="simulate", **run)  # type: ignore[arg-type]
    return v


class PhysicsJudge:
    """``judge(placed)``: does the partial structure stand? (verdict, memoised by the set of
    pieces; ``calls`` counts the verdicts actually computed)."""

    def __init__(self, *, seconds: float = 1.5, replicas: int = 2, seed: int = 0) -> None:
        self.seconds, self.replicas, self.seed = seconds, replicas, seed
        self.calls = 0
        self._memo: dict[frozenset[tuple], bool] = {}

    def __call__(self, placed: Sequence[PlacedPiece]) -> bool:
        key = frozenset((p.name, p.cells) for p in placed)
        if key not in self._memo:
            self.calls += 1
            v = verdict_of(scene_of(placed), seconds=self.seconds, replicas=self.replicas,
                           seed=self.seed)  # fmt: skip
            self._memo[key] = not v.toppled
        return self._memo[key]


@dataclass
class BuildReport:
    """What :func:`build` saw: per step the piece, what fell while it was watched and how far
    the pieces moved (mm, largest); ``stood`` when nothing fell; ``final`` the finished
    structure's ensemble verdict; ``table_s`` simulated seconds; ``wall_s`` seconds taken."""

    steps: list[dict[str, Any]] = field(default_factory=list)
    stood: bool = True
    final: Verdict | None = None
    table_s: float = 0.0
    wall_s: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """JSON form (no wall times, so byte-stable)."""
        return {
            "steps": self.steps,
            "stood": self.stood,
            "final": None if self.final is None else self.final.to_json(),
            "table_s": round(self.table_s, 6),
        }


def build(
    order: Sequence[PlacedPiece],
    *,
    window_s: float = 2.0,
    replicas: int = 4,
    seconds: float = 5.0,
    seed: int = 0,
) -> BuildReport:
    """Build ``order`` piece by piece in one running world and judge the finished structure.

    Each piece is put down 0.3 mm above its place at rest (no hand noise: the pieces of a box
    fit with 0.2 mm clearance) and the world runs ``window_s`` under the topple rule; the build
    stops at the first fall. The finished structure (intended poses) gets an ensemble of
    ``replicas`` runs of ``seconds``."""
    t0 = time.perf_counter()
    phys = PhysicsConfig()
    report = BuildReport()
    world = PersistentWorld(Scene("katamino-build", (), phys))
    try:
        quiet = Hand(0.0, 0.0, LIFT_MM)
        for i, piece in enumerate(order):
            (sp,) = scene_of([piece], phys).pieces
            on_table = {TABLE} if min(c[2] for c in piece.cells) == 0 else set()
            rng = Rng.from_seed(seed, "katamino-build", i)
            hand_place(world, sp, rng, quiet, on_table)
            fall = watch(world, window_s, RULE)
            moved = float(world.baseline.com_displacements().max()) * 1e3
            report.steps.append({"piece": piece.name, "fell": list(fall.fell),
                                 "moved_mm": round(moved, 4)})  # fmt: skip
            if fall.fell:
                report.stood = False
                break
        report.table_s = world.time
    finally:
        world.close()
    if report.stood:
        report.final = verdict_of(scene_of(order, phys), seconds=seconds, replicas=replicas,
                                  seed=seed)  # fmt: skip
        report.stood = not report.final.toppled
    report.wall_s = time.perf_counter() - t0
    return report


@dataclass
class AssemblyReport:
    """:func:`assemble`'s answer: the board, pieces, the solution used (None when no solution
    with an order was found among ``tried``), its plan, the build, judge calls, wall time."""

    board: str
    pieces: str
    solution: Solution | None
    plan: AssemblyPlan | None
    build: BuildReport | None
    tried: int
    judge_calls: int
    wall_s: float = 0.0

    @property
    def ok(self) -> bool:
        """True when an order was found and the built structure stood."""
        return self.build is not None and self.build.stood

    def to_json(self) -> dict[str, Any]:
        """JSON form (no wall times)."""
        return {
            "board": self.board,
            "pieces": self.pieces,
            "ok": self.ok,
            "solutions_tried": self.tried,
            "judge_calls": self.judge_calls,
            "plan": None if self.plan is None else self.plan.to_dict(),
            "build": None if self.build is None else self.build.to_json(),
        }


def assemble(
    board: str,
    pieces: str,
    *,
    seed: int = 0,
    limit: int = 200,
    judge_replicas: int = 2,
    judge_seconds: float = 1.5,
    window_s: float = 2.0,
    replicas: int = 4,
) -> AssemblyReport:
    """Solve ``board`` with ``pieces``, find an order whose partial structures stand in
    physics, build it and judge the result (see the module docstring)."""
    t0 = time.perf_counter()
    judge = PhysicsJudge(seconds=judge_seconds, replicas=judge_replicas, seed=seed)
    found = first_assemblable(board, pieces, judge=judge, limit=limit)
    built = None
    if found.plan is not None and found.plan.found:
        built = build(found.plan.order, window_s=window_s, replicas=replicas, seed=seed)
    return AssemblyReport(board, pieces, found.solution, found.plan, built, found.tried,
                          judge.calls, time.perf_counter() - t0)  # fmt: skip


def free_standing(
    board: str, pieces: str, *, seed: int = 0, replicas: int = 4, seconds: float = 5.0
) -> Verdict | None:
    """Ensemble verdict of the first solution of ``board`` standing alone on the table (None
    when the pieces do not tile the board)."""
    sol = solve_one(board, pieces)
    if sol is None:
        return None
    return verdict_of(scene_of(sol.pieces), seconds=seconds, replicas=replicas, seed=seed)
