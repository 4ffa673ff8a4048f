"""Generate the Katamino Duo duel cards: ``python -m tablesim.games.katamino.generate_duel``.

Seeded and reproducible (same seed, same file byte for byte). For each colour it draws random
card sides (two disjoint halves of the right sizes from the 18 pieces, at most the level's
number of pentaminos), keeps those whose every reachable game is solvable
(:func:`tablesim.games.katamino.duel_cards.failures`), measures each kept side's difficulty
(:func:`~games.katamino.duel_cards.card_difficulty`) and picks:

- beginner: the easiest sides of the Penta 3, 4-duel pool; easy: the hardest sides of the
  Penta 3, 3-duel pool;
- normal, difficult, expert: one Penta 4 pool sorted by difficulty, cut in three bands (lowest
  to highest); difficult and expert sides must also offer each seat at least one safe handicap
  replacement;
- child-adult: Penta 3 (seat 0, the child) against Penta 4 (seat 1), 3 duels; the halves are
  not interchangeable, so the sides are picked to be fair at the game's default speeds: half
  of them won by the child between two smart bots, half by the adult, and the child's exact
  chance between two random bots near one half (:func:`pick_fair`,
  ``tablesim.games.katamino.duel_fairness``). Equal-start sides need no such pick: a game draws them
  either way round (``duel_cards.deck``);
- 3D cards: the minimino splits for which every draft builds the 2x3x5 (each split's failing
  drafts are counted and written to ``minimino_choices``).

It fails (exit 1) when the mean difficulty does not rise from beginner to expert.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from functools import cache
from pathlib import Path

from tablesim.games.katamino.duel_cards import (
    CARDS3D,
    CARDS_VERSION,
    DATA_FILE,
    DUEL_LEVELS,
    LEVELS,
    MINIS,
    PENTAS,
    TETRAS,
    LevelSpec,
    canonical,
    card_difficulty,
    draft_failures,
    failures,
    piece,
    safe_replacements,
    size_of,
)
from tablesim.games.katamino.duel_fairness import halves_figures
from tablesim.games.katamino.duel_race import balanced, default_speeds, side_seconds
from tablesim.games.outputs import atomic_write
from tablesim.games.rng import Rng

DEFAULT_SEED = 6
ALL = (*PENTAS, *TETRAS, *MINIS)
POOL = {"beginner": 14, "easy": 16, "penta4": 64, "child-adult": 100}
"""Candidate sides kept per pool before picking (a side is kept when every game is solvable
and its halves are balanced)."""
MAX_DRAWS = 5000
"""Draws per pool before giving up (exit 1)."""
CHILD_ADULT_SPEEDS = ("easy", "normal")
"""The speeds the two-coloured cards' halves are kept within 1.5x at: the child one level
slower. The pick among those sides (:func:`pick_fair`) is made at the game's default speeds,
so changing those defaults means regenerating the cards (``--check`` fails until then)."""


@cache
def halves_of(size: int) -> tuple[tuple[str, ...], ...]:
    """Every set of pieces of ``size`` cubes (one per shape multiset), in a fixed order."""
    out: dict[tuple[str, ...], tuple[str, ...]] = {}
    for k in range(1, 9):
        for combo in itertools.combinations(ALL, k):
            if size_of(combo) == size:
                out.setdefault(canonical(combo), combo)
    return tuple(out[k] for k in sorted(out))


def _pentas(names) -> int:
    return sum(1 for n in names if n in PENTAS)


def draw_side(spec: LevelSpec, rng: Rng) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], Rng]:
    """Two disjoint random halves for ``spec`` (seat 0 first)."""
    while True:
        first = [h for h in halves_of(5 * spec.start[0]) if _pentas(h) <= spec.max_pentas]
        h0, rng = rng.choice(first)
        used = set(h0)
        second = [
            h for h in halves_of(5 * spec.start[1])
            if not used & set(h) and _pentas(h0) + _pentas(h) <= spec.max_pentas
        ]  # fmt: skip
        if second:
            h1, rng = rng.choice(second)
            return (h0, h1), rng


def speeds_of(spec: LevelSpec) -> tuple[str, str]:
    """The seats' speeds a side of this colour is balanced at: equal speeds on the duel colours,
    :data:`CHILD_ADULT_SPEEDS` on the two-coloured cards."""
    if spec.name == "child-adult":
        return CHILD_ADULT_SPEEDS
    return (spec.name, spec.name) if spec.name in DUEL_LEVELS else ("normal", "normal")


def pool(spec: LevelSpec, n: int, rng: Rng, *, log=None,
         level: str | None = None) -> tuple[list[tuple[float, tuple, dict]], Rng]:  # fmt: skip
    """``n`` distinct sides, each solvable in every reachable game and balanced (its halves'
    expected games within ``MAX_RATIO`` on both clocks, at the speeds of ``level``'s cards),
    with their difficulty and seconds, sorted easiest first."""
    speeds = speeds_of(LEVELS[level or spec.name])
    seen: set = set()
    out: list[tuple[float, tuple, dict]] = []
    tries = unbalanced = 0
    while len(out) < n:
        if tries >= MAX_DRAWS:
            raise SystemExit(f"generate_duel: only {len(out)} balanced {spec.name} sides in "
                             f"{tries} draws (need {n})")  # fmt: skip
        side, rng = draw_side(spec, rng)
        tries += 1
        key = (canonical(side[0]), canonical(side[1]))
        if key in seen:
            continue
        seen.add(key)
        if failures(side, spec):
            continue
        secs = side_seconds(side, spec.start, spec.duels, speeds)
        if not balanced(secs):
            unbalanced += 1
            continue
        out.append((round(card_difficulty(side, spec), 4), side, secs))
    if log:
        log(f"{spec.name}: {n} solvable balanced sides from {tries} draws "
            f"({unbalanced} solvable ones unbalanced)")  # fmt: skip
    return sorted(out), rng


def orient(k: int, side: tuple, secs: dict) -> tuple[tuple, dict]:
    """Equal-start sides alternate which seat holds the faster half on the level clock (seat 0
    on even entries), so that a side named by ``--card`` favours neither seat over a colour;
    a seeded game draws each side both ways round anyway (``duel_cards.deck``)."""
    a, b = secs["level"]
    if (a <= b) == (k % 2 == 0):
        return side, secs
    return (side[1], side[0]), {m: (t[1], t[0]) for m, t in secs.items()}


def pick_fair(cands: list[tuple[float, tuple, dict]], n: int, speeds: tuple[str, str],
              log=None) -> list:  # fmt: skip
    """``n`` of the two-coloured candidates (child and adult halves are not interchangeable,
    so fairness must come from the sides chosen): at the game's default speeds, half of them
    won by the child between two smart bots and half by the adult (their games are
    deterministic: ``tablesim.games.katamino.duel_fairness``), and the child's exact chance between
    two random bots as near one half as the candidates allow: each group's sides nearest an
    even chance first, then the best single swaps inside a group while they bring the mean
    nearer 1/2."""
    groups: dict[int, list] = {0: [], 1: []}
    for c in cands:
        f = halves_figures("child-adult", "child-adult-0A", c[1], speeds)
        if f.smart in groups:
            groups[f.smart].append((abs(f.random - 0.5), f.random, c))
    if min(len(g) for g in groups.values()) < n // 2:
        raise SystemExit(f"generate_duel: child-adult candidates won by the child / the adult "
                         f"between smart bots: {len(groups[0])} / {len(groups[1])} (need "
                         f"{n // 2} each); raise POOL")  # fmt: skip
    chosen = {s: sorted(g, key=lambda x: (x[0], x[2][1]))[: n // 2] for s, g in groups.items()}
    rest = {s: [x for x in g if x not in chosen[s]] for s, g in groups.items()}

    def total() -> float:
        return sum(x[1] for g in chosen.values() for x in g)

    while True:  # the single swap inside a group that brings the sum nearest n / 2
        now, best = abs(total() - n / 2), None
        for s in (0, 1):
            for i, x in enumerate(chosen[s]):
                for y in rest[s]:
                    trial = abs(total() - x[1] + y[1] - n / 2)
                    if trial < now - 1e-9:
                        now, best = trial, (s, i, y)
        if best is None:
            break
        s, i, y = best
        rest[s].remove(y)
        rest[s].append(chosen[s][i])
        chosen[s][i] = y
    out = [x[2] for s in (0, 1) for x in chosen[s]]
    if log:
        mean = total() / n
        log(f"child-adult: {len(groups[0])} / {len(groups[1])} candidates won by the child / "
            f"the adult (smart bots); picked {n // 2} + {n // 2}, child's random-bot chance "
            f"{mean:.3f}")  # fmt: skip
    return sorted(out, key=lambda c: (c[0], c[1]))


def _entry(level: str, k: int, diff: float, side, secs: dict, handicap=((), ())) -> dict:
    card, face = divmod(k, 2)
    return {
        "id": f"{level}-{card + 1}{'AB'[face]}", "level": level, "card": card + 1,
        "side": "AB"[face], "halves": [list(side[0]), list(side[1])],
        "difficulty": diff, "handicap": [list(handicap[0]), list(handicap[1])],
        "seconds": {m: list(t) for m, t in secs.items()},
    }  # fmt: skip


def minimino_choices() -> list[dict]:
    """Every split of the miniminos between the first giver (7 cubes) and the other (3 cubes),
    one per shape multiset, with the number of drafts that cannot build the 2x3x5."""
    out = []
    seen = set()
    for k2 in range(1, 3):
        for second in itertools.combinations(MINIS, k2):
            if size_of(second) != 3:
                continue
            rest = [m for m in MINIS if m not in second]
            for k1 in range(1, 5):
                for first in itertools.combinations(rest, k1):
                    key = (canonical(first), canonical(second))
                    if size_of(first) != 7 or key in seen:
                        continue
                    seen.add(key)
                    f1, f2 = draft_failures(first, True), draft_failures(second, False)
                    out.append({"first": list(first), "second": list(second),
                                "failing_drafts": [len(f1), len(f2)],
                                "example_failure": list((f1 or f2 or [()])[0])})  # fmt: skip
    return out


def generate(seed: int = DEFAULT_SEED, log=None) -> dict:
    """The whole card file as JSON (deterministic in ``seed``)."""
    rng = Rng.from_seed(seed, "katamino-duel-cards")
    cards: list[dict] = []
    b, rng = pool(LEVELS["beginner"], POOL["beginner"], rng, log=log)
    for k, (d, side, secs) in enumerate(b[: 2 * LEVELS["beginner"].cards]):
        cards.append(_entry("beginner", k, d, *orient(k, side, secs)))
    e, rng = pool(LEVELS["easy"], POOL["easy"], rng, log=log)
    for k, (d, side, secs) in enumerate(e[-2 * LEVELS["easy"].cards :]):
        cards.append(_entry("easy", k, d, *orient(k, side, secs)))
    p4, rng = pool(LEVELS["normal"], POOL["penta4"], rng, log=log)
    third = len(p4) // 3
    bands = {"normal": p4[:third], "difficult": p4[third : 2 * third], "expert": p4[2 * third :]}
    for level in ("normal", "difficult", "expert"):
        spec, need = LEVELS[level], 2 * LEVELS[level].cards
        band = bands[level] if level == "normal" else bands[level][::-1]
        k = 0
        for d, side0, secs0 in band:
            if k == need:
                break
            if level != "normal":  # balanced at equal speed of this colour, not only normal's
                secs0 = side_seconds(side0, spec.start, spec.duels, (level, level))
                if not balanced(secs0):
                    continue
            side, secs = orient(k, side0, secs0)
            hc: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
            if level != "normal":
                hc = (
                    tuple(safe_replacements(side, spec, 0)),
                    tuple(safe_replacements(side, spec, 1)),
                )
                if not hc[0] or not hc[1]:
                    continue
            cards.append(_entry(level, k, d, side, secs, hc))
            k += 1
        if k < need:
            raise SystemExit(f"generate_duel: only {k} {level} sides (need {need}); raise POOL")
    ca, rng = pool(LEVELS["child-adult"], POOL["child-adult"], rng, log=log)
    spec = LEVELS["child-adult"]
    picked = pick_fair(ca, 2 * spec.cards, default_speeds("child-adult", "normal"), log)
    for k, (d, side, secs) in enumerate(picked):
        cards.append(_entry("child-adult", k, d, side, secs))
    choices = minimino_choices()
    good = [c for c in choices if c["failing_drafts"] == [0, 0]]
    if not good:
        raise SystemExit("generate_duel: no minimino split builds the 2x3x5 after every draft")
    cards3d = []
    for card in range(CARDS3D):
        for face in "AB":
            challenges = []
            for _ in range(3):
                c, rng = rng.choice(good)
                challenges.append([c["first"], c["second"]])
            cards3d.append({"id": f"3d-{card + 1}{face}", "card": card + 1, "side": face,
                            "challenges": challenges})  # fmt: skip
    means = {lv: mean_difficulty(cards, lv) for lv in (*DUEL_LEVELS, "child-adult")}
    if log:
        log("mean difficulty: " + ", ".join(f"{k} {v:.3f}" for k, v in means.items()))
    rising = [means[lv] for lv in DUEL_LEVELS]
    if rising != sorted(rising) or len(set(rising)) != len(rising):
        raise SystemExit(f"generate_duel: mean difficulty does not rise: {means}")
    return {
        "generator": "python -m tablesim.games.katamino.generate_duel", "seed": seed,
        "version": CARDS_VERSION,
        "levels": {k: {"colour": v.colour, "cards": v.cards, "start": list(v.start),
                       "duels": v.duels} for k, v in LEVELS.items()},
        "mean_difficulty": {k: round(v, 4) for k, v in means.items()},
        "cards": cards, "cards3d": cards3d, "minimino_choices": choices,
    }  # fmt: skip


def mean_difficulty(cards: list[dict], level: str) -> float:
    """Mean card difficulty of one level."""
    ds = [c["difficulty"] for c in cards if c["level"] == level]
    return sum(ds) / len(ds)


def dumps(data: dict) -> str:
    """The file text: one card per line, stable."""
    lines = ["{"]
    keys = list(data)
    for i, key in enumerate(keys):
        end = "," if i < len(keys) - 1 else ""
        val = data[key]
        if isinstance(val, list):
            inner = ",\n".join("    " + json.dumps(v, sort_keys=True) for v in val)
            lines.append(f'  "{key}": [\n{inner}\n  ]{end}')
        else:
            lines.append(f'  "{key}": {json.dumps(val, sort_keys=True)}{end}')
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command line: write (or ``--check``) the card file."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--out", default=str(DATA_FILE))
    ap.add_argument("--check", action="store_true", help="compare with the file, write nothing")
    args = ap.parse_args(argv)
    text = dumps(generate(args.seed, log=lambda s: print(s, file=sys.stderr)))
    path = Path(args.out)
    if args.check:
        same = path.exists() and path.read_text() == text
        print("up to date" if same else f"{path} differs from the generator's output")
        return 0 if same else 1
    atomic_write(path, text, force=True)
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["generate", "main", "piece"]
