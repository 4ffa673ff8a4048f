"""Katamino Duo duels: races on cards by level, child against adult, handicaps, 3D duels.

Modes (``docs/rules/katamino-duo.md``, "Duels"): ``duel`` (a card of ``--level``: beginner
4 duels from Penta 3, easy 3 duels Penta 3..5, normal/difficult/expert 3 duels Penta 4..6),
``child-adult`` (a two-coloured card: seat 0, the child, Penta 3..5; seat 1 Penta 4..6),
``handicap`` (a red or black card; seat ``--weaker`` first replaces one piece by two equivalent
table pieces) and ``duel3d`` (three matches: a draft of 3 pentaminos and 2 or 3 tetraminos,
the card's miniminos, then a race to build the 2x3x5).

Phases: ``replace`` (handicap only), ``draft`` (3D), ``race``, ``give`` (between duels: the
loser gives the winner a pentamino from the table, then the winner gives the loser one) and
``over``. A race is simultaneous; it is played on a clock: the seat to move is the unfinished
seat whose clock is lowest, and each move advances the mover's clock (see
``tablesim.games.katamino.duel_race``: simulated seconds by ``--speed`` level, or the real seconds a
human took, written ``@SECS``). The first seat to fill its board at a clock no other seat can
beat wins the duel and a point. After the last duel a tie is broken by swapping the last gifts
and racing once more.

Moves (text): ``give 5``, ``replace A=V1+X``, ``place 3 a1 b1 c1 d1 a2`` (or ``3 a1 ...``; in
3D a cell is ``b2:3``, layer 3), ``place 3 at b2`` (the held orientation, first cell on b2),
``rotate 3`` (``rotate 3 x`` in 3D), ``flip 3``, ``hint``, ``undo``; any may end ``@SECS``;
``resign`` (or ``quit``) ends the game at once, the other seat winning. The rules never read a
clock: a person's front end (the terminal loop, the window) stamps the seconds it measured into
a race move (:meth:`KataminoDuel.stamp_seconds`); a bot stamps the time of its own search
(``tablesim.games.katamino.duel_bots``); a move without seconds is timed by the simulated clock.
``legal_moves`` lists the gifts, the safe replacements, and in a race the sensible placements
(those covering the most constrained empty cell that keep the board completable, or ``undo``
on a stuck board); ``check_move`` accepts every other legal placement, undo, hint, rotate and
flip (so a human can make mistakes and take them back).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from numbers import Integral
from typing import TYPE_CHECKING, Any, ClassVar

from tablesim.games.core import (
    Bot,
    ConfigError,
    GameError,
    IllegalMoveError,
    MoveParseError,
    Option,
    Result,
    StateFormatError,
)
from tablesim.games.katamino import Target, hint, make_problem
from tablesim.games.katamino.duel_cards import (
    BOX3D,
    CARDS_VERSION,
    DUEL_LEVELS,
    HANDICAP_LEVELS,
    LEVELS,
    PENTAS,
    TETRAS,
    TURNED,
    Card,
    Card3D,
    apply_replacement,
    board,
    cards,
    cards3d,
    deck,
    deck3d,
    get_card,
    piece,
)
from tablesim.games.katamino.duel_race import (
    HINT_SECS,
    SPEED_LEVELS,
    TURN_SECS,
    Placement,
    completable,
    default_hold,
    default_speeds,
    flip,
    good_placements,
    orientations,
    place_held,
    rotate,
    shape_key,
    split_speed,
    step_seconds,
)
from tablesim.games.katamino.family import ModeFamily
from tablesim.games.katamino.solo import stuck_hint_text
from tablesim.games.katamino.solver import PlacedPiece
from tablesim.games.polycubes import Cells, normalize
from tablesim.games.rng import Rng

DUEL_MODES: tuple[str, ...] = ("duel", "child-adult", "handicap", "duel3d")
KINDS = ("give", "replace", "place", "undo", "hint", "rotate", "flip", "resign")
"""Move kinds, in their sort order (``resign`` last, so older logs keep their indices)."""
RACE_KINDS = ("place", "undo", "hint", "rotate", "flip")
"""Race moves: those a person's seconds are stamped into (:meth:`KataminoDuel.stamp_seconds`)."""
RESIGN_WORDS = ("resign", "quit")
"""Typed words for resigning (read before piece names, so ``quit`` is never a piece)."""
DRAFT = ("P", "P", "T", "T", "P", "P", "T", "T", "P", "P", "T")
"""The 3D draft: gift k is made by the first giver when k is even, else by the other; P is a
pentamino, T a tetramino. The first giver ends with 3P + 2T, the other with 3P + 3T."""
SIMULATED = -1.0
"""``secs`` of a move timed by the simulated clock."""


@dataclass(frozen=True)
class DuelConfig:
    """A duel: ``card`` "" means chosen by the seed; ``speeds`` one level per seat."""

    mode: str
    level: str
    card: str
    speeds: tuple[str, str]
    weaker: int
    players: int = 2


