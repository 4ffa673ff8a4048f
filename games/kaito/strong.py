"""The ``strong`` Kaito bot: alpha-beta (negamax) with iterative deepening on a node budget.

Search
    Negamax with alpha-beta pruning, a transposition table (Zobrist keys, best move plus a
    bounded score per position) and iterative deepening from depth 1: each iteration starts with
    the best line of the previous one. ``budget`` counts nodes (moves made on the search board,
    default :attr:`StrongBot.default_budget`), never seconds, so the bot is reproducible; when
    the budget runs out in the middle of an iteration, the bot plays the best move of the last
    finished iteration (depth 1 always finishes), unless a root move already beat that move in
    the unfinished iteration (the previous best is searched first, so its new score is known).
    Wins found sooner score higher and losses later score higher, so the bot takes the quickest
    win and delays a loss. Forced moves are followed past the horizon: at the nominal depth a
    side with a single landing cell moves on, up to :attr:`StrongBot.forced_plies` (4) extra
    plies, since a forced line (say, into one's own last Kabuto) is where a static score is
    least reliable. Deepening stops at a win or loss in k plies only once the nominal depth
    reaches k (the full-width search then rules out a quicker win): a win proven through the
    extension alone may have a quicker one (issue 33: a4-a3 instead of the win in 2, a4-c4).

Moves searched
    Every landing cell, each without a trade and, when a trade is open, with one payment per
    item bought: the payment of the smallest total, ties to the fewest Mons (handing over more
    than the least total or more tiles than needed never helps the payer). At the root the bot
    then plays the legal :class:`~games.kaito.rules.Move` with that payment.

Evaluation (from the side to move, in points; a finished game is +-``WIN``)
    - material: ``katana_value[n]`` and ``kabuto_value[n]`` for the ``n`` Katana and Kabuto a
      side has on the grid, mine minus the opponent's; both tables are concave: a tile is worth
      more the fewer are left (the second Katana adds 150, the seventh 15), since losing all of
      either loses the game (with one left a side is a single capture from losing, which the
      search and the safety term see);
    - safety: a side whose last Kabuto or last Katana can be reached by the side to move is
      lost: the side to move wins at once if it is the opponent's (scored as a win one ply
      later); each opponent Kabuto or Katana within reach adds ``reach_kabuto`` /
      ``reach_katana`` (pressure: the opponent may soon be forced to guard it);
    - mobility: ``mobility`` per landing cell of the side to move (a side without one loses);
    - Mons bank: ``bank`` per Mons point a side holds (capped at 10, two trades' worth), plus
      ``rescue_kabuto`` when it can pay 5 and the opponent holds one of its Kabuto (a trade is
      ready), else ``rescue_katana`` when it can pay 4 for a held Katana.

Tie-breaks are seeded: the root moves are shuffled by ``Rng.from_seed(seed, "kaito-strong",
state digest)`` before the (stable) move ordering, and the first move to reach the best score
is kept, so the same seed and state always give the same move.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from tablesim.games.core import Bot, GameError
from tablesim.games.kaito.rules import (
    COLOUR_LETTERS,
    KABUTO,
    KATANA,
    RAYS,
    KaitoState,
    Move,
    minimal_payments,
)
from tablesim.games.rng import Rng

WIN = 1_000_000  # the score of a won game (minus the plies it takes)


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights, in points (see the module docstring). The value tables are
    indexed by the number of tiles on the grid (0 is a lost game)."""

    katana_value: tuple[int, ...] = (0, 0, 150, 240, 300, 340, 365, 380)  # by Katana on grid
    kabuto_value: tuple[int, ...] = (0, 0, 330, 480)  # by Kabuto on the grid
    reach_kabuto: int = 25
    reach_katana: int = 8
    mobility: int = 6
    bank: int = 6
    rescue_kabuto: int = 140
    rescue_katana: int = 50


DEFAULT_WEIGHTS = Weights()

# Tile codes on the search board: colour * 8 + kind (0 = gap).
_S, _H = 1, 2  # Katana, Kabuto; Mons of value v have kind 2 + v (3, 4, 5)
_KIND = {KATANA: _S, KABUTO: _H, "1": 3, "2": 4, "3": 5}
_EXACT, _LOWER, _UPPER = 0, 1, 2


