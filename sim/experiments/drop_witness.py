"""MuJoCo as the witness of the drop family, the energy bound's undecided band included (#31).

The energy bound (:func:`tablesim.sim.experiments.corpus.drop_bound`) decides only drops far
from the tipping barrier; between its bounds no closed form answers. There the witness is
MuJoCo (:func:`tablesim.sim.crosscheck.mujoco_world.judge`: stiff contacts, the same boxes,
masses, inertias, friction, clearance and topple rule) at two fine steps, on the same seeded
replicas as the verdict (:func:`tablesim.sim.verdict.perturb_scene`). Its answer is used only
where it does not depend on the step: the majority verdict the same at both steps.

    python bench/corpus.py --families drop --witness [--json]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from tablesim.sim.config import PhysicsConfig
from tablesim.sim.experiments.corpus import (
    DROP_RATIO,
    Answer,
    drop_bound,
    drop_draws,
    landed_scene,
)
from tablesim.sim.model import Scene

WITNESS_STEPS = (1e-4, 5e-5)
"""The witness's two steps (s): 0.1 ms, at which MuJoCo's stiff contacts give the statics
answer on every crosscheck and corpus case (docs/architecture.md, "MuJoCo as a witness"), and
half of it."""

WITNESS_REPLICAS = (2, 1)
"""Replicas per step of :data:`WITNESS_STEPS`: replica 0 as written, 1 with the verdict's
seeded pose noise; the finer step checks replica 0 (it costs twice as much)."""

WITNESS_SECONDS = 2.5
"""The witness's window (s): a drop lands within 0.1 s, and over :func:`witness_drops` (seed 0)
every stack that fell in MuJoCo did so by 0.55 s (in PyBullet, every profile, by 0.77 s);
the verdict's 5 s would cost twice as much and see nothing more."""

BAND_BINS = (0.0, 0.01, 0.1, 1.0, DROP_RATIO)
"""Bins of the undecided band by barrier / impact energy (``IMPACT_FRACTION m g h``)."""


@dataclass(frozen=True)
class DropScene:
    """A drop of :func:`tablesim.sim.experiments.corpus.drop_draws`: its parameters, its scene,
    the bound's answer (None: undecided) and its ``ratio`` barrier / impact energy (0 where the
    landed stack has no equilibrium)."""

    n: int
    frac: float
    piece: str
    height_mm: float
    scene: Scene
    bound: Answer | None
    ratio: float
    landed_margin_mm: float

    @property
    def bin(self) -> str:
        """``"topples"`` (no equilibrium after landing), the band's ratio bin, or ``"x>=10"``."""
        if self.bound == "topples":
            return "no equilibrium"
        if self.bound == "stands":
            return f"x>={DROP_RATIO:g}"
        for k in range(len(BAND_BINS) - 1):
            if self.ratio < BAND_BINS[k + 1]:
                return f"x{BAND_BINS[k]:g}-{BAND_BINS[k + 1]:g}"
        return f"x>={DROP_RATIO:g}"  # pragma: no cover - the bound decides there


def drop_scene(
    n: int, frac: float, piece: str, height_mm: float, config: PhysicsConfig | None = None
) -> DropScene:
    """One drop with its bound (see :class:`DropScene`)."""
    b = drop_bound(n, frac, piece, height_mm, config)
    ratio = b.barrier_j / b.impact_j if b.barrier_j > 0 else 0.0
    scene = landed_scene(n, frac, piece, height_mm, config)
    return DropScene(n, frac, piece, height_mm, scene, b.expected, ratio, b.landed_margin_mm)


def issue_case() -> DropScene:
    """The issue's case: a domino let go 20 mm above a 9-cube stack leaning to a 2.4 mm margin."""
    cfg = PhysicsConfig()
    a, c = cfg.kozo_cube, cfg.clearance
    frac = 2 * (a / 2 - c / 2 - 2.4e-3) / (9 * a)
    return drop_scene(9, frac, "domino", 20.0, cfg)


def witness_drops(seed: int = 0, undecided: int = 24, decided: int = 12) -> list[DropScene]:
    """The issue's case, then the first ``undecided`` draws of :func:`drop_draws` the bound
    leaves undecided (with the landed stack in equilibrium from 0.5 mm: closer, the answer is
    the landed statics'), and the first ``decided`` it decides (half each way where it can)."""
    out = [issue_case()]
    band: list[DropScene] = []
    stands: list[DropScene] = []
    topples: list[DropScene] = []
    for n, frac, piece, h in drop_draws(seed):
        if len(band) >= undecided and len(stands) + len(topples) >= decided:
            break
        d = drop_scene(n, frac, piece, h)
        if d.bound is None and len(band) < undecided and d.landed_margin_mm >= 0.5:
            band.append(d)
        elif d.bound == "stands" and len(stands) < decided - decided // 2:
            stands.append(d)
        elif d.bound == "topples" and len(topples) < decided // 2 and d.landed_margin_mm <= -0.5:
            topples.append(d)
    return out + band + stands + topples


@dataclass
class WitnessAnswer:
    """The witness's runs of one scene: per step the replicas' verdicts (True: toppled), the
    CPU seconds, and the answer where both steps give the same majority (None otherwise, or
    on a tie)."""

    toppled: dict[float, list[bool]] = field(default_factory=dict)
    first_fall_s: dict[float, list[float | None]] = field(default_factory=dict)
    cpu_s: float = 0.0

    def p(self, step: float) -> float:
        """Topple probability at ``step``."""
        runs = self.toppled[step]
        return sum(runs) / len(runs)

    @property
    def answer(self) -> Answer | None:
        """ "topples"/"stands" when every step's majority says so; None when they differ."""
        votes = set()
        for step in self.toppled:
            p = self.p(step)
            if math.isclose(p, 0.5):
                return None
            votes.add("topples" if p > 0.5 else "stands")
        return votes.pop() if len(votes) == 1 else None  # type: ignore[return-value]


def witness(
    scene: Scene,
    seed: int = 0,
    replicas: tuple[int, ...] = WITNESS_REPLICAS,
    steps: tuple[float, ...] = WITNESS_STEPS,
    seconds: float = WITNESS_SECONDS,
) -> WitnessAnswer:
    """Run the MuJoCo witness on ``scene``'s replicas (the verdict's seeded poses, ``seed``)
    at every step of ``steps`` (``replicas[k]`` of them at ``steps[k]``) for ``seconds``."""
    import time

    from tablesim.sim.crosscheck.mujoco_world import judge
    from tablesim.sim.verdict import Perturbation, perturb_scene

    t0 = time.process_time()
    out = WitnessAnswer()
    for step, count in zip(steps, replicas, strict=True):
        runs = [
            judge(perturb_scene(scene, seed, k, Perturbation()), seconds, step)
            for k in range(count)
        ]
        out.toppled[step] = [r.toppled for r in runs]
        out.first_fall_s[step] = [r.first_fall_s for r in runs]
    out.cpu_s = time.process_time() - t0
    return out
