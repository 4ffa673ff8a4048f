"""Katamino Duo duel cards: the levels, the shipped cards and the checks that every reachable
game on a card is solvable.

The printed cards are pictures we do not have; ``python -m tablesim.games.katamino.generate_duel``
generates equivalents (seeded) into ``games/katamino/data/duel_cards.json``:
``{"generator", "seed", "levels", "cards": [card], "cards3d": [card3d], "minimino_choices"}``.
A ``card`` is one side of a double-sided card: ``{"id": "normal-3B", "level", "card", "side",
"halves": [[names], [names]], "difficulty", "handicap": [[swap, ...], [swap, ...]], "seconds":
{clock: [seat 0, seat 1]}}``. Half 0
is seat 0's, half 1 seat 1's. ``handicap[s]`` lists the replacements ``"OLD=NEW1+NEW2"`` seat s
may make when it is the weaker player (red and black cards only). A ``card3d`` is
``{"id": "3d-2A", "card", "side", "challenges": [[minis_first, minis_second], x3]}``: the
miniminos of the player who gave first in the draft (3 pentaminos + 2 tetraminos, 7 cubes of
miniminos) and of the other (3 + 3, 3 cubes).

Reachability (docs/rules/katamino-duo.md, "Duels"): between duels each player receives one
pentamino from those left on the table, so after k gifts a seat holds its half plus any k of the
pentaminos that are not on the card (the other seat can always take k others: a card leaves at
least 2 x (duels - 1) pentaminos). The tie-break swaps the last gifts: again a set of
pentaminos from the table. So a half is playable in every reachable game when its pieces plus
*every* set of k table pentaminos, k = 0 .. duels - 1, fill the 5 x (start + k) board.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from tablesim.games.core import ConfigError
from tablesim.games.katamino import Difficulty, Target, difficulty, is_solvable
from tablesim.games.polycubes import Piece, get_catalogue

DATA_FILE = Path(__file__).with_name("data") / "duel_cards.json"
CATALOGUE = "katamino-duo"
PENTAS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8")
TETRAS: tuple[str, ...] = ("A", "B", "C", "D", "E")
MINIS: tuple[str, ...] = ("V1", "V2", "W1", "W2", "X", "Y")
BOX3D = "2x3x5"
CARDS_VERSION = 3
"""Version of the shipped card file (``version`` in it; a duel log's config names the version
it was played on). 2: halves balanced on both clocks; 3: equal-start sides drawn either way
round, two-coloured sides picked so that equal bots win half the games from either seat
(docs/rules/katamino-duo.md)."""


@dataclass(frozen=True)
class LevelSpec:
    """A card colour: ``cards`` double-sided cards; seat s starts on Penta ``start[s]`` and plays
    ``duels`` duels (Penta start .. start + duels - 1); at most ``max_pentas`` pentaminos on a
    card side (the rest are given between duels)."""

    name: str
    colour: str
    cards: int
    start: tuple[int, int]
    duels: int

    @property
    def max_pentas(self) -> int:
        """Pentaminos a card side may use: 7 minus the 2 given before each later duel."""
        return len(PENTAS) - 2 * (self.duels - 1)


LEVELS: dict[str, LevelSpec] = {
    "beginner": LevelSpec("beginner", "yellow", 3, (3, 3), 4),
    "easy": LevelSpec("easy", "green", 4, (3, 3), 3),
    "normal": LevelSpec("normal", "blue", 6, (4, 4), 3),
    "difficult": LevelSpec("difficult", "red", 6, (4, 4), 3),
    "expert": LevelSpec("expert", "black", 8, (4, 4), 3),
    "child-adult": LevelSpec("child-adult", "yellow/purple", 9, (3, 4), 3),
}
"""The rulebook's card colours (child-adult: the 9 two-coloured cards; child = seat 0)."""

DUEL_LEVELS = ("beginner", "easy", "normal", "difficult", "expert")
"""Levels of the plain duel, easiest first."""
HANDICAP_LEVELS = ("difficult", "expert")
"""Levels whose cards serve the duels at different levels (red and black)."""
CARDS3D = 4
"""Double-sided 3D duel cards, three challenges a side."""


