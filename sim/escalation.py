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

Impacts escalate too, whatever the margin: a scene with a dynamic piece that touches nothing
as written (:func:`in_the_air`: it falls and lands) runs in the direct solver. Gauss-Seidel's
impact step sets a stack that a piece lands on turning (measured: a domino landing flat from
25 mm on a 3-cube leaning stack spins all three cubes at 0.7-1.8 rad/s within 2 ms, whatever
the contact stiffness (1e5-1e8 N/m), damping (3-1000 N s/m), split impulse or iterations
(50-1000)), where rigid-impact theory gives no turn to a flat landing whose impulse line lies
inside every support face, and the MuJoCo witness and the direct solver (none) agree
(issue #31; docs/architecture.md, "Drops"). No shipped scene has such a piece.

The display profile escalates the same way (to ``display-exact``: the display's anchors,
sleeping and restitution on the direct solver, at 1/180 s), so ``simulate(profile="display")``
gives the verdict's answer on thin margins too. The live view (:mod:`tablesim.sim.view.live`) steps its
world inside the frame loop, where the direct solver's cost matters: the dense LCP grows as
the cube of the contact points, so :func:`live_display` takes it only up to
:data:`LIVE_DIRECT_MAX_POINTS` and otherwise keeps Gauss-Seidel and says that the window may
disagree with the verdict.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tablesim.sim.config import Profile, get_profile

if TYPE_CHECKING:
    from tablesim.sim.model import Scene, ScenePiece
    from tablesim.sim.statics import StaticReport

MASS_RATIO_SCALE = 16.0
"""Mass ratio (upper piece over the dynamic piece it rests on) per ``escalate_below_deg`` of
threshold: a scene escalates when its tilt margin is below ``escalate_below_deg`` times
``max(1, ratio / MASS_RATIO_SCALE)``. Gauss-Seidel converges ever worse as a heavy body
presses on a light one; measured on the heavy-on-light corpus family (a block of Kozo cubes on
one balance cube, ``sim/experiments/corpus.py``; verdict profile, 1 ms, 8 replicas), the
verdict toppled what statics, a 0.5 ms step and the direct solver keep standing at tilt
margins up to 2.5 degrees at a ratio of 42.5 (2x2x2), 3.0 at 64 (3x2x2) and 7.0 at 96
(3x3x2), and was right everywhere at ratios up to 21 (2x2x1) and at 4.1, 5.0 and 9.0 degrees
of those three. 16 puts the thresholds at 4.0, 6.0 and 9.0 degrees, and keeps ratios up to 16
(a 3-cube Kozo piece on a balance cube, every pair of Kozo pieces) at 1.5 degrees: no shipped
scene escalates more than before."""

LIVE_DIRECT_MAX_POINTS = 80
"""Most contact points (as the statics contact set counts them) for which the live view runs
an escalated scene in the direct solver. Awake CPU per 1/60 s frame of ``display-exact``
(1/180 s; ``python bench/stacks.py --direct-display``, load 1.2): 1.1 ms at 36 points
(9-stack), 3.0 at 56, 7.5 at 80 (20-stack), 8.2 at 84, 10.0 at 88, 14.5 at 100, 24 at 120,
82 at 190 (``kozo-tower``): a dense LCP's cube of the points. The live view may spend
:data:`tablesim.sim.view.live.FRAME_BUDGET_S` (8 ms) of a frame on physics, which 80 points fit and 84
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
    mass_ratio: float = 1.0
    """The largest mass ratio on the load path (:func:`mass_ratio`) when it raised the
    threshold (else 1.0)."""
    impact: tuple[str, ...] = ()
    """The pieces let go in the air (:func:`in_the_air`) when they are the reason."""

    @property
    def reason(self) -> str:
        """One sentence for the explanation."""
        if self.impact:
            return (
                f"Impact: {', '.join(repr(p) for p in self.impact)} let go touching nothing,"
                f" and the {self.requested} profile's Gauss-Seidel solver spins a stack that a"
                f" piece lands on, so the runs used the direct solver ({self.profile.name}"
                f" profile, {self.profile.time_step * 1e3:g} ms step)."
            )
        if self.mass_ratio > 1.0:
            return (
                f"Heavy on light: a piece {self.mass_ratio:.1f} times the mass of the one under"
                f" it, with a tilt margin of {self.tilt_margin_deg:.2f} degrees"
                f" (< {self.below_deg:g}), where the {self.requested} profile's Gauss-Seidel"
                f" solver can topple a standing pair, so the runs used the direct solver"
                f" ({self.profile.name} profile, {self.profile.time_step * 1e3:g} ms step)."
            )
        return (
            f"Thin margin: rigid statics stands with a tilt margin of only"
            f" {self.tilt_margin_deg:.2f} degrees (< {self.below_deg:g}), where the"
            f" {self.requested} profile's contact springs can topple a standing stack, so the"
            f" runs used the direct solver ({self.profile.name} profile,"
            f" {self.profile.time_step * 1e3:g} ms step)."
        )

    def to_json(self) -> dict[str, Any]:
        """The verdict JSON's ``escalation`` object (present only when a verdict escalated;
        ``mass_ratio`` only when the ratio raised the threshold)."""
        out: dict[str, Any] = {
            "profile": self.profile.name,
            "time_step": self.profile.time_step,
            "tilt_margin_deg": None if math.isnan(self.tilt_margin_deg)
            else round(self.tilt_margin_deg, 4),
            "below_deg": self.below_deg,
            "reason": self.reason,
        }  # fmt: skip
        if self.mass_ratio > 1.0:
            out["mass_ratio"] = round(self.mass_ratio, 4)
        if self.impact:
            out["impact"] = list(self.impact)
        return out


def _volume(piece: ScenePiece, scene: Scene) -> float:
    """A piece's volume (m^3; every piece has the scene's one density, so volumes compare as
    masses)."""
    if piece.box is not None:
        x, y, z = piece.box
        return x * y * z
    return len(piece.cells) * piece.edge(scene.physics) ** 3


def mass_ratio(scene: Scene, statics: StaticReport) -> float:
    """The largest mass ratio along the load path: over the stacking contacts of statics'
    contact set between two dynamic pieces, the upper piece's mass over the lower one's
    (1.0 when there is none, or no contact set). A 2x2x2 block of Kozo cubes on a balance
    cube: 8 (17.8 / 10.2)^3 = 42.5."""
    cs = statics.contact_set
    if cs is None:
        return 1.0
    by_id = {p.id: p for p in scene.pieces}
    best = 1.0
    for c in cs.contacts:
        if c.side or c.body_a < 0 or c.body_b < 0:
            continue
        a, b = by_id.get(cs.names[c.body_a]), by_id.get(cs.names[c.body_b])
        if a is None or b is None or a.static or b.static:
            continue
        lower, upper = (a, b) if c.normal[2] > 0 else (b, a)  # the normal points from a into b
        best = max(best, _volume(upper, scene) / _volume(lower, scene))
    return best


def in_the_air(scene: Scene, statics: StaticReport) -> tuple[str, ...]:
    """The dynamic pieces of ``scene`` let go in the air: each falls freely and lands, an
    impact. A piece is in the air when it is in no contact of statics' contact set and its
    boxes (as written, before the clearance) are more than
    :func:`tablesim.sim.world.shrink_shift` (0.19 mm) from every other piece's and from the
    table: a smaller gap is one the clearance or a settling contact makes (the topple rule's own
    bound), not a drop (a leaning plank whose foot the clearance lifts 0.04 mm off a step, and
    whose edge contact the contact set does not list, is not in the air). Empty when there is
    no contact set."""
    from tablesim.sim.contacts import obb_separations, posed_boxes
    from tablesim.sim.world import shrink_shift

    cs = statics.contact_set
    if cs is None:
        return ()
    touching = {cs.names[b] for c in cs.contacts for b in (c.body_a, c.body_b) if b >= 0}
    loose = [p for p in scene.pieces if not p.static and p.id not in touching]
    if not loose:  # every shipped scene: nothing more to compute
        return ()
    cfg = scene.physics
    gap = shrink_shift(cfg)
    out = []
    for p in loose:
        mine = posed_boxes(p, cfg)
        if scene.ground and min(float(b.corners()[:, 2].min()) for b in mine) <= gap:
            continue
        others = [b for q in scene.pieces if q.id != p.id for b in posed_boxes(q, cfg)]
        pairs_a = [a for a in mine for _ in others]
        pairs_b = [b for _ in mine for b in others]
        if not others or float(obb_separations(pairs_a, pairs_b).min()) > gap:
            out.append(p.id)
    return tuple(out)


def escalation(
    profile: Profile, own_step: float, statics: StaticReport, scene: Scene | None = None
) -> Escalation | None:
    """The escalation of a verdict in ``profile`` (its step possibly overridden; ``own_step`` is
    the profile's own), or None when its replicas run in ``profile`` itself.

    It escalates below ``profile.escalate_below_deg`` of tilt margin, a threshold raised by
    the load path's mass ratio (:func:`mass_ratio` of ``scene``; :data:`MASS_RATIO_SCALE`).
    The escalated profile is ``profile.escalate_to`` at its own step times
    ``profile.time_step / own_step``: the default step maps to the direct solver's default (2 ms),
    half of it to half of that, so a step-halving check still halves the step."""
    below = profile.escalate_below_deg
    tilt = statics.tilt_margin_deg
    if below is None:
        return None
    target = get_profile(profile.escalate_to)
    step = target.time_step * (profile.time_step / own_step)
    falling = () if scene is None else in_the_air(scene, statics)
    if falling:  # an impact: Gauss-Seidel spins the stack it lands on (see the module doc)
        return Escalation(target.with_step(step), math.nan if tilt is None else tilt, below,
                          profile.name, impact=falling)  # fmt: skip
    if tilt is None:
        return None
    ratio = 1.0
    if not tilt < below:
        ratio = 1.0 if scene is None else mass_ratio(scene, statics)
        if not tilt < below * max(1.0, ratio / MASS_RATIO_SCALE):
            return None
        below = round(below * ratio / MASS_RATIO_SCALE, 4)
    return Escalation(target.with_step(step), tilt, below, profile.name, ratio)


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
    thin = (f"an impact: {', '.join(esc.impact)} let go in the air" if esc.impact
            else f"tilt margin {esc.tilt_margin_deg:.2f} deg")  # fmt: skip
    if points <= LIVE_DIRECT_MAX_POINTS:
        note = f"display: direct solver, as the verdict ({thin})"
        return LiveDisplay(esc.profile, note, esc, True, points)
    note = (f"display: Gauss-Seidel, may disagree with the verdict (thin {thin}; the direct"
            f" solver is too slow live for {points} contact points)")  # fmt: skip
    return LiveDisplay(prof, note, esc, False, points)


def escalated_profile(scene: Scene, profile: Profile | str) -> tuple[Profile, Escalation | None]:
    """The profile a one-off run of ``scene`` takes (a film, a render: no frame budget), with
    its escalation: ``profile``'s ``escalate_to`` on a thin statics tilt margin, as
    :func:`tablesim.sim.verdict.simulate` chooses for its replicas; else ``profile`` and None. Judge
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
    esc = None if statics is None else escalation(prof, prof.time_step, statics, scene)
    return prof, statics, esc


def _statics(scene: Scene, profile: Profile) -> StaticReport | None:
    """The scene's rigid statics when ``profile`` may escalate (None: it never does, nothing
    moves, or HiGHS refused the numbers, which the run itself will then report)."""
    from tablesim.sim.statics import analyse

    if profile.escalate_below_deg is None or not scene.dynamic:
        return None
    try:
        # the physics world's clearance, as tablesim.sim.verdict judges it
        return analyse(scene, clearance=scene.physics.clearance)
    except ValueError:
        return None
