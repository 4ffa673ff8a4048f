"""How a :class:`tablesim.sim.world.World` makes its bodies in PyBullet: the solver set-up, the
table and floor boxes, a scene piece's body, the surface every body gets, and the silent set-up
step that makes Bullet use the inertia we set (the reasons: :mod:`tablesim.sim.world`).

Split out of :mod:`tablesim.sim.world`; the numbers handed to Bullet come from
:mod:`tablesim.sim.world_layout`. :class:`BodyFactory` keeps no book of what it made.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from tablesim.sim.config import PhysicsConfig, Profile
from tablesim.sim.model import ScenePiece, matrix_to_quat
from tablesim.sim.world_bodies import Link
from tablesim.sim.world_layout import Body, exact_matmul, piece_layout


class BodyFactory:
    """Makes bodies in one world's client with its ``profile`` and physics ``config``."""

    def __init__(self, link: Link, profile: Profile, config: PhysicsConfig) -> None:
        self._link = link
        self.profile = profile
        self.config = config

    def configure(self) -> None:
        """Reset the client and set the profile's solver parameters and the scene's gravity."""
        p, cid, prof, cfg = self._link.p, self._link.client, self.profile, self.config
        p.resetSimulation(physicsClientId=cid)
        p.setPhysicsEngineParameter(
            fixedTimeStep=prof.time_step,
            numSolverIterations=prof.solver_iterations,
            numSubSteps=0,
            deterministicOverlappingPairs=int(prof.deterministic_pairs),
            warmStartingFactor=prof.warm_starting,
            contactSlop=prof.contact_slop,
            solverResidualThreshold=prof.solver_residual,
            physicsClientId=cid,
        )
        if prof.extra:
            from tablesim.sim.bullet import quiet_stdout

            with quiet_stdout():  # a solver change printf()s "switched solver"
                p.setPhysicsEngineParameter(**prof.extra, physicsClientId=cid)
        p.setGravity(0.0, 0.0, -cfg.gravity, physicsClientId=cid)

    def refresh_inertia(self, dynamic: Sequence[Body]) -> None:
        """Make PyBullet use the inertia we set from the very first step.

        PyBullet 3.2.7 does not refresh a rigid body's world-frame inverse inertia after
        ``changeDynamics(localInertiaDiagonal=...)``; it is recomputed only when the body's
        transform is integrated. Measured: the first step after building used the bounding-box
        inertia (angular response 35-45 % off for an L-tromino); every later step was exact. So we
        take one step with gravity off (nothing moves: the pieces are at rest and touch at zero
        distance), then put every body back to its built pose with zero velocity. The setup step
        is not counted in the world's time.
        """
        if not dynamic:
            return
        p, cid = self._link.p, self._link.client
        built = [self._link.body_pose(b) for b in dynamic]
        p.setGravity(0.0, 0.0, 0.0, physicsClientId=cid)
        p.stepSimulation(physicsClientId=cid)  # inside the build: this world's threshold
        for b, (pos, q) in zip(dynamic, built, strict=True):
            p.resetBasePositionAndOrientation(b.body, pos.tolist(), list(q), physicsClientId=cid)
            p.resetBaseVelocity(b.body, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], physicsClientId=cid)
        p.setGravity(0.0, 0.0, -self.config.gravity, physicsClientId=cid)

    def static_box(self, half: tuple[float, float, float], top: float) -> int:
        """A static box centred on the z axis with these half extents and its top face at
        z = ``top`` (the table, the floor), with the scene's surface; its body id."""
        p, cid = self._link.p, self._link.client
        shape = p.createCollisionShape(p.GEOM_BOX, halfExtents=list(half), physicsClientId=cid)
        body = p.createMultiBody(
            0.0, shape, -1, [0.0, 0.0, top - half[2]], [0.0, 0.0, 0.0, 1.0],
            useMaximalCoordinates=True, physicsClientId=cid,
        )  # fmt: skip
        self.set_surface(body, self.config.friction)
        return int(body)

    def set_surface(self, body: int, friction: float) -> None:
        """Friction, restitution and anchors common to every body (square roots: Bullet
        multiplies the two bodies' coefficients)."""
        p, cid = self._link.p, self._link.client
        p.changeDynamics(
            body,
            -1,
            lateralFriction=math.sqrt(friction),
            rollingFriction=0.0,
            spinningFriction=0.0,
            restitution=math.sqrt(self.profile.restitution),
            frictionAnchor=int(self.profile.friction_anchor),
            physicsClientId=cid,
        )
        if self.profile.contact_stiffness is not None:
            p.changeDynamics(
                body,
                -1,
                contactStiffness=self.profile.contact_stiffness,
                contactDamping=self.profile.contact_damping or 0.0,
                physicsClientId=cid,
            )

    def add_piece(self, piece: ScenePiece) -> Body:
        """Create a scene piece's body at its pose; its book-keeping."""
        p, cid, cfg = self._link.p, self._link.client, self.config
        r_piece = piece.rotation()
        lay = piece_layout(piece, cfg, r_piece)
        mass, com_local, moments, axes = lay.mass, lay.com_local, lay.moments, lay.axes
        r_body = exact_matmul(r_piece, axes)
        shape = p.createCollisionShapeArray(
            shapeTypes=[p.GEOM_BOX] * len(lay.halves),
            halfExtents=lay.halves,
            collisionFramePositions=lay.positions,
            collisionFrameOrientations=lay.orientations,
            physicsClientId=cid,
        )
        com_world = np.asarray(piece.position, dtype=float) + exact_matmul(r_piece, com_local)
        body = p.createMultiBody(
            mass,
            shape,
            -1,
            com_world.tolist(),
            list(matrix_to_quat(r_body)),
            # a single-link multibody when the profile asks (its contacts then go through
            # btMultiBodyConstraintSolver, and its MLCP variant: the "exact" profile)
            useMaximalCoordinates=piece.static or self.profile.maximal_coordinates,
            physicsClientId=cid,
        )
        friction = cfg.friction if piece.friction is None else piece.friction
        self.set_surface(body, friction)
        if not piece.static:
            prof = self.profile
            p.changeDynamics(
                body,
                -1,
                mass=mass,  # must come with localInertiaDiagonal (NaN bug otherwise)
                localInertiaDiagonal=[float(v) for v in moments],
                linearDamping=prof.linear_damping,
                angularDamping=prof.angular_damping,
                activationState=(
                    p.ACTIVATION_STATE_ENABLE_SLEEPING
                    if prof.sleeping
                    else p.ACTIVATION_STATE_DISABLE_SLEEPING
                ),
                physicsClientId=cid,
            )
        return Body(
            piece.id, body, piece.static, mass, com_local, axes, lay.q_axes, moments,
            lay.centres, lay.half_array,
        )  # fmt: skip
