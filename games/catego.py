"""Catego (Reiner Knizia): roll two dice, write the sum in a column, win the columns you top.

Rules as implemented (``docs/rules/catego.md`` quotes each ambiguous rulebook sentence next to
the reading taken and the option that offers the other one):

- 2 to 4 players, or 4 players as two partnerships: seats 0 and 2 (P1+P3, team T1) against
  seats 1 and 3 (P2+P4, team T2); turns go round the table, so the teams alternate.
- The score pad has one column per label of the ``columns`` option (default 2..12, short
  variant 1..10); a column is worth its label. Seat 0 starts; on each turn the current player
  has a roll of two dice and writes its sum in any open column of their own row.
- The dice are drawn from the state's :class:`~games.rng.Rng`: the first roll in ``new_game``,
  every later one when the previous move is applied. A state shows the current roll and
  never a future one.
- First-entry rule (``first_entry``): a player's first entry may not go in a column that a
  competitor's first entry already used. ``competitors`` (default) counts every other player
  in individual play and only the opposing team in partnerships; ``everyone`` also forbids the
  partner's column; ``off`` drops the rule. Every first entry is made in the first round, so
  seat ``i`` meets at most ``i`` blocked columns among ``len(columns)`` empty ones: with at
  least as many columns as players (``make_config`` demands it) a legal column always exists.
  Should a hand-built config break that bound, the rule is waived for that one entry rather
  than leaving a player without a move.
- A column is scored once every box in it is filled: the side (player, or team with the
  partners' entries added) with the highest value takes the column's points. ``tie_rule``:
  ``tie-highest`` (default) voids the column when the highest value is shared;
  ``any-duplicate`` voids it when any two sides' values are equal.
- The game ends when every row is full. Highest score wins (both partners of a team); equal
  top scores are a draw (no winners). ``Result.scores`` gives each seat its side's score.
- :func:`luck_report` is the rulebook's luck check: roll totals, score ratio against roll
  ratio for two sides, shares of points against shares of the roll total for any number.

A move is a column label (an ``int``); its text is the label (``"12"``, also ``"col 12"``).

The ``strong`` bot (:class:`StrongBot`) is Monte Carlo on a playout budget (never a clock):

- a playout writes the bot's current roll in the candidate column, then finishes the game
  with imagined dice, every player (the bot included) following :func:`rank_policy`: a roll
  goes to the open column whose rank matches the roll's rank among two-dice sums (best rolls
  to the top columns, columns already lost for good at the bottom), except that a roll which
  wins a higher column outright as its last box takes that column;
- a playout is worth, to the bot's side, ``1`` / ``0.5`` / ``0`` for a win / draw / loss plus
  ``margin_weight * margin / points_at_stake`` (its score minus the best other side's), so
  the margin separates lines that win or lose alike;
- candidates are compared with common random numbers (in each round every surviving column
  is played out on the same dice sequences) and successive halving: ``ceil(log2(k))`` rounds
  share the budget, and after each round the worse half of the columns is dropped, so most
  playouts go to the close contenders;
- ``budget`` counts playouts per decision (default 600; at least 4 per column per round).
  The bot's moves in a two-player game take about 0.25 s of one core (a strong-against-strong
  game about 0.5 s); more budget barely helps (1000 playouts won as often against ``random``
  over the same 200 games).

Its stream is ``Rng.from_seed(seed, "catego-strong", state_digest(state))``: the same seed and
state give the same move. The dice it imagines come from that stream, never from the state's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from numbers import Integral
from typing import Any, cast

from tablesim.games._config import check_choice
from tablesim.games.core import (
    Bot,
    ConfigError,
    Game,
    GameError,
    IllegalMoveError,
    MoveParseError,
    Option,
    Result,
    StateFormatError,
    check_state_header,
    counted,
    json_int,
    parse_int_list,
    state_config,
    state_head,
    state_rng,
)
from tablesim.games.rng import Rng

TIE_RULES: tuple[str, ...] = ("tie-highest", "any-duplicate")
FIRST_ENTRY_RULES: tuple[str, ...] = ("competitors", "everyone", "off")
DEFAULT_COLUMNS: tuple[int, ...] = tuple(range(2, 13))
SHORT_COLUMNS: tuple[int, ...] = tuple(range(1, 11))
STATE_VERSION = 1

# Number of ways to roll each sum with two dice (index = sum, 2..12).
_WAYS = (0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)


@dataclass(frozen=True)
class CategoConfig:
    """A validated Catego configuration (build it with ``GAME.make_config``).

    ``columns`` is sorted ascending; ``players`` counts seats (4 in partnerships).
    """

    players: int
    columns: tuple[int, ...] = DEFAULT_COLUMNS
    tie_rule: str = "tie-highest"
    partnerships: bool = False
    first_entry: str = "competitors"

    @cached_property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side: ``((0, 2), (1, 3))`` in partnerships, else one per seat
        (computed once per config: read several times a move)."""
        if self.partnerships:
            return ((0, 2), (1, 3))
        return tuple((seat,) for seat in range(self.players))

    @cached_property
    def boxes(self) -> int:
        """The boxes on the pad (players x columns): the game ends when all are filled."""
        return self.players * len(self.columns)

    def side_of(self, seat: int) -> int:
        """The side index of ``seat``."""
        return seat % 2 if self.partnerships else seat

    @property
    def points_at_stake(self) -> int:
        """Sum of the column labels: 77 for 2..12, 55 for 1..10."""
        return sum(self.columns)


