"""Katoiz game type 3, Stapeltje-four: move tiles over the board to your home stack.

Rules as implemented (each reading quoted in ``docs/rules/katoiz.md``):

- 36 picture tiles on the 6x6 board; of the four duplicates set aside, each player gets one as
  their home stack, placed off the board beside a corner: seat order south (home below
  ``a1``), west (left of ``a6``), north (above ``f6``), east (right of ``f1``); two players
  sit south and north. A player's *position* is the corner tile and its 8 neighbours
  (``position`` 4: its orthogonal ones), grown by one border at target heights 6 and 7; the
  home stack belongs to it.
- A turn rolls both dice (``colour_ladder``, level 5: the ladder colour of the turn instead).
  The player picks the top tile of a stack that shows the roll, not the tile the previous
  player moved, and moves it along a route of steps onto neighbouring stacks: a step
  forwards/backwards/sideways needs one match with the top tile there, a diagonal step two;
  empty cells cannot be entered; the route ends on the board or on the own home stack. The
  tile must end nearer (king distance) to the own home than it started, and (``farthest``)
  as near as that tile can legally get.
- Heights: no move may make the height difference of two orthogonally neighbouring stacks
  (the home stack neighbours its corner tile) more than two, or larger when already more
  than two, unless one of the two lies in an opponent's position. When such a difference
  touches the mover's own position, the mover must play a move that shrinks it if one exists.
- A player without a legal move is blocked (``pass``); a blocked turn moves no tile, so the
  next player may move any tile ("moved by the previous player" needs a move).
- Ends as printed per level: a home stack reaches ``height`` (4; level 2: 5, 6 or 7), that
  player wins; level 3 (``highest_stack``): no target, three blocked turns in a row or the
  ``time_limit``, highest home stack wins; level 4 (``clock``): a clock per player (a
  person's turn at the terminal or in the window costs its real seconds, stamped as
  ``@SECS``; other turns ``THINK_SECONDS`` plus ``STEP_SECONDS`` per king step of the moved
  tile); a player whose clock reaches 0 is out; with nobody at the target the last one out
  wins, never a player already out while another still has time; alone, the game is the
  highest stack before the clock runs out. Our guards: a *stalemate* (after a blocked turn,
  no roll lets any player still in move a tile: the game could never go on) and a *dead
  position* (after a blocked turn, no sequence of moves can bring a home stack to the target)
  are draws at levels 1-2; at level 3 the highest home stack wins; under the clocks the
  players still in pass until their clocks run out, and the last one out wins. Three blocked
  turns in a row end a solo game without a clock (it has no other end). ``max_turns`` is a
  safety net for unattended bot games: it never names a winner.
"""

from __future__ import annotations

import heapq
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache, cached_property, lru_cache
from typing import Any

from tablesim.games.core import (
    GameError,
    IllegalMoveError,
    MoveParseError,
    Result,
    StateFormatError,
    json_int,
    json_ints,
)
from tablesim.games.katoiz.components import (
    BLANK_FACE,
    CELLS,
    KING,
    MATCH,
    ORTHOGONAL,
    PICTURE_TILES,
    PURPLE,
    SIDE,
    Move,
    cell_name,
    deal_board,
    fits,
    game_over_line,
    json_roll,
    parse_cell,
    roll_dice,
    roll_text,
    seat_name,
    tile_code,
    tile_said,
    unique_top,
    xy,
)
from tablesim.games.katoiz.config import STEP_SECONDS, THINK_SECONDS, KatoizConfig
from tablesim.games.rng import Rng

Position = tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]
"""A Stapeltje board: the stacks on the cells and the home stacks."""
HOME = CELLS  # a move's ``dst`` for the mover's own home stack
BLOCKED_TO_END = 3
PASS = Move("pass")
MAX_DIFF = 2

# (side name, corner cell, home x, home y) in seating order.
SIDES: tuple[tuple[str, int, int, int], ...] = (
    ("south", 0, 0, -1),
    ("west", 30, -1, 5),
    ("north", 35, 5, 6),
    ("east", 5, 6, 0),
)
SEATING: dict[int, tuple[int, ...]] = {1: (0,), 2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}


@dataclass(frozen=True)
class Geometry:
    """Precomputed board facts for one seating. Index ``36 + seat`` is that seat's home.

    ``dist[p][i]``: king distance from cell ``i`` to seat ``p``'s home; ``steps[p][u]``: the
    ``(v, matches needed)`` steps a tile moving for ``p`` may take from cell ``u``;
    ``hnb[i]``: height neighbours; ``pos[p]``: seat ``p``'s position (home included);
    ``foreign[p]``: cells of the other seats' positions.
    """

    sides: tuple[int, ...]
    homes_xy: tuple[tuple[int, int], ...]
    dist: tuple[tuple[int, ...], ...]
    steps: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    hnb: tuple[tuple[int, ...], ...]
    pos: tuple[frozenset[int], ...]
    foreign: tuple[frozenset[int], ...]


