"""Option checks shared by the games whose ``make_config`` validates a flat option table
(Kozo, Kataboom): merge with the defaults, check each value's kind, then each range.

Every error is a :class:`tablesim.games.core.ConfigError` that names the game, the key, the value and
what is allowed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any, Protocol, TypeVar

from tablesim.games.core import C, ConfigError, Game, M, Option, S


def merged_options(
    game: Game[S, M, C], values: Mapping[str, Any] | None, players: Any
) -> dict[str, Any]:
    """The option defaults of ``game`` overlaid with ``values``.

    Raises ConfigError for an unknown key or a ``players`` that is not an integer; the seat
    range is left to the caller (a game may allow fewer seats in a variant).
    """
    values = dict(values or {})
    game.check_option_keys(values)
    if isinstance(players, bool) or not isinstance(players, int):
        raise ConfigError(f"{game.name}: players must be an integer, got {players!r}")
    return {**{o.name: o.default for o in game.options}, **values}


def check_option_kinds(game: str, options: Iterable[Option], merged: dict[str, Any]) -> None:
    """Check each option's value by its kind, in place.

    ``int``: an integer (not a bool); ``float``: a finite int or float, stored as float;
    ``bool``: true or false; options with ``choices``: one of them.
    """
    for opt in options:
        v = merged[opt.name]
        if opt.kind == "int" and (isinstance(v, bool) or not isinstance(v, int)):
            raise ConfigError(f"{game}: option {opt.name!r} must be an integer, got {v!r}")
        if opt.kind == "float":
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ConfigError(f"{game}: option {opt.name!r} must be a number, got {v!r}")
            merged[opt.name] = float(v)
        if opt.kind == "bool" and not isinstance(v, bool):
            raise ConfigError(f"{game}: option {opt.name!r} must be true or false, got {v!r}")
        if opt.choices and v not in opt.choices:
            raise ConfigError(
                f"{game}: option {opt.name!r}: {v!r} (allowed: {', '.join(opt.choices)})"
            )


def check_ranges(
    game: str, merged: Mapping[str, Any], checks: Iterable[tuple[str, bool, str]]
) -> None:
    """Raise ConfigError for the first ``(key, ok, allowed)`` whose ``ok`` is false."""
    for key, ok, allowed in checks:
        if not ok:
            raise ConfigError(f"{game}: option {key!r} = {merged[key]!r} (allowed: {allowed})")


class _Seated(Protocol):
    """A config that says how many seats it has (every flat-option config does)."""

    @property
    def players(self) -> int: ...


SC = TypeVar("SC", bound=_Seated)


def options_to_json(game: Game[S, M, SC], config: SC) -> dict[str, Any]:
    """``players`` then every option of ``game`` as stored in ``config``."""
    out: dict[str, Any] = {"players": config.players}
    for opt in game.options:
        out[opt.name] = getattr(config, opt.name)
    return out


def check_choice(game: str, key: str, value: Any, choices: tuple[str, ...]) -> str:
    """``value`` when it is one of the strings ``choices``, else ConfigError naming the key."""
    if not isinstance(value, str) or value not in choices:
        raise ConfigError(f"{game}: option {key!r}: {value!r} (allowed: {', '.join(choices)})")
    return value
