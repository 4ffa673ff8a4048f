"""Sweep specs: grid order, random sampling, seeds, and errors with file, line and key."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import pytest
from conftest import ROOT

from tablesim.sim.experiments.sampling import run_parameters, run_seed
from tablesim.sim.experiments.spec import PARAMETERS, SpecError, load_spec, parse_spec


def spec(text: str, **kw):  # noqa: ANN003, ANN201
    return parse_spec(textwrap.dedent(text), "test.toml", **kw)


def test_grid_walks_the_product_last_axis_fastest_with_repeats():
    s = spec(
        """
        [sweep]
        repeats = 2
        [parameters]
        scene = ["cantilever-safe", "cantilever-tips"]
        seconds = 0.5
        friction = { min = 0.3, max = 0.6, steps = 4 }
        """
    )
    # 2 scenes x 1 x 4 frictions x 2 repeats
    assert s.count == 16
    assert s.axis("friction").values == (0.3, 0.4, 0.5, 0.6)
    expected = []
    for scene in ("cantilever-safe", "cantilever-tips"):
        for f in (0.3, 0.4, 0.5, 0.6):
            expected += [(scene, 0.5, f)] * 2
    got = [tuple(run_parameters(s, i).values()) for i in range(16)]
    assert got == expected
    assert list(run_parameters(s, 0)) == ["scene", "seconds", "friction"]  # file order
    with pytest.raises(IndexError):
        run_parameters(s, 16)


def test_run_seeds_depend_on_spec_seed_and_index_only():
    seeds = [run_seed(7, i) for i in range(1000)]
    assert len(set(seeds)) == 1000
    assert all(0 <= x < 2**63 for x in seeds)  # fits a signed 64-bit column
    assert run_seed(7, 5) == seeds[5]
    assert run_seed(8, 5) != seeds[5]


def test_random_sample_is_uniform_within_ranges_and_reproducible():
    s = spec(
        """
        [sweep]
        mode = "random"
        samples = 2000
        seed = 3
        [parameters]
        scene = "cantilever-safe"
        friction = { min = 0.3, max = 0.6 }
        density = { min = 100, max = 10000, log = true }
        sigma_mm = [0.0, 0.5, 1.0]
        replicas = 4
        """
    )
    assert s.count == 2000
    rows = [run_parameters(s, i) for i in range(2000)]
    fr = [r["friction"] for r in rows]
    assert all(0.3 <= v < 0.6 for v in fr)
    # uniform on [0.3, 0.6): mean 0.45, sd 0.3/sqrt(12); allow 5 standard errors
    assert abs(sum(fr) / len(fr) - 0.45) < 5 * 0.3 / math.sqrt(12) / math.sqrt(2000)
    # log-uniform on [100, 10000]: log10 is uniform on [2, 4], mean 3
    lg = [math.log10(r["density"]) for r in rows]
    assert all(2 <= v <= 4 for v in lg)
    assert abs(sum(lg) / len(lg) - 3) < 5 * 2 / math.sqrt(12) / math.sqrt(2000)
    # each of 3 choices with p = 1/3: 5 binomial standard errors
    for choice in (0.0, 0.5, 1.0):
        k = sum(r["sigma_mm"] == choice for r in rows)
        assert abs(k - 2000 / 3) < 5 * math.sqrt(2000 * (1 / 3) * (2 / 3))
    assert all(r["replicas"] == 4 and r["scene"] == "cantilever-safe" for r in rows)
    # run i does not depend on which other runs were computed, nor on parsing again
    again = spec(
        """
        [sweep]
        mode = "random"
        samples = 2000
        seed = 3
        [parameters]
        scene = "cantilever-safe"
        friction = { min = 0.3, max = 0.6 }
        density = { min = 100, max = 10000, log = true }
        sigma_mm = [0.0, 0.5, 1.0]
        replicas = 4
        """
    )
    assert run_parameters(again, 1234) == rows[1234]


def test_every_problem_is_listed_with_its_line_and_key():
    text = textwrap.dedent(
        """\
        [sweep]
        mode = "grdi"
        seed = -1

        [parameters]
        scene = "no-such-scene"
        frictoin = 0.4
        friction = { min = 0.3, max = 0.6 }
        replicas = 2.5
        sigma_mm = [0.1, -0.2]
        seconds = 0
        """
    )
    with pytest.raises(SpecError) as err:
        parse_spec(text, "bad.toml")
    found = {(p.path, p.line) for p in err.value.problems}
    assert ("sweep.mode", 2) in found
    assert ("sweep.seed", 3) in found
    assert ("parameters.scene", 6) in found
    assert ("parameters.frictoin", 7) in found
    assert ("parameters.friction", 8) in found  # a grid range without steps
    assert ("parameters.replicas", 9) in found
    assert ("parameters.sigma_mm[1]", 10) in found
    assert ("parameters.seconds", 11) in found
    msg = str(err.value)
    assert (
        "bad.toml:7: parameters.frictoin: unknown key 'frictoin' (did you mean 'friction'?" in msg
    )
    assert "bad.toml:2: sweep.mode: unknown mode 'grdi' (allowed: grid, random)" in msg
    assert "shipped: " in msg and "cantilever-safe" in msg


@pytest.mark.parametrize(
    ("body", "key", "words"),
    [
        ('[parameters]\nscene = "kozo-tower"\nprofile = "fast"\n', "parameters.profile", "allowed"),
        ("[parameters]\nseconds = 1\n", "parameters", "missing 'scene'"),
        ('[sweep]\nmode = "random"\n[parameters]\nscene = "kozo-tower"\n', "sweep", "samples"),
        (
            '[parameters]\nscene = "kozo-tower"\nreplicas = {min = 1, max = 4}\n',
            "parameters.replicas",
            "not a range",
        ),
        (
            '[parameters]\nscene = "kozo-tower"\nfriction = {min = 0.6, max = 0.3, steps = 2}\n',
            "parameters.friction",
            "greater than max",
        ),
        (
            '[parameters]\nscene = "kozo-tower"\nfriction = [0.3, 0.3]\n',
            "parameters.friction",
            "repeated",
        ),
        ('[parameters]\nscene = "kozo-tower"\nfriction = []\n', "parameters.friction", "empty"),
        ('[parameters]\nscene = "kozo-tower"\ndensity = 0\n', "parameters.density", "> 0"),
        ('[parameters]\nscene = "kozo-tower"\nstep_ms = 50\n', "parameters.step_ms", "<= 20"),
        ("[parameters\n", "toml", "invalid TOML"),
    ],
)
def test_single_problems_name_key_and_fix(body: str, key: str, words: str):
    with pytest.raises(SpecError) as err:
        parse_spec(body, "x.toml")
    assert [p.path for p in err.value.problems] == [key]
    assert words in err.value.problems[0].message


def test_scene_paths_are_relative_to_the_spec_file(tmp_path: Path):
    (tmp_path / "sub").mkdir()
    scene = (ROOT / "scenes" / "cantilever-safe.toml").read_text()
    (tmp_path / "sub" / "mine.toml").write_text(scene)
    f = tmp_path / "spec.toml"
    f.write_text('[parameters]\nscene = "sub/mine.toml"\nfriction = [0.3, 0.5]\n')
    s = load_spec(f)
    assert s.count == 2 and run_parameters(s, 1) == {"scene": "sub/mine.toml", "friction": 0.5}
    # the fingerprint follows the scene file's content
    (tmp_path / "sub" / "mine.toml").write_text(scene.replace("11.3, 11.1", "11.0, 11.1"))
    assert load_spec(f).to_json() != s.to_json()


def test_a_scene_that_does_not_load_is_a_spec_problem(tmp_path: Path):
    (tmp_path / "broken.toml").write_text("[[piece]]\npiece = 'nope:1'\nat = [0, 0, 0]\n")
    f = tmp_path / "s.toml"
    f.write_text('[parameters]\nscene = "broken.toml"\n')
    with pytest.raises(SpecError) as err:
        load_spec(f)
    assert err.value.problems[0].line == 2
    assert "does not load" in err.value.problems[0].message


def test_every_scene_physics_key_is_a_parameter():
    from tablesim.sim.scene import PHYSICS_KEYS

    assert set(PHYSICS_KEYS) <= set(PARAMETERS)
    assert {"scene", "seconds", "replicas", "step_ms", "sigma_mm", "sigma_deg"} <= set(PARAMETERS)


def test_shipped_example_specs_load():
    files = sorted((ROOT / "experiments").glob("*.toml"))
    assert files
    for f in files:
        assert load_spec(f).count >= 1
