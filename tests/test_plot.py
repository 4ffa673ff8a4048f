"""Plots: the collapse series of hand-written rows, and real PNG files of sweeps and tournaments."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from tablesim.sim.cli import main
from tablesim.sim.experiments.plot import choose_axes, collapse_series

HEADER = (
    "run,seed,scene,friction,verdict,topple_probability,replicas_toppled,replicas_simulated,"
    "first_fall_s,max_penetration_mm,decided_by,error\n"
)


def write_sweep(path: Path) -> Path:
    # friction 0.3: 2 simulated runs, 3 of 4 replicas toppled, plus one statics "topples";
    # friction 0.5: one simulated run, 0 of 10 toppled, and one error run (left out)
    path.write_text(
        HEADER
        + "0,1,a,0.3,topples,1.0,2,2,0.1,0.01,simulation,\n"
        + "1,2,a,0.3,topples,0.5,1,2,0.2,0.01,simulation,\n"
        + "2,3,a,0.3,topples,1.0,0,0,,,statics,\n"
        + "3,4,a,0.5,stands,0.0,0,10,,0.01,simulation,\n"
        + "4,5,a,0.5,error,,,,,,,physics blew up: x\n"
    )
    return path


def test_collapse_series_pools_replicas_by_hand(tmp_path: Path):
    from tablesim.sim.experiments.results import read_table

    cols, rows = read_table(write_sweep(tmp_path / "s.csv"))
    assert choose_axes(cols, rows, None, None) == ("friction", None)
    series, errors = collapse_series(rows, "friction")
    assert errors == 1
    (pts,) = series.values()
    assert [(p.x, p.toppled, p.replicas, p.runs) for p in pts] == [(0.3, 4, 5, 3), (0.5, 0, 10, 1)]
    assert pts[0].p == 0.8
    # Wilson 95 % interval of 0 of 10: 0 to 0.2775 (published tables)
    assert pts[1].low == 0.0 and pts[1].high == pytest.approx(0.2775, abs=5e-4)


def test_binning_of_a_sampled_parameter():
    rows = [
        {
            "friction": 0.3 + 0.3 * i / 99,
            "verdict": "stands",
            "replicas_toppled": 0,
            "replicas_simulated": 1,
        }
        for i in range(100)
    ]
    series, _ = collapse_series(rows, "friction", bins=3)
    (pts,) = series.values()
    # three equal bins over [0.3, 0.6]: centres 0.35, 0.45, 0.55, holding 33 + 33 + 34 runs
    assert [round(p.x, 6) for p in pts] == [0.35, 0.45, 0.55]
    assert [p.runs for p in pts] == [33, 33, 34]


def _looks_drawn(path: Path) -> None:
    img = Image.open(path)
    assert img.format == "PNG" and img.size[0] >= 600 and img.size[1] >= 400
    colours = img.convert("RGB").getcolors(maxcolors=1_000_000)
    assert colours is not None and len(colours) > 50  # lines, text and bands, not a blank page


def test_sweep_and_tournament_pngs(tmp_path: Path, capsys):
    src = write_sweep(tmp_path / "s.csv")
    out = tmp_path / "s.png"
    assert main(["plot", str(src), "-o", str(out)]) == 0
    _looks_drawn(out)
    t = tmp_path / "t.csv"
    assert (
        main(
            [
                "tournament",
                "catego",
                "--players",
                "random,random,random",
                "--games",
                "4",
                "--out",
                str(t),
                "--workers",
                "1",
            ]
        )
        == 0
    )
    tp = tmp_path / "t.png"
    assert main(["plot", str(t), "-o", str(tp)]) == 0
    _looks_drawn(tp)
    assert "tournament plot" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--x", "nope"], "not a parameter"),
        (["--x", "scene"], "not numeric"),
        (["--by", "friction"], "--by must differ"),
    ],
)
def test_bad_axes_are_exit_2(tmp_path: Path, capsys, args: list[str], words: str):
    src = write_sweep(tmp_path / "s.csv")
    assert main(["plot", str(src), "-o", str(tmp_path / "p.png"), *args]) == 2
    assert words in capsys.readouterr().err
    assert not (tmp_path / "p.png").exists()


def test_bad_files_are_exit_2(tmp_path: Path, capsys):
    other = tmp_path / "o.csv"
    other.write_text("a,b\n1,2\n")
    assert main(["plot", str(other), "-o", str(tmp_path / "p.png")]) == 2
    assert "neither a sweep file" in capsys.readouterr().err
    assert main(["plot", str(tmp_path / "missing.csv"), "-o", str(tmp_path / "p.png")]) == 2
    assert "no such file" in capsys.readouterr().err
    src = write_sweep(tmp_path / "s.csv")
    assert main(["plot", str(src), "-o", str(tmp_path / "p.jpg")]) == 2
    assert "PNG" in capsys.readouterr().err


def test_titles_name_the_scene_and_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import tablesim.sim.experiments.plot as plot

    figures = []
    monkeypatch.setattr(plot, "_save", lambda fig, out: figures.append(fig))
    cols, rows = plot.read_table(write_sweep(tmp_path / "s.csv"))
    plot.plot_sweep(cols, rows, tmp_path / "s.png")
    assert figures[-1].axes[0].get_title().startswith("a: collapse against friction")
    trows = [
        {
            "run": i,
            "game": "catego",
            "seats": "0|1",
            "roles": "strong|random",
            "winners": "0",
            "winner_seats": "0",
            "scores": "1|0",
            "turns": 20,
        }
        for i in range(4)
    ]
    plot.plot_tournament(trows, tmp_path / "t.png")
    assert figures[-1]._suptitle.get_text().startswith("catego tournament: 4 games")
