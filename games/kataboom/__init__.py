"""Kataboom (Katamino Duo's balancing game): pure rules (:mod:`games.kataboom.rules`), the
placement geometry (:mod:`games.kataboom.geometry`), the 18 starting models
(:mod:`games.kataboom.models`) and bots (:mod:`games.kataboom.bots`). The physics table that
measures moves is :mod:`sim.slices.kataboom.referee`.
"""

from games.kataboom.bots import BOTS, CarefulBot
from games.kataboom.models import MODELS, Model, ModelPiece, get_model
from games.kataboom.rules import GAME, Kataboom, RefereeRequiredError
from games.kataboom.state import Item, KataboomConfig, KataboomMove, KataboomState, Outcome

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
