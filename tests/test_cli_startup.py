"""Start-up of the ``tablesim`` command: the top-level help needs no command module."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def test_the_command_table_gives_the_same_help_as_the_command_modules() -> None:
    from tablesim.sim.cli import build_parser

    assert build_parser(index=True).format_help() == build_parser().format_help()


def test_help_imports_no_command_module_and_no_numpy() -> None:
    code = (
        "import sys\n"
        "from tablesim.sim.cli import main\n"
        "for argv in ([], ['--help'], ['--version']):\n"
        "    try:\n"
        "        main(argv)\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(sorted(m for m in sys.modules if m.startswith(('tablesim.sim.commands', 'numpy', 'games'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT)  # fmt: skip
    assert out.stdout.strip().splitlines()[-1] == "[]"
    assert "usage: tablesim" in out.stdout