def _lines() -> tuple[tuple[int, ...], ...]:
    """For every cell, the other cells of its row and column."""
    return tuple(tuple(c for ray in rays for c in ray) for rays in RAYS)


_LINES = _lines()


def _zobrist() -> tuple[list[list[int]], list[int], list[list[int]]]:
    rng = Rng.from_seed(0, "kaito-zobrist")

    def draw() -> int:
        nonlocal rng
        v, rng = rng.next_u64()
        return v

    board = [[draw() for _ in range(16)] for _ in range(36)]
    kaito = [draw() for _ in range(36)]
    # Holdings: per seat, 5 counters (hostage Katana, hostage Kabuto, bank 1, 2, 3) x 8 values.
    held = [[draw() for _ in range(8)] for _ in range(10)]
    return board, kaito, held


_Z_BOARD, _Z_KAITO, _Z_HELD = _zobrist()
_Z_PLAYER = 0x9E3779B97F4A7C15


@cache
def _best_payment(n1: int, n2: int, n3: int, price: int) -> tuple[int, int, int] | None:
    """``(n1, n2, n3)`` Mons of each value paying ``price`` from a bank of ``n1`` 1-Mons,
    ``n2`` 2-Mons and ``n3`` 3-Mons: of the minimal payments, the one of least total, then of
    fewest Mons; None when the bank cannot pay."""
    pays = minimal_payments([1] * n1 + [2] * n2 + [3] * n3, price)
    if not pays:
        return None
    best = min(pays, key=lambda p: (sum(p), len(p), p))
    return (best.count(1), best.count(2), best.count(3))


class _OutOfBudget(Exception):
    pass


# A search move: (target cell, bought kind 0 / _S / _H, payment (n1, n2, n3) or None).
SearchMove = tuple[int, int, "tuple[int, int, int] | None"]


