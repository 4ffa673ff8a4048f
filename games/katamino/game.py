"""The registered ``katamino`` game: one name, many modes, each mode played by a *family*.

``tablesim play katamino --mode MODE ...`` picks a mode; this module is a thin dispatcher:

- ``MODE_FAMILIES`` maps every mode name to ``"module:attr"``, a standalone
  :class:`games.core.Game` that implements that family of modes (the solo puzzles of
  ``games.katamino.solo``, the duels of ``games.katamino.duel``). Adding a family is one line
  per mode here.
- The ``mode`` option (default ``solo``) chooses the family; the other options are the union of
  the families' options. An option that belongs to another family is a ConfigError naming the
  mode and the modes it applies to.
- Configs and states are the family's own values; each has a ``mode`` attribute (and a
  ``"mode"`` key in its JSON), which is how every method is routed to the right family.
  Moves are the family's own too: they are always read and written against a state.
- ``BOTS``: ``smart`` delegates to the family module's own ``BOTS["smart"]``; the generic
  ``random`` bot comes from the registry and works through this dispatcher unchanged.

Family contract: a family Game declares an ``Option("mode", "str", ..., choices=its modes)``
among its options, gives its config and state a ``mode`` attribute, writes ``"mode"`` in
``config_to_json`` and ``state_to_json``, and its module exports ``BOTS`` with a ``smart`` bot.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from functools import cache
from typing import Any

from games.core import Bot, ConfigError, Game, GameError, Option, Result, StateFormatError

MODE_FAMILIES: dict[str, str] = {
    "solo": "games.katamino.solo:SOLO_GAME",
    "solo3d": "games.katamino.solo:SOLO_GAME",
    "construction": "games.katamino.solo:SOLO_GAME",
    "puzzle3d": "games.katamino.solo:SOLO_GAME",
    "traditional": "games.katamino.solo:SOLO_GAME",
    "picture": "games.katamino.solo:SOLO_GAME",
    "duel": "games.katamino.duel:DUEL_GAME",
    "child-adult": "games.katamino.duel:DUEL_GAME",
    "handicap": "games.katamino.duel:DUEL_GAME",
    "duel3d": "games.katamino.duel:DUEL_GAME",
}
"""Mode name -> ``"module:attr"`` of the Game implementing it."""

DEFAULT_MODE = "solo"


@cache
def family(mode: str) -> Game[Any, Any, Any]:
    """The Game implementing ``mode`` (ConfigError listing the modes if unknown)."""
    if mode not in MODE_FAMILIES:
        raise ConfigError(
            f"katamino: option --mode: {mode!r} is not a mode (allowed: {', '.join(MODE_FAMILIES)})"
        )
    module, attr = MODE_FAMILIES[mode].split(":", 1)
    return getattr(importlib.import_module(module), attr)


def family_bots(mode: str) -> Mapping[str, type[Bot]]:
    """The bot classes of the module implementing ``mode``."""
    module = MODE_FAMILIES[mode].split(":", 1)[0]
    return getattr(importlib.import_module(module), "BOTS", {})


def _families() -> list[Game[Any, Any, Any]]:
    out: list[Game[Any, Any, Any]] = []
    for mode in MODE_FAMILIES:
        g = family(mode)
        if all(g is not h for h in out):
            out.append(g)
    return out


def _mode_of(value: Any, what: str) -> str:
    mode = getattr(value, "mode", None)
    if mode not in MODE_FAMILIES:
        raise GameError(f"katamino: this {what} has no known mode ({mode!r})")
    return mode


class Katamino(Game[Any, Any, Any]):
    """Katamino Duo: solo puzzles and duels, dispatched by the ``mode`` option."""

    name = "katamino"
    title = "Katamino Duo"
    min_players = 1
    max_players = 2

    @property
    def options(self) -> tuple[Option, ...]:  # type: ignore[override]
        """``mode`` first, then every family's options (each name once)."""
        return _options()

    @property
    def playout_options(self) -> Mapping[str, Any]:  # type: ignore[override]
        """The default mode's playout options (rules-only playouts end there)."""
        return {"mode": DEFAULT_MODE, **family(DEFAULT_MODE).playout_options}

    def modes_of_option(self, name: str) -> list[str]:
        """The modes whose family declares option ``name``."""
        return [m for m in MODE_FAMILIES if any(o.name == name for o in family(m).options)]

    # ---- configuration -------------------------------------------------------------------
    def make_config(self, values: Mapping[str, Any] | None = None, *, players: int) -> Any:
        """Route to the family of ``values['mode']`` after checking keys against it."""
        values = dict(values or {})
        self.check_players(players)
        self.check_option_keys(values)
        mode = values.setdefault("mode", DEFAULT_MODE)
        if not isinstance(mode, str):
            raise ConfigError(f"katamino: option --mode must be a string, got {mode!r}")
        fam = family(mode)
        own = {o.name for o in fam.options}
        for key in values:
            if key not in own:
                where = ", ".join(self.modes_of_option(key))
                raise ConfigError(
                    f"katamino: option --{key.replace('_', '-')} does not apply to mode "
                    f"{mode!r} (it is an option of the modes: {where})"
                )
        return fam.make_config(values, players=players)

    def config_to_json(self, config: Any) -> dict[str, Any]:
        return family(_mode_of(config, "config")).config_to_json(config)

    def config_from_json(self, obj: Mapping[str, Any]) -> Any:
        mode = obj.get("mode", DEFAULT_MODE)
        if mode not in MODE_FAMILIES:
            raise ConfigError(f"katamino: config mode {mode!r} unknown")
        return family(mode).config_from_json(obj)

    def referee_name(self, config: Any) -> str | None:
        return family(_mode_of(config, "config")).referee_name(config)

    # ---- rules ---------------------------------------------------------------------------
    def _f(self, state: Any) -> Game[Any, Any, Any]:
        return family(_mode_of(state, "state"))

    def new_game(self, config: Any, seed: int) -> Any:
        return family(_mode_of(config, "config")).new_game(config, seed)

    def legal_moves(self, state: Any) -> tuple[Any, ...]:
        return self._f(state).legal_moves(state)

    def apply(self, state: Any, move: Any) -> Any:
        return self._f(state).apply(state, move)

    def current_player(self, state: Any) -> int | None:
        return self._f(state).current_player(state)

    def is_terminal(self, state: Any) -> bool:
        return self._f(state).is_terminal(state)

    def result(self, state: Any) -> Result:
        return self._f(state).result(state)

    def num_players(self, state: Any) -> int:
        return self._f(state).num_players(state)

    def turn_number(self, state: Any) -> int:
        return self._f(state).turn_number(state)

    def check_move(self, state: Any, move: Any) -> None:
        """The family's hook for moves accepted off the legal list (hints, undo), if any."""
        check = getattr(self._f(state), "check_move", None)
        if check is None:
            raise GameError("that move is not legal here")
        check(state, move)

    def stamp_seconds(self, state: Any, move: Any, seconds: float) -> Any:
        """A person's move with the seconds the front end measured, where the family times
        moves (duel races); unchanged in families that do not."""
        stamp = getattr(self._f(state), "stamp_seconds", None)
        return move if stamp is None else stamp(state, move, seconds)

    # ---- text and JSON -------------------------------------------------------------------
    def format_move(self, state: Any, move: Any) -> str:
        return self._f(state).format_move(state, move)

    def parse_move(self, state: Any, text: str) -> Any:
        return self._f(state).parse_move(state, text)

    def state_to_json(self, state: Any) -> dict[str, Any]:
        return self._f(state).state_to_json(state)

    def state_from_json(self, obj: Mapping[str, Any]) -> Any:
        mode = obj.get("mode") if isinstance(obj, Mapping) else None
        if mode not in MODE_FAMILIES:
            raise StateFormatError(
                f"katamino: state needs a 'mode' key, one of {', '.join(MODE_FAMILIES)}; "
                f"got {mode!r}"
            )
        return family(mode).state_from_json(obj)

    def describe(self, state: Any) -> str:
        return self._f(state).describe(state)

    def describe_move(self, state: Any, move: Any) -> str:
        return self._f(state).describe_move(state, move)


