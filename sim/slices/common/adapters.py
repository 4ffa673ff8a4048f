"""Adapters from the registered games' states to the neutral table descriptions.

One small function per game, in its slice (``sim/slices/<game>/state_layout.py``, named as
the ``drawing`` of its :class:`tablesim.games.registry.GameSpec`); each imports its game lazily, reads
the state and never changes it. When a game's state format changes, its slice's
``state_layout.py`` is the one place to follow it (the tests in ``tests/test_view_games.py``
play seeded games and draw every state they reach). This module keeps what Kozo and Kataboom
share: :func:`_recoloured`.

- ``kaito``: :class:`tablesim.games.kaito.rules.KaitoState` -> :class:`KaitoTable` (the Kaito shows the
  colour of the player to move: the mover flips it to the opponent's colour);
- ``katoiz``: the three game types' states -> :class:`KatoizTable` (3-set: the grid, discs by
  seat, each player's taken tiles as a pile in front of them; Stapeltje-four: stacks and home
  stacks; Stapeltoren: the face-up supply and each player's stacks), with the dice;
- ``kozo``: :class:`tablesim.games.kozo.state.KozoState` -> the settled tower as a scene (the physics
  table's :meth:`tablesim.sim.slices.kozo.referee.KozoReferee.tower_scene`), pieces in their catalogue colours;
- ``kataboom``: the settled structure (:meth:`tablesim.sim.slices.kataboom.referee.KataboomReferee.structure_scene`);
- ``katamino``: the duel modes' :class:`tablesim.games.katamino.duel.DuelState` and the solo modes'
  :class:`tablesim.games.katamino.solo.SoloState` -> :class:`KataminoTable`.
"""

from __future__ import annotations

from typing import Any


def _recoloured(scene: Any) -> Any:
    """A scene whose catalogue pieces take their catalogue colours (the physics tables build
    pieces without colours), balance cubes theirs."""
    from dataclasses import replace

    from tablesim.games.polycubes import catalogue_names, get_catalogue

    balance = get_catalogue("kozo-balance").pieces[0].color
    pieces = []
    for p in scene.pieces:
        if p.cube == "balance":
            p = replace(p, color=balance)
        elif ":" in p.source and p.source.split(":", 1)[0] in catalogue_names():
            cat, name = p.source.split(":", 1)
            known = {q.name: q.color for q in get_catalogue(cat).pieces}
            p = replace(p, color=known.get(name, p.color))
        pieces.append(p)
    return replace(scene, pieces=tuple(pieces))
