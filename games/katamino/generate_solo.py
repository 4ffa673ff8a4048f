"""Regenerate the solo challenge tables: ``python -m tablesim.games.katamino.generate_solo [--seed S]
[--only MODE ...] [--out DIR]``.

The printed cards and tables of the rulebook are pictures we do not have, so each table is
drawn at random from the seed and kept only where the solver finds every stage solvable.
Same seed, same tables, byte for byte. Difficulty comes from ``tablesim.games.katamino.difficulty`` on
every stage small enough to count in full (flat targets up to 40 cells, 3D up to 30; a full
count of a Penta 10 takes about 40 s); a challenge's score is the highest of its measured
stages and its level follows ``tablesim.games.katamino.LEVELS``. Cards are the challenges sorted by
that score (card 1 easiest) unless the rulebook fixes the card (a box, a grid, a picture).
See ``docs/rules/katamino-duo.md`` ("Solo") for each table's reading of the rulebook.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tablesim.games.katamino import LEVELS, difficulty, is_solvable, solve_one
from tablesim.games.katamino.solo_data import (
    DATA_DIR,
    SOLO_MODES,
    card_titles,
    listing,
    piece,
    target_of,
)
from tablesim.games.outputs import atomic_write
from tablesim.games.rng import Rng

PENTAS = ("2", "3", "4", "5", "6", "7", "8")
TETRAS = ("A", "B", "C", "D", "E")
MINIS = ("V1", "V2", "W1", "W2", "X", "Y")
ALL = PENTAS + TETRAS + MINIS
DEFAULT_SEED = 2026
MEASURE_FLAT, MEASURE_3D = 40, 30

CONSTRUCTION_BOXES = (
    "3x3x6", "4x3x4", "3x3x5", "2x3x5", "3x3x3", "3x3x4", "2x3x3", "2x2x4", "2x2x7", "2x2x6",
    "2x2x3",
)  # fmt: skip
"""The rulebook's 3D constructions, in its order (rows x columns x layers)."""

PUZZLE_GRIDS = (
    ("A", "3x4", "2x2x3"), ("B", "4x4", "2x2x4"), ("C", "3x6", "2x3x3"),
    ("D", "4x6", "2x3x4"), ("E", "3x9", "3x3x3"), ("F", "6x6", "3x3x4"),
)  # fmt: skip
"""3D puzzle grids A..F: the flat grid (our reading of the cube count) and the rulebook's
example structure."""


class Draw:
    """A mutable cursor over a seeded :class:`Rng` stream."""

    def __init__(self, seed: int, *stream: object) -> None:
        self.rng = Rng.from_seed(seed, "katamino-generate", *stream)

    def below(self, n: int) -> int:
        """Uniform in ``[0, n)``."""
        v, self.rng = self.rng.randbelow(n)
        return v

    def shuffle(self, items: Sequence[Any]) -> list[Any]:
        """A shuffled copy."""
        out, self.rng = self.rng.shuffle(items)
        return list(out)

    def sample(self, items: Sequence[Any], k: int) -> list[Any]:
        """``k`` distinct items."""
        return self.shuffle(items)[:k]


def pieces(names: Sequence[str]) -> list:
    """Catalogue pieces for names."""
    return [piece(n) for n in names]


def size(names: Sequence[str]) -> int:
    """Total cubes."""
    return sum(piece(n).size for n in names)


def canon(names: Sequence[str]) -> tuple[str, ...]:
    """Names sorted in catalogue order, with identical copies renamed to the first ones."""
    out = sorted(names, key=ALL.index)
    for label, copies in (("V", ("V1", "V2")), ("W", ("W1", "W2"))):
        k = sum(1 for n in out if piece(n).label == label)
        out = [n for n in out if piece(n).label != label] + list(copies[:k])
    return tuple(sorted(out, key=ALL.index))


def solution(spec: str, names: Sequence[str]) -> list | None:
    """One arrangement ``[[name, cells], ...]`` or None."""
    sol = solve_one(target_of(spec), pieces(names))
    if sol is None:
        return None
    return [[p.name, [list(c) for c in p.cells]] for p in sol.pieces]


