"""The interactive table's animations (:class:`Animator`): a glide into place for a move the
physics did not judge, and the film of a judged move (the referee's poses, shown as the table
measures them, on the old table with the held piece renamed to the world's id).

Every call goes back through the app, so an app's own ``_anim_poses`` or ``_base_layout`` is
the one used."""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from tablesim.sim.view.layout import Item, TableLayout

if TYPE_CHECKING:
    from tablesim.sim.view.app import WindowApp

GLIDE_S = 0.4
"""Seconds a piece glides into place when a move was not judged by physics."""


class Animator:
    """The animations of one app (``app``; the animation itself is ``app._anim``)."""

    def __init__(self, app: WindowApp) -> None:
        self.app: WindowApp = weakref.proxy(app)

    def _start_animation(self, old: TableLayout | None, move: Any) -> None:
        new = self.app._with_supply(self.app._base_layout())
        if self.app._samples:
            ids = set(new.ids)
            frames = self.app._samples
            if not all(set(p) <= ids for _, p in frames[:1]) and old is not None:
                # the round ended (the tower fell and was cleared): film on the old table
                # plus the ghost of the piece moved, renamed to the world's id
                missing = sorted(set(frames[0][1]) - set(old.ids))
                ghosts = [g for g in self.app.controller.ghosts() if g.id.startswith("ghost")]
                extra = [
                    replace(g, id=m, alpha=1.0)
                    for g, m in zip(ghosts[:1], missing[:1], strict=False)
                ]
                new = replace(old, items=old.items + tuple(extra))
            self.app._anim = {"layout": new, "t": 0.0, "samples": frames, "end": frames[-1][0],
                          "rows": self.app._rows}  # fmt: skip
        elif old is not None:
            start = {}
            for it in new.items:
                try:
                    prev = old.item(it.id)
                except KeyError:
                    if it.id.startswith("slot-"):  # a held piece's mark in its slot: no glide
                        continue
                    prev = replace(it, position=(it.position[0], it.position[1],
                                                 it.position[2] + 0.06))  # fmt: skip
                if np.allclose(prev.position, it.position) and np.allclose(prev.quat, it.quat):
                    continue
                start[it.id] = ((prev.position, prev.quat), (it.position, it.quat))
            if start:
                self.app._anim = {"layout": new, "t": 0.0, "glide": start, "end": GLIDE_S}
        self.app._dirty = True

    def _anim_poses(self) -> dict[str, Any]:
        a = self.app._anim
        assert a is not None  # only called while animating
        ids = set(a["layout"].ids)
        if "samples" in a:
            if not a["samples"]:
                return {}
            i = min(int(a.get("i", 0)), len(a["samples"]) - 1)
            return {k: v for k, v in a["samples"][i][1].items() if k in ids}
        f = min(1.0, a["t"] / GLIDE_S)
        f = f * f * (3 - 2 * f)
        out = {}
        for pid, ((p0, q0), (p1, q1)) in a["glide"].items():
            pos = (1 - f) * np.asarray(p0) + f * np.asarray(p1)
            q = q1 if f > 0.5 else q0
            out[pid] = (pos, q)
        return out

    def _showing(self) -> dict[str, Any] | None:
        """The animation being drawn (None: none, or a film whose first poses are not in)."""
        a = self.app._anim
        return a if a is not None and a.get("layout") is not None else None

    def _live_film(self, old: TableLayout | None, ghosts: Sequence[Item]) -> None:
        """Show the judged move's run as the table measures it: the referee's poses
        (:meth:`_observe`) on the old table, the held piece renamed to the world's id."""
        self.app._anim = {"film": True, "layout": None, "old": old, "ghosts": list(ghosts), "t": 0.0,
                      "samples": self.app._samples, "rows": self.app._rows, "end": math.inf}  # fmt: skip
        self.app._film_layout()

    def _film_layout(self) -> None:
        a = self.app._anim
        if a is None or a.get("layout") is not None or not self.app._samples:
            return
        base = a["old"] if a["old"] is not None else self.app._base_layout()
        base = replace(base, items=tuple(it for it in base.items if not it.id.startswith("ghost")))
        missing = sorted(set(self.app._samples[0][1]) - set(base.ids))
        extra = [
            replace(g, id=m, alpha=1.0) for g, m in zip(a["ghosts"][:1], missing[:1], strict=False)
        ]
        a["layout"] = replace(base, items=base.items + tuple(extra))
        a["shown"] = False
