"""What the PettingZoo and Gymnasium environments share: one game in progress, its actions,
observations and pictures.

Actions. Each game has a fixed ``Discrete(n)`` action space: action ``i`` is the ``i``-th move
of the game's sorted ``legal_moves`` (the rules API sorts them, so the numbering is the same in
every process), and the action mask marks the legal ones. ``n`` (:data:`ACTION_BOUNDS`) is an
upper bound on the number of legal moves of the game under any option; a position with more
raises :class:`EnvError` rather than hiding moves. ``move_of(i)`` / ``action_of(text)`` and
``info["legal_moves"]`` (the move texts in action order) translate.

Observations. The state's canonical JSON without its random stream (``rng``: the future dice
would otherwise be visible), UTF-8 encoded into a fixed-length ``uint8`` array padded with
zeros (:data:`OBS_BYTES`); ``decode_observation`` reads it back. Every seat sees the same
public table (these games have no hidden hands).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from games.core import GameError, canonical_json, make_referee

# Upper bounds on legal moves per position, over every option (tests/test_envs.py checks them
# on seeded playouts of every game; the largest counts seen are noted).
ACTION_BOUNDS: dict[str, int] = {
    "catego": 16,  # one move per column label; columns 2..12 by default (11 seen)
    "kaito": 1024,  # 36 x 35 removal pairs in the opening is the most (remove phase)
    "katoiz": 2048,  # 3-set level 4: disc moves x removals (176 seen)
    "katamino": 4096,  # solo placements of every piece (505 seen)
    "kozo": 4096,  # placements of 12 pieces x 24 rotations on the tower (364 seen)
    "kataboom": 16384,  # placements on the growing structure (3726 seen)
}
OBS_BYTES: dict[str, int] = {
    "catego": 4096,
    "kaito": 4096,
    "katoiz": 16384,
    "katamino": 16384,
    "kozo": 16384,
    "kataboom": 16384,
}


class EnvError(GameError):
    """A position or action the environment cannot represent (says which and why)."""


def agent_name(seat: int) -> str:
    """The PettingZoo agent name of a seat: ``player_0``, ``player_1``, ..."""
    return f"player_{seat}"


def decode_observation(obs: np.ndarray) -> dict[str, Any]:
    """The state JSON (without ``rng``) held in an observation array."""
    raw = bytes(np.asarray(obs, dtype=np.uint8)).rstrip(b"\0")
    return dict(json.loads(raw.decode("utf-8")))


class Match:
    """One game in progress: the rules, the state, the table that measures moves.

    Parameters
    ----------
    game_name: a registered game (``tablesim list games``).
    options: game options; ``players`` (default: the game's minimum of 2 or more) sets seats.
    """

    def __init__(self, game_name: str, options: dict[str, Any]) -> None:
        import sim.referees  # noqa: F401  (registers the physics referees)
        from games.registry import get_game

        self.game = get_game(game_name)
        opts = dict(options)
        players = int(opts.pop("players", max(2, self.game.min_players)))
        players = min(max(players, self.game.min_players), self.game.max_players)
        self.config = self.game.make_config(opts, players=players)
        self.players = players
        self.n_actions = ACTION_BOUNDS[self.game.name]
        self.obs_bytes = OBS_BYTES[self.game.name]
        self.state: Any = None
        self.seed = 0
        self._referee: Any = None
        self._legal: tuple[Any, ...] = ()

    # ---- the game ---------------------------------------------------------------------------
    def reset(self, seed: int) -> None:
        """Start a new game from ``seed`` (the same seed, the same game)."""
        self.close_referee()
        self.seed = int(seed)
        self.state = self.game.new_game(self.config, self.seed)
        name = self.game.referee_name(self.config)
        if name is not None:
            self._referee = make_referee(name, self.game, self.config, self.seed)
        self._refresh()

    def _refresh(self) -> None:
        self._legal = () if self.game.is_terminal(self.state) else self.game.legal_moves(self.state)
        if len(self._legal) > self.n_actions:
            raise EnvError(
                f"{self.game.name}: {len(self._legal)} legal moves exceed the action space of "
                f"{self.n_actions} (tablesim.envs.core.ACTION_BOUNDS)"
            )

    @property
    def legal(self) -> tuple[Any, ...]:
        """The legal moves in action order."""
        return self._legal

    def current_seat(self) -> int | None:
        """The seat to move (None at the end)."""
        return self.game.current_player(self.state)

    def play(self, action: int) -> None:
        """Play action ``action`` for the seat to move (EnvError when it is not legal)."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise EnvError(f"{self.game.name}: an action is an integer, got {action!r}")
        a = int(action)
        if not 0 <= a < len(self._legal):
            raise EnvError(
                f"{self.game.name}: action {a} is not legal here ({len(self._legal)} legal "
                f"moves: actions 0..{len(self._legal) - 1}; see the action mask)"
            )
        move = self._legal[a]
        if self._referee is not None:
            move = self._referee.measure(self.state, move)
        self.state = self.game.apply(self.state, move)
        self._refresh()

    def terminal(self) -> bool:
        """True once the game is over."""
        return bool(self.game.is_terminal(self.state))

    def scores(self) -> list[float]:
        """Reward per seat at the end: +1 for a winner, -1 for the others, 0 each for a draw."""
        res = self.game.result(self.state)
        if not res.winners:
            return [0.0] * self.players
        return [1.0 if s in res.winners else -1.0 for s in range(self.players)]

    def observation_space(self) -> Any:
        """The Gymnasium space of :meth:`observe`: a Dict of ``observation`` and
        ``action_mask`` boxes."""
        from gymnasium import spaces

        return spaces.Dict(
            {
                "observation": spaces.Box(0, 255, (self.obs_bytes,), dtype=np.uint8),
                "action_mask": spaces.Box(0, 1, (self.n_actions,), dtype=np.int8),
            }
        )

    # ---- translation ------------------------------------------------------------------------
    def move_texts(self) -> list[str]:
        """The legal moves' texts, in action order."""
        return [self.game.format_move(self.state, m) for m in self._legal]

    def action_of(self, text: str) -> int:
        """The action of a move written as text (EnvError when it is not legal now)."""
        move = self.game.parse_move(self.state, text)
        try:
            return self._legal.index(move)
        except ValueError:
            raise EnvError(f"{self.game.name}: {text!r} is not a legal move now") from None

    def mask(self) -> np.ndarray:
        """``int8`` array of length ``n_actions``: 1 where the action is legal."""
        m = np.zeros(self.n_actions, dtype=np.int8)
        m[: len(self._legal)] = 1
        return m

    def observation(self) -> np.ndarray:
        """The public state as a ``uint8`` array of length ``obs_bytes`` (module docstring)."""
        obj = dict(self.game.state_to_json(self.state))
        obj.pop("rng", None)
        raw = canonical_json(obj).encode("utf-8")
        if len(raw) > self.obs_bytes:
            raise EnvError(
                f"{self.game.name}: the state takes {len(raw)} bytes, more than the observation's "
                f"{self.obs_bytes} (tablesim.envs.core.OBS_BYTES)"
            )
        out = np.zeros(self.obs_bytes, dtype=np.uint8)
        out[: len(raw)] = np.frombuffer(raw, dtype=np.uint8)
        return out

    def close_referee(self) -> None:
        """Release the physics table, if any."""
        if self._referee is not None:
            self._referee.close()
            self._referee = None


class Picture:
    """``render()`` for both environments: a :class:`TableView` of the current state."""

    def __init__(self, game_name: str, render_mode: str | None, size: tuple[int, int]) -> None:
        from sim.view.table_view import RENDER_MODES

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
        from sim.view.drawings import layout_for_state
        from sim.view.table_view import TableView

        if self._view is None:
            self._view = TableView(self.render_mode, size=self.size)
        self._view.show(layout_for_state(self.game_name, state))
        return self._view.render()

    def close(self) -> None:
        """Close the view (and its window)."""
        if self._view is not None:
            self._view.close()
            self._view = None
