"""Katoiz bots: ``smart`` is a one-ply heuristic for each game type (``random`` is generic).

The smart bot scores the position after each legal move with a hand-made evaluation and plays
the best one; ties are broken by a stream seeded from the bot seed and the state digest, so
the same seed and state give the same move. ``budget`` is unused (the bot does no search).

- Stapeltoren: 100 x the height of the mover's highest stack after the move, plus how many
  supply tiles could follow the new top (a flexible top keeps the stack growing).
- 3-set: 1000 x the mover's score, plus 10 x the pieces of a set in the making (a pair of own
  discs sharing a property is worth the number of free tiles that would complete it), minus
  half of the same for the best opponent. It never passes while it can place or move a disc
  (a pass gives the turn away, and three in a row end the game).
- Stapeltje-four: 100 x the home stack, plus 3 x the height of the corner stack (the home can
  be at most two higher), plus the tiles in the own position, minus a point per tile per king
  step from the own home, minus half of the best opponent's; minus 50 for a move that empties
  a corner or a corner's height neighbour in a position (an empty cell stays empty: that home
  is frozen). It never makes a position that has followed two tile moves already (anyone's: the
  table's record, so a tile handed round between seats counts too) while it has another.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from tablesim.games.core import Bot, Game, GameError
from tablesim.games.katoiz.components import CELLS, MATCH, TILES, Move, fits
from tablesim.games.katoiz.stapeltje import SIDES, StapelState, geo
from tablesim.games.katoiz.stapeltoren import TorenState
from tablesim.games.katoiz.state import KatoizState
from tablesim.games.katoiz.threeset import SetState, scores
from tablesim.games.rng import Rng


def _toren_reach(supply: list[int], top: int, need: int, picture: bool) -> float:
    """Expected number (0..6 scale) of dice outcomes that leave a fitting tile matching ``top``
    (each colour face, and with the picture die each of its faces, counted alike)."""
    good = [t for t in supply if MATCH[t][top] >= need]
    if not good:
        return 0.0
    faces = range(6) if picture else (-1,)
    hits = sum(1 for c in range(6) for f in faces if any(fits(t, (c, f)) for t in good))
    return hits / len(faces)


def _toren_value(state: TorenState, move: Move) -> float:
    cfg, seat = state.config, state.seat
    need = 2 if cfg.two_matches else 1
    stacks = [list(s) for s in state.stacks[seat]]
    supply = [t for t in state.supply if t != move.tile]
    if move.kind == "add":
        stacks[move.dst].append(move.tile)
    elif move.kind in ("new", "start"):
        stacks.append([move.tile])
    if not stacks:
        return 0.0
    main = max(stacks, key=len)
    value = 100.0 * len(main) + 10.0 * _toren_reach(supply, main[-1], need, cfg.picture_die)
    if state.starting:  # a starting tile: keep many followers, nothing else to weigh
        return value
    rivals = [max(own, key=len) for p, own in enumerate(state.stacks) if p != seat and own]
    if rivals:
        value -= 5.0 * max(_toren_reach(supply, r[-1], need, cfg.picture_die) for r in rivals)
    return value


_P = TypeVar("_P", TorenState, SetState, StapelState)


def _after(game: Game[KatoizState, Move, Any], state: _P, move: Move) -> _P:
    """The position after ``move``: one of the same game type (class) as ``state``."""
    after = game.apply(state, move)
    if not isinstance(after, type(state)):
        raise GameError(f"katoiz: {type(state).__name__} became {type(after).__name__}")
    return after


def _set_potential(board: list[int], discs: list[int], seat: int, rule: str) -> float:
    own = [c for c in range(CELLS) if discs[c] == seat]
    free = [board[c] for c in range(CELLS) if board[c] >= 0 and discs[c] < 0]
    best = 0.0
    for i in range(len(own)):
        for j in range(i + 1, len(own)):
            a, b = board[own[i]], board[own[j]]
            if rule == "pairwise":
                if MATCH[a][b]:
                    best = max(best, 1.0 + sum(1 for t in free if MATCH[a][t] and MATCH[b][t]))
            else:
                shared = [k for k in range(3) if TILES[a][k] == TILES[b][k]]
                if shared:
                    done = sum(1 for t in free if any(TILES[t][k] == TILES[a][k] for k in shared))
                    best = max(best, 1.0 + done)
    return best + 0.1 * len(own)


def _set_value(game: Game[KatoizState, Move, Any], state: SetState, move: Move) -> float:
    seat = state.seat
    after = _after(game, state, move)
    sc = scores(after)
    rule = state.config.set_rule
    board, discs = list(after.board), list(after.discs)
    mine = 1000.0 * sc[seat] + 10.0 * _set_potential(board, discs, seat, rule)
    others = [
        1000.0 * sc[p] + 10.0 * _set_potential(board, discs, p, rule)
        for p in range(state.config.players)
        if p != seat
    ]
    return mine - 0.5 * max(others, default=0.0)


PROGRESS = 1.0
"""Stapeltje: the evaluation's weight of a king step nearer the own home, per tile."""