@dataclass(frozen=True, order=True)
class DuelMove:
    """``kind`` indexes KINDS; ``piece``/``cells`` for gifts and placements; ``arg`` is a
    replacement's ``OLD=A+B`` or a rotation axis; ``secs`` the real seconds (or SIMULATED)."""

    kind: int
    piece: str = ""
    cells: Cells = ()
    arg: str = ""
    secs: float = SIMULATED

    @property
    def kind_name(self) -> str:
        """The kind's name."""
        return KINDS[self.kind]


@dataclass(frozen=True)
class Player:
    """One seat in the current duel: its ``pieces``, its board (``size`` columns; 0 for the
    3D box), what is placed, its ``clock`` and when it finished (``done``, -1 if not yet),
    the orientations it holds (``holds``), hints and undos used."""

    pieces: tuple[str, ...] = ()
    size: int = 0
    placed: tuple[Placement, ...] = ()
    clock: float = 0.0
    done: float = -1.0
    holds: tuple[tuple[str, Cells], ...] = ()
    hints: int = 0
    undos: int = 0


@dataclass(frozen=True)
class DuelState:
    """A duel game. ``duel`` counts duels (3D: matches) from 0; ``history`` holds each decided
    duel as ``(winner, board, clock0, clock1)``; ``gifts`` the gifts of the game (3D: of the
    current draft) as ``(giver, piece)``; ``first`` the first giver of the current 3D draft."""

    mode: str
    card: str
    speeds: tuple[str, str]
    weaker: int
    phase: str
    duel: int = 0
    tiebreak: bool = False
    seats: tuple[Player, Player] = (Player(), Player())
    scores: tuple[int, int] = (0, 0)
    history: tuple[tuple[int, str, float, float], ...] = ()
    gifts: tuple[tuple[int, str], ...] = ()
    first: int = 0
    replaced: str = ""
    turn: int = 0
    note: str = ""
    resigned: int = -1
    """The seat that resigned (the game is then over and the other seat wins), else -1."""


def _check_str(values: Mapping[str, Any], key: str, default: str) -> str:
    v = values.get(key, default)
    if not isinstance(v, str):
        raise ConfigError(f"katamino: option --{key} must be text, got {v!r}")
    return v.strip()


def tie_winner(card_id: str) -> int:
    """The seat an exact clock tie goes to: the one holding the side's printed first half
    (seat 0, or seat 1 on a side turned round, ``~``). A deck that lays every side both ways
    round (``duel_cards.deck``) so gives each seat half the ties; a seat never wins a tie for
    being seat 0 (docs/rules/katamino-duo.md, "The race")."""
    return 1 if card_id.endswith(TURNED) else 0


