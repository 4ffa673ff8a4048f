"""The Katamino constructions ``tablesim katamino`` builds by default, and their piece sets.

Plain data, apart from :mod:`tablesim.sim.assembly` so the command line can name them in its help
without importing the physics."""

from __future__ import annotations

DEFAULT_PIECES: dict[str, str] = {
    "3x3x4": "katamino-duo:2,3,4,5,6,A,B,W,V",
    "2x2x6": "katamino-duo:2,A,B,C,D,X",
    "2x2x7": "katamino-duo:A,B,C,D,E,X,2",
    "3x3x6": "katamino-duo:2,3,4,5,6,7,8,A,B,C,D,X",
}
"""A piece set for each construction the rulebook pictures that we build by default (the
pictures are missing; each set is checked solvable in ``tests/test_assembly.py``). 3x3x4 is the
rulebook's "add the V piece to the 8 pieces of a Penta 7"."""
