"""What the PettingZoo and Gymnasium environments share: one game in progress, its actions,
observations and pictures.

Actions. Each game has a fixed ``Discrete(N)`` action space per config in which action ``k``
always names the same move (:mod:`tablesim.sim.slices.common.codecs`: ``encode(move)``,
``decode(k, state)``); the action mask marks the legal ones. ``info["legal_moves"]`` gives the
legal moves' texts, ``info["legal_actions"]`` their ids in the same order; ``action_of(text)``
translates a typed move.

Observations (``observation=``). ``"planes"`` (default): the game's feature planes seen from
the observing seat (:mod:`tablesim.sim.slices.common.features`, tabled in ``docs/envs.md``). ``"json"``: the
state's canonical JSON without its random stream (``rng``: the future dice would otherwise be
visible), UTF-8 in a fixed-length ``uint8`` array padded with zeros (the ``obs_bytes`` of the game's :class:`tablesim.games.registry.GameSpec`);
``decode_observation`` reads it back. Every seat sees the same public table (these games
have no hidden hands).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, overload

import numpy as np

from tablesim.games.core import TableRefused, canonical_json
from tablesim.games.registry import game_names, game_spec
from tablesim.games.session import Seat, Session
from tablesim.sim.slices.common.codecs import ActionCodec, EnvError
from tablesim.sim.slices.common.features import Features

__all__ = ["EnvError", "Match", "OBSERVATIONS", "codec_for", "agent_name", "decode_observation"]

OBSERVATIONS = ("planes", "json")


def _part(game_name: str, kind: str) -> Any:
    """The ``codec`` or ``features`` of a game's spec (EnvError when it has none)."""
    part = game_spec(game_name).part(kind)
    if part is None:
        have = [n for n in game_names() if getattr(game_spec(n), kind) is not None]
        raise EnvError(
            f"no {'action codec' if kind == 'codec' else 'observation features'} for game "
            f"{game_name!r} (games: {', '.join(have)}); give its GameSpec one (games.registry)"
        )
    return part


def codec_for(game_name: str, config: Any) -> ActionCodec:
    """The action codec of the registered game ``game_name`` under ``config``."""
    codec: ActionCodec = _part(game_name, "codec")(config)
    return codec


def agent_name(seat: int) -> str:
    """The PettingZoo agent name of a seat: ``player_0``, ``player_1``, ..."""
    return f"player_{seat}"


def decode_observation(obs: np.ndarray) -> dict[str, Any]:
    """The state JSON (without ``rng``) held in a ``observation="json"`` array."""
    raw = bytes(np.asarray(obs, dtype=np.uint8)).rstrip(b"\0")
    return dict(json.loads(raw.decode("utf-8")))


class LazyTexts(Sequence[str]):
    """The legal moves' texts, formatted on first use (Kataboom has thousands a position, and
    most steps of a rollout never read them): a read-only sequence, pickled as a list
    (``list(info["legal_moves"])`` for a list)."""

    def __init__(self, make: Callable[[], list[str]]) -> None:
        self._make: Callable[[], list[str]] | None = make
        self._texts: list[str] = []

    def _get(self) -> list[str]:
        if self._make is not None:
            self._texts, self._make = self._make(), None
        return self._texts

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: int | slice) -> str | list[str]:
        return self._get()[i]

    def __len__(self) -> int:
        return len(self._get())

    def __eq__(self, other: object) -> bool:
        return list(self._get()) == (list(other) if isinstance(other, Sequence) else other)

    def __repr__(self) -> str:
        return repr(self._get())

    def __reduce__(self) -> tuple[type[list[str]], tuple[list[str]]]:
        """Pickled (vector environments send infos between processes) as the plain list."""
        return list, (list(self._get()),)


