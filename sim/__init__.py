"""Physics (PyBullet), scenes, batch runs and the command line of tablesim.

The physics entry point is :func:`sim.simulate` (imported lazily so ``import sim`` stays light).
"""

from __future__ import annotations

from typing import Any


def simulate(scene: Any, **kwargs: Any) -> Any:
    """Judge a scene: see :func:`sim.verdict.simulate`."""
    from sim.verdict import simulate as _simulate

    return _simulate(scene, **kwargs)


__all__ = ["simulate"]
