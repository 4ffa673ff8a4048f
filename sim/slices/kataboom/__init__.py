"""The Kataboom slice: the physics table (:mod:`.referee`), the action codec
(:mod:`.codec`), observation planes (:mod:`.features`), table description
(:mod:`.state_layout`) and window controller (:mod:`.controller`, on the tower base shared
with Kozo in :mod:`tablesim.sim.slices.common.towers`).
The game's spec (:data:`tablesim.games.registry.BUILTIN`) names the parts by string."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tablesim.games.core import Game, RefereeFactory
    from tablesim.games.kataboom.state import KataboomConfig, KataboomMove, KataboomState
    from tablesim.sim.slices.kataboom.referee import KataboomReferee


def referee_factory(
    game: Game[KataboomState, KataboomMove, KataboomConfig], config: KataboomConfig, seed: int
) -> KataboomReferee:
    """The ``kataboom-physics`` table: one persistent seeded world per game."""
    from tablesim.sim.slices.kataboom.referee import KataboomReferee

    return KataboomReferee(config, seed)


if TYPE_CHECKING:  # the spec's factory is a RefereeFactory of this game (checked by mypy)
    _FACTORY: RefereeFactory[KataboomState, KataboomMove, KataboomConfig] = referee_factory
