"""The Katoiz game object: one registered game, three game types chosen by ``type``.

Each type is a variant (:mod:`tablesim.games.variants`): an object implementing :class:`KatoizVariant`,
the Stapeltoren rules :data:`tablesim.games.katoiz.stapeltoren.STAPELTOREN`, the 3-set rules
:data:`tablesim.games.katoiz.threeset.THREE_SET` and the Stapeltje-four rules
:data:`tablesim.games.katoiz.stapeltje.STAPELTJE`, registered in :data:`VARIANTS` under their type names.
This class validates the options (common to all types), forwards each rule to the variant of
``config.type`` and adds the common JSON header (game, version, config, stream).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, Protocol

from tablesim.games.core import (
    ConfigError,
    Game,
    IllegalMoveError,
    MoveParseError,
    Result,
    StateFormatError,
    check_state_header,
    state_config,
    state_head,
    state_rng,
)
from tablesim.games.katoiz.components import Move, match_words, roll_text, tile_code
from tablesim.games.katoiz.config import OPTIONS, KatoizConfig
from tablesim.games.katoiz.config import make_config as _make_config
from tablesim.games.katoiz.stapeltje import STAPELTJE, StapelState
from tablesim.games.katoiz.stapeltoren import STAPELTOREN, TorenState
from tablesim.games.katoiz.state import KatoizState
from tablesim.games.katoiz.threeset import THREE_SET, SetState
from tablesim.games.rng import Rng
from tablesim.games.variants import Variant, VariantRegistry

STATE_VERSION = 1


class KatoizVariant(Variant[Any, Move, KatoizConfig], Protocol):
    """One Katoiz game type: the rules of :class:`tablesim.games.variants.Variant`, plus its position's
    own JSON fields (the game writes the header, config and stream around them).

    Its state is its own position class (a :class:`KatoizState`), so the registry holds the
    variants with that type erased: :func:`_rules` is the one place a position is handed on
    untyped, to the variant of its own ``type``."""

    name: str

    def state_fields(self, state: Any) -> dict[str, Any]:
        """The position's own fields as JSON."""
        ...

    def state_from_fields(self, cfg: KatoizConfig, rng: Rng, obj: Mapping[str, Any]) -> Any:
        """Rebuild and check a position of this type; raises StateFormatError."""
        ...


VARIANTS: VariantRegistry[KatoizVariant] = VariantRegistry(
    "katoiz", "type", {v.name: v for v in (STAPELTOREN, THREE_SET, STAPELTJE)}
)
"""The game types by name (the ``type`` option's choices, in the same order)."""


TYPE_TITLES: Mapping[str, str] = {"stapeltoren": "Stapeltoren", "3-set": "3-set"}
"""The game types' names as the rulebook's headings give them ("Game Type 1: Stapeltoren",
"Game Type 2: 3-set (3-stel)"); Stapeltje is named by its target height, as the rulebook
does ("Stapeltje-four" ... "Stapeltje-seven": :data:`HEIGHT_WORDS`)."""
HEIGHT_WORDS: Mapping[int, str] = {4: "four", 5: "five", 6: "six", 7: "seven"}


def _rules(state: Any) -> KatoizVariant:
    cfg = getattr(state, "config", None)
    if not isinstance(cfg, KatoizConfig):
        raise StateFormatError(f"katoiz: {type(state).__name__} is not a Katoiz state")
    variant = _BY_TYPE.get(cfg.type)  # (asked several times a move: the registry's once)
    if variant is None:
        variant = _BY_TYPE[cfg.type] = VARIANTS.get(cfg.type)
    return variant


_BY_TYPE: dict[str, KatoizVariant] = {}


