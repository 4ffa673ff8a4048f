"""The registered ``katamino`` game: one name, many modes, each mode played by a *family*.

``tablesim play katamino --mode MODE ...`` picks a mode; this module is a thin dispatcher, built
as every game with variants is (:mod:`tablesim.games.variants`):

- :data:`MODES` is a :class:`tablesim.games.variants.VariantRegistry` of mode name -> family, a
  :class:`tablesim.games.katamino.family.ModeFamily` (a standalone :class:`tablesim.games.core.Game` for a group of
  modes: the solo puzzles of ``tablesim.games.katamino.solo``, the duels of ``tablesim.games.katamino.duel``),
  each family's module imported on first use. Adding a family is one line per mode here.
- The ``mode`` option (default ``solo``) chooses the family; the other options are the union of
  the families' options. An option that belongs to another family is a ConfigError naming the
  mode and the modes it applies to.
- Configs and states are the family's own values; each has a ``mode`` attribute (and a
  ``"mode"`` key in its JSON), which is how every method is routed to the right family.
  Moves are the family's own too: they are always read and written against a state.
- ``BOTS``: ``smart`` delegates to the family's own ``smart`` bot (:meth:`ModeFamily.bots`);
  the generic ``random`` bot comes from the registry and works through this dispatcher
  unchanged.

What a family must provide is written in :mod:`tablesim.games.katamino.family`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any, ClassVar

from tablesim.games.core import Bot, ConfigError, Game, GameError, Option, Result, StateFormatError
from tablesim.games.katamino.family import ModeConfig, ModeFamily, ModeMove, ModeState
from tablesim.games.variants import VariantRegistry


def _solo() -> ModeFamily[Any, Any, Any]:
    from tablesim.games.katamino.solo import SOLO_GAME

    return SOLO_GAME


def _duel() -> ModeFamily[Any, Any, Any]:
    from tablesim.games.katamino.duel import DUEL_GAME

    return DUEL_GAME


MODES: VariantRegistry[ModeFamily[Any, Any, Any]] = VariantRegistry.lazy(
    "katamino",
    "mode",
    {
        "solo": _solo,
        "solo3d": _solo,
        "construction": _solo,
        "puzzle3d": _solo,
        "traditional": _solo,
        "picture": _solo,
        "duel": _duel,
        "child-adult": _duel,
        "handicap": _duel,
        "duel3d": _duel,
    },
)
"""Mode name -> the family implementing it (in the order ``--mode`` lists them)."""

DEFAULT_MODE = "solo"

MODE_TITLES: Mapping[str, str] = {
    "solo": "Challenges Solo",
    "solo3d": "Solo in 3D Mode",
    "construction": "3D Construction",
    "puzzle3d": "3D Puzzle Challenges",
    "traditional": "Traditional Katamino",
    "picture": "Puzzle Activities for Ages 3+",
    "duel": "Duels",
    "child-adult": "Duels Between Child & Adult",
    "handicap": "Duels for Two Players at Different Levels",
    "duel3d": "3D Duels",
}
"""Mode name -> the rulebook's words for it (its section headings; ``duel``: the game rules'
duels), as a window's heading names the mode a person chose (issue 32)."""


def family(mode: str) -> ModeFamily[Any, Any, Any]:
    """The family implementing ``mode`` (ConfigError listing the modes if unknown)."""
    return MODES.get(mode)


def _mode_of(value: object, what: str) -> str:
    mode = getattr(value, "mode", None)
    if mode not in MODES:
        raise GameError(f"katamino: this {what} has no known mode ({mode!r})")
    return str(mode)


