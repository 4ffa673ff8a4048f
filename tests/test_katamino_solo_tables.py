"""The shipped solo challenge tables: the rulebook's structure, every shipped solution checked
without the solver, a sample re-solved by the solver (all of them in the slow run), and the
generator's determinism."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest

from tablesim.games.katamino import is_solvable
from tablesim.games.katamino.solo_data import (
    SOLO_MODES,
    challenges,
    check_solution,
    piece,
    target_of,
)

PENTAS = set("2345678")
TETRAS = set("ABCDE")


def _size(names) -> int:
    return sum(piece(n).size for n in names)


def _added(a, b) -> list[str]:
    """Pieces of stage ``b`` that stage ``a`` does not have (multiset difference)."""
    return list((Counter(b) - Counter(a)).elements())


# ------------------------------------------------------------------------------ structure


def test_solo_structure() -> None:
    # "take the pieces indicated on the card and build a 3x3x3 structure (27 cubes) ... add one
    # of these Miniminos, now complete a Penta 6 ... add one of the remaining Pentaminos and
    # complete a Penta 7 ... Pentas 8, 9 and 10."
    chs = challenges("solo")
    assert len(chs) == 24 and sorted({c.card for c in chs}) == [1, 2, 3, 4]
    for ch in chs:
        names = [s.name for s in ch.stages]
        assert names == ["3x3x3", "Penta 6", "Penta 7", "Penta 8", "Penta 9", "Penta 10"]
        sizes = [target_of(s.target_spec).size for s in ch.stages]
        assert sizes == [27, 30, 35, 40, 45, 50]
        assert [_size(s.pieces) for s in ch.stages] == sizes
        assert _added(ch.stages[0].pieces, ch.stages[1].pieces) in (["X"], ["Y"])
        for a, b in zip(ch.stages[1:], ch.stages[2:], strict=False):
            add = _added(a.pieces, b.pieces)
            assert len(add) == 1 and add[0] in PENTAS
        assert set(ch.stages[-1].pieces) >= PENTAS  # every pentamino by Penta 10
        for swap in ch.swaps:  # easier: one tetra- or pentamino for two miniminos
            old, new = swap.split("=")
            parts = new.split("+")
            assert old in PENTAS | TETRAS and len(parts) == 2
            assert all(piece(p).size <= 3 for p in parts)
            assert _size(parts) == piece(old).size


def test_solo3d_structure() -> None:
    chs = challenges("solo3d")
    boxes = {c.card: c.stages[0].target_spec for c in chs if c.card <= 4}
    assert boxes == {1: "2x3x4", 2: "3x3x3", 3: "2x3x5", 4: "2x2x6"}
    for ch in chs:
        if ch.card <= 4:
            assert len(ch.stages) == 1 and ch.stages[0].target.dims == 3
            continue
        # "Take the pieces indicated on one half of the card and add 3 Pentaminos and 1
        # Minimino. Build a 3x3x4 structure (36 cubes)."
        half, box = ch.stages
        assert half.target_spec == "5x4" and box.target_spec == "3x3x4"
        add = _added(half.pieces, box.pieces)
        assert sum(1 for p in add if p in PENTAS) == 3 and len(add) == 4
        assert [piece(p).size for p in add if p not in PENTAS] == [1]
    assert Counter(c.card for c in chs if c.card <= 4) == {k: 6 for k in range(1, 5)}
    assert {c.card for c in chs} == set(range(1, 8))


def test_solo3d_penta4_cards_are_the_duel_cards() -> None:
    # cards 5..7 take the halves of the blue, red and black duel cards, as the rulebook says
    # ("Using the blue, red and black Penta 4 Puzzle cards"); a half with both V is skipped.
    from tablesim.games.katamino.duel_cards import cards as duel_cards

    levels = {5: "normal", 6: "difficult", 7: "expert"}
    for card, level in levels.items():
        mine = [c for c in challenges("solo3d") if c.card == card]
        halves = {}
        for dc in duel_cards(level):
            for h, half in enumerate(dc.halves, start=1):
                halves[f"duel card {dc.id}, half {h}"] = half
        eligible = [t for t, h in halves.items() if not {"V1", "V2"} <= set(h)]
        assert [c.title for c in mine] == eligible
        for c in mine:
            assert sorted(c.stages[0].pieces) == sorted(halves[c.title])


def test_construction_boxes_and_swaps() -> None:
    chs = challenges("construction")
    rulebook = [("3x3x6", 54), ("4x3x4", 48), ("3x3x5", 45), ("2x3x5", 30), ("3x3x3", 27),
                ("3x3x4", 36), ("2x3x3", 18), ("2x2x4", 16), ("2x2x7", 28), ("2x2x6", 24),
                ("2x2x3", 12)]  # fmt: skip
    for card, (box, cubes) in enumerate(rulebook, start=1):
        sets = [c.stages[0] for c in chs if c.card == card]
        assert len(sets) == 4 and len({s.pieces for s in sets}) == 4
        assert all(s.target_spec == box and s.target.size == cubes for s in sets)
    for ch in chs:
        names = ch.stages[0].pieces
        for swap in ch.swaps:  # "swapping one or more parts for another of the same size"
            old, new = swap.split("=")
            assert old in names and new not in names
            assert piece(old).size == piece(new).size


def test_puzzle3d_grids() -> None:
    chs = challenges("puzzle3d")
    # Puzzle A 3x4 -> 2x2x3; B..F: 16, 18, 24, 27, 36 cubes and the rulebook's structures.
    want = {1: ("3x4", "2x2x3"), 2: ("4x4", "2x2x4"), 3: ("3x6", "2x3x3"),
            4: ("4x6", "2x3x4"), 5: ("3x9", "3x3x3"), 6: ("6x6", "3x3x4")}  # fmt: skip
    cubes = {1: 12, 2: 16, 3: 18, 4: 24, 5: 27, 6: 36}
    for ch in chs:
        flat, box = ch.stages
        assert (flat.target_spec, box.target_spec) == want[ch.card]
        assert flat.pieces == box.pieces and _size(flat.pieces) == cubes[ch.card]
    sets_a = [c.stages[0].pieces for c in chs if c.card == 1]
    assert len(sets_a) == len(set(sets_a)) == 52


def test_traditional_table() -> None:
    # "168 challenges", 4 pieces for Penta 3, one pentamino per column 4..7, then V -> 3x3x4.
    chs = challenges("traditional")
    assert len(chs) == 168 and Counter(c.card for c in chs) == {k: 28 for k in range(1, 7)}
    keys = set()
    for ch in chs:
        st = ch.stages
        assert [s.target_spec for s in st] == ["5x3", "5x4", "5x5", "5x6", "5x7", "3x3x4"]
        assert len(st[0].pieces) == 4 and "V1" not in st[0].pieces
        for a, b in zip(st[:4], st[1:5], strict=True):
            add = _added(a.pieces, b.pieces)
            assert len(add) == 1 and add[0] in PENTAS
        assert _added(st[4].pieces, st[5].pieces) == ["V1"] and len(st[5].pieces) == 9
        keys.add(tuple(s.pieces for s in st))
    assert len(keys) == 168
    scores = [c.difficulty["score"] for c in chs]
    assert scores == sorted(scores)  # card 1 easiest, by measured score


def test_pictures() -> None:
    chs = challenges("picture")
    assert len(chs) == 12 and len({c.title for c in chs}) == 12
    for ch in chs:
        (st,) = ch.stages
        assert st.target.dims == 2 and 12 <= st.target.size <= 30
        assert sum(1 for p in st.pieces if piece(p).size < 4) <= 2


@pytest.mark.parametrize("mode", SOLO_MODES)
def test_every_shipped_solution_checks_without_the_solver(mode: str) -> None:
    for ch in challenges(mode):
        for st in ch.stages:
            assert check_solution(st.target, st.pieces, st.solution) == [], (ch.card, ch.number)
        assert ch.difficulty["level"] in {"beginner", "easy", "normal", "difficult", "expert",
                                          "unmeasured"}  # fmt: skip


def test_check_solution_catches_errors() -> None:
    t = target_of("2x2")
    good = (("C", ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0))),)
    assert check_solution(t, ("C",), good) == []
    wrong_shape = (("B", ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0))),)
    assert any("orientation" in e for e in check_solution(t, ("B",), wrong_shape))
    t2 = target_of("2x3")
    overlap = (("C", ((0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0))),
               ("W1", ((0, 1, 0), (1, 1, 0))))  # fmt: skip
    errs = check_solution(t2, ("C", "W1"), overlap)
    assert any("twice" in e for e in errs) and any("uncovered" in e for e in errs)


# ------------------------------------------------------------------------------ solver


def _sample(mode: str, per_card: int) -> list:
    out, seen = [], Counter()
    for ch in challenges(mode):
        if seen[ch.card] < per_card:
            out.append(ch)
            seen[ch.card] += 1
    return out


def _resolve(ch) -> None:
    for st in ch.stages:
        assert is_solvable(st.target, [piece(n) for n in st.pieces]), (ch.mode, ch.card, st.name)
        for swap in ch.swaps:
            old, new = swap.split("=")
            names = [n for n in st.pieces if n != old] + new.split("+")
            assert is_solvable(st.target, [piece(n) for n in names]), (ch.card, st.name, swap)


@pytest.mark.parametrize("mode", SOLO_MODES)
def test_sample_resolved_by_the_solver(mode: str) -> None:
    for ch in _sample(mode, 1):
        _resolve(ch)


@pytest.mark.slow
@pytest.mark.parametrize("mode", SOLO_MODES)
def test_every_challenge_resolved_by_the_solver(mode: str) -> None:
    for ch in challenges(mode):
        _resolve(ch)


def test_swaps_not_listed_are_unsolvable() -> None:
    # construction 2x2x3: every same-size swap left out of the list really fails
    from tablesim.games.katamino.generate_solo import same_size_swaps

    ch = [c for c in challenges("construction") if c.stages[0].target_spec == "2x2x3"][0]
    assert ch.swaps
    st = ch.stages[0]
    listed = set(ch.swaps)
    for old, (new,) in same_size_swaps(st.pieces):
        names = [n for n in st.pieces if n != old] + [new]
        ok = is_solvable(st.target, [piece(n) for n in names])
        assert ok == (f"{old}={new}" in listed)


# ------------------------------------------------------------------------------ generator


def _generate(mode: str, tmp) -> str:
    subprocess.run([sys.executable, "-m", "tablesim.games.katamino.generate_solo", "--only", mode,
                    "--out", str(tmp)], check=True, capture_output=True)  # fmt: skip
    return (tmp / f"{mode}.json").read_text()


def test_generator_is_deterministic_across_processes(tmp_path) -> None:
    from tablesim.games.katamino.generate_solo import DEFAULT_SEED, table_text

    first = _generate("picture", tmp_path)
    assert table_text("picture", DEFAULT_SEED) == first  # this process, same bytes
    # the seeded draws (which pieces go with which picture) match the shipped table; the
    # solutions and node counts follow the solver's search order
    import json

    shipped = [c.stages[0].pieces for c in challenges("picture")]
    again = [tuple(ch["stages"][0]["pieces"]) for card in json.loads(first)["cards"]
             for ch in card["challenges"]]  # fmt: skip
    assert again == shipped


def test_generator_bad_output_folder_exits_2(tmp_path) -> None:
    r = subprocess.run([sys.executable, "-m", "tablesim.games.katamino.generate_solo", "--only", "picture",
                        "--out", str(tmp_path / "missing")], capture_output=True, text=True)  # fmt: skip
    assert r.returncode == 2 and "not a folder" in r.stderr


def test_list_command_prints_a_card() -> None:
    r = subprocess.run([sys.executable, "-m", "tablesim.games.katamino.generate_solo", "--list",
                        "traditional", "--card", "2"], capture_output=True, text=True)  # fmt: skip
    assert r.returncode == 0
    heads = [ln for ln in r.stdout.splitlines() if not ln.startswith(" ")]
    assert len(heads) == 28 and all(h.startswith("traditional card 2 ") for h in heads)
    steps = [ln.split() for ln in r.stdout.splitlines() if ln.startswith("  3x3x4")]
    assert len(steps) == 28 and all(s[2:] == ["+", "V1"] for s in steps)


def _recount(mode: str) -> int:
    """Every measured stage's shipped solution count equals a fresh count (a count does not
    depend on the search order, unlike node figures)."""
    from tablesim.games.katamino import solve_count

    n = 0
    for ch in challenges(mode):
        for st in ch.stages:
            if st.difficulty:
                got = solve_count(st.target, [piece(x) for x in st.pieces]).count
                assert got == st.difficulty["solutions"] > 0, (ch.card, ch.number, st.name)
                n += 1
    return n


@pytest.mark.parametrize("mode", ["picture", "construction", "solo3d"])
def test_shipped_solution_counts(mode: str) -> None:
    assert _recount(mode) > 0


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["solo", "puzzle3d", "traditional"])
def test_shipped_solution_counts_all(mode: str) -> None:
    assert _recount(mode) > 0


def test_list_command_bad_card_exits_2() -> None:
    r = subprocess.run([sys.executable, "-m", "tablesim.games.katamino.generate_solo", "--list",
                        "picture", "--card", "3"], capture_output=True, text=True)  # fmt: skip
    assert r.returncode == 2 and "cards 1..2" in r.stderr and r.stdout == ""