@dataclass(frozen=True)
class Entry:
    """One turn of the game: the two dice rolled and the column the sum was written in."""

    dice: tuple[int, int]
    column: int

    @property
    def value(self) -> int:
        """The number written on the pad (the sum of the dice)."""
        return self.dice[0] + self.dice[1]


@dataclass(frozen=True)
class CategoState:
    """A Catego position.

    ``history`` holds every entry in turn order (turn ``t`` was seat ``t % players``);
    ``roll`` is the current player's dice (None once the game is over); ``rng`` draws the next
    roll. The pad (:attr:`rows`) is derived from the history.
    """

    config: CategoConfig
    rng: Rng
    roll: tuple[int, int] | None
    history: tuple[Entry, ...] = ()

    @cached_property
    def turn(self) -> int:
        """Number of entries written so far (kept: read several times a move)."""
        return len(self.history)

    @cached_property
    def rows(self) -> tuple[tuple[int | None, ...], ...]:
        """The pad: ``rows[seat][i]`` is the entry in column ``config.columns[i]`` or None."""
        cfg = self.config
        index = {label: i for i, label in enumerate(cfg.columns)}
        rows: list[list[int | None]] = [[None] * len(cfg.columns) for _ in range(cfg.players)]
        for t, entry in enumerate(self.history):
            rows[t % cfg.players][index[entry.column]] = entry.value
        return tuple(tuple(row) for row in rows)

    @cached_property
    def column_sides(self) -> tuple[int, ...]:
        """Per column (in ``config.columns`` order): the side that takes it, ``VOID`` for a
        complete column nobody takes, ``OPEN`` while an entry is missing (what
        :func:`column_results` says, kept per state for the observation planes)."""
        return tuple(_column_side(self.config, cells) for cells in zip(*self.rows, strict=True))


OPEN = -1
""":attr:`CategoState.column_sides` of a column still missing an entry."""
VOID = -2
""":attr:`CategoState.column_sides` of a complete column that no side takes (a tie)."""


def _column_side(cfg: CategoConfig, cells: Sequence[int | None]) -> int:
    if None in cells:
        return OPEN
    if cfg.partnerships:
        values = [sum(cells[s] or 0 for s in side) for side in cfg.sides]
    else:
        values = [v or 0 for v in cells]
    side = column_winner(values, cfg.tie_rule)
    return VOID if side is None else side


# ---- scoring ------------------------------------------------------------------------------


def column_winner(values: Sequence[int], tie_rule: str) -> int | None:
    """The index of the side that takes a complete column, or None when it is void.

    ``values`` holds each side's value in the column (a team's value is its partners' sum).
    """
    top = max(values)
    if tie_rule == "any-duplicate":
        if len(set(values)) < len(values):
            return None
    elif values.count(top) > 1:
        return None
    return values.index(top)


def column_results(state: CategoState) -> dict[int, int | None]:
    """Every complete column's label mapped to the winning side (None for a void column)."""
    # (read from the state's column_sides, kept per state: _column_side is this rule)
    return {
        label: None if side == VOID else side
        for label, side in zip(state.config.columns, state.column_sides, strict=True)
        if side != OPEN
    }


def side_scores(state: CategoState) -> tuple[int, ...]:
    """Points of each side from the columns completed so far."""
    scores = [0] * len(state.config.sides)
    for label, side in column_results(state).items():
        if side is not None:
            scores[side] += label
    return tuple(scores)


def _ratio(a: float, b: float) -> float | None:
    return round(a / b, 4) if b else None


