"""How fair a duel deck is for two equal bots, computed exactly instead of sampled.

A seeded game draws its card side uniformly from the deck (``tablesim.games.katamino.duel_cards.deck``:
on equal-start colours each side both ways round). From a side on, two ``smart`` bots play
one game only (their gifts, replacements and races are deterministic: the search clock), so
their seat-0 win rate over the seeds is the share of the deck's sides seat 0 wins. Two
``random`` bots choose uniformly among the legal moves (``tablesim.games.bots.RandomBot``), and every
sensible placement of a race costs the same on the level clock (``step_seconds`` depends on
the puzzle, not on the placement, and a sensible placement never needs an undo), so the
chance that seat 0 wins is the mean over the gifts and replacements only: a tree of a few
dozen races per side, enumerated here with the real rules.

``python -m tablesim.games.katamino.duel_fairness`` prints the figures of every mode the defaults must
keep fair (docs/rules/katamino-duo.md, "Bots").
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from tablesim.games.katamino.duel import DUEL_GAME, KINDS, DuelMove, DuelState, Player
from tablesim.games.katamino.duel_bots import SmartDuelBot, solution_plan
from tablesim.games.katamino.duel_cards import LEVELS, Card, canonical, deck
from tablesim.games.katamino.duel_race import default_speeds

FAIR = (0.4, 0.6)
"""The issue's bound: equal bots win 40-60 % from either seat."""


def side_state(mode: str, card_id: str, halves: Sequence[Sequence[str]],
               speeds: tuple[str, str], weaker: int = 0) -> DuelState:  # fmt: skip
    """The first state of a game on a side with these ``halves`` (the id names the colour;
    the generator passes candidate sides that are in no file yet: ``child-adult-0A``)."""
    spec = LEVELS[card_id.rsplit("-", 1)[0]]
    seats = (Player(tuple(halves[0]), spec.start[0]), Player(tuple(halves[1]), spec.start[1]))
    phase = "replace" if mode == "handicap" else "race"
    return DuelState(mode, card_id, speeds, weaker, phase, seats=seats)


_SMART = SmartDuelBot(DUEL_GAME, 0)


def smart_winner(state: DuelState) -> int:
    """The seat two smart bots win from ``state`` (-1: a drawn game)."""
    while state.phase != "over":
        state = DUEL_GAME.apply(state, _SMART.choose(state))
    winners = DUEL_GAME.result(state).winners
    return winners[0] if winners else -1


def random_chance(state: DuelState) -> float:
    """The exact chance that seat 0 wins when both seats move uniformly at random (a draw
    counts a half)."""
    return _chance(state)


@cache
def _chance(state: DuelState) -> float:
    if state.phase == "over":
        winners = DUEL_GAME.result(state).winners
        return 0.5 if not winners else float(winners[0] == 0)
    if state.phase == "race":  # every sensible placement costs the same: follow a solution
        return _chance(DUEL_GAME.apply(state, _solution_move(state)))
    moves = DUEL_GAME.legal_moves(state)
    return sum(_chance(DUEL_GAME.apply(state, m)) for m in moves) / len(moves)


def _solution_move(state: DuelState) -> DuelMove:
    """The mover's next piece of the solver's solution of its puzzle (one of the sensible
    placements a random bot chooses among, at the same cost; found without listing them)."""
    seat = DUEL_GAME.current_player(state)
    assert seat is not None
    p = state.seats[seat]
    plan, _ = solution_plan(DUEL_GAME.target(p), canonical(p.pieces), frozenset())
    name, cells = plan[len(p.placed)]
    return DuelMove(KINDS.index("place"), name, cells)


@dataclass(frozen=True)
class SideFigures:
    """One side of a deck: the seat two smart bots win, seat 0's chance between random bots."""

    card: str
    smart: int
    random: float


