"""Katamino duels call the players by the board's names, P1 and P2, as the README promises
(issue 33: the notes said "seat 1 wins duel 1")."""

from __future__ import annotations

import re

from tablesim.games.katamino.duel import DUEL_GAME
from tablesim.games.session import Session


def test_duel_notes_and_board_name_p1_and_p2_never_seat_numbers() -> None:
    with Session.new("katamino", ["random", "random"], 3, options={"mode": "duel"}) as s:
        notes, boards = [], []
        while not s.over:
            s.step()
            notes.append(s.state.note)
            boards.append(DUEL_GAME.describe(s.state))
    assert s.game.player_name(0) == "P1" and s.game.player_name(1) == "P2"
    text = "\n".join(notes + boards)
    assert not re.search(r"\bseat [01]\b", text), text[:400]
    assert re.search(r"\bP[12] wins duel 1 \(", text) and re.search(r"\bP[12] gave ", text)


def test_the_rules_page_names_the_generator_for_list() -> None:
    # `tablesim` has no --list; the page must name the command that has it
    from conftest import ROOT

    page = (ROOT / "docs" / "rules" / "katamino-duo.md").read_text()
    for m in re.finditer(r"`([^`]*--list MODE[^`]*)`", page):
        assert m.group(1).startswith("python -m tablesim.games.katamino.generate_solo "), m.group(1)
