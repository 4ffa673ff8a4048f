"""Physical constants and simulation profiles, in SI units (metres, kilograms, seconds).

Every number here is documented with where it comes from; ``docs/architecture.md`` ("Physics")
holds the measurements behind the profiles.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from tablesim.games.polycubes import PieceSizes

MM = 1e-3
INCH = 25.4e-3
PYBULLET_CONTACT_BREAKING_THRESHOLD = 0.02
"""PyBullet's default contact breaking threshold (m), a process-wide setting (``gContactBreakingThreshold``)."""


@dataclass(frozen=True)
class PhysicsConfig(PieceSizes):
    """Material and size constants shared by every world.

    Cube edges and density: the pieces' own (:class:`tablesim.games.polycubes.PieceSizes`, defined
    with the catalogues: Kozo 17.8 mm, balance cube 10.2 mm, Katamino 19 mm, wood 700 kg/m^3).
    Friction 0.45: dry wood on wood measures 0.25-0.5 static (cited); the sensible range to
    sweep is 0.3-0.6. Clearance 0.2 mm between neighbouring pieces (about 1 % of a cube; an
    assumption to check on a real set): without it, tightly packed neighbours jam by friction
    in a way real pieces do not.

    The Kozo base: a board 3.9 in square (ACTOP), with a 3x3 grid of squares whose size is its
    own setting; ``kozo_square`` = None means "the cube edge" (an inference: the rulebook shows
    the grid only in pictures we do not have). The board thickness is our assumption.
    """

    friction: float = 0.45
    clearance: float = 0.2 * MM
    gravity: float = 9.81
    kozo_board: float = 3.9 * INCH
    kozo_board_thickness: float = 8.0 * MM
    kozo_square: float | None = None

    @property
    def square(self) -> float:
        """Kozo base grid square edge (m); defaults to the Kozo cube edge."""
        return self.kozo_cube if self.kozo_square is None else self.kozo_square

    def with_overrides(self, **values: Any) -> PhysicsConfig:
        """A copy with some fields replaced (unknown names raise ValueError)."""
        known = {f.name for f in fields(self)}
        bad = sorted(set(values) - known)
        if bad:
            raise ValueError(
                f"unknown physics setting(s) {bad} (allowed: {', '.join(sorted(known))})"
            )
        return replace(self, **values)

    def to_json(self) -> dict[str, Any]:
        """Plain-dict form."""
        return asdict(self)