class Katoiz(Game[KatoizState, Move, KatoizConfig]):
    """Katoiz (Sabine Opstelten): Stapeltoren, 3-set and Stapeltje-four, every level a switch."""

    name = "katoiz"
    title = "Katoiz"
    min_players = 1
    max_players = 4
    options = OPTIONS

    def make_config(self, values: Mapping[str, Any] | None = None, *, players: int) -> KatoizConfig:
        """Validate ``values`` for ``players`` seats (level preset, then explicit switches)."""
        values = dict(values or {})
        self.check_option_keys(values)
        if isinstance(players, bool) or not isinstance(players, int):
            raise ConfigError(f"katoiz: players must be an integer, got {players!r}")
        self.check_players(players)
        return _make_config(values, players)

    def config_to_json(self, config: KatoizConfig) -> dict[str, Any]:
        """``players`` plus every option of the config's type, resolved."""
        return {"players": config.players, **config.option_values()}

    def new_game(self, config: KatoizConfig, seed: int) -> KatoizState:
        """The initial position of the configured type (all chance from the seeded stream)."""
        if not isinstance(config, KatoizConfig):
            raise ConfigError("katoiz: new_game needs a config made by make_config")
        return VARIANTS.get(config.type).new_game(config, int(seed))

    def legal_moves(self, state: KatoizState) -> tuple[Move, ...]:
        """Sorted legal moves; empty only at the end."""
        return _rules(state).legal_moves(state)

    def apply(self, state: KatoizState, move: Move) -> KatoizState:
        """The position after ``move`` (IllegalMoveError says why a move is refused)."""
        if not isinstance(move, Move):
            raise IllegalMoveError(f"katoiz: {move!r} is not a Katoiz move")
        return _rules(state).apply(state, move)

    def heading(self, state: Any) -> str:
        """The game and the type being played, in the rulebook's words (``Katoiz:
        Stapeltoren``, ``Katoiz: 3-set``, ``Katoiz: Stapeltje-five``): what a window's status
        panel names instead of the bare title."""
        cfg = getattr(state, "config", None)
        if not isinstance(cfg, KatoizConfig):
            raise StateFormatError(f"katoiz: {type(state).__name__} is not a Katoiz state")
        if cfg.type == "stapeltje":
            return f"{self.title}: Stapeltje-{HEIGHT_WORDS.get(cfg.height, str(cfg.height))}"
        return f"{self.title}: {TYPE_TITLES.get(cfg.type, cfg.type)}"

    def check_move(self, state: Any, move: Any) -> None:
        """As every game, the legal moves; a person's move stamped with their seconds
        (``b3-a1 @12``, from a front end's :meth:`stamp_seconds`) is the legal move it stamps,
        where the rules take seconds (the clocks: ``apply`` says why not elsewhere)."""
        if isinstance(move, Move) and move.secs >= 0:
            super().check_move(state, replace(move, secs=-1))
            self.apply(state, move)
            return
        super().check_move(state, move)

    def current_player(self, state: KatoizState) -> int | None:
        """The seat to move, None at the end."""
        return None if self.is_terminal(state) else state.seat

    def is_terminal(self, state: KatoizState) -> bool:
        """True once the game is over."""
        return _rules(state).is_terminal(state)

    def result(self, state: KatoizState) -> Result:
        """Scores, winners and the reason the game ended."""
        return _rules(state).result(state)

    def num_players(self, state: KatoizState) -> int:
        """Number of seats."""
        return state.config.players

    def format_move(self, state: KatoizState, move: Move) -> str:
        """The move's text (parsed back by ``parse_move``)."""
        return _rules(state).format_move(state, move)

    def parse_move(self, state: KatoizState, text: str) -> Move:
        """Parse a typed move of the state's type; MoveParseError explains the format."""
        if not isinstance(text, str):
            raise MoveParseError(f"katoiz: {text!r} is not move text")
        return _rules(state).parse_move(state, text)

    def state_to_json(self, state: KatoizState) -> dict[str, Any]:
        """Header, config, random stream (hex) and the position's fields."""
        return {
            **state_head(self, STATE_VERSION, state.config, state.rng),
            **_rules(state).state_fields(state),
        }

    def state_from_json(self, obj: Mapping[str, Any]) -> KatoizState:
        """Rebuild and check a state; raises StateFormatError."""
        check_state_header(obj, self.name, STATE_VERSION)
        config = state_config(self, obj)
        rng = state_rng(self.name, obj.get("rng"))
        return VARIANTS.get(config.type).state_from_fields(config, rng, obj)

    def describe(self, state: KatoizState) -> str:
        """An ASCII picture of the position."""
        return _rules(state).describe(state)

    def names_a_winner(self, state: KatoizState) -> bool:
        """Whether this game names a winner at all: not Stapeltoren without the colour die
        ("Naming a winner is not necessary at this age", levels 1-2) and no solo game; a
        front end then names none when a player resigns either."""
        cfg = state.config
        if cfg.players == 1:
            return False
        return not (cfg.type == "stapeltoren" and not cfg.colour_die)

    def stamp_seconds(self, state: KatoizState, move: Move, seconds: float) -> Move:
        """A person's move with the real seconds it took, where the type runs a clock
        (Stapeltje levels 3-4: ``b3-a1 @12``); unchanged elsewhere."""
        hook = getattr(_rules(state), "stamp_seconds", None)
        return move if hook is None else hook(state, move, seconds)

    def forced_move(self, state: KatoizState) -> Move | None:
        """The pass a blocked player must play (their only legal move), for a front end to
        play for them; None when there is a choice."""
        legal = self.legal_moves(state)
        return legal[0] if len(legal) == 1 and legal[0].kind == "pass" else None

    def move_help(self, state: KatoizState) -> list[str]:
        """Help lines at the terminal: what a tile code means (``ROL``)."""
        from tablesim.games.katoiz.components import (
            COLOUR_LETTERS,
            COLOURS,
            SHAPE_LETTERS,
            SHAPES,
            SIZE_LETTERS,
            SIZES,
        )

        def legend(letters: Any, names: Any) -> str:
            return ", ".join(f"{a} {b}" for a, b in zip(letters, names, strict=True))

        return [
            "a tile code is colour, shape, size: colour "
            + legend(COLOUR_LETTERS, COLOURS)
            + "; shape "
            + legend(SHAPE_LETTERS, SHAPES)
            + "; size "
            + legend(SIZE_LETTERS, SIZES)
            + "; '-' on a blank tile (ROL: red round large)"
        ]

    def describe_move(self, state: KatoizState, move: Move) -> str:
        """``P1: ROL on 1``, or with dice ``P1 rolled red + round: ROL on 1`` (the roll the
        move answers, so anyone can check a bot followed it), plus what the move achieved (a
        3-set, a home stack, the end); a Stapeltoren tile put on a stack names its match with
        the top tile, ``ROL on 1 (matches WOL: round, large)``."""
        roll = state.roll
        dice = "" if roll is None else f" rolled {roll_text(roll)}"
        seat = state.seat
        text = f"P{seat + 1}{dice}: {self.format_move(state, move)}"
        after = self.apply(state, move)  # a position of the same type (class) as ``state``
        if isinstance(state, SetState) and isinstance(after, SetState):
            if after.piles[seat] != state.piles[seat]:
                text += f", takes a 3-set ({len(after.piles[seat]) // 3} now)"
            elif after.bonus:
                text += ", next to an own disc: rolls once more"
        elif isinstance(state, StapelState) and isinstance(after, StapelState):
            if after.homes[seat] != state.homes[seat]:
                text += f", home stack now {len(after.homes[seat])} high"
        elif isinstance(state, TorenState) and move.kind == "add":
            # "The player names the match between the chosen tile and the top tile"
            top = state.stacks[seat][move.dst][-1]
            text += f" (matches {tile_code(top)}: {', '.join(match_words(move.tile, top))})"
        if self.is_terminal(after):
            text += f" (game over: {self.result(after).detail['end']})"
        return text


GAME = Katoiz()
