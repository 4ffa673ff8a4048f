"""The Catego action codec: its fixed action ids (``docs/envs.md``;
the scheme: :mod:`tablesim.sim.slices.common.codecs`)."""

from __future__ import annotations

from typing import Any

from tablesim.sim.slices.common.codecs import ActionCodec, EnvError, Layout, Segment


class CategoCodec(ActionCodec):
    """Action ``i``: write the roll in column ``columns[i]``."""

    game = "catego"

    def __init__(self, config: Any) -> None:
        self.columns = tuple(config.columns)
        super().__init__(Layout(self.game, [Segment("column", (len(self.columns),))]))

    def encode(self, move: int) -> int:
        try:
            return self.columns.index(int(move))
        except ValueError:
            raise EnvError(f"catego: column {move!r} is not on the pad {self.columns}") from None

    def decode(self, action: int, state: Any) -> int:
        return self.columns[self.layout.split(int(action))[1][0]]
