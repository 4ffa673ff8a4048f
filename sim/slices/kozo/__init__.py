"""The Kozo slice: the physics table (:mod:`.referee`), the action codec
(:mod:`.codec`), observation planes (:mod:`.features`), table description
(:mod:`.state_layout`) and window controller (:mod:`.controller`, on the tower base shared
with Kataboom in :mod:`tablesim.sim.slices.common.towers`).
The game's spec (:data:`tablesim.games.registry.BUILTIN`) names the parts by string."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tablesim.games.core import Game, RefereeFactory
    from tablesim.games.kozo.state import KozoConfig, KozoMove, KozoState
    from tablesim.sim.slices.kozo.referee import KozoReferee


def referee_factory(
    game: Game[KozoState, KozoMove, KozoConfig], config: KozoConfig, seed: int
) -> KozoReferee:
    """The ``kozo-physics`` table: one persistent seeded world per round."""
    from tablesim.sim.slices.kozo.referee import KozoReferee

    return KozoReferee(config, seed)


if TYPE_CHECKING:  # the spec's factory is a RefereeFactory of this game (checked by mypy)
    _FACTORY: RefereeFactory[KozoState, KozoMove, KozoConfig] = referee_factory
