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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sim.config import Profile, get_profile

if TYPE_CHECKING:
    from sim.statics import StaticReport


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