@dataclass(frozen=True)
class Profile:
    """Solver settings of a PyBullet world (``docs/architecture.md``, "Contact model", has the
    measurements behind every value).

    verdict: used for every rule decision. 1 ms step: at PyBullet's default 1/240 s, soft
      contacts pull down towers that are statically stable with a 5.6 degree margin (measured).
      50 iterations: fewer leave visible penetration. Maximal coordinates: 3x faster than the
      multibody path for free bodies. No friction anchors and no sleeping: both freeze a tower
      that is really tipping slowly (measured: anchors froze a creeping tower at 0.73 mm).
      Restitution 0 and damping 0: wood blocks barely bounce, and PyBullet's default damping
      0.04 removes 17 % of a spin's energy per second, which is not physics.
    display: for watching. Friction anchors (remove resting creep), sleeping (fast at rest),
      small restitution so falls look alive; the same contact model as the verdict. It
      escalates on thin margins as the verdict does (below 1.5 degrees, to ``display-exact``),
      so that what a user watches is what the verdict says.
    display-exact: the display's looks (anchors, sleeping, restitution 0.1, 2 mm breaking
      threshold) on the ``exact`` profile's direct solver (multibodies, LCP_DANTZIG,
      ``globalCFM`` 1e-6), at 1/180 s: three steps per 60 Hz frame, between the 4 and 5 ms at
      which the exact profile was measured right on every #19 stack, the edge scan and the
      tipping times (1.03 / 0.97 of the ODE). Its cost grows as the cube of the contact points
      (a dense LCP): a 20-stack (80 points) 7.5 ms of CPU per 1/60 s awake, a ``kozo-tower``
      (190) 82 ms, so the live view takes it only for small scenes
      (:data:`tablesim.sim.escalation.LIVE_DIRECT_MAX_POINTS`); docs/architecture.md, "Contact model".

    The contact model (both profiles; PyBullet's own defaults are tuned for metre-sized bodies
    and fail on stacks of 18 mm cubes):

    ``contact_stiffness`` / ``contact_damping``: each body's contact spring (N/m) and damper
      (N s/m); Bullet joins the two bodies of a contact point in series (stiffness k/2) and sums
      the dampers (2 c), and turns them into a per-step ERP and CFM (``erp = dt k / (dt k + c)``,
      ``cfm = 1 / (dt k + c)``). A fixed spring-damper is a property of the contact, not of the
      step, so halving the step refines the same model; PyBullet's default (a fixed ERP of 0.08
      per step, no damping) is a spring whose stiffness grows as 1/dt^2 and which has no
      damping at all: tall stacks sway with a growing amplitude.
    ``warm_starting``: fraction of last step's contact impulses the solver starts from. PyBullet
      sets 0.1 (Bullet's own default is 0.85): the weight of a 20-cube stack must then be rebuilt
      every step by 50 Gauss-Seidel sweeps and the stack sinks about 1 mm per contact. 1.0 (all of
      it) makes straight stacks calmer still but moves a bar resting over an edge off its
      geometric rest angle (20.15 instead of 19.47 deg, measured): 0.85 kept.
    ``contact_slop``: penetration (m) the solver lets pass before it pushes back. PyBullet sets
      1e-5 m: every stacked contact sinks 10 um first, and a stack released exactly touching
      falls freely for about one step per cube (the top of 20 cubes drops 0.65 mm).
    ``solver_residual``: the solver stops sweeping once no contact's velocity changes by more than
      its square root (m/s) in a sweep. PyBullet's 1e-7 (0.3 mm/s) for the verdict; the display
      takes 1e-6 (1 mm/s): 1.7x cheaper while pieces move, stacks and drift unchanged (measured).
    ``contact_breaking_threshold``: how far apart (m) two bodies' bounding boxes may be and still
      be handed to the narrow phase, and how far a manifold point may separate before it is
      dropped. PyBullet's 2 cm is more than a Kozo cube, so every piece within 2 cm of another
      is tested each step. For box on box it changes no contact: Bullet's box-box detector makes
      points only where boxes overlap (no speculative points), so only the bookkeeping shrinks.
      The display takes 2 mm (awake ``kozo-tower`` about 0.75x the CPU, 4.9 -> 3.6 ms per 1/60 s
      at load 15; stacks and drift unchanged, measured); 0.5 mm saves the same but lets
      re-impacts in a collapsing 20-stack go deeper (persisting manifold points act as
      speculative contacts) and throws a cube off the table. The verdict keeps PyBullet's
      value, so its numbers stay as they were.
      PyBullet holds this one setting per process, not per world:
      :class:`tablesim.sim.world.World` sets it around each of its own steps and puts PyBullet's back.
    ``maximal_coordinates``: loose pieces as maximal-coordinate rigid bodies (True, both shipped
      profiles: the cheaper path) or as single-link floating-base multibodies (False: their
      contacts then go through ``btMultiBodyConstraintSolver``, which is the only place PyBullet
      3.2.7's direct MLCP solver applies its answer; the ``exact`` profile).
    ``extra``: further ``setPhysicsEngineParameter`` keywords, as they are.
    ``escalate_below_deg`` / ``escalate_to``: thin-margin escalation (:mod:`tablesim.sim.escalation`).
      When the rigid statics of a scene stands on stacking contacts with a tilt margin below
      this many degrees, :func:`tablesim.sim.verdict.simulate` runs its replicas in the profile
      ``escalate_to`` (its step scaled as this profile's step is to its own, so halving the
      step still halves it) instead: the Gauss-Seidel springs of the verdict profile bend a
      tall leaning stack by about a tenth of its margin and its release sways it, which
      topples stacks whose tilt margin is below 0.6-0.7 degrees (measured for 3-30 cubes).
      The verdict and display profiles escalate below 1.5 degrees (about twice that frontier;
      the display's springs are the verdict's), a threshold raised where a piece rests on a
      much lighter one (times the mass ratio over :data:`tablesim.sim.escalation.MASS_RATIO_SCALE`);
      None: never (the exact profiles).

    exact: the verdict's settings solved directly, for thin-margin towers (the verdict profile
      escalates to it by itself below ``escalate_below_deg``; ``--profile exact`` asks for it
      on any scene): pieces as multibodies and ``constraintSolverType`` LCP_DANTZIG, so each step's
      contact LCP (friction pyramid included) is solved exactly instead of by 50 Gauss-Seidel
      sweeps. That MLCP takes the springs' ERP (``dt k / (dt k + c)`` = 0.985 at 2 ms) but not
      their CFM, so contacts are rigid (resting penetration ~1e-13 m) and a tall leaning stack no
      longer bends on them; ``globalCFM`` 1e-6 keeps its matrix regular (with 0, the 4 points of
      a face make it singular, Dantzig fails and Bullet falls back to Gauss-Seidel every step,
      bit for bit). 2 ms step (the verdict is the same at 1 and 0.5 ms, measured). Contact
      damping :data:`EXACT_CONTACT_DAMPING` (1000 N s/m per body, not 3): with rigid contacts
      it only sets the ERP's push-out time constant, 40 ms, so an impact lands plastically. It gets every
      leaning stack of the #19 table right where the verdict profile does not, at about 4x its
      CPU on a 20-stack and 6x on the shipped scenes (``bench/contact_models.py``;
      docs/architecture.md, "Contact model").
    """

    name: str
    time_step: float
    solver_iterations: int
    friction_anchor: bool
    sleeping: bool
    restitution: float
    linear_damping: float
    angular_damping: float
    deterministic_pairs: bool = True
    contact_stiffness: float | None = 1.0e5
    contact_damping: float | None = 3.0
    warm_starting: float = 0.85
    contact_slop: float = 0.0
    solver_residual: float = 1e-7
    contact_breaking_threshold: float = PYBULLET_CONTACT_BREAKING_THRESHOLD
    maximal_coordinates: bool = True
    extra: dict[str, Any] = field(default_factory=dict)
    escalate_below_deg: float | None = None
    escalate_to: str = "exact"

    def with_step(self, time_step: float) -> Profile:
        """The same profile with another time step (for step-halving checks)."""
        return replace(self, time_step=time_step)

    def to_json(self) -> dict[str, Any]:
        """Plain-dict form."""
        return asdict(self)


