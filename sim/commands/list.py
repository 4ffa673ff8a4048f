"""``tablesim list [games|bots GAME|scenes|pieces|options GAME|specs]``: say what exists.

Each topic prints one line per item: its name, then a short description (``--json``: one
object). ``tablesim list`` alone lists every topic with its items' names.
"""

from __future__ import annotations

import argparse
from typing import Any

from tablesim.games.core import canonical_json
from tablesim.sim.cli import COMMAND_HELP, UsageError

TOPICS: dict[str, str] = {
    "games": "the games (tablesim play GAME)",
    "bots": "the bots of a game (tablesim list bots GAME; --players NAME,...)",
    "scenes": "the shipped scenes (tablesim simulate NAME, tablesim render NAME)",
    "pieces": "the piece catalogues (tablesim solve --pieces SET[:LABELS])",
    "options": "a game's options (tablesim list options GAME; tablesim play GAME --NAME VALUE)",
    "specs": "the example sweep specs (tablesim sweep example:NAME)",
}
_NEEDS_GAME = ("bots", "options")


def register(sub: argparse._SubParsersAction) -> None:
    """Add the ``list`` subcommand."""
    p = sub.add_parser(
        "list",
        help=COMMAND_HELP["list"],
        description="Say what exists. Topics: "
        + "; ".join(f"{k}: {v}" for k, v in TOPICS.items())
        + ".",
    )
    p.add_argument("topic", nargs="?", metavar="TOPIC", help=", ".join(TOPICS))
    p.add_argument("game", nargs="?", metavar="GAME", help="the game, for bots and options")
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.set_defaults(func=run)


def option_lines(game: Any) -> list[tuple[str, str]]:
    """``(flag, description)`` for each option of ``game``, as ``play`` takes them."""
    out = []
    for o in game.options:
        flag = "--" + o.name.replace("_", "-")
        meta = {"bool": "[BOOL]", "list[int]": "LIST"}.get(o.kind, o.kind.upper())
        allowed = f"; one of {', '.join(o.choices)}" if o.choices else ""
        default = o.default if not isinstance(o.default, (list, tuple)) else _int_list(o.default)
        out.append((f"{flag} {meta}", f"{o.help} (default {default}{allowed})"))
    return out


def _int_list(values: Any) -> str:
    vals = list(values)
    if len(vals) > 2 and vals == list(range(vals[0], vals[-1] + 1)):
        return f"{vals[0]}..{vals[-1]}"
    return ",".join(str(v) for v in vals)


def items(topic: str, game_name: str | None = None) -> list[tuple[str, str]]:
    """``(name, description)`` pairs of a topic (UsageError for unknown topics or games)."""
    from tablesim.games.registry import bot_classes, game_names, get_game

    if topic in _NEEDS_GAME:
        if game_name is None:
            raise UsageError(f"list {topic} needs a game (games: {', '.join(game_names())})")
        game = get_game(game_name)  # ConfigError naming the games
        if topic == "options":
            return option_lines(game)
        bots = sorted(bot_classes(game.name).items())
        return [("human", "a person at the terminal or the window")] + [
            (name, _first_line(cls.__doc__)) for name, cls in bots
        ]
    if game_name is not None:
        raise UsageError(f"list {topic} takes no game (got {game_name!r})")
    if topic == "games":
        out = []
        for name in game_names():
            g = get_game(name)
            seats = (
                f"{g.min_players}"
                if g.min_players == g.max_players
                else (f"{g.min_players}-{g.max_players}")
            )
            out.append((name, f"{g.title} ({seats} players)"))
        return out
    if topic == "scenes":
        return _toml_items("scenes")
    if topic == "specs":
        return [(f"example:{n}", d) for n, d in _toml_items("experiments")]
    if topic == "pieces":
        from tablesim.games.polycubes import CATALOGUES

        return [
            (name, f"{c.description}; labels {''.join(_labels(c))}")
            for name, c in sorted(CATALOGUES.items())
        ]
    raise UsageError(f"unknown topic {topic!r} (topics: {', '.join(TOPICS)})")


def _labels(catalogue: Any) -> list[str]:
    seen: list[str] = []
    for p in catalogue.pieces:
        if p.label not in seen:
            seen.append(p.label)
    return seen if all(len(x) == 1 for x in seen) else [",".join(seen)]


def _first_line(doc: str | None) -> str:
    text = " ".join((doc or "").strip().split("\n\n")[0].split()).replace("``", "")
    return text.split(". ")[0].rstrip(".")


def _toml_items(kind: str) -> list[tuple[str, str]]:
    """Shipped ``kind`` files with the first comment line (or the sweep's description)."""
    import re

    from tablesim.data import data_dir

    out = []
    for entry in sorted(data_dir(kind).iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".toml"):
            continue
        text = entry.read_text(encoding="utf-8")
        m = re.search(r'^description\s*=\s*"([^"]*)"', text, re.M)
        if m:
            desc = m.group(1)
        else:
            comments = [ln.lstrip("# ").strip() for ln in text.splitlines() if ln.startswith("#")]
            desc = comments[0] if comments else ""
        out.append((entry.name[:-5], desc))
    return out


def run(args: argparse.Namespace) -> int:
    """Print the topic's items (every topic's names when none is given)."""
    if args.topic is None:
        overview = {t: [n for n, _ in items(t)] for t in TOPICS if t not in _NEEDS_GAME}
        if args.json:
            print(canonical_json(overview))
            return 0
        for topic, desc in TOPICS.items():
            names = overview.get(topic)
            print(f"{topic:8s} {desc}" + (f": {', '.join(names)}" if names else ""))
        return 0
    rows = items(args.topic, args.game)
    if args.json:
        print(
            canonical_json(
                {"topic": args.topic, "items": [{"name": n, "about": d} for n, d in rows]}
            )
        )
        return 0
    width = max((len(n) for n, _ in rows), default=0)
    for name, desc in rows:
        print(f"{name:{width}s}  {desc}".rstrip())
    return 0


class GameHelpAction(argparse.Action):
    """``-h/--help`` for commands that take a GAME: after the usual help, the game's options
    (when GAME came before ``--help``) or a pointer to ``tablesim list``."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kw: Any) -> None:
        kw.setdefault("help", "show this help (with GAME: also the game's options) and exit")
        super().__init__(option_strings, dest=argparse.SUPPRESS, nargs=0, **kw)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        from tablesim.games.core import ConfigError
        from tablesim.games.registry import get_game

        parser.print_help()
        name = getattr(namespace, "game", None)
        try:
            game = get_game(name) if name else None
        except ConfigError as exc:
            print(f"\n{exc}")
            game = None
        if game is None:
            print(
                "\ngames: `tablesim list games`; a game's options: `tablesim play GAME --help`"
                " or `tablesim list options GAME`; bots: `tablesim list bots GAME`"
            )
        else:
            print(f"\n{game.title} options (after GAME, as --name value):")
            rows = option_lines(game) or [("(none)", "")]
            width = max(len(f) for f, _ in rows)
            for flag, desc in rows:
                print(f"  {flag:{width}s}  {desc}".rstrip())
            bots = ", ".join(n for n, _ in items("bots", game.name))
            print(
                f"\nplayers (--players, one per seat, {game.min_players} to {game.max_players}): {bots}"
            )
        parser.exit()
