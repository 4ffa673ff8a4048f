"""Seat rates between equal bots within 45-55 % for every Katamino duel mode and colour (issue
33, "Done means"), exact over the deck as ``duel_fairness`` computes them: a seeded game draws
its side uniformly from the deck, two smart bots play one deterministic game per side, and two
random bots have an exact chance per side (enumerated over their gifts and replacements).

Plain duels at every colour here; ``duel3d`` in tests/test_katamino_duel3d_fair.py; child-adult
and handicap in tests/test_katamino_duel_slow.py (the same 45-55 % bar).
"""

from __future__ import annotations

import pytest

from tablesim.games.katamino.duel import DUEL_GAME, tie_winner
from tablesim.games.katamino.duel_cards import LEVELS, TURNED, cards, deck
from tablesim.games.katamino.duel_fairness import deck_figures

COLOURS = ("beginner", "easy", "normal", "difficult", "expert")


@pytest.mark.parametrize("colour", COLOURS)
def test_an_equal_start_deck_lays_every_side_both_ways_round(colour: str) -> None:
    # The structural reason two equal players split a plain duel's deck evenly: each side is
    # there turned round too (halves swapped), and an exact clock tie goes to the seat holding
    # the printed first half, so it too changes seat with the side.
    assert LEVELS[colour].start[0] == LEVELS[colour].start[1]
    sides = {c.id: c for c in deck(colour)}
    assert len(sides) == 2 * len(cards(colour))
    config = DUEL_GAME.make_config({"mode": "duel", "level": colour}, players=2)
    for card in cards(colour):
        back = sides[card.id + TURNED]
        assert back.halves == (card.halves[1], card.halves[0])
        assert tie_winner(card.id) == 0 and tie_winner(back.id) == 1
        a, b = (DUEL_GAME.side_start(config, cid).seats for cid in (card.id, back.id))
        assert (a[0], a[1]) == (b[1], b[0])


@pytest.mark.slow
@pytest.mark.parametrize("colour", [c for c in COLOURS if c != "normal"])
def test_equal_bots_split_every_plain_duel_deck_within_45_55_percent(colour: str) -> None:
    # normal is tests/test_katamino_duel_prompt.py's; the four others ~60 s CPU in all
    f = deck_figures("duel", colour)
    assert 0.45 <= f.smart <= 0.55, (f.smart, f.sides)
    assert 0.45 <= f.random <= 0.55, (f.random, f.sides)
