"""``tablesim play GAME --players A,B[,..]``: play a game in the terminal (bots or humans)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from tablesim.games.core import GameError, TableRefused, canonical_json, counted
from tablesim.games.outputs import check_output
from tablesim.games.registry import game_names, get_game
from tablesim.games.session import Observer, Played, Session, UndoRequest, make_seats, parse_players
from tablesim.games.terminal import Resignation, TerminalHuman
from tablesim.sim.cli import COMMAND_HELP, version
from tablesim.sim.commands._common import (
    add_force_argument,
    add_game_arguments,
    atomic_write_text,
    parse_game_options,
)
from tablesim.sim.commands.list import GameHelpAction


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``play`` subcommand."""
    p = sub.add_parser(
        "play",
        help=COMMAND_HELP["play"],
        description="Play GAME with the given seats. Game options follow as --name value "
        f"(games: {', '.join(game_names())}).",
        add_help=False,
    )
    p.add_argument("-h", "--help", action=GameHelpAction)
    add_game_arguments(p)
    p.add_argument("--headless", action="store_true", help="no window (the terminal only)")
    p.add_argument(
        "--window", action="store_true", help="open the interactive window (sim.view.app)"
    )
    p.add_argument("--log", metavar="FILE", help="write the game's JSONL log (replayable)")
    add_force_argument(p, "the --log file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play one game; exit 0 when it finished."""

    game = get_game(args.game)
    roles = parse_players(args.players)
    options = parse_game_options(game, args.extra)
    config = game.make_config(options, players=len(roles))
    seats = make_seats(game.name, roles, args.seed, args.budget)
    if args.log:  # before the game: a person's game must not be lost to an unwritable --log
        check_output(args.log, force=args.force, option="--log")
    if args.window or (not args.headless and not args.json and _window_wanted(seats)):
        from tablesim.sim.commands.view import play_in_window

        return play_in_window(game.name, options, roles, args.seed, args.budget, log=args.log)
    out = sys.stderr if args.json else sys.stdout
    human = (
        TerminalHuman(game, sys.stdin, out, roles) if any(s.bot is None for s in seats) else None
    )
    observers = [] if args.json else [TurnPrinter(roles)]
    with Session(game, config, args.seed, seats, observers=observers) as session:
        resigned = _run_with_commands(session, human, out)
        if resigned is not None:
            named = getattr(game, "names_a_winner", None)
            no_winner = named is not None and not named(session.state)
            return _report_resignation(
                game, roles, resigned, session.turns, args, out, no_winner=no_winner
            )
        result = session.game.result(session.state)
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
            who = " and ".join(f"{game.player_name(w)} ({roles[w]})" for w in res["winners"])
            verdict = f"{who} won"
        elif res["detail"].get("outcome"):  # a solo or team game says how it went
            verdict = str(res["detail"]["outcome"])
        else:
            verdict = "draw" if len(roles) > 1 else "no winner (a solo game)"
        scores = ", ".join(f"{s}" for s in res["scores"])
        print(f"result: {verdict}; scores {scores}; {counted(turns, 'turn')}")
        if res["detail"]:
            print("detail: " + json.dumps(res["detail"], sort_keys=True))
    return 0


class TurnPrinter(Observer):
    """Prints ``turn N: P1 (role): what happened`` after every move (the board's names)."""

    def undone(self, session: Session, moves: Sequence[Played]) -> None:
        """Say what was taken back."""
        names = ", ".join(f"{p.text} ({session.game.player_name(p.seat)})" for p in moves)
        print(f"undone: {names}; turn {session.game.turn_number(session.state) + 1} again")

    def __init__(self, roles: list[str]) -> None:
        self.roles = roles

    def move_played(self, session: Session, played: Played) -> None:
        """One line per move, the game's own description of it."""
        n = session.game.turn_number(played.after)
        what = session.game.describe_move(played.before, played.move)
        name = session.game.player_name(played.seat)
        print(f"turn {n}: {name} ({self.roles[played.seat]}): {what}")


def _run_with_commands(session: Session, human: TerminalHuman | None, out: Any) -> int | None:
    """Play to the end, taking back moves on ``undo``; the resigning seat on ``quit``."""
    while not session.over:
        try:
            session.step(human.choose if human else None)
        except UndoRequest:
            # back to before the last move a person made (the bots' replies go with it)
            mine = [p.n for p in session.played if not session.is_bot(p.seat)]
            refusal = session.undo_refusal(mine[-1] - 1) if mine else None
            if not mine:
                print("  nothing to undo yet", file=out)
            elif refusal is not None:
                print(f"  {refusal}", file=out)
            else:
                session.undo_to(mine[-1] - 1)
        except Resignation as r:
            if not _own_resignation(session):
                return r.seat
        except TableRefused as exc:  # a person's move the table could not make: say why
            print(f"  refused at the table: {exc}", file=out)
    return None


def _own_resignation(session: Session) -> bool:
    """Play the game's own ``resign`` (or ``quit``) move when it has one (logged, judged by
    the rules); False when it has none."""
    for text in ("resign", "quit"):
        try:
            move = session.game.parse_move(session.state, text)
            session.check(move)
        except GameError:
            continue
        session.play(move)
        return True
    return False


def _report_resignation(
    game: Any,
    roles: list[str],
    seat: int,
    turns: int,
    args: argparse.Namespace,
    out: Any,
    *,
    no_winner: bool = False,
) -> int:
    """The result line of a resigned game (exit 0); no log: the game did not finish.
    ``no_winner``: the game names no winner here (a ``names_a_winner(state)`` hook said so,
    e.g. Stapeltoren levels 1-2), so a resignation does not make one either."""
    others = [s for s in range(len(roles)) if s != seat]
    winner = others[0] if len(others) == 1 and not no_winner else None
    loser = f"{game.player_name(seat)} ({roles[seat]})"
    if args.json:
        print(
            canonical_json(
                {
                    "game": game.name,
                    "seed": args.seed,
                    "players": roles,
                    "resigned": seat,
                    "winner": winner,
                    "turns": turns,
                }
            )
        )
    elif winner is not None:
        print(
            f"result: {loser} resigned; {game.player_name(winner)} ({roles[winner]}) won; "
            f"{counted(turns, 'turn')}"
        )
    elif no_winner:
        print(
            f"result: {loser} resigned; the game is stopped after {counted(turns, 'turn')} (no winner "
            "is named in this game)"
        )
    else:
        print(f"result: {loser} resigned; the game is abandoned after {counted(turns, 'turn')}")
    if args.log:
        print(f"no log written to {args.log}: the game did not finish", file=out)
    return 0


def _window_wanted(seats: list[Any]) -> bool:
    """A window when a display exists, a person plays and the terminal is interactive."""
    from tablesim.sim.commands.view import display_available

    return display_available() and any(s.bot is None for s in seats) and sys.stdin.isatty()
