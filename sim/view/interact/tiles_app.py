"""The tile games at the interactive table: tumbling dice, Katoiz clocks and colour ladder.

:class:`TilesApp` is the interactive app (:class:`tablesim.sim.view.app.WindowApp`) with what Catego and
Katoiz need on top:

- dice: when a move leaves a new roll in the state, the dice are thrown in PyBullet
  (:mod:`tablesim.sim.view.dice`) and the film of the throw plays as the move's animation (together
  with the glide of the tile moved); the dice then lie where they came to rest, showing the
  drawn faces. The throw's seed is derived from the app's seed and the move number, so undo
  and replay show the same throw;
- Katoiz Stapeltje-four level 4: each player's clock (seconds left, who is out) in the status
  text; level 5: the colour ladder on the table beside the grid (five blank tiles, bottom
  first, the rung of this turn marked) and in the status text.

Kaito has no dice: it is the plain app with its controller. :func:`app_for` gives the right
class for a game name.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tablesim.games.rng import derive_seed
from tablesim.sim.view.app import GLIDE_S, WindowApp
from tablesim.sim.view.layout import TableLayout

__all__ = ["DICE_GAMES", "TilesApp", "app_for"]

DICE_GAMES = ("catego", "katoiz")
"""Registered games whose state holds a roll of dice drawn on the table."""
_DICE_IDS = ("die1", "die2", "colour-die", "picture-die")
CATEGO_DICE = (0.0, -0.062)
"""Centre (x, y) m of Catego's dice tray: in front of the score sheet."""
CATEGO_TRAY = 0.05
"""Half-size (m) of Catego's dice tray: two dice need no more, and the start view, which keeps
every landing in view, then frames the pad close enough to read its digits (the standard
18 cm tray in front of the 9 cm pad left them about 11 px tall at 960 x 540)."""
KATOIZ_DICE = (0.26, 0.0)
"""Centre (x, y) m of Katoiz's dice tray: right of the grid."""


def _smooth(f: float) -> float:
    f = min(1.0, max(0.0, f))
    return f * f * (3 - 2 * f)


