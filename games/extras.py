"""Which optional extra provides which heavy package, and the one-line error when it is missing.

The core install (``pip install -e .`` from a checkout) holds the rules, the bots and (with
``[rl]``) the environments: numpy only. The physics table, the pictures and the compiled Katamino
kernel are extras (pyproject.toml): ``physics`` (pybullet, trimesh, scipy, highspy), ``view``
(panda3d, pillow, matplotlib), ``fast`` (numba), ``all`` (the three). A module that needs one
of them imports it through :func:`require`, which raises :class:`MissingExtraError` (a
``ModuleNotFoundError``, so ``except ImportError`` fallbacks keep working) naming the extra and
the install command; the command line turns any missing package of this table into that line
and exit 2 (:func:`missing_extra_message`).
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import NoReturn

EXTRA_OF = {
    "pybullet": "physics",
    "trimesh": "physics",
    "scipy": "physics",
    "highspy": "physics",
    "panda3d": "view",
    "direct": "view",  # Panda3D's ShowBase
    "PIL": "view",
    "matplotlib": "view",
    "numba": "fast",
    "llvmlite": "fast",
    "gymnasium": "rl",
    "pettingzoo": "rl",
    "pyarrow": "parquet",
    "imageio_ffmpeg": "video",
    "mujoco": "crosscheck",
    "ray": "ray",
    "xcover": "bench",
}
"""Top-level import name -> the pyproject extra that installs it."""

_PACKAGE_NAME = {"PIL": "pillow", "direct": "panda3d", "imageio_ffmpeg": "imageio-ffmpeg"}
"""Import names whose distribution is called otherwise."""


class MissingExtraError(ModuleNotFoundError):
    """A package of an optional extra is not installed; the message names the extra and the
    command that installs it."""


def missing_extra_message(module: str | None) -> str | None:
    """The one-line message for the missing module ``module`` (a dotted import name), or None
    if it is not a package of any extra (then it is a bug, not an install choice)."""
    top = (module or "").partition(".")[0]
    extra = EXTRA_OF.get(top)
    if extra is None:
        return None
    package = _PACKAGE_NAME.get(top, top)
    return f"{package} is not installed: it comes with tablesim's '{extra}' extra; {install_hint(extra)}"


WHEEL = "tablesim-0.1.0-py3-none-any.whl"
"""The wheel ``pip wheel --no-deps . -w dist`` builds in a checkout (pyproject's version)."""


def install_hint(extra: str) -> str:
    """How to install ``extra``, said the same way by every missing-package message: tablesim is
    on no package index, so from a checkout or from a wheel built there."""
    return (
        f'from a tablesim checkout: pip install -e ".[{extra}]" (".[all]" for physics, view and '
        f'fast); from a built wheel: pip install "{WHEEL}[{extra}]" (pip wheel --no-deps . -w '
        "dist makes it)"
    )


def raise_missing(exc: ModuleNotFoundError) -> NoReturn:
    """Re-raise ``exc`` as :class:`MissingExtraError` if its module belongs to an extra (as it
    is otherwise): for ``try: import trimesh / except ModuleNotFoundError as exc:``."""
    message = missing_extra_message(exc.name)
    if message is None or isinstance(exc, MissingExtraError):
        raise exc
    raise MissingExtraError(message, name=exc.name) from None


def require(module: str) -> ModuleType:
    """Import ``module`` (dotted name) or raise :class:`MissingExtraError` naming its extra."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise_missing(exc)
