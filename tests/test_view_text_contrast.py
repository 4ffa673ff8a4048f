"""The on-screen text stays white on its dark card whatever it says. The cause of the
"dark-on-dark" status panel (after dice throws, ``r``, drags, nudges: whenever the text came to
hold certain letters): card and letters lie in one plane and were drawn in the transparent bin,
which sorts by depth, so their order followed the text's bounds and the card could be drawn
over the letters (white under a 68 % black card: grey 81 of 255). Read by pixels: the
brightest pixel of the panel is a letter's white."""

from __future__ import annotations

import numpy as np

from tablesim.sim.scene import resolve_scene
from tablesim.sim.view.app import SceneApp

WORDS = ("as written", "it", "written", "Kozo", "P1 to move (human)", "pieces", "i", "refused",
         "verdict (verdict profile): topples", "the table is judging 3I r1 at 0,1,0...",
         "score: P1 0, P2 0", "thrown: 4 6 1", "nudge 4T at 1,2,0")  # fmt: skip


def test_the_status_text_is_white_on_its_card_whatever_it_says() -> None:
    rng = np.random.default_rng(7)
    texts = list(WORDS)
    for _ in range(12):  # seeded random lines of those words
        k = int(rng.integers(1, 4))
        texts.append("\n".join(WORDS[int(rng.integers(0, len(WORDS)))] for _ in range(k)))
    with SceneApp(resolve_scene("kozo-overhang"), size=(480, 270), seconds=0.2) as app:
        app.frame()
        r = app.renderer
        dark = []
        for t in texts:
            r.set_text({"top-left": t})
            img = r.render()
            x0, x1, y0, y1 = r.text_box("top-left", t, scale=15)
            panel = img[int(y0) : int(y1), int(x0) : int(x1)].astype(int).mean(axis=2)
            if panel.max() < 200:  # white letters, not grey under the card
                dark.append((t, float(panel.max())))
        assert dark == []
