"""Piece multisets from catalogue references: ``pentominoes``, ``pentominoes:LNPU``,
``katamino-duo:2,3,A,V``, several joined with ``+`` (``pentominoes:X+tetrominoes:O``)."""

from __future__ import annotations

from collections.abc import Sequence

from tablesim.games.katamino.errors import SolverError
from tablesim.games.polycubes import Piece, PieceError, get_catalogue


def parse_pieces(spec: str) -> tuple[Piece, ...]:
    """Resolve a piece specification to catalogue pieces (a multiset, order kept).

    ``SET`` takes the whole catalogue. ``SET:LABELS`` takes the listed pieces: comma-separated
    tokens, or single characters when there is no comma. A token is a piece name (``V1``) or a
    label (``V``); a label printed on several pieces takes the next unused one, and a token
    repeated beyond the catalogue's copies adds one more copy of the same shape.
    """
    if not spec or not spec.strip():
        raise SolverError("pieces: empty specification (e.g. pentominoes:LNPU)")
    out: list[Piece] = []
    for part in spec.split("+"):
        part = part.strip()
        name, _, labels = part.partition(":")
        try:
            cat = get_catalogue(name.strip())
        except PieceError as exc:
            raise SolverError(f"pieces {part!r}: {exc}") from None
        if not _:
            out.extend(cat.pieces)
            continue
        tokens = [t.strip() for t in labels.split(",")] if "," in labels else list(labels.strip())
        if not tokens or any(not t for t in tokens):
            raise SolverError(f"pieces {part!r}: empty piece token after ':'")
        used: dict[str, int] = {}
        for tok in tokens:
            matches = [p for p in cat.pieces if p.name == tok] or [
                p for p in cat.pieces if p.label == tok
            ]
            if not matches:
                raise SolverError(
                    f"pieces {part!r}: {cat.name} has no piece named or labelled {tok!r} "
                    f"(names: {', '.join(p.name for p in cat.pieces)})"
                )
            k = used.get(tok, 0)
            used[tok] = k + 1
            out.append(matches[k % len(matches)])
    return tuple(out)


def as_pieces(pieces: str | Sequence[Piece]) -> tuple[Piece, ...]:
    """Accept a specification string or a sequence of ``Piece`` objects (may be empty)."""
    if isinstance(pieces, str):
        return parse_pieces(pieces)
    out = tuple(pieces)
    for i, p in enumerate(out):
        if not isinstance(p, Piece):
            raise SolverError(
                f"piece {i}: expected a tablesim.games.polycubes.Piece, got {type(p).__name__}"
            )
    return out
