"""The interactive table's text (:class:`StatusPanel`): the status block (game, turn, score,
verdict and explanation), the controller's prompts, the move line, the key help and the corner
it goes to (the one whose panel hides less of the table).

Every call goes back through the app, so an app's own ``status_lines``, ``help_corner`` or
``text_blocks`` (a scene, the sandbox, the tile games) is the one used."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from tablesim.sim.view.picking import _covered, _screen_hulls

if TYPE_CHECKING:
    from tablesim.sim.view.app import WindowApp

_HELP = [
    "mouse: right-drag orbit, middle-drag or shift+right-drag pan, wheel zoom",
    "keys: arrows orbit, +/- zoom, home reset view, u undo, enter type a move, f1 help, "
    "escape quit",
]


class StatusPanel:
    """The text of one app (``app``)."""

    def __init__(self, app: WindowApp) -> None:
        self.app: WindowApp = weakref.proxy(app)
        self._help_spot: tuple[Any, str] | None = None  # (what was shown, the corner)

    def score_text(self) -> str:
        """The score line: totals so far, or the result at the end."""
        if self.app.game.is_terminal(self.app.state):
            res = self.app.game.result(self.app.state)
            name = self.app.game.player_name
            who = " and ".join(name(w) for w in res.winners) or "nobody"
            return (
                "game over: "
                + ", ".join(f"{name(i)} {v:g}" for i, v in enumerate(res.scores))
                + f"; {who} won"
            )
        totals = getattr(self.app.game, "totals", None)
        if totals is not None:
            return "score: " + ", ".join(
                f"P{i + 1} {v}" for i, v in enumerate(totals(self.app.state))
            )
        return ""

    def status_lines(self) -> list[str]:
        """The top-left block: game, turn, score, verdict and explanation."""
        # a game with modes names the one being played (Katamino: ``Katamino Duo: 3D Duels``)
        heading = getattr(self.app.game, "heading", None)
        title = heading(self.app.state) if heading is not None else self.app.game.title
        lines = [f"{title}  move {len(self.app.moves) + 1}"]
        s = self.app.seat
        if s is not None:
            who = self.app.roles[s]
            lines.append(f"P{s + 1} to move ({who})" + ("  ...thinking" if who != "human" else ""))
        score = self.app.score_text()
        if score:
            lines.append(score)
        if self.app.verdict:
            lines.append(self.app.verdict)
        if self.app.explanation:
            lines.append(self.app.explanation)
        rule = getattr(self.app.controller, "rule_line", None)
        if rule is not None and rule():
            lines.append(rule())
        return lines

    def text_blocks(self) -> dict[str, str]:
        """The on-screen text by corner."""
        blocks = {"top-left": "\n".join(self.app.status_lines())}
        # the controller's prompts only while a person has the turn (never while a bot thinks)
        mine = list(self.app.controller.overlay()) if self.app.human_to_move() else []
        if self.app.typing is not None:
            mine.append(f"move> {self.app.typing}_")
        if mine:
            blocks["bottom-left"] = "\n".join(mine)
        if self.app.show_help:
            text = "\n".join([*self.app.controller.help(), *_HELP])
            blocks[self.app.help_corner(text)] = text
        else:  # the one-line hint: where a help without text goes (top right in a game)
            blocks[self.app.help_corner()] = "f1: help"
        return blocks

    def help_corner(self, text: str = "") -> str:
        """Where the key help ``text`` goes: of the two right-hand corners (the left ones hold
        the status and the prompts), the one whose panel hides less of the table's pieces,
        boards and tiles as the camera sees them now (top right on a tie)."""
        view = getattr(self.app.renderer, "view", None)
        if view is None or not text or self.app._layout is None:
            return "top-right"
        # everything but the ghost of the move being made (ids "ghost...", as picking skips
        # them): the help does not follow the hand about; the controller's other items (a
        # Kozo supply, say) count
        items = [it for it in self.app._layout.items if not it.id.startswith("ghost")]
        placed = tuple((it.id, tuple(it.position), tuple(it.quat)) for it in items)
        key = (placed, view, tuple(self.app.size), text)
        cached = self._help_spot
        if cached is not None and cached[0] == key:
            return str(cached[1])
        hulls = _screen_hulls(items, view, (int(self.app.size[0]), int(self.app.size[1])))
        scale = self.app.text_scale()
        hidden = {
            c: _covered(self.app.renderer.text_box(c, text, scale=scale), hulls)
            for c in ("top-right", "bottom-right")
        }
        best = "bottom-right" if hidden["bottom-right"] < hidden["top-right"] else "top-right"
        self._help_spot = (key, best)
        return best

    def text_scale(self) -> float:
        """Pixels per line of the on-screen text: 15 at 540 rows, growing with the picture."""
        return max(15.0, self.app.size[1] / 36)
