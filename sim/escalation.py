"""Thin-margin escalation: which solver a verdict's replicas run in (issue #19, goal 2).

The verdict profile solves contacts by 50 Gauss-Seidel sweeps on spring-damper contacts
(k = 1e5 N/m per body). Those springs bend a tall leaning stack (each joint turns by W e / K)
and its release makes it sway; together they topple leaning stacks that rigid statics keeps
standing when the stack's tilt margin is below about 0.6-0.7 degrees (measured for 3 to 30
loose Kozo cubes: docs/architecture.md, "Contact model (issue #19)"). The direct solver of
the ``exact`` profile (pieces as multibodies, a Dantzig LCP, rigid contacts) gets every one of
them right at every step, at 4-8x the CPU. So a scene whose rigid statics has an equilibrium
on stacking contacts with a tilt margin below the profile's ``escalate_below_deg`` runs in
that profile's ``escalate_to`` profile instead; every other scene runs as before, bit for bit.

Why the tilt margin (the statics LP's angle by which gravity may lean before the equilibrium
on stacking contacts fails) and not the worst support margin in millimetres: the lean that the
springs and the sway put into a stack is an angle, and the same millimetres are a wide margin
for one low piece and a thin one for a 20-cube stack (2.5 mm is 0.85 degrees there). A scene
with no such equilibrium (it must move, or it stands only on side friction) is not escalated:
the springs' bending only ever moves weight towards the edge it leans over, so on negative
margins Gauss-Seidel topples what rigid statics topples (every stack from -0.1 to -2 mm,
measured at three steps).

The display profile escalates the same way (to ``display-exact``: the display's anchors,
sleeping and restitution on the direct solver, at 1/180 s), so ``simulate(profile="display")``
gives the verdict's answer on thin margins too. The live view (:mod:`sim.view.live`) steps its
world inside the frame loop, where the direct solver's cost matters: the dense LCP grows as
the cube of the contact points, so :func:`live_display` takes it only up to
:data:`LIVE_DIRECT_MAX_POINTS` and otherwise keeps Gauss-Seidel and says that the window may
disagree with the verdict.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sim.config import Profile, get_profile

if TYPE_CHECKING:
    from sim.model import Scene
    from sim.statics import StaticReport

LIVE_DIRECT_MAX_POINTS = 80
"""Most contact points (as the statics contact set counts them) for which the live view runs
an escalated scene in the direct solver. Awake CPU per 1/60 s frame of ``display-exact``
(1/180 s; ``python bench/stacks.py --direct-display``, load 1.2): 1.1 ms at 36 points
(9-stack), 3.0 at 56, 7.5 at 80 (20-stack), 8.2 at 84, 10.0 at 88, 14.5 at 100, 24 at 120,
82 at 190 (``kozo-tower``): a dense LCP's cube of the points. The live view may spend
:data:`sim.view.live.FRAME_BUDGET_S` (8 ms) of a frame on physics, which 80 points fit and 84
do not. Over budget the view would only play slower (the run never jumps), but a tall stack
in slow motion is no better than one that disagrees, so the bound is the budget;
docs/architecture.md ("Contact model") has the table and the load."""


@dataclass(frozen=True)
class Escalation:
    """A verdict whose replicas ran in another profile: which, at what step, and why."""

    profile: Profile
    tilt_margin_deg: float
    below_deg: float
    requested: str

    @property
    def reason(self) -> str:
        """One sentence for the explanation."""
        return (
            f"Thin margin: rigid statics stands with a tilt margin of only"
            f" {self.tilt_margin_deg:.2f} degrees (< {self.below_deg:g}), where the"
            f" {self.requested} profile's contact springs can topple a standing stack, so the"
            f" runs used the direct solver ({self.profile.name} profile,"
            f" {self.profile.time_step * 1e3:g} ms step)."
        )

    def to_json(self) -> dict[str, Any]:
        """The verdict JSON's ``escalation`` object (present only when a verdict escalated)."""
        return {
            "profile": self.profile.name,
            "time_step": self.profile.time_step,
            "tilt_margin_deg": round(self.tilt_margin_deg, 4),
            "below_deg": self.below_deg,
            "reason": self.reason,
        }


