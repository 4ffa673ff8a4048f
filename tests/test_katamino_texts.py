"""Katamino terminal texts a family reads (issue 33): the solo prompt's example, the stuck
board's hint in the words of ``undo``, the challenge header, the ``--speed`` help."""

from __future__ import annotations

import re

import pytest

from tablesim.games.katamino import LEVELS
from tablesim.games.katamino.duel import DUEL_GAME
from tablesim.games.katamino.duel_race import default_speeds
from tablesim.games.katamino.solo import SOLO_GAME
from tablesim.games.katamino.solo_data import challenges

G = SOLO_GAME


def _new(mode: str, card: int, number: int):
    cfg = G.make_config({"mode": mode, "card": card, "challenge": number}, players=1)
    return G.new_game(cfg, 0)


@pytest.mark.parametrize(
    ("mode", "card", "number"),
    [("solo", 2, 3), ("solo", 1, 1), ("traditional", 4, 8), ("puzzle3d", 1, 10),
     ("solo3d", 5, 1)],
)  # fmt: skip
def test_the_prompts_example_places_a_piece_in_hand(mode: str, card: int, number: int) -> None:
    # Issue 33: the solo prompt's example named piece A (3D) or 3 (flat), whether or not the
    # hand held it. The example must be a move this board accepts.
    state = _new(mode, card, number)
    line = G.describe(state).splitlines()[-1]
    m = re.fullmatch(r"moves: PIECE CELLS \(e\.g\. (.+)\), hint, undo, quit", line)
    assert m, line
    example = m.group(1)
    assert example.split()[0] in G.remaining(state)
    G.check_move(state, G.parse_move(state, example))  # raises when not accepted


def test_the_header_does_not_call_the_easiest_card_expert() -> None:
    # Issue 33: card 1 ("easiest") challenges were labelled "[expert]", the solver's absolute
    # level of their hardest stage; the card order is the scale (docs/rules/katamino-duo.md).
    head = G.describe(_new("solo", 1, 1)).splitlines()[0]
    on_card = sum(1 for c in challenges("solo") if c.card == 1)
    assert head == f"Katamino solo: card 1 (easiest), challenge 1 of {on_card}"
    assert on_card == 6  # "4 x 6 (easiest..hardest)"
    assert not any(name in head for name in (*(n for n, _ in LEVELS), "expert"))


def test_the_stuck_hint_says_how_many_undos_reach_the_culprit() -> None:
    # Puzzle A (3 x 4) with 5, W1, W2, Y: Y on b1 a2 b2 walls in a1. W1 on c3 d3 then leaves
    # the board stuck with Y the only culprit: without Y, W2 a1 a2, Y a3 b3 b2 and 5 on
    # b1 c1 d1 c2 d2 fill it; without W1, a1 stays walled. `undo` takes back the last piece
    # only, so the hint must say two undos, W1 first.
    ch = next(c for c in challenges("puzzle3d") if c.card == 1
              and c.stages[0].pieces == ("5", "W1", "W2", "Y"))  # fmt: skip
    s = _new("puzzle3d", 1, ch.number)
    s = G.apply(s, G.parse_move(s, "Y b1 a2 b2"))
    s = G.apply(s, G.parse_move(s, "W1 c3 d3"))
    assert G.solver_hint(s).culprits == ("Y",)
    assert G.hint_text(s) == "hint: stuck; take back Y: undo 2 times (W1, Y)"


def test_stuck_hint_text_follows_undo_order() -> None:
    # The case: the hint said "take back 7" while `undo` takes back W1.
    from tablesim.games.katamino.solo import stuck_hint_text

    assert stuck_hint_text(["7", "B", "W1"], ("7",)) == (
        "hint: stuck; take back 7: undo 3 times (W1, B, 7)"
    )
    # the culprit undo reaches first is named
    assert stuck_hint_text(["7", "B", "W1"], ("7", "B")) == (
        "hint: stuck; take back B: undo 2 times (W1, B)"
    )
    assert stuck_hint_text(["7", "B", "W1"], ("W1",)) == "hint: stuck; take back W1"
    assert stuck_hint_text(["7", "B"], ()) == "hint: stuck; take back pieces (undo)"


def test_the_speed_help_says_what_the_defaults_are() -> None:
    # docs/rules/katamino-duo.md: "By default the child lays pieces one speed level below
    # --level and thinks two below (default level normal: child easy/beginner, adult
    # normal)"; handicap at difficult: "expert/easy against difficult" (hands one level
    # faster, mind two levels slower). The old help said the weaker seat thinks one below.
    assert default_speeds("child-adult", "normal") == ("easy/beginner", "normal")
    assert default_speeds("handicap", "difficult", 0) == ("expert/easy", "difficult")
    text = next(o.help for o in DUEL_GAME.options if o.name == "speed")
    assert "child's hands one level below, its mind two below" in text
    assert "weaker seat's hands one level above, its mind two below" in text
    assert "thinking one level below" not in text
    assert "real seconds" in text  # a person's moves are not simulated


def test_help_says_what_undo_does_in_a_solo_game() -> None:
    # The terminal's generic undo ("take back your last move (and the bots' moves after it)")
    # never runs in Katamino: the game reads `undo` as its own move, which takes back the
    # last piece of the stage ("`undo` takes back the last piece of the current stage").
    import io

    from tablesim.games.registry import get_game
    from tablesim.games.terminal import Resignation, TerminalHuman

    game = get_game("katamino")
    state = game.new_game(game.make_config({"mode": "solo", "card": 1, "challenge": 1},
                                           players=1), 0)  # fmt: skip
    out = io.StringIO()
    with pytest.raises(Resignation):
        TerminalHuman(game, io.StringIO("help\nquit\n"), out).choose(state)
    text = out.getvalue()
    assert "bots' moves" not in text
    assert "undo: take back the last piece placed on this stage" in text


def test_the_solo_prompt_counts_the_moves_by_piece() -> None:
    # The prompt listed the first 40 of 433 placements ("quit, 5 a1:1 a1:2 ..."); like Kozo's
    # it now counts them by piece, and `moves` still lists every one.
    import io
    from collections import Counter

    from tablesim.games.registry import get_game
    from tablesim.games.terminal import Resignation, TerminalHuman

    game = get_game("katamino")
    state = game.new_game(game.make_config({"mode": "solo", "card": 2, "challenge": 3},
                                           players=1), 0)  # fmt: skip
    texts = [game.format_move(state, m) for m in game.legal_moves(state)]
    by_piece = Counter(t.split()[0] for t in texts)
    out = io.StringIO()
    with pytest.raises(Resignation):
        TerminalHuman(game, io.StringIO("moves\nquit\n"), out).choose(state)
    before, listed = out.getvalue().split("(help: commands): ")[:2]
    prompt = before.splitlines()[-1]  # the prompt line (the board above shows an example)
    assert prompt.startswith("P1, your move [")
    assert f"[{len(texts)} moves: quit (1), " in prompt
    for name, n in by_piece.items():
        assert f"{name} ({n})" in prompt
    assert not any(t in prompt for t in texts if t != "quit")
    assert listed.splitlines()[0].strip() == ", ".join(texts)