class KataminoDuel(ModeFamily[DuelState, DuelMove, DuelConfig]):
    """Katamino Duo duels for two players (see the module docstring)."""

    name = "katamino"
    title = "Katamino Duo (duels)"
    min_players = 2
    max_players = 2
    options = (
        Option("mode", "str", "duel", "duel mode", choices=DUEL_MODES),
        Option("level", "str", "normal", "card colour (duel: beginner..expert; handicap: "
               "difficult or expert) and default solving speed",
               choices=DUEL_LEVELS),
        Option("card", "int", 0, "card number of the level (0: chosen by the seed)"),
        Option("side", "str", "", "card side A or B (empty: chosen by the seed)"),
        Option("speed", "str", "", "speed per seat of the bots and of moves typed without "
               "@SECS (a person's moves count their real seconds), SPEED or SPEED0,SPEED1; a "
               "speed is LEVEL or HANDS/MIND, the levels it lays pieces and thinks at (empty: "
               "--level; child-adult: the child's hands one level below, its mind two below; "
               "handicap: the weaker seat's hands one level above, its mind two below)"),
        Option("weaker", "int", 0, "handicap: the seat that replaces a piece by two"),
    )  # fmt: skip
    playout_options: ClassVar[Mapping[str, Any]] = {"mode": "duel", "level": "beginner"}

    # ---- configuration -------------------------------------------------------------------
    def make_config(self, values: Mapping[str, Any] | None = None, *, players: int) -> DuelConfig:
        """Validate the options (ConfigError naming the option and what is allowed)."""
        values = dict(values or {})
        self.check_option_keys(values)
        self.check_players(players)
        mode = _check_str(values, "mode", "duel")
        if mode not in DUEL_MODES:
            raise ConfigError(
                f"katamino: option --mode {mode!r} (allowed: {', '.join(DUEL_MODES)})"
            )
        default_level = "difficult" if mode == "handicap" else "normal"
        level = _check_str(values, "level", default_level)
        allowed = HANDICAP_LEVELS if mode == "handicap" else DUEL_LEVELS
        if level not in allowed:
            raise ConfigError(
                f"katamino: option --level {level!r} for mode {mode} (allowed: "
                f"{', '.join(allowed)}{'; red and black cards' if mode == 'handicap' else ''})"
            )
        weaker = values.get("weaker", 0)
        if isinstance(weaker, bool) or not isinstance(weaker, Integral) or weaker not in (0, 1):
            raise ConfigError(f"katamino: option --weaker must be seat 0 or 1, got {weaker!r}")
        weaker = int(weaker)
        speed = _check_str(values, "speed", "") or ",".join(default_speeds(mode, level, weaker))
        speeds = tuple(s.strip() for s in speed.split(","))
        if len(speeds) == 1:
            speeds = (speeds[0], speeds[0])
        try:
            ok = len(speeds) == 2 and all(split_speed(s) for s in speeds)
        except ValueError:
            ok = False
        if not ok:
            raise ConfigError(
                f"katamino: option --speed {speed!r}: one speed or two separated by a comma; "
                f"a speed is LEVEL or HANDS/MIND (levels: {', '.join(SPEED_LEVELS)})"
            )
        number = values.get("card", 0)
        if isinstance(number, bool) or not isinstance(number, Integral) or number < 0:
            raise ConfigError(f"katamino: option --card must be an integer >= 0, got {number!r}")
        side = _check_str(values, "side", "").upper()
        if side not in ("", "A", "B"):
            raise ConfigError(f"katamino: option --side {side!r} (allowed: A, B)")
        deck = self._deck(mode, level)
        card = ""
        if number:
            ids = sorted({c.card for c in deck})
            if number not in ids:
                raise ConfigError(
                    f"katamino: option --card {number}: the {self._deck_name(mode, level)} "
                    f"cards are 1..{max(ids)}"
                )
            card = f"{deck[0].id.rsplit('-', 1)[0]}-{number}{side or 'A'}"
        elif side:
            raise ConfigError("katamino: --side needs --card")
        return DuelConfig(mode, level, card, (speeds[0], speeds[1]), int(weaker), players)

    def config_from_json(self, obj: Mapping[str, Any]) -> DuelConfig:
        """Rebuild a config (a log's header). A log played on other duel cards than the shipped
        ones (``cards`` is the card file's version; logs before version 2 have none) cannot be
        replayed: ConfigError saying so."""
        values = dict(obj)
        version = values.pop("cards", 1)
        if version != CARDS_VERSION:
            raise ConfigError(
                f"katamino: this duel was played on the duel cards of version {version!r}; the "
                f"shipped cards are version {CARDS_VERSION} (regenerated, and drawn either way "
                "round: docs/rules/katamino-duo.md), so its log cannot be replayed"
            )
        return super().config_from_json(values)

    @staticmethod
    def _deck(mode: str, level: str, turned: bool = False) -> tuple[Card | Card3D, ...]:
        if mode == "duel3d":
            return deck3d() if turned else cards3d()
        colour = "child-adult" if mode == "child-adult" else level
        return deck(colour) if turned else cards(colour)

    @staticmethod
    def _deck_name(mode: str, level: str) -> str:
        return {"duel3d": "3D", "child-adult": "child-adult"}.get(mode, level)

    def config_to_json(self, config: DuelConfig) -> dict[str, Any]:
        out: dict[str, Any] = {"mode": config.mode, "level": config.level,
                               "speed": ",".join(config.speeds), "weaker": config.weaker,
                               "players": config.players, "cards": CARDS_VERSION}  # fmt: skip
        if config.card:
            number = re.search(r"-(\d+)([AB])$", config.card)
            assert number is not None  # made by make_config
            out["card"], out["side"] = int(number.group(1)), number.group(2)
        return out

    # ---- helpers -------------------------------------------------------------------------
    def card_of(self, state: DuelState) -> Card | Card3D:
        """The card side a state plays."""
        return get_card(state.card)

    def duels(self, state: DuelState) -> int:
        """Duels (matches) in the game, before any tie-break."""
        if state.mode == "duel3d":
            return 3
        return LEVELS[state.card.rsplit("-", 1)[0]].duels  # the colour in the id: "normal-3B"

    def target(self, player: Player) -> str:
        """A player's board: ``5xN`` or the 3D box."""
        return board(player.size) if player.size else BOX3D

    def dims(self, player: Player) -> int:
        """2 on the board, 3 for the box."""
        return 2 if player.size else 3

    def remaining(self, player: Player) -> list[str]:
        """Pieces not on the board yet."""
        left = list(player.pieces)
        for name, _ in player.placed:
            left.remove(name)
        return left

    def covered(self, player: Player) -> frozenset:
        """Covered cells of a player's board."""
        return frozenset(c for _, cells in player.placed for c in cells)

    def table(self, state: DuelState, kind: str = "P") -> tuple[str, ...]:
        """Pentaminos (``P``) or tetraminos (``T``) on no seat: those that may be given."""
        held = {n for p in state.seats for n in p.pieces}
        pool = PENTAS if kind == "P" else TETRAS
        return tuple(n for n in pool if n not in held)

    def giver(self, state: DuelState) -> int:
        """Who gives next (give and draft phases)."""
        if state.phase == "draft":
            return state.first if len(state.gifts) % 2 == 0 else 1 - state.first
        loser = 1 - state.history[-1][0]
        this_round = len(state.gifts) % 2
        return loser if this_round == 0 else 1 - loser

    def held(self, player: Player, name: str) -> Cells:
        """The orientation a player holds a piece in."""
        for n, cells in player.holds:
            if n == name:
                return cells
        return default_hold(name, self.dims(player))

    # ---- rules ---------------------------------------------------------------------------
    def new_game(self, config: DuelConfig, seed: int) -> DuelState:
        card_id = config.card
        if not card_id:  # the seed draws a side, and on equal-start colours which way round
            sides = self._deck(config.mode, config.level, turned=True)
            card, _ = Rng.from_seed(seed, "katamino-duel", config.mode, config.level).choice(sides)
            card_id = card.id
        return self.side_start(config, card_id)

    def side_start(self, config: DuelConfig, card_id: str) -> DuelState:
        """The first state of a game of ``config`` on the card side ``card_id`` (3D: the seat
        holding the printed first half, :func:`tie_winner`, gives first in match 1)."""
        st = DuelState(config.mode, card_id, config.speeds, config.weaker, "race")
        if config.mode == "duel3d":
            return replace(st, phase="draft", seats=(Player(size=0), Player(size=0)),
                           first=tie_winner(card_id))  # fmt: skip
        card = get_card(card_id)
        assert isinstance(card, Card)
        seats = tuple(Player(card.halves[s], card.spec.start[s]) for s in (0, 1))
        st = replace(st, seats=seats)  # type: ignore[arg-type]
        return replace(st, phase="replace") if config.mode == "handicap" else st

    def current_player(self, state: DuelState) -> int | None:
        if state.phase == "over":
            return None
        if state.phase == "replace":
            return state.weaker
        if state.phase in ("give", "draft"):
            return self.giver(state)
        waiting = [s for s in (0, 1) if state.seats[s].done < 0]
        return min(waiting, key=lambda s: (state.seats[s].clock, s))

    def is_terminal(self, state: DuelState) -> bool:
        return state.phase == "over"

    def num_players(self, state: DuelState) -> int:
        return 2

    def legal_moves(self, state: DuelState) -> tuple[DuelMove, ...]:
        if state.phase == "over":
            return ()
        if state.phase == "replace":
            card = self.card_of(state)
            assert isinstance(card, Card)
            return tuple(sorted(DuelMove(1, arg=s) for s in card.handicap[state.weaker]))
        if state.phase in ("give", "draft"):
            kind = DRAFT[len(state.gifts)] if state.phase == "draft" else "P"
            return tuple(DuelMove(0, p) for p in self.table(state, kind))
        p = state.seats[self.current_player(state)]  # type: ignore[index]
        good = good_placements(self.target(p), self.remaining(p), p.placed)
        if not good:
            return (DuelMove(3),)
        return tuple(sorted(DuelMove(2, name, cells) for name, cells in good))

    def check_move(self, state: DuelState, move: DuelMove) -> None:
        """Raise IllegalMoveError unless ``move`` is allowed (placements checked directly)."""
        if state.phase == "over":
            raise IllegalMoveError("the game is over")
        if not isinstance(move, DuelMove) or not 0 <= move.kind < len(KINDS):
            raise IllegalMoveError(f"not a duel move: {move!r}")
        kind = move.kind_name
        if move.secs != SIMULATED and (move.secs < 0 or move.secs != move.secs):
            raise IllegalMoveError(f"a move takes 0 seconds or more, not {move.secs}")
        if kind == "resign":  # the seat to move may resign in any phase
            return
        if state.phase in ("give", "draft", "replace"):
            want = "replace" if state.phase == "replace" else "give"
            if kind != want:
                raise IllegalMoveError(f"in the {state.phase} phase the move is {want}")
            if move not in self.legal_moves(state):
                self._explain_give(state, move)
            return
        if kind == "give" or kind == "replace":
            raise IllegalMoveError(f"no {kind} during a race: place pieces (or hint, undo)")
        p = state.seats[self.current_player(state)]  # type: ignore[index]
        if kind == "undo" and not p.placed:
            raise IllegalMoveError("nothing to undo on your board")
        if kind in ("rotate", "flip", "place"):
            left = self.remaining(p)
            if not any(shape_key(n) == shape_key(move.piece) for n in left):
                raise IllegalMoveError(
                    f"piece {move.piece or '?'} is not in your hand (left: {', '.join(left)})"
                )
        if kind == "rotate" and move.arg not in (("z",) if p.size else ("x", "y", "z")):
            raise IllegalMoveError("rotate about z on the board (x, y or z in the box)")
        if kind == "place":
            self._check_cells(p, move)

    def _explain_give(self, state: DuelState, move: DuelMove) -> None:
        if state.phase == "replace":
            card = self.card_of(state)
            assert isinstance(card, Card)
            safe = ", ".join(card.handicap[state.weaker])
            raise IllegalMoveError(
                f"replacement {move.arg}: not one that keeps every duel of this card solvable "
                f"(allowed: {safe})"
            )
        kind = DRAFT[len(state.gifts)] if state.phase == "draft" else "P"
        what = "pentamino" if kind == "P" else "tetramino"
        raise IllegalMoveError(
            f"give {move.piece}: give a {what} left on the table "
            f"({', '.join(self.table(state, kind))})"
        )

    def _check_cells(self, p: Player, move: DuelMove) -> None:
        target = Target.parse(self.target(p))
        free = target.cell_set - self.covered(p)
        from tablesim.games.katamino.duel_render import cell_text

        bad = [c for c in move.cells if c not in free]
        if bad:
            why = "off the board" if bad[0] not in target.cell_set else "already covered"
            raise IllegalMoveError(f"cell {cell_text(bad[0], self.dims(p))} is {why}")
        if normalize(move.cells) not in orientations(move.piece, self.dims(p)):
            raise IllegalMoveError(f"those cells are not the shape of piece {move.piece}")

    def apply(self, state: DuelState, move: DuelMove) -> DuelState:
        self.check_move(state, move)
        turn = state.turn + 1
        if move.kind_name == "resign":
            seat = self.current_player(state)
            assert seat is not None  # check_move refused a finished game
            return replace(state, phase="over", resigned=seat, turn=turn,
                           note=f"P{seat + 1} resigns; P{2 - seat} wins")  # fmt: skip
        if state.phase == "replace":
            card = self.card_of(state)
            assert isinstance(card, Card)
            halves = apply_replacement([p.pieces for p in state.seats], state.weaker, move.arg)
            seats = tuple(replace(p, pieces=h) for p, h in zip(state.seats, halves, strict=True))
            return replace(state, phase="race", seats=seats, replaced=move.arg, turn=turn,  # type: ignore[arg-type]
                           note=f"P{state.weaker + 1} replaced {move.arg}")  # fmt: skip
        if state.phase in ("give", "draft"):
            return self._give(state, move, turn)
        return self._race(state, move, turn)

    def _give(self, state: DuelState, move: DuelMove, turn: int) -> DuelState:
        giver = self.giver(state)
        to = 1 - giver
        seats = list(state.seats)
        seats[to] = replace(seats[to], pieces=(*seats[to].pieces, move.piece))
        gifts = (*state.gifts, (giver, move.piece))
        note = f"P{giver + 1} gave {move.piece} to P{to + 1}"
        st = replace(state, seats=tuple(seats), gifts=gifts, turn=turn, note=note)  # type: ignore[arg-type]
        if state.phase == "draft":
            if len(gifts) < len(DRAFT):
                return st
            card = self.card_of(state)
            assert isinstance(card, Card3D)
            minis = card.challenges[state.duel]
            seats[state.first] = replace(
                seats[state.first], pieces=(*seats[state.first].pieces, *minis[0])
            )
            seats[1 - state.first] = replace(seats[1 - state.first],
                                             pieces=(*seats[1 - state.first].pieces, *minis[1]))  # fmt: skip
            return replace(st, phase="race", seats=tuple(seats))  # type: ignore[arg-type]
        if len(gifts) % 2:
            return st
        seats = [replace(p, size=p.size + 1, placed=(), clock=0.0, done=-1.0, holds=())
                 for p in seats]  # fmt: skip
        return replace(st, phase="race", duel=state.duel + 1, seats=tuple(seats))  # type: ignore[arg-type]

    def step_cost(self, state: DuelState, seat: int, move: DuelMove) -> float:
        """Seconds a race move adds to the mover's clock."""
        kind = move.kind_name
        if kind == "hint":  # a hint always costs its penalty, on top of a human's real time
            return HINT_SECS + max(move.secs, 0.0)
        if move.secs != SIMULATED:
            return move.secs
        if kind in ("rotate", "flip"):
            return TURN_SECS
        p = state.seats[seat]
        return step_seconds(self.target(p), p.pieces, state.speeds[seat])

    def _race(self, state: DuelState, move: DuelMove, turn: int) -> DuelState:
        seat = self.current_player(state)
        assert seat is not None
        p = state.seats[seat]
        clock = round(p.clock + self.step_cost(state, seat, move), 3)
        kind = move.kind_name
        note = ""
        if kind == "place":
            left = self.remaining(p)
            name = next(n for n in sorted(left) if shape_key(n) == shape_key(move.piece))
            p = replace(p, placed=(*p.placed, (name, move.cells)))
        elif kind == "undo":
            note = f"P{seat + 1} took back {p.placed[-1][0]}"
            p = replace(p, placed=p.placed[:-1], undos=p.undos + 1)
        elif kind == "hint":
            note = f"P{seat + 1} " + self.hint_text(state)
            p = replace(p, hints=p.hints + 1)
        else:
            cur = self.held(p, move.piece)
            new = rotate(cur, move.arg) if kind == "rotate" else flip(cur, self.dims(p))
            holds = tuple(h for h in p.holds if h[0] != move.piece) + ((move.piece, new),)
            p = replace(p, holds=tuple(sorted(holds)))
        p = replace(p, clock=clock)
        if kind == "place" and len(self.covered(p)) == Target.parse(self.target(p)).size:
            p = replace(p, done=clock)
        seats = list(state.seats)
        seats[seat] = p
        st = replace(state, seats=tuple(seats), turn=turn, note=note)  # type: ignore[arg-type]
        winner = self._race_winner(st, seat)
        return st if winner is None else self._end_duel(st, winner)

    @staticmethod
    def _race_winner(state: DuelState, mover: int) -> int | None:
        """The duel's winner once no seat can beat a finished seat's clock, else None. Equal
        finishing clocks (an exact tie) go to the seat holding the card side's printed first
        half (:func:`tie_winner`), never to whoever the play order let finish first."""
        me, other = state.seats[mover], state.seats[1 - mover]
        if me.done >= 0 and other.done >= 0:
            if me.done == other.done:
                return tie_winner(state.card)
            return mover if me.done < other.done else 1 - mover
        if other.done >= 0 and me.clock >= other.done:
            return 1 - mover
        if me.done >= 0 and other.clock >= me.done:
            return mover
        return None

    def _end_duel(self, state: DuelState, winner: int) -> DuelState:
        clocks = [p.done if p.done >= 0 else p.clock for p in state.seats]
        boards = "|".join(self.target(p) for p in state.seats)
        history = (*state.history, (winner, boards, clocks[0], clocks[1]))
        scores = list(state.scores)
        scores[winner] += 1
        note = f"P{winner + 1} wins duel {len(history)} ({clocks[0]:.1f} s vs {clocks[1]:.1f} s)"
        st = replace(state, history=history, scores=(scores[0], scores[1]), note=note)
        last = state.duel + 1 >= self.duels(state)
        if state.tiebreak or (last and scores[0] != scores[1]):
            return replace(st, phase="over")
        if state.mode == "duel3d":
            return replace(st, phase="draft", duel=state.duel + 1, gifts=(), first=1 - winner,
                           seats=(Player(), Player()))  # fmt: skip
        if last:  # a tie: swap the last gifts, race once more on the same boards
            (g0, a), (g1, b) = state.gifts[-2:]  # g0 gave a to 1 - g0, g1 gave b to 1 - g1
            seats = []
            for s, p in enumerate(state.seats):
                got, gave = (a, b) if s == 1 - g0 else (b, a)
                pieces = tuple(gave if n == got else n for n in p.pieces)
                seats.append(Player(pieces, p.size))
            return replace(
                st,
                phase="race",
                tiebreak=True,
                seats=tuple(seats),  # type: ignore[arg-type]
                note=note + "; a tie: the last gifts are swapped for a last duel",
            )
        return replace(st, phase="give")

    def result(self, state: DuelState) -> Result:
        if state.phase != "over":
            raise GameError("katamino: the duel game is not finished")
        s0, s1 = state.scores
        winners = () if s0 == s1 else ((0,) if s0 > s1 else (1,))
        if state.resigned >= 0:
            winners = (1 - state.resigned,)
        detail = {
            "end": self.end_reason(state),
            "mode": state.mode, "card": state.card, "replaced": state.replaced,
            "tiebreak": state.tiebreak, "resigned": state.resigned,
            "duels": [{"winner": w, "boards": b, "seconds": [c0, c1]}
                      for w, b, c0, c1 in state.history],
            "gifts": [f"{g}:{n}" for g, n in state.gifts],
        }  # fmt: skip
        return Result((float(s0), float(s1)), winners, detail)

    @staticmethod
    def end_reason(state: DuelState) -> str:
        """How a finished game ended, in the rulebook's words (``detail.end``, counted by
        ``balance``): a resignation; the swapped gifts' last duel after a tie ("In case of a
        tie, players swap the last duel's piece they gave to each other and duel each other
        one last time"); else the highest score ("The player with the highest score wins the
        game"; duel3d: "The person winning the most matches wins the game")."""
        if state.resigned >= 0:
            return f"P{state.resigned + 1} resigned"
        if state.tiebreak:
            return (f"a tie after {len(state.history) - 1} duels: the last gifts swapped, "
                    "one last duel decided")  # fmt: skip
        if state.mode == "duel3d":
            return f"the most matches won of {len(state.history)}"
        return f"the highest score after {len(state.history)} duels"

    # ---- the terminal ----------------------------------------------------------------------
    def prompt_listing(self, state: DuelState) -> str | None:
        """What a person's prompt lists: in a race no placements (the legal moves are the ones
        the solver kept completable: listing them would give the puzzle away, where a ``hint``
        costs ``HINT_SECS``); the gifts and replacements otherwise (None: the legal moves)."""
        if state.phase != "race":
            return None
        return "place PIECE CELLS | place PIECE at CELL | rotate PIECE | flip PIECE | hint | undo"

    def undo_help(self, state: DuelState) -> str:
        """``undo`` in a duel: only in a race, the mover's own last piece (a timed move)."""
        if state.phase != "race":
            return "nothing to take back now (in a race: your own last piece)"
        return ("take back your own last piece, a timed move (the other seat's moves stay; "
                "see below)")  # fmt: skip

    def help_lines(self, state: DuelState) -> list[str]:
        """The race's own words for ``help`` (the cells' names, hints and undo)."""
        from tablesim.games.katamino.duel_render import cell_text

        three_d = state.mode == "duel3d"
        cell = "b2:3 (column b, row 2, layer 3)" if three_d else "b2 (column b, row 2)"
        seat = self.current_player(state)
        left = sorted(self.remaining(state.seats[seat])) if seat is not None else []
        n = left[0] if left else "3"  # the examples name a piece in the mover's hand
        dims = 3 if three_d else 2
        shape = " ".join(cell_text(c, dims) for c in sorted(piece(n).cells))
        axis = f"rotate {n} x|y|z turns it about an axis" if three_d else f"rotate {n} turns it"
        return [
            f"race moves (cells are like {cell}):",
            f"  place {n} {shape}: piece {n} on those cells (its shape, any orientation)",
            f"  place {n} at b2: the orientation you hold, its first cell on b2",
            f"  {axis} a quarter turn; flip {n} turns it over (each costs {TURN_SECS:g} s)",
            f"  hint: the solver names a piece and its cells, or what to take back "
            f"(+{HINT_SECS:g} s on your clock)",
            "  undo: takes back your own last piece on your board; it is a timed move (the",
            "    seconds you took count), and the other seat's moves stay",
            "the prompt lists no placements: finding one is the puzzle",
        ]

    # ---- hints ---------------------------------------------------------------------------
    def hint_text(self, state: DuelState) -> str:
        """A solver hint for the seat to move: a piece and its cells, or what to take back."""
        from tablesim.games.katamino.duel_render import cell_text

        seat = self.current_player(state)
        if seat is None or state.phase != "race":
            return "hint: no race under way"
        p = state.seats[seat]
        placed = [PlacedPiece(n, piece(n).label, cells) for n, cells in p.placed]
        prob = make_problem(self.target(p), [piece(n) for n in p.pieces])
        if not completable(self.target(p), self.remaining(p), self.covered(p)):
            h = hint(prob, placed=placed)
            return stuck_hint_text([n for n, _ in p.placed], h.culprits)
        good = good_placements(self.target(p), self.remaining(p), p.placed)
        name, cells = good[0]
        return f"hint: {name} " + " ".join(cell_text(c, self.dims(p)) for c in cells)

    # ---- text and JSON -------------------------------------------------------------------
    def format_move(self, state: DuelState, move: DuelMove) -> str:
        from tablesim.games.katamino.duel_render import cell_text

        kind = move.kind_name
        if kind == "give":
            text = f"give {move.piece}"
        elif kind == "replace":
            text = f"replace {move.arg}"
        elif kind == "place":
            dims = self._mover_dims(state)
            text = " ".join(["place", move.piece, *(cell_text(c, dims) for c in move.cells)])
        elif kind == "rotate":
            text = f"rotate {move.piece}" + ("" if move.arg == "z" else f" {move.arg}")
        elif kind == "flip":
            text = f"flip {move.piece}"
        else:
            text = kind
        return text if move.secs == SIMULATED else f"{text} @{move.secs:g}"

    def _mover_dims(self, state: DuelState) -> int:
        seat = self.current_player(state)
        return 2 if seat is None else self.dims(state.seats[seat])

    def parse_move(self, state: DuelState, text: str) -> DuelMove:
        from tablesim.games.katamino.duel_render import parse_cell

        body, at, secs_text = text.strip().partition("@")
        secs = SIMULATED
        if at:
            try:
                secs = float(secs_text)
            except ValueError:
                raise MoveParseError(f"{text!r}: after @ give seconds, e.g. @12.5") from None
            if not secs >= 0:
                raise MoveParseError(f"{text!r}: seconds must be 0 or more")
        words = body.replace(",", " ").split()
        if not words:
            raise MoveParseError("empty move: give N, replace OLD=A+B, place N CELLS, "
                                 "place N at CELL, rotate N, flip N, hint, undo, resign")  # fmt: skip
        low = words[0].lower()
        seat = self.current_player(state)
        if low in RESIGN_WORDS and len(words) == 1:
            if at:
                raise MoveParseError(f"{text!r}: resigning takes no seconds")
            return DuelMove(KINDS.index("resign"))
        if low in ("hint", "undo") and len(words) == 1:
            return DuelMove(KINDS.index(low), secs=secs)
        if low == "give" and len(words) == 2:
            return DuelMove(0, words[1].upper())
        if low == "replace" and len(words) == 2:
            return DuelMove(1, arg=words[1].upper())
        if low in ("rotate", "flip") and len(words) in (2, 3):
            name = self._piece_name(state, seat, words[1])
            axis = words[2].lower() if len(words) == 3 else "z"
            if low == "flip" and len(words) == 3:
                raise MoveParseError("flip takes a piece only: flip 3")
            return DuelMove(KINDS.index(low), name, arg=axis if low == "rotate" else "", secs=secs)
        if low == "place":
            words = words[1:]
        if not words:
            raise MoveParseError("place what? e.g. place 3 a1 b1 c1 d1 a2, or place 3 at b2")
        if seat is None or state.phase != "race":
            raise MoveParseError(f"{text!r}: not a move of the {state.phase} phase")
        name = self._piece_name(state, seat, words[0])
        p = state.seats[seat]
        dims = self.dims(p)
        if len(words) == 3 and words[1].lower() == "at":
            return DuelMove(2, name, place_held(self.held(p, name), parse_cell(words[2], dims)),
                            secs=secs)  # fmt: skip
        cells = tuple(sorted(parse_cell(w, dims) for w in words[1:]))
        if len(set(cells)) != len(cells) or len(cells) != piece(name).size:
            raise MoveParseError(f"piece {name} covers {piece(name).size} different cells")
        return DuelMove(2, name, cells, secs=secs)

    def _piece_name(self, state: DuelState, seat: int | None, word: str) -> str:
        name = word.upper()
        if seat is None:
            raise MoveParseError("no seat to move")
        left = self.remaining(state.seats[seat])
        if name in left:
            return name
        copies = sorted(n for n in left if piece(n).label == name)
        if copies:
            return copies[0]
        raise MoveParseError(
            f"{word!r}: not a piece in your hand (left: {', '.join(left) or 'none'})"
        )

    def state_to_json(self, state: DuelState) -> dict[str, Any]:
        def player(p: Player) -> dict[str, Any]:
            return {
                "pieces": list(p.pieces), "size": p.size,
                "placed": [[n, [list(c) for c in cells]] for n, cells in p.placed],
                "clock": p.clock, "done": p.done,
                "holds": [[n, [list(c) for c in cells]] for n, cells in p.holds],
                "hints": p.hints, "undos": p.undos,
            }  # fmt: skip

        return {
            "mode": state.mode, "card": state.card, "speeds": list(state.speeds),
            "weaker": state.weaker, "phase": state.phase, "duel": state.duel,
            "tiebreak": state.tiebreak, "seats": [player(p) for p in state.seats],
            "scores": list(state.scores), "history": [list(h) for h in state.history],
            "gifts": [list(g) for g in state.gifts], "first": state.first,
            "replaced": state.replaced, "turn": state.turn, "note": state.note,
            # written only after a resignation: other states keep the digests of older logs
            **({"resigned": state.resigned} if state.resigned >= 0 else {}),
        }  # fmt: skip

    def state_from_json(self, obj: Mapping[str, Any]) -> DuelState:
        def cells(v: Any) -> Cells:
            return tuple((int(c[0]), int(c[1]), int(c[2])) for c in v)

        def player(d: Mapping[str, Any]) -> Player:
            return Player(
                tuple(str(n) for n in d["pieces"]), int(d["size"]),
                tuple((str(n), cells(c)) for n, c in d["placed"]), float(d["clock"]),
                float(d["done"]), tuple((str(n), cells(c)) for n, c in d["holds"]),
                int(d["hints"]), int(d["undos"]),
            )  # fmt: skip

        try:
            st = DuelState(
                str(obj["mode"]), str(obj["card"]),
                (str(obj["speeds"][0]), str(obj["speeds"][1])), int(obj["weaker"]),
                str(obj["phase"]), int(obj["duel"]), bool(obj["tiebreak"]),
                (player(obj["seats"][0]), player(obj["seats"][1])),
                (int(obj["scores"][0]), int(obj["scores"][1])),
                tuple((int(w), str(b), float(c0), float(c1)) for w, b, c0, c1 in obj["history"]),
                tuple((int(g), str(n)) for g, n in obj["gifts"]), int(obj["first"]),
                str(obj["replaced"]), int(obj["turn"]), str(obj["note"]),
                int(obj.get("resigned", -1)),
            )  # fmt: skip
            get_card(st.card)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise StateFormatError(f"katamino duel state: {exc}") from None
        if st.mode not in DUEL_MODES or st.phase not in ("replace", "draft", "race", "give",
                                                         "over"):  # fmt: skip
            raise StateFormatError(f"katamino duel state: mode {st.mode!r} or phase {st.phase!r}")
        if st.resigned not in (-1, 0, 1) or (st.resigned >= 0 and st.phase != "over"):
            raise StateFormatError(
                f"katamino duel state: resigned {st.resigned!r} (a seat 0 or 1 of a game over "
                "by resignation, else absent)"
            )
        return st

    def bots(self) -> Mapping[str, type[Bot[DuelState, DuelMove]]]:
        """The duel bots (``tablesim.games.katamino.duel_bots``): ``smart`` gives, takes and races."""
        from tablesim.games.katamino.duel_bots import BOTS

        return BOTS

    def describe(self, state: DuelState) -> str:
        from tablesim.games.katamino.duel_render import describe_state

        return describe_state(self, state)

    def stamp_seconds(self, state: DuelState, move: DuelMove, seconds: float) -> DuelMove:
        """``move`` as a person made it, ``seconds`` after ``state`` was first shown to them:
        a race move (placement, undo, hint, rotate, flip) without seconds of its own takes
        them (rounded to 0.1 s, the resolution of a log); other moves are returned as they
        are. The front end measures the time (terminal or window); the rules never read a
        clock."""
        if state.phase != "race" or move.kind_name not in RACE_KINDS or move.secs != SIMULATED:
            return move
        return replace(move, secs=round(max(float(seconds), 0.0), 1))

    def describe_move(self, state: DuelState, move: DuelMove) -> str:
        after = self.apply(state, move)
        text = self.format_move(state, move)
        if move.kind_name == "hint":
            text += f" ({after.note})"
        if len(after.history) > len(state.history) or after.phase == "race" != state.phase:
            text += f"\n  {after.note}"
        if after.phase == "over":
            text += f"\n  final score {after.scores[0]}-{after.scores[1]}"
        return text


DUEL_GAME = KataminoDuel()


if TYPE_CHECKING:
    from tablesim.games.katamino.duel_bots import BOTS


def __getattr__(name: str) -> Any:
    """``BOTS`` from :mod:`tablesim.games.katamino.duel_bots`, loaded on first use: the bots
    import this module, so a top-level import here made ``duel_bots`` unimportable first."""
    if name == "BOTS":
        from tablesim.games.katamino.duel_bots import BOTS

        return BOTS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BOTS", "DUEL_GAME", "DUEL_MODES", "DuelConfig", "DuelMove", "DuelState", "KataminoDuel"]
