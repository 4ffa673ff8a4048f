"""Physics (PyBullet), scenes, batch runs, the per-game slices and the command line of tablesim.

The physics entry point is :func:`tablesim.sim.verdict.simulate` (the public one: ``tablesim.simulate``);
``import sim`` stays light (it imports nothing).
"""
