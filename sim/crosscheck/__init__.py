"""A second physics engine as an independent witness of the verdicts (issue #19).

:mod:`tablesim.sim.crosscheck.mujoco_world` builds a :class:`tablesim.sim.model.Scene` in MuJoCo (the optional
``[crosscheck]`` extra) with the same boxes, masses, inertias, friction and clearance as
:class:`tablesim.sim.world.World`, and applies the same topple rule; :mod:`tablesim.sim.crosscheck.cases` generates
the analytic cases (stacks, leaning stacks, cantilevers, bridges) with their margins worked out by
hand. ``bench/crosscheck.py`` runs both engines over the shipped scenes and these cases and prints
where they agree. MuJoCo never decides a game; it only checks PyBullet.
"""
