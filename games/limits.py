"""The one table of numeric limits, shared by the command line (argparse types in
:mod:`tablesim.sim.commands._common`), the Python API (:mod:`tablesim.api`) and the readers of logs,
specs and journals, so that each path refuses the same values (README "Limits").
"""

from __future__ import annotations

MAX_SEED = 2**63 - 1
"""Seeds: 0..2^63-1 (``--seed``, a spec's ``seed``, ``simulate(seed=...)``)."""
MAX_REPLICAS = 1000
"""Replicas of an ensemble verdict: 1..1000."""
MAX_WORKERS = 256
"""Worker processes: 1..256."""
MAX_GAMES = 1_000_000
"""``--games`` of ``balance`` and ``tournament`` (per table)."""
MAX_TOURNAMENT_GAMES = 10**7
"""Games of one tournament in all (tables x ``--games``), as a sweep's 10^7 runs."""
MAX_BUDGET = 10**9
"""A bot's node/playout budget (``--budget``, a log's ``budget``)."""
MAX_PIECE_CELLS = 4096
"""Cells of one polycube piece (a scene's inline ``cells``)."""
MAX_SOLVE_CELLS = 128
"""Cells of a board ``solve`` and ``katamino`` search (the shipped puzzles have at most 65)."""
MAX_SOLVE_PIECES = 26
"""Pieces of one ``solve`` or ``katamino`` search (two full pentomino sets have 24)."""


def check_int(name: str, value: object, low: int, high: int, *, none_ok: bool = False) -> None:
    """TypeError unless ``value`` is an int (not a bool; None with ``none_ok``), ValueError
    unless ``low <= value <= high``; both messages name the argument and what is allowed."""
    allowed = f"an integer in {low}..{high}" + (" or None" if none_ok else "")
    if value is None and none_ok:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be {allowed}, got {type(value).__name__} {_short(value)}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be {allowed}, got {_short(value)}")


def _short(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**200:
        return "a huge integer"
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "..."
