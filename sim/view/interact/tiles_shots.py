"""Screenshots of Kaito, Katoiz and Catego in play at the interactive table.

``python -m tablesim.sim.view.interact.tiles_shots OUT_DIR [--backend gl|tiny] [--size 1280x720]``
writes ``play-kaito.png``, ``play-katoiz.png`` and ``play-catego.png``: seeded games played a
few moves by the games' bots through the app, then a selection made with the harness's mouse
so the legal places show green, the help hidden. With ``gl`` (the default) the pictures are
drawn by OpenGL under ``$DISPLAY`` or a private Xvfb (see :mod:`tablesim.sim.view.backend`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

__all__ = ["main", "shoot"]


def _advance(app, moves: int, seed: int) -> None:  # noqa: ANN001
    """Play ``moves`` seeded random legal moves through the app (animations finished)."""
    from tablesim.games.rng import Rng

    rng = Rng.from_seed(seed, "tiles-shots")
    for _ in range(moves):
        if app.game.is_terminal(app.state):
            return
        legal = [m for m in app.game.legal_moves(app.state) if getattr(m, "kind", "") != "pass"]
        move, rng = rng.choice(legal or list(app.game.legal_moves(app.state)))
        app.play(move)
        app._anim = None  # skip the animation: only the end position is pictured


def shoot(out: Path, backend: str = "gl", size: tuple[int, int] = (1280, 720)) -> list[Path]:
    """Write the three pictures into ``out``; their paths."""
    from tablesim.sim.view.harness import Harness
    from tablesim.sim.view.interact.tiles_app import app_for

    out.mkdir(parents=True, exist_ok=True)
    paths = []
    # Kaito: after 12 moves, the Kaito selected: its landing tiles green
    with Harness(app=app_for("kaito", seed=21, size=size, backend=backend)) as h:
        _advance(h.app, 12, 1)
        h.key("f1")
        h.click_item("kaito")
        paths.append(h.screenshot(out / "play-kaito.png"))
    # Katoiz Stapeltje-four: stacks in height, the dice, a stack selected, its targets green
    with Harness(
        app=app_for("katoiz", options={"type": "stapeltje"}, seed=8, size=size, backend=backend)
    ) as h:
        _advance(h.app, 6, 2)
        h.key("f1")
        st = h.app.state
        move = next((m for m in h.app.game.legal_moves(st) if m.kind == "move"), None)
        if move is not None:
            s = move.src
            h.click_item(f"tile-{s % 6}-{s // 6}-{len(st.stacks[s]) - 1}")
        paths.append(h.screenshot(out / "play-katoiz.png"))
    # Catego: a few entries written, the dice of the roll, the legal columns marked
    with Harness(app=app_for("catego", seed=5, size=size, backend=backend)) as h:
        _advance(h.app, 9, 3)
        h.key("f1")
        h.app.frame()
        paths.append(h.screenshot(out / "play-catego.png"))
    return paths


def main(argv: list[str] | None = None) -> int:
    """Command line: see the module docstring."""
    ap = argparse.ArgumentParser(prog="python -m tablesim.sim.view.interact.tiles_shots")
    ap.add_argument("out", type=Path)
    ap.add_argument("--backend", default="gl", choices=("gl", "tiny", "auto"))
    ap.add_argument("--size", default="1280x720")
    a = ap.parse_args(argv)
    try:
        w, h = (int(v) for v in a.size.lower().split("x"))
    except ValueError:
        print(f"--size {a.size!r}: expected WIDTHxHEIGHT, e.g. 1280x720", file=sys.stderr)
        return 2
    for p in shoot(a.out, a.backend, (w, h)):
        print(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