class TilesApp(WindowApp):
    """:class:`WindowApp` with thrown dice and the Katoiz clocks and ladder (module docstring)."""

    def __init__(self, game: str, **kw: Any) -> None:
        self._rolls: dict[tuple[int, Any], Any] = {}
        super().__init__(game, **kw)

    def help_corner(self, text: str = "") -> str:
        """Catego's score sheet fills the top of the picture: its help goes bottom right."""
        return "bottom-right" if self.game.name == "catego" else super().help_corner(text)

    # ---- the dice -------------------------------------------------------------------------

    def roll_faces(self, state: Any | None = None) -> tuple[Any, ...] | None:
        """The faces the state's roll shows, as the dice are labelled (Catego: the two
        numbers; Katoiz: colour face and picture face names), or None without dice."""
        state = self.state if state is None else state
        roll = getattr(state, "roll", None)
        if roll is None or self.game.name not in DICE_GAMES:
            return None
        if self.game.name == "catego":
            return tuple(roll)
        from tablesim.sim.slices.katoiz.state_layout import _katoiz_roll

        colour, picture = _katoiz_roll(roll)  # type: ignore[misc]
        return (colour,) if picture is None else (colour, picture)

    def dice_roll(self, state: Any | None = None, moves: int | None = None) -> Any | None:
        """The :class:`tablesim.sim.view.dice.DiceRoll` of the state's roll (cached; None without
        dice), thrown from a seed derived from the app's seed and the move number."""
        from tablesim.sim.view.dice import catego_dice, katoiz_dice

        state = self.state if state is None else state
        n = len(self.moves) if moves is None else moves
        faces = self.roll_faces(state)
        if faces is None:
            return None
        key = (n, faces)
        if key not in self._rolls:
            seed = derive_seed("tablesim-view-dice", self.game.name, self.seed, n) % (2**31)
            if self.game.name == "catego":
                self._rolls[key] = catego_dice(faces, seed, centre=CATEGO_DICE, tray=CATEGO_TRAY)
            else:
                pair = (faces[0], faces[1] if len(faces) > 1 else None)
                self._rolls[key] = katoiz_dice(pair, seed, centre=KATOIZ_DICE)
        return self._rolls[key]

    def dice_area(self) -> tuple[tuple[float, float], float] | None:
        """Where this game's dice are thrown: (centre x, y) m and the half-size of the square
        tray they land in (None without dice). Every throw comes to rest inside it."""
        from tablesim.sim.view.dice import TRAY

        if self.game.name == "catego":
            return CATEGO_DICE, CATEGO_TRAY
        cfg = getattr(self.state, "config", None)
        if self.game.name != "katoiz" or cfg is None:
            return None
        # which Katoiz types throw dice: 3-set always, stapeltje unless the colour ladder
        # replaces them, stapeltoren from level 3 (the colour die) on
        kind = getattr(cfg, "type", "")
        rolls = (kind == "3-set" or (kind == "stapeltje" and not cfg.colour_ladder)
                 or (kind == "stapeltoren" and cfg.colour_die))  # fmt: skip
        return (KATOIZ_DICE, TRAY) if rolls else None

    def framing_points(self, layout: TableLayout) -> np.ndarray:
        """The table and the whole dice tray: the first camera keeps every landing in view
        (the dice of later turns land anywhere in the tray, not where the first ones lay)."""
        from tablesim.sim.view.drawings.common import DIE_EDGE

        points = layout.points()
        area = self.dice_area()
        if area is None:
            return points
        (cx, cy), half = area
        tray = [(cx + sx * half, cy + sy * half, z)
                for sx in (-1, 1) for sy in (-1, 1) for z in (0.0, DIE_EDGE)]  # fmt: skip
        return np.concatenate([points, np.asarray(tray, dtype=float)])

    def _base_layout(self) -> TableLayout:
        from dataclasses import replace

        layout = super()._base_layout()
        items = tuple(it for it in layout.items if it.id not in _DICE_IDS)
        roll = self.dice_roll()
        if roll is not None:
            items += roll.items(-1)
        if self.game.name == "katoiz":
            items += self._ladder_items()
        return replace(layout, items=items)

    def _start_animation(self, old: TableLayout | None, move: Any) -> None:
        super()._start_animation(old, move)
        roll = self.dice_roll()
        anim = self._anim
        if roll is None or (anim is not None and "samples" in anim):
            return
        layout = self._base_layout() if anim is None else anim["layout"]
        glide = {} if anim is None else anim.get("glide", {})
        throw = roll.throw
        end = max(float(throw.times[-1]), GLIDE_S)
        times = list(throw.times) + [t for t in np.arange(0.0, end, 1 / 60) if t > throw.times[-1]]
        samples = []
        for t in times:
            f = min(int(round(t * 60)), throw.frames - 1)
            poses: dict[str, Any] = dict(roll.poses(f))
            g = _smooth(t / GLIDE_S)
            for pid, ((p0, q0), (p1, q1)) in glide.items():
                if pid in poses:
                    continue
                poses[pid] = ((1 - g) * np.asarray(p0) + g * np.asarray(p1), q1 if g > 0.5 else q0)
            samples.append((float(t), poses))
        self._anim = {"layout": layout, "t": 0.0, "samples": samples, "end": end}
        self._dirty = True

    # ---- Katoiz clocks and ladder ---------------------------------------------------------
    def _ladder_items(self) -> tuple[Any, ...]:
        """Stapeltje-four level 5: the colour ladder beside the grid, this turn's rung marked."""
        from tablesim.games.katoiz.components import COLOURS as NAMES
        from tablesim.sim.slices.katoiz.drawing import (
            THICKNESS,
            TILE,
            KatoizTile,
            cell_centre,
            tile_picture,
        )
        from tablesim.sim.slices.katoiz.state_layout import katoiz_state_table
        from tablesim.sim.view.drawings.common import tile_item
        from tablesim.sim.view.layout import cylinder_item

        cfg = getattr(self.state, "config", None)
        if cfg is None or not getattr(cfg, "colour_ladder", False):
            return ()
        table = katoiz_state_table(self.state)
        rung = self.state.turn % 5
        out = []
        for k, colour in enumerate(cfg.ladder_colours):
            at = cell_centre(table, (table.columns + 3, k), 0)
            pic = tile_picture(KatoizTile(NAMES[colour]))
            out.append(tile_item(f"ladder-{k}", pic, at, TILE * 0.8, THICKNESS, (0.5, 0.4, 0.3)))
            if k == rung:
                top = at + np.array([-TILE * 0.55, 0.0, THICKNESS])
                out.append(cylinder_item("ladder-now", 0.006, 0.002, top, (0.1, 0.1, 0.1)))
        return tuple(out)

    def katoiz_lines(self) -> list[str]:
        """Status lines of Katoiz: the dice or ladder requirement, the clocks."""
        from tablesim.games.katoiz.components import COLOURS as NAMES
        from tablesim.games.katoiz.components import roll_text

        st = self.state
        cfg = getattr(st, "config", None)
        lines: list[str] = []
        if cfg is None:
            return lines
        if getattr(cfg, "colour_ladder", False):
            rung = st.turn % 5
            ladder = " > ".join(
                f"[{NAMES[c]}]" if k == rung else NAMES[c] for k, c in enumerate(cfg.ladder_colours)
            )
            lines.append(f"colour ladder (bottom first): {ladder}")
        elif getattr(st, "roll", None) is not None:
            lines.append(f"dice: {roll_text(st.roll)}")
        clocks = getattr(st, "clocks", ())
        if clocks:
            out = set(getattr(st, "out", ()))
            lines.append(
                "clocks: "
                + ", ".join(
                    f"P{i + 1} {max(0, c) // 60}:{max(0, c) % 60:02d}"
                    + (" out" if i in out else "")
                    for i, c in enumerate(clocks)
                )
            )
        return lines

    def status_lines(self) -> list[str]:
        """The app's status, with Katoiz's dice or ladder and clocks."""
        lines = super().status_lines()
        if self.game.name == "katoiz":
            lines[1:1] = self.katoiz_lines()
        return lines


def app_for(game: str, **kw: Any) -> WindowApp:
    """The interactive app for ``game``: :class:`TilesApp` for Catego and Katoiz (dice, clocks,
    ladder), the plain :class:`WindowApp` for the rest."""
    return TilesApp(game, **kw) if game in DICE_GAMES else WindowApp(game, **kw)
