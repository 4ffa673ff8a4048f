"""The Kataboom slice: the physics table (:mod:`.referee`), the action codec
(:mod:`.codec`), observation planes (:mod:`.features`), table description
(:mod:`.state_layout`) and window controller (:mod:`.controller`, on the tower base shared
with Kozo in :mod:`tablesim.sim.slices.common.towers`).
The game's spec (:data:`tablesim.games.registry.BUILTIN`) names the parts by string."""

from __future__ import annotations

from typing import Any

from tablesim.games.core import PhysicsTable


def referee_factory(game: Any, config: Any, seed: int) -> PhysicsTable:
    """The ``kataboom-physics`` table: one persistent seeded world per game."""
    from tablesim.sim.slices.kataboom.referee import KataboomReferee

    return KataboomReferee(config, seed)