@cache
def _options() -> tuple[Option, ...]:
    """``mode`` and the families' options; an option shared by families must have one kind
    (the command line parses it before the mode is known); its helps are joined."""
    seen: dict[str, Option] = {}
    for fam in _families():
        for o in fam.options:
            if o.name == "mode":
                continue
            prev = seen.get(o.name)
            if prev is None:
                seen[o.name] = o
                continue
            if prev.kind != o.kind:
                raise TypeError(
                    f"katamino: option {o.name!r} is {prev.kind} in one mode family and "
                    f"{o.kind} in another; shared options need one kind"
                )
            if o.help not in prev.help:
                choices = tuple(dict.fromkeys(prev.choices + o.choices))
                seen[o.name] = Option(o.name, o.kind, prev.default, f"{prev.help}; {o.help}",
                                      choices if prev.choices and o.choices else ())  # fmt: skip
    mode = Option(
        "mode",
        "str",
        DEFAULT_MODE,
        "what to play: " + ", ".join(MODE_FAMILIES),
        choices=tuple(MODE_FAMILIES),
    )
    return (mode, *seen.values())


class SmartBot(Bot):
    """The family's ``smart`` bot for the state's mode (solves puzzles, plays duels well)."""

    name = "smart"

    def __init__(self, game: Game[Any, Any, Any], seed: int, budget: int | None = None) -> None:
        super().__init__(game, seed, budget)
        self._bots: dict[str, Bot] = {}

    def choose(self, state: Any) -> Any:
        mode = _mode_of(state, "state")
        module = MODE_FAMILIES[mode].split(":", 1)[0]
        bot = self._bots.get(module)
        if bot is None:
            classes = family_bots(mode)
            if "smart" not in classes:
                raise GameError(f"katamino: mode {mode!r} has no smart bot")
            bot = self._bots[module] = classes["smart"](family(mode), self.seed, self.budget)
        return bot.choose(state)


GAME = Katamino()
BOTS: dict[str, type[Bot]] = {"smart": SmartBot}
