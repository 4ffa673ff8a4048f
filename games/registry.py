"""The registry of games and bots.

Games are registered by module path so ``import games`` stays light: a game module exports
``GAME`` (its :class:`games.core.Game`) and ``BOTS`` (a mapping of bot name to Bot class).
Every game also gets the generic bots of :mod:`games.bots` (``random``).
To add a game: write ``games/<name>.py`` and add one line to ``GAME_MODULES``.
"""

from __future__ import annotations

import importlib
from typing import Any

from games.core import Bot, ConfigError, Game

GAME_MODULES: dict[str, str] = {
    "catego": "games.catego",
    "kaito": "games.kaito",
    "kataboom": "games.kataboom",
    "katamino": "games.katamino.game",
    "katoiz": "games.katoiz",
    "kozo": "games.kozo",
}


def game_names() -> list[str]:
    """Names of every registered game, sorted."""
    return sorted(GAME_MODULES)


def _module(name: str) -> Any:
    if name not in GAME_MODULES:
        raise ConfigError(f"unknown game {name!r} (registered: {', '.join(game_names())})")
    return importlib.import_module(GAME_MODULES[name])


def get_game(name: str) -> Game[Any, Any, Any]:
    """The Game object registered under ``name`` (ConfigError if unknown)."""
    return _module(name).GAME


def bot_classes(game_name: str) -> dict[str, type[Bot]]:
    """Bot classes available for a game: generic ones plus the game's own."""
    from games.bots import GENERIC_BOTS

    out: dict[str, type[Bot]] = dict(GENERIC_BOTS)
    out.update(getattr(_module(game_name), "BOTS", {}))
    return out


def make_bot(game_name: str, bot_name: str, seed: int, budget: int | None = None) -> Bot:
    """Instantiate bot ``bot_name`` for ``game_name`` (ConfigError naming the known bots)."""
    classes = bot_classes(game_name)
    if bot_name not in classes:
        raise ConfigError(
            f"unknown bot {bot_name!r} for {game_name} (available: human, "
            f"{', '.join(sorted(classes))})"
        )
    return classes[bot_name](get_game(game_name), seed, budget)
