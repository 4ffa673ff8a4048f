"""The Kozo physics table: one persistent, seeded verdict-profile world per round.

How a move is measured (:meth:`KozoReferee.measure`):

1. The hand: the intended pose gets seeded noise from the table's own stream
   ``Rng.from_seed(game seed, "kozo-hand", round, move index)`` (bots never see it): horizontal
   offsets with sigma ``hand_mm`` along x and y, and a turn about the vertical through the
   centre of mass with sigma ``hand_deg``. A hand cannot push a piece into another. With
   ``release = touch`` (new games) the noisy pose is moved out of every neighbour it
   penetrates by more than 0.02 mm (deepest contact first, along the contact normal), the moves
   summing to at most the rule tolerance (1.8 mm); when that fails the noise is halved (4 times,
   then dropped). When even the intended pose cannot be freed (a spot the neighbours narrowed
   by more than the tolerance) the piece is let go by the first tables' hand and counted in
   :attr:`KozoReferee.untouched` (with :attr:`KozoReferee.refuse`, the option ``refuse`` of
   new games, the move is refused instead: :class:`~tablesim.games.core.TableRefused` with the
   rule's reason, and the player chooses again). The
   piece is then let go at that touching pose, at rest: a drop of 0 (:data:`RELEASE_LIFT_MM`).
   With ``release = lift`` (logs from
   before it, no ``release`` key) the first tables' hand: the noise is halved while the pose
   penetrates, then the piece is let go higher, 0.25 mm at a time, ``lift_mm`` (0.3) above
   its intended height; it could be let go inside a neighbour that drifted into its spot.
2. The world keeps running: after a polycube, ``hold_s`` (0.5 s) passes before the balance
   cube; after the balance cube (the end of the turn), ``window_s`` (5 s). Every piece is watched
   by the topple rule of :mod:`tablesim.sim.verdict` against its pose at the start of the move. A fall
   seen while a move is measured belongs to that move's player: the mover owns the 5 s after
   their turn, and the next player's turn starts with the clock at 5 s, so a collapse that
   starts later happens during the next player's measured move and is theirs. With the
   option ``escalate`` (new games; logs without the key: off) every release's watch (the
   polycube's hold, the turn's window) is judged in the solver :func:`tablesim.sim.verdict.simulate` would judge the settled tower in: when the
   verdict's escalation rules (:mod:`tablesim.sim.escalation`: a thin tilt margin, heavy on
   light, a piece in the air) ask for the direct solver, the round's world is rebuilt in it
   from the settled poses and velocities, and rebuilt back in the verdict profile at a later
   release that does not ask for it (:meth:`KozoReferee._judging`).
3. The outcome: every item's settled pose (grid frame, cube edges), who fell and when.

The world is cached for the round. When asked to measure a move on a state that is not the
continuation of the cached world (a replay, another game), the table rebuilds it by measuring
the round's logged moves again from a fresh world: the same operations in the same order give
the same bits. A round that ended (topple, supply) discards the world.

:meth:`KozoReferee.assess` is for bots and analysis: the probability that a move topples the
settled tower, from the static LP and a small seeded ensemble of :func:`tablesim.sim.verdict.simulate`
(on the intended pose; it never touches the table's world or noise stream).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from tablesim.games.core import Referee, TableRefused
from tablesim.games.kozo import state as kozo
from tablesim.games.kozo.blocks import piece_orientations
from tablesim.games.kozo.clock import clock_of_steps, wait_after_turn
from tablesim.games.kozo.rules import REFEREE
from tablesim.games.kozo.state import Item, KozoConfig, KozoMove, KozoState, Outcome
from tablesim.games.rng import Rng
from tablesim.sim.config import TABLE, PhysicsConfig, Profile, get_profile
from tablesim.sim.model import Floats, Scene, ScenePiece, quat4, vec3
from tablesim.sim.referees.idle import IdleWatch
from tablesim.sim.referees.persistent_world import (
    FallReport,
    Hand,
    PersistentWorld,
    ReleaseRefused,
    checks,
    hand_place,
    judging_world,
    watch,
)
from tablesim.sim.scene import kozo_grid_origin

BASE_ID = "base"
REFUSE_RULE = (
    'the rulebook: "Players may never touch or rearrange the Base or the tower being built": '
    "place it where the tower leaves room"
)
"""The rule a refused release breaks (:class:`~tablesim.games.core.TableRefused`'s reason)."""
RELEASE_LIFT_MM = 0.0
"""The touch release's drop (mm): none. :func:`tablesim.sim.verdict.simulate` starts every piece of a
scene at rest where it is written, a stacked piece 2 um into its support
(:data:`tablesim.sim.world.CONTACT_SKIN`); for the table to judge a tower as ``simulate`` judges the same
tower, the released piece must start the same way: at rest, touching (the touch hand leaves it
at most 0.02 mm in, 2 um after a separation). The first tables' 0.3 mm lift instead landed it
at sqrt(2 g h) = 77 mm/s on soft contacts, which knocked over leaning columns (effective
margins 0.12-0.66 mm) that rigid physics and ``simulate`` hold (issue 31)."""
ASSESS_EARLY_STOP_DEG = 2.0
"""Least tilt margin (degrees) at which :meth:`KozoReferee.assess` lets a quiet tower's replicas
stop early (leaning stacks with margins of a fraction of a degree rock in PyBullet before they
go over: docs/architecture.md, "Where the step still matters")."""
SNAPSHOT_S = 0.1
"""The table keeps a snapshot of the world every 0.1 s of a turn's window (the resolution of a
time to place): a next player who places before the window ends starts from that instant."""

Knock = Callable[[PersistentWorld, int, float], None]
"""A test hook: ``knock(world, move_index, t)`` at every check instant of every move."""


def world_profile() -> Profile:
    """The table's own profile: the verdict's (Gauss-Seidel; its escalation rules say when a
    window moves to the direct solver, :meth:`KozoReferee._judging`)."""
    return get_profile("verdict")


def physics_config(config: KozoConfig) -> PhysicsConfig:
    """The physics constants of a Kozo game (cube sizes from the game options)."""
    return PhysicsConfig().with_overrides(
        kozo_cube=config.cube_mm * 1e-3, balance_cube=config.balance_mm * 1e-3
    )


def base_piece(phys: PhysicsConfig) -> ScenePiece:
    """The static Kozo board (as ``[base] kind = "kozo"`` in a scene file)."""
    side, thick = phys.kozo_board, phys.kozo_board_thickness
    return ScenePiece(
        BASE_ID,
        ((0, 0, 0),),
        None,
        (-side / 2, -side / 2, 0.0),
        static=True,
        source="base:kozo",
        color="#d9c7a0",
        box=(side, side, thick),
    )


@dataclass(frozen=True)
class Placement:
    """A move as a physical piece: ``piece`` (the ScenePiece at its intended pose, grid-aligned)
    and ``on_board`` (whether it is meant to rest on the board)."""

    piece: ScenePiece
    on_board: bool


class _WorldAhead(Exception):
    """The wait simulated while a person thought stepped past the placement's moment (its
    clock read more than the placement's time): the world must be rebuilt."""


class KozoReferee(Referee[KozoState, KozoMove]):
    """The Kozo referee: measures place, cube and nocube moves (see the module docstring)."""

    name = REFEREE

    def __init__(self, config: KozoConfig, seed: int, knock: Knock | None = None) -> None:
        self.config = config
        self.seed = int(seed)
        self.phys = physics_config(config)
        self.origin = kozo_grid_origin(self.phys)
        self.edge = self.phys.kozo_cube
        self.knock = knock
        self._world: PersistentWorld | None = None
        self._key: tuple[Any, ...] | None = None
        self.rebuilds = 0
        """How many times the world was rebuilt from a log (for tests and benchmarks)."""
        self._balance_counter = 0
        self._snaps: dict[int, tuple[int, int]] = {}
        """Snapshots of the last window, every SNAPSHOT_S s from its start."""
        self.idle_clock: Callable[[], float | None] | None = None
        """Set by a front end whose ``knock`` only reads (the window): the seconds the person
        to move has waited since the previous turn ended (None before their clock runs, and
        whenever the table is not a person's: while a move is judged, filmed, in a bot's
        turn). With it the table simulates a slow player's wait while they think
        (:class:`IdleWatch`), so a drop after any wait is judged at once; without it (logs,
        bots, tests with a knock) the wait is simulated when the placement is measured. Same
        steps, same bits. Should a clock ever read past a placement, the world that ran ahead
        is rebuilt from the round's log and the wait simulated at the drop (never an error)."""
        self._idle: IdleWatch | None = None
        self.refuse = config.refuse
        """Whether a release with no touching pose within the tolerance is refused
        (:class:`~tablesim.games.core.TableRefused` with the rule's reason: the player chooses
        again) instead of being let go by the first tables' hand (the option ``refuse``: on
        for new games, off for logs written before it)."""
        self.untouched = 0
        """Releases of this referee that found no touching pose (for measurements)."""
        self.escalations = 0
        """Windows this referee moved to the direct solver (option ``escalate``)."""

    # ------------------------------------------------------------------ geometry
    def placement(self, move: KozoMove, balance_index: int) -> Placement:
        """The ScenePiece of a place or cube move at its intended pose (no noise, no lift)."""
        cfg = self.config
        if move.kind == kozo.PLACE:
            cells = piece_orientations(cfg.catalogue, move.piece)[move.rot]
            pos = self.origin + np.asarray(move.pos, float) * self.edge
            piece = ScenePiece(
                move.piece, cells, "kozo", vec3(pos),
                source=f"{cfg.catalogue}:{move.piece}",
            )  # fmt: skip
        else:
            x, y, z = move.pos
            e = cfg.balance_edge / 2
            pos = self.origin + np.array([x - e, y - e, z]) * self.edge
            piece = ScenePiece(
                f"b{balance_index}", ((0, 0, 0),), "balance", vec3(pos),
                source="kozo-balance", color="#f5e6c8",
            )  # fmt: skip
        return Placement(piece, abs(move.pos[2]) <= cfg.tolerance)

    def to_grid(self, position: Floats, quat: Floats) -> tuple[float, ...]:
        """A world pose (m) as a grid-frame pose (cube edges)."""
        g = (np.asarray(position, float) - self.origin) / self.edge
        return (*(float(v) for v in g), *(float(v) for v in quat))

    def from_grid(
        self, pose: Sequence[float]
    ) -> tuple[tuple[float, float, float], tuple[float, float, float, float]]:
        """A grid-frame pose as (position m, quaternion)."""
        p = self.origin + np.asarray(pose[:3], float) * self.edge
        return vec3(p), quat4(pose[3:7])

    def tower_scene(self, state: KozoState, extra: Sequence[ScenePiece] = ()) -> Scene:
        """A scene of the settled tower of ``state`` (plus ``extra`` pieces)."""
        cfg = self.config
        pieces = [base_piece(self.phys)]
        for it in state.tower:
            pos, q = self.from_grid(it.pose)
            if it.is_balance:
                pieces.append(
                    ScenePiece(it.name, ((0, 0, 0),), "balance", pos, q, source="kozo-balance")
                )
            else:
                cells = piece_orientations(cfg.catalogue, it.name)[it.rot]
                pieces.append(ScenePiece(it.name, cells, "kozo", pos, q))
        pieces.extend(extra)
        return Scene("kozo-table", tuple(pieces), self.phys, seconds=cfg.window_s)

    # ------------------------------------------------------------------ the world
    def _live(self) -> PersistentWorld:
        """The round's world (after a move: the window may have replaced it)."""
        if self._world is None:
            raise RuntimeError("kozo table: no world")
        return self._world

    @property
    def world(self) -> PersistentWorld | None:
        """The table's current world (the cached round; None before the first move and after
        :meth:`close`): a read for tests and tools, which must not step it."""
        return self._world

    def fresh_world(self) -> PersistentWorld:
        """A new world of the empty base, owned by the table from now on (closed with it); the
        world it held before is closed."""
        self._drop_idle()
        self._forget_snapshots()
        if self._world is not None:
            self._world.close()
        self._world = PersistentWorld(Scene("kozo-table", (base_piece(self.phys),), self.phys))
        return self._world

    def let_go(self, world: PersistentWorld, place: Placement, rng: Rng) -> None:
        """Put the piece down in ``world`` with the seeded hand noise ``rng`` (see the module
        docstring); TableRefused when ``refuse`` is set and no touching pose exists."""
        cfg = self.config
        allowed = {BASE_ID} if place.on_board else set()
        if cfg.release == "touch":
            hand = Hand(cfg.hand_mm, cfg.hand_deg, RELEASE_LIFT_MM, cfg.tolerance * cfg.cube_mm)
        else:
            hand = Hand(cfg.hand_mm, cfg.hand_deg, cfg.lift_mm)
        try:
            hand_place(world, place.piece, rng, hand, allowed)
        except ReleaseRefused as exc:
            if self.refuse:
                self._key = None  # the world took a step for the refused piece: rebuild it
                raise TableRefused(f"kozo table: {exc}; {REFUSE_RULE}") from None
            self.untouched += 1  # no touching pose: the first tables' hand (see the docstring)
            hand_place(world, place.piece, rng, replace(hand, touch_mm=None), allowed)

    def _checker(self, index: int, shift: float = 0.0) -> Callable[[Any, float], None] | None:
        """The knock hook for move ``index`` (its times shifted by ``shift``), or None."""
        if self.knock is None:
            return None
        knock = self.knock

        def on_check(w: Any, t: float) -> None:
            knock(w, index, t + shift)

        return on_check

    def _forget_snapshots(self) -> None:
        if self._world is not None and not self._world.closed:
            for snap in self._snaps.values():
                self._world.forget(snap)
        self._snaps = {}

    def _watch_window(self, world: PersistentWorld, index: int) -> FallReport:
        """The window after a turn's end, with a snapshot every :data:`SNAPSHOT_S` (from 0) for
        a next player who places before it ends."""
        cfg = self.config
        self._forget_snapshots()
        world = self._judging(world)
        knock = self._checker(index)
        self._snaps[0] = world.save()
        k = 1

        def on_check(w: Any, t: float) -> None:
            nonlocal k
            if knock is not None:
                knock(w, t)
            while k * SNAPSHOT_S < cfg.window_s - 1e-9 and t >= k * SNAPSHOT_S - 1e-9:
                self._snaps[k] = w.save()
                k += 1

        return watch(world, cfg.window_s, on_check=on_check)

    def _judging(self, world: PersistentWorld) -> PersistentWorld:
        """The world a release is watched in (:func:`judging_world`): with the option
        ``escalate`` (new games) the round's world moves to the profile ``simulate`` would
        judge the settled tower in (the direct solver on a thin tilt margin or heavy on
        light), and back to the verdict profile when the tower no longer asks for it; logs
        written before it (no ``escalate`` key) and the first tables' hand (``release = lift``)
        stay Gauss-Seidel, bit for bit."""
        cfg = self.config
        judging = judging_world(world, world_profile(), cfg.escalate and cfg.release == "touch")
        if judging is not world:
            world.close()
            self._world = judging
            self.escalations += judging.profile.name != world_profile().name
        return judging

    def _before_placement(
        self, world: PersistentWorld, wait: float, index: int
    ) -> tuple[FallReport, float]:
        """Bring the world to the moment a polycube is let go, ``wait`` s after the previous
        turn ended (the world stands at the end of that turn's window): back to the snapshot
        of that instant for a quick player, or on through the extra seconds, watched, for a
        slow one. Returns what fell while waiting and the seconds waited past the window."""
        cfg = self.config
        idle, self._idle = self._idle, None  # the wait simulated as it ran, if any: ended here
        if wait < cfg.window_s - 1e-9:
            if idle is not None and idle.finish(0) is None:
                raise _WorldAhead  # it stepped (and forgot the snapshots) for a later drop
            k = int(round(wait / SNAPSHOT_S))
            if k not in self._snaps:
                raise RuntimeError(f"kozo table: no snapshot {wait} s into the window")
            world.restore(self._snaps[k])
            self._forget_snapshots()
            return FallReport(), 0.0
        extra = wait - cfg.window_s
        if idle is not None:  # the wait ran while the person thought: take its report
            report = idle.finish(checks(world, extra) if extra > 1e-9 else 0)
            if report is None:  # ahead of the placement (never with the window's clock):
                raise _WorldAhead  # the world is rebuilt and the wait simulated at the drop
            self._forget_snapshots()
            return report, max(0.0, extra)
        self._forget_snapshots()
        if extra <= 1e-9:
            return FallReport(), 0.0
        return watch(world, extra, on_check=self._checker(index, -extra)), extra

    def _start_idle(self, world: PersistentWorld) -> None:
        """After a turn's window (the world at its end), simulate the next player's wait as
        their clock runs (only with :attr:`idle_clock`)."""
        clock = self.idle_clock
        if clock is None:
            return
        window = self.config.window_s

        def waited() -> float | None:
            w = clock()
            return None if w is None else w - window

        self._idle = IdleWatch(world, waited, on_start=self._forget_snapshots)

    def _drop_idle(self) -> None:
        """Stop a wait being simulated; a world it advanced is stale (rebuilt when next
        asked)."""
        idle, self._idle = self._idle, None
        if idle is not None and idle.finish(0) is None:
            self._key = None

    def _run(
        self,
        world: PersistentWorld,
        move: KozoMove,
        index: int,
        round_no: int,
        wait: float | None = None,
    ) -> tuple[FallReport, bool]:
        """Make one move in the running world and watch it: ``wait`` (place moves after the
        round's first turn) s after the previous turn ended. Returns the report (times from
        the moment the piece was let go) and whether the piece was put down (not when the
        tower fell while a slow player had not placed yet)."""
        cfg = self.config
        waited, extra = FallReport(), 0.0
        if move.kind == kozo.PLACE and wait is not None:
            waited, extra = self._before_placement(world, wait, index)
            if waited.fell and self._over(world, waited):
                first = None if waited.first is None else waited.first - extra
                return FallReport(waited.fell, first, waited.reasons), False
        if move.kind in (kozo.PLACE, kozo.CUBE):
            if move.kind == kozo.CUBE:
                self._balance_counter += 1
            place = self.placement(move, self._balance_counter if move.kind == kozo.CUBE else 0)
            rng = Rng.from_seed(self.seed, "kozo-hand", round_no, index)
            self.let_go(world, place, rng)
        else:
            world.rebase()
        if move.kind != kozo.PLACE:
            return self._watch_window(world, index), True
        world = self._judging(world)
        report = (
            watch(world, cfg.hold_s, on_check=self._checker(index))
            if cfg.hold_s > 0
            else FallReport()
        )
        if waited.fell:  # balance cubes fell alone while waiting (balance_fall = ignore)
            assert waited.first is not None
            report = FallReport(
                [*waited.fell, *(p for p in report.fell if p not in waited.fell)],
                waited.first - extra,
                {**report.reasons, **waited.reasons},
            )
        return report, True

    def _wait(self, state: KozoState, before: Sequence[KozoMove], move: KozoMove) -> float | None:
        """Seconds from the previous turn's end to ``move`` (a placement) after the round's
        moves ``before``, None for the round's first placement and for other moves."""
        if move.kind != kozo.PLACE:
            return None
        cfg = self.config
        steps = ((m.kind, m.secs) for m in before)
        clock = clock_of_steps(steps, state.start, cfg.players, cfg.hold_s, cfg.window_s)
        return wait_after_turn(clock, move.secs, cfg.window_s)

    def _state_key(self, state: KozoState, extra: Sequence[KozoMove] = ()) -> tuple[Any, ...]:
        """What the cached world stands for: the game seed, the round and its moves as
        values (each with its time to place, which a move's equality leaves out)."""
        moves = (*state.moves, *extra)
        return (self.seed, state.round, tuple((m, m.secs) for m in moves))

    def _sync(self, state: KozoState) -> PersistentWorld:
        """The world of ``state``'s round after its moves (cached or rebuilt)."""
        if len(state.moves) != len(state.history):
            raise ValueError("kozo table: a state whose moves are not those of its history")
        key = self._state_key(state)
        if self._world is not None and self._key == key:
            return self._world
        world = self.fresh_world()
        self._balance_counter = 0
        self.rebuilds += 1
        for i, mv in enumerate(state.moves):
            if mv.kind == kozo.TAKE:
                continue
            wait = self._wait(state, state.moves[:i], mv)
            report, _ = self._run(world, mv, i, state.round, wait)
            world = self._live()  # (the window may have moved the round to another solver)
            self._after(world, report)
        self._key = key
        return world

    def _over(self, world: PersistentWorld, report: FallReport) -> bool:
        """Whether what ``report`` saw ends the round (a polycube, or any piece when a
        balance cube's fall is a topple)."""
        fell = set(report.fell)
        polys = {pid for pid in fell if world.polycube[pid]}
        return bool(polys) or (bool(fell) and self.config.balance_fall == "topple")

    def _after(self, world: PersistentWorld, report: FallReport) -> bool:
        """Apply the balance-fall option to the world; True when the round is over."""
        fell = set(report.fell)
        if not fell:
            return False
        if self._over(world, report):
            return True
        for pid in sorted(fell):
            world.remove_piece(pid)
        return False

    # ------------------------------------------------------------------ Referee
    def measure(self, state: KozoState, move: KozoMove) -> KozoMove:
        """The move as made at the table, carrying its :class:`Outcome`."""
        if move.kind == kozo.TAKE:  # no table time passes; keep the cached world in step
            if self._key == self._state_key(state):
                self._key = self._state_key(state, (move.intended(),))
            return move.intended()
        if move.kind not in (kozo.PLACE, kozo.CUBE, kozo.NOCUBE):
            raise ValueError(f"kozo table: cannot measure a {move.kind!r} move")
        if move.kind != kozo.PLACE or self._key != self._state_key(state):
            self._drop_idle()
        world = self._sync(state)
        index = len(state.moves)
        wait = self._wait(state, state.moves, move)
        try:
            report, placed = self._run(world, move.intended(), index, state.round, wait)
        except _WorldAhead:
            self._key = None  # the simulated wait stepped past the placement: rebuild
            world = self._sync(state)
            report, placed = self._run(world, move.intended(), index, state.round, wait)
        world = self._live()
        poses = []
        for pid in world.piece_ids:
            pos, q = world.pose(pid)
            poses.append(self.to_grid(pos, q))
        if not placed:  # the tower fell before the piece was let go: it stays as intended
            poses.append((*(float(v) for v in move.pos), 0.0, 0.0, 0.0, 1.0))
        outcome = Outcome(
            tuple(poses),  # type: ignore[arg-type]
            tuple(report.fell),
            None if report.first is None else float(report.first),
            "physics",
        )
        over = self._after(world, report)
        self._key = self._state_key(state, (move.intended(),))
        if over:
            self.close()
        elif move.kind != kozo.PLACE:
            self._start_idle(world)
        return replace(move.intended(), outcome=outcome)

    def close(self) -> None:
        """Close the cached world."""
        self._drop_idle()
        self._forget_snapshots()
        if self._world is not None:
            self._world.close()
        self._world = None
        self._key = None

    # ------------------------------------------------------------------ for bots
    def assess(
        self,
        state: KozoState,
        move: KozoMove,
        *,
        replicas: int = 2,
        seconds: float = 1.5,
        seed: int = 0,
    ) -> float:
        """Probability that ``move`` (intended pose) topples the settled tower of ``state``:
        the statics LP when it decides, else a seeded ensemble of ``replicas`` runs of
        ``seconds`` (one process). Never touches the table's world or noise stream.

        An estimate for bots, not a rule verdict, so its replicas also stop once the tower is
        quiet where statics finds an equilibrium on stacking contacts with a tilt margin of at
        least :data:`ASSESS_EARLY_STOP_DEG` (:class:`tablesim.sim.verdict.EarlyStop`): the 14 simulated
        candidates of two seeded careful-vs-greedy games got the same probabilities with it as
        without, for half the CPU (docs/performance.md). In :data:`tablesim.sim.config.TABLE`, the
        verdict profile without thin-margin escalation: the table's world is Gauss-Seidel."""
        from tablesim.sim.verdict import EarlyStop, simulate

        extra = []
        if move.kind in (kozo.PLACE, kozo.CUBE):
            n = 1 + sum(1 for it in state.tower if it.is_balance)
            extra.append(self.placement(move, n).piece)
        scene = self.tower_scene(state, extra)
        if not scene.dynamic:
            return 0.0
        verdict = simulate(
            scene, seconds=seconds, replicas=replicas, seed=seed, method="auto", workers=1,
            early_stop=EarlyStop(min_tilt_margin_deg=ASSESS_EARLY_STOP_DEG), profile=TABLE,
        )  # fmt: skip
        return float(verdict.topple_probability)


def items_from_scene(scene: Scene, config: KozoConfig) -> list[Item]:
    """The Kozo items of a scene on a Kozo base (grid-aligned pieces only), with the intended
    position and pose in the grid frame. Raises ValueError for a piece that is not a piece of
    the game's catalogue in one of its 24 rotations on the grid, or not a balance cube."""
    phys = scene.physics
    origin = kozo_grid_origin(phys)
    edge = phys.kozo_cube
    out: list[Item] = []
    for p in scene.dynamic:
        r = p.rotation()
        centres = np.asarray(p.position) + ((np.asarray(p.cells, float) + 0.5) * p.edge(phys)) @ r.T
        grid = (centres - origin) / edge
        if p.cube == "balance":
            x, y, z = grid[0]
            half = phys.balance_cube / edge / 2
            bottom = (float(x), float(y), float(z) - half)
            pose = (float(x) - half, float(y) - half, float(z) - half, 0.0, 0.0, 0.0, 1.0)
            out.append(Item(p.id, -1, bottom, pose, 0))
            continue
        name = p.source.split(":", 1)[1] if ":" in p.source else p.id
        cells = np.floor(grid + 1e-6).astype(int)
        if np.abs(grid - (cells + 0.5)).max() > 1e-3:
            raise ValueError(f"piece {p.id!r} is not on the Kozo grid")
        corner = cells.min(axis=0)
        oriented = tuple(sorted(tuple(int(v) for v in c - corner) for c in cells))
        shapes = piece_orientations(config.catalogue, name)
        if oriented not in shapes:
            raise ValueError(f"piece {p.id!r} is not {name} of {config.catalogue} on the grid")
        pos = tuple(float(v) for v in corner)
        out.append(Item(name, shapes.index(oriented), pos, (*pos, 0.0, 0.0, 0.0, 1.0), 0))  # type: ignore[arg-type]
    return out
