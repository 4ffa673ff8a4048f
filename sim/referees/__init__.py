"""What the physics tables share (the tables themselves are per game:
:mod:`tablesim.sim.slices.kozo.referee`, :mod:`tablesim.sim.slices.kataboom.referee`, found through each game's
spec in :mod:`tablesim.games.registry`; importing this package registers nothing).

- :class:`PersistentWorld`, a :class:`tablesim.sim.world.World` that pieces can be added to (and removed
  from) while it keeps running, with per-move baselines for the topple rule;
- :func:`watch`, which runs a world for a window and applies :class:`tablesim.sim.verdict.ToppleRule`
  at every check instant, returning which pieces fell and when.
"""

from __future__ import annotations

from tablesim.sim.referees.persistent_world import FallReport, PersistentWorld, watch

__all__ = ["FallReport", "PersistentWorld", "watch"]
