"""Statistics used by balance runs, checked against published values."""

from __future__ import annotations

import pytest

from tablesim.games.stats import wilson_interval


def test_wilson_interval_reference_values() -> None:
    # Wilson 95% interval for 81/263 (Wikipedia's worked example in Newcombe 1998 style):
    # p = 0.3080, interval (0.2553, 0.3662).
    lo, hi = wilson_interval(81, 263)
    assert lo == pytest.approx(0.2553, abs=1e-4)
    assert hi == pytest.approx(0.3662, abs=1e-4)
    # Edge cases: 0 successes still gives a positive upper bound; n = 0 is uninformative.
    lo0, hi0 = wilson_interval(0, 10)
    assert lo0 == 0.0 and hi0 == pytest.approx(0.2775, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
