"""The optional extras: pyproject's extras and games/extras.py's table agree, and a missing
package of an extra gives one line naming the extra and the install command (exit 2 from the
command line), never a ModuleNotFoundError traceback. A missing package is simulated in
process with ``sys.modules[name] = None`` (Python then refuses the import with a
ModuleNotFoundError naming the module, as for a package that is not installed)."""

from __future__ import annotations

import re
import sys

import pytest

from tablesim.games.extras import EXTRA_OF, MissingExtraError, missing_extra_message, require
from tests.conftest import ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

_PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
_EXTRAS: dict[str, list[str]] = _PYPROJECT["optional-dependencies"]
_IMPORT_NAME = {"pillow": "PIL", "imageio-ffmpeg": "imageio_ffmpeg"}


def _names(requirements: list[str]) -> list[str]:
    """Distribution names of requirement strings (``tablesim[...]`` self-references left out)."""
    out = []
    for req in requirements:
        name = re.match(r"[A-Za-z0-9_.-]+", req)
        assert name is not None, req
        if name.group(0) != "tablesim":
            out.append(name.group(0).lower())
    return out


@pytest.mark.parametrize("extra", ["physics", "view", "fast"])
def test_every_package_of_an_extra_is_named_by_the_error(extra: str) -> None:
    for dist in _names(_EXTRAS[extra]):
        module = _IMPORT_NAME.get(dist, dist)
        assert EXTRA_OF.get(module) == extra, (dist, extra)
        assert f'".[{extra}]"' in (missing_extra_message(module) or ""), module


def test_heavy_packages_are_not_in_the_core() -> None:
    core = _names(_PYPROJECT["dependencies"])
    assert not set(core) & {"pybullet", "panda3d", "trimesh", "scipy", "highspy", "numba", "pillow"}
    # the quick start's `[test]` installs everything: `all` is physics + view + fast
    assert "tablesim[all]" in _EXTRAS["test"]
    assert _EXTRAS["all"] == ["tablesim[physics,view,fast]"]


def test_missing_extra_message_names_only_extras() -> None:
    assert missing_extra_message("no_such_module_xyz") is None
    assert missing_extra_message(None) is None
    msg = missing_extra_message("highspy._core")
    assert msg is not None and "highspy" in msg and "'physics' extra" in msg and "\n" not in msg


def test_require_raises_missing_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "trimesh", None)
    with pytest.raises(
        MissingExtraError, match=r"trimesh is not installed.*'physics' extra"
    ) as info:
        require("trimesh")
    assert isinstance(info.value, ModuleNotFoundError) and info.value.name == "trimesh"
    with pytest.raises(ModuleNotFoundError) as other:  # not a package of an extra: as it was
        require("no_such_module_xyz")
    assert not isinstance(other.value, MissingExtraError)


def test_pybullet_module_without_pybullet(monkeypatch: pytest.MonkeyPatch) -> None:
    from tablesim.sim.bullet import pybullet_module

    monkeypatch.setitem(sys.modules, "pybullet", None)
    with pytest.raises(MissingExtraError, match=r"pybullet .*pip install -e \"\.\[physics\]\""):
        pybullet_module()


def test_cli_exits_2_naming_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tablesim.sim import cli

    monkeypatch.setitem(sys.modules, "highspy", None)
    monkeypatch.setitem(sys.modules, "highspy._core", None)
    assert cli.main(["simulate", "kozo-tower"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    (line,) = [ln for ln in err.splitlines() if "error" in ln]
    assert line.startswith("tablesim simulate: error: highspy is not installed")
    assert 'pip install -e ".[physics]"' in line