class Katamino(Game[ModeState, ModeMove, ModeConfig]):
    """Katamino Duo: solo puzzles and duels, dispatched by the ``mode`` option.

    Typed over what every family's state, move and config share (:class:`ModeState`,
    :class:`ModeMove`, :class:`ModeConfig`); the family of a mode takes its own types, so
    the dispatch (:func:`family`) is the one place a value is handed on untyped."""

    name = "katamino"
    title = "Katamino Duo"
    min_players = 1
    max_players = 2
    summarise_prompt: ClassVar[bool] = True
    """A person's prompt counts the moves by piece (``97 moves: quit (1), 5 (24), ...``), as
    Kozo's does, instead of 40 placements of a solo board; ``moves`` lists them all. A duel
    race lists the move forms instead (``prompt_listing``)."""

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
        return [m for m in MODES.names if any(o.name == name for o in family(m).options)]

    # ---- configuration -------------------------------------------------------------------
    def make_config(self, values: Mapping[str, Any] | None = None, *, players: int) -> ModeConfig:
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

    def config_to_json(self, config: ModeConfig) -> dict[str, Any]:
        return family(_mode_of(config, "config")).config_to_json(config)

    def config_from_json(self, obj: Mapping[str, Any]) -> ModeConfig:
        mode = obj.get("mode", DEFAULT_MODE)
        if mode not in MODES:
            raise ConfigError(f"katamino: config mode {mode!r} unknown")
        return family(mode).config_from_json(obj)

    def referee_name(self, config: ModeConfig) -> str | None:
        return family(_mode_of(config, "config")).referee_name(config)

    # ---- rules ---------------------------------------------------------------------------
    def _family_of(self, state: ModeState) -> ModeFamily[Any, Any, Any]:
        return family(_mode_of(state, "state"))

    def new_game(self, config: ModeConfig, seed: int) -> ModeState:
        return family(_mode_of(config, "config")).new_game(config, seed)

    def legal_moves(self, state: ModeState) -> tuple[ModeMove, ...]:
        return self._family_of(state).legal_moves(state)

    def apply(self, state: ModeState, move: ModeMove) -> ModeState:
        return self._family_of(state).apply(state, move)

    def current_player(self, state: ModeState) -> int | None:
        return self._family_of(state).current_player(state)

    def is_terminal(self, state: ModeState) -> bool:
        return self._family_of(state).is_terminal(state)

    def result(self, state: ModeState) -> Result:
        return self._family_of(state).result(state)

    def num_players(self, state: ModeState) -> int:
        return self._family_of(state).num_players(state)

    def turn_number(self, state: ModeState) -> int:
        return self._family_of(state).turn_number(state)

    def check_move(self, state: ModeState, move: ModeMove) -> None:
        """The family's hook for moves accepted off the legal list (hints, undo), if any."""
        self._family_of(state).check_move(state, move)

    def stamp_seconds(self, state: ModeState, move: ModeMove, seconds: float) -> ModeMove:
        """A person's move with the seconds the front end measured, where the family times
        moves (duel races); unchanged in families that do not."""
        return self._family_of(state).stamp_seconds(state, move, seconds)

    def prompt_listing(self, state: ModeState) -> str | None:
        """What a person's prompt lists instead of the legal moves (a duel race: none)."""
        return self._family_of(state).prompt_listing(state)

    def help_lines(self, state: ModeState) -> list[str]:
        """The family's own lines for the terminal's ``help``."""
        return self._family_of(state).help_lines(state)

    def undo_help(self, state: ModeState) -> str:
        """What ``undo`` (the family's own move) does, for ``help``."""
        return self._family_of(state).undo_help(state)

    # ---- text and JSON -------------------------------------------------------------------
    def format_move(self, state: ModeState, move: ModeMove) -> str:
        return self._family_of(state).format_move(state, move)

    def parse_move(self, state: ModeState, text: str) -> ModeMove:
        return self._family_of(state).parse_move(state, text)

    def state_to_json(self, state: ModeState) -> dict[str, Any]:
        return self._family_of(state).state_to_json(state)

    def state_from_json(self, obj: Mapping[str, Any]) -> ModeState:
        mode = obj.get("mode") if isinstance(obj, Mapping) else None
        if not isinstance(mode, str) or mode not in MODES:
            raise StateFormatError(
                f"katamino: state needs a 'mode' key, one of {', '.join(MODES.names)}; got {mode!r}"
            )
        return family(mode).state_from_json(obj)

    def heading(self, state: ModeState) -> str:
        """The game and the mode being played, in the rulebook's words (``Katamino Duo: Solo
        in 3D Mode``): what a window's status panel names instead of the bare title."""
        mode = _mode_of(state, "state")
        return f"{self.title}: {MODE_TITLES.get(mode, mode)}"

    def player_name(self, seat: int) -> str:
        """``P1``, ``P2``: the duel board's and its notes' own names (as the README says)."""
        return f"P{seat + 1}"

    def describe(self, state: ModeState) -> str:
        return self._family_of(state).describe(state)

    def describe_move(self, state: ModeState, move: ModeMove) -> str:
        return self._family_of(state).describe_move(state, move)


@cache
def _options() -> tuple[Option, ...]:
    """``mode`` and the families' options; an option shared by families must have one kind
    (the command line parses it before the mode is known); its helps are joined."""
    seen: dict[str, Option] = {}
    for fam in MODES.distinct():
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
        "what to play: " + ", ".join(MODES.names),
        choices=MODES.names,
    )
    return (mode, *seen.values())


class SmartBot(Bot[ModeState, ModeMove]):
    """The family's ``smart`` bot for the state's mode (solves puzzles, plays duels well)."""

    name = "smart"

    def __init__(
        self, game: Game[ModeState, ModeMove, Any], seed: int, budget: int | None = None
    ) -> None:
        super().__init__(game, seed, budget)
        self._bots: dict[int, Bot[Any, Any]] = {}  # id of the family -> its smart bot (its types)

    def choose(self, state: ModeState) -> ModeMove:
        mode = _mode_of(state, "state")
        fam = family(mode)
        bot = self._bots.get(id(fam))
        if bot is None:
            classes = fam.bots()
            if "smart" not in classes:
                raise GameError(f"katamino: mode {mode!r} has no smart bot")
            bot = self._bots[id(fam)] = classes["smart"](fam, self.seed, self.budget)
        return bot.choose(state)


GAME = Katamino()
BOTS: dict[str, type[Bot[ModeState, ModeMove]]] = {"smart": SmartBot}
