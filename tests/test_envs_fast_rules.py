"""The fast legal-move paths of issue 36 give the same lists as the plain definitions they
replace, on generated positions (the plain definitions are kept here as references)."""

from __future__ import annotations

import random

from games.katamino.solo import placements
from games.katamino.solo_data import challenges, orientations_of


def placements_reference(target, free, name, straight):  # noqa: ANN001, ANN201
    """Main's ``placements`` before issue 36: every orientation anchored at every free cell
    by its first cell, kept when all its cells are free."""
    out = set()
    for o in orientations_of(name, target.dims, straight):
        for c in free:
            cells = tuple(sorted((c[0] + x - o[0][0], c[1] + y - o[0][1], c[2] + z - o[0][2])
                                 for x, y, z in o))  # fmt: skip
            if all(q in free for q in cells):
                out.add(cells)
    return sorted(out)


def test_katamino_placements_match_reference_on_random_boards() -> None:
    rng = random.Random(36)
    stages = [st for mode in ("solo", "solo3d", "construction") for ch in challenges(mode) for st in ch.stages]
    checked = 0
    for st in rng.sample(stages, min(12, len(stages))):
        cells = sorted(st.target.cell_set)
        for _ in range(3):
            free = frozenset(c for c in cells if rng.random() < rng.choice((0.5, 0.8, 1.0)))
            for name in rng.sample(sorted(set(st.pieces)), min(3, len(set(st.pieces)))):
                for straight in (False, True):
                    want = placements_reference(st.target, free, name, straight)
                    assert placements(st.target, free, name, straight) == want
                    checked += len(want)
    assert checked > 100  # real placements were compared, not only empty lists
