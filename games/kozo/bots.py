"""Kozo bots: ``greedy`` (highest value) and ``careful`` (feels the tower).

Neither reads the table's noise stream: their draws come from ``Rng.from_seed(bot seed, name,
state digest)`` and the physics they consult runs the *intended* pose, never the hand noise.

``careful`` ranks the legal placements by a pure support heuristic (value, and how far the
centre of mass sits inside its contact patches), then judges the best ``budget`` of them
(default 4) with an assessor and plays the best expected score ``value - p * (points this round
+ value)``, where ``p`` is the judged topple probability (a topple loses the round's points). At
a physics table the assessor is the referee's ``assess`` (static LP, then a small seeded
ensemble: 2 replicas of 1 s); with the stand-in judge it is the stand-in's exact probability.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from tablesim.games._stacking import StackingBot
from tablesim.games.bots import RandomBot as GenericRandomBot
from tablesim.games.core import Bot, Game, GameError
from tablesim.games.kozo.blocks import piece_orientations
from tablesim.games.kozo.judge import support_margin, topple_risk
from tablesim.games.kozo.rules import Kozo, tower_blocks
from tablesim.games.kozo.state import CUBE, PLACE, TAKE, KozoMove, KozoState
from tablesim.games.rng import Rng

PLACE_SIGMA = 0.5
"""Standard deviation of the log of a bot's time to place: 90 % of placements between 2.6 and
13.7 s, 36 % quicker than the 5-second window."""
PLACE_MAX_S = 30.0
"""A bot never takes longer than this to place (the log-normal's tail cut at 30 s)."""
B = TypeVar("B", bound=type[Bot[KozoState, KozoMove]])

DEFAULT_CANDIDATES = 4
ASSESS_REPLICAS = 2
ASSESS_SECONDS = 1.0


def _game(game: Game[KozoState, KozoMove, Any]) -> Kozo:
    if not isinstance(game, Kozo):
        raise GameError("kozo bots play Kozo only")
    return game


def margins(state: KozoState, moves: tuple[KozoMove, ...]) -> dict[KozoMove, float]:
    """Support margin (cube edges, positive inside) of each placement on the settled tower."""
    cfg = state.config
    blocks = tower_blocks(cfg, state.tower)
    out = {}
    for m in moves:
        cells = np.asarray(piece_orientations(cfg.catalogue, m.piece)[m.rot], float)
        out[m] = support_margin(cells, np.asarray(m.pos), blocks, cfg.tolerance)
    return out


def placement_seconds(seed: int, digest: str, median: float, sigma: float) -> float:
    """A bot's seeded time to place (s, 0.1 s resolution): ``median * exp(sigma * z)``, ``z``
    a standard normal from ``Rng.from_seed(seed, "kozo-place-time", digest)`` (a stream of its
    own: the bot's choices and the table's noise are untouched), at most :data:`PLACE_MAX_S`."""
    z, _ = Rng.from_seed(seed, "kozo-place-time", digest).gauss()
    return round(min(median * math.exp(sigma * z), PLACE_MAX_S), 1) + 0.0


def timed(cls: B) -> B:
    """Class decorator: the bot's placements carry its time to place, a log-normal draw of
    median the game option ``bot_place_s`` (default 6 s) and log-sd :data:`PLACE_SIGMA`,
    stamped as a person's front end stamps real seconds (``Kozo.stamp_seconds``). With
    ``bot_place_s = 0`` (logs written before the option) nothing is stamped: the placement
    starts when the previous window ends."""
    choose: Callable[[Bot[KozoState, KozoMove], KozoState], KozoMove] = cls.choose

    @functools.wraps(choose)
    def timed_choose(self: Bot[KozoState, KozoMove], state: KozoState) -> KozoMove:
        move = choose(self, state)
        median = state.config.bot_place_s
        if median <= 0:
            return move
        game = _game(self.game)
        secs = placement_seconds(self.seed, game.state_digest(state), median, PLACE_SIGMA)
        return game.stamp_seconds(state, move, secs)

    cls.choose = timed_choose  # type: ignore[method-assign]
    return cls


@timed
class RandomBot(GenericRandomBot[KozoState, KozoMove]):
    """The generic random bot (any legal move, seeded), its placements timed like a
    person's (:func:`timed`)."""


@timed
class GreedyBot(Bot[KozoState, KozoMove]):
    """The highest-value piece it can place *supported* (its centre of mass inside its contact
    patches, :func:`support_margin` >= 0; any piece when none is), on a seeded choice among
    those spots; the balance cube on a seeded random legal spot. Greedy for points, but not
    blind: a piece hanging off its supports is the quickest way to lose a round."""

    name = "greedy"

    def choose(self, state: KozoState) -> KozoMove:
        game = _game(self.game)
        moves = [m for m in game.legal_moves(state) if m.kind != TAKE and m not in self.avoid]
        if not moves:
            raise GameError("greedy bot asked to move in a finished game")
        rng = Rng.from_seed(self.seed, "kozo-greedy", game.state_digest(state))
        if moves[0].kind == PLACE:
            margin = margins(state, tuple(moves))
            supported = [m for m in moves if margin[m] >= 0]
            moves = supported or moves
            best = max(game.value(state.config, m.piece) for m in moves)
            moves = [m for m in moves if game.value(state.config, m.piece) == best]
        move, _ = rng.choice(moves)
        return move


@timed
class CarefulBot(StackingBot[KozoState, KozoMove]):
    """Best expected score over the ``budget`` most promising placements (see module doc).

    ``candidates``: how many placements (and balance spots) are judged per decision."""

    name = "careful"
    stream = "kozo-careful"
    default_candidates = DEFAULT_CANDIDATES
    assess_replicas = ASSESS_REPLICAS
    assess_seconds = ASSESS_SECONDS

    def risk(self, state: KozoState, move: KozoMove, margin: float | None) -> float:
        """Judged topple probability of making ``move`` (intended pose, no hand noise)."""
        judged = self.table_risk(_game(self.game), state, move)
        return topple_risk(state.config, move, margin) if judged is None else judged

    def choose(self, state: KozoState) -> KozoMove:
        game = _game(self.game)
        moves = tuple(m for m in game.legal_moves(state) if m.kind != TAKE and m not in self.avoid)
        if not moves:
            raise GameError("careful bot asked to move in a finished game")
        seat = state.to_move
        at_stake = state.earned[seat]
        if moves[0].kind == PLACE:
            marg = margins(state, moves)

            def prior(m: KozoMove) -> tuple:
                v = game.value(state.config, m.piece)
                safe = marg[m] >= 0.2
                return (safe, v if safe else 0, marg[m], game.format_move(state, m))

            ranked = sorted(moves, key=prior, reverse=True)[: self.candidates]
            return self._best_expected(state, ranked, marg, at_stake)
        if moves[0].kind != CUBE:
            return moves[0]
        # Balance cube: lowest spots first (they load the tower least), then judged.
        ranked = sorted(moves, key=lambda m: (m.pos[2], abs(m.pos[0] - 1.5) + abs(m.pos[1] - 1.5)))
        ranked = ranked[: max(1, self.candidates // 2)]
        if len(ranked) == 1:
            return ranked[0]
        best: tuple[float, int] | None = None  # (risk, rank): the least risk, then the first
        for i, m in enumerate(ranked):
            r = self.risk(state, m, None)
            if best is None or (r, i) < best:
                best = (r, i)
            if best[0] <= 0.0:  # no later spot can beat a sure one (ties go to the first)
                break
        assert best is not None  # ranked has 2 or more spots; not input validation
        return ranked[best[1]]

    def _best_expected(
        self,
        state: KozoState,
        ranked: list[KozoMove],
        marg: dict[KozoMove, float],
        at_stake: float,
    ) -> KozoMove:
        """The first of ``ranked`` with the best ``(v - p (at_stake + v), margin)``, judging
        as few as that needs (branch and bound, exact): a move's key is at most its key with
        p = 0 (or 1, were ``at_stake + v`` negative), so moves are judged from the highest such
        bound down and the rest are skipped once none can beat the best judged so far."""
        game = _game(self.game)

        def bound(i: int) -> tuple[float, float, int]:
            v = game.value(state.config, ranked[i].piece)
            return (max(v, -at_stake), marg[ranked[i]], -i)

        best: tuple[float, float, int] | None = None
        for i in sorted(range(len(ranked)), key=bound, reverse=True):
            if best is not None and bound(i) <= best:
                break  # the bounds only go down from here
            m = ranked[i]
            v = game.value(state.config, m.piece)
            key = (v - self.risk(state, m, marg[m]) * (at_stake + v), marg[m], -i)
            if best is None or key > best:
                best = key
        assert best is not None  # ranked is never empty; not input validation
        return ranked[-best[2]]


BOTS: dict[str, type[Bot[KozoState, KozoMove]]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "careful": CarefulBot,
}
