"""A small, explicit, serialisable random stream for game states.

Game states are frozen values, so their randomness must be a value too: ``Rng`` holds one
64-bit integer and every draw returns the drawn value *and* the next ``Rng``. The generator is
SplitMix64 (Steele, Lea & Flood 2014), which is tiny, passes BigCrush, and gives the same bits
on every platform and Python version because it only uses integer arithmetic.

Seeds are derived by hashing, so ``Rng.from_seed(7, "dice")`` and ``Rng.from_seed(7, "bot", 1)``
are independent streams.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def derive_seed(*parts: object) -> int:
    """Return a 64-bit seed derived from ``parts`` (stable across processes and platforms)."""
    text = "\x1f".join(repr(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "little")


@dataclass(frozen=True)
class Rng:
    """An immutable SplitMix64 stream. ``state`` is the whole generator."""

    state: int

    @classmethod
    def from_seed(cls, seed: int, *stream: object) -> Rng:
        """A stream for ``seed``; extra ``stream`` labels give independent sub-streams."""
        return cls(derive_seed("tablesim-rng", int(seed), *stream))

    def next_u64(self) -> tuple[int, Rng]:
        """Draw a uniform 64-bit integer."""
        s = (self.state + _GOLDEN) & _MASK
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31), Rng(s)

    def randbelow(self, n: int) -> tuple[int, Rng]:
        """Draw an integer uniform in ``[0, n)`` (unbiased, by rejection)."""
        if n <= 0:
            raise ValueError(f"randbelow needs n >= 1, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        rng = self
        while True:
            v, rng = rng.next_u64()
            if v < limit:
                return v % n, rng

    def randint(self, lo: int, hi: int) -> tuple[int, Rng]:
        """Draw an integer uniform in ``[lo, hi]`` (both ends included)."""
        v, rng = self.randbelow(hi - lo + 1)
        return lo + v, rng

    def random(self) -> tuple[float, Rng]:
        """Draw a float uniform in ``[0, 1)`` with 53 random bits."""
        v, rng = self.next_u64()
        return (v >> 11) * (1.0 / (1 << 53)), rng

    def gauss(self) -> tuple[float, Rng]:
        """Draw a standard normal value (Box-Muller on two uniforms)."""
        import math

        u1, rng = self.random()
        u2, rng = rng.random()
        return math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(2.0 * math.pi * u2), rng

    def choice(self, items: Sequence[T]) -> tuple[T, Rng]:
        """Pick one element of a non-empty sequence."""
        i, rng = self.randbelow(len(items))
        return items[i], rng

    def shuffle(self, items: Sequence[T]) -> tuple[tuple[T, ...], Rng]:
        """Return a shuffled tuple (Fisher-Yates) and the advanced stream."""
        out = list(items)
        rng = self
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), rng