def luck_report(state: CategoState) -> dict[str, Any]:
    """The rulebook's luck check for ``state`` (usually a finished game), as JSON-safe data.

    Keys: ``sides`` (seats per side), ``roll_totals`` (per seat: the sum of every roll it has
    written), ``side_roll_totals``, ``side_scores``, ``points_at_stake``, ``points_scored``;
    per side ``score_shares`` and ``roll_shares`` (fractions of the points scored and of all
    rolls; None when nothing was scored or rolled) and ``edges`` (score share minus roll share:
    positive means the side did better than its dice); ``better_play`` (the seats of the side
    with the largest edge, empty on a tie or when undefined). With exactly two sides it adds
    ``score_ratio`` and ``roll_ratio`` (side 0 over side 1; None when dividing by zero).
    Floats are rounded to 4 places.
    """
    cfg = state.config
    roll_totals = [0] * cfg.players
    for t, entry in enumerate(state.history):
        roll_totals[t % cfg.players] += entry.value
    side_rolls = [sum(roll_totals[s] for s in side) for side in cfg.sides]
    scores = list(side_scores(state))
    total_score, total_rolls = sum(scores), sum(side_rolls)
    score_shares = [_ratio(s, total_score) for s in scores]
    roll_shares = [_ratio(r, total_rolls) for r in side_rolls]
    edges: list[float | None] = [None] * len(scores)
    better: list[int] = []
    if total_score and total_rolls:
        known = [
            round(s / total_score - r / total_rolls, 4)
            for s, r in zip(scores, side_rolls, strict=True)
        ]
        edges = list(known)
        if known.count(max(known)) == 1:
            better = list(cfg.sides[known.index(max(known))])
    report: dict[str, Any] = {
        "sides": [list(side) for side in cfg.sides],
        "roll_totals": roll_totals,
        "side_roll_totals": side_rolls,
        "side_scores": scores,
        "points_at_stake": cfg.points_at_stake,
        "points_scored": total_score,
        "score_shares": score_shares,
        "roll_shares": roll_shares,
        "edges": edges,
        "better_play": better,
    }
    if len(cfg.sides) == 2:
        report["score_ratio"] = _ratio(scores[0], scores[1])
        report["roll_ratio"] = _ratio(side_rolls[0], side_rolls[1])
    return report


# ---- helpers ------------------------------------------------------------------------------


def _roll(rng: Rng) -> tuple[tuple[int, int], Rng]:
    a, rng = rng.randint(1, 6)
    b, rng = rng.randint(1, 6)
    return (a, b), rng


def _labels_text(labels: Sequence[int]) -> str:
    """``2..12`` for a run of consecutive labels, else ``1, 3, 8``; ``none`` when empty."""
    labels = list(labels)
    if not labels:
        return "none"
    if len(labels) > 2 and labels == list(range(labels[0], labels[-1] + 1)):
        return f"{labels[0]}..{labels[-1]}"
    return ", ".join(str(v) for v in labels)


def _is_int(value: Any) -> bool:
    return isinstance(value, Integral) and not isinstance(value, bool)


def _seat_name(seat: int) -> str:
    return f"P{seat + 1}"


def _side_name(cfg: CategoConfig, side: int) -> str:
    return f"T{side + 1}" if cfg.partnerships else _seat_name(side)


def _side_list(cfg: CategoConfig, side: int | None) -> list[int]:
    """The seats of the side that won a column (none for a void column)."""
    return [] if side is None else list(cfg.sides[side])


def _outcome_text(cfg: CategoConfig, results: Mapping[int, int | None], label: int) -> str:
    if label not in results:
        return "-"
    side = results[label]
    return "tie" if side is None else _side_name(cfg, side)


MAX_COLUMNS = 100
"""The most columns a Catego pad may have (the game is meant for 11: 2..12)."""


def _check_columns(value: Any, players: int) -> tuple[int, ...]:
    allowed = "distinct positive integer labels, at least one per player (e.g. 2..12 or 1..10)"
    if isinstance(value, str):
        try:
            value = parse_int_list(value, MAX_COLUMNS)
        except ValueError:
            raise ConfigError(
                f"catego: option 'columns': {value[:200]!r} is not a list of at most "
                f"{MAX_COLUMNS} labels; {allowed}"
            ) from None
    if not isinstance(value, (list, tuple)):
        raise ConfigError(
            f"catego: option 'columns': {str(value)[:200]!r} is not a list; {allowed}"
        )
    if len(value) > MAX_COLUMNS:
        raise ConfigError(
            f"catego: option 'columns': {len(value)} labels; at most {MAX_COLUMNS}; {allowed}"
        )
    seen: set[int] = set()
    for label in value:
        if not _is_int(label):
            raise ConfigError(
                f"catego: option 'columns': label {label!r} is not an integer; {allowed}"
            )
        if label <= 0:
            raise ConfigError(
                f"catego: option 'columns': label {label} is not positive (a column is worth "
                f"its label); {allowed}"
            )
        if int(label) in seen:
            raise ConfigError(f"catego: option 'columns': label {label} appears twice; {allowed}")
        seen.add(int(label))
    if len(seen) < players:
        raise ConfigError(
            f"catego: option 'columns': {len(seen)} column(s) for {players} players; the "
            f"first-entry rule needs at least one column per player; {allowed}"
        )
    return tuple(sorted(seen))


def _json_dice(value: Any, what: str) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise StateFormatError(f"catego state: {what} must be a list of two dice, got {value!r}")
    where = f"catego state: {what}"
    return (json_int(value[0], where, 1, 6), json_int(value[1], where, 1, 6))


