"""Problems found in an input file, with their key path and line, collected rather than raised.

Scene files (:mod:`tablesim.sim.scene`) and sweep specs (:mod:`tablesim.sim.experiments.spec`) are read the same
way: a :class:`ProblemCollector` records every :class:`InputProblem` (a key path such as
``piece[3].at``, a message saying what is wrong and what is allowed, and the 1-based line found by
a :class:`LineIndex` over the TOML text), so that a refusal lists **every** problem at once.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime, time
from typing import Any

__all__ = ["InputProblem", "LineIndex", "ProblemCollector", "describe_value"]

COLOR_RE = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
"""A ``#rgb`` or ``#rrggbb`` colour."""


# ---------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------
class InputProblem(tuple):
    """One problem of a scene: a ``(key_path, message)`` pair that also knows its ``line``.

    ``key_path`` looks like ``piece[3].at`` (pieces are counted from 0 in file order), ``base``,
    ``physics.friction`` or ``toml`` for syntax errors. ``line`` is the 1-based line of the file
    where the key was found, or None.
    """

    line: int | None

    def __new__(cls, path: str, message: str, line: int | None = None) -> InputProblem:
        self = super().__new__(cls, (path, message))
        self.line = line
        return self

    @property
    def path(self) -> str:
        """The key path, e.g. ``piece[3].at``."""
        return self[0]

    @property
    def message(self) -> str:
        """What is wrong, and what is allowed."""
        return self[1]

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        return f"{where}{self.path}: {self.message}"

    def __repr__(self) -> str:
        return f"InputProblem({self.path!r}, {self.message!r}, line={self.line!r})"


# ---------------------------------------------------------------------------------------
# Line numbers of keys (best effort: a light scan of the TOML text)
# ---------------------------------------------------------------------------------------
# a table header: [name] or [[name]], the name a (dotted) key starting with a letter or quote,
# so that array elements written one per line ("  [0, 1, 0]") are never taken for headers
_HEADER_RE = re.compile(r"^\s*(\[\[?)\s*([A-Za-z_\"'][A-Za-z0-9_\-.\"' ]*?)\s*\]\]?\s*(?:#.*)?$")
_PATH_TOKEN_RE = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


