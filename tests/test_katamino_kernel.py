"""The compiled Katamino kernel: the hole check, and loading the machine code without numba.

Expected counts are the published ones (6x10 pentominoes 2339 distinct / 9356 in all, 5x12
1010 / 4040, 3x20 2 / 8, the Soma cube 240 / 11520); node counts are compared between the
two backends, which run the same source, and with the cut off and on.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tablesim.games.katamino import Problem, Target, count_distinct, search

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("board", "pieces", "distinct", "total"),
    [pytest.param("6x10", "pentominoes", 2339, 9356, marks=pytest.mark.slow),  # 3.6 s
     ("5x12", "pentominoes", 1010, 4040),
     ("3x20", "pentominoes", 2, 8), ("3x3x3", "soma", 240, 11520)],
)  # fmt: skip
def test_hole_check_keeps_the_published_counts_and_cuts_nodes(
    board: str, pieces: str, distinct: int, total: int
) -> None:
    plain = count_distinct(board, pieces, backend="numba")
    cut = count_distinct(board, pieces, backend="numba", hole=True)
    assert (plain.distinct, plain.count) == (cut.distinct, cut.count) == (distinct, total)
    assert cut.nodes < plain.nodes  # a walled-in cell is met on every one of these boards


@pytest.mark.parametrize(("board", "pieces"), [("5x6", "pentominoes:LNPUVY"),
                                               ("2x3x5", "pentominoes:LNPUVY")])  # fmt: skip
def test_hole_check_is_the_same_in_both_backends(board: str, pieces: str) -> None:
    p = Problem(Target.parse(board), pieces)
    runs = {}
    for backend in ("numba", "python"):
        s = search.Search(p, backend=backend, hole=True)
        rows = s.run(max_rows=100000)
        runs[backend] = (s.solutions, s.nodes, rows)
    assert runs["numba"] == runs["python"]
    plain = search.Search(p, backend="numba")
    assert sorted(plain.run(max_rows=100000)) == sorted(runs["numba"][2])
    assert plain.nodes > runs["numba"][1]


def test_hole_check_is_off_when_a_monomino_could_fill_the_hole() -> None:
    # A 2x3 board, a monomino and a U pentomino: the U leaves one walled-in cell, which the
    # monomino fills; with hole=True the search must still find both arrangements (U opening
    # up or down, the monomino in its gap).
    from tablesim.games.polycubes import Piece, get_catalogue

    mono = Piece("m", "m", ((0, 0, 0),), 1, "#000000")
    p = Problem(Target.rectangle(2, 3), [mono, get_catalogue("pentominoes").piece("U")])
    s = search.Search(p, backend="numba", hole=True)
    s.run()
    assert s.solutions == 2 and not search.hole_check_valid(p)


def _fresh_process(code: str, cache: Path) -> str:
    env = dict(os.environ, TABLESIM_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True, cwd=cache)  # fmt: skip
    return out.stdout.strip()


_CODE = (
    "import sys\n"
    "from tablesim.games.katamino import count_distinct, search\n"
    "r = count_distinct('6x10', 'pentominoes')\n"
    "k = search.numba_kernel()\n"
    "print(r.distinct, r.backend, k.source, 'numba' in sys.modules)\n"
)


def test_a_new_process_links_the_kernel_without_numba(tmp_path: Path) -> None:
    from tablesim.games.katamino import _kernel_native

    kernel = search.numba_kernel()  # built or loaded: the file is on disk now
    assert kernel.path is not None and kernel.path.is_file()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("TABLESIM_CACHE_DIR", None)
    folder = kernel.path.parent
    if folder != _kernel_native._HERE / "__pycache__":
        env["TABLESIM_CACHE_DIR"] = str(folder)
    out = subprocess.run([sys.executable, "-c", _CODE], capture_output=True, text=True,
                         env=env, check=True, cwd=tmp_path)  # fmt: skip
    assert out.stdout.strip() == "2339 numba loaded False"


@pytest.mark.slow
def test_the_kernel_is_built_once_then_linked_without_numba(tmp_path: Path) -> None:
    assert _fresh_process(_CODE, tmp_path) == "2339 numba built True"
    files = sorted(tmp_path.glob("katamino-kernel-*-0.o"))
    assert len(files) == 1
    assert _fresh_process(_CODE, tmp_path) == "2339 numba loaded False"


def test_a_damaged_object_file_is_never_linked(tmp_path: Path) -> None:
    from tablesim.games.katamino import _kernel_native

    search.numba_kernel()  # built or loaded: the cache folder holds a good file
    good = next(p for d in _kernel_native.cache_dirs()
                for p in d.glob("katamino-kernel-*-0.o") if _kernel_native._read(p))  # fmt: skip
    data = good.read_bytes()
    assert _kernel_native._read(good) is not None
    for bad in (data[:-1], data[:-1] + bytes([data[-1] ^ 1]), data[: len(data) // 2], b""):
        path = tmp_path / "damaged.o"
        path.write_bytes(bad)
        assert _kernel_native._read(path) is None
