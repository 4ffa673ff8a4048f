"""``balance`` counts how its games ended (issue 33)."""

from __future__ import annotations

from tablesim.games.balance import balance, end_label
from tablesim.games.core import Result


def test_end_labels_group_games_that_ended_the_same_way() -> None:
    a = Result((4.0, 1.0), (0,), {"end": "P1's home stack reached 4"})
    b = Result((1.0, 5.0), (1,), {"end": "P2's home stack reached 5"})
    assert end_label(a) == end_label(b) == "P#'s home stack reached #"
    assert end_label(Result((0.0,), (), {})) == "(no end given)"


def test_balance_counts_every_game_once_by_its_end() -> None:
    rep = balance("katoiz", ["smart", "random"], 6, 0, options={"type": "stapeltje"})
    assert sum(rep["ends"].values()) == 6
    assert all(not any(ch.isdigit() for ch in end) for end in rep["ends"])
    assert not any("turn cap" in end for end in rep["ends"])


def test_a_number_inside_a_word_is_kept() -> None:
    # "no #-set can be formed" was what balance printed for 3-set's printed end
    res = Result((1.0, 0.0), (0,), {"end": "no 3-set can be formed with the tiles left"})
    assert end_label(res) == "no 3-set can be formed with the tiles left"
    res = Result((1.0, 0.0), (0,), {"end": "the turn cap (200 turns) was reached"})
    assert end_label(res) == "the turn cap (# turns) was reached"
