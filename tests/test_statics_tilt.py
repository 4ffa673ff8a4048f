"""The tilt LPs' shortcuts (issue #24, sim/statics.py): pieces taken out of the LPs exactly
(``_Leaves``), the likeliest-worst direction first (``_direction_order``), no separate
feasibility LP when every direction holds, and ties to the lower direction index.

Each shortcut is checked against the path without it (the full LP, every direction in index
order): the same decisions and worst directions, margins within 1e-9 relative (the LP's own
tolerances are far coarser). Kozo cubes, edge a = 17.8 mm, mu = 0.45, as in tests/test_statics.py.
"""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

import tablesim.sim.statics as statics
from tablesim.sim.config import MM
from tablesim.sim.contacts import scene_contacts
from tablesim.sim.model import Scene, ScenePiece
from tablesim.sim.scene import load_scene, shipped_scene_path
from tablesim.sim.statics import _bodies, _conservative, analyse, feasible

A = 17.8 * MM
MU = 0.45
SHIPPED = ("kozo-tower", "kozo-marginal", "kozo-overhang", "cantilever-safe", "cantilever-tips")


def cube(pid: str, x: float, y: float, z: float) -> ScenePiece:
    return ScenePiece(pid, ((0, 0, 0),), "kozo", (x, y, z))


def bar(pid: str, x: float, y: float, z: float) -> ScenePiece:
    """An I3 bar along x."""
    return ScenePiece(pid, ((0, 0, 0), (1, 0, 0), (2, 0, 0)), "kozo", (x, y, z))


def _scenes() -> list[Scene]:
    """The shipped scenes and hand-made ones: a shifted pair (everything taken out), a
    bridge with a cube on its bar (the cube taken out onto a bar on two legs: the LP runs with
    the merged mass), a cube beyond its support (nothing taken out: infeasible), a lone cube
    (every direction ties)."""
    scenes = [load_scene(shipped_scene_path(n)) for n in SHIPPED]
    scenes += [
        Scene("pair", (cube("b", 0, 0, 0), cube("t", 4 * MM, 0, A))),
        Scene(
            "bridge",
            (
                cube("l", 0, 0, 0),
                cube("r", 2 * A, 0, 0),
                bar("bar", 0, 0, A),
                cube("top", 2.2 * A, 0, 2 * A),
            ),
        ),  # fmt: skip
        Scene("beyond", (cube("b", 0, 0, 0), cube("t", 12 * MM, 0, A))),
        Scene("lone", (cube("c", 0, 0, 0),)),
    ]
    return scenes


def _report(scene: Scene) -> tuple:
    r = analyse(scene, clearance=scene.physics.clearance)
    return (
        r.decision,
        r.conservative_feasible,
        r.permissive_feasible,
        r.tilt_direction,
        r.tilt_margin_deg,
    )


def _same(got: list[tuple], want: list[tuple]) -> None:
    for g, w in zip(got, want, strict=True):
        assert g[:4] == w[:4]
        assert (g[4] is None) == (w[4] is None)
        if w[4] is not None:
            assert g[4] == pytest.approx(w[4], rel=1e-9)


class _NoLeaves(statics._Leaves):
    """Takes nothing out: the full LP."""

    def __init__(self, contacts, bodies, sides) -> None:  # noqa: ANN001
        super().__init__(contacts, bodies, sides)
        self.count = 0
        self._pieces = []


def _full_lp(monkeypatch: pytest.MonkeyPatch, order=None) -> None:  # noqa: ANN001
    """The path without the shortcuts: nothing taken out, the directions in ``order`` (index
    order by default), no proofs."""
    monkeypatch.setattr(statics, "_Leaves", _NoLeaves)
    monkeypatch.setattr(statics, "_direction_order", lambda support, n: list(order or range(n)))
    monkeypatch.setattr(statics._ParallelCertificate, "__call__", lambda self, s, d: False)


def test_the_shortcuts_give_the_full_lps_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every scene: the same decision, feasibilities, worst direction and margin (1e-9
    relative) with the shortcuts as with the full LP in index order, and in reversed order
    (where ties must still go to the lower index). The full LP solves the lone cube's 8
    directions, all sliding at exactly mu (a pyramid edge along each), so they tie."""
    scenes = _scenes()
    solves = [0]
    real = statics._Model.solve

    def counted(self):  # noqa: ANN001, ANN202
        solves[0] += 1
        return real(self)

    monkeypatch.setattr(statics._Model, "solve", counted)
    fast = [_report(s) for s in scenes]
    solves[0] = 0
    _report(scenes[0])
    tower_fast = solves[0]
    with monkeypatch.context() as m:  # screening on every scene, not only the large ones
        m.setattr(statics, "_SCREEN_BODIES", 1)
        _same(fast, [_report(s) for s in scenes])
    _full_lp(monkeypatch)
    _same(fast, [_report(s) for s in scenes])
    solves[0] = 0
    _report(scenes[0])
    assert (
        solves[0] == 8 and tower_fast <= 2
    )  # the tower: 8 tilt LPs against 1 (docs/performance.md)
    _full_lp(monkeypatch, order=range(7, -1, -1))
    _same(fast, [_report(s) for s in scenes])
    lone = fast[-1]
    assert lone[3] == (1.0, 0.0) and lone[4] == pytest.approx(math.degrees(math.atan(MU)), abs=1e-9)


def test_pieces_on_one_body_alone_are_taken_out() -> None:
    """kozo-tower: the 12 balance cubes (b1-b12) each rest on one polycube alone, flat, with
    nothing on them, so they come out (12 of 24 pieces, 72 of 144 rows left). The shifted
    pair comes out whole: the top cube, then the bottom one carrying its mass, so no LP runs;
    the margin is the pair's tipping at s = (a - d)/(2a) (tests/test_statics.py derives it)."""
    tower = load_scene(shipped_scene_path("kozo-tower"))
    cs = scene_contacts(tower, clearance=tower.physics.clearance)
    bodies = _bodies(tower, tower.physics)
    cons = [c for c in cs.contacts if c.stacking and c.has_area]
    leaves = statics._Leaves(cons, bodies, 8)
    out = {tower.pieces[i].id for i in range(len(tower.pieces)) if bodies.row[i] >= 0} - {
        tower.pieces[i].id for i in range(len(tower.pieces)) if leaves.bodies.row[i] >= 0
    }
    assert out == {f"b{k}" for k in range(1, 13)}
    assert (
        leaves.bodies.count == 12
        and statics._matrix(
            statics._points(leaves.contacts, leaves.bodies, False), leaves.bodies, False, 8
        )[0].shape[0]
        == 72
    )
    # the carried mass moved onto the supporters: the total is unchanged
    assert leaves.bodies.mass.sum() == pytest.approx(bodies.mass.sum(), rel=1e-12)

    d = 4 * MM
    pair = Scene("pair", (cube("b", 0, 0, 0), cube("t", d, 0, A)))
    cs = scene_contacts(pair)
    bodies = _bodies(pair, pair.physics)
    leaves = statics._Leaves(list(cs.contacts), bodies, 8)
    assert leaves.count == 2 and leaves.bodies.count == 0
    assert analyse(pair).tilt_margin_deg == pytest.approx(
        math.degrees(math.atan((A - d) / (2 * A))), abs=1e-9
    )


