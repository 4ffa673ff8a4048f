"""The shipped solo challenge tables (``games/katamino/data/*.json``) and their checks.

A table is one JSON file per mode, written by ``python -m tablesim.games.katamino.generate_solo``:
``{"mode", "seed", "generator", "cards": [{"card", "title", "challenges": [challenge]}]}``; a
challenge is ``{"challenge", "title", "stages": [stage], "difficulty", "swaps"}`` and a stage
``{"name", "target", "pieces", "solution", "difficulty"}``. ``target`` is a size (``"5x6"``,
``"3x3x3"``) or a mask drawn as text (``#`` cell); ``pieces`` are ``katamino-duo`` piece names;
``solution`` is one arrangement ``[[name, [[x, y, z], ...]], ...]``. ``swaps`` lists piece swaps
``"OLD=NEW[+NEW2]"`` that keep every stage solvable.

:func:`check_solution` verifies an arrangement without the solver (each piece used once, its
cells a legal orientation of its shape, the cells covering the target exactly), so shipped
solutions are checked independently of the search that found them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tablesim.games.core import ConfigError
from tablesim.games.katamino import Target, legal_orientations
from tablesim.games.polycubes import Cell, Cells, Piece, get_catalogue

DATA_DIR = Path(__file__).with_name("data")
CATALOGUE = "katamino-duo"
SOLO_MODES: tuple[str, ...] = (
    "solo", "solo3d", "construction", "puzzle3d", "traditional", "picture",
)  # fmt: skip


def piece(name: str) -> Piece:
    """A ``katamino-duo`` piece by name (ConfigError listing the names if unknown)."""
    cat = get_catalogue(CATALOGUE)
    for p in cat.pieces:
        if p.name == name:
            return p
    names = ", ".join(p.name for p in cat.pieces)
    raise ConfigError(f"katamino: no piece {name!r} (pieces: {names})")


def target_of(spec: str) -> Target:
    """A stage target from its table form: a size such as ``5x6`` / ``3x3x3`` or a text mask."""
    if "#" in spec:
        return Target.from_text(spec, dims=2)
    return Target.parse(spec)


@cache
def orientations_of(name: str, dims: int, straight: bool) -> tuple[Cells, ...]:
    """Legal orientations of piece ``name`` on a ``dims`` target (cached)."""
    return legal_orientations(piece(name).cells, dims, straight)


@dataclass(frozen=True)
class Stage:
    """One step of a challenge: fill ``target`` with exactly ``pieces``."""

    name: str
    target_spec: str
    pieces: tuple[str, ...]
    solution: tuple[tuple[str, Cells], ...]
    difficulty: dict[str, Any] | None

    @property
    def target(self) -> Target:
        """The target as a solver ``Target``."""
        return _target(self.target_spec)


@cache
def _target(spec: str) -> Target:
    return target_of(spec)


@dataclass(frozen=True)
class Challenge:
    """A shipped challenge: its stages in order, its measured difficulty and allowed swaps."""

    mode: str
    card: int
    number: int
    title: str
    stages: tuple[Stage, ...]
    difficulty: dict[str, Any]
    swaps: tuple[str, ...]


def json_cell(value: Any) -> Cell:
    """A cell written in JSON as ``[x, y, z]``, as an integer triple (ValueError or TypeError
    for anything else)."""
    x, y, z = value
    return (int(x), int(y), int(z))


def _stage(obj: dict[str, Any]) -> Stage:
    sol = tuple((str(n), tuple(json_cell(c) for c in cells)) for n, cells in obj["solution"])
    return Stage(str(obj["name"]), str(obj["target"]), tuple(obj["pieces"]), sol,
                 obj.get("difficulty"))  # fmt: skip


@cache
def load_table(mode: str) -> dict[str, Any]:
    """The raw JSON table of ``mode``."""
    if mode not in SOLO_MODES:
        raise ConfigError(f"katamino: {mode!r} is not a solo mode ({', '.join(SOLO_MODES)})")
    path = DATA_DIR / f"{mode}.json"
    return json.loads(path.read_text(encoding="utf-8"))


@cache
def challenges(mode: str) -> tuple[Challenge, ...]:
    """Every challenge of ``mode``, card by card, in table order."""
    out = []
    for card in load_table(mode)["cards"]:
        for ch in card["challenges"]:
            out.append(
                Challenge(
                    mode, int(card["card"]), int(ch["challenge"]), str(ch.get("title", "")),
                    tuple(_stage(s) for s in ch["stages"]), dict(ch.get("difficulty", {})),
                    tuple(ch.get("swaps", ())),
                )
            )  # fmt: skip
    return tuple(out)


def card_titles(mode: str) -> dict[int, str]:
    """Card number -> title for ``mode``."""
    return {int(c["card"]): str(c.get("title", "")) for c in load_table(mode)["cards"]}


def get_challenge(mode: str, card: int, number: int) -> Challenge:
    """One challenge (ConfigError naming the cards and challenge numbers that exist)."""
    chs = challenges(mode)
    cards = sorted({c.card for c in chs})
    if card not in cards:
        raise ConfigError(
            f"katamino: option --card: mode {mode!r} has cards {cards[0]}..{cards[-1]}, got {card}"
        )
    nums = [c.number for c in chs if c.card == card]
    for c in chs:
        if c.card == card and c.number == number:
            return c
    raise ConfigError(
        f"katamino: option --challenge: card {card} of mode {mode!r} has challenges "
        f"{min(nums)}..{max(nums)}, got {number}"
    )


def check_solution(target: Target, pieces: tuple[str, ...],
                   solution: tuple[tuple[str, Cells], ...], *,
                   straight_horizontal: bool = False) -> list[str]:  # fmt: skip
    """Problems with ``solution`` as a cover of ``target`` by ``pieces`` (empty: it is one).

    Independent of the search: piece names must be exactly ``pieces``; each piece's cells,
    moved to the origin, must be one of its legal orientations on a ``target.dims`` target;
    the pieces must not overlap and must cover every target cell.
    """
    errors: list[str] = []
    if sorted(n for n, _ in solution) != sorted(pieces):
        errors.append(f"pieces {sorted(n for n, _ in solution)} != {sorted(pieces)}")
    seen: set[tuple[int, int, int]] = set()
    for name, cells in solution:
        cs = [tuple(c) for c in cells]
        mins = [min(c[k] for c in cs) for k in range(3)]
        norm = tuple(sorted(tuple(c[k] - mins[k] for k in range(3)) for c in cs))
        ors = orientations_of(name, target.dims, straight_horizontal)
        if norm not in ors:
            errors.append(f"{name}: cells {cs} are not a legal orientation")
        for c in cs:
            if c in seen:
                errors.append(f"{name}: cell {c} covered twice")
            if c not in target.cell_set:
                errors.append(f"{name}: cell {c} is off the target")
            seen.add(c)  # type: ignore[arg-type]
    missing = target.cell_set - seen
    if missing:
        errors.append(f"{len(missing)} target cells uncovered, e.g. {sorted(missing)[0]}")
    return errors


def listing(mode: str, card: int | None = None) -> str:
    """The shipped table of ``mode`` as text: per challenge its stages (target, pieces) and
    difficulty (the printed cards we do not have)."""
    titles = card_titles(mode)
    lines = []
    for ch in challenges(mode):
        if card is not None and ch.card != card:
            continue
        d = ch.difficulty
        score = "-" if d.get("score") is None else f"{d['score']:.2f}"
        head = f"{mode} card {ch.card} ({titles.get(ch.card, '')}) challenge {ch.number}"
        lines.append(f"{head}{' ' + ch.title if ch.title else ''}: {d.get('level')} ({score})")
        prev: list[str] = []
        for st in ch.stages:
            added = list(st.pieces)
            for n in prev:
                if n in added:
                    added.remove(n)
            what = " ".join(st.pieces) if not prev else "+ " + " ".join(added)
            sd = st.difficulty
            extra = "" if sd is None else f" [{sd['solutions']} solutions, {sd['level']}]"
            lines.append(f"  {st.name:<14} {st.target.describe():<18} {what}{extra}")
            prev = list(st.pieces)
        if ch.swaps:
            lines.append("  swaps: " + ", ".join(ch.swaps))
    return "\n".join(lines)
