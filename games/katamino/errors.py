"""The solver's typed errors (bad input: the CLI maps them to exit code 2)."""

from __future__ import annotations

from tablesim.games.core import ConfigError


class SolverError(ConfigError):
    """Bad solver input: a malformed board or mask, an unknown piece, a piece that cannot lie
    flat on a 2D board, a partial board that does not match its board. The message says what
    was wrong, where, and what is allowed."""
