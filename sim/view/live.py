"""Physics watched live: a display-profile world stepped inside the frame loop, and the
verdict-profile judgement running beside it.

:class:`LiveRun` owns a :class:`tablesim.sim.world.World` in the ``display`` profile (friction anchors,
sleeping: calm to look at, cheap at rest) and advances it by the frame's time step, never by
more wall time than its budget: when the machine cannot keep up the fall plays slower, the
window never freezes. :class:`VerdictJob` asks :func:`tablesim.sim.verdict.simulate` (the verdict
profile, the same answer as ``tablesim simulate``) in a separate process, started fresh
(``spawn``: the window's process holds an X connection and renderer threads that a fork would
copy), so the window keeps drawing while the ensemble runs.

What the window shows is the display profile; what the status line says is the verdict's.
Near the edge they can differ (a collapse is chaotic); the verdict line is the rule's answer.
On a thin statics tilt margin the display escalates as the verdict does
(:func:`tablesim.sim.escalation.live_display`): a small scene runs in ``display-exact`` (the direct
solver), a big one stays on Gauss-Seidel; :attr:`LiveRun.note` says which, for the HUD.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tablesim.games.core import counted

if TYPE_CHECKING:
    from tablesim.sim.config import Profile

__all__ = ["FRAME_BUDGET_S", "LiveRun", "VerdictJob", "verdict_lines"]

FRAME_BUDGET_S = 0.008
"""Wall seconds of physics one frame may spend at least (half of a 60 Hz frame); a slower
frame may spend half its time step on physics."""


REST_SPEED = 2e-3
"""m/s and rad/s: a piece slower than this (both) is at rest."""
REST_S = 0.5
"""Simulated seconds everything must stay at rest before a live run ends early."""


class LiveRun:
    """A scene falling in display physics, advanced frame by frame.

    ``scene``: a :class:`tablesim.sim.model.Scene`; ``seconds``: how long the run lasts (simulated);
    ``profile``: the physics profile (``display``); ``escalate``: on a thin statics tilt
    margin run its escalation instead where the frame budget allows
    (:func:`tablesim.sim.escalation.live_display`; :attr:`display` is that choice, :attr:`note` its
    HUD line). :attr:`time` is the simulated time, :attr:`done` True once it reached
    ``seconds`` or every piece has been at rest (:data:`REST_SPEED`) for :data:`REST_S` (the
    world is then closed).
    """

    def __init__(
        self, scene: Any, seconds: float, profile: str | Profile = "display", escalate: bool = True
    ) -> None:
        from tablesim.sim.config import get_profile
        from tablesim.sim.escalation import LiveDisplay, live_display
        from tablesim.sim.world import World

        prof = get_profile(profile) if isinstance(profile, str) else profile
        self.display = live_display(scene, prof) if escalate else LiveDisplay(prof, "")
        """The profile chosen and why (:class:`tablesim.sim.escalation.LiveDisplay`)."""
        self.note = self.display.note
        """One HUD line about the display physics ('' when there is nothing to say)."""
        self.world = World(scene, self.display.profile)
        self.seconds = float(seconds)
        self.step_s = self.world.time_step
        self._steps_total = max(1, round(self.seconds / self.step_s))
        self._debt = 0.0
        self.poses: dict[str, Any] = self.world.poses()
        self.first_poses = self.poses
        self.step_cpu_s = 0.0
        """CPU seconds spent stepping so far (the live step cost)."""
        self._rest_since: float | None = None
        self._time = 0.0

    @property
    def time(self) -> float:
        """Simulated seconds so far."""
        return self.world.steps * self.step_s if not self.world.closed else self._time

    @property
    def done(self) -> bool:
        """True once the run reached its length."""
        return self.world.closed

    def advance(self, dt: float, budget_s: float | None = None) -> dict[str, Any]:
        """Simulate ``dt`` more seconds (whole steps; the rest carries over), stopping early
        when ``budget_s`` wall seconds are spent (default: the larger of
        :data:`FRAME_BUDGET_S` and ``dt / 2``). Returns the poses (id -> (pos, quat))."""
        if self.done:
            return self.poses
        if budget_s is None:
            budget_s = max(FRAME_BUDGET_S, 0.5 * dt)
        self._debt += max(0.0, float(dt))
        n = min(int(self._debt / self.step_s + 1e-9), self._steps_total - self.world.steps)
        t0, c0 = time.perf_counter(), time.process_time()
        taken = 0
        while taken < n:
            self.world.step(1)
            taken += 1
            if time.perf_counter() - t0 > budget_s:
                break
        self.step_cpu_s += time.process_time() - c0
        # what the budget cut is dropped, not owed: the fall plays slower, it never jumps
        self._debt = 0.0 if taken < n else self._debt - taken * self.step_s
        self.poses = self.world.poses()
        now = self.world.steps * self.step_s
        lin, ang = self.world.velocities()
        if len(lin) and max(np.abs(lin).max(), np.abs(ang).max()) < REST_SPEED:
            self._rest_since = now if self._rest_since is None else self._rest_since
        else:
            self._rest_since = None
        resting = self._rest_since is not None and now - self._rest_since >= REST_S
        if self.world.steps >= self._steps_total or resting:
            self.close()
        return self.poses

    def close(self) -> None:
        """Close the world (idempotent)."""
        if not self.world.closed:
            self._time = self.world.steps * self.step_s
            self.world.close()


def _worker_main(argv: Sequence[str]) -> int:
    """The verdict process: ``argv`` = [job file, answer file]; the job is a pickled
    (scene, seconds, replicas, seed), the answer a pickled ("ok", verdict) or ("error", exc)."""
    import pickle

    from tablesim.games.outputs import atomic_write
    from tablesim.sim.verdict import simulate

    job, answer = argv
    with open(job, "rb") as fh:
        scene, seconds, replicas, seed = pickle.load(fh)
    try:
        out: tuple[str, Any] = ("ok", simulate(scene, seconds=seconds, replicas=replicas,
                                               seed=seed, workers=1))  # fmt: skip
    except Exception as exc:  # noqa: BLE001 - handed to the parent, which re-raises it
        out = ("error", exc)
    atomic_write(answer, pickle.dumps(out), force=True)  # the parent sees the whole answer or none
    return 0


class VerdictJob:
    """:func:`tablesim.sim.verdict.simulate` of ``scene`` in a background process.

    The process is a fresh interpreter (``python -c``), not a fork: the window's process holds
    an X connection and renderer threads a fork would copy, and multiprocessing's ``spawn``
    would re-import the caller's main script. It runs the replicas with one worker (the result
    does not depend on the worker count) so :meth:`cancel` has one process to stop.

    :meth:`ready` is True once it finished; :meth:`result` is the :class:`tablesim.sim.verdict.Verdict`
    (re-raises the job's error); :meth:`cancel` stops it.
    """

    def __init__(self, scene: Any, seconds: float, replicas: int = 8, seed: int = 0) -> None:
        import pickle
        import subprocess
        import sys
        import tempfile
        from pathlib import Path

        import tablesim

        self.replicas = int(replicas)
        self._dir = tempfile.TemporaryDirectory(prefix="tablesim-verdict-")
        job, self._answer_path = (os.path.join(self._dir.name, n) for n in ("job", "answer"))
        with open(job, "wb") as fh:
            pickle.dump((scene, float(seconds), self.replicas, int(seed)), fh)
        root = str(Path(tablesim.__file__).resolve().parents[1])  # the folder holding tablesim/
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
        code = "import sys; from tablesim.sim.view.live import _worker_main; _worker_main(sys.argv[1:])"
        self._proc = subprocess.Popen([sys.executable, "-c", code, job, self._answer_path],
                                      env=env, stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)  # fmt: skip
        self._answer: tuple[str, Any] | None = None

    def ready(self) -> bool:
        """True when the verdict (or its error) is in."""
        import pickle

        if self._answer is not None:
            return True
        if self._proc.poll() is None:
            return False
        if os.path.exists(self._answer_path):
            with open(self._answer_path, "rb") as fh:
                self._answer = pickle.load(fh)
        else:
            err = self._proc.stderr.read().decode(errors="replace") if self._proc.stderr else ""
            self._answer = ("error", RuntimeError(
                f"the verdict process ended without an answer (exit {self._proc.returncode}): "
                f"{err.strip()[-500:]}"))  # fmt: skip
        self._dir.cleanup()
        return True

    def result(self, timeout: float | None = None) -> Any:
        """The verdict (waits up to ``timeout`` seconds for it; TimeoutError after)."""
        end = None if timeout is None else time.monotonic() + timeout
        while not self.ready():
            if end is not None and time.monotonic() > end:
                raise TimeoutError("the verdict is not in yet")
            time.sleep(0.05)
        kind, value = self._answer  # type: ignore[misc]
        if kind == "error":
            raise value
        return value

    def cancel(self) -> None:
        """Stop the job (idempotent)."""
        if self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait(10)
        self._dir.cleanup()


def verdict_lines(verdict: Any) -> Sequence[str]:
    """The status lines of a :class:`tablesim.sim.verdict.Verdict`: the answer, then why."""
    head = (f"verdict ({verdict.profile} profile): {verdict.verdict}, topple probability "
            f"{verdict.topple_probability:.2f}")  # fmt: skip
    if verdict.replica_toppled:  # empty when statics alone decided
        head += f" ({sum(verdict.replica_toppled)} of {counted(len(verdict.replica_toppled), 'run')} toppled)"
    return [head, verdict.explanation] if verdict.explanation else [head]
