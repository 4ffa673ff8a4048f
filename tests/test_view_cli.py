"""``tablesim render`` and ``tablesim record``: outputs, exit codes, nothing half written."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("panda3d.core")
Image = pytest.importorskip("PIL.Image")

from tablesim.sim.cli import main  # noqa: E402


@pytest.fixture(scope="module")
def catego_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("log") / "game.jsonl"
    code = main(
        ["play", "catego", "--players", "random,random", "--seed", "4", "--headless",
         "--log", str(path)]
    )  # fmt: skip
    assert code == 0 and path.is_file()
    return path


def test_render_scene_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "tower.png"
    code = main(["render", "kozo-tower", "-o", str(out), "--size", "160x90", "--backend", "tiny"])
    assert code == 0
    with Image.open(out) as img:
        assert img.format == "PNG" and img.size == (160, 90)
    printed = capsys.readouterr().out
    assert "tiny backend" in printed and "160x90" in printed


def test_render_log_at_a_move(
    catego_log: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    for path, at in ((a, "0"), (b, "6")):
        code = main(["render", str(catego_log), "--at", at, "-o", str(path), "--size", "160x90",
                     "--backend", "tiny", "--camera", "top"])  # fmt: skip
        assert code == 0
    assert "catego after 6 moves" in capsys.readouterr().out
    # six entries written on the pad: the pictures differ
    pa, pb = (np.asarray(Image.open(p).convert("RGB"), dtype=int) for p in (a, b))
    assert np.abs(pa - pb).sum() > 0


def test_record_scene_gif(tmp_path: Path) -> None:
    out = tmp_path / "fall.gif"
    code = main(["record", "kozo-overhang", "-o", str(out), "--seconds", "0.2", "--fps", "10",
                 "--size", "96x54", "--backend", "tiny"])  # fmt: skip
    assert code == 0
    with Image.open(out) as img:
        assert img.size == (96, 54)
        # 0.2 s at 10 fps: frames at 0, 0.1 and 0.2 s; the 4L tips within 0.06 s, so no two
        # are alike and none is merged
        assert img.n_frames == 3
        assert img.info["duration"] == 100
    assert oct(out.stat().st_mode & 0o777) != oct(0o600)  # a normal file, not mkstemp's 0600


def test_record_log_move_by_move(catego_log: Path, tmp_path: Path) -> None:
    out = tmp_path / "game.gif"
    code = main(["record", str(catego_log), "--at", "3", "-o", str(out), "--fps", "10",
                 "--per-move", "0.1", "--size", "96x54", "--backend", "tiny"])  # fmt: skip
    assert code == 0
    with Image.open(out) as img:
        assert img.n_frames == 4  # the start and three moves, one frame each


def test_record_mp4(tmp_path: Path) -> None:
    ffmpeg = pytest.importorskip("imageio_ffmpeg")
    out = tmp_path / "fall.mp4"
    code = main(["record", "kozo-overhang", "-o", str(out), "--seconds", "0.2", "--fps", "10",
                 "--size", "96x54", "--backend", "tiny"])  # fmt: skip
    assert code == 0
    assert out.read_bytes()[4:8] == b"ftyp"
    frames, _secs = ffmpeg.count_frames_and_secs(str(out))
    assert frames == 3


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["render", "no-such-scene", "-o", "{out}.png"], "no shipped scene"),
        (["render", "kozo-tower", "-o", "{out}.jpg"], "must end in .png"),
        (["render", "kozo-tower", "-o", "{out}.png", "--size", "12by7"], "WIDTHxHEIGHT"),
        (["render", "kozo-tower", "-o", "{out}.png", "--camera", "sideways"], "expected a name"),
        (["render", "kozo-tower", "-o", "{out}.png", "--at", "3"], "--at applies to game logs"),
        (["render", "example:chess", "-o", "{out}.png"], "examples: katamino"),
        (["record", "kozo-tower", "-o", "{out}.gif", "--fps", "0"], "--fps"),
        (["record", "kozo-tower", "-o", "{out}.avi"], ".gif or .mp4"),
        (
            ["record", "kozo-tower", "-o", "{out}.gif", "--seconds", "60", "--slow", "0.01"],
            "at most 3000",
        ),
    ],
)
def test_bad_input_exits_2_and_writes_nothing(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = str(tmp_path / "x")
    code = main([a.replace("{out}", out) for a in args] + ["--backend", "tiny"])
    assert code == 2
    assert message in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_render_log_past_its_end(catego_log: Path, tmp_path: Path) -> None:
    code = main(["render", str(catego_log), "--at", "999", "-o", str(tmp_path / "x.png")])
    assert code == 2
    assert not (tmp_path / "x.png").exists()
