"""Sweep specifications: a TOML file in, a validated :class:`SweepSpec` out.

The format (documented in ``docs/experiments.md``)::

    [sweep]
    mode = "grid"        # "grid": every combination; "random": a seeded sample
    seed = 1             # seed of the sample and of every run's perturbations
    repeats = 1          # grid: runs per grid point, each with its own seed
    samples = 100        # random: number of runs

    [parameters]         # a scalar is fixed, a list is swept, a table is a range
    scene = "cantilever-tips"                     # shipped scene name, or a path from this file
    seconds = 0.5
    replicas = 4
    friction = { min = 0.3, max = 0.6, steps = 4 }   # grid: 0.3, 0.4, 0.5, 0.6
    sigma_mm = [0.05, 0.5]

Parameters (:data:`PARAMETERS`): the scene, the verdict settings (``seconds``, ``replicas``,
``step_ms``, ``profile``, ``method``), the noise (``sigma_mm``, ``sigma_deg``), the topple rule
(``tilt_deg``, ``drop_fraction``) and every ``[physics]`` key of a scene file (``friction``,
``density``, ``clearance_mm``, ``kozo_cube_mm``, ...). :func:`load_spec` checks everything
and raises :class:`SpecError` listing every problem with its file, line and key, before
anything is simulated or written.
"""

from __future__ import annotations

import hashlib
import math
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

from tablesim.games.limits import MAX_SEED
from tablesim.sim.input_problems import InputProblem, LineIndex, ProblemCollector, describe_value
from tablesim.sim.scene import PHYSICS_KEYS, InvalidSceneError, physics_from_table, read_text_file

MODES = ("grid", "random")
MAX_RUNS = 10_000_000


@dataclass(frozen=True)
class ParamKind:
    """What values a parameter takes: ``number`` (with bounds), ``integer`` or ``choice``."""

    kind: str
    low: float | None = None
    high: float | None = None
    low_strict: bool = False
    choices: tuple[str, ...] = ()
    help: str = ""

    def check(self, value: Any) -> str | None:
        """None if ``value`` is allowed, else what is wrong (for scalars, not ranges)."""
        if self.kind == "choice":
            if not isinstance(value, str):
                return f"expected a string, got {describe_value(value)}"
            if self.choices and value not in self.choices:
                return f"unknown value {value!r} (allowed: {', '.join(self.choices)})"
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"expected a number, got {describe_value(value)}"
        if self.kind == "integer" and not isinstance(value, int):
            return f"expected an integer, got {describe_value(value)}"
        if not math.isfinite(value):
            return f"expected a finite number, got {value!r}"
        if self.low is not None and (value <= self.low if self.low_strict else value < self.low):
            return f"must be {'>' if self.low_strict else '>='} {self.low:g}, got {value:g}"
        if self.high is not None and value > self.high:
            return f"must be <= {self.high:g}, got {value:g}"
        return None


def _physics_kinds() -> dict[str, ParamKind]:
    out = {}
    for key in PHYSICS_KEYS:
        unit = "mm" if key.endswith("_mm") else "SI"
        out[key] = ParamKind("physics", help=f"scene [physics] setting ({unit})")
    return out


PARAMETERS: dict[str, ParamKind] = {
    "scene": ParamKind("choice", help="shipped scene name or scene file path"),
    "seconds": ParamKind("number", 0.0, 600.0, True, help="verdict window (s)"),
    "replicas": ParamKind("integer", 1, 1000, help="ensemble size"),
    "step_ms": ParamKind("number", 0.0, 20.0, True, help="time step (ms)"),
    "profile": ParamKind("choice", choices=("verdict", "display"), help="solver profile"),
    "method": ParamKind("choice", choices=("auto", "simulate"), help="statics may settle"),
    "sigma_mm": ParamKind("number", 0.0, 100.0, help="horizontal position noise (mm)"),
    "sigma_deg": ParamKind("number", 0.0, 180.0, help="yaw noise (degrees)"),
    "tilt_deg": ParamKind("number", 0.0, 180.0, True, help="topple rule: tilt threshold"),
    "drop_fraction": ParamKind("number", 0.0, 100.0, True, help="topple rule: drop threshold"),
    **_physics_kinds(),
}
"""Every parameter a sweep may set: name -> kind, bounds and meaning."""

