"""Kaito: rules (:mod:`tablesim.games.kaito.rules`), text (:mod:`tablesim.games.kaito.text`) and the ``strong``
bot (:mod:`tablesim.games.kaito.strong`). The registry imports ``GAME`` and ``BOTS`` from here."""

from __future__ import annotations

from tablesim.games.core import Bot
from tablesim.games.kaito.rules import (
    GAME,
    Kaito,
    KaitoConfig,
    KaitoState,
    Move,
    cell_name,
    make_position,
    minimal_payments,
    parse_cell,
)
from tablesim.games.kaito.strong import StrongBot

BOTS: dict[str, type[Bot[KaitoState, Move]]] = {"strong": StrongBot}

__all__ = [
    "BOTS",
    "GAME",
    "Kaito",
    "KaitoConfig",
    "KaitoState",
    "Move",
    "cell_name",
    "make_position",
    "minimal_payments",
    "parse_cell",
]
