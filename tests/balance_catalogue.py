"""Every game type and level, with the ends its rulebook prints (issue 33, "Done means").

Each :class:`Case` is one game type at one level (Katoiz types and levels, Katamino duel modes
and colours, Kozo and Kataboom on their seeded stand-in judges, Kaito, Catego), the smart bot's
name there, and the ends ``tablesim balance`` may count (``play.end_label``):

- ``printed``: the rulebook's own ends (docs/rules/<game>.md quotes them);
- ``guards``: our confirmed readings where a game could otherwise never end (Stapeltje's true
  stalemate and dead position, Kataboom's ``stuck``); at Stapeltje levels 1-2 they are draws;
- anything else is an **invented ending**; a **turn cap** (any end naming the cap) is counted
  apart: 0 between smart bots, and it never names a winner.

:func:`play_case` plays the games through ``balance`` (the CLI's path: seats rotated, seeded
series) and returns the counts. ``python tests/balance_catalogue.py --games 1000`` plays the
full count per case and pairing, one JSON line each (the figures of the closing note);
``tests/test_balance_every_type.py`` plays a cut of it in the slow step.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tablesim.games.balance import balance, end_label  # noqa: E402
from tablesim.games.core import Result  # noqa: E402

TARGET = "P#'s home stack reached #"
STALEMATE = "stalemate: no roll lets any player move a tile"
DEAD = (
    "no sequence of moves can bring a home stack to # (the tiles that can still move only "
    "shuttle): a draw"
)


@dataclass(frozen=True)
class Case:
    """One game type at one level."""

    id: str
    game: str
    options: dict[str, Any]
    smart: str
    printed: frozenset[str]
    guards: frozenset[str] = frozenset()
    players: int = 2
    no_winner: bool = False
    """The rulebook names no winner at this level (Stapeltoren 1-2)."""
    winner_only_at: frozenset[str] | None = None
    """Only these ends may name a winner (Stapeltje levels 1-2: the target)."""
    slow: tuple[int, int] = (50, 50)
    """Games the slow step plays (smart-smart, smart-random): the 1,000 cut to fit CI."""


def _katoiz() -> list[Case]:
    out = []
    toren = frozenset({"supply empty", "nobody could take a tile"})
    for lv in range(1, 6):
        out.append(Case(f"katoiz-stapeltoren-{lv}", "katoiz", {"type": "stapeltoren", "level": lv},
                        "smart", toren, no_winner=lv <= 2))  # fmt: skip
    threeset = frozenset({"the tiles ran out", "no 3-set can be formed with the tiles left",
                          "there is a disc on every tile left",
                          "three turns in a row were forfeited"})  # fmt: skip
    for lv in range(1, 5):
        out.append(Case(f"katoiz-3-set-{lv}", "katoiz", {"type": "3-set", "level": lv}, "smart",
                        threeset))  # fmt: skip
    for players in (2, 4):
        for lv in range(1, 6):
            if lv in (1, 2):  # "The game ends when one of the players has made their home stack
                printed = frozenset({TARGET})  # four tiles high" (level 2: the agreed height)
                guards = frozenset({STALEMATE + "; no home stack can reach the target: a draw",
                                    DEAD})  # fmt: skip
            elif lv == 3:  # highest stack: three blocked turns, or the playing time
                printed = frozenset({"three blocked turns in a row",
                                     "the playing time (# s) ran out"})  # fmt: skip
                guards = frozenset({STALEMATE})
            else:  # the clocks: the target, or the last one out wins
                printed = frozenset({TARGET, "every clock ran out"})
                guards = frozenset(
                    {STALEMATE + ": the players still in pass until their clocks run out"}
                )
            out.append(Case(f"katoiz-stapeltje-{lv}" + ("" if players == 2 else f"-{players}p"),
                            "katoiz", {"type": "stapeltje", "level": lv}, "smart", printed,
                            guards, players=players,
                            winner_only_at=frozenset({TARGET}) if lv <= 2 else None,
                            slow=(50, 50) if players == 2 else (8, 8)))  # fmt: skip
    return out


def _katamino() -> list[Case]:
    # "The player with the highest score wins the game"; "In case of a tie, players swap the
    # last duel's piece ... and duel each other one last time"; duel3d: "The person winning the
    # most matches wins the game"
    duel = frozenset({"the highest score after # duels",
                      "a tie after # duels: the last gifts swapped, one last duel decided"})  # fmt: skip
    out = [
        Case(
            f"katamino-duel-{lv}",
            "katamino",
            {"mode": "duel", "level": lv},
            "smart",
            duel,
            slow=(2, 2),
        )  # fmt: skip
        for lv in ("beginner", "easy", "normal", "difficult", "expert")
    ]
    out.append(Case("katamino-child-adult", "katamino", {"mode": "child-adult"}, "smart", duel,
                    slow=(2, 2)))  # fmt: skip
    for lv in ("difficult", "expert"):
        out.append(Case(f"katamino-handicap-{lv}", "katamino", {"mode": "handicap", "level": lv},
                        "smart", duel, slow=(2, 2)))  # fmt: skip
    out.append(Case("katamino-duel3d", "katamino", {"mode": "duel3d"}, "smart",
                    frozenset({"the most matches won of #"}), slow=(2, 2)))  # fmt: skip
    # The solo modes, one seat: the puzzle solved, or the player stops ("quit" is a move: the
    # random bot draws it among the placements)
    solved = frozenset({"solved: all # stages", "solved: # stage", "quit after # of # stages",
                        "quit after # of # stage"})  # fmt: skip
    for mode in ("solo", "solo3d", "construction", "puzzle3d", "traditional", "picture"):
        out.append(Case(f"katamino-{mode}", "katamino", {"mode": mode}, "smart", solved,
                        players=1, slow=(2, 4)))  # fmt: skip
    return out


def _others() -> list[Case]:
    kozo = frozenset({"after # rounds: the highest total score",
                      "after # rounds: the highest total score, a tie: the player who moved later"})  # fmt: skip
    return [
        Case("kozo", "kozo", {"table": "stand-in"}, "careful", kozo, slow=(10, 10)),
        Case(
            "kozo-face-down",
            "kozo",
            {"table": "stand-in", "face_down": True},
            "careful",
            kozo,
            slow=(10, 10),
        ),  # fmt: skip
        # "The last player to place a piece without causing the structure to collapse is the
        # winner"; the supply running out: the last placer wins (the issue's reading); stuck:
        # no legal placement in the candidate set, the same way (docs/rules/kataboom.md)
        Case(
            "kataboom-1",
            "kataboom",
            {"table": "stand-in", "model": 1},
            "careful",
            frozenset({"collapse", "supply"}),
            frozenset({"stuck"}),
            slow=(10, 10),
        ),  # fmt: skip
        Case(
            "kataboom-18",
            "kataboom",
            {"table": "stand-in", "model": 18},
            "careful",
            frozenset({"collapse", "supply"}),
            frozenset({"stuck"}),
            slow=(10, 10),
        ),  # fmt: skip
        # "Your opponent can't move the Kaito", "... no Swords", "... no Helmets"
        Case(
            "kaito",
            "kaito",
            {},
            "strong",
            frozenset({"no-move", "no-katana", "no-kabuto"}),
            slow=(2, 4),
        ),  # fmt: skip
        Case(
            "kaito-first-tile",
            "kaito",
            {"movement": "first-tile"},
            "strong",
            frozenset({"no-move", "no-katana", "no-kabuto"}),
            slow=(2, 4),
        ),  # fmt: skip
        # "After each column ... has all its boxes filled in ... the player with the highest
        # number for that column wins the points"
        Case(
            "catego",
            "catego",
            {},
            "strong",
            frozenset(
                {
                    "every column filled: the player with the most points",
                    "every column filled: a tie on points, no winner",
                }
            ),
            slow=(6, 6),
        ),  # fmt: skip
    ]


CASES: tuple[Case, ...] = (*_katoiz(), *_katamino(), *_others())
PAIRINGS = ("smart-smart", "smart-random")


def roles_for(case: Case, pairing: str) -> list[str]:
    """The seats' bots: all smart, or one smart bot against random ones (a solo game's one
    seat: the smart bot, or the random bot alone)."""
    if pairing == "smart-smart":
        return [case.smart] * case.players
    if case.players == 1:
        return ["random"]
    return [case.smart] + ["random"] * (case.players - 1)


def is_cap(label: str) -> bool:
    """An end that names the turn cap (a safety net, never a rulebook end)."""
    return "turn cap" in label


def play_case(case: Case, pairing: str, games: int, seed: int = 0) -> dict[str, Any]:
    """Play ``games`` seeded games of ``case`` through ``balance`` and count how they ended:
    ``ends`` (balance's own counts), ``caps``, ``invented`` (ends neither printed nor a guard,
    and guards or caps that named a winner where none may be named), with examples."""
    seen: list[tuple[int, str, tuple[int, ...]]] = []

    def on_game(i: int, result: Result) -> None:
        seen.append((i, end_label(result), tuple(result.winners)))

    t0 = time.time()
    rep = balance(case.game, roles_for(case, pairing), games, seed, options=case.options,
                  on_game=on_game)  # fmt: skip
    wall = time.time() - t0
    caps = invented = 0
    examples: list[str] = []
    for i, label, winners in seen:
        bad = ""
        if is_cap(label):
            caps += 1
            if winners:
                bad = "the cap named a winner"
        elif label not in case.printed | case.guards:
            bad = "not a printed end"
        elif winners and case.no_winner:
            bad = "a winner where the rulebook names none"
        elif winners and case.winner_only_at is not None and label not in case.winner_only_at:
            bad = "a winner by an end that names none"
        if bad:
            invented += 1
            if len(examples) < 5:
                examples.append(f"game {i}: {label!r} winners {list(winners)}: {bad}")
    assert Counter(label for _, label, _ in seen) == Counter(rep["ends"])
    return {"case": case.id, "pairing": pairing, "games": games, "seed": seed,
            "ends": rep["ends"], "caps": caps, "invented": invented, "examples": examples,
            "wins_by_seat": rep["wins_by_seat"], "draws": rep["draws"],
            "wall_s": round(wall, 1)}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    """Play every case (or those whose id contains ``--only``) and print one JSON line per
    case, pairing and chunk: ``--games`` in chunks of ``--chunk``, chunk k the seeded series
    of seed ``--seed + k`` (so an interrupted run has played every case as far)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--chunk", type=int, default=0, help="games per line (0: --games)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", default="", help="comma-separated substrings of case ids")
    ap.add_argument("--skip", default="", help="comma-separated substrings of case ids")
    args = ap.parse_args(argv)
    keys = [k for k in args.only.split(",") if k]
    skip = [k for k in args.skip.split(",") if k]
    chunk = args.chunk or args.games
    for k in range(-(-args.games // chunk)):
        n = min(chunk, args.games - k * chunk)
        for case in CASES:
            if (keys and not any(x in case.id for x in keys)) or any(x in case.id for x in skip):
                continue
            for pairing in PAIRINGS:
                print(json.dumps(play_case(case, pairing, n, args.seed + k)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
