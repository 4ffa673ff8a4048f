"""tablesim replay checks every recorded field and requires the result line; record refuses a log
that does not reproduce (#20 item 5). Exit 1 names the first divergence; exit 2 is bad input.

The logs edited here are the golden ones (tests/golden/games), written by ``tablesim play``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

from tablesim.sim.cli import main

GOLDEN = ROOT / "tests" / "golden" / "games"
CATEGO = GOLDEN / "catego-3p-random-2.jsonl"  # 3 players, columns 2..7: 18 moves
KOZO = GOLDEN.parents[1] / "data" / "kozo-legacy" / "kozo-stand-in-5.jsonl"
"""main's golden stand-in log from before times to place (it still replays to the same bits)."""


def _objs(path: Path, humans: bool = True) -> list[dict]:
    """The log's lines as objects; with ``humans`` every seat a person (replay then checks
    the moves and digests without asking the bots again: faster, the same checks)."""
    objs = [json.loads(line) for line in path.read_text().splitlines()]
    if humans:
        objs[0]["players"] = [{"role": "human"} for _ in objs[0]["players"]]
    return objs


def _write(tmp_path: Path, objs: list[dict], name: str = "t.jsonl") -> Path:
    out = tmp_path / name
    out.write_text("".join(json.dumps(o, sort_keys=True) + "\n" for o in objs))
    return out


