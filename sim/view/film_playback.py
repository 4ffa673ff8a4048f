"""Playing a judged move's film on the interactive table: poses as rows, the stillness test,
and :func:`advance_film`, which shows motion at its own pace and skips at once over the
stretches where nothing moves."""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

STILL_M = 0.3e-3
"""A film skips the stretches where no piece moves more than this (m) from the poses shown (a
wait, a tower standing through its window, a balance cube that settles at once)."""


STILL_Q = 1e-3
"""... nor turns more than this (quaternion components, about 0.1 degree)."""


SKIP_BUDGET_S = 0.004
"""Seconds a frame may spend looking through a film for the next motion (bounded work)."""


def pose_rows(poses: dict[str, Any]) -> np.ndarray:
    """Poses (id -> (position, quaternion)) as one (n, 7) array, in the dict's order."""
    if not poses:
        return np.zeros((0, 7))
    return np.array([np.concatenate((p, q)) for p, q in poses.values()], float)


def _moved(pa: np.ndarray, pb: np.ndarray) -> bool:
    """Whether any piece of pose rows ``pb`` moved since rows ``pa`` (a piece more or less:
    moved)."""
    if pa.shape != pb.shape:
        return True
    if not len(pb):
        return False
    if np.abs(pb[:, :3] - pa[:, :3]).max() > STILL_M:
        return True
    dq = np.minimum(np.abs(pb[:, 3:] - pa[:, 3:]).max(axis=1),
                    np.abs(pb[:, 3:] + pa[:, 3:]).max(axis=1))  # fmt: skip
    return bool(dq.max() > STILL_Q)


def advance_film(a: dict[str, Any], dt: float) -> None:
    """Advance a film ``a`` (``samples``: (t, poses) in time order, growing while the table
    measures; ``t`` its time, ``i`` the sample shown; ``rows``: the samples' :func:`pose_rows`,
    filled here when the recorder did not) by ``dt`` s, never past the last sample, skipping at
    once over stretches in which nothing moves (a person's wait, a tower that stands): the
    film shows motion at its own pace and nothing else."""
    samples = a["samples"]
    if not samples:
        return
    rows: list[np.ndarray] = a.setdefault("rows", [])
    i = int(a.get("i", 0))
    if "i" not in a:  # the film starts at its first sample (a filmed wait: before 0)
        a["t"] = float(samples[0][0])
    last = len(samples) - 1

    def row(k: int) -> np.ndarray:
        while len(rows) <= k:
            rows.append(pose_rows(samples[len(rows)][1]))
        return rows[k]

    shown = row(i)
    j, until = i, time.perf_counter() + SKIP_BUDGET_S
    while j < last and time.perf_counter() < until and not _moved(shown, row(j + 1)):
        j += 1
    if j > i:
        a["t"] = max(float(a["t"]), samples[j][0])
        i = j
    a["t"] = min(float(a["t"]) + dt, samples[last][0])
    while i < last and samples[i + 1][0] <= a["t"] + 1e-9:
        i += 1
    if i == last and j == last and a.get("end", math.inf) != math.inf:
        a["t"] = max(float(a["t"]), float(a["end"]))  # nothing moves to the end: done
    a["i"] = i
