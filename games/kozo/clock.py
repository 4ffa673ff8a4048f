"""The Kozo table clock and the 5-second rule (pure: no wall clock is read here).

> "5 seconds after a player finishes a turn, the responsibility for keeping the tower
> standing shifts to the next player."

The clock of a round is a function of its move texts (``KozoState.history``) and the options:

- the round's first polycube is let go at table time 0;
- every later polycube ``secs`` after the previous turn ended (the ``@SECS`` of its text: the
  player's time to place); a placement without it (every log written before the field
  existed) starts the moment the previous turn's window ends, ``window_s`` after it;
- the balance cube (or ``nocube``) follows ``hold_s`` after the polycube: that is the end of
  the turn, and the mover's window of ``window_s`` starts.

Who a fall belongs to (``docs/rules/kozo.md``, "The 5-second rule"): the mover's window lasts
until ``window_s`` after their turn or until the next player lets their polycube go, whichever
comes first ("If the tower falls during your turn, you lose your points"); from then on the
tower is the next player's. So a fall is always charged to the player whose move the table was
measuring when it began: the physics table (:mod:`tablesim.sim.slices.kozo.referee`) runs its world by this
clock, going back to the instant a quick player placed, or on through a slow player's wait.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

SECS_LIMIT = 3600.0
"""The longest time to place a move may carry (s)."""


@dataclass(frozen=True)
class RoundClock:
    """The table clock of a round so far: ``ends`` the turn ends (table time s, seat) in
    order; ``placed`` the table time the current turn's polycube was let go (None before)."""

    ends: tuple[tuple[float, int], ...] = ()
    placed: float | None = None

    @property
    def last_end(self) -> float | None:
        """When the previous turn ended (None at the round's first turn)."""
        return self.ends[-1][0] if self.ends else None


def move_secs(text: str) -> float | None:
    """The ``@SECS`` of a move text, or None."""
    _, at, secs = text.partition("@")
    return float(secs) if at else None


def placement_time(clock: RoundClock, secs: float | None, window_s: float) -> float:
    """Table time at which a polycube placed ``secs`` after the previous turn ended (None: at
    the end of that turn's window) is let go; 0 for the round's first."""
    end = clock.last_end
    if end is None:
        return 0.0
    return round(end + (window_s if secs is None else secs), 6)


def wait_after_turn(clock: RoundClock, secs: float | None, window_s: float) -> float | None:
    """Seconds from the previous turn's end to this placement (None at the round's first)."""
    if clock.last_end is None:
        return None
    return window_s if secs is None else secs


def round_clock(
    history: Sequence[str], start: int, players: int, hold_s: float, window_s: float
) -> RoundClock:
    """The clock after the round's move texts ``history`` (its first turn by seat ``start``)."""
    steps = (
        ((text.split(None, 1)[0] if text.strip() else ""), move_secs(text)) for text in history
    )
    return clock_of_steps(steps, start, players, hold_s, window_s)


def clock_of_steps(
    steps: Iterable[tuple[str, float | None]],
    start: int,
    players: int,
    hold_s: float,
    window_s: float,
) -> RoundClock:
    """The clock after the round's moves given as ``(kind, secs)`` pairs (``take``, ``place``,
    ``cube``, ``nocube``; ``secs`` a placement's time to place): what :func:`round_clock` reads
    from the texts, for a caller holding the moves themselves (the physics table)."""
    ends: list[tuple[float, int]] = []
    placed: float | None = None
    for kind, secs in steps:
        if kind == "take":
            continue
        if kind in ("cube", "nocube"):
            seat = (start + len(ends)) % players
            ends.append((round((placed or 0.0) + hold_s, 6), seat))
            placed = None
            continue
        placed = placement_time(RoundClock(tuple(ends)), secs, window_s)
    return RoundClock(tuple(ends), placed)