_SWEEP_KEYS = ("mode", "seed", "repeats", "samples", "description")
_TOP_KEYS = ("sweep", "parameters")


class SpecError(InvalidSceneError):
    """A spec that cannot be used. ``problems`` lists every problem (``tablesim.sim.input_problems.InputProblem``:
    key path, message, line), in file order; ``source`` is the file name. It shares the scene
    errors' format (``FILE:LINE: key: message``), hence the base class."""


@dataclass(frozen=True)
class Axis:
    """One parameter: ``values`` (fixed or grid values) or a ``low``..``high`` random range."""

    name: str
    values: tuple[Any, ...] = ()
    low: float | None = None
    high: float | None = None
    log: bool = False

    @property
    def is_range(self) -> bool:
        """True for a continuous random range (random mode only)."""
        return self.low is not None

    @property
    def swept(self) -> bool:
        """True when the parameter takes more than one value."""
        return self.is_range or len(self.values) > 1

    def to_json(self) -> dict[str, Any]:
        """Plain-dict form (for fingerprints)."""
        if self.is_range:
            return {"name": self.name, "min": self.low, "max": self.high, "log": self.log}
        return {"name": self.name, "values": list(self.values)}


@dataclass(frozen=True)
class SweepSpec:
    """A validated sweep: mode, seed, size and the parameter axes in file order."""

    source: str
    mode: str
    seed: int
    axes: tuple[Axis, ...]
    repeats: int = 1
    samples: int = 0
    description: str = ""
    scene_texts: tuple[tuple[str, str], ...] = ()  # (scene value, file text) per scene used
    base_dir: str = "."

    @property
    def points(self) -> int:
        """Number of grid points (1 in random mode)."""
        if self.mode == "random":
            return 1
        return math.prod(len(a.values) for a in self.axes)

    @property
    def count(self) -> int:
        """Number of runs (rows)."""
        return self.samples if self.mode == "random" else self.points * self.repeats

    def axis(self, name: str) -> Axis | None:
        """The axis of parameter ``name``, if the spec sets it."""
        return next((a for a in self.axes if a.name == name), None)

    def to_json(self) -> dict[str, Any]:
        """Everything that determines the rows (for the resume fingerprint)."""
        return {
            "mode": self.mode,
            "seed": self.seed,
            "repeats": self.repeats,
            "samples": self.samples,
            "axes": [a.to_json() for a in self.axes],
            "scenes": {
                k: hashlib.sha256(t.encode()).hexdigest() for k, t in sorted(self.scene_texts)
            },
        }


def _scene_text(value: str, base_dir: Path) -> tuple[str, str] | str:
    """(source, text) of a scene reference, or an error message."""
    from tablesim.sim.scene import find_scene, shipped_scene_names

    found = find_scene(value, base_dir)
    if found is None:
        path = Path(value) if Path(value).is_absolute() else base_dir / value
        return (
            f"no scene file {str(path)!r} and no shipped scene {value!r} "
            f"(shipped: {', '.join(shipped_scene_names())})"
        )
    try:
        return str(found), read_text_file(found, InvalidSceneError)
    except InvalidSceneError as exc:
        return " ".join(str(exc).split())


def _check_physics_value(key: str, value: Any) -> str | None:
    try:
        physics_from_table({key: value}, si_names=False)
    except InvalidSceneError as exc:
        return exc.problems[0].message
    return None


def _check_value(pb: ProblemCollector, name: str, value: Any, path: str) -> bool:
    kind = PARAMETERS[name]
    msg = _check_physics_value(name, value) if kind.kind == "physics" else kind.check(value)
    if msg:
        pb.add(path, msg)
        return False
    return True


