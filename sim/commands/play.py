"""``tablesim play GAME --players A,B[,..]``: play a game in the terminal (bots or humans)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from games.core import canonical_json
from games.play import (
    TerminalHuman,
    log_header,
    log_lines,
    make_seats,
    parse_players,
    play_game,
)
from games.registry import game_names, get_game
from sim.cli import version
from sim.commands._common import add_game_arguments, atomic_write_text, parse_game_options


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``play`` subcommand."""
    p = sub.add_parser(
        "play",
        help="play a game (headless: prints each turn and a result line)",
        description="Play GAME with the given seats. Game options follow as --name value "
        f"(games: {', '.join(game_names())}).",
    )
    add_game_arguments(p)
    p.add_argument("--headless", action="store_true", help="no window (the terminal only)")
    p.add_argument("--window", action="store_true", help="open the interactive window (sim.view.app)")
    p.add_argument("--log", metavar="FILE", help="write the game's JSONL log (replayable)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play one game; exit 0 when it finished."""
    import sim.tables  # noqa: F401  (registers the physics referees, e.g. kozo-physics)

    game = get_game(args.game)
    roles = parse_players(args.players)
    options = parse_game_options(game, args.extra)
    config = game.make_config(options, players=len(roles))
    seats = make_seats(game.name, roles, args.seed, args.budget)
    if args.window or (not args.headless and not args.json and _window_wanted(seats)):
        from sim.commands.view import play_in_window

        return play_in_window(game.name, options, roles, args.seed, args.budget, log=args.log)
    out = sys.stderr if args.json else sys.stdout
    human = TerminalHuman(game, sys.stdin, out) if any(s.bot is None for s in seats) else None

    def on_move(before: Any, seat: int, move: Any, after: Any) -> None:
        if not args.json:
            n = game.turn_number(after)
            print(f"turn {n}: seat {seat} ({roles[seat]}): {game.describe_move(before, move)}")

    rec = play_game(
        game, config, seats, args.seed, human=human.choose if human else None, on_move=on_move
    )
    assert rec.result is not None
    if args.log:
        header = log_header(game, config, args.seed, seats, version())
        atomic_write_text(args.log, "\n".join(log_lines(header, rec)) + "\n")
    res = rec.result.to_json()
    if args.json:
        obj = {
            "game": game.name,
            "seed": args.seed,
            "players": roles,
            "winner": res["winner"],
            "winners": res["winners"],
            "scores": res["scores"],
            "turns": rec.turns,
            "detail": res["detail"],
        }
        print(canonical_json(obj))
    else:
        if res["winners"]:
            who = " and ".join(f"seat {w} ({roles[w]})" for w in res["winners"])
            verdict = f"{who} won"
        elif res["detail"].get("outcome"):  # a solo or team game says how it went
            verdict = str(res["detail"]["outcome"])
        else:
            verdict = "draw" if len(roles) > 1 else "no winner (a solo game)"
        scores = ", ".join(f"{s}" for s in res["scores"])
        print(f"result: {verdict}; scores {scores}; {rec.turns} turns")
        if res["detail"]:
            print("detail: " + json.dumps(res["detail"], sort_keys=True))
    return 0


def _window_wanted(seats: list[Any]) -> bool:
    """A window when a display exists, a person plays and the terminal is interactive."""
    from sim.commands.view import display_available

    return display_available() and any(s.bot is None for s in seats) and sys.stdin.isatty()