class LineIndex:
    """Finds the line of a key path such as ``piece[3].at`` in TOML text."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        # regions: (table name, array index or None) -> (header line, first line, end line)
        self.regions: dict[tuple[str, int | None], tuple[int | None, int, int]] = {}
        counts: dict[str, int] = {}
        current: tuple[str, int | None] = ("", None)
        header: int | None = None
        start = 0
        for i, raw in enumerate(self.lines):
            m = _HEADER_RE.match(raw)
            if not m:
                continue
            self.regions.setdefault(current, (header, start, i))
            name = m.group(2).strip().strip('"').split(".")[0].strip().strip('"')
            if m.group(1) == "[[":
                idx = counts.get(name, 0)
                counts[name] = idx + 1
                current = (name, idx)
            else:
                current = (name, None)
            header, start = i + 1, i + 1
        self.regions.setdefault(current, (header, start, len(self.lines)))

    def _find_key(self, key: str, start: int, end: int) -> int | None:
        k = re.escape(key)
        pat = re.compile(rf"^\s*(?:\"{k}\"|'{k}'|{k})\s*=")
        for i in range(start, min(end, len(self.lines))):
            if pat.match(self.lines[i]):
                return i + 1
        return None

    def line_of(self, path: str) -> int | None:
        """1-based line of the key path, or of its closest enclosing key/table; None if unknown."""
        tokens: list[str | int] = []
        for name, idx in _PATH_TOKEN_RE.findall(path):
            tokens.append(int(idx) if idx else name)
        if not tokens or not isinstance(tokens[0], str):
            return None
        table = tokens[0]
        index = tokens[1] if len(tokens) > 1 and isinstance(tokens[1], int) else None
        rest = tokens[2:] if index is not None else tokens[1:]
        region = self.regions.get((table, index))
        if region is not None:
            header, start, end = region
            key = next((t for t in rest if isinstance(t, str)), None)
            if key is not None:
                found = self._find_key(key, start, end)
                if found is not None:
                    return found
            return header
        # a top-level key (or a table written inline at the top level)
        top = self.regions.get(("", None))
        if top is None:
            return None
        return self._find_key(table, top[1], top[2])


# ---------------------------------------------------------------------------------------
# Value checks
# ---------------------------------------------------------------------------------------
def describe_value(value: Any) -> str:
    """How a TOML value reads in a message: ``the integer 3``, ``an array of 2``, ``a table``."""
    if isinstance(value, bool):
        return f"the boolean {str(value).lower()}"
    if isinstance(value, int):
        return f"the integer {value}"
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return f"an array of {len(value)}"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (datetime, date, time)):
        return f"the date/time {value.isoformat()}"
    return repr(value)


class ProblemCollector:
    """Accumulates problems while parsing."""

    def __init__(self, index: LineIndex | None) -> None:
        self.index = index
        self.problems: list[InputProblem] = []

    def add(self, path: str, message: str) -> None:
        """Record a problem at ``path`` (its line looked up when an index is given)."""
        line = self.index.line_of(path) if self.index is not None else None
        self.problems.append(InputProblem(path, message, line))

    def keys(self, table: Mapping[str, Any], allowed: Sequence[str], path: str) -> None:
        """Report every key of ``table`` not in ``allowed``."""
        for key in table:
            if key not in allowed:
                near = difflib.get_close_matches(key, allowed, n=1)
                hint = f"did you mean {near[0]!r}? " if near else ""
                where = f"{path}.{key}" if path else key
                self.add(where, f"unknown key {key!r} ({hint}allowed: {', '.join(allowed)})")

    def number(self, value: Any, path: str) -> float | None:
        """A finite number (int or float, not bool), or None after reporting a problem."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            self.add(path, f"expected a number, got {describe_value(value)}")
            return None
        v = float(value)
        if not math.isfinite(v):
            self.add(path, f"expected a finite number, got {value!r}")
            return None
        return v

    def vector(self, value: Any, path: str, n: int = 3) -> tuple[float, ...] | None:
        """``n`` finite numbers, or None after reporting every bad element."""
        if not isinstance(value, list):
            self.add(path, f"expected an array of {n} numbers, got {describe_value(value)}")
            return None
        if len(value) != n:
            self.add(path, f"expected {n} numbers, got {len(value)}")
            return None
        out = [self.number(v, f"{path}[{i}]") for i, v in enumerate(value)]
        if any(v is None for v in out):
            return None
        return tuple(out)  # type: ignore[arg-type]

    def vector3(self, value: Any, path: str) -> tuple[float, float, float] | None:
        """Three finite numbers (a point or a size), or None after reporting every bad one."""
        v = self.vector(value, path, 3)
        return None if v is None else (v[0], v[1], v[2])

    def string(self, value: Any, path: str, choices: Sequence[str] | None = None) -> str | None:
        """A string (one of ``choices`` if given), or None after reporting a problem."""
        if not isinstance(value, str):
            self.add(path, f"expected a string, got {describe_value(value)}")
            return None
        if choices is not None and value not in choices:
            allowed = ", ".join(repr(c) for c in choices)
            self.add(path, f"unknown value {value!r} (allowed: {allowed})")
            return None
        return value

    def boolean(self, value: Any, path: str) -> bool | None:
        """true or false, or None after reporting a problem."""
        if not isinstance(value, bool):
            self.add(path, f"expected true or false, got {describe_value(value)}")
            return None
        return value

    def color(self, value: Any, path: str) -> str | None:
        """A ``#rgb`` or ``#rrggbb`` colour, or None after reporting a problem."""
        s = self.string(value, path)
        if s is None:
            return None
        if not COLOR_RE.match(s):
            self.add(path, f"expected a colour '#rrggbb' or '#rgb', got {s!r}")
            return None
        return s
