"""The registered ``katamino`` game: the mode dispatcher, its options and bots, and the
command line (``tablesim play katamino --mode ...``)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import run_cli

from tablesim.games.core import ConfigError, StateFormatError
from tablesim.games.katamino.game import DEFAULT_MODE, GAME, MODES, family
from tablesim.games.katamino.solo import SOLO_GAME
from tablesim.games.katamino.solo_data import SOLO_MODES
from tablesim.games.registry import bot_classes, get_game, make_bot


def test_registered_with_every_mode() -> None:
    assert get_game("katamino") is GAME
    mode = GAME.options[0]
    assert mode.name == "mode" and mode.default == DEFAULT_MODE == "solo"
    assert set(mode.choices) == set(MODES.names) >= set(SOLO_MODES)
    names = [o.name for o in GAME.options]
    assert len(names) == len(set(names))
    assert {"card", "challenge", "swap", "straight_horizontal"} <= set(names)
    for m in SOLO_MODES:
        assert family(m) is SOLO_GAME
    assert {"random", "smart"} <= set(bot_classes("katamino"))


def test_modes_are_two_families_loaded_on_first_use() -> None:
    """Ten modes, two family objects (solo, duel); importing the dispatcher imports neither
    family module (they load when a mode is first asked for)."""
    from tablesim.games.katamino.duel import DUEL_GAME, DUEL_MODES

    assert MODES.names[:6] == SOLO_MODES and MODES.names[6:] == DUEL_MODES
    assert MODES.distinct() == (SOLO_GAME, DUEL_GAME)
    assert tuple(m for m in MODES.names if family(m) is DUEL_GAME) == DUEL_MODES
    for fam in MODES.distinct():
        assert "smart" in fam.bots()
    code = (
        "import sys, tablesim.games.katamino.game as g; "
        "print(sorted(m for m in sys.modules if m.startswith('tablesim.games.katamino.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout  # fmt: skip
    assert (
        "tablesim.games.katamino.solo'" not in out and "tablesim.games.katamino.duel'" not in out
    ), out


def test_solo_moves_take_no_stamped_seconds() -> None:
    """Only the duel races time a person's moves (tests/test_katamino_duel_clock.py): through
    the dispatcher a solo move comes back as it was given."""
    st = GAME.new_game(GAME.make_config({"mode": "traditional"}, players=1), 0)
    move = GAME.legal_moves(st)[0]
    assert GAME.stamp_seconds(st, move, 12.34) is move


def test_default_config_is_a_solo_challenge() -> None:
    cfg = GAME.make_config({}, players=1)
    assert cfg.mode == "solo"
    st = GAME.new_game(cfg, 4)
    assert GAME.current_player(st) == 0 and GAME.legal_moves(st)
    assert GAME.config_from_json(GAME.config_to_json(cfg)) == cfg


def test_bad_options() -> None:
    with pytest.raises(ConfigError, match="not a mode"):
        GAME.make_config({"mode": "chess"}, players=1)
    with pytest.raises(ConfigError, match="unknown option"):
        GAME.make_config({"colour": "red"}, players=1)
    with pytest.raises(ConfigError, match="players"):
        GAME.make_config({}, players=3)


def test_option_of_another_family_names_the_mode() -> None:
    solo_opts = {o.name for o in SOLO_GAME.options}
    foreign = [o for o in GAME.options if o.name not in solo_opts]
    if not foreign:
        pytest.skip("only the solo family is registered yet")
    opt = foreign[0]
    with pytest.raises(ConfigError, match="does not apply to mode 'picture'"):
        GAME.make_config({"mode": "picture", opt.name: opt.default}, players=1)


def test_state_json_needs_a_mode() -> None:
    st = GAME.new_game(GAME.make_config({"mode": "picture"}, players=1), 0)
    obj = GAME.state_to_json(st)
    assert GAME.state_from_json(obj) == st
    del obj["mode"]
    with pytest.raises(StateFormatError, match="mode"):
        GAME.state_from_json(obj)


def test_smart_bot_through_the_dispatcher() -> None:
    cfg = GAME.make_config({"mode": "puzzle3d", "card": 2, "challenge": 1}, players=1)
    st = GAME.new_game(cfg, 0)
    bot = make_bot("katamino", "smart", 7)
    while not GAME.is_terminal(st):
        st = GAME.apply(st, bot.choose(st))
    assert GAME.result(st).winners == (0,)


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return run_cli(*args, input=stdin, timeout=120)


def test_cli_smart_solves_and_shows_steps() -> None:
    r = _cli("play", "katamino", "--mode", "traditional", "--card", "1", "--challenge", "1",
             "--variant-3d", "--players", "smart")  # fmt: skip
    assert r.returncode == 0, r.stderr
    for name in ("Penta 3 complete", "Penta 7 complete", "3x3x4 complete", "layer 4"):
        assert name in r.stdout
    assert "won" in r.stdout


def test_cli_human_hint_undo_and_json() -> None:
    # Puzzle A: a hint, then undo, then the player quits.
    r = _cli("play", "katamino", "--mode", "puzzle3d", "--card", "1", "--challenge", "1",
             "--players", "human", "--json", stdin="hint\nundo\nquit\n")  # fmt: skip
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout.strip().splitlines()[-1])
    # Katamino's own `undo` wins over the terminal's (a game's words first): it takes back a
    # placed piece, and a hint places none, so there is nothing to undo and the hint counts
    assert out["detail"]["outcome"] == "quit" and out["detail"]["hints"] == 1
    assert "hint: " in r.stderr and "nothing to undo" in r.stderr


def test_cli_bad_option_exits_2() -> None:
    r = _cli("play", "katamino", "--mode", "solo", "--card", "9", "--challenge", "1",
             "--players", "smart")  # fmt: skip
    assert r.returncode == 2 and "cards 1..4" in r.stderr
