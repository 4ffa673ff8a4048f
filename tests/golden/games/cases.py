"""The seeded games whose logs, transcripts and JSON results are stored in this folder.

Each case is one ``tablesim play`` command line (bots only, so it is deterministic). Its files:

- ``<name>.jsonl``: the log ``play --log`` writes (replayed by ``tablesim replay``);
- ``<name>.txt``: the headless transcript (``turn N: seat S (bot): ...`` and the result line),
  the playthrough a person reads; a rule change shows up as a diff of it, as OpenSpiel's
  playthrough files do;
- ``<name>.json``: the one line ``play --json`` prints.

They were written by the code *before* the game loop moved into :mod:`tablesim.games.session`, and
the tests check that the code reproduces them byte for byte. To regenerate after a deliberate
rules change: ``python tests/golden/games/cases.py`` and read the diff before committing.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

CASES: dict[str, tuple[str, ...]] = {
    "catego-strong-random-5": ("catego", "--players", "strong,random", "--seed", "5"),
    "catego-3p-random-2": (
        "catego", "--players", "random,strong,random", "--seed", "2", "--columns", "2..7",
    ),
    "kaito-strong-random-1": ("kaito", "--players", "strong,random", "--seed", "1"),
    "kaito-first-tile-random-4": (
        "kaito", "--players", "random,random", "--seed", "4", "--movement", "first-tile",
    ),
    "kataboom-stand-in-3": (
        "kataboom", "--players", "careful,random", "--seed", "3", "--table", "stand-in",
    ),
    "kataboom-physics-2": (
        "kataboom", "--players", "random,random", "--model", "7", "--seed", "2",
        "--release", "lift",
    ),
    "katamino-solo-random-1": ("katamino", "--players", "random", "--seed", "1"),
    "katamino-duel-smart-random-2": (
        "katamino", "--players", "smart,random", "--seed", "2", "--mode", "duel",
    ),
    "katoiz-stapeltoren-2": ("katoiz", "--players", "smart,random", "--seed", "2"),
    "katoiz-3-set-3": ("katoiz", "--players", "random,smart", "--seed", "3", "--type", "3-set"),
    "katoiz-stapeltje-4": ("katoiz", "--players", "smart,random", "--seed", "4", "--type", "stapeltje"),
    "kozo-stand-in-5": (
        "kozo", "--players", "greedy,random", "--seed", "5", "--table", "stand-in",
    ),
    "kozo-physics-3": (
        "kozo", "--players", "careful,greedy", "--seed", "3", "--rounds", "1",
        "--release", "lift",
    ),
}  # fmt: skip


FILMS: tuple[tuple[str, int], ...] = (
    ("kozo-physics-3", 2), ("kozo-physics-3", 7), ("kataboom-physics-2", 1),
)  # fmt: skip
"""(case, move number): the judged runs ``tablesim record`` films, digested in films.json."""

VERDICTS: dict[str, tuple[str, ...]] = {
    "kozo-tower": ("kozo-tower",),
    "cantilever-tips": ("cantilever-tips",),
    "kozo-overhang": ("kozo-overhang",),
    "cantilever-safe-simulate": ("cantilever-safe", "--method", "simulate", "--replicas", "2"),
}
"""``tablesim simulate ARGS --json`` outputs stored as ``verdict-<name>.json``."""


def film_digest(name: str, number: int) -> dict[str, object]:
    """What the film of move ``number`` of case ``name`` shows: the number of sampled instants,
    the state after the move and a digest of every sampled pose (full float precision)."""
    import hashlib

    from tablesim.games.core import canonical_json
    from tablesim.games.log import read_log_file
    from tablesim.games.registry import get_game
    from tablesim.sim.view.film import judged_move_run

    log = read_log_file(str(HERE / f"{name}.jsonl"))
    game = get_game(log.header.game)
    state, samples = judged_move_run(log, number)
    poses = [
        [t, {k: [[float(v) for v in p[0]], [float(v) for v in p[1]]] for k, p in s.items()}]
        for t, s in samples
    ]
    return {
        "samples": len(samples),
        "state": game.state_digest(state),
        "poses": hashlib.sha256(canonical_json(poses).encode()).hexdigest(),
    }


def play(args: tuple[str, ...], *extra: str) -> subprocess.CompletedProcess[str]:
    """Run ``tablesim play ARGS --headless EXTRA`` in a fresh process."""
    cmd = [sys.executable, "-m", "tablesim.sim.cli", "play", *args, "--headless", *extra]
    return subprocess.run(cmd, capture_output=True, text=True, check=False)


def write(name: str) -> None:
    """(Re)write the three files of case ``name``."""
    args = CASES[name]
    log = HERE / f"{name}.jsonl"
    if log.exists():
        log.unlink()
    p = play(args, "--log", str(log))
    if p.returncode != 0:
        raise SystemExit(f"{name}: {p.stderr}")
    (HERE / f"{name}.txt").write_text(p.stdout)
    j = play(args, "--json")
    if j.returncode != 0:
        raise SystemExit(f"{name}: {j.stderr}")
    (HERE / f"{name}.json").write_text(j.stdout)


def write_extras() -> None:
    """(Re)write films.json and the verdict JSON files."""
    import json

    films = {f"{name}@{n}": film_digest(name, n) for name, n in FILMS}
    (HERE / "films.json").write_text(json.dumps(films, indent=1, sort_keys=True) + "\n")
    for name, args in VERDICTS.items():
        cmd = [sys.executable, "-m", "tablesim.sim.cli", "simulate", *args, "--json"]
        p = subprocess.run(cmd, capture_output=True, text=True, check=True)
        (HERE / f"verdict-{name}.json").write_text(p.stdout)


if __name__ == "__main__":
    for case in sys.argv[1:] or CASES:
        write(case) if case != "extras" else write_extras()
        print(case)
