"""Slow Katamino duel checks: every shipped card re-verified, every handicap replacement, every
3D draft, the difficulty figures, the generator's reproducibility and a longer bot match.

Run with ``pytest -m slow tests/test_katamino_duel_slow.py`` (about 5 minutes on one core).
"""

from __future__ import annotations

import itertools
import math

import pytest

from tablesim.games.bots import RandomBot
from tablesim.games.katamino import difficulty, is_solvable
from tablesim.games.katamino.duel import BOTS, DUEL_GAME
from tablesim.games.katamino.duel_cards import (
    HANDICAP_LEVELS,
    LEVELS,
    MINIS,
    PENTAS,
    TETRAS,
    apply_replacement,
    canonical,
    cards,
    cards3d,
    load,
    piece,
    split_options,
)
from tablesim.games.katamino.duel_fairness import FAIR, deck_figures, random_chance, side_state
from tablesim.games.katamino.duel_race import default_speeds
from tablesim.games.katamino.generate_duel import main as generate_main
from tablesim.games.session import Seat, play_game

pytestmark = pytest.mark.slow


def _solvable(target: str, names) -> bool:
    return is_solvable(target, [piece(n) for n in names])


def _bad_puzzles(halves, start, duels, back=()) -> list:
    used = {n for h in halves for n in h}
    table = sorted({p for p in PENTAS if p not in used} | set(back))
    assert len(table) >= 2 * (duels - 1)
    out = []
    for seat, half in enumerate(halves):
        for k in range(duels):
            for extra in itertools.combinations(table, k):
                if not _solvable(f"5x{start[seat] + k}", (*half, *extra)):
                    out.append((seat, k, extra))
    return out


def test_every_card_is_solvable_in_every_reachable_game() -> None:
    for card in cards():
        spec = LEVELS[card.level]
        assert _bad_puzzles(card.halves, spec.start, spec.duels) == [], card.id


def test_every_listed_handicap_replacement_is_safe_and_every_other_is_not() -> None:
    for level in HANDICAP_LEVELS:
        for card in cards(level):
            used = {n for h in card.halves for n in h}
            for seat in (0, 1):
                assert card.handicap[seat], card.id
                listed = {
                    (sw.split("=")[0], canonical(sw.split("=")[1].split("+")))
                    for sw in card.handicap[seat]
                }
                for old in set(card.halves[seat]):
                    for a, b in split_options(old):
                        if a in used or b in used:
                            continue
                        halves = apply_replacement(card.halves, seat, f"{old}={a}+{b}")
                        back = (old,) if old in PENTAS else ()
                        safe = not _bad_puzzles(halves, (4, 4), 3, back)
                        assert safe == ((old, canonical((a, b))) in listed), (card.id, old, a, b)


def test_every_3d_draft_builds_the_box_with_the_card_miniminos() -> None:
    splits = {(tuple(a), tuple(b)) for c in cards3d() for a, b in c.challenges}
    for first, second in splits:
        for ps in itertools.combinations(PENTAS, 3):
            for ts in itertools.combinations(TETRAS, 2):
                assert _solvable("2x3x5", (*ps, *ts, *first)), (ps, ts, first)
            for ts in itertools.combinations(TETRAS, 3):
                assert _solvable("2x3x5", (*ps, *ts, *second)), (ps, ts, second)


def test_the_failing_minimino_counts_are_right() -> None:
    for c in load()["minimino_choices"]:
        for k, (minis, n_tet) in enumerate(((c["first"], 2), (c["second"], 3))):
            fails = sum(
                not _solvable("2x3x5", (*ps, *ts, *minis))
                for ps in itertools.combinations(PENTAS, 3)
                for ts in itertools.combinations(TETRAS, n_tet)
            )
            assert fails == c["failing_drafts"][k], c
    assert set(MINIS) >= {n for c in load()["minimino_choices"] for n in c["first"]}