class _Search:
    """A mutable copy of a play-phase position with make/unmake and the alpha-beta search."""

    def __init__(
        self,
        state: KaitoState,
        budget: int,
        weights: Weights = DEFAULT_WEIGHTS,
        forced_plies: int = 4,
    ) -> None:
        if state.kaito is None:
            raise GameError("kaito strong bot: the search starts once the Kaito is placed")
        self.w = weights
        # Beyond the nominal depth, a side with a single landing cell is searched on, up to
        # this many plies (forced lines are where a static score is least reliable).
        self.forced_plies = forced_plies
        self.first_tile = state.config.movement == "first-tile"
        self.capture_check = state.config.end_check == "capture"
        self.board = [0] * 36
        self.on = [[0] * 3 for _ in range(2)]  # on[colour][kind] for kind 1 (S), 2 (H)
        for cell, tile in enumerate(state.board):
            if tile is not None:
                code = COLOUR_LETTERS.index(tile[0]) * 8 + _KIND[tile[1]]
                self.board[cell] = code
                if code & 7 <= _H:
                    self.on[code >> 3][code & 7] += 1
        # hostage[c][kind]: colour-c Katana/Kabuto held by the opponent; bank[c][v]: opponent
        # Mons of value v held by colour c.
        self.hostage = [[0] * 3 for _ in range(2)]
        self.bank = [[0] * 4 for _ in range(2)]
        for seat in (0, 1):
            for tile in state.held[seat]:
                kind = _KIND[tile[1]]
                if kind <= _H:
                    self.hostage[1 - seat][kind] += 1
                else:
                    self.bank[seat][kind - 2] += 1
        self.kaito = state.kaito
        self.player = state.player
        self.key = self._full_key()
        self.budget = budget
        self.nodes = 0
        self.table: dict[int, tuple[int, int, int, SearchMove | None]] = {}
        # (target, tile, Kaito cell before, bought kind, payment, key before) per move made
        self.undo: list[tuple[int, int, int, int, tuple[int, int, int] | None, int]] = []

    # ---- keys ------------------------------------------------------------------------
    def _held_key(self, seat: int) -> int:
        k = (
            _Z_HELD[seat * 5][self.hostage[seat][_S]]
            ^ _Z_HELD[seat * 5 + 1][self.hostage[seat][_H]]
        )
        for v in (1, 2, 3):
            k ^= _Z_HELD[seat * 5 + 1 + v][self.bank[seat][v]]
        return k

    def _full_key(self) -> int:
        k = _Z_KAITO[self.kaito] ^ self._held_key(0) ^ self._held_key(1)
        for cell, code in enumerate(self.board):
            if code:
                k ^= _Z_BOARD[cell][code]
        return k ^ (_Z_PLAYER if self.player else 0)

    # ---- moves -----------------------------------------------------------------------
    def targets(self) -> list[int]:
        """Cells with a tile the Kaito can land on."""
        board, k = self.board, self.kaito
        if not self.first_tile:
            return [c for c in _LINES[k] if board[c]]
        out = []
        for ray in RAYS[k]:
            for c in ray:
                if board[c]:
                    out.append(c)
                    break
        return out

    def lost(self, colour: int) -> bool:
        """True if ``colour`` has no Katana or no Kabuto on the grid."""
        on = self.on[colour]
        return not on[_S] or not on[_H]

    def moves(self, targets: list[int]) -> list[SearchMove]:
        """Search moves for the side to move: each target, plus one trade per item bought."""
        me = self.player
        out: list[SearchMove] = []
        hostage = self.hostage[me]
        bank = self.bank[me]
        can_trade = hostage[_S] or hostage[_H]
        for t in targets:
            out.append((t, 0, None))
            if not can_trade:
                continue
            code = self.board[t]
            colour, kind = code >> 3, code & 7
            if self.capture_check and kind <= _H and self.on[colour][kind] == 1:
                continue  # the capture ends the game at once
            gained = colour != me and kind > _H
            if gained:
                bank[kind - 2] += 1
            total = bank[1] + 2 * bank[2] + 3 * bank[3]
            if total >= 4:
                for buy, price in ((_H, 5), (_S, 4)):
                    if hostage[buy] and total >= price:
                        pay = _best_payment(bank[1], bank[2], bank[3], price)
                        if pay is not None:
                            out.append((t, buy, pay))
            if gained:
                bank[kind - 2] -= 1
        return out

    def make(self, move: SearchMove) -> None:
        """Play ``move`` on the search board (``unmake`` takes it back)."""
        t, buy, pay = move
        me = self.player
        board = self.board
        code = board[t]
        self.undo.append((t, code, self.kaito, buy, pay, self.key))
        key = self.key ^ _Z_KAITO[self.kaito] ^ _Z_KAITO[t] ^ _Z_PLAYER ^ _Z_BOARD[t][code]
        board[t] = 0
        colour, kind = code >> 3, code & 7
        if kind <= _H:
            self.on[colour][kind] -= 1
            if colour != me:
                hostage = self.hostage[colour]
                n, z = hostage[kind], _Z_HELD[colour * 5 + kind - 1]
                key ^= z[n] ^ z[n + 1]
                hostage[kind] = n + 1
        elif colour != me:
            bank, v = self.bank[me], kind - 2
            n, z = bank[v], _Z_HELD[me * 5 + 1 + v]
            key ^= z[n] ^ z[n + 1]
            bank[v] = n + 1
        if buy:
            bank = self.bank[me]
            for v in (1, 2, 3):
                paid = pay[v - 1]  # type: ignore[index]
                if paid:
                    n, z = bank[v], _Z_HELD[me * 5 + 1 + v]
                    key ^= z[n] ^ z[n - paid]
                    bank[v] = n - paid
            hostage = self.hostage[me]
            n, z = hostage[buy], _Z_HELD[me * 5 + buy - 1]
            key ^= z[n] ^ z[n - 1]
            hostage[buy] = n - 1
            mine = me * 8 + buy
            board[t] = mine
            self.on[me][buy] += 1
            key ^= _Z_BOARD[t][mine]
        self.kaito = t
        self.player = 1 - me
        self.key = key

    def unmake(self) -> None:
        """Take back the last ``make``."""
        t, code, kaito, buy, pay, key = self.undo.pop()
        self.player = me = 1 - self.player
        if buy and pay is not None:  # a buy always carries its payment
            bank = self.bank[me]
            bank[1] += pay[0]
            bank[2] += pay[1]
            bank[3] += pay[2]
            self.hostage[me][buy] += 1
            self.on[me][buy] -= 1
        colour, kind = code >> 3, code & 7
        if kind <= _H:
            self.on[colour][kind] += 1
            if colour != me:
                self.hostage[colour][kind] -= 1
        elif colour != me:
            self.bank[me][kind - 2] -= 1
        self.board[t] = code
        self.kaito = kaito
        self.key = key

    # ---- evaluation ------------------------------------------------------------------
    def _bank_term(self, colour: int) -> int:
        bank = self.bank[colour]
        total = bank[1] + 2 * bank[2] + 3 * bank[3]
        w = self.w
        value = w.bank * min(total, 10)
        hostage = self.hostage[colour]
        if hostage[_H] and total >= 5:
            value += w.rescue_kabuto
        elif hostage[_S] and total >= 4:
            value += w.rescue_katana
        return value

    def evaluate(self, targets: list[int], ply: int) -> int:
        """Static score for the side to move (see the module docstring)."""
        w = self.w
        me = self.player
        opp = 1 - me
        on_me, on_opp = self.on[me], self.on[opp]
        board = self.board
        reach = 0
        for t in targets:
            code = board[t]
            if code >> 3 == opp:
                kind = code & 7
                if kind == _H:
                    if on_opp[_H] == 1:
                        return WIN - ply - 1
                    reach += w.reach_kabuto
                elif kind == _S:
                    if on_opp[_S] == 1:
                        return WIN - ply - 1
                    reach += w.reach_katana
        score = (
            w.katana_value[on_me[_S]]
            - w.katana_value[on_opp[_S]]
            + w.kabuto_value[on_me[_H]]
            - w.kabuto_value[on_opp[_H]]
        )
        score += self._bank_term(me) - self._bank_term(opp)
        return score + reach + w.mobility * len(targets)

    # ---- search ----------------------------------------------------------------------
    def _order(self, moves: list[SearchMove], best: SearchMove | None) -> list[SearchMove]:
        me = self.player
        board, on = self.board, self.on

        def key(m: SearchMove) -> int:
            if m == best:
                return -1000
            code = board[m[0]]
            colour, kind = code >> 3, code & 7
            if colour != me:
                if kind <= _H:
                    k = 0 if on[colour][kind] == 1 else (10 if kind == _H else 20)
                else:
                    k = 30 + (5 - kind)
            else:
                k = 60 if kind > _H else (80 if kind == _S else 90)
            return k - (5 if m[1] else 0)

        return sorted(moves, key=key)

    def negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """Score of the position for the side to move, searched ``depth`` plies."""
        me = self.player
        if self.lost(me):
            return -(WIN - ply)
        if self.lost(1 - me):
            return WIN - ply
        targets = self.targets()
        if not targets:
            return -(WIN - ply)
        if depth <= 0 and (len(targets) > 1 or depth <= -self.forced_plies):
            return self.evaluate(targets, ply)
        alpha0 = alpha
        entry = self.table.get(self.key)
        best_move = None
        if entry is not None:
            e_depth, e_flag, e_score, best_move = entry
            if e_depth >= depth:
                if e_flag == _EXACT:
                    return e_score
                if e_flag == _LOWER and e_score >= beta:
                    return e_score
                if e_flag == _UPPER and e_score <= alpha:
                    return e_score
        best = -WIN - 1
        chosen: SearchMove | None = None
        for move in self._order(self.moves(targets), best_move):
            self.nodes += 1
            if self.nodes > self.budget:
                raise _OutOfBudget
            self.make(move)
            score = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            self.unmake()
            if score > best:
                best, chosen = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        flag = _EXACT
        if best <= alpha0:
            flag = _UPPER
        elif best >= beta:
            flag = _LOWER
        self.table[self.key] = (depth, flag, best, chosen)
        return best

    def root(self, order: list[SearchMove], max_depth: int) -> tuple[SearchMove, int, int]:
        """Iterative deepening over the root moves in ``order`` (already tie-shuffled).

        Returns the best move of the deepest finished iteration (or a move that beat it in the
        unfinished one), its score and the depth finished.
        """
        best_move, best_score, done = order[0], -WIN - 1, 0
        budget = self.budget
        for depth in range(1, max_depth + 1):
            if depth == 1:
                self.budget = 1 << 62  # depth 1 always finishes
            moves = [best_move] + [m for m in order if m != best_move] if done else order
            alpha = -WIN - 1
            it_best, it_score = moves[0], -WIN - 1
            try:
                for move in moves:
                    self.nodes += 1
                    if self.nodes > self.budget:
                        raise _OutOfBudget
                    self.make(move)
                    try:
                        score = -self.negamax(depth - 1, -WIN - 1, -alpha, 1)
                    finally:
                        self.unmake()
                    if score > it_score:
                        it_best, it_score = move, score
                        alpha = max(alpha, score)
            except _OutOfBudget:
                # The board is left mid-line (deeper levels were not taken back): stop here.
                # A move that beat the previous best in this unfinished iteration did so with
                # an exact score (the root window is open above), so it is kept.
                if it_best != moves[0]:
                    best_move, best_score = it_best, it_score
                break
            finally:
                self.budget = budget
            best_move, best_score, done = it_best, it_score, depth
            if WIN - abs(best_score) <= depth:
                # A win or loss in k <= depth plies, proven by the full-width search: no
                # quicker win (or longer defence) exists. One proven only through the forced-
                # move extension (k > depth) may have a quicker win: search on.
                break
        return best_move, best_score, done


