"""Kozo (ACTOP): build a tower of polycubes around the chimney; whoever topples it loses the
round's points. Pure rules (:mod:`tablesim.games.kozo.rules`), the grid frame and the tower as
boxes (:mod:`tablesim.games.kozo.blocks`), the placement rules
(:mod:`tablesim.games.kozo.placement`), the seeded stand-in judge
(:mod:`tablesim.games.kozo.judge`) and bots (:mod:`tablesim.games.kozo.bots`). The physics table
that measures moves is :mod:`tablesim.sim.slices.kozo.referee`.
"""

from tablesim.games.kozo.bots import BOTS, CarefulBot, GreedyBot
from tablesim.games.kozo.rules import GAME, Kozo, RefereeRequiredError
from tablesim.games.kozo.state import Item, KozoConfig, KozoMove, KozoState, Outcome, RoundRecord

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
