"""Pure rules of the tablesim games: states, moves, scoring, bots, polycube geometry.

Importing this package pulls in only the standard library and numpy: no physics, no meshes,
no rendering (``tests/test_imports.py`` checks it).
"""

from tablesim.games.core import (
    Bot,
    ConfigError,
    Game,
    GameError,
    IllegalMoveError,
    MoveParseError,
    Option,
    Result,
    StateFormatError,
)
from tablesim.games.registry import game_names, get_game, make_bot

__all__ = [
    "Bot",
    "ConfigError",
    "Game",
    "GameError",
    "IllegalMoveError",
    "MoveParseError",
    "Option",
    "Result",
    "StateFormatError",
    "game_names",
    "get_game",
    "make_bot",
]