VERDICT = Profile(
    name="verdict",
    time_step=1e-3,
    solver_iterations=50,
    friction_anchor=False,
    sleeping=False,
    restitution=0.0,
    linear_damping=0.0,
    angular_damping=0.0,
    escalate_below_deg=1.5,
)
DISPLAY = Profile(
    name="display",
    time_step=1.0 / 960.0,
    solver_iterations=50,
    friction_anchor=True,
    sleeping=True,
    restitution=0.1,
    linear_damping=0.0,
    angular_damping=0.0,
    solver_residual=1e-6,
    contact_breaking_threshold=2.0 * MM,
    escalate_below_deg=1.5,
    escalate_to="display-exact",
)
LCP_DANTZIG = 3
"""pybullet's ``CONSTRAINT_SOLVER_LCP_DANTZIG`` (``pybullet`` is imported lazily elsewhere)."""
EXACT_CONTACT_DAMPING = 1000.0
"""Contact damping (N s/m per body) of the direct-solver profiles. Their MLCP takes a contact's
ERP, ``erp = dt k / (dt k + c)`` (k, c: the pair's series stiffness and summed damping), but
not its CFM: contacts are rigid, and the ERP only sets how fast a penetration is pushed out,
at ``erp pen / dt = pen k / (dt k + c)``, a time constant tau = dt + c / k. With the verdict's
c = 3 (tau = dt + 0.1 ms) an impact's penetration (up to v dt when Bullet first sees it: its
box-box detector makes no point before the boxes overlap) is pushed out within a step at
about the impact speed, so a dropped piece rebounds (measured: 0.54-0.56 of its impact speed)
and what it does to the stack depends on the step (issue #31). With 1000 (series 2000 N s/m
against 5e4 N/m: tau = 40 ms) the push-out is at most v dt / tau, 0.05 v at 2 ms: a plastic
landing, as the profiles' restitution 0 means. A resting contact (penetration ~1e-13 m) does
not feel it."""
EXACT = replace(
    VERDICT,
    name="exact",
    time_step=2e-3,
    contact_damping=EXACT_CONTACT_DAMPING,
    maximal_coordinates=False,
    extra={"constraintSolverType": LCP_DANTZIG, "globalCFM": 1e-6},
    escalate_below_deg=None,
)
DISPLAY_EXACT = replace(
    DISPLAY,
    name="display-exact",
    time_step=1.0 / 180.0,
    contact_damping=EXACT_CONTACT_DAMPING,
    maximal_coordinates=False,
    extra=EXACT.extra,
    escalate_below_deg=None,
)
TABLE = replace(VERDICT, escalate_below_deg=None)
"""The verdict profile as the Kozo and Kataboom physics tables step it: their persistent worlds
run Gauss-Seidel whatever the margin, so a bot's estimate of what a move does at the table
(``assess``) uses this profile rather than the escalating verdict (measured: in four seeded
careful-vs-greedy Kozo games 4 of 27 simulated estimates would escalate, 2.8x their CPU,
same probabilities)."""
PROFILES: dict[str, Profile] = {
    "verdict": VERDICT, "display": DISPLAY, "exact": EXACT, "display-exact": DISPLAY_EXACT,
}  # fmt: skip


def get_profile(name: str) -> Profile:
    """A profile by name (ValueError listing the names if unknown)."""
    if name not in PROFILES:
        raise ValueError(f"unknown profile {name!r} (allowed: {', '.join(PROFILES)})")
    return PROFILES[name]