def _stapel_eval(state: StapelState, seat: int) -> float:
    g = geo(state.config)
    h = state.heights()
    corner = SIDES[g.sides[seat]][1]
    own = sum(h[c] for c in g.pos[seat] if c < CELLS)
    # every tile on the board, a point per king step nearer this seat's home: without it a
    # tile brought halfway (out of the position) counted nothing, so the bot preferred
    # spoiling an opponent's corner to feeding its own, and games idled to the cap
    far = sum(h[c] * g.dist[seat][c] for c in range(CELLS))
    return 100.0 * len(state.homes[seat]) + 3.0 * h[corner] + own - PROGRESS * far


EMPTIED = 50.0
"""Stapeltje: the cost of emptying a corner or a corner's height neighbour in a position."""


def _feeders(state: StapelState) -> frozenset[int]:
    """Every seat's corner cell and its orthogonal neighbours inside that seat's position.

    A route ends only on a non-empty stack, so an emptied cell stays empty for good: an empty
    corner freezes that home (it may not grow more than two above it), an empty neighbour
    holds the corner at two (inside the own position the height rule binds), and with it the
    home below a target of five. Such a game can only idle to the turn cap."""
    g = geo(state.config)
    cells: set[int] = set()
    for p in range(state.config.players):
        corner = SIDES[g.sides[p]][1]
        cells.add(corner)
        cells.update(n for n in g.hnb[corner] if n < CELLS and n in g.pos[p])
    return frozenset(cells)


def _stapel_value(game: Game[KatoizState, Move, Any], state: StapelState, move: Move) -> float:
    seat = state.seat
    after = _after(game, state, move)
    if after.winner == seat:
        return 1e9
    others = [_stapel_eval(after, p) for p in range(state.config.players) if p != seat]
    value = _stapel_eval(after, seat) - 0.5 * max(others, default=0.0)
    if move.kind == "move" and not after.stacks[move.src] and move.src in _feeders(state):
        value -= EMPTIED
    return value


class SmartBot(Bot[KatoizState, Move]):
    """One-ply heuristic for every Katoiz game type (see the module docstring)."""

    name = "smart"

    def choose(self, state: KatoizState) -> Move:
        """The legal move with the best evaluation (seeded tie-break)."""
        game = self.game
        moves: Sequence[Move] = game.legal_moves(state)
        if not moves:
            raise GameError("katoiz smart bot asked to move in a finished game")
        if len(moves) == 1 and not isinstance(state, StapelState):
            return moves[0]
        if isinstance(state, TorenState):
            values = [_toren_value(state, m) for m in moves]
        elif isinstance(state, SetState):
            acting = [m for m in moves if m.kind != "pass"]
            if acting:
                moves = acting
            values = [_set_value(game, state, m) for m in moves]
        elif isinstance(state, StapelState):
            moves = self._fresh(state, moves)
            values = [_stapel_value(game, state, m) for m in moves]
        else:
            raise GameError(f"katoiz smart bot: {type(state).__name__} is not a Katoiz position")
        best = max(values)
        tied = [m for m, v in zip(moves, values, strict=True) if v == best]
        choice = tied[0]
        if len(tied) > 1:
            rng = Rng.from_seed(self.seed, "katoiz-smart", game.state_digest(state))
            choice, _ = rng.choice(tied)
        return choice

    def _fresh(self, state: StapelState, moves: Sequence[Move]) -> Sequence[Move]:
        """Stapeltje: the moves whose position has not yet followed two tile moves of this game,
        by anyone at the table (a third would be a shuttle, also when the tile goes round
        through other seats' moves); when none is fresh, those whose position came least often.

        The table's record is the state's (:attr:`StapelState.history`), so a new game or an
        undo forgets what was taken back."""
        if len(moves) == 1:
            return moves
        counts = [state.repeats(_position(self.game.apply(state, m))) for m in moves]
        least = min(counts)
        return [m for m, c in zip(moves, counts, strict=True) if c < 2 or c == least]


def _position(state: KatoizState) -> tuple[Any, ...]:
    """A Stapeltje position as the board shows it: the stacks and the home stacks."""
    if not isinstance(state, StapelState):
        raise GameError(f"katoiz: {type(state).__name__} is not a Stapeltje position")
    return (state.stacks, state.homes)


BOTS: dict[str, type[Bot[KatoizState, Move]]] = {"smart": SmartBot}
