"""A subset of the given pieces that fits a board, for ``solve``'s "areas differ" message.

When the pieces cover more cells than the board, a person usually meant some of them: the
first subsets (in the order the pieces were given, earlier pieces kept first) whose area is the
board's are tried with the solver, and the first solvable one is written back as a
``--pieces`` specification (``pentominoes:LYNPUVTZ``).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tablesim.games.polycubes import CATALOGUES, Piece


@dataclass(frozen=True)
class Fit:
    """A subset of pieces of the board's area: its ``spec`` and whether it was solved."""

    spec: str
    pieces: tuple[Piece, ...]
    solvable: bool | None
    """True: the solver found a solution; None: not checked within the budget."""


def subsets_of_area(pieces: Sequence[Piece], area: int) -> Iterator[tuple[int, ...]]:
    """Index tuples of the sub-multisets of ``pieces`` whose cells add up to ``area``, in
    lexicographic order of the indices (earlier pieces first); equal shapes counted once."""
    sizes = [len(p.cells) for p in pieces]
    suffix = [0] * (len(pieces) + 1)
    for i in range(len(pieces) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + sizes[i]

    def rec(i: int, left: int, chosen: list[int], skipped: set[tuple]) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield tuple(chosen)
            return
        if i == len(pieces) or suffix[i] < left:
            return
        key = pieces[i].cells
        if sizes[i] <= left and key not in skipped:
            chosen.append(i)
            yield from rec(i + 1, left - sizes[i], chosen, skipped)
            chosen.pop()
        # skipping a shape means skipping its later copies too in this branch (no duplicates)
        yield from rec(i + 1, left, chosen, skipped | {key})

    yield from rec(0, area, [], set())


def pieces_spec(pieces: Sequence[Piece]) -> str:
    """The ``--pieces`` text naming exactly ``pieces`` (``SET:LABELS`` joined by ``+``)."""
    groups: list[tuple[str, list[str]]] = []
    for p in pieces:
        cat = next(
            (c for c in CATALOGUES.values() if any(q is p for q in c.pieces)),
            next((c for c in CATALOGUES.values() if p in c.pieces), None),
        )
        name = cat.name if cat else "?"
        token = p.label if cat and sum(q.label == p.label for q in cat.pieces) == 1 else p.name
        if groups and groups[-1][0] == name:
            groups[-1][1].append(token)
        else:
            groups.append((name, [token]))
    parts = []
    for name, tokens in groups:
        sep = "" if all(len(t) == 1 for t in tokens) else ","
        parts.append(f"{name}:{sep.join(tokens)}")
    return "+".join(parts)


def fitting_subset(
    target: object,
    pieces: Sequence[Piece],
    *,
    straight_horizontal: bool = False,
    tries: int = 40,
    backend: str | None = None,
) -> Fit | None:
    """The first subset of ``pieces`` with the target's area that the solver can place (at
    most ``tries`` solver runs), else the first subset of that area unchecked; None when no
    subset has the area."""
    from tablesim.games.katamino.solver import is_solvable

    size = int(target.size)  # type: ignore[attr-defined]
    first: tuple[Piece, ...] | None = None
    for k, idx in enumerate(subsets_of_area(pieces, size)):
        chosen = tuple(pieces[i] for i in idx)
        if first is None:
            first = chosen
        if k >= tries:
            break
        if is_solvable(target, chosen, straight_horizontal=straight_horizontal, backend=backend):
            return Fit(pieces_spec(chosen), chosen, True)
    return None if first is None else Fit(pieces_spec(first), first, None)
