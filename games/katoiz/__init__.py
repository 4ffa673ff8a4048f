"""Katoiz: three game types (Stapeltoren, 3-set, Stapeltje-four), every level a switch.

Exports ``GAME`` (the registered :class:`tablesim.games.katoiz.game.Katoiz`) and ``BOTS``.
"""

from tablesim.games.katoiz.bots import BOTS
from tablesim.games.katoiz.game import GAME

__all__ = ["BOTS", "GAME"]
