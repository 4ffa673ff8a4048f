"""Values, checks and a bot base shared by the physics-judged stacking games (Kozo, Kataboom).

Poses are 7 floats in a game's grid frame (cube edges): the position (x, y, z) and a
quaternion (qx, qy, qz, qw). A *measured* move carries an :class:`Outcome`: what the table (the
physics referee, or the seeded stand-in judge) saw while the move was made.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

from tablesim.games.core import (
    Bot,
    Game,
    GameError,
    IllegalMoveError,
    M,
    PhysicsTable,
    StateFormatError,
    json_floats,
    json_int,
    make_referee,
)
from tablesim.games.rng import Rng

Pose = tuple[float, float, float, float, float, float, float]
"""Position of the piece frame (x, y, z) and quaternion (qx, qy, qz, qw), grid frame."""

T = TypeVar("T")


class Configured(Protocol):
    """A state that carries its game's config (``state.config``), as the stacking games' do."""

    @property
    def config(self) -> Any:
        """The game's config."""


CS = TypeVar("CS", bound=Configured)
"""The state type of a stacking game (one with a ``config``)."""


@dataclass(frozen=True)
class Outcome:
    """What the table measured while a move was made.

    ``poses``: the settled pose of every piece on the table after the move (the new one
    included), in placement order; ``fell``: names of the pieces that fell (the topple rule of
    :mod:`tablesim.sim.verdict`, or the stand-in's draw), in the order they fell; ``fall_time``: seconds
    from the start of the move to the first fall; ``judge``: ``physics`` or ``stand-in``.
    """

    poses: tuple[Pose, ...]
    fell: tuple[str, ...] = ()
    fall_time: float | None = None
    judge: str = "stand-in"


def q4(v: float) -> float:
    """Round a coordinate to 1e-4 cube edge (about 2 micrometres), the precision of move texts."""
    return round(float(v), 4) + 0.0


def num_text(v: float) -> str:
    """``v`` rounded by :func:`q4`, without trailing zeros (``-0`` written ``0``)."""
    s = f"{q4(v):.4f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def check_outcome(game: str, outcome: Any, names: tuple[str, ...], noun: str) -> None:
    """IllegalMoveError unless ``outcome`` is an :class:`Outcome` with one pose of 7 finite
    numbers per name of ``names`` and only those names fallen (``noun``: what the names are,
    ``items`` or ``pieces``)."""
    if not isinstance(outcome, Outcome):
        raise IllegalMoveError(f"{game}: a move's outcome must be an Outcome, got {outcome!r}")
    if len(outcome.poses) != len(names):
        raise IllegalMoveError(
            f"{game}: the outcome has {len(outcome.poses)} poses for {len(names)} {noun}"
        )
    for pose in outcome.poses:
        if len(pose) != 7 or not all(math.isfinite(v) for v in pose):
            raise IllegalMoveError(f"{game}: outcome pose {pose!r} is not 7 finite numbers")
    unknown = set(outcome.fell) - set(names)
    if unknown:
        raise IllegalMoveError(f"{game}: outcome names unknown {noun} {sorted(unknown)}")


def items_to_json(items: Iterable[Any]) -> list[dict[str, Any]]:
    """Placed pieces (``name``, ``rot``, ``intended``, ``pose``, ``seat``) as JSON objects."""
    return [
        {
            "name": it.name,
            "rot": it.rot,
            "intended": list(it.intended),
            "pose": list(it.pose),
            "seat": it.seat,
        }
        for it in items
    ]


def items_from_json(value: Any, where: str, item: type[T]) -> tuple[T, ...]:
    """Inverse of :func:`items_to_json`: ``item(name, rot, intended, pose, seat)`` for each
    object of the list ``value``; ``where`` (e.g. ``"kozo state: tower"``) names it in errors
    (StateFormatError, or KeyError/TypeError for a missing key or a list that is not one)."""
    if not isinstance(value, list):
        raise StateFormatError(f"{where} must be a list, got {value!r}")
    return tuple(
        item(
            str(t["name"]),  # type: ignore[call-arg]
            json_int(t["rot"], f"{where}[{i}].rot"),
            json_floats(t["intended"], f"{where}[{i}].intended", 3),
            json_floats(t["pose"], f"{where}[{i}].pose", 7),
            json_int(t["seat"], f"{where}[{i}].seat"),
        )
        for i, t in enumerate(value)
    )


class StackingBot(Bot[CS, M]):
    """A bot that asks the game's physics referee how likely a move is to bring pieces down.

    Subclasses set ``stream`` (the label of the seeds given to the referee), and may set
    ``default_candidates`` (moves judged per decision when ``budget`` is None),
    ``assess_replicas`` and ``assess_seconds`` (the referee's seeded ensemble). The referee is
    made on first use and closed with the bot.
    """

    stream: ClassVar[str]
    default_candidates: ClassVar[int] = 3
    assess_replicas: ClassVar[int] = 2
    assess_seconds: ClassVar[float] = 1.0

    def __init__(self, game: Game[CS, M, Any], seed: int, budget: int | None = None) -> None:
        super().__init__(game, seed, budget)
        self._judge: PhysicsTable[CS, M] | None = None

    @property
    def candidates(self) -> int:
        """How many moves are judged per decision (``budget``, at least 1)."""
        return max(1, self.budget or self.default_candidates)

    def table_risk(self, game: Game[CS, M, Any], state: CS, move: M) -> float | None:
        """The referee's judged fall probability of ``move`` (intended pose, no hand noise),
        or None when ``state``'s config has no referee (rules-only play)."""
        name = game.referee_name(state.config)
        if name is None:
            return None
        if self._judge is None:
            judge = make_referee(name, game, state.config, self.seed)
            if not isinstance(judge, PhysicsTable):
                judge.close()
                raise GameError(f"{game.name}: the referee {name!r} cannot assess a move's risk")
            self._judge = judge
        seed = Rng.from_seed(self.seed, self.stream, game.state_digest(state)).state
        return float(
            self._judge.assess(
                state,
                move,
                replicas=self.assess_replicas,
                seconds=self.assess_seconds,
                seed=seed,
            )
        )

    def __del__(self) -> None:
        if self._judge is not None:
            self._judge.close()


def rotation_lines(piece: str, shapes: Sequence[Sequence[Sequence[int]]]) -> str:
    """What ``r0``..``rN`` mean for ``piece`` at the terminal: each rotation's size (x by y by
    z cubes) and its cells as ``xyz`` digits from the minimum corner, e.g. ``2a: r0 2x1x1
    [000 100], r1 1x2x1 [000 010], r2 1x1x2 [000 001]``."""
    parts = []
    for k, cells in enumerate(shapes):
        size = "x".join(str(max(c[i] for c in cells) + 1) for i in range(3))
        digits = " ".join(f"{c[0]}{c[1]}{c[2]}" for c in cells)
        parts.append(f"r{k} {size} [{digits}]")
    return f"{piece}: " + ", ".join(parts)
