"""Kozo (ACTOP): build a tower of polycubes around the chimney; whoever topples it loses the
round's points. Pure rules (:mod:`games.kozo.rules`), geometry and placement rules
(:mod:`games.kozo.geometry`), the seeded stand-in judge (:mod:`games.kozo.judge`) and bots
(:mod:`games.kozo.bots`). The physics table that measures moves is :mod:`sim.slices.kozo.referee`.
"""

from games.kozo.bots import BOTS, CarefulBot, GreedyBot
from games.kozo.rules import GAME, Kozo, RefereeRequiredError
from games.kozo.state import Item, KozoConfig, KozoMove, KozoState, Outcome, RoundRecord

__all__ = [
    "BOTS",
    "GAME",
    "CarefulBot",
    "GreedyBot",
    "Item",
    "Kozo",
    "KozoConfig",
    "KozoMove",
    "KozoState",
    "Outcome",
    "RoundRecord",
    "RefereeRequiredError",
]