@cache
def geometry(players: int, position: str, big: bool) -> Geometry:
    """The geometry for ``players`` seats, a position of ``position`` (``8``/``4``) cells'
    neighbourhood, grown by a border when ``big`` (target 6 or 7)."""
    sides = SEATING[players]
    homes_xy = tuple((SIDES[s][2], SIDES[s][3]) for s in sides)
    dist, steps, pos = [], [], []
    for p, (hx, hy) in enumerate(homes_xy):
        d = [max(abs(x - hx), abs(y - hy)) for x, y in map(xy, range(CELLS))] + [99] * players
        d[CELLS + p] = 0
        dist.append(tuple(d))
        st = []
        for u in range(CELLS):
            ux, uy = xy(u)
            out = [(v, 1 if v in ORTHOGONAL[u] else 2) for v in KING[u]]
            if max(abs(ux - hx), abs(uy - hy)) == 1:
                out.append((CELLS + p, 1 if abs(ux - hx) + abs(uy - hy) == 1 else 2))
            st.append(tuple(out))
        steps.append(tuple(st))
        cx, cy = xy(SIDES[sides[p]][1])
        reach = 2 if big else 1
        cells = {
            v
            for v in range(CELLS)
            if (max if position == "8" else _manhattan)(abs(xy(v)[0] - cx), abs(xy(v)[1] - cy))
            <= reach
        }
        pos.append(frozenset(cells | {CELLS + p}))
    hnb: list[list[int]] = [list(ORTHOGONAL[i]) for i in range(CELLS)] + [
        [] for _ in range(players)
    ]
    for p in range(players):
        corner = SIDES[sides[p]][1]
        hnb[corner].append(CELLS + p)
        hnb[CELLS + p].append(corner)
    foreign = tuple(
        frozenset().union(*(pos[q] for q in range(players) if q != p)) for p in range(players)
    )
    return Geometry(
        sides,
        homes_xy,
        tuple(dist),
        tuple(steps),
        tuple(tuple(h) for h in hnb),
        tuple(pos),
        foreign,
    )


def _manhattan(dx: int, dy: int) -> int:
    return dx + dy


def geo(cfg: KatoizConfig) -> Geometry:
    """The geometry of a config."""
    return geometry(cfg.players, cfg.position, cfg.height >= 6)


@dataclass(frozen=True)
class StapelState:
    """A Stapeltje-four position.

    ``stacks[cell]``: the tiles on a cell, bottom first; ``homes[seat]``: home stacks;
    ``aside``: duplicates not used as homes; ``last``: the tile moved in the previous turn
    (-1); ``blocked``: blocked turns in a row; ``clocks``: seconds left per seat (empty
    without clocks); ``out``: seats whose clock ran out, in order; ``elapsed``: simulated
    seconds played; ``winner``: the seat that reached the target height, or -1.
    """

    config: KatoizConfig
    rng: Rng
    roll: tuple[int, int] | None
    stacks: tuple[tuple[int, ...], ...]
    homes: tuple[tuple[int, ...], ...]
    aside: tuple[int, ...]
    last: int = -1
    seat: int = 0
    turn: int = 0
    blocked: int = 0
    clocks: tuple[int, ...] = ()
    out: tuple[int, ...] = ()
    elapsed: int = 0
    winner: int = -1
    history: tuple[Position, ...] = field(default=(), compare=False, repr=False)
    """The board (stacks, homes) after each tile move of this game, for everyone at the table
    to see (the smart bot counts repetitions in it); not part of the saved position: a
    position read from text starts with none."""

    def repeats(self, position: Position) -> int:
        """How often ``position`` followed a tile move in this game so far."""
        return self.history.count(position)

    @cached_property
    def moves(self) -> tuple[Move, ...]:
        """The legal moves (computed once per state)."""
        return _legal(self)

    @cached_property
    def stalemate(self) -> bool:
        """After a blocked turn: whether no roll lets any player still in the game move.

        Any colour and any shape (purple and blank) allows every tile the dice or the ladder
        could ever allow, and the only other rule that removes moves (undo a height
        difference) picks among moves, so if that roll gives no seat a move, none will.
        """
        if self.blocked == 0 or self.winner >= 0:
            return False
        free = replace(self, roll=(PURPLE, BLANK_FACE), last=-1, config=_any_roll(self.config))
        return all(
            _moves_for(replace(free, seat=q)) == (PASS,)
            for q in range(self.config.players)
            if q not in self.out
        )

    @cached_property
    def dead(self) -> bool:
        """After a blocked turn at a level that ends only at the target (no clock, not level
        3): whether no sequence of moves, by any player with any roll, can bring a home stack
        to the target (:func:`target_reachable`): the printed end can never come."""
        cfg = self.config
        if self.blocked == 0 or self.winner >= 0 or cfg.clock or not target_active(cfg):
            return False
        return not _reachable(cfg, self.stacks, self.homes)

    def heights(self) -> list[int]:
        """Heights of cells 0..35 then of each home stack."""
        return [len(s) for s in self.stacks] + [len(h) for h in self.homes]

    def requirement(self) -> tuple[int, int] | None:
        """What the moved tile must show: the dice, or the ladder colour (level 5)."""
        cfg = self.config
        if cfg.colour_ladder:
            return (cfg.ladder_colours[self.turn % 5], -1)
        return self.roll


def _any_roll(cfg: KatoizConfig) -> KatoizConfig:
    """The config with the dice in charge (the ladder off), for the stalemate test."""
    return replace(cfg, colour_ladder=False) if cfg.colour_ladder else cfg


def three_blocked_ends(cfg: KatoizConfig) -> bool:
    """Whether three blocked turns in a row end the game: level 3 (``highest_stack``) prints it;
    a solo game without a clock has no other end (our reading)."""
    return cfg.highest_stack or (cfg.players == 1 and not cfg.clock)


def target_active(cfg: KatoizConfig) -> bool:
    """Whether reaching ``cfg.height`` ends the game (not at level 3, not alone)."""
    return not cfg.highest_stack and cfg.players > 1


STALEMATE = "stalemate: no roll lets any player move a tile"
CAPPED = "the turn cap ({} turns) was reached: a safety net for unattended bot games, no winner"


