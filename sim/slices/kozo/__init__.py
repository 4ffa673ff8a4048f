"""The Kozo slice: the physics table (:mod:`.referee`), the action codec
(:mod:`.codec`) and observation planes (:mod:`.features`); its drawing and window controller
are shared with Kataboom for now (:mod:`tablesim.sim.slices.common`).
The game's spec (:data:`tablesim.games.registry.BUILTIN`) names the parts by string."""

from __future__ import annotations

from typing import Any

from tablesim.games.core import PhysicsTable


def referee_factory(game: Any, config: Any, seed: int) -> PhysicsTable:
    """The ``kozo-physics`` table: one persistent seeded world per round."""
    from tablesim.sim.slices.kozo.referee import KozoReferee

    return KozoReferee(config, seed)
