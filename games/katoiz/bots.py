"""Katoiz bots (filled in below)."""

from __future__ import annotations

from games.core import Bot

BOTS: dict[str, type[Bot]] = {}
