"""Kaito: rules (:mod:`games.kaito.rules`), text (:mod:`games.kaito.text`) and the ``strong``
bot (:mod:`games.kaito.strong`). The registry imports ``GAME`` and ``BOTS`` from here."""

from __future__ import annotations

from games.core import Bot
from games.kaito.rules import (
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
from games.kaito.strong import StrongBot

BOTS: dict[str, type[Bot]] = {"strong": StrongBot}

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
