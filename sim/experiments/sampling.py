"""Which parameters run ``i`` of a sweep uses, and its seed: pure functions of (spec, i).

Grid mode: the runs walk the cartesian product of the axes in file order, the last axis varying
fastest (like :func:`itertools.product`); with ``repeats = R`` each point is run R times in a row
(run ``i`` is point ``i // R``, repeat ``i % R``). Random mode: each swept parameter of run ``i``
is drawn from its own stream ``Rng.from_seed(seed, "sweep-sample", i, name)``: uniform in
``[min, max)`` (log-uniform with ``log = true``), or uniform over a list. Either way a run's
values and seed depend only on the spec and ``i``, never on the worker that computes it or on the
order in which runs are done.
"""

from __future__ import annotations

import math
from typing import Any

from tablesim.games.rng import Rng, derive_seed
from tablesim.sim.experiments.spec import SweepSpec

SEED_MASK = (1 << 63) - 1


def run_seed(spec_seed: int, index: int) -> int:
    """The seed of run ``index`` (its perturbations): derived from the spec seed and the index.

    63 bits, so it fits a signed 64-bit column (Parquet, pandas)."""
    return derive_seed("sweep-run", int(spec_seed), int(index)) & SEED_MASK


def grid_point(spec: SweepSpec, point: int) -> dict[str, Any]:
    """The parameter values of grid point ``point`` (last axis varying fastest)."""
    values: dict[str, Any] = {}
    rest = point
    for axis in reversed(spec.axes):
        n = len(axis.values)
        rest, k = divmod(rest, n)
        values[axis.name] = axis.values[k]
    return {a.name: values[a.name] for a in spec.axes}


def sample_point(spec: SweepSpec, index: int) -> dict[str, Any]:
    """The parameter values of random run ``index``."""
    out: dict[str, Any] = {}
    for axis in spec.axes:
        rng = Rng.from_seed(spec.seed, "sweep-sample", index, axis.name)
        if axis.is_range:
            u, _ = rng.random()
            lo, hi = float(axis.low), float(axis.high)  # type: ignore[arg-type]
            if axis.log:
                out[axis.name] = math.exp(math.log(lo) + u * (math.log(hi) - math.log(lo)))
            else:
                out[axis.name] = lo + u * (hi - lo)
        elif len(axis.values) == 1:
            out[axis.name] = axis.values[0]
        else:
            k, _ = rng.randbelow(len(axis.values))
            out[axis.name] = axis.values[k]
    return out


def run_parameters(spec: SweepSpec, index: int) -> dict[str, Any]:
    """The parameter values of run ``index`` (``0 <= index < spec.count``)."""
    if not 0 <= index < spec.count:
        raise IndexError(f"run {index} outside 0..{spec.count - 1}")
    if spec.mode == "random":
        return sample_point(spec, index)
    return grid_point(spec, index // spec.repeats)
