"""The topple verdict: a precise rule, a seeded ensemble of perturbed runs, and an explanation.

Topple rule (one rule for every game; thresholds are parameters, see :class:`ToppleRule`).
A piece *falls* during the window when any of these holds at a check instant:

1. it touches a static body (the table, the Kozo board, a pedestal) that it did not touch at
   the start (:meth:`tablesim.sim.world_contacts.Contacts.contacts_with_static`: exact, edges and corners included)
   after moving to it: some point of it moved more than :func:`tablesim.sim.world.shrink_shift` (the
   clearance's corner shift plus the contact tolerance, 0.19 mm). A contact the clearance
   opened (the foot of a leaning plank lifted 0.04 mm off its step) closes as the piece
   settles; it is a contact of the scene as written and joins the starting set;
2. its centre of mass is lower than at the start by more than ``drop_fraction`` (default 0.5)
   of its own cube edge;
3. it is a polycube (2 or more cubes) and has tipped more than ``tilt_deg`` (default 20
   degrees): its originally vertical direction leans that far from the vertical (turning
   about the vertical, e.g. the slow yaw creep of a resting piece, is not tipping). Single cubes (balance cubes) are judged by 1 and 2
   only: a cube that rolls a quarter turn onto a neighbouring face has not fallen.

The scene *topples* in a run when any piece falls within ``seconds`` (default 5 s, Kozo's
rule). Because collapses are chaotic (a nanometre changes which pieces fall), the verdict is an
ensemble: replica 0 is the scene as written, replicas 1..N-1 get seeded perturbations of every
dynamic piece (horizontal position, sigma 0.05 mm; rotation about the vertical, sigma 0.1
degree; vertical offsets and tilts are not used because they would start pieces inside their
supports). ``topple_probability`` is the fraction of replicas that toppled; the verdict is
``topples`` when it is at least 0.5.

Before simulating, the static-equilibrium LP (:mod:`tablesim.sim.statics`) gives every piece a margin and
a sentence. In ``method="auto"`` it settles the verdict alone only where that is safe (no
equilibrium even with side friction, nor with every face within the rule's drop limit of
another counted as touching -> topples; see :func:`_statics`;
equilibrium without side contacts and a tilt
margin of 8 degrees or more -> stands); everything else is simulated. ``method="simulate"``
always simulates. A centre of mass within 0.05 mm of a support edge is reported as marginal.

Where statics alone proves the scene stands, a simulated replica ends once the scene has been
quiet for 0.2 s (:class:`EarlyStop`; ``early_stop=None`` always runs the whole window).

The ensemble stops once its verdict and its probability are settled (sequential stopping,
:class:`tablesim.sim.stopping.SequentialStop`: replicas are consumed in index order; the run stops when
the verdict of all N is certain and the 95 % Wilson interval lies on one side of 0.5; N = 8
standing: 5 replicas; ``sequential=None`` runs all N). Replicas run in the calling process and
a warm process pool (``workers`` processes in all), in warm PyBullet clients
(:mod:`tablesim.sim.pools`), which give the bits of fresh ones.

Physics blow-ups (NaN, speeds over 5 m/s) raise :class:`tablesim.sim.world.PhysicsBlowUpError`; they are
errors, never verdicts.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from tablesim.games.rng import Rng
from tablesim.sim.config import Profile, get_profile
from tablesim.sim.model import (
    Scene,
    ScenePiece,
    matrix_to_quat,
    quat_from_euler_deg,
    quat_to_matrix,
)
from tablesim.sim.pools import NO_SPECULATION, Replicas
from tablesim.sim.stopping import SequentialStop

if TYPE_CHECKING:
    from tablesim.sim.escalation import Escalation
    from tablesim.sim.statics import PieceMargin, StaticReport

MARGINAL_MM = 0.05

VerdictName = Literal["stands", "topples"]
"""The answer of a verdict."""
Method = Literal["auto", "simulate"]
"""The method a caller asks for: ``auto`` lets statics settle safe cases, ``simulate`` always
simulates."""
DecidedBy = Literal["statics", "simulation"]
"""How a verdict was in fact decided (``auto`` gives either)."""
METHODS: tuple[Method, ...] = ("auto", "simulate")


@dataclass(frozen=True)
class ToppleRule:
    """Thresholds of the topple rule (see the module docstring)."""

    drop_fraction: float = 0.5
    tilt_deg: float = 20.0
    table_contact: bool = True
    check_every: float = 0.01  # seconds between checks of the rule

    def to_json(self) -> dict[str, Any]:
        """Plain-dict form."""
        return asdict(self)


@dataclass(frozen=True)
class Perturbation:
    """Seeded pose noise of replicas 1..N-1: horizontal position (mm) and yaw (degrees)."""

    sigma_mm: float = 0.05
    sigma_deg: float = 0.1

    def to_json(self) -> dict[str, Any]:
        """Plain-dict form."""
        return {
            "sigma_mm": self.sigma_mm,
            "sigma_deg": self.sigma_deg,
            "applies_to": "replicas 1..N-1",
        }


@dataclass(frozen=True)
class EarlyStop:
    """When a replica may end before its window: the scene has settled and statics proves it.

    Applied only when the static check of :mod:`tablesim.sim.statics` alone would call the scene safe
    (decision ``"stands"``: an equilibrium on stacking contacts only, with the friction pyramid
    inside the cone, and a tilt margin of 8 degrees or more). A replica then stops at the first
    rule check at which, for the last ``window_s`` of simulated time (every check in it), no
    piece has fallen, every piece moves slower than ``max_speed`` (m/s, centre of mass) and
    turns slower than ``max_spin`` (rad/s), and no piece is more than ``max_move`` (m) or
    ``max_tilt_deg`` away from its start. The rest of the window would be the verdict
    profile's numerical resting creep of a tower that statics shows to be in equilibrium.

    Thresholds from the measured creep of the resting 24-piece ``kozo-tower`` (verdict profile,
    replicas 0 and 3, sampled every 10 ms): after the first 50 ms the fastest piece moves at
    0.07-0.37 mm/s and turns at 0.002-0.024 rad/s, and drifts 0.07 mm in 0.5 s (0.46 mm in 5 s,
    almost all of it yaw). 1 mm/s and 0.1 rad/s are about 3 and 4 times those peaks; a piece
    that really tips accelerates through them within a few checks. ``max_move`` and
    ``max_tilt_deg`` are the "stands" bounds of ``tests/test_realism.py`` (0.5 mm, 1 degree):
    beyond them the pieces are no longer where statics proved equilibrium. The window, 0.2 s,
    is 20 rule checks and several times the 20-50 ms the tower takes to settle after release.
    """

    window_s: float = 0.2
    max_speed: float = 1e-3
    max_spin: float = 0.1
    max_move: float = 0.5e-3
    max_tilt_deg: float = 1.0
    min_tilt_margin_deg: float | None = None
    """None: only where statics decides "stands". A number (for estimates, not rule verdicts:
    the careful bot's): also where statics finds an equilibrium on stacking contacts alone (no
    side, edge or vertex contacts, no interpenetration) with at least this tilt margin, below
    the 8 degrees that let statics decide alone."""

    def applies(self, statics: StaticReport) -> bool:
        """Whether replicas of a scene with this static report may stop early."""
        if statics.decision == "stands":
            return True
        cs, margin = statics.contact_set, statics.tilt_margin_deg
        return bool(
            self.min_tilt_margin_deg is not None
            and statics.conservative_feasible
            and cs is not None
            and not (cs.penetrations or cs.unsupported or cs.side_contacts)
            and margin is not None
            and margin >= self.min_tilt_margin_deg
        )

    def to_json(self) -> dict[str, Any]:
        """Plain-dict form (``min_tilt_margin_deg`` only when set)."""
        out = asdict(self)
        if self.min_tilt_margin_deg is None:
            del out["min_tilt_margin_deg"]
        return out


@dataclass(frozen=True)
class PieceOutcome:
    """One piece in a verdict: replica-0 displacement and tilt, fall probability, static margin."""

    id: str
    displacement_mm: float | None
    tilt_deg: float | None
    fall_probability: float | None
    margin_mm: float | None
    marginal: bool
    sentence: str

    def to_json(self) -> dict[str, Any]:
        """JSON form with rounded numbers (byte-stable)."""
        return {
            "id": self.id,
            "displacement_mm": _r(self.displacement_mm),
            "tilt_deg": _r(self.tilt_deg),
            "fall_probability": _r(self.fall_probability),
            "margin_mm": _r(self.margin_mm),
            "marginal": self.marginal,
        }


@dataclass(frozen=True)
class Verdict:
    """The answer to "does this stand?": see :func:`simulate`.

    ``requested_method`` is what the caller asked for (``auto`` or ``simulate``),
    ``decided_by`` how the verdict was reached (``statics`` or ``simulation``); ``statics`` is
    the typed static report the verdict was built on. ``replicas`` is the number of replicas
    run (0 when statics decided), ``replicas_requested`` the ensemble size asked for; they differ
    when ``sequential`` (:class:`tablesim.sim.stopping.SequentialStop`) ended the ensemble early, and
    ``topple_probability`` is then the fraction of the replicas run."""

    verdict: VerdictName
    topple_probability: float
    replicas: int
    seconds: float
    profile: str
    time_step: float
    decided_by: DecidedBy
    requested_method: Method
    perturbation: Perturbation
    rule: ToppleRule
    seed: int
    first_fall_s: float | None
    explanation: str
    pieces: tuple[PieceOutcome, ...]
    statics: StaticReport | None = None
    replica_toppled: tuple[bool, ...] = ()
    max_penetration_mm: float | None = None
    early_stop: EarlyStop | None = None
    simulated_s: float | None = None
    replicas_requested: int | None = None
    sequential: SequentialStop | None = None
    escalation: Escalation | None = None

    @property
    def toppled(self) -> bool:
        """True when the verdict is "topples"."""
        return self.verdict == "topples"

    @property
    def method(self) -> DecidedBy:
        """How the verdict was decided: :attr:`decided_by` (the JSON key ``method``)."""
        return self.decided_by

    def to_json(self) -> dict[str, Any]:
        """The ``tablesim simulate --json`` object (no timings, so byte-stable)."""
        return {
            "verdict": self.verdict,
            "topple_probability": _r(self.topple_probability),
            "replicas": self.replicas,
            "replicas_requested": self.replicas_requested,
            "replicas_toppled": sum(self.replica_toppled),
            "seconds": self.seconds,
            "profile": self.profile,
            "time_step": self.time_step,
            "method": self.decided_by,
            "requested_method": self.requested_method,
            "seed": self.seed,
            "perturbation": self.perturbation.to_json(),
            "rule": self.rule.to_json(),
            "first_fall_s": _r(self.first_fall_s),
            "max_penetration_mm": _r(self.max_penetration_mm),
            "early_stop": self.early_stop.to_json() if self.early_stop else None,
            "simulated_s": _r(self.simulated_s),
            "sequential": self.sequential.to_json() if self.sequential else None,
            "explanation": self.explanation,
            "pieces": [p.to_json() for p in self.pieces],
            "statics": None if self.statics is None else self.statics.to_json(),
        } | ({"escalation": self.escalation.to_json()} if self.escalation else {})


def _r(x: float | None, nd: int = 6) -> float | None:
    if x is None:
        return None
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return round(float(x), nd)


# ---------------------------------------------------------------------------------------
# One run
# ---------------------------------------------------------------------------------------
@dataclass
class RunOutcome:
    """What one replica produced (picklable, for the process pool)."""

    toppled: bool
    first_fall_s: float | None
    fell: list[bool]
    displacement_mm: list[float]
    tilt_deg: list[float]
    max_penetration_mm: float
    reasons: list[str] = field(default_factory=list)
    simulated_s: float = 0.0
    settled: bool = False


def perturb_scene(scene: Scene, seed: int, replica: int, perturbation: Perturbation) -> Scene:
    """The scene of replica ``replica``: replica 0 unchanged, others with seeded pose noise."""
    if replica == 0 or (perturbation.sigma_mm == 0 and perturbation.sigma_deg == 0):
        return scene
    rng = Rng.from_seed(seed, "perturb", replica)
    pieces: list[ScenePiece] = []
    for p in scene.pieces:
        if p.static:
            pieces.append(p)
            continue
        dx, rng = rng.gauss()
        dy, rng = rng.gauss()
        dyaw, rng = rng.gauss()
        # Rotate about the vertical line through the piece's centre of mass.
        _, com = p.mass_and_com(scene.physics)
        yaw = quat_from_euler_deg(0.0, 0.0, dyaw * perturbation.sigma_deg)
        rz = quat_to_matrix(yaw)
        pos = np.asarray(p.position, dtype=float)
        new_pos = com + rz @ (pos - com) + np.array([dx, dy, 0.0]) * perturbation.sigma_mm * 1e-3
        new_rot = rz @ p.rotation()
        pieces.append(
            replace(
                p,
                position=(float(new_pos[0]), float(new_pos[1]), float(new_pos[2])),
                orientation=matrix_to_quat(new_rot),
            )
        )
    return replace(scene, pieces=tuple(pieces))


def run_once(
    scene: Scene,
    profile: Profile,
    seconds: float,
    rule: ToppleRule,
    early_stop: EarlyStop | None = None,
    abort: Callable[[], bool] | None = None,
) -> RunOutcome:
    """Simulate one scene for ``seconds`` and apply the topple rule at every check instant.

    With ``early_stop`` the run ends as soon as the scene has been quiet as that object defines
    (the caller decides whether statics allows it; :func:`simulate` does); ``settled`` and
    ``simulated_s`` of the outcome say whether and when. ``abort`` is asked at every check
    (and before the world is built): when it answers True the run raises
    :class:`tablesim.sim.pools.ReplicaCancelled` (a pool worker whose replica is no longer needed).
    The world is built in the thread's warm PyBullet client (:func:`tablesim.sim.pools.lease_client`;
    the same bits as a fresh one)."""
    from tablesim.sim.pools import ReplicaCancelled, lease_client

    if abort is not None and abort():
        raise ReplicaCancelled()
    with lease_client() as client:
        return _run_in(scene, profile, seconds, rule, early_stop, abort, client)


def _run_in(
    scene: Scene,
    profile: Profile,
    seconds: float,
    rule: ToppleRule,
    early_stop: EarlyStop | None,
    abort: Callable[[], bool] | None,
    client: int | None,
) -> RunOutcome:
    """:func:`run_once` in PyBullet client ``client`` (None: a new one)."""
    from tablesim.sim.guard import check_positions
    from tablesim.sim.pools import ReplicaCancelled
    from tablesim.sim.world import World, shrink_shift

    cfg = scene.physics
    dyn = scene.dynamic
    edges = np.array([p.edge(cfg) for p in dyn])
    is_poly = np.array([len(p.cells) > 1 and p.box is None for p in dyn])
    # the pieces whose fall is the scene's (Scene.judged; None: all of them)
    judged = np.array([scene.judged is None or p.id in scene.judged for p in dyn], dtype=bool)
    with World(scene, profile, client=client) as world:
        ids = list(world.piece_ids)
        com0 = world.com_positions().copy()
        start_contacts = world.contacts.contacts_with_static()
        settle = shrink_shift(cfg)  # a new static contact needs a piece that moved to it
        fell = np.zeros(len(ids), dtype=bool)
        reasons: list[str] = [""] * len(ids)
        first: float | None = None
        max_pen = 0.0
        steps_per_check = max(1, round(rule.check_every / profile.time_step))
        n_checks = max(1, math.ceil(seconds / (steps_per_check * profile.time_step) - 1e-9))
        index = {pid: i for i, pid in enumerate(ids)}
        quiet_checks, settled = 0, False
        need_quiet = (
            0
            if early_stop is None
            else max(
                1, math.ceil(early_stop.window_s / (steps_per_check * profile.time_step) - 1e-9)
            )
        )
        for _ in range(n_checks):
            if abort is not None and abort():
                raise ReplicaCancelled()
            world.step(steps_per_check)
            states = world.states()  # every body read once per check (docs/performance.md)
            com = states.com
            check_positions(ids, world.time, com)  # before a blown-up pose can read as a fall
            drop = com0[:, 2] - com[:, 2]
            dropped = drop > rule.drop_fraction * edges
            tilted = is_poly & world.baseline.tipped(rule.tilt_deg, states)
            now = dropped | tilted
            if rule.table_contact:
                contacts = world.contacts.check_contacts(start_contacts, states)
                pen = contacts.max_penetration
                for pid, sid in sorted(contacts.new):  # sorted: the same reason in every process
                    i = index[pid]
                    if not world.baseline.moved_beyond(i, com0[i], states, settle):
                        start_contacts.add((pid, sid))  # the scene's own, opened by the shrink
                        continue
                    if not fell[i] and not now[i]:
                        reasons[i] = f"touched {sid}"
                    now[i] = True
            else:
                pen = world.contacts.max_penetration()
            max_pen = max(max_pen, pen)
            now &= judged
            if now.any():  # one array operation per check while nothing falls (the usual case)
                for i in np.flatnonzero(now & ~fell).tolist():
                    if not reasons[i]:
                        tilt = (
                            world.baseline.tip_angle_deg(i, states.quat[i]) if is_poly[i] else 0.0
                        )
                        reason = fall_reason(drop[i], rule.drop_fraction * edges[i], tilt,
                                             rule.tilt_deg)  # fmt: skip
                        reasons[i] = (
                            _drop_reason(drop[i], com[i])
                            if reason.startswith("dropped")
                            else reason
                        )
                if first is None:
                    first = world.time
                fell |= now
            if (first is not None or not ids) and fell[judged].all():
                break
            if early_stop is not None and first is None:  # a fall rules out settling for good
                quiet_checks = quiet_checks + 1 if _quiet(world, states, com0, early_stop) else 0
                if quiet_checks >= need_quiet:
                    settled = True
                    break
        simulated = world.time
        world.check()
        com = world.com_positions()
        disp = np.linalg.norm(com - com0, axis=1) * 1e3
        tilts = world.baseline.tip_angles_deg()
    return RunOutcome(
        toppled=bool(fell.any()),
        first_fall_s=first,
        fell=[bool(v) for v in fell],
        displacement_mm=[float(v) for v in disp],
        tilt_deg=[float(v) for v in tilts],
        max_penetration_mm=max_pen * 1e3,
        reasons=reasons,
        simulated_s=simulated,
        settled=settled,
    )


def _quiet(world: Any, states: Any, com0: np.ndarray, stop: EarlyStop) -> bool:
    """Whether every piece is slow, barely turning and near its start (see :class:`EarlyStop`).
    The pose bounds are tested first: velocities are read only when they hold."""
    com = states.com
    if len(com) == 0:
        return True
    if _max_norm(com - com0) > stop.max_move:
        return False
    if not np.isfinite(states.quat).all() or world.baseline.tipped(stop.max_tilt_deg, states).any():
        return False
    lin, ang = world.velocities()
    return _max_norm(lin) <= stop.max_speed and _max_norm(ang) <= stop.max_spin


def _max_norm(rows: np.ndarray) -> float:
    """``np.linalg.norm(rows, axis=1).max()`` with the same operations (and bits), without the
    wrapper's cost: the square root of the largest sum of squares (the root is monotonic and
    correctly rounded, so it commutes with the maximum)."""
    return math.sqrt(float(np.add.reduce(rows * rows, axis=1).max()))


def _run_replica(
    args: tuple[Scene, int, int, Perturbation, Profile, float, ToppleRule, EarlyStop | None],
) -> RunOutcome:
    from tablesim.sim.pools import cancelled

    scene, seed, replica, perturbation, profile, seconds, rule, stop = args
    return run_once(
        perturb_scene(scene, seed, replica, perturbation), profile, seconds, rule, stop, cancelled
    )


# ---------------------------------------------------------------------------------------
# The ensemble
# ---------------------------------------------------------------------------------------
def simulate(
    scene: Scene,
    *,
    seconds: float | None = None,
    replicas: int = 8,
    seed: int = 0,
    profile: str | Profile = "verdict",
    time_step: float | None = None,
    perturbation: Perturbation | None = None,
    rule: ToppleRule | None = None,
    method: Method = "auto",
    workers: int | None = None,
    early_stop: EarlyStop | None = EarlyStop(),  # noqa: B008 (frozen, so sharing is safe)
    sequential: SequentialStop | None = SequentialStop(),  # noqa: B008 (frozen)
) -> Verdict:
    """Judge whether ``scene`` stands: an ensemble of ``replicas`` seeded runs.

    Parameters
    ----------
    scene : a :class:`tablesim.sim.model.Scene` (see :func:`tablesim.sim.scene.load_scene`).
    seconds : the window (default: the scene's, 5 s for Kozo).
    replicas : ensemble size N >= 1 (replica 0 is unperturbed).
    seed : seed of the perturbations; the same scene and seed give the same verdict, bit for bit.
    profile : ``"verdict"`` (rule decisions), ``"display"`` or ``"exact"``; ``time_step``
        overrides its step. Where statics finds a tilt margin under the profile's
        ``escalate_below_deg`` the replicas run in its ``escalate_to`` profile instead
        (:mod:`tablesim.sim.escalation`; the verdict's ``escalation`` says so).
    method : ``"auto"`` (statics may settle safe cases without simulating) or ``"simulate"``.
    workers : processes for the replicas (default: all cores, at most ``replicas``).
    early_stop : when statics alone proves the scene stands (its decision is ``"stands"``; or
        as :attr:`EarlyStop.min_tilt_margin_deg` allows), each replica may end once the scene
        has settled (:class:`EarlyStop`); ``None`` always simulates the whole window. Only ``method="simulate"`` reaches it for such scenes.
    sequential : stop the ensemble once its verdict and probability are settled
        (:class:`tablesim.sim.stopping.SequentialStop`: replicas consumed in index order, the verdict
        always that of all ``replicas``); ``None`` runs every replica. The verdict's
        ``replicas`` counts the replicas run, ``replicas_requested`` the ensemble size asked.

    Returns a :class:`Verdict`; raises ``tablesim.sim.world.PhysicsBlowUpError`` on a blow-up and
    ``ValueError`` on bad arguments.
    """
    plan = _plan(
        scene, seconds, replicas, seed, profile, time_step, perturbation, rule, method, workers,
        early_stop, sequential,
    )  # fmt: skip
    ensemble = plan.replicas_in(plan.profile)  # speculative runs start while statics runs
    try:
        statics = _statics(scene, plan.rule)
    except BaseException:
        ensemble.close(kill=True)
        raise
    if scene.judged is not None and statics.decision != "undecided":
        # a piece let go in the air (a drop): statics of the scene as written is not the
        # judged pieces' fate, the dynamics is
        statics = replace(statics, decision="undecided",
                          why=f"{statics.why}; some pieces are not judged (a drop): simulate")  # fmt: skip
    if method == "auto" and statics.decision != "undecided":
        return _static_verdict(plan, statics)  # (nothing was started: NO_SPECULATION)
    esc = _escalate(plan, statics)
    if esc is not None:  # thin margin: the direct solver instead (the speculative runs go)
        ensemble.close()
        ensemble = plan.replicas_in(esc.profile)
    stop = early_stop if early_stop is not None and early_stop.applies(statics) else None
    runs = ensemble.results(stop)
    return _simulated_verdict(plan, statics, runs, stop, esc)


@dataclass(frozen=True)
class _Plan:
    """The checked arguments of one :func:`simulate` call: what its ensemble runs.

    ``profile`` is the run profile (its step possibly overridden), ``own_step`` the step the
    profile asked for itself (read by :func:`tablesim.sim.escalation.escalation`), ``workers`` the
    number of processes."""

    scene: Scene
    seconds: float
    replicas: int
    seed: int
    profile: Profile
    own_step: float
    perturbation: Perturbation
    rule: ToppleRule
    method: Method
    workers: int
    early_stop: EarlyStop | None
    sequential: SequentialStop | None

    def replicas_in(self, run_prof: Profile) -> Replicas:
        """The ensemble's replicas in ``run_prof``, started (they run while statics runs when
        ``method="simulate"`` allows an early stop; otherwise with :data:`NO_SPECULATION`)."""
        return Replicas(
            _run_replica,
            [
                (self.scene, self.seed, k, self.perturbation, run_prof, self.seconds, self.rule)
                for k in range(self.replicas)
            ],
            self.workers,
            self.early_stop if self.method == "simulate" else NO_SPECULATION,
            self.sequential,
        )

    def common(self, statics: StaticReport) -> dict[str, Any]:
        """The :class:`Verdict` fields that every verdict of this plan shares."""
        return dict(
            seconds=self.seconds,
            profile=self.profile.name,
            time_step=self.profile.time_step,
            requested_method=self.method,
            perturbation=self.perturbation,
            rule=self.rule,
            seed=self.seed,
            statics=statics,
            replicas_requested=self.replicas,
        )


def _plan(
    scene: Scene,
    seconds: float | None,
    replicas: int,
    seed: int,
    profile: str | Profile,
    time_step: float | None,
    perturbation: Perturbation | None,
    rule: ToppleRule | None,
    method: Method,
    workers: int | None,
    early_stop: EarlyStop | None,
    sequential: SequentialStop | None,
) -> _Plan:
    """:func:`simulate`'s arguments checked (ValueError naming the bad one) and defaulted."""
    if replicas < 1:
        raise ValueError(f"replicas must be >= 1, got {replicas}")
    if not scene.dynamic:
        raise ValueError(f"{scene.source}: no pieces that can move, nothing to judge")
    if method not in METHODS:
        raise ValueError(f"method must be 'auto' or 'simulate', got {method!r}")
    prof = own = get_profile(profile) if isinstance(profile, str) else profile
    if time_step is not None:
        if not (0 < time_step <= 0.02):
            raise ValueError(f"time_step must be in (0, 0.02] s, got {time_step}")
        prof = prof.with_step(time_step)
    secs = scene.seconds if seconds is None else float(seconds)
    if not (0 < secs <= 600):
        raise ValueError(f"seconds must be in (0, 600], got {secs}")
    return _Plan(
        scene, secs, replicas, seed, prof, own.time_step, perturbation or Perturbation(),
        rule or ToppleRule(), method, min(replicas, workers or os.cpu_count() or 1), early_stop,
        sequential,
    )  # fmt: skip


def _escalate(plan: _Plan, statics: StaticReport) -> Escalation | None:
    """The escalation to another profile that statics' margins ask for, or None."""
    from tablesim.sim.escalation import escalation

    return escalation(plan.profile, plan.own_step, statics, plan.scene)


def _outcomes(
    plan: _Plan,
    statics: StaticReport,
    run0: RunOutcome | None,
    fall_prob: Sequence[float] | None,
) -> tuple[PieceOutcome, ...]:
    """Each dynamic piece's outcome: replica 0's motion (if run), its fall probability (if
    any) and statics' margin and sentence."""
    margins: dict[str, PieceMargin] = {p.id: p for p in statics.pieces}
    out = []
    for i, piece in enumerate(plan.scene.dynamic):
        m = margins.get(piece.id)
        out.append(
            PieceOutcome(
                piece.id,
                run0.displacement_mm[i] if run0 else None,
                run0.tilt_deg[i] if run0 else None,
                float(fall_prob[i]) if fall_prob is not None else None,
                None if m is None else _json_mm(m.margin_mm),
                m is not None and m.marginal,
                "" if m is None else m.sentence,
            )
        )
    return tuple(out)


def _static_verdict(plan: _Plan, statics: StaticReport) -> Verdict:
    """The verdict when statics decided alone (no replica counted)."""
    toppled = statics.decision == "topples"
    return Verdict(
        verdict="topples" if toppled else "stands",
        topple_probability=1.0 if toppled else 0.0,
        replicas=0,
        decided_by="statics",
        first_fall_s=None,
        explanation=_explain_static(statics, toppled),
        pieces=_outcomes(plan, statics, None, None),
        **plan.common(statics),
    )


def _simulated_verdict(
    plan: _Plan,
    statics: StaticReport,
    runs: Sequence[RunOutcome],
    stop: EarlyStop | None,
    esc: Escalation | None,
) -> Verdict:
    """The verdict of the replicas run (a majority of topples: ``"topples"``)."""
    n_top = sum(r.toppled for r in runs)
    n_run = len(runs)
    prob = n_top / n_run
    falls = [r.first_fall_s for r in runs if r.first_fall_s is not None]
    first = min(falls) if falls else None
    fall_prob = np.mean([r.fell for r in runs], axis=0) if plan.scene.dynamic else []
    pieces = _outcomes(plan, statics, runs[0], fall_prob)
    verdict: VerdictName = "topples" if prob >= 0.5 else "stands"
    return Verdict(
        verdict=verdict,
        topple_probability=prob,
        replicas=n_run,
        decided_by="simulation",
        first_fall_s=first,
        explanation=_explain_sim(
            verdict,
            n_top,
            n_run,
            first,
            pieces,
            runs,
            statics,
            plan.seconds,
            _sequential_note(plan.sequential, n_run, plan.replicas)
            + (f" {esc.reason}" if esc else ""),
        ),  # fmt: skip
        pieces=pieces,
        replica_toppled=tuple(r.toppled for r in runs),
        max_penetration_mm=max(r.max_penetration_mm for r in runs),
        early_stop=stop,
        simulated_s=max(r.simulated_s for r in runs),
        sequential=plan.sequential,
        escalation=esc,
        **plan.common(statics),
    )


def _sequential_note(rule: SequentialStop | None, run: int, requested: int) -> str:
    if rule is None or run >= requested:
        return ""
    return (
        f" Sequential stop after {run} of {requested} replicas: the verdict of all {requested}"
        " was certain and the 95 % interval of the topple probability on one side of 0.5."
    )


def _settled_note(runs: Sequence[RunOutcome], seconds: float) -> str:
    settled = [r.simulated_s for r in runs if r.settled]
    if not settled:
        return ""
    return (
        f" {len(settled)} of {len(runs)} runs came to rest and were stopped after"
        f" {min(settled):.2f}-{max(settled):.2f} s of the {seconds:g} s window"
        " (statics proves equilibrium; see EarlyStop)."
    )


def fall_reason(drop: float, drop_limit: float, tilt_deg: float, tilt_limit_deg: float) -> str:
    """The dominant reason a piece fell by the rule's clauses 2 and 3: ``tilted N deg`` when its
    tilt is the larger fraction of its limit (``tilt_deg / tilt_limit_deg``), else ``dropped N
    mm`` (``drop / drop_limit``; m). A bar that tipped 22 degrees about a support edge while its
    centre of mass rose 1.3 mm fell by tilting, not by a drop of -1.3 mm. Pass ``tilt_deg`` 0 for
    a piece the tilt clause does not judge (single cubes)."""
    if tilt_limit_deg > 0 and tilt_deg / tilt_limit_deg > drop / drop_limit:
        return f"tilted {tilt_deg:.0f} deg"
    return f"dropped {drop * 1e3:.1f} mm"


def _drop_reason(drop: float, com: np.ndarray) -> str:
    """Why a dropped piece fell: off the table (its centre of mass below the table top and
    beyond its edge, over the room's floor) or ``dropped N mm``."""
    from tablesim.sim.guard import TABLE_HALF_M

    if com[2] < 0.0 and max(abs(com[0]), abs(com[1])) > TABLE_HALF_M:
        return "fell off the table"
    return f"dropped {drop * 1e3:.1f} mm"


def _runs(n: int) -> str:
    """``run`` or ``runs`` after the number ``n``."""
    return "run" if n == 1 else "runs"


def _statics(scene: Scene, rule: ToppleRule | None = None) -> StaticReport:
    """The static report (decision, tilt margin, per-piece margins and sentences).

    Its ``"topples"`` (no rigid equilibrium as written) stands only where no settle the topple
    rule calls standing can stop the motion (:func:`tablesim.sim.statics.settle_can_hold` with
    the gap of :func:`tablesim.sim.statics.settle_gap`: ``rule.drop_fraction`` of the largest
    cube edge); otherwise the decision is ``"undecided"`` and the scene is simulated (issue
    #31: a tower 1.8 mm past an edge that tips 0.8 degrees onto a neighbour and stands)."""
    from tablesim.sim.statics import UNDECIDED, analyse, settle_can_hold, settle_gap

    # The same horizontal clearance as the physics world, so statics judges the pieces the
    # simulation moves (exact geometry would add side contacts that make "stands" impossible).
    try:
        report = analyse(scene, clearance=scene.physics.clearance)
        if report.decision != "topples":
            return report
        gap = settle_gap(scene, (rule or ToppleRule()).drop_fraction)
        held, why = settle_can_hold(scene, gap, clearance=scene.physics.clearance)
    except ValueError as exc:  # linprog refusing numbers out of its range (sim.guard)
        from tablesim.sim.guard import statics_failure

        raise statics_failure(exc) from exc
    if not held:  # (the report as analysed: its why is in the shipped verdicts' JSON)
        return report
    return replace(
        report,
        decision=UNDECIDED,
        why=f"no equilibrium as written, but a settle may hold it ({why}): simulate",
    )


def _json_mm(x: float | None) -> float | None:
    """A margin as the static report's JSON writes it (rounded to 1e-4 mm), so a verdict's
    pieces say what its ``statics`` object says."""
    return None if x is None else round(x, 4) + 0.0


def _worst_piece(statics: StaticReport | None) -> PieceMargin | None:
    if statics is None:
        return None
    cands = [p for p in statics.pieces if p.margin_mm is not None]
    return min(cands, key=lambda p: _json_mm(p.margin_mm) or 0.0) if cands else None


def _marginal_note(statics: StaticReport | None) -> str:
    if statics is None:
        return ""
    marg = [p for p in statics.pieces if p.marginal]
    if not marg:
        return ""
    names = ", ".join(repr(p.id) for p in marg)
    return (
        f" Marginal: the centre of mass of {names} is within {MARGINAL_MM} mm of a support "
        "edge, where a real tower could go either way; the verdict comes from simulation."
    )


def _explain_static(statics: StaticReport, toppled: bool) -> str:
    worst = _worst_piece(statics)
    margin = statics.tilt_margin_deg
    shown = 0.0 if margin is None else round(margin, 4)
    head = (
        "Topples: no static equilibrium exists, even with friction on side faces."
        if toppled
        else f"Stands: static equilibrium with a tilt margin of {shown:.1f} degrees."
    )
    tail = f" {worst.sentence}" if worst and worst.sentence else ""
    return head + tail + " (Decided by statics; no simulation was needed.)"


def _explain_sim(
    verdict: str,
    n_top: int,
    n: int,
    first: float | None,
    pieces: Sequence[PieceOutcome],
    runs: Sequence[RunOutcome],
    statics: StaticReport | None,
    seconds: float,
    note: str = "",
) -> str:
    if n_top:
        fallers = sorted(
            (p for p in pieces if p.fall_probability),
            key=lambda p: (-(p.fall_probability or 0), p.id),
        )
        names = ", ".join(f"{p.id!r} ({p.fall_probability:.0%})" for p in fallers[:4])
        reason = next(
            (r.reasons[i] for r in runs for i, f in enumerate(r.fell) if f and r.reasons[i]), ""
        )
        head = (
            f"{verdict.capitalize()}: {n_top} of {n} {_runs(n)} toppled within {seconds:g} s"
            f" (first fall at {first:.2f} s; pieces that fell: {names}"
            + (f"; first reason: {reason}" if reason else "")
            + ")."
        )
    else:
        moved = max((p.displacement_mm or 0.0 for p in pieces), default=0.0)
        head = (
            f"Stands: none of {n} {_runs(n)} toppled within {seconds:g} s"
            f" (largest movement {moved:.2f} mm).{_settled_note(runs, seconds)}"
        )
    worst = _worst_piece(statics)
    tail = f" Statics: {worst.sentence}" if worst and worst.sentence else ""
    return head + note + tail + _marginal_note(statics)