_MOVE_RE = re.compile(r"^\s*(?:col(?:umn)?\.?\s*)?(\d+)\s*$", re.IGNORECASE)


# ---- the game -----------------------------------------------------------------------------


class Catego(Game[CategoState, int, CategoConfig]):
    """The rules of Catego (see the module docstring)."""

    name = "catego"
    title = "Catego"
    min_players = 2
    max_players = 4
    options = (
        Option(
            "columns",
            "list[int]",
            DEFAULT_COLUMNS,
            "column labels, each worth its label (short variant: 1..10)",
        ),
        Option(
            "tie_rule",
            "str",
            "tie-highest",
            "a shared highest value voids a column, or any duplicate value does",
            TIE_RULES,
        ),
        Option(
            "partnerships",
            "bool",
            False,
            "4 players as two teams, P1+P3 against P2+P4; partners' entries are added",
        ),
        Option(
            "first_entry",
            "str",
            "competitors",
            "first entries must differ from the competitors' (partners excepted), from "
            "everyone's, or the rule is off",
            FIRST_ENTRY_RULES,
        ),
    )

    # ---- configuration -------------------------------------------------------------------
    def make_config(self, values: Mapping[str, Any] | None = None, *, players: int) -> CategoConfig:
        """Validate ``values`` for ``players`` seats; ConfigError names the key and the fix."""
        values = dict(values or {})
        self.check_option_keys(values)
        if not _is_int(players):
            raise ConfigError(f"catego: players must be an integer, got {players!r}")
        players = int(players)
        self.check_players(players)
        columns = _check_columns(values.get("columns", DEFAULT_COLUMNS), players)
        tie_rule = check_choice(
            self.name, "tie_rule", values.get("tie_rule", "tie-highest"), TIE_RULES
        )
        partnerships = values.get("partnerships", False)
        if not isinstance(partnerships, bool):
            raise ConfigError(
                f"catego: option 'partnerships': {partnerships!r} (allowed: true, false)"
            )
        if partnerships and players != 4:
            raise ConfigError(
                f"catego: option 'partnerships' needs exactly 4 players (P1+P3 against "
                f"P2+P4), got {players}"
            )
        first_entry = check_choice(
            self.name, "first_entry", values.get("first_entry", "competitors"), FIRST_ENTRY_RULES
        )
        return CategoConfig(players, columns, tie_rule, partnerships, first_entry)

    def config_to_json(self, config: CategoConfig) -> dict[str, Any]:
        """The config as JSON, ``players`` included."""
        return {
            "players": config.players,
            "columns": list(config.columns),
            "tie_rule": config.tie_rule,
            "partnerships": config.partnerships,
            "first_entry": config.first_entry,
        }

    # ---- rules ---------------------------------------------------------------------------
    def new_game(self, config: CategoConfig, seed: int) -> CategoState:
        """Empty pad; seat 0 to play with its roll already drawn from the seeded stream."""
        if not isinstance(config, CategoConfig):
            raise ConfigError("catego: new_game needs a config made by make_config")
        roll, rng = _roll(Rng.from_seed(seed, "catego"))
        return CategoState(config, rng, roll)

    def num_players(self, state: CategoState) -> int:
        """Number of seats."""
        return state.config.players

    def is_terminal(self, state: CategoState) -> bool:
        """True once every row is full."""
        return state.turn >= state.config.boxes

    def current_player(self, state: CategoState) -> int | None:
        """The seat to write next, or None at the end."""
        turn = state.turn
        cfg = state.config
        return None if turn >= cfg.boxes else turn % cfg.players

    def open_columns(self, state: CategoState) -> tuple[int, ...]:
        """The columns still empty in the current player's row (empty at the end)."""
        seat = self.current_player(state)
        if seat is None:
            return ()
        return tuple(
            label
            for label, v in zip(state.config.columns, state.rows[seat], strict=True)
            if v is None
        )

    def first_entry_blocks(self, state: CategoState) -> dict[int, int]:
        """Columns the first-entry rule forbids to the player to move: label -> blocking seat."""
        cfg = state.config
        seat = self.current_player(state)
        if seat is None or cfg.first_entry == "off" or state.turn >= cfg.players:
            return {}
        # Turn t < players is seat t's first entry, so every earlier entry is a first entry.
        out: dict[int, int] = {}
        for other, entry in enumerate(state.history):
            if cfg.first_entry == "everyone" or cfg.side_of(other) != cfg.side_of(seat):
                out[entry.column] = other
        return out

    def legal_moves(self, state: CategoState) -> tuple[int, ...]:
        """The open columns of the current player's row that the first-entry rule allows.

        If that rule would leave nothing (only possible with fewer columns than players, which
        ``make_config`` refuses), it is waived and every open column is legal. (Kept with the
        state once asked: states are frozen, and ``apply`` and the environments ask again.)
        """
        cached = state.__dict__.get("_legal_moves")
        if cached is not None:
            return cast("tuple[int, ...]", cached)
        open_cols = self.open_columns(state)
        blocked = self.first_entry_blocks(state) if state.turn < state.config.players else {}
        legal = tuple(label for label in open_cols if label not in blocked)
        legal = legal or open_cols
        state.__dict__["_legal_moves"] = legal
        return legal

    def apply(self, state: CategoState, move: int) -> CategoState:
        """Write the current roll in column ``move``; the next roll is drawn unless it is over."""
        cfg = state.config
        seat = self.current_player(state)
        if seat is None:
            raise IllegalMoveError("catego: the game is over, every row is full")
        legal = self.legal_moves(state)
        if type(move) is not int and not _is_int(move) or move not in cfg.columns:
            raise IllegalMoveError(
                f"catego: {move!r} is not a column (columns: {_labels_text(cfg.columns)}); "
                f"{_seat_name(seat)} may write in {_labels_text(legal)}"
            )
        move = int(move)
        if move not in legal:
            who = _seat_name(seat)
            value = state.rows[seat][cfg.columns.index(move)]
            if value is not None:
                raise IllegalMoveError(
                    f"catego: column {move} is closed for {who} (it already holds {value}; "
                    f"one entry per column); {who} may write in {_labels_text(legal)}"
                )
            blocker = self.first_entry_blocks(state)[move]
            raise IllegalMoveError(
                f"catego: first-entry rule: {who}'s first entry may not go in column {move}, "
                f"where {_seat_name(blocker)} made their first entry; {who} may write in "
                f"{_labels_text(legal)}"
            )
        if state.roll is None:
            raise GameError("catego: state has no roll to write")
        history = (*state.history, Entry(state.roll, move))
        if len(history) >= cfg.boxes:
            after = CategoState(cfg, state.rng, None, history)
        else:
            roll, rng = _roll(state.rng)
            after = CategoState(cfg, rng, roll, history)
        rows = state.__dict__.get("rows")
        if rows is not None:  # the pad extended by the new entry (the same as rebuilding it)
            j = cfg.columns.index(move)
            row = list(rows[seat])
            row[j] = state.roll[0] + state.roll[1]
            new_rows = after.__dict__["rows"] = (*rows[:seat], tuple(row), *rows[seat + 1 :])
            sides = state.__dict__.get("column_sides")
            if sides is not None:  # only the written column can change
                side = _column_side(cfg, [r[j] for r in new_rows])
                after.__dict__["column_sides"] = (*sides[:j], side, *sides[j + 1 :])
        return after

    @staticmethod
    def _winners(cfg: CategoConfig, scores: tuple[int, ...]) -> tuple[int, ...]:
        top = max(scores)
        return cfg.sides[scores.index(top)] if scores.count(top) == 1 else ()

    def winners(self, state: CategoState) -> tuple[int, ...]:
        """``result(state).winners`` without the rest of the result (the luck report, the
        columns' detail): an environment reads only who won, at every episode's end."""
        if not self.is_terminal(state):
            raise GameError(f"catego: the game is not over (turn {state.turn})")
        return self._winners(state.config, side_scores(state))

    def result(self, state: CategoState) -> Result:
        """Scores per seat (a team's score for both partners), winners, and the luck report."""
        if not self.is_terminal(state):
            raise GameError(
                f"catego: the game is not over (turn {state.turn} of "
                f"{state.config.players * len(state.config.columns)})"
            )
        cfg = state.config
        scores = side_scores(state)
        winners = self._winners(cfg, scores)
        results = column_results(state)
        # "After each column ... has all its boxes filled in, the player with the highest
        # number for that column wins the points"; "The team that scores the most total
        # points wins the game" (a shared top names no winner)
        side = "team" if len(cfg.sides[0]) > 1 else "player"
        end = (
            f"every column filled: the {side} with the most points"
            if winners
            else "every column filled: a tie on points, no winner"
        )
        detail = {
            "end": end,
            "points_at_stake": cfg.points_at_stake,
            "columns": [
                {
                    "column": label,
                    "winners": _side_list(cfg, results[label]),
                }
                for label in cfg.columns
            ],
            "luck": luck_report(state),
        }
        return Result(
            scores=tuple(float(scores[cfg.side_of(s)]) for s in range(cfg.players)),
            winners=winners,
            detail=detail,
        )

    # ---- text and JSON -------------------------------------------------------------------
    def format_move(self, state: CategoState, move: int) -> str:
        """The column label as text, e.g. ``"12"``."""
        return str(move)

    def parse_move(self, state: CategoState, text: str) -> int:
        """Parse ``"12"``, ``"col 12"`` or ``"column 12"`` into the column label 12.

        Raises MoveParseError (listing the open columns) for anything else, including a number
        that is no column label; closed columns and the first-entry rule are left to ``apply``.
        """
        match = _MOVE_RE.match(text) if isinstance(text, str) else None
        if match is None or int(match.group(1)) not in state.config.columns:
            open_cols = self.legal_moves(state)
            hint = (
                f"type a column label, one of {_labels_text(open_cols)}"
                if open_cols
                else "the game is over"
            )
            what = "not a column" if match else "not a move"
            raise MoveParseError(f"catego: {text!r} is {what}; {hint}")
        return int(match.group(1))

    def state_to_json(self, state: CategoState) -> dict[str, Any]:
        """Config, random stream (hex), current roll and every entry in turn order."""
        return {
            **state_head(self, STATE_VERSION, state.config, state.rng),
            "roll": None if state.roll is None else list(state.roll),
            "history": [{"dice": list(e.dice), "column": e.column} for e in state.history],
        }

    def state_from_json(self, obj: Mapping[str, Any]) -> CategoState:
        """Rebuild and check a state (rules replayed on the history); raises StateFormatError."""
        check_state_header(obj, self.name, STATE_VERSION)
        config = state_config(self, obj)
        rng = state_rng(self.name, obj.get("rng"))
        history_obj = obj.get("history")
        if not isinstance(history_obj, list):
            raise StateFormatError("catego state: 'history' must be a list")
        state = CategoState(config, rng, None)
        for t, item in enumerate(history_obj):
            if not isinstance(item, Mapping) or set(item) != {"dice", "column"}:
                raise StateFormatError(
                    f"catego state: history[{t}] must be an object with 'dice' and 'column'"
                )
            if self.is_terminal(state):
                raise StateFormatError(f"catego state: history[{t}] comes after the last turn")
            dice = _json_dice(item["dice"], f"history[{t}].dice")
            state = CategoState(config, rng, dice, state.history)
            try:
                state = self.apply(state, item["column"])
            except IllegalMoveError as exc:
                raise StateFormatError(f"catego state: history[{t}]: {exc}") from None
        roll_obj = obj.get("roll")
        if self.is_terminal(state):
            if roll_obj is not None:
                raise StateFormatError("catego state: 'roll' must be null once the game is over")
            roll = None
        else:
            roll = _json_dice(roll_obj, "roll")
        return CategoState(config, rng, roll, state.history)

    def describe(self, state: CategoState) -> str:
        """The score pad: one row per player, the column winners, scores and the current roll."""
        cfg = state.config
        width = max(4, len(str(max(cfg.columns))) + 1)
        results = column_results(state)
        scores = side_scores(state)
        head = f"{'Column':<8}" + "".join(f"{label:>{width}}" for label in cfg.columns)
        lines = [
            f"Catego: {cfg.players} players, columns {_labels_text(cfg.columns)} "
            f"({cfg.points_at_stake} points at stake), tie rule {cfg.tie_rule}",
        ]
        if cfg.partnerships:
            lines.append("Teams: T1 = P1+P3, T2 = P2+P4 (partners' entries are added)")
        lines.append(head + " | Score")
        for seat, row in enumerate(state.rows):
            side = cfg.side_of(seat)
            cells = "".join(f"{'.' if v is None else v:>{width}}" for v in row)
            tag = f"{_seat_name(seat)} ({_side_name(cfg, side)})" if cfg.partnerships else ""
            lines.append(f"{tag or _seat_name(seat):<8}{cells} | {scores[side]:>5}")
        won = "".join(f"{_outcome_text(cfg, results, label):>{width}}" for label in cfg.columns)
        lines.append(f"{'Won by':<8}{won} |")
        total = cfg.players * len(cfg.columns)
        mover = self.current_player(state)
        if mover is None or state.roll is None:
            top = max(scores)
            if scores.count(top) == 1:
                verdict = f"{_side_name(cfg, scores.index(top))} wins"
            else:
                verdict = "a draw"
            lines.append(
                f"Game over after {total} turns: {verdict}, "
                + " - ".join(f"{_side_name(cfg, s)} {v}" for s, v in enumerate(scores))
            )
        else:
            a, b = state.roll
            lines.append(
                f"Turn {state.turn + 1} of {total}: {_seat_name(mover)} rolled {a}+{b}={a + b}; "
                f"may write in {_labels_text(self.legal_moves(state))}"
            )
        return "\n".join(lines)

    undo_limit = "but never a roll once the next dice are seen (a written roll stands)"
    """What ``help`` adds to ``undo`` (:meth:`undo_refusal` refuses the rest)."""

    def undo_refusal(self, played: Any) -> str | None:
        """Why the move ``played`` (a :class:`tablesim.games.session.Played`) cannot be taken back, or
        None: once it is written the next dice are rolled and seen, and a take-back would let
        the mover choose again knowing them (the dice stream is the seeded game's, so the same
        rolls would follow any other column). The rulebook has no take-back; a roll is
        written once seen (docs/rules/catego.md, Undo)."""
        after = played.after
        if after.roll is None:
            return None
        a, b = after.roll
        return (
            f"catego: the dice rolled after {played.text!r} ({a}+{b}) have been seen; "
            "a written roll stands"
        )

    def describe_move(self, state: CategoState, move: int) -> str:
        """E.g. ``"P1 rolled 4+6=10, writes 10 in column 12"`` (plus the column's outcome)."""
        after = self.apply(state, move)
        seat = state.turn % state.config.players
        a, b = after.history[-1].dice
        text = f"{_seat_name(seat)} rolled {a}+{b}={a + b}, writes {a + b} in column {move}"
        results = column_results(after)
        if move in results:
            side = results[move]
            if side is None:
                text += f"; column {move} is complete and void (tie), nobody scores"
            else:
                text += (
                    f"; column {move} is complete, {_side_name(state.config, side)} "
                    f"takes {counted(move, 'point')}"
                )
        return text