def measure(spec: str, names: Sequence[str]) -> dict[str, Any] | None:
    """The solver's difficulty of one stage when small enough to count in full, else None."""
    t = target_of(spec)
    if t.size > (MEASURE_FLAT if t.dims == 2 else MEASURE_3D):
        return None
    return difficulty(t, pieces(names)).to_dict()


def stage(name: str, spec: str, names: Sequence[str], sol: list) -> dict[str, Any]:
    """A stage entry with its solution and measured difficulty."""
    return {"name": name, "target": spec, "pieces": list(canon(names)), "solution": sol,
            "difficulty": measure(spec, names)}  # fmt: skip


def level_of(score: float | None) -> str:
    """The rulebook level of a score (``LEVELS`` thresholds)."""
    if score is None:
        return "unmeasured"
    return next((n for n, top in LEVELS if score <= top), "expert")


def summarise(stages: list[dict[str, Any]]) -> dict[str, Any]:
    """A challenge's difficulty: the highest measured stage score, its level and stage."""
    scored = [(s["difficulty"]["score"], s["name"]) for s in stages if s["difficulty"]]
    if not scored:
        return {"score": None, "level": "unmeasured", "hardest": None, "measured": 0}
    score, name = max(scored)
    return {"score": score, "level": level_of(score), "hardest": name, "measured": len(scored)}


def staged(steps: Sequence[tuple[str, str, Sequence[str]]]) -> list[dict[str, Any]] | None:
    """Stages ``(name, target, pieces)`` if every one is solvable, else None (solutions first,
    difficulty only once all are known solvable)."""
    sols = []
    for _name, spec, names in steps:
        sol = solution(spec, names)
        if sol is None:
            return None
        sols.append(sol)
    return [stage(n, s, p, sol) for (n, s, p), sol in zip(steps, sols, strict=True)]


def swaps_keeping(steps: Sequence[tuple[str, str, Sequence[str]]],
                  candidates: Sequence[tuple[str, tuple[str, ...]]]) -> list[str]:  # fmt: skip
    """The swaps ``(old, new)`` after which every stage is still solvable."""
    out = []
    for old, new in candidates:
        ok = all(
            is_solvable(target_of(spec), pieces([n for n in names if n != old] + list(new)))
            for _, spec, names in steps
        )
        if ok:
            out.append(f"{old}={'+'.join(new)}")
    return out


def easier_swaps(base: Sequence[str], used: set[str]) -> list[tuple[str, tuple[str, ...]]]:
    """The rulebook's easier swaps: a tetramino or a pentamino of ``base`` replaced by two
    miniminos of the same total size, among miniminos not used by the challenge."""
    free = [m for m in MINIS if m not in used]
    pairs = {canon(p) for p in itertools.combinations(free, 2)}
    out = []
    for old in base:
        if piece(old).size not in (4, 5):
            continue
        for pair in sorted(pairs, key=lambda p: [ALL.index(n) for n in p]):
            if size(pair) == piece(old).size:
                out.append((old, pair))
    return out


