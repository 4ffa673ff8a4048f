"""The Katamino duel at the window (issue 32): the hint stays in view through the bot's moves
and says what it cost; piece numbers on the table; gifts by clicking; ``moves`` and ``help``
on the move line; board names in the results. Offscreen (tiny backend) through the Harness."""

from __future__ import annotations

import pytest

pytest.importorskip("panda3d.core")

from tablesim.sim.view.harness import Harness  # noqa: E402


def _duel(players: tuple[str, str] = ("human", "smart")) -> Harness:
    return Harness("katamino", options={"mode": "duel"}, players=players, seed=0)


def test_a_duel_hint_stays_drawn_after_the_bot_moves_and_says_its_cost() -> None:
    from tablesim.games.katamino.duel_race import HINT_SECS

    with _duel() as h:
        assert h.app.state.phase == "race" and h.app.seat == 0
        h.key("h")
        h.settle()  # the bot (whose clock is now lower) may move before the person looks
        st = h.app.state
        assert st.seats[0].hints == 1
        assert st.seats[1].placed, "premise: the bot placed a piece after the hint"
        ghosts = [g for g in h.app.controller.ghosts() if g.id == "ghost-hint"]
        assert len(ghosts) == 1, "the hint is still drawn"
        name, cells = h.app.controller.hint
        assert all(0 <= c[0] < 6 for c in cells)  # on P1's half of the board (columns a..)
        text = "\n".join(h.text().values())
        assert f"+{HINT_SECS:g} s on P1's clock" in text, text
        assert f"hint (+{HINT_SECS:g} s on P1's clock): {name} " in text, text


def _to_the_gifts(h: Harness) -> None:
    """Play the first race with the game's first legal moves until the give phase."""
    game = h.app.game
    while h.app.state.phase == "race":
        h.app.play(game.legal_moves(h.app.state)[0])
        h.settle()
    assert h.app.state.phase == "give"


def _card_has_ink(h: Harness, name: str) -> bool:
    """The name card of ``name`` is drawn with dark ink on white at its pixel: within a few
    pixels of the card's centre both near-white and near-black pixels (the card is about
    0.8 of a 19 mm cube, tens of pixels at 960 x 540)."""
    img = h.frame().astype(int)
    x, y = h.item_pixel(f"label-{name}")
    patch = img[int(y) - 6 : int(y) + 7, int(x) - 6 : int(x) + 7].reshape(-1, 3)
    light = (patch.min(axis=1) > 170).sum()
    dark = (patch.max(axis=1) < 90).sum()
    return bool(light >= 5 and dark >= 5)


def test_every_loose_piece_shows_its_name_on_the_table() -> None:
    with Harness(
        "katamino", options={"mode": "duel"}, players=("human", "human"), seed=0, size=(960, 540)
    ) as h:
        ids = {it.id for it in h.app.items()}
        loose = [n for seat in h.app.state.seats for n in h.app.game._family_of(h.app.state)
                 .remaining(seat)]  # fmt: skip
        assert loose
        assert all(f"label-{n}" in ids for n in loose)
        for name in loose[:3]:
            assert _card_has_ink(h, name), name


def test_a_gift_is_given_by_clicking_its_piece() -> None:
    with _duel(("human", "human")) as h:
        _to_the_gifts(h)
        from tablesim.games.katamino.duel import KINDS

        gifts = [
            m.piece for m in h.app.game.legal_moves(h.app.state) if m.kind == KINDS.index("give")
        ]
        ids = {it.id for it in h.app.items()}
        assert all(f"piece-{g}" in ids and f"label-{g}" in ids for g in gifts), (gifts, ids)
        before = len(h.app.state.gifts)
        assert h.click_item(f"label-{gifts[-1]}")
        assert len(h.app.state.gifts) == before + 1
        assert h.app.state.gifts[-1][1] == gifts[-1]


@pytest.mark.parametrize("word", ["moves", "help"])
def test_moves_and_help_are_answered_on_the_move_line(word: str) -> None:
    with _duel(("human", "human")) as h:
        before = h.app.state
        assert not h.app.type_move(word)
        assert h.app.state is before  # nothing played
        assert "cannot read" not in h.app.verdict, h.app.verdict
        assert h.app.verdict.startswith(word) and h.app.explanation, (
            h.app.verdict,
            h.app.explanation,
        )


def test_the_results_use_the_board_names() -> None:
    """Kaito's sides are Red and Black on the board: the game-over line says so, not P1/P2,
    and no result says a 0-based "seat N"."""
    import re

    from tablesim.sim.view.app import WindowApp

    with Harness(app=WindowApp("kaito", players=("random", "random"), seed=2, backend="tiny",
                               size=(320, 180))) as h:  # fmt: skip
        for _ in range(400):
            if h.app.game.is_terminal(h.app.state):
                break
            h.app.tick(0.5)
        assert h.app.game.is_terminal(h.app.state)
        line = h.app.score_text()
        assert "Red" in line and "Black" in line and "P1" not in line, line
        assert not re.search(r"\bseat \d", "\n".join(h.text().values()))
