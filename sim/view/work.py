"""One call run beside the window's frame loop (:class:`_Work`): a judged move measured or a bot
thinking, in a worker thread (a window) or at once (offscreen); the result is picked up by the
main thread, the only one that touches Panda3D."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class _Work:
    """One call of ``fn`` -- in a daemon thread (``threaded``) or at once -- whose result (or
    error) the main loop picks up with :meth:`done`; ``on_done(work)`` runs then, in the main
    thread. Panda3D is only ever touched by the main thread."""

    def __init__(self, fn: Callable[[], Any], *, threaded: bool) -> None:
        import threading

        self.result: Any = None
        self.error: BaseException | None = None
        self.on_done: Callable[[_Work], None] | None = None
        self._thread: Any = None
        if threaded:
            self._thread = threading.Thread(target=self._run, args=(fn,), daemon=True,
                                            name="tablesim-work")  # fmt: skip
            self._thread.start()
        else:
            self._run(fn)

    def _run(self, fn: Callable[[], Any]) -> None:
        try:
            self.result = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the main thread
            self.error = exc

    def done(self) -> bool:
        """True once ``fn`` returned or raised."""
        return self._thread is None or not self._thread.is_alive()

    def join(self) -> None:
        """Wait for ``fn`` to end."""
        if self._thread is not None:
            self._thread.join()
