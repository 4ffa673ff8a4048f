"""3-set level 2 scoring: the highest stack of a player's tiles, each matching the one below.

``longest_stack(tiles, need)`` is the most tiles of ``tiles`` that can be put in a sequence in
which every two neighbours share at least ``need`` of colour, shape and size. It is a longest
path problem, fast here because of the tiles' structure:

- ``need`` 1: all large tiles match each other (size), as do all small ones, so the whole pile
  stacks when one size is missing or a large and a small tile share colour or shape;
  otherwise the larger size group is the answer.
- ``need`` 2: two tiles match twice when they differ in at most one property. Group the tiles
  in six *columns* by (shape, size); a column is a clique (its tiles differ at most in
  colour). A step between columns keeps the colour and changes shape or size, so the
  columns form a prism graph (two triangles, large and small, joined by shape). A stack is a
  sequence of *visits* to columns; a visit enters at some tile and leaves at a tile of the
  colour of the next column's entry tile. Every other tile of a column can be slipped into
  any visit that enters and leaves by different tiles (or is the first or last visit), so
  the stack's length is the sum of the sizes of such *absorbed* columns plus the tiles of
  visits that pass straight through one tile. The search runs over these skeletons (at most
  six columns, five colours, tile copies as counts) instead of over tile orders:

  1. skeletons that visit no column twice, where absorbing dominates passing through (no
     copy is shared between visits);
  2. if that does not place every tile: all skeletons, depth first, with a bound (every
     column that can still be entered counted whole), never revisiting a column within a
     stretch of visits that gained nothing (such a loop can be cut out: the merged visit
     uses a subset of its copies and absorbs at least as much).

Both stop as soon as every tile of the connected group is placed. Results are cached by the
pile's tile types, so a bot that scores many candidate piles pays once per pile.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from tablesim.games.katoiz.components import MATCH, TILES

_COLUMNS = 6  # (shape, size) pairs: column = shape * 2 + size
_COLOURS = 5
_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(g for g in range(_COLUMNS) if g != h and (g // 2 == h // 2 or g % 2 == h % 2))
    for h in range(_COLUMNS)
)


def longest_stack(tiles: Sequence[int], need: int) -> int:
    """The most of ``tiles`` stackable so that each has ``need`` (1 or 2) matches with the next.

    ``tiles`` are picture tile ids (0..39; a 3-set pile never holds a blank). Raises
    ValueError for a blank tile or a ``need`` other than 1 and 2.
    """
    tiles = list(tiles)
    if need not in (1, 2):
        raise ValueError(f"katoiz stack: need must be 1 or 2 matches, got {need!r}")
    for t in tiles:
        if not 0 <= t < 40:
            raise ValueError(f"katoiz stack: {t!r} is not a picture tile id (0..39)")
    if not tiles:
        return 0
    if need == 1:
        large = [t for t in tiles if TILES[t][2] == 0]
        small = [t for t in tiles if TILES[t][2] == 1]
        if not large or not small or any(MATCH[a][b] for a in large for b in small):
            return len(tiles)
        return max(len(large), len(small))
    counts = [0] * (_COLOURS * _COLUMNS)
    for t in tiles:
        c, s, z = TILES[t]
        counts[c * _COLUMNS + s * 2 + z] += 1
    return _two_matches(tuple(counts))


@lru_cache(maxsize=1 << 14)
def _two_matches(counts: tuple[int, ...]) -> int:
    """``counts[colour * 6 + column]``: copies of each tile type. The longest two-match stack."""
    best = 0
    groups = sorted(_groups(counts), key=lambda g: -sum(counts[i] for i in g))
    for group in groups:
        sub = [0] * len(counts)
        for i in group:
            sub[i] = counts[i]
        if sum(sub) <= best:
            break
        best = max(best, _connected(sub))
    return best


def _groups(counts: Sequence[int]) -> list[list[int]]:
    """Tile types grouped by two-match connectivity."""
    seen: set[int] = set()
    out = []
    for start in range(len(counts)):
        if not counts[start] or start in seen:
            continue
        group = [start]
        seen.add(start)
        for a in group:
            c, h = divmod(a, _COLUMNS)
            near = [k * _COLUMNS + h for k in range(_COLOURS)]
            near += [c * _COLUMNS + g for g in _NEIGHBOURS[h]]
            for b in near:
                if counts[b] and b not in seen:
                    seen.add(b)
                    group.append(b)
        out.append(group)
    return out


def _connected(counts: Sequence[int]) -> int:
    """The longest stack of one connected group of tile types."""
    size = [sum(counts[c * _COLUMNS + h] for c in range(_COLOURS)) for h in range(_COLUMNS)]
    total = sum(size)
    best = max(size)  # one column: all its tiles in any order
    if best == total:
        return total
    best = max(best, _simple_skeletons(counts, size, total))
    if best == total:
        return total
    return _all_skeletons(counts, size, total, best)


def _value(size: Sequence[int], visited: int, absorbed: int, used: Sequence[int]) -> int:
    """Tiles placed: absorbed columns whole, passed-through columns by their junction tiles."""
    val = 0
    for h in range(_COLUMNS):
        if absorbed >> h & 1:
            val += size[h]
        elif visited >> h & 1:
            val += sum(used[k * _COLUMNS + h] for k in range(_COLOURS))
    return val


def _simple_skeletons(counts: Sequence[int], size: Sequence[int], total: int) -> int:
    """The best skeleton that visits no column twice (state: visited, column, colour in)."""
    best = 0
    seen: set[tuple[int, int, int, int]] = set()
    stack = [(1 << h, h, -1, 0) for h in range(_COLUMNS) if size[h]]
    while stack:
        item = stack.pop()
        if item in seen:
            continue
        seen.add(item)
        visited, h, a, absorbed = item
        end = absorbed | (1 << h)  # the last visit absorbs its column
        val = (visited & ~end).bit_count() + sum(size[x] for x in range(_COLUMNS) if end >> x & 1)
        if val > best:
            best = val
            if best == total:
                return best
        for g in _NEIGHBOURS[h]:
            if visited >> g & 1:
                continue
            for k in range(_COLOURS):
                if not counts[k * _COLUMNS + g]:
                    continue
                if counts[k * _COLUMNS + h] >= 1 + (k == a):  # leave by another tile
                    stack.append((visited | (1 << g), g, k, end))
                elif k == a:  # pass straight through the entry tile
                    stack.append((visited | (1 << g), g, k, absorbed))
    return best


def _enterable(counts: Sequence[int], used: Sequence[int], g: int, h: int, a: int) -> bool:
    """Whether column ``g`` still has a free tile whose colour a neighbour can step in with."""
    for k in range(_COLOURS):
        if used[k * _COLUMNS + g] >= counts[k * _COLUMNS + g]:
            continue
        for x in _NEIGHBOURS[g]:
            i = k * _COLUMNS + x
            if used[i] < counts[i] or (x == h and k == a):
                return True
    return False


def _bound(
    counts: Sequence[int],
    size: Sequence[int],
    state: tuple[int, int, int, int, tuple[int, ...]],
) -> int:
    """An upper bound: every column that can still be entered counted whole."""
    h, a, visited, absorbed, used = state
    ub = 0
    for g in range(_COLUMNS):
        if absorbed >> g & 1 or g == h or _enterable(counts, used, g, h, a):
            ub += size[g]
        elif visited >> g & 1:
            ub += sum(used[k * _COLUMNS + g] for k in range(_COLOURS))
    return ub


def _all_skeletons(counts: Sequence[int], size: Sequence[int], total: int, best: int) -> int:
    """Every skeleton, revisits allowed, depth first with the bound (see the module doc)."""
    kinds = [sum(1 for c in range(_COLOURS) if counts[c * _COLUMNS + h]) for h in range(6)]
    order = sorted((h for h in range(_COLUMNS) if size[h]), key=lambda h: -kinds[h])
    # (column, colour entered with (-1: the stack starts here), visited, absorbed, junction
    # tiles used per type), columns visited since the value last grew, the value so far.
    Item = tuple[tuple[int, int, int, int, tuple[int, ...]], int, int]
    stack: list[Item] = [((h, -1, 1 << h, 0, (0,) * len(counts)), 1 << h, 0) for h in order]
    seen: set[tuple[int, int, int, int, tuple[int, ...]]] = set()
    while stack:
        state, quiet, val0 = stack.pop()
        if state in seen or _bound(counts, size, state) <= best:
            continue
        seen.add(state)
        h, a, visited, absorbed, used = state
        old: list[Item] = []
        new: list[Item] = []
        for g in _NEIGHBOURS[h]:
            for k in range(_COLOURS):
                j = k * _COLUMNS + g
                if used[j] >= counts[j]:
                    continue
                i = k * _COLUMNS + h
                exits: list[tuple[int, list[int]]] = []
                if k == a:  # pass straight through the entry tile
                    exits.append((absorbed, list(used)))
                # leave by another tile (needless in a column already absorbed)
                if used[i] < counts[i] and not (k == a and absorbed >> h & 1):
                    u = list(used)
                    u[i] += 1
                    exits.append((absorbed | (1 << h), u))
                for ab, u in exits:
                    u[j] += 1
                    vis = visited | (1 << g)
                    val = _value(size, vis, ab | (1 << g), u)  # the stack ends in g
                    if val > best:
                        best = val
                        if best == total:
                            return best
                    now = _value(size, vis, ab, u)
                    if now > val0:
                        q = 1 << g
                    elif quiet >> g & 1:
                        continue  # a loop that gained nothing
                    else:
                        q = quiet | (1 << g)
                    (old if visited >> g & 1 else new).append(((g, k, vis, ab, tuple(u)), q, now))
        stack.extend(old)
        new.sort(key=lambda e: -kinds[e[0][0]])  # the poorest new column is tried first
        stack.extend(new)
    return best
