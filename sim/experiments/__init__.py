"""Experiments at scale: stability sweeps and bot tournaments on all cores or a Ray cluster.

- :mod:`.spec`: sweep spec files (TOML) -> :class:`SweepSpec`, with file/line/key errors;
- :mod:`.sampling`: the parameters and seed of run ``i`` (grid or seeded random sample);
- :mod:`.sweep` / :mod:`.tournament`: the jobs (one row per run, a pure function of ``i``);
- :mod:`.executors`: local process pool or Ray; :mod:`.runner`: resume, progress, final table;
- :mod:`.results`: the journal and the CSV/Parquet files; :mod:`.plot`: PNG figures.

See ``docs/experiments.md``. Nothing here imports PyBullet, Ray or pyarrow at import time.
"""
