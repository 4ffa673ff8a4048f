"""Statistics shared by the rules layer and the physics: the Wilson score interval of a
binomial proportion (balance runs, tournaments, plots, and the verdict's sequential stop)."""

from __future__ import annotations

import math

Z95 = 1.959963984540054
"""The two-sided 95 % normal quantile (``statistics.NormalDist().inv_cdf(0.975)`` to within
an ulp; this literal is the one verdict JSON has always carried)."""


def wilson_interval(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a binomial proportion: ``k`` successes in ``n`` trials
    (95 % by default); (0, 1) when ``n`` is 0."""
    if n <= 0:
        return 0.0, 1.0
    z2 = z * z
    centre = (k + z2 / 2) / (n + z2)
    half = z * math.sqrt(k * (n - k) / n + z2 / 4) / (n + z2)
    return max(0.0, centre - half), min(1.0, centre + half)
