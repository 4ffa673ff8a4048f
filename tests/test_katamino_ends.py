"""Katamino results say how the game ended (``detail.end``), as the other games do, so that
``tablesim balance katamino`` counts end reasons instead of "(no end given)" (issue 33)."""

from __future__ import annotations

from dataclasses import replace

from tablesim.games.balance import balance
from tablesim.games.katamino.duel import DUEL_GAME
from tablesim.games.katamino.solo import SOLO_GAME, SmartSoloBot
from tablesim.games.katamino.solo_data import challenges


def _solo(mode: str, card: int, number: int):
    cfg = SOLO_GAME.make_config({"mode": mode, "card": card, "challenge": number}, players=1)
    return SOLO_GAME.new_game(cfg, 0)


def test_a_solo_quit_and_a_solved_challenge_say_so() -> None:
    # "solo": 3x3x3 -> Penta 6, 7, 8, 9, 10: six stages (docs/rules/katamino-duo.md)
    s = _solo("solo", 1, 1)
    quit_ = SOLO_GAME.apply(s, SOLO_GAME.parse_move(s, "quit"))
    assert SOLO_GAME.result(quit_).detail["end"] == "quit after 0 of 6 stages"
    # puzzle3d: a flat grid, then a box of the same cubes: two stages
    ch = min(challenges("puzzle3d"), key=lambda c: sum(len(st.pieces) for st in c.stages))
    s = _solo("puzzle3d", ch.card, ch.number)
    bot = SmartSoloBot(SOLO_GAME, 0)
    while not SOLO_GAME.is_terminal(s):
        s = SOLO_GAME.apply(s, bot.choose(s))
    assert SOLO_GAME.result(s).detail["end"] == "solved: all 2 stages"


def test_a_one_stage_challenge_says_stage_not_stages() -> None:
    """A picture (one mask, docs/rules/katamino-duo.md) is one stage: "solved: 1 stage" and
    "quit after 0 of 1 stage", never "all 1 stages" (issue 32); the board says "1/1 stage"."""
    ch = min(challenges("picture"), key=lambda c: len(c.stages[0].pieces))
    assert len(ch.stages) == 1
    s = _solo("picture", ch.card, ch.number)
    quit_ = SOLO_GAME.apply(s, SOLO_GAME.parse_move(s, "quit"))
    assert SOLO_GAME.result(quit_).detail["end"] == "quit after 0 of 1 stage"
    assert SOLO_GAME.describe(quit_).splitlines()[1] == "quit: 0/1 stage"
    bot = SmartSoloBot(SOLO_GAME, 0)
    while not SOLO_GAME.is_terminal(s):
        s = SOLO_GAME.apply(s, bot.choose(s))
    assert SOLO_GAME.result(s).detail["end"] == "solved: 1 stage"
    assert SOLO_GAME.describe(s).splitlines()[1] == "solved: 1/1 stage"


def test_duel_ends_name_the_rulebooks_reason() -> None:
    cfg = DUEL_GAME.make_config({"mode": "duel", "level": "beginner"}, players=2)
    st = DUEL_GAME.new_game(cfg, 0)
    gone = DUEL_GAME.apply(st, DUEL_GAME.parse_move(st, "resign"))
    assert DUEL_GAME.result(gone).detail["end"] == "P1 resigned"
    # "In case of a tie, players swap the last duel's piece ... and duel each other one last
    # time": beginner plays 4 duels (Penta 3, 4, 5, 6), so a 2-2 tie's last duel is the 5th.
    history = tuple((w, "", 1.0, 2.0) for w in (0, 1, 0, 1, 1))
    tie = replace(st, phase="over", scores=(2, 3), history=history, tiebreak=True)
    assert DUEL_GAME.result(tie).detail["end"] == (
        "a tie after 4 duels: the last gifts swapped, one last duel decided"
    )


def test_balance_counts_katamino_end_reasons() -> None:
    # normal cards: Penta 4, 5, 6, three duels; an odd number cannot tie
    rep = balance("katamino", ["random", "random"], 2, 0,
                  options={"mode": "duel", "level": "normal"})  # fmt: skip
    assert rep["ends"] == {"the highest score after # duels": 2}
    rep = balance("katamino", ["random"], 2, 0, options={"mode": "traditional"})
    assert "(no end given)" not in rep["ends"] and sum(rep["ends"].values()) == 2
    assert all(e.startswith(("quit after # of # stages", "solved: all # stages"))
               for e in rep["ends"])  # fmt: skip