@dataclass(frozen=True)
class DeckFigures:
    """A mode's deck at its speeds: every side's figures and seat 0's expected win rates."""

    mode: str
    level: str
    weaker: int
    speeds: tuple[str, str]
    sides: tuple[SideFigures, ...]

    @property
    def smart(self) -> float:
        """Seat 0's expected share of smart-vs-smart games (sides drawn uniformly)."""
        return sum(s.smart == 0 for s in self.sides) / len(self.sides)

    @property
    def random(self) -> float:
        """Seat 0's expected share of random-vs-random games."""
        return sum(s.random for s in self.sides) / len(self.sides)

    def fair(self) -> bool:
        """Both rates inside :data:`FAIR`."""
        return all(FAIR[0] <= r <= FAIR[1] for r in (self.smart, self.random))


def side_figures(mode: str, card: Card, speeds: tuple[str, str], weaker: int = 0
                 ) -> SideFigures:  # fmt: skip
    """:class:`SideFigures` of one side."""
    return halves_figures(mode, card.id, card.halves, speeds, weaker)


def halves_figures(mode: str, card_id: str, halves: Sequence[Sequence[str]],
                   speeds: tuple[str, str], weaker: int = 0) -> SideFigures:  # fmt: skip
    """:class:`SideFigures` of a side given by its halves (a generator's candidate)."""
    st = side_state(mode, card_id, halves, speeds, weaker)
    return SideFigures(card_id, smart_winner(st), round(random_chance(st), 6))


def deck_figures(mode: str, level: str | None = None, weaker: int = 0,
                 speeds: tuple[str, str] | None = None) -> DeckFigures:  # fmt: skip
    """The figures of a mode's whole deck (every side the seed may draw), at the default
    speeds unless ``speeds`` is given."""
    level = level or ("difficult" if mode == "handicap" else "normal")
    speeds = speeds or default_speeds(mode, level, weaker)
    colour = "child-adult" if mode == "child-adult" else level
    sides = tuple(side_figures(mode, card, speeds, weaker) for card in deck(colour))
    return DeckFigures(mode, level, weaker, speeds, sides)


def deck3d_smart() -> float:
    """Seat 0's expected share of smart-vs-smart ``duel3d`` games: the 3D deck
    (``duel_cards.deck3d``, every side both ways round) played out side by side."""
    from tablesim.games.katamino.duel_cards import deck3d

    config = DUEL_GAME.make_config({"mode": "duel3d"}, players=2)
    sides = deck3d()
    return sum(smart_winner(DUEL_GAME.side_start(config, c.id)) == 0 for c in sides) / len(sides)


CASES = (("child-adult", "normal", 0), ("handicap", "difficult", 0), ("handicap", "difficult", 1),
         ("handicap", "expert", 0), ("handicap", "expert", 1), ("duel", "difficult", 0))  # fmt: skip
"""The modes the defaults must keep fair (child-adult, handicap at both colours and both
weaker seats) and a plain duel for comparison."""


def main(argv: list[str] | None = None) -> int:
    """Print each case's expected seat-0 win rates (``--json`` for the per-side figures)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="per-side figures as JSON")
    args = ap.parse_args(argv)
    out = []
    for mode, level, weaker in CASES:
        t0 = time.process_time()
        f = deck_figures(mode, level, weaker)
        cpu = time.process_time() - t0
        out.append({"mode": mode, "level": level, "weaker": weaker, "speeds": list(f.speeds),
                    "sides": len(f.sides), "smart_seat0": round(f.smart, 4),
                    "random_seat0": round(f.random, 4), "fair": f.fair(), "cpu_s": round(cpu, 1),
                    "per_side": [[s.card, s.smart, s.random] for s in f.sides]})  # fmt: skip
        if not args.json:
            print(f"{mode:12} {level:9} weaker {weaker}  {','.join(f.speeds):22} "
                  f"{len(f.sides):2} sides  seat 0 wins: smart {f.smart:6.1%}  random "
                  f"{f.random:6.1%}  {'fair' if f.fair() else 'UNFAIR'}  ({cpu:.0f} s CPU)",
                  flush=True)  # fmt: skip
    if args.json:
        json.dump(out, sys.stdout, indent=1)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