@cache
def piece(name: str) -> Piece:
    """A ``katamino-duo`` piece by name (ConfigError listing the names if unknown)."""
    for p in get_catalogue(CATALOGUE).pieces:
        if p.name == name:
            return p
    names = ", ".join(p.name for p in get_catalogue(CATALOGUE).pieces)
    raise ConfigError(f"katamino: no piece {name!r} (pieces: {names})")


def size_of(names: Iterable[str]) -> int:
    """Cubes in a set of pieces."""
    return sum(piece(n).size for n in names)


def canonical(names: Iterable[str]) -> tuple[str, ...]:
    """A piece multiset as a sorted tuple in which identical copies (V1/V2, W1/W2) are named by
    their first copy, so two equal shapes give one key."""
    first = {"V2": "V1", "W2": "W1"}
    return tuple(sorted(first.get(n, n) for n in names))


# ------------------------------------------------------------------------------ the puzzles


@cache
def _solvable(target: str, key: tuple[str, ...]) -> bool:
    return is_solvable(target, [piece(n) for n in key])


def solvable(target: str, names: Iterable[str]) -> bool:
    """Can ``names`` fill ``target`` (``"5x4"``, ``"2x3x5"``)? Cached by piece shapes."""
    key = canonical(names)
    if size_of(key) != Target.parse(target).size:
        return False
    return _solvable(target, key)


@cache
def _measure(target: str, key: tuple[str, ...]) -> Difficulty:
    return difficulty(target, [piece(n) for n in key])


def measure(target: str, names: Iterable[str]) -> Difficulty:
    """The solver's difficulty figures of a puzzle (score, nodes, nodes to the first
    solution); cached by piece shapes."""
    return _measure(target, canonical(names))


def score(target: str, names: Iterable[str]) -> float | None:
    """The solver's difficulty score of a puzzle (None when unsolvable); cached."""
    return measure(target, names).score


def board(size: int) -> str:
    """The Penta ``size`` board as a target spec: 5 rows of ``size`` columns."""
    return f"5x{size}"


def reachable_puzzles(
    half: Sequence[str], start: int, duels: int, table: Sequence[str]
) -> list[tuple[str, tuple[str, ...]]]:
    """Every puzzle a seat can face: its half plus any k table pentaminos on Penta start + k."""
    out = []
    for k in range(duels):
        for extra in itertools.combinations(sorted(table), k):
            out.append((board(start + k), (*half, *extra)))
    return out


def table_pentas(halves: Sequence[Sequence[str]], back: Iterable[str] = ()) -> tuple[str, ...]:
    """Pentaminos left on the table by two halves (plus pieces put back by a replacement)."""
    used = {n for h in halves for n in h}
    return tuple(sorted({p for p in PENTAS if p not in used} | {p for p in back if p in PENTAS}))


def failures(halves: Sequence[Sequence[str]], spec: LevelSpec,
             back: Iterable[str] = ()) -> list[tuple[int, str, tuple[str, ...]]]:  # fmt: skip
    """The unsolvable reachable puzzles of a card side: ``(seat, board, pieces)`` each."""
    table = table_pentas(halves, back)
    out = []
    if len(table) < 2 * (spec.duels - 1):
        return [(-1, "", tuple(table))]
    for seat, half in enumerate(halves):
        for target, names in reachable_puzzles(half, spec.start[seat], spec.duels, table):
            if not solvable(target, names):
                out.append((seat, target, names))
    return out


def card_difficulty(halves: Sequence[Sequence[str]], spec: LevelSpec) -> float:
    """Mean difficulty score over both seats, each duel weighted equally: per duel, the mean
    over every reachable set of gifts."""
    table = table_pentas(halves)
    per_duel = []
    for seat, half in enumerate(halves):
        for k in range(spec.duels):
            scores = [
                score(board(spec.start[seat] + k), (*half, *extra))
                for extra in itertools.combinations(table, k)
            ]
            per_duel.append(sum(s for s in scores if s is not None) / len(scores))
    return sum(per_duel) / len(per_duel)


# ------------------------------------------------------------------------------ handicaps