def end_kind(state: StapelState) -> str:
    """A finished game's end as one word: ``target``, ``clocks``, ``blocked``, ``stalemate``,
    ``dead``, ``time`` or ``cap`` (``balance`` counts them)."""
    cfg = state.config
    if state.winner >= 0:
        return "target"
    if cfg.clock and len(state.out) == cfg.players:
        return "clocks"
    if three_blocked_ends(cfg) and state.blocked >= BLOCKED_TO_END:
        return "blocked"
    if state.stalemate:
        return "stalemate"
    if state.dead:
        return "dead"
    if cfg.time_limit > 0 and state.elapsed >= cfg.time_limit:
        return "time"
    return "cap"


def end_reason(state: StapelState) -> str:
    """Why a finished game ended (and, where the rulebook prints no end, how it is read)."""
    cfg, kind = state.config, end_kind(state)
    if kind == "target":
        return f"{seat_name(state.winner)}'s home stack reached {cfg.height}"
    if kind == "clocks":
        return "every clock ran out"
    if kind == "blocked":
        return "three blocked turns in a row"
    if kind == "stalemate":
        if cfg.clock and cfg.players > 1:
            return STALEMATE + ": the players still in pass until their clocks run out"
        if cfg.highest_stack or cfg.players == 1:
            return STALEMATE
        return STALEMATE + "; no home stack can reach the target: a draw"
    if kind == "dead":
        return (
            f"no sequence of moves can bring a home stack to {cfg.height} "
            "(the tiles that can still move only shuttle): a draw"
        )
    if kind == "time":
        return f"the playing time ({cfg.time_limit} s) ran out"
    return CAPPED.format(cfg.max_turns)


