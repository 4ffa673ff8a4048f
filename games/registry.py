"""The registry of games: one typed :class:`GameSpec` per game, the only place a game is named.

A spec says where everything of one game lives: its rules (the :class:`tablesim.games.core.Game`), its
bots, the referees that measure its moves (physics tables), its drawing (state ->
``TableLayout``), its window controller, its action codec and observation features (and the
size of its JSON observation). Every part is a *reference*: either the object itself or a
``"module:attr"`` string imported when first used, so ``import games`` stays light and the
rules layer never imports the physics, the view or the environments (a string is not an
import: only the layer that asks for a drawing or a referee loads it).

The built-in games are declared below (:data:`BUILTIN`); their adapters live in
``sim/slices/<game>/`` (``docs/architecture.md``). Adding a game, at run time or here: one
:func:`register_game` call with its spec, and the command line (``play``, ``list``,
``balance``), the window and ``tablesim.env`` find it.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, overload

from tablesim.games.core import Bot, ConfigError, Game, RefereeFactory

if TYPE_CHECKING:  # the shipped games' types, for the typed lookups of get_game (no import)
    from tablesim.games.catego import CategoConfig, CategoState
    from tablesim.games.kaito.rules import KaitoConfig, KaitoState
    from tablesim.games.kaito.rules import Move as KaitoMove
    from tablesim.games.kataboom.state import KataboomConfig, KataboomMove, KataboomState
    from tablesim.games.katamino.family import ModeConfig, ModeMove, ModeState
    from tablesim.games.katoiz.components import Move as KatoizMove
    from tablesim.games.katoiz.config import KatoizConfig
    from tablesim.games.katoiz.state import KatoizState
    from tablesim.games.kozo.state import KozoConfig, KozoMove, KozoState

AnyGame = Game[Any, Any, Any]
"""A game found by a name known only at run time (a command line's ``GAME``, a log's header):
its state, move and config types are erased there. A shipped game named by a literal string
(``get_game("kozo")``) is typed: :func:`get_game`'s overloads give its own types, so mypy checks
what the caller does with its states and moves; functions that take a game are generic in
``S, M, C``."""

Ref = Any
"""A ``"module:attr"`` string (imported when first used) or the object itself."""


@dataclass(frozen=True)
class GameSpec:
    """Everything one game brings, declared once.

    ``rules``: its :class:`tablesim.games.core.Game`; ``bots``: a mapping of bot name -> Bot class (the
    generic bots of :mod:`tablesim.games.bots` are added); ``referees``: referee name (the rules'
    ``referee_name(config)``) -> :class:`tablesim.games.core.RefereeFactory`
    ``(game, config, seed) -> Referee``; ``drawing``:
    ``state -> tablesim.sim.view.layout.TableLayout``; ``controller``: ``() -> Controller`` of the
    window (:mod:`tablesim.sim.view.interact`); ``codec``: ``config -> ActionCodec`` (fixed action
    ids); ``features``: ``(game, config, codec) -> Features`` (observation planes);
    ``obs_bytes``: the length of the JSON observation; ``vector``: the class of its batched
    environment, ``(n, seed=, **options) -> VectorEnv`` (:func:`tablesim.vector_env`). Parts a
    game lacks stay None.
    """

    name: str
    rules: Ref
    bots: Ref = None
    referees: Mapping[str, Ref] = field(default_factory=dict)
    drawing: Ref = None
    controller: Ref = None
    codec: Ref = None
    features: Ref = None
    obs_bytes: int = 4096
    vector: Ref = None

    def part(self, kind: str) -> Any:
        """The object of part ``kind`` (``"rules"``, ``"drawing"``...), imported if named by
        string; None when the game has no such part."""
        return load(getattr(self, kind))

    def referee_factory(self, name: str) -> RefereeFactory[Any, Any, Any] | None:
        """The factory of referee ``name`` of this game (None: not one of its referees)."""
        ref = self.referees.get(name)
        return None if ref is None else load(ref)


def load(ref: Ref) -> Any:
    """The object a reference names (``"module:attr"`` imported; anything else as it is)."""
    if isinstance(ref, str):
        module, _, attr = ref.partition(":")
        obj: Any = importlib.import_module(module)
        for part in attr.split(".") if attr else ():
            obj = getattr(obj, part)
        return obj
    return ref


def _shipped(
    name: str,
    rules: str,
    drawing: str,
    controller: str,
    codec: str,
    features: str,
    obs_bytes: int,
    table: str | None = None,
    vector: str | None = None,
) -> GameSpec:
    """A shipped game's spec: rules and bots from ``rules`` (a module of ``games``), the
    adapters from ``tablesim.sim.slices`` (``drawing`` etc. as ``"module:attr"`` below it), the physics
    table ``table`` (when judged) from ``tablesim.sim.slices.<name>:referee_factory``, the
    batched environment ``vector`` (when there is one) as ``"module:attr"`` below
    ``tablesim.envs``."""
    at = "tablesim.sim.slices."
    return GameSpec(
        name=name,
        rules=f"{rules}:GAME",
        bots=f"{rules}:BOTS",
        referees={table: f"{at}{name}:referee_factory"} if table else {},
        drawing=at + drawing,
        controller=at + controller,
        codec=at + codec,
        features=at + features,
        obs_bytes=obs_bytes,
        vector=f"tablesim.envs.{vector}" if vector else None,
    )


BUILTIN: tuple[GameSpec, ...] = (
    _shipped("catego", "tablesim.games.catego", "catego.drawing:catego_layout",
             "catego.controller:CategoController", "catego.codec:CategoCodec",
             "catego.features:CategoFeatures", 4096, vector="vector:CategoVectorEnv"),
    _shipped("kaito", "tablesim.games.kaito", "kaito.state_layout:kaito_state_layout",
             "kaito.controller:KaitoController", "kaito.codec:KaitoCodec",
             "kaito.features:KaitoFeatures", 4096, vector="vector_kaito:KaitoVectorEnv"),
    _shipped("kataboom", "tablesim.games.kataboom", "kataboom.state_layout:kataboom_state_layout",
             "kataboom.controller:KataboomController", "kataboom.codec:KataboomCodec",
             "kataboom.features:KataboomFeatures", 16384, table="kataboom-physics"),
    _shipped("katamino", "tablesim.games.katamino.game", "katamino.state_layout:katamino_state_layout",
             "katamino.controller:KataminoController", "katamino.codec:KataminoCodec",
             "katamino.features:KataminoFeatures", 16384),
    _shipped("katoiz", "tablesim.games.katoiz", "katoiz.state_layout:katoiz_state_layout",
             "katoiz.controller:KatoizController", "katoiz.codec:KatoizCodec",
             "katoiz.features:_katoiz", 16384, vector="vector_katoiz:KatoizVectorEnv"),
    _shipped("kozo", "tablesim.games.kozo", "kozo.state_layout:kozo_state_layout",
             "kozo.controller:KozoController", "kozo.codec:KozoCodec",
             "kozo.features:KozoFeatures", 16384, table="kozo-physics"),
)  # fmt: skip
"""The shipped games, one spec each."""

_SPECS: dict[str, GameSpec] = {spec.name: spec for spec in BUILTIN}


def register_game(spec: GameSpec, *, replace: bool = False) -> None:
    """Add a game (ConfigError when the name is taken, unless ``replace``)."""
    if not isinstance(spec, GameSpec):
        raise ConfigError(f"register_game needs a GameSpec, got {type(spec).__name__}")
    if spec.name in _SPECS and not replace:
        raise ConfigError(f"a game named {spec.name!r} is already registered")
    _SPECS[spec.name] = spec


def unregister_game(name: str) -> None:
    """Remove the game ``name`` (a run-time registration; nothing if unknown)."""
    _SPECS.pop(name, None)


def game_names() -> list[str]:
    """Names of every registered game, sorted."""
    return sorted(_SPECS)


def judged_game_names() -> list[str]:
    """Names of the registered games whose spec declares a referee (a physics table that
    measures their moves: Kozo, Kataboom), sorted."""
    return [name for name in game_names() if _SPECS[name].referees]


def game_spec(name: str) -> GameSpec:
    """The spec registered under ``name`` (ConfigError naming the games if unknown)."""
    spec = _SPECS.get(name)
    if spec is None:
        raise ConfigError(f"unknown game {name!r} (registered: {', '.join(game_names())})")
    return spec


@overload
def get_game(name: Literal["catego"]) -> Game[CategoState, int, CategoConfig]: ...
@overload
def get_game(name: Literal["kaito"]) -> Game[KaitoState, KaitoMove, KaitoConfig]: ...
@overload
def get_game(name: Literal["kataboom"]) -> Game[KataboomState, KataboomMove, KataboomConfig]: ...
@overload
def get_game(name: Literal["katamino"]) -> Game[ModeState, ModeMove, ModeConfig]: ...
@overload
def get_game(name: Literal["katoiz"]) -> Game[KatoizState, KatoizMove, KatoizConfig]: ...
@overload
def get_game(name: Literal["kozo"]) -> Game[KozoState, KozoMove, KozoConfig]: ...
@overload
def get_game(name: str) -> AnyGame: ...
def get_game(name: str) -> AnyGame:
    """The Game object registered under ``name`` (ConfigError if unknown); typed by the
    shipped game's own types when ``name`` is its literal name (:data:`AnyGame`)."""
    game: AnyGame = game_spec(name).part("rules")
    return game


