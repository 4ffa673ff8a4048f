"""Stability sweeps: one verdict per run, over scene and physics parameters.

Run ``i`` takes its parameters from :func:`tablesim.sim.experiments.sampling.run_parameters` and its seed
from :func:`tablesim.sim.experiments.sampling.run_seed`, loads the scene with the physics parameters as
overrides, and calls :func:`tablesim.sim.verdict.simulate` with one worker (the sweep's executor is the
parallelism). Its row: ``run``, ``seed`` (``repeat`` in a grid with repeats), every parameter of
the spec in file order, then ``verdict`` (stands, topples, or ``error`` for a physics blow-up or
a parameter combination the scene rejects), ``topple_probability``, ``replicas_toppled``,
``replicas_simulated`` (0 when statics decided), ``first_fall_s``, ``max_penetration_mm``,
``decided_by`` (statics or simulation) and ``error`` (null unless the verdict is ``error``).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import Any

from tablesim.games.core import canonical_json
from tablesim.sim.experiments.sampling import run_parameters, run_seed
from tablesim.sim.experiments.spec import SweepSpec
from tablesim.sim.scene import PHYSICS_KEYS

RESULT_COLUMNS = (
    "verdict",
    "topple_probability",
    "replicas_toppled",
    "replicas_simulated",
    "first_fall_s",
    "max_penetration_mm",
    "decided_by",
    "error",
)


def _r(x: float | None) -> float | None:
    return None if x is None else round(float(x), 6)


@lru_cache(maxsize=64)
def _scene(text: str, name: str, overrides: tuple[tuple[str, Any], ...]) -> Any:
    from tablesim.sim.scene import parse_scene

    return parse_scene(text, name, dict(overrides), name=name)


class SweepJob:
    """The runs of a :class:`SweepSpec` (picklable; rows depend on the spec and index only)."""

    kind = "sweep"

    def __init__(self, spec: SweepSpec) -> None:
        self.spec = spec
        self.count = spec.count
        self._texts = dict(spec.scene_texts)

    def columns(self) -> list[str]:
        """``run``, ``seed``, [``repeat``], the parameters in file order, the results."""
        head = ["run", "seed"] + (["repeat"] if self.spec.repeats > 1 else [])
        return head + [a.name for a in self.spec.axes] + list(RESULT_COLUMNS)

    def fingerprint(self) -> str:
        """Digest of the spec (axes, seed, mode, scene file contents) and the columns."""
        text = canonical_json({"spec": self.spec.to_json(), "columns": self.columns()})
        return hashlib.sha256(text.encode()).hexdigest()

    def expected(self, index: int) -> dict[str, Any]:
        """The cells of run ``index`` the spec fixes (run, seed, repeat, parameters), for
        checking a resumed journal's rows (:mod:`tablesim.sim.experiments.rows`)."""
        row: dict[str, Any] = {"run": index, "seed": run_seed(self.spec.seed, index)}
        if self.spec.repeats > 1:
            row["repeat"] = index % self.spec.repeats
        row.update(run_parameters(self.spec, index))
        return row

    def allowed(self) -> dict[str, tuple[Any, ...]]:
        """The values some result columns may take (for checking a resumed journal's rows)."""
        return {"verdict": ("stands", "topples", "error")}

    def run(self, index: int) -> dict[str, Any]:
        """Simulate run ``index`` and return its row."""
        from tablesim.sim.scene import InvalidSceneError
        from tablesim.sim.verdict import Perturbation, ToppleRule, simulate
        from tablesim.sim.world import PhysicsBlowUpError

        params = run_parameters(self.spec, index)
        seed = run_seed(self.spec.seed, index)
        row: dict[str, Any] = {"run": index, "seed": seed}
        if self.spec.repeats > 1:
            row["repeat"] = index % self.spec.repeats
        row.update(params)
        physics = tuple((k, params[k]) for k in PHYSICS_KEYS if k in params)
        defaults_p, defaults_r = Perturbation(), ToppleRule()
        try:
            scene = _scene(self._texts[params["scene"]], params["scene"], physics)
            step = params.get("step_ms")
            v = simulate(
                scene,
                seconds=params.get("seconds"),
                replicas=params.get("replicas", 8),
                seed=seed,
                profile=params.get("profile", "verdict"),
                time_step=None if step is None else step * 1e-3,
                perturbation=Perturbation(
                    params.get("sigma_mm", defaults_p.sigma_mm),
                    params.get("sigma_deg", defaults_p.sigma_deg),
                ),
                rule=ToppleRule(
                    drop_fraction=params.get("drop_fraction", defaults_r.drop_fraction),
                    tilt_deg=params.get("tilt_deg", defaults_r.tilt_deg),
                ),
                method=params.get("method", "auto"),
                workers=1,
                sequential=None,  # a sweep estimates probabilities: every replica, unbiased
            )
        except (PhysicsBlowUpError, InvalidSceneError) as exc:
            what = "physics blew up" if isinstance(exc, PhysicsBlowUpError) else "bad scene"
            row.update({c: None for c in RESULT_COLUMNS})
            row["verdict"] = "error"
            row["error"] = f"{what}: {' '.join(str(exc).split())}"
            return row
        row.update(
            {
                "verdict": v.verdict,
                "topple_probability": _r(v.topple_probability),
                "replicas_toppled": sum(v.replica_toppled),
                "replicas_simulated": v.replicas,
                "first_fall_s": _r(v.first_fall_s),
                "max_penetration_mm": _r(v.max_penetration_mm),
                "decided_by": v.method,
                "error": None,
            }
        )
        return row
