"""The Kataboom physics table: one persistent, seeded verdict-profile world per game.

The starting model is built at the start (its pieces put down bottom-up at their intended
poses, no hand noise) and settles for ``settle_s``; a model that does not stand is an error
(every shipped model stands: ``tests/test_kataboom_models.py``). Then, per move
(:meth:`KataboomReferee.measure`):

- ``place``: the rules lowered the piece straight down onto the settled structure (the support
  height of its box compound, :mod:`tablesim.games.kataboom.geometry`); the hand then puts it there
  with seeded noise from the table's own stream ``Rng.from_seed(game seed, "kataboom-hand",
  move index)`` (horizontal sigma ``hand_mm``, turn sigma ``hand_deg``, let go ``lift_mm``
  above its rest, backing off as in :func:`tablesim.sim.referees.persistent_world.hand_place` when the noisy pose
  would push into a neighbour);
- ``nudge``: an impulse (mN s) at a point of a piece (:meth:`tablesim.sim.world.World.apply_impulse`);
- the world keeps running for ``window_s`` (3 s) while :func:`tablesim.sim.referees.persistent_world.watch` applies
  Kataboom's collapse rule (:data:`KATABOOM_RULE`) to every piece against its pose at the
  start of the move.

The outcome carries every piece's settled pose (grid frame) and what fell. The world is cached
between moves; asked about another position (a replay, a bot's look-ahead) the table rebuilds
it from the move log, bit-identically. :meth:`KataboomReferee.assess` judges a placement on a
copy (a seeded ensemble of :func:`tablesim.sim.verdict.simulate`), never touching the game's world.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from tablesim.games.core import Referee, TableRefused
from tablesim.games.kataboom.geometry import REST_TOL, orientations
from tablesim.games.kataboom.models import get_model
from tablesim.games.kataboom.rules import GAME, REFEREE
from tablesim.games.kataboom.state import (
    NUDGE,
    PLACE,
    KataboomConfig,
    KataboomMove,
    KataboomState,
    Outcome,
    Pose,
)
from tablesim.games.rng import Rng
from tablesim.sim.config import TABLE, PhysicsConfig, get_profile
from tablesim.sim.model import Floats, Scene, ScenePiece, vec3
from tablesim.sim.referees.persistent_world import (
    FallReport,
    Hand,
    PersistentWorld,
    ReleaseRefused,
    hand_place,
    judging_world,
    watch,
)
from tablesim.sim.verdict import ToppleRule

KATABOOM_RULE = ToppleRule(drop_fraction=0.5, tilt_deg=20.0, table_contact=True, check_every=0.01)
"""Kataboom's collapse rule: a piece falls when it touches the table having not touched it at
the start of the move, its centre of mass drops more than half a cube edge (9.5 mm), or it tips
more than 20 degrees. Any fall is a collapse."""

RELEASE_LIFT_MM = 0.0
"""The touch release's drop (mm): none, as at the Kozo table
(:data:`tablesim.sim.slices.kozo.referee.RELEASE_LIFT_MM`): :func:`tablesim.sim.verdict.simulate`
starts a scene's pieces at rest where they are written, so the table lets a piece go the same
way for the two to judge the same structure alike."""
REFUSE_RULE = (
    'the rulebook: "The first player chooses one of the pieces remaining on the table and '
    'places it as they wish on the starting structure": a piece goes where the structure '
    "leaves room (a nudge moves the structure)"
)
"""The rule a refused release breaks (:class:`~tablesim.games.core.TableRefused`'s reason)."""

Knock = Callable[[PersistentWorld, int, float], None]
"""A test hook: ``knock(world, move_index, t)`` at every check instant of every move."""


class ModelFallsError(RuntimeError):
    """A starting model that does not stand on the table."""


class KataboomReferee(Referee[KataboomState, KataboomMove]):
    """The Kataboom referee (see the module docstring)."""

    name = REFEREE

    def __init__(self, config: KataboomConfig, seed: int, knock: Knock | None = None) -> None:
        self.config = config
        self.seed = int(seed)
        self.phys = PhysicsConfig()
        self.edge = self.phys.katamino_cube
        self.knock = knock
        self._world: PersistentWorld | None = None
        self._key: tuple[Any, ...] | None = None
        self.rebuilds = 0
        """How many times the world was rebuilt from a log (tests, benchmarks)."""
        self.base_report: FallReport | None = None
        self.refuse = config.refuse
        """Whether a touch release with no touching pose within the rest tolerance is refused
        (:class:`~tablesim.games.core.TableRefused`) instead of being let go by the first
        tables' hand (the option ``refuse``: on for new games, off for older logs)."""
        self.untouched = 0
        """Releases that found no touching pose (let go by the first tables' hand)."""
        self.escalations = 0
        """Placements whose window this referee moved to the direct solver (``escalate``)."""

    # ------------------------------------------------------------------ geometry
    def scene_piece(self, name: str, rot: int, pose: Sequence[float]) -> ScenePiece:
        """The ScenePiece of a Kataboom piece at a grid-frame pose."""
        e = self.edge
        pos = (float(pose[0]) * e, float(pose[1]) * e, float(pose[2]) * e)
        q = (0.0, 0.0, 0.0, 1.0)
        if len(pose) >= 7:
            q = (float(pose[3]), float(pose[4]), float(pose[5]), float(pose[6]))
        return ScenePiece(
            name, orientations(name)[rot], "katamino", pos, q, source=f"katamino-duo:{name}"
        )

    def to_grid(self, position: Floats, quat: Floats) -> Pose:
        """A world pose (m, quaternion) as a grid-frame pose (cube edges)."""
        g = np.asarray(position, float) / self.edge
        return (*(float(v) for v in g), *(float(v) for v in quat))  # type: ignore[return-value]

    def structure_scene(self, state: KataboomState, extra: Sequence[ScenePiece] = ()) -> Scene:
        """A scene of the settled structure of ``state`` (plus ``extra`` pieces)."""
        pieces = [self.scene_piece(it.name, it.rot, it.pose) for it in state.structure]
        pieces.extend(extra)
        return Scene("kataboom-table", tuple(pieces), self.phys, seconds=self.config.window_s)

    # ------------------------------------------------------------------ the world
    @property
    def world(self) -> PersistentWorld | None:
        """The table's current world (the cached position; None before the first move and
        after :meth:`close`): a read for tests and tools, which must not step it."""
        return self._world

    def fresh_world(self, *, model: bool = True) -> PersistentWorld:
        """A new world, owned by the table from now on (closed with it; the world it held
        before is closed), with the starting model built and settled (``model=False``: an
        empty table). ModelFallsError when the model does not stand."""
        if self._world is not None:
            self._world.close()
        world = PersistentWorld(Scene("kataboom-table", (), self.phys))
        self._world = world
        if not model:
            return world
        lift = self.config.lift_mm * 1e-3 / self.edge
        for p in get_model(self.config.model).pieces:
            x, y, z = p.pos
            world.add_piece(self.scene_piece(p.name, p.rot, (x, y, z + lift * (z > 0))))
        world.rebase()
        report = watch(world, self.config.settle_s, KATABOOM_RULE, after_fall=0.0)
        self.base_report = report
        if report.fell:
            raise ModelFallsError(
                f"kataboom: model {self.config.model} does not stand: "
                + ", ".join(f"{f} {report.reasons[f]}" for f in report.fell)
            )
        return world

    def _run(self, world: PersistentWorld, move: KataboomMove, index: int) -> FallReport:
        """Make one move in the running world and watch it."""
        cfg = self.config
        if move.kind == PLACE:
            piece = self.scene_piece(move.piece, move.rot, move.pos)
            rng = Rng.from_seed(self.seed, "kataboom-hand", index)
            self.let_go(world, piece, rng)
            world = self._judging(world)
        elif move.kind == NUDGE:
            world.rebase()
            point = np.asarray(move.pos, float) * self.edge
            world.apply_impulse(move.piece, vec3(point), vec3(np.asarray(move.push, float) * 1e-3))
        else:
            raise ValueError(f"kataboom table: cannot measure a {move.kind!r} move")
        on_check = None
        if self.knock is not None:
            knock = self.knock

            def on_check(w: Any, t: float) -> None:
                knock(w, index, t)

        return watch(world, cfg.window_s, KATABOOM_RULE, on_check=on_check)

    def _judging(self, world: PersistentWorld) -> PersistentWorld:
        """The world a placement's window is judged in (:func:`judging_world`): with the option
        ``escalate`` (new games, touch release) the game's world moves to the profile
        ``simulate`` would judge the structure in (the direct solver on a thin tilt margin or
        heavy on light) and back when it no longer asks for it; older logs stay Gauss-Seidel."""
        cfg = self.config
        judging = judging_world(
            world, get_profile("verdict"), cfg.escalate and cfg.release == "touch"
        )
        if judging is not world:
            world.close()
            self._world = judging
            self.escalations += judging.profile.name != "verdict"
        return judging

    def _live(self) -> PersistentWorld:
        """The game's world (after a move: the window may have replaced it)."""
        if self._world is None:
            raise RuntimeError("kataboom table: no world")
        return self._world

    def let_go(self, world: PersistentWorld, piece: ScenePiece, rng: Rng) -> None:
        """Put a placed piece down in ``world`` with the seeded hand noise ``rng``: with ``release = touch`` (new
        games) moved out of any neighbour along the contact normals, by at most the rest
        tolerance (:data:`tablesim.games.kataboom.geometry.REST_TOL`, 0.95 mm), and let go at
        rest touching; with ``lift`` (older logs) the first tables' hand."""
        cfg = self.config
        if cfg.release != "touch":
            hand_place(world, piece, rng, Hand(cfg.hand_mm, cfg.hand_deg, cfg.lift_mm))
            return
        touch_mm = REST_TOL * self.edge * 1e3
        hand = Hand(cfg.hand_mm, cfg.hand_deg, RELEASE_LIFT_MM, touch_mm)
        try:
            hand_place(world, piece, rng, hand)
        except ReleaseRefused as exc:
            if self.refuse:
                self._key = None  # the world took a step for the refused piece: rebuild it
                raise TableRefused(f"kataboom table: {exc}; {REFUSE_RULE}") from None
            self.untouched += 1
            hand_place(world, piece, rng, replace(hand, touch_mm=None))

    def _sync(self, state: KataboomState) -> PersistentWorld:
        """The world after ``state``'s moves (cached or rebuilt from the moves themselves)."""
        if len(state.moves) != len(state.history):
            raise ValueError("kataboom table: a state whose moves are not those of its history")
        key = (self.seed, state.config, state.moves)
        if self._world is not None and self._key == key:
            return self._world
        world = self.fresh_world()
        self.rebuilds += 1
        for i, mv in enumerate(state.moves):
            self._run(world, mv, i)
            world = self._live()
        self._key = key
        return world

    def _outcome(self, world: PersistentWorld, report: FallReport) -> Outcome:
        poses = tuple(self.to_grid(*world.pose(pid)) for pid in world.piece_ids)
        first = None if report.first is None else float(report.first)
        return Outcome(poses, tuple(report.fell), first, "physics")

    # ------------------------------------------------------------------ Referee
    def measure(self, state: KataboomState, move: KataboomMove) -> KataboomMove:
        """The move as made at the table, carrying its :class:`Outcome`."""
        GAME.check_move(state, move.intended())
        world = self._sync(state)
        index = len(state.history)
        report = self._run(world, move.intended(), index)
        outcome = self._outcome(self._live(), report)
        self._key = (self.seed, state.config, (*state.moves, move.intended()))
        if report.fell:
            self.close()
        return replace(move.intended(), outcome=outcome)

    def close(self) -> None:
        """Close the cached world."""
        if self._world is not None:
            self._world.close()
        self._world = None
        self._key = None

    # ------------------------------------------------------------------ for bots
    def assess(
        self,
        state: KataboomState,
        move: KataboomMove,
        *,
        replicas: int = 3,
        seconds: float = 1.5,
        seed: int = 0,
    ) -> float:
        """Probability that placing ``move`` (intended pose) on the settled structure of
        ``state`` makes it collapse: a seeded ensemble of ``replicas`` runs of ``seconds`` (one
        process), skipped when the statics LP finds the structure safely standing (a static
        "topples" is always confirmed by simulation: a micrometre gap under a piece lowered
        onto settled neighbours reads as "unsupported" to the LP). Never touches the game's
        world or noise stream."""
        from tablesim.sim.verdict import simulate

        extra = [self.scene_piece(move.piece, move.rot, move.pos)] if move.kind == PLACE else []
        scene = self.structure_scene(state, extra)
        run = dict(
            seconds=seconds,
            replicas=replicas,
            seed=seed,
            workers=1,
            rule=KATABOOM_RULE,
            profile=TABLE,  # the table's own Gauss-Seidel world, never escalated
        )
        verdict = simulate(scene, method="auto", **run)  # type: ignore[arg-type]
        if verdict.method == "statics" and verdict.toppled:
            verdict = simulate(scene, method="simulate", **run)  # type: ignore[arg-type]
        return float(verdict.topple_probability)
