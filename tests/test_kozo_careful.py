"""The careful Kozo bot judges fewer candidates (branch and bound) and still chooses exactly
what judging every candidate would choose (issue #24)."""

from __future__ import annotations

import pytest

from tablesim.games.kozo.bots import CarefulBot, margins
from tablesim.games.kozo.state import CUBE, PLACE, TAKE
from tablesim.games.registry import get_game
from tablesim.games.rng import Rng

GAME = get_game("kozo")


class CountingCareful(CarefulBot):
    """The careful bot, counting the moves it judges."""

    judged = 0

    def risk(self, state, move, margin):  # noqa: ANN001, ANN201 - CarefulBot.risk's
        CountingCareful.judged += 1
        return super().risk(state, move, margin)


def exhaustive_choice(bot: CarefulBot, state):  # noqa: ANN001, ANN201 - Kozo types
    """The careful bot's choice by its definition (module docstring of tablesim.games.kozo.bots):
    judge every ranked candidate, keep the first with the best (expected score, margin); for
    the balance cube the first of the least risk."""
    moves = tuple(m for m in GAME.legal_moves(state) if m.kind != TAKE)
    at_stake = state.earned[state.to_move]
    if moves[0].kind == PLACE:
        marg = margins(state, moves)

        def prior(m):  # noqa: ANN001, ANN202
            v = GAME.value(state.config, m.piece)
            safe = marg[m] >= 0.2
            return (safe, v if safe else 0, marg[m], GAME.format_move(state, m))

        ranked = sorted(moves, key=prior, reverse=True)[: bot.candidates]
        keys = []
        for m in ranked:
            v = GAME.value(state.config, m.piece)
            keys.append((v - CarefulBot.risk(bot, state, m, marg[m]) * (at_stake + v), marg[m]))
        return ranked[keys.index(max(keys))]
    if moves[0].kind != CUBE:
        return moves[0]
    ranked = sorted(moves, key=lambda m: (m.pos[2], abs(m.pos[0] - 1.5) + abs(m.pos[1] - 1.5)))
    ranked = ranked[: max(1, bot.candidates // 2)]
    risks = [CarefulBot.risk(bot, state, m, None) for m in ranked]
    return ranked[risks.index(min(risks))]


@pytest.mark.parametrize("risk", [0.0, 0.03])
def test_careful_chooses_what_judging_every_candidate_chooses_and_judges_fewer(
    risk: float,
) -> None:
    """Seeded stand-in games (careful against random), the stand-in's risk of a supported
    placement 0 (as where statics proves a placement stands) and 0.03 (the default)."""
    cfg = GAME.make_config({"table": "stand-in", "stand_in_risk": risk}, players=2)
    decisions = evaluated_all = 0
    CountingCareful.judged = 0
    for seed in range(1):
        bot = CountingCareful(GAME, seed, budget=6)
        state = GAME.new_game(cfg, seed)
        rng = Rng.from_seed(seed, "test-careful")
        while not GAME.is_terminal(state):
            moves = [m for m in GAME.legal_moves(state) if m.kind != TAKE]
            if state.to_move == 0 and moves and moves[0].kind in (PLACE, CUBE):
                chosen = bot.choose(state)
                assert chosen == exhaustive_choice(bot, state), (seed, state.turn)
                decisions += 1
                evaluated_all += min(
                    len(moves), bot.candidates if moves[0].kind == PLACE else bot.candidates // 2
                )
                move = chosen
            else:
                move, rng = rng.choice(GAME.legal_moves(state))
            state = GAME.apply(state, move)
    assert decisions >= 4
    assert CountingCareful.judged <= evaluated_all
    if risk == 0.0:
        # A sure placement of the best value and margin cannot be beaten: the rest are skipped.
        assert CountingCareful.judged < evaluated_all / 2, (CountingCareful.judged, evaluated_all)