def split_options(old: str) -> list[tuple[str, str]]:
    """The two-piece equivalents of piece ``old`` (same total size, both smaller), by shape:
    5 = 4 + 1 = 3 + 2; 4 = 3 + 1 = 2 + 2; 3 = 2 + 1; 2 = 1 + 1; a monomino has none."""
    names = (*PENTAS, *TETRAS, *MINIS)
    out = []
    for a, b in itertools.combinations(names, 2):
        if piece(a).size + piece(b).size == piece(old).size and a != old and b != old:
            out.append((a, b))
    return out


def parse_swap(text: str) -> tuple[str, tuple[str, str]]:
    """``"A=V1+X"`` -> ``("A", ("V1", "X"))`` (ConfigError on another form)."""
    old, sep, new = text.replace(" ", "").upper().partition("=")
    parts = tuple(new.split("+"))
    if not sep or len(parts) != 2 or not old or not all(parts):
        raise ConfigError(f"katamino: replacement {text!r}: write OLD=NEW1+NEW2, e.g. A=V1+X")
    return old, (parts[0], parts[1])


def apply_replacement(halves: Sequence[Sequence[str]], seat: int,
                      swap: str) -> tuple[tuple[str, ...], tuple[str, ...]]:  # fmt: skip
    """The halves after seat ``seat`` replaced one piece by two equivalent table pieces
    (ConfigError saying why when the replacement is not one the rules allow)."""
    old, new = parse_swap(swap)
    half = list(halves[seat])
    if old not in half:
        raise ConfigError(f"katamino: {old} is not one of your pieces ({', '.join(half)})")
    used = {n for h in halves for n in h}
    taken = [n for n in new if n in used]
    if taken or new[0] == new[1]:
        raise ConfigError(
            f"katamino: replacement {swap}: {taken[0] if taken else new[0]} is not left on "
            "the table (take two different pieces no half uses)"
        )
    allowed = split_options(old)
    if tuple(sorted(new)) not in {tuple(sorted(x)) for x in allowed}:
        sizes = " or ".join(sorted({f"{piece(a).size}+{piece(b).size}" for a, b in allowed}))
        raise ConfigError(
            f"katamino: replacement {swap}: {old} has {piece(old).size} cubes; two pieces of "
            f"{sizes or 'no smaller'} cubes are equivalent"
        )
    half.remove(old)
    half.extend(new)
    out = [tuple(h) for h in halves]
    out[seat] = tuple(half)
    return out[0], out[1]


def safe_replacements(halves: Sequence[Sequence[str]], spec: LevelSpec, seat: int) -> list[str]:
    """Replacements for ``seat`` after which every reachable game stays solvable (both seats:
    a replaced pentamino goes back to the table and may be given)."""
    used = {n for h in halves for n in h}
    out = []
    for old in sorted(set(halves[seat])):
        seen = set()
        for a, b in split_options(old):
            if a in used or b in used or canonical((a, b)) in seen:
                continue
            seen.add(canonical((a, b)))
            swap = f"{old}={a}+{b}"
            new = apply_replacement(halves, seat, swap)
            if not failures(new, spec, back=(old,)):
                out.append(swap)
    return out


# ------------------------------------------------------------------------------ 3D duels


def draft_sets(first: bool, minis: Sequence[str]) -> Iterable[tuple[str, ...]]:
    """Every piece set a seat can end a 3D draft with: 3 pentaminos and 2 tetraminos (the
    first giver) or 3 and 3 (the other), plus the card's miniminos."""
    for ps in itertools.combinations(PENTAS, 3):
        for ts in itertools.combinations(TETRAS, 2 if first else 3):
            yield (*ps, *ts, *minis)


def draft_failures(minis: Sequence[str], first: bool) -> list[tuple[str, ...]]:
    """The drafts after which the 2x3x5 cannot be built with these miniminos."""
    return [s for s in draft_sets(first, minis) if not solvable(BOX3D, s)]


# ------------------------------------------------------------------------------ the data


@dataclass(frozen=True)
class Card:
    """One side of a duel card (see the module docstring)."""

    id: str
    level: str
    card: int
    side: str
    halves: tuple[tuple[str, ...], tuple[str, ...]]
    difficulty: float
    handicap: tuple[tuple[str, ...], tuple[str, ...]]
    seconds: tuple[tuple[str, tuple[float, float]], ...] = ()
    """Per clock (``level``, ``search``) each seat's expected game seconds at the speeds the
    side was balanced at (``tablesim.games.katamino.duel_race.side_seconds``)."""

    @property
    def spec(self) -> LevelSpec:
        """The card's level."""
        return LEVELS[self.level]