def passes_until_out(state: StapelState) -> tuple[int, ...]:
    """The order the clocks run out in, the seats already out first, then (after a stalemate:
    nobody can ever move, every turn is a blocked turn costing ``THINK_SECONDS``) the seats
    still in, in the order their clocks would reach 0 passing in turn from ``state.seat``."""
    n = state.config.players
    turn_order = [(state.seat + k) % n for k in range(n)]
    still = [q for q in turn_order if q not in state.out]
    # seat q runs out on its ceil(clock / THINK_SECONDS)-th pass; seats pass in turn order
    key = {q: (-(-max(state.clocks[q], 0) // THINK_SECONDS), i) for i, q in enumerate(still)}
    return (*state.out, *sorted(still, key=lambda q: key[q]))


def _excess(d: int) -> int:
    return d - MAX_DIFF if d > MAX_DIFF else 0


def own_excess(state: StapelState, seat: int) -> int:
    """How far height differences touching ``seat``'s position exceed two, summed."""
    g, h = geo(state.config), state.heights()
    total = 0
    for i in g.pos[seat]:
        for j in g.hnb[i]:
            if j not in g.pos[seat] or i < j:
                total += _excess(abs(h[i] - h[j]))
    return total


@cache
def _feeders(g: Geometry, seat: int) -> tuple[int, int]:
    """``seat``'s two feeder cells: the corner (an orthogonal step home, a height neighbour of
    the home) and the diagonal one (a diagonal step home, two matches)."""
    orth = [
        u for u in range(CELLS) for v, need in g.steps[seat][u] if v == CELLS + seat and need == 1
    ]
    diag = [
        u for u in range(CELLS) for v, need in g.steps[seat][u] if v == CELLS + seat and need == 2
    ]
    return orth[0], diag[0]


def _component(stacks: tuple[tuple[int, ...], ...], cell: int) -> list[int]:
    """The non-empty cells joined to ``cell`` by king steps over non-empty cells (empty when
    ``cell`` is empty). A route steps only onto non-empty stacks and an empty cell never
    refills, so a tile never leaves its component and components only split or shrink."""
    if not stacks[cell]:
        return []
    seen = {cell}
    queue = [cell]
    for u in queue:
        for v in KING[u]:
            if v not in seen and stacks[v]:
                seen.add(v)
                queue.append(v)
    return queue


def corner_bound(
    cfg: KatoizConfig, stacks: tuple[tuple[int, ...], ...], seat: int, part: list[int]
) -> int | None:
    """The highest ``seat``'s corner can ever get (None: no bound), from facts that hold for
    good; ``part`` is the corner's component (:func:`_component`).

    A seat can end a tile on the corner only from a cell of its component farther from that
    seat's home (a tile ends nearer the mover's home than it started). Nobody able to: the
    corner only shrinks. Only the seat itself able to, with an empty height neighbour of the
    corner where the height rule binds for the seat (outside the other seats' positions): the
    corner may not grow past two above that neighbour, nor grow while already higher."""
    g = geo(cfg)
    corner = _feeders(g, seat)[0]
    high = len(stacks[corner])
    if high == 0:
        return 0
    able = [q for q in range(cfg.players) if any(g.dist[q][u] > g.dist[q][corner] for u in part)]
    if not able:
        return high
    if able != [seat]:
        return None
    foreign = g.foreign[seat]
    if corner not in foreign and any(
        n < CELLS and not stacks[n] and n not in foreign for n in g.hnb[corner]
    ):
        return max(high, MAX_DIFF)
    return None


def home_frozen(
    cfg: KatoizConfig, stacks: tuple[tuple[int, ...], ...], homes: tuple[tuple[int, ...], ...],
    seat: int,
) -> bool:  # fmt: skip
    """Whether ``seat``'s home can never reach the target ``T``, by facts that hold for good.

    The home's height neighbour is its corner, both in the seat's own position, where the
    height rule binds: a tile home from the corner needs the corner at ``home`` or more before
    (``T - 1`` for the last tile), one from the diagonal feeder the corner at ``home - 1``
    (``T - 2``). Frozen when:

    - the corner is empty (an empty cell never refills);
    - the tiles of the feeders' component (:func:`_component`; no tile ever enters it) are
      fewer than the ``T - home`` still to arrive plus the ``T - 2`` the corner must keep;
    - the corner's bound (:func:`corner_bound`) is below ``T - 1`` and either the diagonal
      feeder is empty or the bound is below ``T - 2``.
    """
    target = cfg.height
    have = len(homes[seat])
    if have >= target:
        return False
    corner, diagonal = _feeders(geo(cfg), seat)
    if not stacks[corner]:
        return True
    part = _component(stacks, corner)
    if sum(len(stacks[u]) for u in part) < (target - have) + (target - MAX_DIFF):
        return True
    bound = corner_bound(cfg, stacks, seat, part)
    if bound is None or bound >= target - 1:
        return False
    return not stacks[diagonal] or bound < target - MAX_DIFF


@lru_cache(maxsize=4096)
def _reachable(
    cfg: KatoizConfig, stacks: tuple[tuple[int, ...], ...], homes: tuple[tuple[int, ...], ...]
) -> bool:
    """:func:`target_reachable` of a position (cached: blocked turns repeat positions)."""
    return target_reachable(StapelState(cfg, Rng.from_seed(0, "reach"), None, stacks, homes, ()))


REACH_LIMIT = 1000
"""Positions of one seat's corner component searched before the home is taken to be alive: a
guard for the large components of the early game (a dead home there is rare; the search
grows with the component). Full count: how often it answered is in docs/balance-ends.md."""

GUARD_ANSWERS: Counter[int] = Counter()
"""Per level, how often ``REACH_LIMIT`` answered in this process (the full count reports it)."""

DEAD_MEMO = 100_000
"""Positions remembered as proved dead (per process), beyond which the memo starts afresh."""
_dead: dict[tuple[KatoizConfig, int], set[Position]] = {}


def _project(stacks: tuple[tuple[int, ...], ...], corner: int) -> tuple[tuple[int, ...], ...]:
    """The stacks with every cell outside ``corner``'s component emptied.

    No tile crosses between components, and a move inside one looks only at cells of it (its
    route, its ends and their orthogonal neighbours: a non-empty neighbour is in the component,
    an empty one stays empty), so what a home fed from this component can reach does not
    depend on the rest of the board: the projection keeps the search to the tiles that matter
    (the shuttles elsewhere multiplied the positions)."""
    part = set(_component(stacks, corner))
    return tuple(s if i in part else () for i, s in enumerate(stacks))


def _ring_joined(stacks: list[tuple[int, ...]], cell: int) -> bool:
    """Whether the non-empty king neighbours of ``cell`` (just emptied) touch each other by
    king steps among themselves: then emptying it split no component."""
    ring = [v for v in KING[cell] if stacks[v]]
    if not ring:
        return True
    seen = {ring[0]}
    queue = [ring[0]]
    for u in queue:
        for v in KING[u]:
            if v not in seen and v in ring:
                seen.add(v)
                queue.append(v)
    return len(seen) == len(ring)


def _promise(cfg: KatoizConfig, seat: int, position: Position) -> int:
    """How far ``seat``'s home looks from the target: tiles still to bring home plus tiles its
    corner lacks for the last one (the search looks at the most promising first)."""
    stacks, homes = position
    corner = _feeders(geo(cfg), seat)[0]
    return cfg.height - len(homes[seat]) + max(0, cfg.height - 1 - len(stacks[corner]))


def relaxed_moves(
    cfg: KatoizConfig, stacks: tuple[tuple[int, ...], ...], homes: tuple[tuple[int, ...], ...]
) -> list[tuple[int, int, int, int]]:
    """Every ``(seat, tile, src, dst)`` of the search's game: any seat moves any top tile (any
    roll, no tile barred, no undo rule); the same moves as :func:`_moves_for` with the purple
    blank roll and ``undo_rule=False`` for each seat, a tile's route found once for all seats
    (only the home steps differ)."""
    g = geo(cfg)
    n = cfg.players
    h = [len(x) for x in stacks] + [len(x) for x in homes]
    tops = [x[-1] if x else -1 for x in stacks]
    home_tops = [x[-1] for x in homes]
    feeders = [_feeders(g, p) for p in range(n)]
    out: list[tuple[int, int, int, int]] = []
    for s in range(CELLS):
        tile = tops[s]
        if tile < 0:
            continue
        row = MATCH[tile]
        seen = {s}
        queue = [s]
        for u in queue:
            for v in ORTHOGONAL[u]:
                if v not in seen and tops[v] >= 0 and row[tops[v]] >= 1:
                    seen.add(v)
                    queue.append(v)
            for v in KING[u]:
                if v not in seen and tops[v] >= 0 and row[tops[v]] >= 2:
                    seen.add(v)
                    queue.append(v)
        for p in range(n):
            dist = g.dist[p]
            ends = [d for d in seen if dist[d] < dist[s]]
            orth, diag = feeders[p]
            top = row[home_tops[p]]
            if (orth in seen and top >= 1) or (diag in seen and top >= 2):
                ends.append(CELLS + p)
            found = [d for d in ends if _height_ok(h, g.hnb, s, d, g.foreign[p])]
            if cfg.farthest and found:
                best = min(dist[d] for d in found)
                found = [d for d in found if dist[d] == best]
            out.extend((p, tile, s, HOME if d == CELLS + p else d) for d in found)
    return out


def _height_ok(
    h: list[int], hnb: tuple[tuple[int, ...], ...], s: int, d: int, foreign: frozenset[int]
) -> bool:
    """:func:`_height_check`'s answer alone (the search needs no excess), a tile moving from
    ``s`` to ``d`` for a seat whose opponents' positions are ``foreign``."""
    low, high = h[s] - 1, h[d] + 1
    for b in hnb[s]:
        new = abs(low - (high if b == d else h[b]))
        if new > MAX_DIFF and new > abs(h[s] - h[b]) and s not in foreign and b not in foreign:
            return False
    for b in hnb[d]:
        if b == s:
            continue  # that pair was looked at from s
        new = abs(high - h[b])
        if new > MAX_DIFF and new > abs(h[d] - h[b]) and d not in foreign and b not in foreign:
            return False
    return True


def target_reachable(state: StapelState) -> bool:
    """Whether some position reachable from ``state`` has a home stack at the target height:
    :func:`home_reachable` for some seat, asked of the seat's corner component alone (cached:
    a tile shuttled elsewhere leaves the answer alone)."""
    cfg = state.config
    g = geo(cfg)
    return any(
        _home_reachable(cfg, _project(state.stacks, _feeders(g, q)[0]), state.homes, q)
        for q in range(cfg.players)
    )


@lru_cache(maxsize=4096)
def _home_reachable(
    cfg: KatoizConfig, stacks: tuple[tuple[int, ...], ...], homes: tuple[tuple[int, ...], ...],
    seat: int,
) -> bool:  # fmt: skip
    return home_reachable(cfg, stacks, homes, seat)


def home_reachable(
    cfg: KatoizConfig, stacks: tuple[tuple[int, ...], ...], homes: tuple[tuple[int, ...], ...],
    seat: int,
) -> bool:  # fmt: skip
    """Whether some position reachable from this one has ``seat``'s home at the target.

    A search of a game that over-approximates the real one, so a "no" is sound for the real
    one (past ``REACH_LIMIT`` positions of the component the answer is "yes"): each step lets any
    seat move any top tile (any roll, the previous player's tile not barred, the undo-a-height-
    difference rule not applied: it only picks among moves). It stays small because each
    position is cut down to the component of ``seat``'s corner (:func:`_project`), a position
    where the home is frozen (:func:`home_frozen`: frozen stays frozen) is not searched further,
    and every position of a search that found no way is remembered as dead (everything it leads
    to was searched); it looks at the most promising positions first (:func:`_promise`), so a
    live home is found alive soon."""
    corner = _feeders(geo(cfg), seat)[0]
    target = cfg.height
    if len(homes[seat]) >= target:
        return True
    start: Position = (_project(stacks, corner), homes)
    dead = _dead.setdefault((cfg, seat), set())
    if start in dead:
        return False
    seen = {start}
    heap = [(0, 0, start)]
    pushed = popped = 0
    while heap:
        _, _, (here_stacks, here_homes) = heapq.heappop(heap)
        popped += 1
        if popped > REACH_LIMIT:
            GUARD_ANSWERS[cfg.level] += 1
            return True  # a large component: taken to be alive (a guard; see REACH_LIMIT)
        if home_frozen(cfg, here_stacks, here_homes, seat):
            continue  # frozen stays frozen: nothing below this position can win
        for q, tile, src, dst in relaxed_moves(cfg, here_stacks, here_homes):
            st, hs = list(here_stacks), list(here_homes)
            st[src] = st[src][:-1]
            if dst == HOME:
                if q == seat and len(hs[q]) + 1 >= target:
                    return True
                hs[q] = (*hs[q], tile)
            else:
                st[dst] = (*st[dst], tile)
            # the moves stay inside the component; it changes only when a cell empties and
            # its neighbours lose touch with each other
            joined = st[src] or _ring_joined(st, src)
            key = (tuple(st) if joined else _project(tuple(st), corner), tuple(hs))
            if key not in seen and key not in dead:
                seen.add(key)
                pushed += 1
                heapq.heappush(heap, (_promise(cfg, seat, key), pushed, key))
    if len(dead) + len(seen) > DEAD_MEMO:
        dead.clear()
    dead.update(seen)
    return False


def _legal(state: StapelState) -> tuple[Move, ...]:
    if STAPELTJE.is_terminal(state):
        return ()
    return _moves_for(state)


def _moves_for(state: StapelState, undo_rule: bool = True) -> tuple[Move, ...]:
    """The moves of ``state.seat`` under the state's requirement, ``(PASS,)`` when blocked;
    ``undo_rule`` False skips the must-undo-a-height-difference filter."""
    cfg, p = state.config, state.seat
    g = geo(cfg)
    h = state.heights()
    tops = [s[-1] if s else -1 for s in state.stacks] + [hs[-1] for hs in state.homes]
    req = state.requirement()
    dist, steps, hnb = g.dist[p], g.steps[p], g.hnb
    own, foreign = g.pos[p], g.foreign[p]
    home = CELLS + p
    moves: list[tuple[Move, int]] = []
    for s in range(CELLS):
        tile = tops[s]
        if tile < 0 or tile == state.last or not fits(tile, req):
            continue
        row = MATCH[tile]
        seen = {s}
        queue = [s]
        for u in queue:
            for v, need in steps[u]:
                if v in seen:
                    continue
                top = tops[v]
                if top >= 0 and row[top] >= need:
                    seen.add(v)
                    if v != home:
                        queue.append(v)
        best = None
        found: list[tuple[int, int, int]] = []
        for d in seen:
            if dist[d] >= dist[s]:
                continue
            ok, delta = _height_check(h, hnb, s, d, own, foreign)
            if not ok:
                continue
            found.append((dist[d], d, delta))
            best = dist[d] if best is None else min(best, dist[d])
        for dd, d, delta in found:
            if not cfg.farthest or dd == best:
                moves.append((Move("move", tile, s, HOME if d == home else d), delta))
    if not moves:
        return (PASS,)
    if undo_rule and any(delta < 0 for _, delta in moves) and own_excess(state, p) > 0:
        moves = [(m, delta) for m, delta in moves if delta < 0]
    return tuple(sorted(m for m, _ in moves))


def _height_check(
    h: list[int],
    hnb: tuple[tuple[int, ...], ...],
    s: int,
    d: int,
    own: frozenset[int],
    foreign: frozenset[int],
) -> tuple[bool, int]:
    """Whether moving a tile from ``s`` to ``d`` keeps the height rule, and the change of the
    mover's own-position excess."""
    delta = 0
    done = set()
    for a, change in ((s, -1), (d, 1)):
        for b in hnb[a]:
            key = (a, b) if a < b else (b, a)
            if key in done:
                continue
            done.add(key)
            old = abs(h[a] - h[b])
            na = h[a] + change
            nb = h[b] + (1 if b == d else -1 if b == s else 0)
            new = abs(na - nb)
            if new > MAX_DIFF and new > old and a not in foreign and b not in foreign:
                return False, 0
            if a in own or b in own:
                delta += _excess(new) - _excess(old)
    return True, delta


def move_seconds(state: StapelState, move: Move) -> int:
    """Time of a turn on the clock: a person's real seconds where stamped (``move.secs``),
    else simulated, THINK_SECONDS plus STEP_SECONDS per king step moved."""
    if move.secs >= 0:
        return move.secs
    if move.kind == "pass":
        return THINK_SECONDS
    g = geo(state.config)
    p = state.seat
    sx, sy = xy(move.src)
    dx, dy = g.homes_xy[p] if move.dst == HOME else xy(move.dst)
    return THINK_SECONDS + STEP_SECONDS * max(abs(sx - dx), abs(sy - dy))


def _why_illegal(state: StapelState, move: Move) -> str:
    who = seat_name(state.seat)
    if not isinstance(move, Move) or move.kind not in ("move", "pass"):
        return f"katoiz stapeltje: {move!r} is not a Stapeltje move (from-to or pass)"
    if move.kind == "pass":
        return f"katoiz stapeltje: {who} may not pass while a tile can move"
    reason = "is not a legal move"
    if not 0 <= move.src < CELLS or not (0 <= move.dst < CELLS or move.dst == HOME):
        reason = "names a cell off the board"
    elif not state.stacks[move.src]:
        reason = f"starts on {cell_name(move.src)}, which is empty"
    else:
        tile = state.stacks[move.src][-1]
        if tile == state.last:
            reason = f"moves {tile_said(tile)}, the tile the previous player moved"
        elif not fits(tile, state.requirement()):
            reason = f"moves {tile_said(tile)}, which does not show {_req_text(state)}"
        else:
            reason = (
                "has no route of matching steps there, does not end nearer the home stack "
                "(or as near as it can), breaks the height rule, or leaves a height "
                "difference in the own position that could be undone"
            )
    text = STAPELTJE.format_move
    legal = ", ".join(text(state, m) for m in state.moves[:10])
    return f"katoiz stapeltje: {who}'s move {text(state, move)!r} {reason}; legal: {legal}"


def _req_text(state: StapelState) -> str:
    if state.config.colour_ladder:
        return "the ladder colour " + roll_text(state.requirement())
    return roll_text(state.roll)


# ---- the rules, one variant object (move text and JSON among them) -----------------------

_MOVE_RE = re.compile(r"^([a-f][1-6])\s*-\s*([a-f][1-6]|h|home)$")


class Stapeltje:
    """The Stapeltje-four rules: a Katoiz variant (:class:`tablesim.games.katoiz.game.KatoizVariant`)."""

    name = "stapeltje"

    def new_game(self, cfg: KatoizConfig, seed: int) -> StapelState:
        """Deal the board, give each player a duplicate as home stack, roll for seat 0."""
        rng = Rng.from_seed(seed, "katoiz", "stapeltje")
        board, dups, rng = deal_board(rng)
        homes = tuple((t,) for t in dups[: cfg.players])
        roll = None
        if not cfg.colour_ladder:
            roll, rng = roll_dice(rng, True)
        clocks = (cfg.clock_seconds,) * cfg.players if cfg.clock else ()
        return StapelState(
            cfg, rng, roll, tuple((t,) for t in board), homes, dups[cfg.players :], clocks=clocks
        )

    def legal_moves(self, state: StapelState) -> tuple[Move, ...]:
        """Sorted legal moves; ``(pass,)`` for a blocked turn; () at the end."""
        return state.moves

    def is_terminal(self, state: StapelState) -> bool:
        """A winner, every clock out, three blocked turns (level 3), a stalemate, the time limit or
        the turn cap."""
        cfg = state.config
        return (
            state.winner >= 0
            or (cfg.clock and len(state.out) == cfg.players)
            or (three_blocked_ends(cfg) and state.blocked >= BLOCKED_TO_END)
            or state.turn >= cfg.max_turns
            or (cfg.time_limit > 0 and state.elapsed >= cfg.time_limit)
            or state.stalemate
            or state.dead
        )

    def apply(self, state: StapelState, move: Move) -> StapelState:
        """Move the tile (or record a blocked turn), run the clock, roll for the next player."""
        if self.is_terminal(state):
            raise IllegalMoveError(f"katoiz stapeltje: the game is over ({end_reason(state)})")
        if move.secs >= 0 and not (state.config.clock or state.config.time_limit):
            raise IllegalMoveError("katoiz stapeltje: @SECS is for the clocks (level 4) and the "
                                   "playing time (level 3) only")  # fmt: skip
        if replace(move, secs=-1) not in state.moves:
            raise IllegalMoveError(_why_illegal(state, move))
        cfg, p = state.config, state.seat
        stacks, homes = list(state.stacks), list(state.homes)
        last, blocked = -1, state.blocked + 1  # only the previous player's *move* bars a tile
        if move.kind == "move":
            stacks[move.src] = stacks[move.src][:-1]
            if move.dst == HOME:
                homes[p] = (*homes[p], move.tile)
            else:
                stacks[move.dst] = (*stacks[move.dst], move.tile)
            last, blocked = move.tile, 0
        history = state.history
        if move.kind == "move":
            history = (*history, (tuple(stacks), tuple(homes)))
        cost = move_seconds(state, move)
        clocks, out = state.clocks, state.out
        if cfg.clock:
            clocks = clocks[:p] + (clocks[p] - cost,) + clocks[p + 1 :]
        reached = target_active(cfg) and len(homes[p]) >= cfg.height
        won = reached and (not cfg.clock or clocks[p] >= 0)
        if cfg.clock and not won and clocks[p] <= 0:
            out = (*out, p)
        nxt = p
        for k in range(1, cfg.players + 1):
            q = (p + k) % cfg.players
            if q not in out:
                nxt = q
                break
        after = StapelState(
            cfg,
            state.rng,
            None,
            tuple(stacks),
            tuple(homes),
            state.aside,
            last,
            nxt,
            state.turn + 1,
            blocked,
            clocks,
            out,
            state.elapsed + cost,
            p if won else -1,
            history,
        )
        if cfg.colour_ladder or self.is_terminal(after):
            return after
        roll, rng = roll_dice(state.rng, True)
        return StapelState(
            cfg,
            rng,
            roll,
            after.stacks,
            after.homes,
            after.aside,
            last,
            nxt,
            after.turn,
            blocked,
            clocks,
            out,
            after.elapsed,
            after.winner,
            history,
        )

    def result(self, state: StapelState) -> Result:
        """Scores are home stack heights; see the module docstring for the winner."""
        if not self.is_terminal(state):
            raise GameError(f"katoiz stapeltje: the game is not over (turn {state.turn})")
        cfg = state.config
        heights = [len(h) for h in state.homes]
        kind = end_kind(state)
        winners: tuple[int, ...] = ()
        order: tuple[int, ...] = ()
        if cfg.players == 1 or kind == "cap":
            pass  # a solo game names no winner; the turn cap never decides one
        elif kind == "target":
            winners = (state.winner,)
        elif cfg.clock:  # "the winner is the player whose playing time ran out last"
            order = passes_until_out(state)
            winners = (order[-1],)
        elif cfg.highest_stack:  # level 3: "the highest stack at the end of the game"
            winners = unique_top(heights)
        # else a stalemate at levels 1-2: the printed end can never come, a draw
        detail: dict[str, Any] = {"type": "stapeltje", "end": end_reason(state), "homes": heights}
        if cfg.clock:
            detail["clocks"] = list(state.clocks)
            detail["out_order"] = list(state.out)
            if len(order) > len(state.out):
                detail["then_out"] = list(order[len(state.out) :])
        return Result(tuple(float(x) for x in heights), winners, detail)

    def format_move(self, state: StapelState, move: Move) -> str:
        """``b3-a1``, ``b1-home`` or ``pass``; ``@SECS`` after it when a person's seconds
        were stamped (``b3-a1 @12``)."""
        secs = f" @{move.secs}" if move.secs >= 0 else ""
        if move.kind == "pass":
            return "pass" + secs
        dst = "home" if move.dst == HOME else cell_name(move.dst)
        return f"{cell_name(move.src)}-{dst}{secs}"

    def stamp_seconds(self, state: StapelState, move: Move, seconds: float) -> Move:
        """A person's move with the real seconds it took (rounded to whole seconds, as the
        clocks count) where a clock runs: "a clock is used (a chess clock ...)"; unchanged
        without a clock or playing time."""
        cfg = state.config
        # a pass is only legal when nothing can move: the front end plays it for the person
        # (forced_move), so it keeps the simulated THINK_SECONDS
        if not (cfg.clock or cfg.time_limit) or move.secs >= 0 or move.kind == "pass":
            return move
        return replace(move, secs=max(0, int(seconds + 0.5)))

    def parse_move(self, state: StapelState, text: str) -> Move:
        """Parse ``b3-a1``, ``b1-home`` (``b1-h``) or ``pass``, each with an optional
        ``@SECS`` (whole seconds the turn took, as a log of a person's game writes it)."""
        low = text.strip().lower() if isinstance(text, str) else ""
        low, at, secs_text = low.partition("@")
        low = low.strip()
        secs = -1
        if at:
            if not secs_text.strip().isdigit():
                raise MoveParseError(f"katoiz stapeltje: {text!r}: after @ give whole seconds, "
                                     "e.g. b3-a1 @12")  # fmt: skip
            secs = int(secs_text.strip())
        if low == "pass":
            return replace(PASS, secs=secs)
        m = _MOVE_RE.match(low)
        if m is None:
            raise MoveParseError(
                f"katoiz stapeltje: {text!r} is not a move; type from-to (b3-a1, b1-home) or 'pass'"
            )
        src = parse_cell(m.group(1), "katoiz stapeltje")
        dst = HOME if m.group(2) in ("h", "home") else parse_cell(m.group(2), "katoiz stapeltje")
        tile = state.stacks[src][-1] if state.stacks[src] else -1
        return Move("move", tile, src, dst, secs=secs)

    def state_fields(self, state: StapelState) -> dict[str, Any]:
        """The position's own fields."""
        return {
            "roll": None if state.roll is None else list(state.roll),
            "stacks": [list(s) for s in state.stacks],
            "homes": [list(h) for h in state.homes],
            "aside": list(state.aside),
            "last": state.last,
            "seat": state.seat,
            "turn": state.turn,
            "blocked": state.blocked,
            "clocks": list(state.clocks),
            "out": list(state.out),
            "elapsed": state.elapsed,
            "winner": state.winner,
        }

    def state_from_fields(self, cfg: KatoizConfig, rng: Rng, obj: Mapping[str, Any]) -> StapelState:
        """Rebuild and check a position (tiles conserved); raises StateFormatError."""
        raw = obj.get("stacks")
        if not isinstance(raw, list) or len(raw) != CELLS:
            raise StateFormatError(f"katoiz state: 'stacks' must list {CELLS} cells")
        stacks = tuple(
            json_ints(s, f"katoiz state: stacks[{i}]", lo=0, hi=39) for i, s in enumerate(raw)
        )
        rawh = obj.get("homes")
        if not isinstance(rawh, list) or len(rawh) != cfg.players:
            raise StateFormatError(f"katoiz state: 'homes' must list {cfg.players} home stacks")
        homes = tuple(
            json_ints(s, f"katoiz state: homes[{i}]", lo=0, hi=39) for i, s in enumerate(rawh)
        )
        if any(not hs for hs in homes):
            raise StateFormatError("katoiz state: a home stack is never empty")
        aside = json_ints(
            obj.get("aside"), "katoiz state: aside", lo=30, hi=39, length=4 - cfg.players
        )
        tiles = [t for s in stacks for t in s] + [t for hs in homes for t in hs] + list(aside)
        if sorted(tiles) != list(PICTURE_TILES):
            raise StateFormatError(
                "katoiz state: tiles not conserved (board + homes + aside != 40)"
            )
        n = cfg.players
        clocks = json_ints(
            obj.get("clocks"),
            "katoiz state: clocks",
            lo=-(10**7),
            hi=10**7,
            length=n if cfg.clock else 0,
        )
        out = json_ints(obj.get("out"), "katoiz state: out", lo=0, hi=n - 1)
        if len(set(out)) != len(out) or (out and not cfg.clock):
            raise StateFormatError("katoiz state: 'out' lists seats out of time, each once")
        state = StapelState(
            cfg,
            rng,
            json_roll(obj.get("roll")),
            stacks,
            homes,
            aside,
            json_int(obj.get("last"), "katoiz state: last", -1, 39),
            json_int(obj.get("seat"), "katoiz state: seat", 0, n - 1),
            json_int(obj.get("turn"), "katoiz state: turn", 0, 10**6),
            json_int(obj.get("blocked"), "katoiz state: blocked", 0, 10**6),
            clocks,
            out,
            json_int(obj.get("elapsed"), "katoiz state: elapsed", 0, 10**9),
            json_int(obj.get("winner"), "katoiz state: winner", -1, n - 1),
        )
        wants_roll = not cfg.colour_ladder and not self.is_terminal(state)
        if (state.roll is not None) != wants_roll or (state.roll and state.roll[1] < 0):
            raise StateFormatError("katoiz state: 'roll' does not fit the dice rule and the turn")
        return state

    def describe(self, state: StapelState) -> str:
        """The board (top tile, height, position owner), the home stacks and what to move."""
        cfg, g = state.config, geo(state.config)
        rules = [f"target {cfg.height}" if target_active(cfg) else "highest stack"]
        if cfg.clock:
            rules.append(
                f"clocks: a person's turn (at the terminal or in the window) costs the seconds "
                f"it really takes; a bot's turn {THINK_SECONDS} s plus "
                f"{STEP_SECONDS} s per square its tile moves"
            )
        if cfg.colour_ladder:
            rules.append("colour ladder " + cfg.ladder)
        lines = [
            f"Katoiz Stapeltje-four (level {cfg.level}: {', '.join(rules)}), {cfg.players} players"
        ]
        lines.append("cell = top tile, height, :N in player N's position")
        lines.append("    " + " ".join(f"  {ch}   " for ch in "abcdef"))
        owner = {c: str(p + 1) for p in range(cfg.players) for c in g.pos[p] if c < CELLS}
        for y in range(SIDE - 1, -1, -1):
            row = []
            for x in range(SIDE):
                c = x + SIDE * y
                s = state.stacks[c]
                top = tile_code(s[-1]) if s else " . "
                mark = ":" + owner[c] if c in owner else "  "
                row.append(f"{top}{len(s)}{mark}")
            lines.append(f" {y + 1}  " + " ".join(row))
        for p in range(cfg.players):
            name, corner = SIDES[g.sides[p]][0], SIDES[g.sides[p]][1]
            clock = (
                f", clock {state.clocks[p]} s" + (" (out)" if p in state.out else "")
                if cfg.clock
                else ""
            )
            lines.append(
                f"{seat_name(p)} home ({name} of {cell_name(corner)}): "
                f"{' '.join(tile_code(t) for t in state.homes[p])} ({len(state.homes[p])}){clock}"
            )
        if self.is_terminal(state):
            res = self.result(state)
            nobody = "solo game" if cfg.players == 1 else "a draw"
            lines.append(game_over_line(end_reason(state), res.winners, nobody=nobody))
        else:
            last = f"; not {tile_code(state.last)} (moved last)" if state.last >= 0 else ""
            lines.append(
                f"Turn {state.turn + 1}: {seat_name(state.seat)} moves a tile showing "
                f"{_req_text(state)}{last}"
            )
        return "\n".join(lines)


STAPELTJE = Stapeltje()
"""The stapeltje rules, registered in :data:`tablesim.games.katoiz.game.VARIANTS`."""
