"""Summaries of timings for the benchmarks (shared by bench/kozo.py, bench/kataboom.py)."""

from __future__ import annotations

import statistics


def time_stats(xs: list[float]) -> dict[str, float]:
    """Count, mean, median and maximum of ``xs`` (seconds, rounded to 0.1 ms); ``{"n": 0}``
    for none."""
    if not xs:
        return {"n": 0}
    return {
        "n": len(xs),
        "mean_s": round(statistics.fmean(xs), 4),
        "median_s": round(statistics.median(xs), 4),
        "max_s": round(max(xs), 4),
    }
