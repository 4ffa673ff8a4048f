"""Checks of the rows a resumed journal hands back: a row must be one the job could have
written (its columns, plain cells, the cells the spec fixes for that run), and no text cell may
start a spreadsheet formula (``=HYPERLINK(...)``: CSV formula injection) unless the spec itself
fixes that cell to that text. A row that fails is refused with the journal's file and line
(exit 2): nothing forged reaches the final table.

Freshly computed tables are neutralised as they are written (:func:`neutral_text`, used by
:func:`tablesim.sim.experiments.results.csv_text`): a text cell that a spreadsheet would read as
a formula gets a leading ``'`` (OWASP's advice), which spreadsheets show as text, and which
:func:`plain_text` takes off again when tablesim reads the table back.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

MAX_CELL_CHARS = 4096
"""The longest text cell accepted from a journal (a sweep's error text is one line)."""
MAX_CELL_INT = 2**63 - 1
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet reads as the start of a formula (OWASP's CSV injection list)."""


def _formula_like(text: str) -> bool:
    """True when ``text`` starts with a formula character (not a number such as ``-1.5``)."""
    return text.startswith(FORMULA_STARTS) and not _number_text(text)


def neutral_text(text: str) -> str:
    """``text`` as a CSV cell no spreadsheet runs: ``'`` before any formula-like text, and before
    text that is already quotes and then one (``'=x`` -> ``''=x``), so that :func:`plain_text`
    gives every text back exactly."""
    return "'" + text if _formula_like(text.lstrip("'")) else text


def plain_text(text: str) -> str:
    """The text :func:`neutral_text` was given (one leading ``'`` off quoted formula-like text)."""
    stripped = text.lstrip("'")
    if text != stripped and _formula_like(stripped):
        return text[1:]
    return text


def _number_text(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def cell_problem(column: str, value: Any) -> str | None:
    """Why ``value`` cannot be a cell of ``column``, or None."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int):
        return None if abs(value) <= MAX_CELL_INT else f"{column}: integer out of range"
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{column}: not a finite number"
    if isinstance(value, str):
        if len(value) > MAX_CELL_CHARS:
            return f"{column}: text of {len(value)} characters (at most {MAX_CELL_CHARS})"
        if _formula_like(value):
            return f"{column}: text starting with {value[:1]!r} (a spreadsheet formula)"
        return None
    return f"{column}: a {type(value).__name__}, expected a number, text, true/false or empty"


def row_problem(job: Any, index: int, row: Any, columns: Sequence[str]) -> str | None:
    """Why ``row`` cannot be run ``index`` of ``job``, or None (see the module docstring)."""
    if not isinstance(row, Mapping):
        return "the row is not an object"
    if list(row) != list(columns) and sorted(row) != sorted(columns):
        return f"columns {', '.join(map(str, sorted(row)))[:200]} are not the job's"
    expected = getattr(job, "expected", None)
    fixed = expected(index) if expected is not None else {}
    for c in columns:
        if c in fixed and row[c] == fixed[c]:
            continue  # the spec's own text (a scene named "=x.toml") is written neutralised
        problem = cell_problem(c, row[c])
        if problem:
            return problem
    if fixed:
        for key, want in fixed.items():
            if key in row and row[key] != want:
                return f"{key} is {str(row[key])[:200]!r}, run {index} of this spec has {want!r}"
    allowed = getattr(job, "allowed", None)
    if allowed is not None:
        for key, values in allowed().items():
            if key in row and row[key] not in values:
                return f"{key} {str(row[key])[:200]!r} is not one of {', '.join(values)}"
    return None
