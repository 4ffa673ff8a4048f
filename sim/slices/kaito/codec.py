"""The Kaito action codec: its fixed action ids (``docs/envs.md``;
the scheme: :mod:`tablesim.sim.slices.common.codecs`)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations
from typing import Any

from tablesim.sim.slices.common.codecs import ActionCodec, EnvError, Layout, Segment

KAITO_CELLS = 36
KAITO_PAIRS = tuple(combinations(range(KAITO_CELLS), 2))


@cache
def kaito_trades() -> tuple[tuple[str, tuple[int, ...]], ...]:
    """``("", ())`` then every (buy, minimal payment) from one side's seven Mons
    (3, 3, 2, 2, 1, 1, 1): 5 for the Katana (price 4), 5 for the Kabuto (price 5)."""
    from tablesim.games.kaito.rules import PRICES, minimal_payments

    mons = (3, 3, 2, 2, 1, 1, 1)
    out: list[tuple[str, tuple[int, ...]]] = [("", ())]
    for buy in ("katana", "kabuto"):
        out.extend((buy, pay) for pay in minimal_payments(mons, PRICES[buy]))
    return tuple(out)


class KaitoCodec(ActionCodec):
    """``remove`` (cell pair), ``place`` (cell), ``move`` (cell x trade)."""

    game = "kaito"

    def __init__(self, config: Any) -> None:
        self.trades = kaito_trades()
        self.trade_index = {t: i for i, t in enumerate(self.trades)}
        self.pair_index = {p: i for i, p in enumerate(KAITO_PAIRS)}
        super().__init__(
            Layout(
                self.game,
                [
                    Segment("remove", (len(KAITO_PAIRS),)),
                    Segment("place", (KAITO_CELLS,)),
                    Segment("move", (KAITO_CELLS, len(self.trades))),
                ],
            )
        )

    def encode(self, move: Any) -> int:
        if move.kind == "remove":
            return self.layout.offsets["remove"] + self.pair_index[tuple(sorted(move.cells))]
        if move.kind == "place":
            return self.layout.id("place", move.cells[0])
        trade = self.trade_index.get((move.buy, tuple(move.pay)))
        if trade is None:
            raise EnvError(f"kaito: trade {move.buy} {move.pay} is not a minimal payment")
        return self.layout.id("move", move.cells[0], trade)

    def encode_many(self, moves: Sequence[Any]) -> list[int] | None:
        """The ids of ``moves`` as :meth:`encode` gives them, the place and move arithmetic
        inlined (a remove, or anything unusual, through :meth:`encode`)."""
        place, move = self.layout.offsets["place"], self.layout.offsets["move"]
        n, index, out = len(self.trades), self.trade_index, []
        for m in moves:
            kind, cells = m.kind, m.cells
            c = cells[0] if cells else -1
            if kind == "move" and 0 <= c < KAITO_CELLS and type(m.pay) is tuple:
                trade = index.get((m.buy, m.pay))
                if trade is not None:
                    out.append(move + c * n + trade)
                    continue
            elif kind == "place" and 0 <= c < KAITO_CELLS:
                out.append(place + c)
                continue
            out.append(self.encode(m))
        return out

    def decode(self, action: int, state: Any) -> Any:
        from tablesim.games.kaito.rules import Move

        name, c = self.layout.split(int(action))
        if name == "remove":
            return Move("remove", KAITO_PAIRS[c[0]])
        if name == "place":
            return Move("place", (c[0],))
        buy, pay = self.trades[c[1]]
        return Move("move", (c[0],), buy, pay)
