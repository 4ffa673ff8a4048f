"""3-set level 2 score: the skeleton search of ``tablesim.games.katoiz.stack`` against hand-worked piles
and against the exhaustive search it replaced (kept here as the oracle)."""

from __future__ import annotations

from functools import cache

import pytest

from tablesim.games.katoiz.components import MATCH, TILE_CODES, TILES
from tablesim.games.katoiz.stack import longest_stack
from tablesim.games.rng import Rng


def t(code: str, copy: int = 0) -> int:
    """The id of a tile by its code (``copy`` 1: the duplicate)."""
    return [i for i, c in enumerate(TILE_CODES) if c == code][copy]


def exhaustive_stack(tiles: list[int], need: int) -> int:
    """The former ``longest_stack``: a memoised search over tile types with counts
    (exponential in the pile; fine for the small piles of this test)."""
    types = sorted({TILES[x] for x in tiles})
    counts = tuple(sum(1 for x in tiles if TILES[x] == ty) for ty in types)
    adj = tuple(
        tuple(
            j
            for j, u in enumerate(types)
            if sum(a == b for a, b in zip(ty, u, strict=True)) >= need
        )
        for ty in types
    )

    @cache
    def best(last: int, left: tuple[int, ...]) -> int:
        out = 0
        for j in adj[last]:
            if left[j]:
                out = max(out, 1 + best(j, left[:j] + (left[j] - 1,) + left[j + 1 :]))
        return out

    top = 0
    for i in range(len(types)):
        top = max(top, 1 + best(i, counts[:i] + (counts[i] - 1,) + counts[i + 1 :]))
    return top


def test_hand_worked_piles() -> None:
    # Two matches: ROL-ROS (red round), ROS-GOS (round small); GTL matches none twice.
    assert longest_stack([t("ROL"), t("ROS"), t("GOS"), t("GTL")], 2) == 3
    # GSS is the only link of three branches {GTS, GTS'}, {RSS, RSS'} and {GSL}: GTS-RSS and
    # GSL-GTS / GSL-RSS match once only, so a stack runs through two branches: 2 + 1 + 2.
    pile = [t("GTS"), t("GTS", 1), t("GSS"), t("RSS"), t("RSS", 1), t("GSL")]
    assert longest_stack(pile, 2) == 5
    # The star: the two ROL copies are both links: BOL ROL RSL ROL' ROS.
    assert longest_stack([t("ROL"), t("ROL", 1), t("BOL"), t("RSL"), t("ROS")], 2) == 5
    # One match: ROL, GSS share nothing; RSS links them (red; square small).
    assert longest_stack([t("ROL"), t("GSS")], 1) == 1
    assert longest_stack([t("ROL"), t("GSS"), t("RSS")], 1) == 3
    assert longest_stack([], 2) == 0


def test_against_the_exhaustive_search_on_random_piles() -> None:
    rng = Rng.from_seed(21, "katoiz-stack-oracle")
    for _ in range(250):
        n, rng = rng.randint(1, 12)
        tiles, rng = rng.shuffle(list(range(40)))
        pile = list(tiles[:n])
        assert longest_stack(pile, 2) == exhaustive_stack(pile, 2), [TILE_CODES[x] for x in pile]


def test_against_the_exhaustive_search_on_few_colours() -> None:
    # Two or three colours: sparse columns, where links and revisits decide the answer.
    rng = Rng.from_seed(22, "katoiz-stack-sparse")
    for _ in range(200):
        k, rng = rng.randint(2, 3)
        colours, rng = rng.shuffle(list(range(5)))
        pool = [x for x in range(40) if TILES[x][0] in colours[:k]]
        n, rng = rng.randint(4, min(13, len(pool)))
        tiles, rng = rng.shuffle(pool)
        pile = list(tiles[:n])
        assert longest_stack(pile, 2) == exhaustive_stack(pile, 2), [TILE_CODES[x] for x in pile]


def test_bad_input_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="need must be 1 or 2"):
        longest_stack([0, 1], 3)
    with pytest.raises(ValueError, match="not a picture tile"):
        longest_stack([0, 40], 2)
    assert MATCH[t("ROL")][t("ROL", 1)] == 3


def test_big_piles_end_at_once() -> None:
    # Issue 21: the exhaustive search took 0.8 s for 18 random tiles, over 100 s for 24, and
    # did not end for the 40 a game can hand out. Every column of the prism holds each of the
    # piles' colours, so all tiles stack. SIGALRM turns a hang into a failure.
    import signal

    def hung(signum: int, frame: object) -> None:
        raise TimeoutError("longest_stack did not end within 30 s")

    four_colours = [x for x in range(30) if TILES[x][0] != 4]  # 24 tiles, no blue
    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(30)
    try:
        assert longest_stack(range(40), 2) == 40
        assert longest_stack(four_colours, 2) == 24
        assert longest_stack([*four_colours, *range(30, 38)], 2) == 32
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
