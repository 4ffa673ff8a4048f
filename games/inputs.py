"""Input files read with a stated maximum size per kind, checked before the bytes are taken in
(``/dev/zero`` or a 4 GB file is refused after reading at most the limit, never a MemoryError).

The limits (README "Limits"): a scene or a sweep spec 4 MiB, a game log 64 MiB, a Katamino board
or partial-board file 1 MiB, a results table for ``plot`` 256 MiB. Each is far above what the
shipped files need (the largest shipped scene is a few KB, a 1000-move log under 1 MB).
"""

from __future__ import annotations

import os

__all__ = ["MAX_INPUT_BYTES", "InputTooLargeError", "read_limited"]

MiB = 1 << 20
MAX_INPUT_BYTES: dict[str, int] = {
    "scene": 4 * MiB,
    "spec": 4 * MiB,
    "log": 64 * MiB,
    "board": 1 * MiB,
    "table": 256 * MiB,
}
"""The largest file of each kind tablesim reads, in bytes."""


class InputTooLargeError(ValueError):
    """An input over its kind's limit (the message names the file and the limit)."""


def read_limited(path: str | os.PathLike[str], kind: str) -> bytes:
    """The bytes of ``path``, at most ``MAX_INPUT_BYTES[kind]``; InputTooLargeError beyond it
    (OSError as ``open`` raises it)."""
    limit = MAX_INPUT_BYTES[kind]
    with open(path, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise InputTooLargeError(
            f"{os.fspath(path)[:200]}: over {limit // MiB} MiB, the limit for a {kind} file"
        )
    return data