def same_size_swaps(names: Sequence[str]) -> list[tuple[str, tuple[str, ...]]]:
    """Every swap of one piece for an unused piece of the same size and another shape."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for old in names:
        for new in ALL:
            if new in names or piece(new).size != piece(old).size:
                continue
            if sorted(piece(new).cells) == sorted(piece(old).cells):
                continue  # an identical copy: not a different challenge
            out.append((old, (new,)))
    return out


def cards_by_score(items: list[dict[str, Any]], per_card: int,
                   titles: Sequence[str]) -> list[dict[str, Any]]:  # fmt: skip
    """Sort challenges by score (unmeasured last) and deal them onto cards of ``per_card``."""
    items = sorted(items, key=lambda c: (c["difficulty"]["score"] is None,
                                         c["difficulty"]["score"] or 0.0, c["key"]))  # fmt: skip
    cards = []
    for k, title in enumerate(titles):
        chunk = items[k * per_card : (k + 1) * per_card]
        for i, c in enumerate(chunk, start=1):
            c["challenge"] = i
            del c["key"]
        cards.append({"card": k + 1, "title": title, "challenges": chunk})
    return cards


# ------------------------------------------------------------------------------ tables


def gen_solo(seed: int) -> list[dict[str, Any]]:
    """Solo challenges: 3 pentaminos + 3 tetraminos -> 3x3x3; + X or Y -> Penta 6; + one of
    the remaining pentaminos each -> Penta 7..10. 4 cards of 6."""
    d = Draw(seed, "solo")
    items: list[dict[str, Any]] = []
    seen = set()
    while len(items) < 24:
        base = canon(d.sample(PENTAS, 3) + d.sample(TETRAS, 3))
        mini = ("X", "Y")[d.below(2)]
        rest = d.shuffle([p for p in PENTAS if p not in base])
        key = (base, mini, tuple(rest))
        if key in seen:
            continue
        seen.add(key)
        steps = [("3x3x3", "3x3x3", base)]
        names = list(base) + [mini]
        steps.append(("Penta 6", "5x6", tuple(names)))
        for k, p in enumerate(rest):
            names = names + [p]
            steps.append((f"Penta {7 + k}", f"5x{7 + k}", tuple(names)))
        built = staged(steps)
        if built is None:
            continue
        used = set(steps[-1][2])
        swaps = swaps_keeping(steps, easier_swaps(base, used))
        items.append({"key": "|".join(base) + mini + "".join(rest), "title": "",
                      "stages": built, "difficulty": summarise(built), "swaps": swaps})  # fmt: skip
        print(f"  solo {len(items)}/24", file=sys.stderr)
    return cards_by_score(items, 6, ("easiest", "easier", "harder", "hardest"))


def random_set(d: Draw, volume: int, pool: Sequence[str], max_minis: int) -> tuple[str, ...]:
    """A random piece multiset of ``volume`` cubes from ``pool``, big pieces first, at most
    ``max_minis`` miniminos."""
    order = d.shuffle([p for p in pool if piece(p).size >= 4])
    minis = d.shuffle([p for p in pool if piece(p).size < 4])
    chosen: list[str] = []
    for p in order:
        if size(chosen) + piece(p).size <= volume:
            chosen.append(p)
        if size(chosen) == volume:
            return canon(chosen)
    for m in minis:
        if len([c for c in chosen if piece(c).size < 4]) >= max_minis:
            break
        if size(chosen) + piece(m).size <= volume:
            chosen.append(m)
        if size(chosen) == volume:
            return canon(chosen)
    return ()


def find_set(d: Draw, spec: str, pool: Sequence[str], max_minis: int,
             extra: Callable[[tuple[str, ...]], bool] = lambda s: True,
             avoid: set | None = None, tries: int = 4000) -> tuple[str, ...]:  # fmt: skip
    """A random solvable piece set for ``spec`` (and ``extra``), not in ``avoid``."""
    vol = target_of(spec).size
    for _ in range(tries):
        s = random_set(d, vol, pool, max_minis)
        if not s or (avoid is not None and s in avoid):
            continue
        if is_solvable(target_of(spec), pieces(s)) and extra(s):
            return s
    raise RuntimeError(f"no solvable set found for {spec}")


def gen_solo3d(seed: int) -> list[dict[str, Any]]:
    """Cards 1..4: a box on the card, 6 piece sets each. Cards 5..7: the halves of the duel
    Penta 4 cards (blue, red, black), then + 3 pentaminos + V -> 3x3x4."""
    d = Draw(seed, "solo3d")
    cards = []
    for k, box in enumerate(("2x3x4", "3x3x3", "2x3x5", "2x2x6"), start=1):
        seen: set = set()
        chs: list[dict[str, Any]] = []
        for i in range(1, 7):
            s = find_set(d, box, ALL, 2, avoid=seen)
            seen.add(s)
            built = staged([(box, box, s)])
            assert built is not None
            chs.append({"challenge": i, "title": "", "stages": built,
                        "difficulty": summarise(built), "swaps": []})  # fmt: skip
        chs.sort(key=lambda c: c["difficulty"]["score"] or 0.0)
        for i, c in enumerate(chs, start=1):
            c["challenge"] = i
        cards.append({"card": k, "title": f"3D card {box}", "challenges": chs})
        print(f"  solo3d card {k}", file=sys.stderr)
    cards += penta4_cards(d)
    return cards


PENTA4_LEVELS = (("normal", "blue"), ("difficult", "red"), ("expert", "black"))
"""The duel levels whose cards start at Penta 4, with their colours (solo3d cards 5..7)."""


def penta4_cards(d: Draw) -> list[dict[str, Any]]:
    """Solo 3D from the duel Penta 4 cards (``tablesim.games.katamino.duel_cards``): every half of every
    blue, red and black card side + 3 pentaminos from the table + the monomino V -> 3x3x4.
    A half holding both V has no monomino left for the 36th cube and is skipped; the three
    pentaminos are drawn until the box is solvable (20 draws at most, else skipped)."""
    from tablesim.games.katamino.duel_cards import cards as duel_cards

    out = []
    for k, (level, colour) in enumerate(PENTA4_LEVELS, start=5):
        chs: list[dict[str, Any]] = []
        for card in duel_cards(level):
            for h, raw in enumerate(card.halves, start=1):
                half = canon(raw)
                if "V2" in half:
                    continue
                mono = "V2" if "V1" in half else "V1"
                table = [p for p in PENTAS if p not in half]
                for _ in range(20):
                    full = canon(list(half) + d.sample(table, 3) + [mono])
                    built = staged([("Penta 4", "5x4", half), ("3x3x4", "3x3x4", full)])
                    if built is not None:
                        chs.append({"challenge": len(chs) + 1, "stages": built,
                                    "title": f"duel card {card.id}, half {h}",
                                    "difficulty": summarise(built), "swaps": []})  # fmt: skip
                        break
        out.append({"card": k, "title": f"Penta 4 cards ({colour})", "challenges": chs})
        print(f"  solo3d card {k}: {len(chs)}", file=sys.stderr)
    return out


CONSTRUCTION_SETS = 4
"""Piece sets shipped per construction box."""


def gen_construction(seed: int) -> list[dict[str, Any]]:
    """The 11 boxes in the rulebook's order, one card each, with ``CONSTRUCTION_SETS``
    different piece sets that build it and, per set, every same-size swap that still does."""
    d = Draw(seed, "construction")
    cards = []
    for k, box in enumerate(CONSTRUCTION_BOXES, start=1):
        chs: list[dict[str, Any]] = []
        seen: set = set()
        for i in range(1, CONSTRUCTION_SETS + 1):
            s = find_set(d, box, ALL, 3, avoid=seen)
            seen.add(s)
            built = staged([(box, box, s)])
            assert built is not None
            swaps = swaps_keeping([(box, box, s)], same_size_swaps(s))
            chs.append({"challenge": i, "title": f"set {i}", "stages": built,
                        "difficulty": summarise(built), "swaps": swaps})  # fmt: skip
        cards.append({"card": k, "title": f"{box} ({target_of(box).size} cubes)",
                      "challenges": chs})  # fmt: skip
        print(f"  construction {box}", file=sys.stderr)
    return cards


def puzzle_a_sets() -> list[tuple[str, ...]]:
    """Every piece multiset of 12 cubes that fills the 3x4 grid and builds 2x2x3."""
    out = []
    for r in range(1, 13):
        for c in itertools.combinations(ALL, r):
            if size(c) != 12 or c != canon(c):
                continue
            if is_solvable(target_of("3x4"), pieces(c)) and is_solvable(target_of("2x2x3"),
                                                                       pieces(c)):  # fmt: skip
                out.append(c)
    return out


def _solvable_in(box: str) -> Callable[[tuple[str, ...]], bool]:
    """A test for :func:`find_set`: the piece set also fills ``box``."""
    return lambda s: is_solvable(target_of(box), pieces(s))


def gen_puzzle3d(seed: int) -> list[dict[str, Any]]:
    """Card A: every set that fills 3x4 and builds 2x2x3. Cards B..F: 8 random sets each that
    fill the flat grid and build the example structure."""
    d = Draw(seed, "puzzle3d")
    cards = []
    for k, (letter, grid, box) in enumerate(PUZZLE_GRIDS, start=1):
        if letter == "A":
            sets = puzzle_a_sets()
        else:
            sets = []
            seen: set = set()
            while len(sets) < 8:
                s = find_set(d, grid, ALL, 3, avoid=seen, extra=_solvable_in(box))
                seen.add(s)
                sets.append(s)
        chs: list[dict[str, Any]] = []
        for s in sets:
            built = staged([(f"Puzzle {letter}", grid, s), (box, box, s)])
            assert built is not None
            chs.append({"key": "|".join(s), "title": "", "stages": built,
                        "difficulty": summarise(built), "swaps": []})  # fmt: skip
        card = cards_by_score(chs, len(chs), (f"Puzzle {letter}: {grid} -> {box}",))[0]
        card["card"] = k
        cards.append(card)
        print(f"  puzzle3d {letter}: {len(chs)}", file=sys.stderr)
    return cards


def gen_traditional(seed: int) -> list[dict[str, Any]]:
    """168 challenges: 4 pieces -> Penta 3, + one pentamino each -> Penta 4..7, + V -> 3x3x4
    (the 3D variant). Sorted by measured difficulty onto 6 cards of 28."""
    d = Draw(seed, "traditional")
    pool3 = PENTAS + TETRAS + ("W1", "W2", "X", "Y")
    items: list[dict[str, Any]] = []
    seen = set()
    while len(items) < 168:
        base = canon(d.sample(pool3, 4))
        if size(base) != 15 or sum(1 for p in base if p in PENTAS) > 3:
            continue
        adds = d.sample([p for p in PENTAS if p not in base], 4)
        key = (base, tuple(adds))
        if key in seen:
            continue
        seen.add(key)
        steps = [("Penta 3", "5x3", base)]
        names = list(base)
        for k, p in enumerate(adds):
            names = names + [p]
            steps.append((f"Penta {4 + k}", f"5x{4 + k}", tuple(names)))
        steps.append(("3x3x4", "3x3x4", tuple(names + ["V1"])))
        built = staged(steps)
        if built is None:
            continue
        items.append({"key": "|".join(base) + "".join(adds), "title": "", "stages": built,
                      "difficulty": summarise(built), "swaps": []})  # fmt: skip
        if len(items) % 28 == 0:
            print(f"  traditional {len(items)}/168", file=sys.stderr)
    return cards_by_score(items, 28, tuple(f"card {k}" for k in range(1, 7)))


PICTURES: dict[str, tuple[str, str]] = {
    # name: (card, mask). Our own drawings, 12 to 30 cells.
    "cat": ("animals", "#---#\n##-##\n#####\n-###-\n-###-\n-#-#-"),
    "fish": ("animals", "-##---\n####-#\n######\n####-#\n-##---"),
    "snail": ("animals", "--###-\n-#####\n-##-##\n######\n######"),
    "duck": ("animals", "-##---\n###---\n-#--##\n-#####\n--####"),
    "bird": ("animals", "-#----\n###---\n-####-\n--####\n---#--"),
    "dog": ("animals", "##----\n###---\n-#####\n-#####\n-#---#"),
    "house": ("objects", "--#--\n-###-\n#####\n#####\n##-##"),
    "boat": ("objects", "--#---\n--##--\n--###-\n######\n-####-"),
    "tree": ("objects", "-##-\n####\n####\n-##-\n-##-"),
    "rocket": ("objects", "-#-\n###\n###\n###\n###\n#-#"),
    "car": ("objects", "-###--\n######\n######\n-#--#-"),
    "heart": ("objects", "##-##\n#####\n#####\n-###-\n--#--"),
}
"""The picture puzzles (``#`` a cell): two cards of six, animals and objects."""


def gen_picture(seed: int) -> list[dict[str, Any]]:
    """Each picture with a piece set that fills it: big pieces first (few pieces for small
    hands), at most 2 miniminos."""
    d = Draw(seed, "picture")
    cards: dict[str, list[dict[str, Any]]] = {"animals": [], "objects": []}
    for name, (card, mask) in PICTURES.items():
        s = find_set(d, mask, ALL, 2)
        built = staged([(name, mask, s)])
        assert built is not None
        cards[card].append({"challenge": len(cards[card]) + 1, "title": name, "stages": built,
                            "difficulty": summarise(built), "swaps": []})  # fmt: skip
    return [{"card": k, "title": t, "challenges": cards[t]}
            for k, t in enumerate(("animals", "objects"), start=1)]  # fmt: skip


GENERATORS: dict[str, Callable[[int], list[dict[str, Any]]]] = {
    "solo": gen_solo, "solo3d": gen_solo3d, "construction": gen_construction,
    "puzzle3d": gen_puzzle3d, "traditional": gen_traditional, "picture": gen_picture,
}  # fmt: skip


def table_text(mode: str, seed: int) -> str:
    """The JSON text of one mode's table (stable: sorted keys, fixed layout)."""
    cards = GENERATORS[mode](seed)
    return layout({"mode": mode, "seed": seed, "cards": cards,
                   "generator": "python -m tablesim.games.katamino.generate_solo"})  # fmt: skip


def layout(obj: dict[str, Any]) -> str:
    """Compact JSON with one challenge per line (small files, readable diffs)."""

    def dump(v: Any) -> str:
        return json.dumps(v, sort_keys=True, separators=(",", ":"))

    head = ",".join(f"{dump(k)}:{dump(v)}" for k, v in sorted(obj.items()) if k != "cards")
    cards = []
    for card in obj["cards"]:
        top = ",".join(f"{dump(k)}:{dump(v)}" for k, v in sorted(card.items())
                       if k != "challenges")  # fmt: skip
        chs = ",\n".join(dump(c) for c in card["challenges"])
        cards.append(f'{{{top},"challenges":[\n{chs}]}}')
    return f'{{{head},"cards":[\n' + ",\n".join(cards) + "]}\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Write the tables; exit 2 on bad arguments."""
    ap = argparse.ArgumentParser(
        prog="python -m tablesim.games.katamino.generate_solo",
        description="Regenerate the Katamino solo challenge tables.",
    )
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"seed (default {DEFAULT_SEED})")
    ap.add_argument("--only", nargs="+", choices=SOLO_MODES, help="modes to regenerate")
    ap.add_argument("--out", default=str(DATA_DIR), help="output folder (default: package data)")
    ap.add_argument(
        "--list",
        choices=SOLO_MODES,
        metavar="MODE",
        help="print the shipped table of MODE (writes nothing)",
    )
    ap.add_argument("--card", type=int, help="with --list: only this card")
    args = ap.parse_args(argv)
    if args.card is not None and not args.list:
        ap.error("--card goes with --list")
    if args.list:
        cards = sorted(card_titles(args.list))
        if args.card is not None and args.card not in cards:
            ap.error(f"--card {args.card}: {args.list} has cards {cards[0]}..{cards[-1]}")
        print(listing(args.list, args.card))
        return 0
    out = Path(args.out)
    if not out.is_dir():
        ap.error(f"--out {out}: not a folder")
    for mode in args.only or SOLO_MODES:
        t0 = time.perf_counter()
        text = table_text(mode, args.seed)
        atomic_write(out / f"{mode}.json", text, force=True)
        print(f"{mode}: {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
