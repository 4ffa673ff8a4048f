"""Physics tables: the referees that turn intended moves into measured moves.

This is where physics meets rules (``docs/rules/kozo.md``, "The table"). A game in ``games/``
stays pure; when its ``referee_name(config)`` is set, the play loop asks the referee registered
under that name (:func:`games.core.register_referee`) to *measure* each move before
``Game.apply`` records it. Importing this package registers every table:

- ``kozo-physics``: :class:`sim.slices.kozo.referee.KozoReferee`, one persistent seeded world per round.
- ``kataboom-physics``: :class:`sim.slices.kataboom.referee.KataboomReferee`, one persistent seeded world
  per game.

Shared by both tables:

- :class:`PersistentWorld`, a :class:`sim.world.World` that pieces can be added to (and removed
  from) while it keeps running, with per-move baselines for the topple rule;
- :func:`watch`, which runs a world for a window and applies :class:`sim.verdict.ToppleRule`
  at every check instant, returning which pieces fell and when.
"""

from __future__ import annotations

from typing import Any

from games.core import register_referee
from sim.referees.persistent_world import FallReport, PersistentWorld, watch

__all__ = ["FallReport", "PersistentWorld", "watch"]


def _kozo(game: Any, config: Any, seed: int) -> Any:
    from sim.slices.kozo.referee import KozoReferee

    return KozoReferee(config, seed)


register_referee("kozo-physics", _kozo)


def _kataboom(game: Any, config: Any, seed: int) -> Any:
    from sim.slices.kataboom.referee import KataboomReferee

    return KataboomReferee(config, seed)


register_referee("kataboom-physics", _kataboom)
