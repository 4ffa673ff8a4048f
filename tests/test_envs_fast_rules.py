"""The fast legal-move paths of issue 36 give the same lists as the plain definitions they
replace, on generated positions (the plain definitions are kept here as references)."""

from __future__ import annotations

import random

from tablesim.games.katamino.solo import placements
from tablesim.games.katamino.solo_data import challenges, orientations_of


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
    stages = [
        st
        for mode in ("solo", "solo3d", "construction")
        for ch in challenges(mode)
        for st in ch.stages
    ]
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


def test_kozo_spots_of_many_pieces_match_one_at_a_time() -> None:
    """``candidate_spots_many`` (all orientations of all pieces in one numpy pass, cells
    padded) equals ``candidate_spots`` piece by piece, on towers of seeded random games."""
    from tablesim.games.kozo.blocks import piece_orientations
    from tablesim.games.kozo.placement import candidate_spots, candidate_spots_many
    from tablesim.games.kozo.rules import tower_blocks
    from tablesim.games.registry import get_game

    game = get_game("kozo")
    cfg = game.make_config({"table": "stand-in"}, players=2)
    found = 0
    for seed in (3, 4):
        state, rng = game.new_game(cfg, seed), random.Random(seed)
        while not game.is_terminal(state):
            blocks = tower_blocks(cfg, state.tower)
            shapes = [
                o for p in sorted(set(state.supply)) for o in piece_orientations(cfg.catalogue, p)
            ]
            want = [candidate_spots(cells, blocks, cfg.tolerance) for cells in shapes]
            assert candidate_spots_many(shapes, blocks, cfg.tolerance) == want
            found += sum(map(len, want))
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    assert found > 100