def bot_classes(game_name: str) -> dict[str, type[Bot[Any, Any]]]:
    """Bot classes available for a game: generic ones plus the game's own."""
    from tablesim.games.bots import GENERIC_BOTS

    out: dict[str, type[Bot[Any, Any]]] = dict(GENERIC_BOTS)
    out.update(game_spec(game_name).part("bots") or {})
    return out


def make_bot(game_name: str, bot_name: str, seed: int, budget: int | None = None) -> Bot[Any, Any]:
    """Instantiate bot ``bot_name`` for ``game_name`` (ConfigError naming the known bots)."""
    classes = bot_classes(game_name)
    if bot_name not in classes:
        raise ConfigError(
            f"unknown bot {bot_name!r} for {game_name} (available: human, "
            f"{', '.join(sorted(classes))})"
        )
    return classes[bot_name](get_game(game_name), seed, budget)


def referee_factory(name: str, game_name: str) -> RefereeFactory[Any, Any, Any]:
    """The factory of referee ``name`` for the game ``game_name`` (ConfigError when that game's
    spec declares no such referee)."""
    spec = game_spec(game_name)
    factory = spec.referee_factory(name)
    if factory is None:
        known = ", ".join(sorted(spec.referees)) or "none"
        raise ConfigError(
            f"{game_name}: moves must be measured by the referee {name!r}, which its game spec "
            f"does not declare (declared: {known})"
        )
    return factory