def _to_move(state: KaitoState, move: SearchMove) -> Move:
    """The legal Move for a search move (the payment written as Mons values)."""
    t, buy, pay = move
    if not buy:
        return Move("move", (t,))
    assert pay is not None
    values = (3,) * pay[2] + (2,) * pay[1] + (1,) * pay[0]
    name = "kabuto" if buy == _H else "katana"
    result = Move("move", (t,), name, values)
    if result not in state.move_set:  # pragma: no cover - a bug, not bad input
        raise GameError(f"kaito strong bot: search move {move} is not legal")
    return result


@dataclass(frozen=True)
class SearchReport:
    """What one decision searched: the move, its score, the depth finished and nodes used."""

    move: Move
    score: int
    depth: int
    nodes: int


class StrongBot(Bot[KaitoState, Move]):
    """Alpha-beta with iterative deepening on a node budget (see the module docstring)."""

    name = "strong"
    default_budget = 20000
    weights = DEFAULT_WEIGHTS
    forced_plies = 4

    def choose(self, state: KaitoState) -> Move:
        """The best move found for the player to move."""
        return self.search(state).move

    def search(self, state: KaitoState) -> SearchReport:
        """Search ``state`` and report the chosen move, its score, depth and nodes."""
        moves = self.game.legal_moves(state)
        if not moves:
            raise GameError("kaito strong bot asked to move in a finished game")
        budget = self.default_budget if self.budget is None else max(1, int(self.budget))
        if len(moves) == 1:
            return SearchReport(moves[0], 0, 0, 0)
        rng = Rng.from_seed(self.seed, "kaito-strong", self.game.state_digest(state))
        if state.phase == "place":
            # Black places the Kaito: search each placement from red's side, keep the one
            # worst for red.
            best: SearchReport | None = None
            nodes = 0
            placements, rng = rng.shuffle(moves)  # seeded tie-break between equal placements
            for move in placements:
                after = self.game.apply(state, move)
                report = self._search_play(after, max(1, budget // len(moves)), rng)
                nodes += report.nodes
                if best is None or -report.score > best.score:
                    best = SearchReport(move, -report.score, report.depth, 0)
            assert best is not None
            return SearchReport(best.move, best.score, best.depth, nodes)
        return self._search_play(state, budget, rng)

    def _search_play(self, state: KaitoState, budget: int, rng: Rng) -> SearchReport:
        search = _Search(state, budget, self.weights, self.forced_plies)
        targets = search.targets()
        shuffled, _ = rng.shuffle(search.moves(targets))
        order = search._order(list(shuffled), None)
        tiles = sum(1 for t in state.board if t is not None)
        move, score, depth = search.root(order, max(1, tiles + 8))
        return SearchReport(_to_move(state, move), score, depth, search.nodes)


__all__ = ["DEFAULT_WEIGHTS", "SearchReport", "StrongBot", "Weights"]