def _grid_size(params: dict[str, Any], repeats: int) -> int:
    """Runs of a grid spec from the raw tables (value lists, ``steps``), without building any
    axis: a one-line ``steps = 1000000000`` must be refused, not materialised."""
    n = repeats
    for name, raw in params.items():
        if name not in PARAMETERS:
            continue
        if isinstance(raw, list):
            n *= max(1, len(raw))
        elif isinstance(raw, dict):
            steps = raw.get("steps")
            if isinstance(steps, int) and not isinstance(steps, bool) and steps > 1:
                n *= steps
    return n


def _linspace(low: float, high: float, steps: int) -> tuple[float, ...]:
    if steps == 1:
        return (float(low),)
    # round to 12 significant digits so 0.1 steps print as 0.4, not 0.40000000000000002
    return tuple(float(f"{low + (high - low) * i / (steps - 1):.12g}") for i in range(steps))


def _parse_axis(pb: ProblemCollector, name: str, raw: Any, mode: str) -> Axis | None:
    path = f"parameters.{name}"
    kind = PARAMETERS[name]
    if isinstance(raw, list):
        if not raw:
            pb.add(path, "an empty list: give at least one value")
            return None
        ok = all(_check_value(pb, name, v, f"{path}[{i}]") for i, v in enumerate(raw))
        if not ok:
            return None
        if len(set(map(repr, raw))) != len(raw):
            pb.add(path, f"repeated values in {raw!r}: each value once (use repeats = N)")
            return None
        return Axis(name, tuple(raw))
    if isinstance(raw, dict):
        if kind.kind in ("choice", "integer"):
            pb.add(path, f"{name} takes a value or a list of values, not a range")
            return None
        allowed = ("min", "max", "steps") if mode == "grid" else ("min", "max", "log")
        pb.keys(raw, allowed, path)
        if mode == "grid" and "log" in raw:
            return None
        low, high = raw.get("min"), raw.get("max")
        good = True
        for key, v in (("min", low), ("max", high)):
            if v is None:
                pb.add(path, f"a range needs '{key}'")
                good = False
            elif not _check_value(pb, name, v, f"{path}.{key}"):
                good = False
        if not good or low is None or high is None:
            return None
        if low > high:
            pb.add(path, f"min {low:g} is greater than max {high:g}")
            return None
        if mode == "grid":
            steps = raw.get("steps")
            if isinstance(steps, bool) or not isinstance(steps, int) or steps < 1:
                pb.add(
                    f"{path}.steps" if "steps" in raw else path,
                    f"a grid range needs 'steps', an integer >= 1 (got {steps!r})",
                )
                return None
            if steps > 1 and low == high:
                pb.add(path, f"min equals max ({low:g}) but steps is {steps}")
                return None
            return Axis(name, _linspace(float(low), float(high), steps))
        log = raw.get("log", False)
        if not isinstance(log, bool):
            pb.add(f"{path}.log", f"expected true or false, got {describe_value(log)}")
            return None
        if log and low <= 0:
            pb.add(path, f"a log range needs min > 0, got {low:g}")
            return None
        return Axis(name, (), float(low), float(high), log)
    if _check_value(pb, name, raw, path):
        return Axis(name, (raw,))
    return None