@dataclass(frozen=True)
class Card3D:
    """One side of a 3D duel card: three challenges, each ``(minis_first, minis_second)``."""

    id: str
    card: int
    side: str
    challenges: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]


@cache
def load(path: str | None = None) -> dict[str, Any]:
    """The shipped card file as JSON."""
    return json.loads(Path(path or DATA_FILE).read_text())


@cache
def cards(level: str | None = None) -> tuple[Card, ...]:
    """Every shipped duel card side, or those of one level."""
    out = []
    for c in load()["cards"]:
        halves = tuple(tuple(h) for h in c["halves"])
        hc = tuple(tuple(h) for h in c.get("handicap", [[], []]))
        secs = tuple(
            (m, (float(t[0]), float(t[1]))) for m, t in sorted(c.get("seconds", {}).items())
        )
        out.append(Card(c["id"], c["level"], c["card"], c["side"], halves,  # type: ignore[arg-type]
                        c["difficulty"], hc, secs))  # type: ignore[arg-type]  # fmt: skip
    return tuple(c for c in out if level is None or c.level == level)


@cache
def cards3d() -> tuple[Card3D, ...]:
    """Every shipped 3D duel card side."""
    return tuple(
        Card3D(
            c["id"], c["card"], c["side"], tuple((tuple(a), tuple(b)) for a, b in c["challenges"])
        )  # fmt: skip
        for c in load()["cards3d"]
    )


TURNED = "~"
"""Suffix of a card side lying the other way round between the players (seat 0 plays the
printed half 2): ``difficult-1A~``."""


def turned(card: Card) -> Card:
    """The side as it lies the other way round: halves, handicap lists and seconds swapped."""
    return replace(
        card,
        id=card.id + TURNED,
        halves=(card.halves[1], card.halves[0]),
        handicap=(card.handicap[1], card.handicap[0]),
        seconds=tuple((m, (t[1], t[0])) for m, t in card.seconds),
    )


def deck(level: str) -> tuple[Card, ...]:
    """The sides a game of ``level`` draws from: on colours whose halves start on the same
    Penta, each side both ways round (> "either side of the card does not matter. One half of
    the card indicates the pieces player 1 needs to use, and the other half the pieces for
    player 2": who is player 1 is where the players sit), so that no seat holds a half more
    often than the other; the two-coloured cards one way only (the child's half is yellow)."""
    sides = cards(level)
    if LEVELS[level].start[0] != LEVELS[level].start[1]:
        return sides
    return tuple(c for side in sides for c in (side, turned(side)))


def turned3d(card: Card3D) -> Card3D:
    """A 3D side lying the other way round: the same challenges, seat 1 holding the printed
    first half (challenge 1, not 1'), so seat 1 gives first in the first match."""
    return replace(card, id=card.id + TURNED)


def deck3d() -> tuple[Card3D, ...]:
    """The 3D sides a game draws from, each both ways round: which seat holds the printed
    first half (and so gives first in match 1) is where the players sit, so no seat holds it
    more often than the other (every shipped 3D side has the same challenges; without this
    seat 0 always gave first, and the first giver loses between equal bots)."""
    return tuple(c for side in cards3d() for c in (side, turned3d(side)))


def get_card(card_id: str) -> Card | Card3D:
    """A card side by id, ``~`` at the end for a side turned round (ConfigError listing the ids
    of that level if unknown)."""
    every: tuple[Card | Card3D, ...] = (*cards(), *cards3d())
    base = card_id[: -len(TURNED)] if card_id.endswith(TURNED) else card_id
    for c in every:
        if c.id == base:
            if base == card_id:
                return c
            if isinstance(c, Card) and c.spec.start[0] == c.spec.start[1]:
                return turned(c)
            if isinstance(c, Card3D):
                return turned3d(c)
    level = card_id.rsplit("-", 1)[0]
    ids = [c.id for c in cards(level)] if level in LEVELS else [c.id for c in cards3d()]
    raise ConfigError(
        f"katamino: option --card {card_id!r} is not a card (e.g. {', '.join(ids[:6])}, ...)"
    )