def test_shipped_difficulties_match_the_solver() -> None:
    # card difficulty: per seat and duel, the mean score over every set of gifts; then the mean.
    # Pieces go to the solver in sorted-name order (V2 named V1): its forced-move count follows
    # the first solution found, which depends on the order the pieces are given in.
    for card in cards():
        spec = LEVELS[card.level]
        used = {n for h in card.halves for n in h}
        table = [p for p in PENTAS if p not in used]
        per_duel = []
        for seat, half in enumerate(card.halves):
            for k in range(spec.duels):
                scores = [
                    difficulty(
                        f"5x{spec.start[seat] + k}",
                        [piece(n) for n in canonical((*half, *extra))],
                    ).score
                    for extra in itertools.combinations(table, k)
                ]
                per_duel.append(sum(scores) / len(scores))
        assert math.isclose(sum(per_duel) / len(per_duel), card.difficulty, abs_tol=1e-4), card.id


def test_the_generator_reproduces_the_shipped_file(capsys) -> None:
    assert generate_main(["--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_smart_giver_wins_most_normal_games_against_a_random_giver() -> None:
    cfg = DUEL_GAME.make_config({"mode": "duel", "level": "normal"}, players=2)
    games = duels = total = 0
    n = 16
    for seed in range(n):
        smart = seed % 2
        seats = [
            Seat("random", RandomBot(DUEL_GAME, seed)),
            Seat("random", RandomBot(DUEL_GAME, seed)),
        ]
        seats[smart] = Seat("smart", BOTS["smart"](DUEL_GAME, seed))
        rec = play_game(DUEL_GAME, cfg, seats, seed)
        games += rec.result.winner == smart
        for d in rec.result.detail["duels"][1:]:
            total += 1
            duels += d["winner"] == smart
    assert games > n / 2 and duels > total / 2


def test_every_card_side_has_halves_within_1_5x_on_both_clocks() -> None:
    from test_katamino_duel import side_is_balanced

    bad = [problem for card in cards() for problem in side_is_balanced(card)]
    assert bad == []


def test_smart_wins_three_quarters_of_normal_games_against_random() -> None:
    # the bar: >= 75 % on normal, now that a bot races on the time of its own search
    cfg = DUEL_GAME.make_config({"mode": "duel", "level": "normal"}, players=2)
    n, won = 40, 0
    for seed in range(n):
        smart = seed % 2
        seats = [Seat("random", RandomBot(DUEL_GAME, seed))] * 2
        seats[smart] = Seat("smart", BOTS["smart"](DUEL_GAME, seed))
        won += play_game(DUEL_GAME, cfg, seats, seed).result.winner == smart
    assert won >= 0.75 * n


FAIR_CASES = [
    ("child-adult", "normal", 0),
    ("handicap", "difficult", 0),
    ("handicap", "expert", 0),
]
"""``--weaker 1`` is the mirror of ``--weaker 0`` (the deck holds each side both ways round;
measured: seat 0 wins 50.0 % / 57.0 %, the complements of 50.0 % / 43.0 %), left out for time
(84 s of CPU a handicap deck, 111 s at expert). At expert the old default (the weaker seat at
``expert/normal`` against ``expert``) gave the weaker smart seat 34.4 %."""


@pytest.mark.parametrize(("mode", "level", "weaker"), FAIR_CASES)
def test_equal_bots_win_40_to_60_percent_from_either_seat_over_the_whole_deck(
    mode, level, weaker
) -> None:
    # The bar: with the default speeds, equal bots win 40-60 % from either seat. A
    # seeded game draws its side uniformly from the deck, so seat 0's expected share is the
    # deck mean: two smart bots play one deterministic game per side, two random bots have an
    # exact chance per side (enumerated over their gifts and replacements). No sampling: the
    # bound holds for the expectation itself (100 seeded games then give 40-60 with about
    # 96 % probability; the CLI's figures are in docs/rules/katamino-duo.md). Before, the
    # cards lay one way round and the child-adult sides were picked by predicted signs:
    # smart seat 0 won 7 of 12 difficult sides, the child 2 of 18 two-coloured sides.
    # Issue 33 asks 45-55 % for every mode: met by two smart bots here and by two random
    # ones in child-adult (50.0 %); between two random bots the handicap decks stay at the
    # 40-60 bound only (43.0 % at difficult, 58.9 % at expert: the speeds are whole levels,
    # docs/rules/katamino-duo.md), still open.
    f = deck_figures(mode, level, weaker)
    assert 0.45 <= f.smart <= 0.55, (f.smart, [s for s in f.sides])
    low, high = (0.45, 0.55) if mode != "handicap" else FAIR
    assert low <= f.random <= high, (f.random, [s for s in f.sides])


def test_the_exact_random_chance_agrees_with_played_games() -> None:
    # the enumeration follows one solution per race; real random bots choose among every
    # sensible placement (each at the same cost) and draw gifts and replacements by their
    # seeds: over 40 played games the count stays within the binomial 99.9 % range of n p
    speeds = default_speeds("handicap", "difficult", 1)
    chances = (
        (c, random_chance(side_state("handicap", c.id, c.halves, speeds, 1)))
        for c in cards("difficult")
    )
    # the first side both seats win often, so that a wrong chance would show
    card, p = next((c, p) for c, p in chances if 0.2 < p < 0.8)
    cfg = DUEL_GAME.make_config({"mode": "handicap", "weaker": 1, "card": card.card,
                                 "side": card.side}, players=2)  # fmt: skip
    n = 40
    won = sum(
        play_game(DUEL_GAME, cfg, [Seat("random", RandomBot(DUEL_GAME, s)),
                                   Seat("random", RandomBot(DUEL_GAME, s + 1000))], s
                  ).result.winners == (0,)
        for s in range(n)
    )  # fmt: skip
    sd = math.sqrt(n * p * (1 - p))
    assert abs(won - n * p) <= 3.3 * sd, (won, n * p)


def _replacement_ratios(level: str, slow: str) -> dict[str, float]:
    """Per clock, the geometric mean over the level's card sides, both weaker seats and every
    safe replacement of the weaker seat's expected game seconds over the other seat's, the
    weaker seat at speed ``slow`` and the other at ``level``."""
    import statistics

    from tablesim.games.katamino.duel_cards import apply_replacement, cards
    from tablesim.games.katamino.duel_race import side_seconds

    ratios: dict[str, list[float]] = {"level": [], "search": []}
    for c in cards(level):
        for w in (0, 1):
            for swap in c.handicap[w]:
                speeds = [level, level]
                speeds[w] = slow
                secs = side_seconds(apply_replacement(c.halves, w, swap), c.spec.start,
                                    c.spec.duels, (speeds[0], speeds[1]))  # fmt: skip
                for clock, pair in secs.items():
                    ratios[clock].append(pair[w] / pair[1 - w])
    return {k: statistics.geometric_mean(v) for k, v in ratios.items()}


def test_the_default_handicap_speeds_even_out_the_replacement_on_both_clocks() -> None:
    # The replacement gives the weaker seat one piece more to lay in each duel (a HANDLE more
    # on both clocks) and an easier puzzle (less thinking on the level clock; hardly any on
    # the search clock, whose solver needs tens of nodes). Thinking one level slower only (the
    # old default) left it 12.6 % slower on the search clock: two smart bots gave the weaker
    # seat 14 of 100. The default (hands one level faster, mind two slower) is within 10 % on
    # both clocks, on average over the difficult cards, both seats and every replacement.
    new = _replacement_ratios("difficult", "expert/easy")
    assert all(abs(math.log(r)) < math.log(1.1) for r in new.values()), new
    old = _replacement_ratios("difficult", "difficult/normal")
    assert old["search"] > 1.1, old
