"""Every game type and level through ``balance`` (issue 33, "Done means"): seeded smart-vs-smart
and smart-vs-random games end only by the rulebook's ends or our confirmed guards (no invented
ending), never at a turn cap between smart bots, and ``balance`` counts every end.

The issue asks for 1,000 games per type, level and pairing; the slow step plays a cut of them
(``Case.slow`` in tests/balance_catalogue.py: 50 per Katoiz level with two players, 8 with four,
2 per Katamino duel mode, 2 and 4 per solo mode (smart; random), 10 Kozo and Kataboom, 2-4 Kaito, 6 Catego; about 2.5 minutes on two
idle cores). The full count is ``python tests/balance_catalogue.py --games 1000``; its figures
are in docs/balance-ends.md.
"""

from __future__ import annotations

import pytest
from balance_catalogue import CASES, PAIRINGS, Case, play_case

from tablesim.games.katamino.duel import DUEL_MODES
from tablesim.games.katoiz.config import PRESETS
from tablesim.games.registry import game_names, get_game


def test_the_catalogue_covers_every_game_type_and_level() -> None:
    ids = {c.id for c in CASES}
    assert {c.game for c in CASES} == set(game_names())
    for kind, levels in PRESETS.items():
        for lv in levels:
            assert f"katoiz-{kind}-{lv}" in ids, (kind, lv)
    modes = {c.options["mode"] for c in CASES if c.game == "katamino"}
    choices = next(o.choices for o in get_game("katamino").options if o.name == "mode")
    assert modes == set(choices or ())
    assert set(DUEL_MODES) < modes
    duel_levels = {c.options["level"] for c in CASES if c.options.get("mode") == "duel"}
    assert duel_levels == {"beginner", "easy", "normal", "difficult", "expert"}


def test_the_counts_catch_a_turn_cap_and_an_end_not_printed() -> None:
    # the checker itself: a 4-turn cap ends every Stapeltje game there (caps counted, no
    # winner named); a case that prints no end at all makes every end invented
    base = next(c for c in CASES if c.id == "katoiz-stapeltje-1")
    capped = Case(
        base.id,
        base.game,
        {**base.options, "max_turns": 4},
        base.smart,
        base.printed,
        base.guards,
        winner_only_at=base.winner_only_at,
    )
    rep = play_case(capped, "smart-random", 4)
    assert rep["caps"] == 4 and rep["invented"] == 0
    bare = Case(base.id, base.game, base.options, base.smart, frozenset())
    assert play_case(bare, "smart-smart", 3)["invented"] == 3


@pytest.mark.slow
@pytest.mark.parametrize("pairing", PAIRINGS)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_seeded_bot_games_end_as_printed(case: Case, pairing: str) -> None:
    games = case.slow[PAIRINGS.index(pairing)]
    rep = play_case(case, pairing, games)
    assert sum(rep["ends"].values()) == games
    assert rep["invented"] == 0, rep["examples"]
    if pairing == "smart-smart":
        assert rep["caps"] == 0, rep["ends"]