class Match:
    """One game in progress: the rules, the state, the table that measures moves, and the
    game's action codec and observation builder.

    Parameters
    ----------
    game_name: a registered game (``tablesim list games``).
    options: game options; ``players`` (default: the game's minimum of 2 or more) sets seats.
    observation: ``"planes"`` (default) or ``"json"`` (module docstring).
    """

    def __init__(
        self, game_name: str, options: dict[str, Any], observation: str = "planes"
    ) -> None:
        from tablesim.games.registry import get_game

        if observation not in OBSERVATIONS:
            raise EnvError(f"observation {observation!r} is not one of {', '.join(OBSERVATIONS)}")
        self.game = get_game(game_name)
        opts = dict(options)
        players = int(opts.pop("players", max(2, self.game.min_players)))  # make_config checks it
        self.config = self.game.make_config(opts, players=players)
        self.players = players
        self.codec: ActionCodec = codec_for(self.game.name, self.config)
        self.n_actions = self.codec.n
        self.observation_kind = observation
        self.features: Features = _part(self.game.name, "features")(
            self.game, self.config, self.codec
        )
        self.obs_bytes = game_spec(self.game.name).obs_bytes
        self.session: Session | None = None
        """The game being played: every move goes through :meth:`Session.play` (measured by
        the game's table, applied, digested and logged), as in ``tablesim play``."""
        self.seed = 0
        self._legal: tuple[Any, ...] | None = ()  # None: made from _move_at when read
        self._ids: np.ndarray | list[int] = np.zeros(0, dtype=np.int64)
        self._by_id: dict[int, Any] | None = {}  # None: found in _ids_list
        self._move_at: Callable[[int], Any] | None = None  # the codec's (legal_ids)
        self._ids_of: dict[Any, int] = {}
        self._tables: dict[tuple[Any, ...], Any] = {}  # legal ints -> ids, by_id, mask, list
        self._mask: np.ndarray | None = None  # (None: made from _ids when asked)
        self._ids_list: list[int] | None = None
        self._at: Any = None  # the state _refresh read (see current_seat, terminal)
        self._over = False
        self._seat: int | None = None

    # ---- the game ---------------------------------------------------------------------------
    def reset(self, seed: int) -> None:
        """Start a new game from ``seed`` (the same seed, the same game)."""
        self.close_referee()
        self.seed = int(seed)
        seats: list[Seat[Any, Any]] = [Seat("human") for _ in range(self.players)]  # agents choose
        self.session = Session(self.game, self.config, self.seed, seats)
        self._refresh()

    @property
    def state(self) -> Any:
        """The current state (None before the first :meth:`reset`)."""
        return None if self.session is None else self.session.state

    def _refresh(self) -> None:
        state = self.state
        over = bool(self.game.is_terminal(state))
        # the position's end and mover, read many times a step (agents, rewards, masks)
        self._at, self._over = state, over
        self._seat = None if over else self.game.current_player(state)
        refused = self.session.refused if self.session is not None else ()
        ids = getattr(self.codec, "legal_ids", None)  # a codec of its own may not have it
        fast = None if over or refused or ids is None else ids(state)
        if fast is not None:  # the ids from the rules' arrays, the moves made when read
            self._ids, self._move_at = fast
            self._legal, self._by_id, self._mask, self._ids_list = None, {}, None, None
            return
        self._move_at = None
        legal = () if over else self.game.legal_moves(state)
        if refused:  # moves the physics table refused here are not offered again
            legal = tuple(m for m in legal if m not in refused)
        self._legal = legal
        if not legal or type(legal[0]) is not int:  # (moves hashed in Python: no gain)
            ids_list = self._ids_of_moves(legal)
            self._ids, self._by_id, self._mask, self._ids_list = ids_list, None, None, ids_list
            return
        try:  # the ids, mask and id -> move table of a tuple of moves met before (Catego)
            self._ids, self._by_id, self._mask, self._ids_list = self._tables[legal]
            return
        except KeyError:
            pass
        entry = self._tables[legal] = self._tables_of(legal)
        if len(self._tables) > 50_000:  # bound the memory of a long run
            self._tables.clear()
            self._tables[legal] = entry
        self._ids, self._by_id, self._mask, self._ids_list = entry

    def _ids_of_moves(self, legal: tuple[Any, ...]) -> list[int]:
        """The ids of the moves ``legal`` (in order) as Python ints (EnvError when two moves
        share an id)."""
        many = getattr(self.codec, "encode_many", None)  # (a codec's own arithmetic)
        ids = None if many is None else many(legal)
        if ids is None:
            encode = self._encode
            ids = [encode(m) for m in legal]
        if len(set(ids)) != len(ids):
            raise EnvError(
                f"{self.game.name}: two legal moves share an action id in this position "
                "(sim.slices.common.codecs); please report it"
            )
        return ids

    def _tables_of(
        self, legal: tuple[Any, ...]
    ) -> tuple[np.ndarray, dict[int, Any], np.ndarray, list[int]]:
        """The ids of the moves ``legal`` (in order), the id -> move table, the mask and the
        ids as Python ints (EnvError when two moves share an id)."""
        ids = self._ids_of_moves(legal)
        by_id = dict(zip(ids, legal, strict=True))
        arr = np.asarray(ids, dtype=np.int64)
        mask = np.zeros(self.n_actions, dtype=np.int8)
        mask[arr] = 1
        return arr, by_id, mask, arr.tolist()

    def _encode(self, move: Any) -> int:
        """``codec.encode(move)``, remembered per move value (a codec's id depends on the move
        and the config only; Kozo and Kataboom meet the same spots position after position)."""
        try:
            return self._ids_of[move]
        except KeyError:
            a = self._ids_of[move] = self.codec.encode(move)
            if len(self._ids_of) > 200_000:  # bound the memory of a long run
                self._ids_of.clear()
            return a
        except TypeError:  # an unhashable move value
            return self.codec.encode(move)

    @property
    def refused(self) -> tuple[Any, ...]:
        """The moves the physics table refused in this position (left out of :attr:`legal`
        and the mask; a bot chooses among the rest with ``Bot.choose_avoiding``)."""
        return self.session.refused if self.session is not None else ()

    @property
    def legal(self) -> tuple[Any, ...]:
        """The legal moves, in the rules' order."""
        if self._legal is None:
            self._legal = self.game.legal_moves(self._at)
        return self._legal

    @property
    def legal_actions(self) -> list[int]:
        """The legal moves' action ids, in the same order as :attr:`legal`."""
        if self._ids_list is not None:
            return list(self._ids_list)
        ids = self._ids
        return ids.tolist() if isinstance(ids, np.ndarray) else list(ids)  # (Python ints)

    def _legal_move(self, action: int) -> Any:
        """The legal move of id ``action`` here, or None."""
        if self._move_at is None:
            by_id = self._by_id
            if by_id is not None:
                return by_id.get(action)
            try:  # (ids as a list: a few moves a position, looked up once)
                return self.legal[self._ids_list.index(action)]  # type: ignore[union-attr]
            except ValueError:
                return None
        hit = np.flatnonzero(self._ids == action)
        return self._move_at(int(hit[0])) if len(hit) else None

    def current_seat(self) -> int | None:
        """The seat to move (None at the end)."""
        state = self.state
        return self._seat if state is self._at else self.game.current_player(state)

    def play(self, action: int) -> None:
        """Play action ``action`` for the seat to move (EnvError when it is not legal)."""
        if type(action) is not int and (
            isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer))
        ):
            raise EnvError(f"{self.game.name}: an action is an integer, got {action!r}")
        a = int(action)
        move = self._legal_move(a)
        if move is None:
            where = f"0..{self.n_actions - 1}"
            raise EnvError(
                f"{self.game.name}: action {a} is not legal here ({len(self._ids)} legal "
                f"moves among actions {where}; see the action mask or info['legal_actions'])"
            )
        self.play_move(move)

    def play_move(self, move: Any) -> None:
        """Play a legal move value (a bot's choice) for the seat to move, through the
        session (the one move loop: measured, applied, recorded)."""
        session = self.session
        if session is None:
            raise EnvError(f"{self.game.name}: reset the environment before playing")
        try:  # (not contextlib.suppress: a microsecond a step)
            seat = self._seat
            if seat is not None and session.state is self._at:  # (read by _refresh)
                session.play_as(seat, move)
            else:
                session.play(move)
        except TableRefused:  # not played: the same seat chooses again, the refused move
            self._refresh()  # left out of the mask
            return
        self._refresh()

    def terminal(self) -> bool:
        """True once the game is over."""
        state = self.state
        return self._over if state is self._at else bool(self.game.is_terminal(state))

    def scores(self) -> list[float]:
        """Reward per seat at the end: +1 for a winner, -1 for the others, 0 each for a draw."""
        quick = getattr(self.game, "winners", None)  # (a game's own: result's winners only)
        winners = self.game.result(self.state).winners if quick is None else quick(self.state)
        if not winners:
            return [0.0] * self.players
        return [1.0 if s in winners else -1.0 for s in range(self.players)]

    def observation_space(self) -> Any:
        """The Gymnasium space of :meth:`observe`: a Dict of ``observation`` and
        ``action_mask`` boxes."""
        from gymnasium import spaces

        if self.observation_kind == "json":
            obs = spaces.Box(0, 255, (self.obs_bytes,), dtype=np.uint8)
        else:
            obs = self.features.space()
        return spaces.Dict(
            {"observation": obs, "action_mask": spaces.Box(0, 1, (self.n_actions,), dtype=np.int8)}
        )

    # ---- translation ------------------------------------------------------------------------
    def move_texts(self) -> list[str]:
        """The legal moves' texts, in the order of :attr:`legal_actions`."""
        return [self.game.format_move(self.state, m) for m in self.legal]

    def lazy_move_texts(self) -> LazyTexts:
        """:meth:`move_texts` of the current position, formatted when first read."""
        state, legal, fmt, game = self.state, self._legal, self.game.format_move, self.game
        at = self._at  # (the moves of a fast-path position are made only when read)
        return LazyTexts(
            lambda: [fmt(state, m) for m in (game.legal_moves(at) if legal is None else legal)]
        )

    def action_of(self, text: str) -> int:
        """The action of a move written as text (EnvError when it is not legal now)."""
        move = self.game.parse_move(self.state, text)
        try:
            return int(self._ids[self.legal.index(move)])
        except ValueError:
            raise EnvError(f"{self.game.name}: {text!r} is not a legal move now") from None

    def move_of(self, action: int) -> Any:
        """The move action ``action`` names in the current position (the mask says whether it
        is legal; EnvError where only a legal move can say, e.g. a Kozo piece's height)."""
        move = self._legal_move(int(action))
        if move is None:
            return self.codec.decode(int(action), self.state)
        return move

    def mask(self) -> np.ndarray:
        """``int8`` array of length ``n_actions``: 1 where the action is legal."""
        if self._mask is not None:
            return self._mask.copy()
        m = np.zeros(self.n_actions, dtype=np.int8)
        m[self._ids] = 1
        return m

    def observation(self, seat: int | None = None) -> np.ndarray:
        """The observation of ``seat`` (default: the seat to move, else seat 0)."""
        if self.observation_kind == "json":
            return self.json_observation()
        if seat is None:
            seat = self.current_seat() or 0
        return self.features(self.state, seat)

    def json_observation(self) -> np.ndarray:
        """The public state as a ``uint8`` array of length ``obs_bytes`` (module docstring)."""
        obj = dict(self.game.state_to_json(self.state))
        obj.pop("rng", None)
        raw = canonical_json(obj).encode("utf-8")
        if len(raw) > self.obs_bytes:
            raise EnvError(
                f"{self.game.name}: the state takes {len(raw)} bytes, more than the observation's "
                f"{self.obs_bytes} (its GameSpec's obs_bytes)"
            )
        out = np.zeros(self.obs_bytes, dtype=np.uint8)
        out[: len(raw)] = np.frombuffer(raw, dtype=np.uint8)
        return out

    def close_referee(self) -> None:
        """Release the physics table, if any (the session made it and closes it)."""
        if self.session is not None:
            self.session.close()


class Picture:
    """``render()`` for both environments: a :class:`TableView` of the current state."""

    def __init__(self, game_name: str, render_mode: str | None, size: tuple[int, int]) -> None:
        from tablesim.sim.view.table_view import RENDER_MODES

        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode {render_mode!r} is not supported (allowed: None, "
                f"{', '.join(RENDER_MODES)})"
            )
        self.game_name = game_name
        self.render_mode = render_mode
        self.size = size
        self._view: Any = None

    def render(self, state: Any) -> np.ndarray | None:
        """The frame (``rgb_array``: ``(H, W, 3) uint8``) or None (``human``, or no mode)."""
        if self.render_mode is None:
            return None
        from tablesim.sim.view.drawings import layout_for_state
        from tablesim.sim.view.table_view import TableView

        if self._view is None:
            self._view = TableView(self.render_mode, size=self.size)
        self._view.show(layout_for_state(self.game_name, state))
        return self._view.render()

    def close(self) -> None:
        """Close the view (and its window)."""
        if self._view is not None:
            self._view.close()
            self._view = None
