"""Per-game slices: each game's adapters to the engines, in one folder per game.

``sim/slices/<game>/`` holds what ties one game of ``games/`` to the physics, the view and the
environments: its referee (physics table), its drawing (state -> table layout), its window
controller, its action codec and observation features. ``sim/slices/common/`` holds what
several games share. The engines (``tablesim.sim.world``, ``tablesim.sim.statics``, ``tablesim.sim.verdict``,
``tablesim.sim.view.renderer``, ``tablesim.sim.referees.persistent_world``) know no game. The registry
(:mod:`tablesim.games.registry`, one :class:`tablesim.games.registry.GameSpec` per game) names these modules by
string and loads them when first used (``docs/architecture.md``).
"""
