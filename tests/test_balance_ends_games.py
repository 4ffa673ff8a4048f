"""``tablesim balance`` counts how games ended in Catego, Kaito and Kozo too (issue 33: Katamino and Kozo
games showed "(no end given)"). The expected reasons are the rulebooks' ends."""

from __future__ import annotations

from tablesim.games.balance import balance

GAMES = 6


def _ends(name: str, roles: list[str], **options: object) -> dict[str, int]:
    rep = balance(name, roles, GAMES, 0, options=options or None)
    assert sum(rep["ends"].values()) == GAMES
    assert "(no end given)" not in rep["ends"]
    return rep["ends"]


def test_catego_ends_when_every_column_is_filled() -> None:
    # "After each column in the score sheet has all its boxes filled in, the player with the
    # highest number for that column wins the points"; the most points wins, a shared top
    # names nobody (docs/rules/catego.md)
    rep = balance("catego", ["random", "random"], GAMES, 0)
    ends = rep["ends"]
    assert set(ends) <= {
        "every column filled: the player with the most points",
        "every column filled: a tie on points, no winner",
    }
    assert ends.get("every column filled: a tie on points, no winner", 0) == rep["draws"]
    assert sum(ends.values()) == GAMES


def test_a_catego_tie_on_points_is_said_as_such() -> None:
    # columns 1, 2, 3 for three players: 3 = 1 + 2 ties often; the draws are those games
    rep = balance("catego", ["random"] * 3, 40, 0, options={"columns": [1, 2, 3]})
    tie = "every column filled: a tie on points, no winner"
    assert rep["ends"][tie] == rep["draws"] > 0
    assert (
        rep["ends"][tie] + rep["ends"]["every column filled: the player with the most points"] == 40
    )


def test_catego_partnerships_say_team() -> None:
    ends = _ends("catego", ["random"] * 4, partnerships=True)
    assert set(ends) <= {
        "every column filled: the team with the most points",
        "every column filled: a tie on points, no winner",
    }


def test_kaito_ends_are_the_three_printed_cases() -> None:
    # "Your opponent can't move the Kaito ...", "... no Swords", "... no Helmets"
    assert set(_ends("kaito", ["random", "random"])) <= {"no-move", "no-katana", "no-kabuto"}


def test_kozo_ends_after_the_rounds() -> None:
    # "After three rounds have been played, the player with the highest total score wins"
    ends = _ends("kozo", ["greedy", "random"], table="stand-in")
    assert set(ends) <= {
        "after # rounds: the highest total score",
        "after # rounds: the highest total score, a tie: the player who moved later",
    }
