"""Kataboom (Katamino Duo's balancing game): pure rules (:mod:`tablesim.games.kataboom.rules`), the
placement geometry (:mod:`tablesim.games.kataboom.geometry`), the 18 starting models
(:mod:`tablesim.games.kataboom.models`) and bots (:mod:`tablesim.games.kataboom.bots`). The physics table that
measures moves is :mod:`tablesim.sim.slices.kataboom.referee`.
"""

from tablesim.games.kataboom.bots import BOTS, CarefulBot
from tablesim.games.kataboom.models import MODELS, Model, ModelPiece, get_model
from tablesim.games.kataboom.rules import GAME, Kataboom, RefereeRequiredError
from tablesim.games.kataboom.state import Item, KataboomConfig, KataboomMove, KataboomState, Outcome

__all__ = [
    "BOTS",
    "GAME",
    "MODELS",
    "CarefulBot",
    "Item",
    "Kataboom",
    "KataboomConfig",
    "KataboomMove",
    "KataboomState",
    "Model",
    "ModelPiece",
    "Outcome",
    "RefereeRequiredError",
    "get_model",
]
