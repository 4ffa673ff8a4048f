"""The Kozo slice: the physics table (:mod:`.referee`), the action codec
(:mod:`.codec`), observation planes (:mod:`.features`), table description
(:mod:`.state_layout`) and window controller (:mod:`.controller`, on the tower base shared
with Kataboom in :mod:`tablesim.sim.slices.common.towers`).
The game's spec (:data:`tablesim.games.registry.BUILTIN`) names the parts by string."""

from __future__ import annotations

from typing import Any

from tablesim.games.core import PhysicsTable


def referee_factory(game: Any, config: Any, seed: int) -> PhysicsTable:
    """The ``kozo-physics`` table: one persistent seeded world per round."""
    from tablesim.sim.slices.kozo.referee import KozoReferee

    return KozoReferee(config, seed)
