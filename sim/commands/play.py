"""``tablesim play GAME --players A,B[,..]``: play a game in the terminal (bots or humans)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from games.core import canonical_json
from games.play import TerminalHuman, parse_players
from games.registry import game_names, get_game
from games.session import Observer, Played, Session, make_seats
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
    observers = [] if args.json else [TurnPrinter(roles)]
    with Session(game, config, args.seed, seats, observers=observers) as session:
        result = session.run(human.choose if human else None)
        if args.log:
            atomic_write_text(args.log, "\n".join(session.log_lines(version())) + "\n")
    turns = session.turns
    res = result.to_json()
    if args.json:
        obj = {
            "game": game.name,
            "seed": args.seed,
            "players": roles,
            "winner": res["winner"],
            "winners": res["winners"],
            "scores": res["scores"],
            "turns": turns,
            "detail": res["detail"],
        }
        print(canonical_json(obj))
    else:
        if res["winners"]:
            who = " and ".join(f"seat {w} ({roles[w]})" for w in res["winners"])
            verdict = f"{who} won"
        else:
            verdict = "draw"
        scores = ", ".join(f"{s}" for s in res["scores"])
        print(f"result: {verdict}; scores {scores}; {turns} turns")
        if res["detail"]:
            print("detail: " + json.dumps(res["detail"], sort_keys=True))
    return 0


class TurnPrinter(Observer):
    """Prints ``turn N: seat S (role): what happened`` after every move."""

    def __init__(self, roles: list[str]) -> None:
        self.roles = roles

    def move_played(self, session: Session, played: Played) -> None:
        """One line per move, the game's own description of it."""
        n = session.game.turn_number(played.after)
        what = session.game.describe_move(played.before, played.move)
        print(f"turn {n}: seat {played.seat} ({self.roles[played.seat]}): {what}")


def _window_wanted(seats: list[Any]) -> bool:
    """A window when a display exists, a person plays and the terminal is interactive."""
    from sim.commands.view import display_available

    return display_available() and any(s.bot is None for s in seats) and sys.stdin.isatty()
