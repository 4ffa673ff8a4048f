"""The gl backend draws on its own X server, never on another process's.

Panda3D's x11 pipes ignore a $DISPLAY set at run time (they read the environment the process
started with, else ":0.0"), so before the fix a process whose private Xvfb got display :1
connected to whatever served :0 (another process's private Xvfb) and aborted with signal 6
when that process ended (two gl ``record``s started 0.3 s apart: 4 aborts in 6 here).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from tests.conftest import ROOT, start_xvfb

pytestmark = pytest.mark.skipif(shutil.which("Xvfb") is None, reason="no Xvfb here")

_PROBE = (
    "import os, sys\n"
    "from tablesim.sim.view import backend\n"
    "if sys.argv[1] == 'env':\n"
    "    os.environ['DISPLAY'] = sys.argv[2]\n"
    "name, pipe = backend.make_pipe('gl')\n"
    "print(name, pipe.get_display_width(), pipe.get_display_height())\n"
)


def test_gl_pipe_opens_on_the_display_it_was_given() -> None:
    """With a decoy server running: a process without $DISPLAY draws on its own private Xvfb
    (1920x1080), and one that sets $DISPLAY at run time to the decoy draws on the decoy
    (640x480). Before the fix one of the two was always wrong: the pipe went to ":0.0"
    whichever display was meant (the decoy when it took :0, else no server or another one)."""
    started = start_xvfb("640x480x24")  # the decoy: its size tells its pipes from ours
    assert started is not None, "the decoy Xvfb did not start"
    decoy, display = started
    try:
        env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
        for mode, want in (("private", "gl 1920 1080"), ("env", "gl 640 480")):
            out = subprocess.run(
                [sys.executable, "-c", _PROBE, mode, display],
                cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
            )  # fmt: skip
            assert out.returncode == 0, (mode, out.stderr[-2000:])
            assert out.stdout.split("\n")[-2] == want, (mode, display, out.stdout)
    finally:
        decoy.terminate()
        decoy.wait(timeout=10)