GAME = Catego()


# ---- the strong bot -----------------------------------------------------------------------

# _QUANTILE[r]: where a sum r of two dice falls in the distribution of sums, in (0, 1):
# P(X < r) + P(X = r) / 2.
_QUANTILE = tuple((sum(_WAYS[:r]) + _WAYS[r] / 2) / 36 for r in range(13))
# Two dice as one base-36 digit: _DIGIT_SUM[d] is the sum of the dice (d // 6 + 1, d % 6 + 1).
_DIGIT_SUM = tuple(d // 6 + d % 6 + 2 for d in range(36))
_DIGITS_PER_DRAW = 12
_DIGIT_LIMIT = ((1 << 64) // 36**_DIGITS_PER_DRAW) * 36**_DIGITS_PER_DRAW


def _future_sums(rng: Rng, count: int) -> tuple[list[int], Rng]:
    """``count`` sums of two fair dice from ``rng`` (12 per 64-bit draw, exactly uniform)."""
    out: list[int] = []
    while len(out) < count:
        v, rng = rng.next_u64()
        if v >= _DIGIT_LIMIT:
            continue
        for _ in range(_DIGITS_PER_DRAW):
            v, d = divmod(v, 36)
            out.append(_DIGIT_SUM[d])
    return out[:count], rng


class _Pad:
    """A mutable, index-based copy of a position for fast playouts.

    ``open[seat]`` lists the column indices still empty in that row (ascending = by label);
    ``vals[j]`` holds each side's value so far in column ``j`` and ``filled[j]`` how many boxes
    of it are written; ``firsts`` the column index of each first entry made so far.
    """

    __slots__ = ("cfg", "n", "side", "turn", "open", "vals", "filled", "firsts")

    def __init__(self, state: CategoState) -> None:
        cfg = state.config
        self.cfg = cfg
        self.n = cfg.players
        self.side = [cfg.side_of(s) for s in range(self.n)]
        self.turn = state.turn
        rows = state.rows
        self.open = [[j for j, v in enumerate(row) if v is None] for row in rows]
        self.vals = [[0] * len(cfg.sides) for _ in cfg.columns]
        self.filled = [0] * len(cfg.columns)
        for seat, row in enumerate(rows):
            for j, v in enumerate(row):
                if v is not None:
                    self.vals[j][self.side[seat]] += v
                    self.filled[j] += 1
        index = {label: i for i, label in enumerate(cfg.columns)}
        self.firsts = [index[e.column] for e in state.history[: self.n]]

    def copy(self) -> _Pad:
        other = _Pad.__new__(_Pad)
        other.cfg, other.n, other.side, other.turn = self.cfg, self.n, self.side, self.turn
        other.open = [cols[:] for cols in self.open]
        other.vals = [v[:] for v in self.vals]
        other.filled = self.filled[:]
        other.firsts = self.firsts[:]
        return other

    def options(self, seat: int) -> list[int]:
        """Open column indices of ``seat``'s row allowed by the first-entry rule, ascending."""
        cols = self.open[seat]
        if self.turn < self.n and self.cfg.first_entry != "off":
            side, everyone = self.side[seat], self.cfg.first_entry == "everyone"
            blocked = {c for o, c in enumerate(self.firsts) if everyone or self.side[o] != side}
            return [j for j in cols if j not in blocked] or cols
        return cols

    def write(self, seat: int, col: int, value: int) -> None:
        """Write ``value`` in column index ``col`` of ``seat``'s row and pass the turn."""
        self.open[seat].remove(col)
        self.vals[col][self.side[seat]] += value
        self.filled[col] += 1
        if self.turn < self.n:
            self.firsts.append(col)
        self.turn += 1

    def need(self, seat: int, col: int) -> int:
        """The least entry that takes column ``col`` for ``seat``'s side as the column's last
        box (13 when no roll can)."""
        vals = self.vals[col]
        mine = vals[self.side[seat]]
        others = vals[: self.side[seat]] + vals[self.side[seat] + 1 :]
        if self.cfg.tie_rule == "any-duplicate" and len(set(others)) < len(others):
            return 13
        return max(max(others) - mine + 1, 2)

    def scores(self) -> list[int]:
        """Each side's score (meaningful once every column is complete)."""
        out = [0] * len(self.cfg.sides)
        tie_rule = self.cfg.tie_rule
        for label, vals in zip(self.cfg.columns, self.vals, strict=True):
            w = column_winner(vals, tie_rule)
            if w is not None:
                out[w] += label
        return out


def _rank_choice(pad: _Pad, seat: int, value: int, cols: list[int]) -> int:
    """The rank-matching policy on a playout pad (see :func:`rank_policy`)."""
    k = len(cols)
    if k == 1:
        return cols[0]
    rank = min(k - 1, int(_QUANTILE[value] * k))
    filled, n1 = pad.filled, pad.n - 1
    last = [j for j in cols if filled[j] == n1]  # columns where this entry is the last box
    if not last:
        return cols[rank]
    needs = [pad.need(seat, j) for j in last]
    # Columns this seat can no longer win (even a 12 would not take them) rank lowest.
    dead = [j for j, need in zip(last, needs, strict=True) if need > 12]
    pick = (dead + [j for j in cols if j not in dead])[rank] if dead else cols[rank]
    for j, need in zip(reversed(last), reversed(needs), strict=True):
        if j <= pick:
            break
        if value >= need:
            return j
    return pick


def rank_policy(state: CategoState) -> int:
    """A fast heuristic move: match the roll's rank to the column's rank, grab sure wins.

    With ``k`` columns allowed, a sum ``r`` goes in the ``floor(q * k)``-th of them
    (0-based), where ``q = P(X < r) + P(X = r) / 2`` is the sum's quantile among two-dice sums
    and the columns are ordered by label after the *dead* ones (where this entry is the last
    box and even a 12 would not win): good rolls to valuable columns, poor rolls to cheap or
    lost ones. If a higher-labelled column is open where this entry is the last box and wins
    outright, it takes that column instead.
    """
    if state.roll is None:
        raise GameError("catego: the game is over, no move to choose")
    pad = _Pad(state)
    seat = state.turn % pad.n
    col = _rank_choice(pad, seat, sum(state.roll), pad.options(seat))
    return state.config.columns[col]


def _finish(pad: _Pad, sums: Sequence[int]) -> list[int]:
    """Play ``pad`` to the end with the rank policy, drawing values from ``sums``."""
    n = pad.n
    for value in sums:
        seat = pad.turn % n
        pad.write(seat, _rank_choice(pad, seat, value, pad.options(seat)), value)
    return pad.scores()


class StrongBot(Bot[CategoState, int]):
    """Monte Carlo over the legal columns, common random numbers, successive halving.

    ``budget`` is the number of playouts per decision (default 600); see the module docstring.
    """

    name = "strong"
    default_budget = 600
    margin_weight = 1.0  # weight of (score margin / points at stake) next to win/draw/loss

    def choose(self, state: CategoState) -> int:
        """The column with the best mean playout value for the current player's side."""
        game = self.game
        moves = list(game.legal_moves(state))
        if not moves:
            raise GameError("catego strong bot asked to move in a finished game")
        if len(moves) == 1:
            return moves[0]
        budget = self.default_budget if self.budget is None else max(1, int(self.budget))
        rng = Rng.from_seed(self.seed, "catego-strong", game.state_digest(state))
        cfg = state.config
        seat = state.turn % cfg.players
        my_side = cfg.side_of(seat)
        if state.roll is None:
            raise GameError("catego strong bot: the state has no roll")
        value = state.roll[0] + state.roll[1]
        remaining = cfg.players * len(cfg.columns) - state.turn - 1
        root = _Pad(state)
        index = {label: i for i, label in enumerate(cfg.columns)}
        scale = self.margin_weight / cfg.points_at_stake
        totals = dict.fromkeys(moves, 0.0)
        alive = moves
        rounds = max(1, (len(moves) - 1).bit_length())
        for r in range(rounds):
            per_move = max(4, budget // (rounds * len(alive)))
            for _ in range(per_move):
                sums, rng = _future_sums(rng, remaining)
                for move in alive:
                    pad = root.copy()
                    pad.write(seat, index[move], value)
                    scores = _finish(pad, sums)
                    mine = scores[my_side]
                    other = max(s for side, s in enumerate(scores) if side != my_side)
                    outcome = 1.0 if mine > other else 0.5 if mine == other else 0.0
                    totals[move] += outcome + (mine - other) * scale
            if r < rounds - 1:
                alive = sorted(alive, key=lambda m: -totals[m])[: (len(alive) + 1) // 2]
        best = max(totals[m] for m in alive)
        tied = [m for m in alive if totals[m] == best]
        choice, _ = rng.choice(tied)
        return choice


BOTS: dict[str, type[Bot[CategoState, int]]] = {"strong": StrongBot}