def parse_spec(text: str, source: str = "<string>", base_dir: str | Path = ".") -> SweepSpec:
    """Parse and validate spec text (:class:`SpecError` listing every problem).

    ``base_dir`` is where relative scene paths are looked up (the spec file's folder).
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        import re

        m = re.search(r"line (\d+)", str(exc))
        line = int(m.group(1)) if m else None
        raise SpecError(source, [InputProblem("toml", f"invalid TOML: {exc}", line)]) from None
    except RecursionError:
        raise SpecError(source, [InputProblem("toml", "nested too deeply", 1)]) from None
    except ValueError as exc:  # an integer of over 4300 digits (Python's int-str limit)
        raise SpecError(source, [InputProblem("toml", f"invalid TOML: {exc}", None)]) from None
    pb = ProblemCollector(LineIndex(text))
    pb.keys(data, _TOP_KEYS, "")
    sweep = data.get("sweep", {})
    params = data.get("parameters")
    if not isinstance(sweep, dict):
        pb.add("sweep", f"expected a table [sweep], got {describe_value(sweep)}")
        sweep = {}
    if not isinstance(params, dict):
        pb.add("parameters", 'missing table [parameters] (at least: scene = "NAME")')
        params = {}
    pb.keys(sweep, _SWEEP_KEYS, "sweep")

    mode = sweep.get("mode", "grid")
    if mode not in MODES:
        pb.add("sweep.mode", f"unknown mode {mode!r} (allowed: {', '.join(MODES)})")
        mode = "grid"
    ints: dict[str, int] = {}
    bounds = (("seed", 0, 0, MAX_SEED), ("repeats", 1, 1, MAX_RUNS), ("samples", None, 1, MAX_RUNS))
    for key, default, low, high in bounds:
        v = sweep.get(key, default)
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            pb.add(f"sweep.{key}", f"expected an integer in {low}..{high}, got {describe_value(v)}")
            continue
        ints[key] = v
    if mode == "random" and "samples" not in sweep:
        pb.add("sweep", "random mode needs 'samples', the number of runs")
    if mode == "grid" and "samples" in sweep:
        pb.add("sweep.samples", "'samples' is for mode = \"random\"; a grid runs every point")
    if mode == "random" and "repeats" in sweep:
        pb.add("sweep.repeats", "'repeats' is for mode = \"grid\"; use 'samples'")
    description = sweep.get("description", "")
    if not isinstance(description, str):
        pb.add("sweep.description", f"expected a string, got {describe_value(description)}")
        description = ""

    if mode == "grid":
        size = _grid_size(params, ints.get("repeats", 1))
        if size > MAX_RUNS:  # counted before any axis is materialised (also for --dry-run)
            pb.add("parameters", f"the grid has {size} runs; at most {MAX_RUNS} per sweep")
            raise SpecError(source, pb.problems)
    axes: list[Axis] = []
    pb.keys(params, list(PARAMETERS), "parameters")
    if params and "scene" not in params:
        pb.add("parameters", "missing 'scene' (a shipped scene name or a scene file path)")
    for name, raw in params.items():
        if name not in PARAMETERS:
            continue
        axis = _parse_axis(pb, name, raw, mode)
        if axis is not None:
            axes.append(axis)

    scene_texts: list[tuple[str, str]] = []
    scene_axis = next((a for a in axes if a.name == "scene"), None)
    if scene_axis is not None:
        for i, value in enumerate(scene_axis.values):
            got = _scene_text(value, Path(base_dir))
            where = "parameters.scene" + (f"[{i}]" if len(scene_axis.values) > 1 else "")
            if isinstance(got, str):
                pb.add(where, got)
                continue
            src, scene_text = got
            try:
                from tablesim.sim.scene import parse_scene

                loaded = parse_scene(scene_text, src)
            except InvalidSceneError as exc:
                pb.add(where, f"the scene does not load: {exc}")
                continue
            if not loaded.dynamic:
                pb.add(where, f"the scene {value!r} has no pieces that can move: nothing to judge")
                continue
            scene_texts.append((value, scene_text))

    if pb.problems:
        raise SpecError(source, pb.problems)
    spec = SweepSpec(
        source=source,
        mode=mode,
        seed=ints.get("seed", 0),
        axes=tuple(axes),
        repeats=ints.get("repeats", 1),
        samples=ints.get("samples", 0),
        description=description,
        scene_texts=tuple(scene_texts),
        base_dir=str(base_dir),
    )
    if spec.count > MAX_RUNS:
        raise SpecError(
            source,
            [InputProblem("parameters", f"{spec.count} runs; at most {MAX_RUNS} per sweep", None)],
        )
    return spec


def load_spec(path: str | Path) -> SweepSpec:
    """Load and validate a spec file (:class:`SpecError` listing every problem)."""
    p = Path(path)
    return parse_spec(read_text_file(p, SpecError, "spec"), str(p), p.parent)
