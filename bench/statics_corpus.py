"""A corpus of static analyses, to check that a change to sim/statics.py keeps every answer.

``record OUT.json``: analyse every scene of the corpus and write each report's decision,
feasibilities, worst direction, ``to_json()`` and its floats as hex. The corpus: the shipped
scenes with and without clearance, the towers of ``--seeds`` seeded Kozo games (the stand-in
table, random moves) with three candidates a turn, and with ``--tests`` every ``analyse`` call of
the statics, verdict, contacts and model tests (recorded while pytest runs them).
``--reverse`` analyses in reverse order (for determinism: the bits must not depend on what was
analysed before). ``compare A.json B.json``: the analyses whose decision, feasibility, direction
or JSON differ, or whose floats differ by more than ``--rel`` (default 1e-9) relative.

``--calls FILE`` keeps the corpus's scenes in a pickle (written the first time, read after), so
two trees analyse the same calls even where their tests differ: run one tree against another with
``PYTHONPATH`` pointing at each (docs/performance.md, Round 6).
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TESTS = (
    "tests/test_statics.py",
    "tests/test_statics_tilt.py",
    "tests/test_verdict_physics.py",
    "tests/test_kataboom_models.py",
    "tests/test_contacts_incremental.py",
    "tests/test_verdict.py",
    "tests/test_kozo_careful.py",
)
SHIPPED = ("kozo-tower", "kozo-marginal", "kozo-overhang", "cantilever-safe", "cantilever-tips")

Call = tuple[Any, Any, dict[str, Any]]


def game_calls(seeds: int) -> list[Call]:
    """The shipped scenes (with and without clearance) and seeded Kozo games' towers."""
    from tablesim.games.kozo.state import PLACE, TAKE
    from tablesim.games.registry import get_game
    from tablesim.games.rng import Rng
    from tablesim.sim.scene import load_scene, shipped_scene_path
    from tablesim.sim.slices.kozo.referee import KozoReferee

    calls: list[Call] = []
    for name in SHIPPED:
        s = load_scene(shipped_scene_path(name))
        calls += [(s, None, {"clearance": s.physics.clearance}), (s, None, {})]
    game = get_game("kozo")
    cfg = game.make_config({"table": "stand-in"}, players=2)
    for seed in range(seeds):
        referee = KozoReferee(game.make_config({}, players=2), seed)
        state = game.new_game(cfg, seed)
        rng = Rng.from_seed(seed, "statics-corpus")
        while not game.is_terminal(state):
            moves = [m for m in game.legal_moves(state) if m.kind != TAKE]
            places = [m for m in moves if m.kind == PLACE]
            scenes = [referee.tower_scene(state, [])] if state.tower else []
            if state.tower and len(places) >= 2:
                picks = (places[0], places[len(places) // 2], places[-1])
                scenes += [
                    referee.tower_scene(state, [referee.placement(m, 0).piece]) for m in picks
                ]
            calls += [(s, None, {"clearance": s.physics.clearance}) for s in scenes]
            move, rng = rng.choice(moves or game.legal_moves(state))
            state = game.apply(state, move)
    return calls


def test_calls() -> list[Call]:
    """Every ``analyse`` call the statics-related tests make (pytest run in this process)."""
    import pytest

    import tablesim.sim.statics as statics

    calls: list[Call] = []
    real = statics.analyse

    def recording(scene: Any, config: Any = None, **kw: Any) -> Any:
        calls.append((scene, config, kw))
        return real(scene, config, **kw)

    statics.analyse = recording  # before the tests import it
    root = Path(statics.__file__).resolve().parent.parent
    try:
        pytest.main(
            ["-q", "-p", "no:cacheprovider", *(str(root / t) for t in TESTS if (root / t).exists())]
        )
    finally:
        statics.analyse = real
    return calls


def _hex(x: float | None) -> str | None:
    return None if x is None else float(x).hex()


def record(calls: list[Call], reverse: bool) -> list[dict[str, Any]]:
    """Each call's report as comparable plain data, in corpus order."""
    from tablesim.sim.statics import analyse, clear_caches

    clear_caches()
    out: dict[int, dict[str, Any]] = {}
    for i in reversed(range(len(calls))) if reverse else range(len(calls)):
        scene, config, kw = calls[i]
        r = analyse(scene, config, **kw)
        out[i] = {
            "json": json.dumps(r.to_json(), sort_keys=True),
            "decision": r.decision,
            "feasible": [r.permissive_feasible, r.conservative_feasible],
            "direction": r.tilt_direction,
            "floats": [_hex(r.tilt_margin_deg), *(_hex(p.margin_mm) for p in r.pieces)],
            "pieces": len(scene.pieces),
        }
    return [out[i] for i in range(len(calls))]


def compare(a: list[dict[str, Any]], b: list[dict[str, Any]], rel: float) -> int:
    """Print the differing analyses and a summary; the count of differences beyond ``rel``."""
    if len(a) != len(b):
        print(f"different corpora: {len(a)} against {len(b)} analyses")
        return max(len(a), len(b))
    bad = bits = 0
    worst = 0.0
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        why = [k for k in ("decision", "feasible", "direction", "json") if x[k] != y[k]]
        for u, v in zip(x["floats"], y["floats"], strict=True):
            if (u is None) != (v is None):
                why.append("none")
            elif u is not None and u != v:
                bits += 1
                fu, fv = float.fromhex(u), float.fromhex(v)
                r = abs(fu - fv) / max(abs(fu), 1e-300)
                worst = max(worst, r)
                if r > rel:
                    why.append(f"float {fu!r} {fv!r}")
        if why:
            bad += 1
            print(f"analysis {i} ({x['pieces']} pieces): {', '.join(why)}")
    print(
        f"{len(a)} analyses: {bad} differ (beyond {rel:g} relative, or in a decision, "
        f"feasibility, direction or JSON); {bits} floats differ in their bits, at most {worst:.3g} relative"
    )
    return bad


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("record", help="analyse the corpus, write OUT.json")
    r.add_argument("out", type=Path)
    r.add_argument("--seeds", type=int, default=16, help="seeded Kozo games (default 16)")
    r.add_argument("--tests", action="store_true", help="add the tests' analyse calls")
    r.add_argument("--reverse", action="store_true", help="analyse in reverse order")
    r.add_argument("--calls", type=Path, help="the corpus's pickle (made if missing, else read)")
    c = sub.add_parser("compare", help="compare two recorded corpora")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    c.add_argument("--rel", type=float, default=1e-9, help="relative tolerance (default 1e-9)")
    args = p.parse_args(argv)
    if args.command == "compare":
        return (
            1
            if compare(json.loads(args.a.read_text()), json.loads(args.b.read_text()), args.rel)
            else 0
        )
    if args.calls is not None and args.calls.exists():
        calls = pickle.loads(args.calls.read_bytes())
    else:
        calls = game_calls(args.seeds) + (test_calls() if args.tests else [])
        if args.calls is not None:
            args.calls.write_bytes(pickle.dumps(calls))
    t0 = time.process_time()
    rows = record(calls, args.reverse)
    print(f"{len(rows)} analyses, {time.process_time() - t0:.2f} s CPU")
    args.out.write_text(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
