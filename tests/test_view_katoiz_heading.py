"""The Katoiz window's heading names the game type a person chose (issue 32: it said "Katoiz"
for every type), in the rulebook's words (/work/shared/rulebooks/katoiz.txt: "Game Type 1:
Stapeltoren", "Game Type 2: 3-set (3-stel)", "Game Type 3: Stapeltje-four", and Stapeltje named
by its target height: "Stapeltje-five" ... "Stapeltje-seven"). Offscreen (tiny backend): the
text the status panel is given."""

from __future__ import annotations

import pytest

pytest.importorskip("panda3d.core")

from tablesim.sim.view.harness import Harness  # noqa: E402
from tablesim.sim.view.interact.tiles_app import app_for  # noqa: E402

HEADINGS = [  # (options, the rulebook's words)
    ({"type": "stapeltoren"}, "Stapeltoren"),
    ({"type": "3-set"}, "3-set"),
    ({"type": "stapeltje"}, "Stapeltje-four"),
    ({"type": "stapeltje", "level": 2}, "Stapeltje-five"),
    ({"type": "stapeltje", "height": 7}, "Stapeltje-seven"),
]


@pytest.mark.parametrize(("options", "words"), HEADINGS, ids=[w for _, w in HEADINGS])
def test_the_heading_names_the_game_type_chosen(options: dict, words: str) -> None:
    app = app_for("katoiz", options=options, players=("human", "human"), seed=0,
                  size=(320, 180), backend="tiny")  # fmt: skip
    with Harness(app=app) as h:
        first = h.text()["top-left"].splitlines()[0]
        assert first.startswith(f"Katoiz: {words}  "), first
