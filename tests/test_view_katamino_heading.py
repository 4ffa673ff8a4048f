"""The window's heading names the Katamino mode a person chose (issue 32: every mode said
"Katamino Duo"), in the rulebook's words: its section headings (/work/shared/rulebooks/
katamino-duo.txt: "Challenges Solo", "Solo in 3D Mode", "3D Duels", ...); the plain duel is
the game rules' "duels". Offscreen (tiny backend): the text the status panel is given."""

from __future__ import annotations

import pytest

pytest.importorskip("panda3d.core")

from tablesim.sim.view.harness import Harness  # noqa: E402

HEADINGS = {  # mode -> the rulebook's words, typed from its table of contents
    "solo": "Challenges Solo",
    "solo3d": "Solo in 3D Mode",
    "construction": "3D Construction",
    "puzzle3d": "3D Puzzle Challenges",
    "traditional": "Traditional Katamino",
    "picture": "Puzzle Activities for Ages 3+",
    "duel": "Duels",
    "child-adult": "Duels Between Child & Adult",
    "handicap": "Duels for Two Players at Different Levels",
    "duel3d": "3D Duels",
}


@pytest.mark.parametrize("mode", sorted(HEADINGS))
def test_the_heading_names_the_mode_chosen(mode: str) -> None:
    duel = mode in ("duel", "child-adult", "handicap", "duel3d")
    players = ("human", "human") if duel else ("human",)
    options = {"mode": mode}
    if mode == "handicap":
        options["level"] = "difficult"  # handicap is played on the red or black cards
    with Harness("katamino", options=options, players=players, seed=0, size=(320, 180),
                 backend="tiny") as h:  # fmt: skip
        first = h.text()["top-left"].splitlines()[0]
        assert first == f"Katamino Duo: {HEADINGS[mode]}  move 1", first


def test_every_mode_of_the_game_has_a_heading() -> None:
    """A mode added to the game without rulebook words would fall back to its bare name."""
    from tablesim.games.katamino.game import MODES

    assert sorted(MODES.names) == sorted(HEADINGS)
