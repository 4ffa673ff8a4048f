"""The verdict's sequential stopping rule: when an ensemble of replicas may stop early.

Sequential stopping (:class:`SequentialStop`)
---------------------------------------------
A verdict of N replicas is ``topples`` when at least half of them topple. The replicas are
*consumed in index order* (0, 1, 2, ...), whatever order the workers finish them in, and after
replica n - 1 has been consumed (k of the n toppled) the ensemble stops when both hold:

1. **the verdict of all N is already certain** (curtailment): ``2 k >= N`` (it topples whatever
   the other N - n give) or ``2 (k + N - n) < N`` (it stands even if all of them topple). So the
   verdict is always the one the whole ensemble would give, bit for bit;
2. **the probability is settled**: the 95 % Wilson score interval of the topple probability from
   the n runs lies wholly on the verdict's side of 0.5 (upper bound < 0.5 for "stands", lower
   bound > 0.5 for "topples").

For the default N = 8: all standing stops after 5 replicas (0 of 5: Wilson upper bound 0.434),
all toppling after 4 (4 of 4: lower bound 0.510); a 50/50 scene never stops early. Ensembles
of 4 or fewer never stop early (0 of 3 gives an upper bound of 0.56). The verdict then reports
``replicas`` = n (the replicas run), ``replicas_requested`` = N and the topple probability
k / n. Since the stopping point depends only on the outcomes of replicas 0..n-1, which are
seeded, the result does not depend on the number of workers or on timing; replicas a worker
had started beyond the stopping point are cancelled and never read (a blow-up there is not
seen either).

The replicas themselves are run by :class:`tablesim.sim.pools.Replicas`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from tablesim.games.stats import Z95, wilson_interval


@dataclass(frozen=True)
class SequentialStop:
    """Stop an ensemble once its verdict and its probability are settled (module docstring).

    ``z``: the normal quantile of the Wilson interval (1.96: 95 %)."""

    z: float = Z95

    def settled(self, toppled: int, run: int, total: int) -> bool:
        """Whether ``run`` consumed replicas of ``total``, ``toppled`` of them toppling, settle
        the verdict (threshold: half of the replicas)."""
        if run >= total:
            return True
        lo, hi = wilson_interval(toppled, run, self.z)
        if 2 * toppled >= total:  # topples whatever the rest give
            return lo > 0.5
        if 2 * (toppled + total - run) < total:  # stands whatever the rest give
            return hi < 0.5
        return False

    def to_json(self) -> dict[str, Any]:
        """Plain-dict form."""
        return {**asdict(self), "interval": "wilson", "threshold": 0.5}