def _replay(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["replay", str(path)])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_the_golden_log_reproduces(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _replay(CATEGO, capsys)
    # 3 players x 6 columns (2..7), one entry each: 18 moves
    assert code == 0 and out == "reproduced: all 18 moves and the result reproduced\n"


def test_a_log_cut_before_its_result_line_diverges(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _replay(_write(tmp_path, _objs(CATEGO)[:-1]), capsys)
    assert code == 1
    assert "ends after move 18 without its result line" in out


def test_a_log_cut_in_the_middle_diverges(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _replay(_write(tmp_path, _objs(CATEGO)[:10]), capsys)
    assert code == 1
    assert "ends after move 9 without its result line (the game is not over there)" in out


def test_a_header_only_log_diverges(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _replay(_write(tmp_path, _objs(CATEGO)[:1]), capsys)
    assert code == 1 and "ends after move 0 without its result line" in out


@pytest.mark.parametrize(
    ("key", "value", "needle"),
    [
        ("winner", "other", "result winner"),
        ("winners", "other", "result winners"),
        ("turns", 17, "result turns: replay gives 18, the log has 17"),
        ("scores", [0, 0, 0], "result scores"),
        ("state", "0123456789abcdef", "result state"),
    ],
)
def test_an_edited_result_field_diverges(
    key: str, value: object, needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    objs = _objs(CATEGO)
    res = objs[-1]
    if value == "other":
        seat = (res["winner"] + 1) % 3 if res["winner"] is not None else 0
        value = seat if key == "winner" else [seat]
    res[key] = value
    code, out, _ = _replay(_write(tmp_path, objs), capsys)
    assert code == 1, out
    assert needle in out


def test_an_edited_seat_is_the_first_divergence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    objs = _objs(CATEGO)
    seat = objs[5]["seat"]
    objs[5]["seat"] = (seat + 1) % 3  # move 5
    code, out, _ = _replay(_write(tmp_path, objs), capsys)
    assert code == 1
    # the players by the terminal's names (seat 0 is P1), not by 0-based seat numbers
    logged, to_move = f"P{(seat + 1) % 3 + 1}", f"P{seat + 1}"
    assert out.startswith("diverged: move 5 ")
    assert f"the log has a move by {logged}, {to_move} is to move" in out


def test_a_kozo_pose_edit_is_caught_even_when_it_rounds_away(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    objs = _objs(KOZO)  # human seats: no bot re-chooses, only the digest can tell
    text = objs[1]["move"]
    assert text == "5U r7 at 0.5,2,0"
    # 0.05 cube edge (0.9 mm): another intended pose, so other settled poses, other digest
    objs[1]["move"] = "5U r7 at 0.55,2,0"
    code, out, _ = _replay(_write(tmp_path, objs), capsys)
    assert code == 1 and "move 1" in out and "digest" in out
    # 1e-5 cube edge parses (to 4 decimals) to the logged move, but is not the text written
    objs[1]["move"] = "5U r7 at 0.50001,2,0"
    code, out, _ = _replay(_write(tmp_path, objs), capsys)
    assert code == 1 and "canonical text is '5U r7 at 0.5,2,0'" in out


def test_kozo_digest_covers_poses_at_full_precision() -> None:
    from dataclasses import replace

    from tablesim.games.registry import get_game

    game = get_game("kozo")
    config = game.make_config({"table": "stand-in"}, players=2)
    s = game.new_game(config, 5)
    while not s.tower:
        s = game.apply(s, game.legal_moves(s)[0])
    item = s.tower[0]
    x = item.pose[0]
    nudged = (float(x + abs(x) * 2.0**-52 + 5e-324), *item.pose[1:])  # the next float or so
    assert nudged[0] != x
    other = replace(s, tower=(replace(item, pose=nudged), *s.tower[1:]))
    assert game.state_digest(other) != game.state_digest(s)


@pytest.mark.parametrize("where", ["twice", "moves after"])
def test_a_result_line_not_last_is_malformed(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    objs = _objs(CATEGO)
    objs = objs + [objs[-1]] if where == "twice" else objs[:5] + [objs[-1]] + objs[5:-1]
    code, _, err = _replay(_write(tmp_path, objs), capsys)
    assert code == 2
    assert "after the result line" in err


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (
            lambda h: h.update(seed="abc"),
            "'seed' must be an integer in 0..9223372036854775807, got 'abc'",
        ),
        (
            lambda h: h.update(seed=None),
            "'seed' must be an integer in 0..9223372036854775807, got None",
        ),
        (lambda h: h.update(seed=True), "'seed' must be an integer"),
        (lambda h: h.update(config="x"), "'config' must be an object"),
        (lambda h: h.update(config={"players": 3, "columns": "x"}), "header 'config'"),
        (lambda h: h.update(game=7), "'game' must be a game name"),
        (lambda h: h.update(game="chess"), "unknown game 'chess'"),
        (
            lambda h: h["players"][0].pop("bot_seed"),
            "players[0]: the bot 'random' lacks key 'bot_seed'",
        ),
        (
            lambda h: h["players"][0].update(bot_seed="7"),
            "players[0]: 'bot_seed' must be an integer",
        ),
        (lambda h: h["players"][1].update(budget="9"), "players[1]: 'budget' must be an integer"),
        (lambda h: h["players"][1].update(role="wizard"), "unknown bot 'wizard'"),
        (lambda h: h["players"].pop(), "lists 2 seats; the config is for 3"),
        (lambda h: h.update(players="x"), "'players' must be a list"),
        (lambda h: h.pop("version"), "header lacks key 'version'"),
        (lambda h: h.update(colour="red"), "header has unknown key 'colour'"),
        (lambda h: h.update(format="tablesim-log/9"), "format 'tablesim-log/9'"),
    ],
)
def test_bad_header_values_exit_2_naming_the_key(
    edit: object, needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    objs = _objs(CATEGO, humans=False)
    edit(objs[0])  # type: ignore[operator]
    code, out, err = _replay(_write(tmp_path, objs), capsys)
    assert code == 2, (out, err)
    assert needle in err and "Traceback" not in err
    assert err.count("\n") == 1  # one message


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (lambda o: o[3].pop("state"), ":4: move lacks key 'state'"),
        (lambda o: o[3].update(seat="1"), ":4: move 'seat' must be a seat number"),
        (lambda o: o[3].update(n=7), ":4: move number 7, expected 3"),
        (lambda o: o[3].update(move=5), ":4: move 'move' must be the move's text"),
        (lambda o: o[3].update(state="xyz"), ":4: move 'state' must be a digest"),
        (lambda o: o[-1].update(scores="1"), "result 'scores' must be a list of numbers"),
        (lambda o: o.insert(0, o[0]), "a second header"),
        (lambda o: o[3].update(type="undo"), "unknown line type 'undo'"),
    ],
)
def test_malformed_lines_exit_2_naming_the_line(
    edit: object, needle: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    objs = _objs(CATEGO)
    edit(objs)  # type: ignore[operator]
    code, _, err = _replay(_write(tmp_path, objs), capsys)
    assert code == 2 and needle in err, err


def test_render_and_record_refuse_a_log_that_does_not_reproduce(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    objs = _objs(KOZO)
    objs[-1]["winners"] = [1 - objs[-1]["winners"][0]] if objs[-1]["winners"] else [0]
    bad = _write(tmp_path, objs)
    gif = tmp_path / "f.gif"
    code = main(
        [
            "record",
            str(bad),
            "-o",
            str(gif),
            "--by-move",
            "--size",
            "32x18",
            "--per-move",
            "0.1",
            "--fps",
            "10",
            "--backend",
            "tiny",
        ]
    )
    out = capsys.readouterr().out
    assert code == 1 and "does not reproduce: result winners" in out and not gif.exists()
    objs = _objs(KOZO)
    objs[3]["state"] = "0" * 16
    bad = _write(tmp_path, objs, "m3.jsonl")
    png = tmp_path / "f.png"
    args = ["-o", str(png), "--size", "32x18", "--backend", "tiny", "--supersample", "1"]
    code = main(["render", str(bad), "--at", "5", *args])
    out = capsys.readouterr().out
    assert code == 1 and "does not reproduce: move 3" in out and not png.exists()
    # the moves before the edited one are fine to draw
    assert main(["render", str(bad), "--at", "2", *args]) == 0 and png.is_file()


def test_replay_cli_of_a_bad_header_is_one_line_on_stderr(tmp_path: Path) -> None:
    objs = _objs(CATEGO)
    objs[0]["seed"] = "abc"
    p = run_cli("replay", str(_write(tmp_path, objs)))
    assert p.returncode == 2 and p.stdout == ""
    assert (
        p.stderr
        == f"tablesim replay: error: {tmp_path / 't.jsonl'}:1: header 'seed' must be an integer in 0..9223372036854775807, got 'abc'\n"
    )