def escalation(profile: Profile, own_step: float, statics: StaticReport) -> Escalation | None:
    """The escalation of a verdict in ``profile`` (its step possibly overridden; ``own_step`` is
    the profile's own), or None when its replicas run in ``profile`` itself.

    The escalated profile is ``profile.escalate_to`` at its own step times
    ``profile.time_step / own_step``: the default step maps to the direct solver's default (2 ms),
    half of it to half of that, so a step-halving check still halves the step."""
    below = profile.escalate_below_deg
    tilt = statics.tilt_margin_deg
    if below is None or tilt is None or not tilt < below:
        return None
    target = get_profile(profile.escalate_to)
    step = target.time_step * (profile.time_step / own_step)
    return Escalation(target.with_step(step), tilt, below, profile.name)


@dataclass(frozen=True)
class LiveDisplay:
    """The profile a live view steps a scene in, and what its HUD says about it.

    ``profile``: the world's; ``note``: one status line ('' when the display needs no word:
    the margin is wide, or there is no rigid equilibrium); ``escalation``: the thin margin
    found (None: none), whether or not the view could afford to escalate (``escalated``)."""

    profile: Profile
    note: str
    escalation: Escalation | None = None
    escalated: bool = False
    contact_points: int = 0


def live_display(scene: Scene, profile: Profile | str = "display") -> LiveDisplay:
    """The live view's profile for ``scene``: ``profile`` (the display), or its escalation
    target when rigid statics finds a thin tilt margin (:func:`escalation`) and the scene has
    at most :data:`LIVE_DIRECT_MAX_POINTS` contact points. A thin margin on a bigger scene keeps
    ``profile`` and its note says the window may disagree with the verdict. Statics that
    cannot be computed (a scene HiGHS refuses) keeps ``profile`` with no note."""
    prof, statics, esc = _thin(scene, profile)
    if statics is None or esc is None:
        return LiveDisplay(prof, "")
    points = int(statics.contacts.get("points", 0))
    thin = f"tilt margin {esc.tilt_margin_deg:.2f} deg"
    if points <= LIVE_DIRECT_MAX_POINTS:
        note = f"display: direct solver, as the verdict ({thin})"
        return LiveDisplay(esc.profile, note, esc, True, points)
    note = (f"display: Gauss-Seidel, may disagree with the verdict (thin {thin}; the direct"
            f" solver is too slow live for {points} contact points)")  # fmt: skip
    return LiveDisplay(prof, note, esc, False, points)


def escalated_profile(scene: Scene, profile: Profile | str) -> tuple[Profile, Escalation | None]:
    """The profile a one-off run of ``scene`` takes (a film, a render: no frame budget), with
    its escalation: ``profile``'s ``escalate_to`` on a thin statics tilt margin, as
    :func:`sim.verdict.simulate` chooses for its replicas; else ``profile`` and None. Judge
    the scene as written (a replica's perturbed copy may sit the other side of the threshold):
    that is the scene the verdict's statics judges."""
    prof, _, esc = _thin(scene, profile)
    return (prof, None) if esc is None else (esc.profile, esc)


def _thin(
    scene: Scene, profile: Profile | str
) -> tuple[Profile, StaticReport | None, Escalation | None]:
    """``profile`` (resolved), the scene's statics when it may escalate, and the escalation
    that statics asks for (None: a wide margin, or no statics)."""
    prof = get_profile(profile) if isinstance(profile, str) else profile
    statics = _statics(scene, prof)
    esc = None if statics is None else escalation(prof, prof.time_step, statics)
    return prof, statics, esc


def _statics(scene: Scene, profile: Profile) -> StaticReport | None:
    """The scene's rigid statics when ``profile`` may escalate (None: it never does, nothing
    moves, or HiGHS refused the numbers, which the run itself will then report)."""
    from sim.statics import analyse

    if profile.escalate_below_deg is None or not scene.dynamic:
        return None
    try:
        # the physics world's clearance, as sim.verdict judges it
        return analyse(scene, clearance=scene.physics.clearance)
    except ValueError:
        return None
