"""What docs/architecture.md ("Across machines") promises: the numbers our code hands to
Bullet do not depend on the CPU.

The one CPU-dependent path found was OpenBLAS (numpy's ``@`` and ``np.linalg.eigh``), which
picks its kernels by CPU: an AVX-512 Xeon runs SkylakeX kernels, this kind of machine Zen or
Haswell ones. ``OPENBLAS_CORETYPE`` forces a kernel, so one machine can play the others: a
world stepped under each kernel the CPU can run must give the same bits. Before the fix the
first step already differed (a collision shape's child positions) and principal axes of
degenerate pieces differed by up to 1.86.
"""

from __future__ import annotations

import math
import os
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from tests.conftest import ROOT

_PROBE = (
    "import hashlib\n"
    "from tablesim.sim.scene import load_scene, shipped_scene_path\n"
    "from tablesim.sim.world import World\n"
    "h = hashlib.sha256()\n"
    "for name in ('kozo-tower', 'kozo-overhang'):\n"
    "    with World(load_scene(shipped_scene_path(name)), 'verdict') as w:\n"
    "        w.step(200)\n"
    "        st = w.states()\n"
    "        h.update(st.com.tobytes() + st.quat.tobytes())\n"
    "print(h.hexdigest())\n"
)


def _kernels() -> list[str]:
    """The OpenBLAS kernels this CPU can run: Prescott (SSE3, any x86-64), Haswell (AVX2 and
    FMA), SkylakeX (AVX-512)."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            flags = next(line for line in fh if line.startswith("flags")).split()
    except (OSError, StopIteration):
        return []
    out = ["Prescott"]
    if {"avx2", "fma"} <= set(flags):
        out.append("Haswell")
    if {"avx512f", "avx512bw", "avx512dq", "avx512vl"} <= set(flags):
        out.append("SkylakeX")
    return out


def test_worlds_step_alike_under_every_openblas_kernel() -> None:
    kernels = _kernels()
    if len(kernels) < 2:
        pytest.skip("one OpenBLAS kernel runs here")
    digests = {}
    for kernel in kernels:
        env = dict(os.environ, OPENBLAS_CORETYPE=kernel, PYTHONPATH=str(ROOT))
        out = subprocess.run(
            [sys.executable, "-c", _PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
            timeout=300,
        )  # fmt: skip
        assert out.returncode == 0, out.stderr[-2000:]
        digests[kernel] = out.stdout.strip()
    assert len(set(digests.values())) == 1, digests


def test_mass_properties_by_hand() -> None:
    """Unit cubes, density 1 (cube mass 1, its own moment 1/6 per axis).

    I-tromino along x: offsets -1, 0, 1 on x; Ixx = 3/6, Iyy = Izz = 3/6 + 2 = 5/2; the tensor
    is diagonal, so the axes are the coordinate axes in order of ascending moment.
    L-tromino (0,0,0), (1,0,0), (0,1,0): com (1/3, 1/3) from cell (0,0,0); offsets
    (-1/3,-1/3), (2/3,-1/3), (-1/3,2/3): sum dx^2 = sum dy^2 = 2/3, sum dx dy = -1/3, so
    Ixx = Iyy = 1/2 + 2/3 = 7/6, Ixy = +1/3, Izz = 1/2 + 4/3 = 11/6; eigenvalues 7/6 - 1/3 = 5/6
    on (1, -1, 0)/sqrt 2, 7/6 + 1/3 = 3/2 on (1, 1, 0)/sqrt 2, and 11/6 on z."""
    from tablesim.games.polycubes import mass_properties

    bar = mass_properties([(0, 0, 0), (1, 0, 0), (2, 0, 0)], 1.0, 1.0)
    assert bar.principal_moments.tolist() == [0.5, 2.5, 2.5]
    assert bar.principal_axes.tolist() == np.eye(3).tolist()
    ell = mass_properties([(0, 0, 0), (1, 0, 0), (0, 1, 0)], 1.0, 1.0)
    assert ell.com.tolist() == [float(Fraction(5, 6)), float(Fraction(5, 6)), 0.5]
    want = [5 / 6, 3 / 2, 11 / 6]
    assert np.allclose(ell.principal_moments, want, rtol=1e-15, atol=0)
    r = math.sqrt(0.5)
    axes = ell.principal_axes
    assert abs(abs(axes[:, 0] @ np.array([r, -r, 0.0])) - 1) < 1e-15
    assert abs(abs(axes[:, 1] @ np.array([r, r, 0.0])) - 1) < 1e-15
    assert abs(np.linalg.det(axes) - 1) < 1e-15
