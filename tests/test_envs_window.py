"""``render_mode="human"``: the environment draws the table into a real window (Xvfb)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time

import pytest
from conftest import ROOT

SCRIPT = """
import numpy as np, sys
from PIL import ImageGrab
import tablesim
env = tablesim.env("catego", render_mode="human", size=(320, 180))
env.reset(seed=0)
assert env.render() is None          # human mode draws, it returns no array
env.step(0)                          # a step redraws the window
shot = np.asarray(ImageGrab.grab(xdisplay=sys.argv[1]).convert("RGB"), dtype=float)
print(shot.shape[0], shot.shape[1], round(float(shot.std()), 2))
env.close()
"""


@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb (apt-get install xvfb)")
def test_human_render_mode_opens_a_window_showing_the_table() -> None:
    pytest.importorskip("pettingzoo")
    display = f":{200 + os.getpid() % 500}"
    xvfb = subprocess.Popen(["Xvfb", display, "-screen", "0", "640x480x24", "-nolisten", "tcp"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        time.sleep(0.5)
        env = dict(os.environ, DISPLAY=display, PYTHONPATH=str(ROOT))
        p = subprocess.run([sys.executable, "-c", SCRIPT, display], env=env,
                           capture_output=True, text=True, timeout=120)  # fmt: skip
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=10)
    if p.returncode != 0 and "BackendUnavailable" in p.stderr:
        pytest.skip(f"no gl window: {p.stderr[-300:]}")
    assert p.returncode == 0, p.stderr[-2000:]
    h, w, std = p.stdout.split()
    assert (int(h), int(w)) == (480, 640)
    assert float(std) > 10  # the table drawn on the black screen, not an empty display
