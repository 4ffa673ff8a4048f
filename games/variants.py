"""Games with variants: one registered game whose rules depend on one option.

Katamino's modes (the solo puzzles, the duels) and Katoiz's game types (Stapeltoren, 3-set,
Stapeltje-four) are each one registered :class:`tablesim.games.core.Game` whose rules differ by one
option (``--mode``, ``--type``). Both are built the same way:

- every variant is an object implementing :class:`Variant` (the rules of that variant);
- the game keeps a :class:`VariantRegistry` of them by name (each name once; several names
  may share one object, as Katamino's six solo modes share the solo family);
- the game's configs and states carry the variant's name, and every rule the game is asked
  about is forwarded to the variant that name picks. What is common to all variants (options,
  the JSON header) stays in the game.

A game adds what its variants share on top of :class:`Variant` in its own Protocol or base
class (Katoiz: the position's JSON fields; Katamino: a whole :class:`tablesim.games.core.Game` per
family, with its bots).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, Protocol, TypeVar

from tablesim.games.core import ConfigError, Result

S = TypeVar("S")
M = TypeVar("M")
C_contra = TypeVar("C_contra", contravariant=True)


class Variant(Protocol[S, M, C_contra]):
    """The rules of one variant: what a game with variants forwards to it.

    The methods mean what :class:`tablesim.games.core.Game`'s methods of the same names mean (a
    ``Game`` is itself a ``Variant``).
    """

    def new_game(self, config: C_contra, seed: int) -> S:
        """The initial state; every chance event later comes from the state's own stream."""
        ...

    def legal_moves(self, state: S) -> tuple[M, ...]:
        """All legal moves, sorted; empty only when the state is terminal."""
        ...

    def apply(self, state: S, move: M) -> S:
        """The state after ``move``; raises IllegalMoveError; never mutates ``state``."""
        ...

    def is_terminal(self, state: S) -> bool:
        """True once the game is over."""
        ...

    def result(self, state: S) -> Result:
        """The result of a terminal state (raises GameError before the end)."""
        ...

    def format_move(self, state: S, move: M) -> str:
        """The move's text form (parsed back by ``parse_move``)."""
        ...

    def parse_move(self, state: S, text: str) -> M:
        """Parse a move typed by a person or read from a log; raises MoveParseError."""
        ...

    def describe(self, state: S) -> str:
        """A human-readable picture of the state for the terminal."""
        ...


V = TypeVar("V", bound=Variant[Any, Any, Any])


class VariantRegistry(Generic[V]):
    """The variants of one game by name, in the order a user sees them listed.

    ``VariantRegistry(game, option, {name: variant})`` holds ready objects;
    :meth:`lazy` takes a loader per name instead (a function returning the variant, called
    once on first use), for variants whose modules are costly to import.
    """

    def __init__(self, game: str, option: str, variants: Mapping[str, V]) -> None:
        self.game = game
        self.option = option
        self._loaders: dict[str, Callable[[], V]] = {}
        self._loaded: dict[str, V] = dict(variants)

    @classmethod
    def lazy(
        cls, game: str, option: str, loaders: Mapping[str, Callable[[], V]]
    ) -> VariantRegistry[V]:
        """A registry whose variants are loaded on first use (each loader called once)."""
        reg: VariantRegistry[V] = cls(game, option, {})
        reg._loaders = dict(loaders)
        return reg

    @property
    def names(self) -> tuple[str, ...]:
        """Every variant name, in registration order."""
        return tuple(self._loaders) if self._loaders else tuple(self._loaded)

    def __contains__(self, name: object) -> bool:
        return name in self.names

    def get(self, name: str) -> V:
        """The variant called ``name``; ConfigError naming the option and the allowed names."""
        variant = self._loaded.get(name)
        if variant is not None:
            return variant
        if name not in self._loaders:
            raise ConfigError(
                f"{self.game}: option --{self.option}: {name!r} is not a {self.option} "
                f"(allowed: {', '.join(self.names)})"
            )
        variant = self._loaded[name] = self._loaders[name]()
        return variant

    def distinct(self) -> tuple[V, ...]:
        """Each variant object once, in the order of its first name."""
        out: list[V] = []
        for name in self.names:
            v = self.get(name)
            if all(v is not w for w in out):
                out.append(v)
        return tuple(out)