def test_no_equilibrium_is_found_without_the_separate_check() -> None:
    """A cube 12 mm off a cube: its centre of mass (x = 20.9 mm, 8.9 mm above the contact)
    is 3.1 mm beyond the support x in [12, 17.8] mm, so there is no equilibrium. Yet a load
    towards -x holds it: the centre of pressure 20.9 - 8.9 s is inside for s in [0.348, 1],
    the pair (centre 14.9 mm, 17.8 mm up) keeps it on the table face up to s = 0.837, and
    sliding starts at mu: the -x tilt LP alone is feasible, s = 0.45. The tilt loop must
    still call the scene infeasible (it fixes s at 0 once a direction fails)."""
    scene = Scene("beyond", (cube("b", 0, 0, 0), cube("t", 12 * MM, 0, A)))
    cs = scene_contacts(scene)
    bodies = _bodies(scene, scene.physics)
    cons = [c for c in cs.contacts if c.stacking and c.has_area]
    pts = statics._points(cons, bodies, permissive=False)
    model = statics._Model(*statics._matrix(pts, bodies, False, 8), 1.0)
    weight = bodies.mass * bodies.gravity / statics._weight_unit(bodies)
    model.set_load(statics.np.stack([-weight, 0 * weight], axis=1))
    assert model.solve() == 0 and model.s == pytest.approx(MU, abs=1e-9)
    assert feasible(cons, bodies, permissive=False) is False
    assert _conservative(cons, bodies, 8, 8, 45.0) == (False, None, None)


_FRESH = """
import tablesim.sim.statics as S
from tablesim.sim.scene import load_scene, shipped_scene_path
for name in ("kozo-tower", "kozo-marginal"):
    s = load_scene(shipped_scene_path(name))
    r = S.analyse(s, clearance=s.physics.clearance)
    print(r.tilt_margin_deg.hex(), *[p.margin_mm.hex() for p in r.pieces if p.margin_mm is not None])
"""


def test_reports_are_the_same_bits_whatever_came_before_in_the_process() -> None:
    """A fresh process analysing the tower first and this one after the other scenes (in
    reverse, caches warm, bases of other models made): the same margins to the bit."""
    fresh = subprocess.run(
        [sys.executable, "-c", _FRESH], capture_output=True, text=True, check=True
    ).stdout.split("\n")[:2]
    for scene in reversed(_scenes()):
        analyse(scene, clearance=scene.physics.clearance)
    here = []
    for name in ("kozo-tower", "kozo-marginal"):
        s = load_scene(shipped_scene_path(name))
        r = analyse(s, clearance=s.physics.clearance)
        here.append(
            " ".join(
                [
                    r.tilt_margin_deg.hex(),
                    *[p.margin_mm.hex() for p in r.pieces if p.margin_mm is not None],
                ]
            )
        )
    assert fresh == here


def test_the_sliding_bound() -> None:
    """The load on the dynamic pieces can only be held by their contacts with the table and
    static pieces: at most mu (the smaller of the two bodies') times the weight. A cube with
    friction 0.3 on the table (mu 0.45): 0.3; two cubes on the table, 0.3 and 0.6: 0.45 (the
    larger pair); a static slab resting on a cube presses it down, so no bound (inf)."""
    from tablesim.sim.statics import _sliding_bound

    def bound(scene: Scene) -> float:
        cs = scene_contacts(scene)
        return _sliding_bound(list(cs.contacts), _bodies(scene, scene.physics))

    def cube_mu(pid: str, x: float, mu: float) -> ScenePiece:
        return ScenePiece(pid, ((0, 0, 0),), "kozo", (x, 0, 0), friction=mu)

    assert bound(Scene("one", (cube_mu("c", 0, 0.3),))) == pytest.approx(0.3)
    assert bound(Scene("two", (cube_mu("c", 0, 0.3), cube_mu("d", 2 * A, 0.6)))) == pytest.approx(
        MU
    )
    slab = ScenePiece("slab", ((0, 0, 0),), None, (0, 0, A), static=True, box=(A, A, A))
    assert bound(Scene("pressed", (cube("c", 0, 0, 0), slab))) == math.inf
