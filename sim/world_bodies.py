"""The connection and the book-keeping of a :class:`tablesim.sim.world.World`: its PyBullet client
(:class:`Link`) and which body is which piece (:class:`BodyBook`).

Split out of :mod:`tablesim.sim.world` (which re-exports :data:`TABLE` and :data:`FLOOR`); the
world's other collaborators (:mod:`tablesim.sim.world_build`, :mod:`tablesim.sim.world_reads`,
:mod:`tablesim.sim.world_contacts`) read the bodies through these two.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import numpy as np

from tablesim.sim.config import PYBULLET_CONTACT_BREAKING_THRESHOLD
from tablesim.sim.guard import FLOOR_DEPTH_M, ROOM_HALF_M
from tablesim.sim.world_layout import Body

TABLE = "table"
"""Name of the table top in :meth:`tablesim.sim.world_contacts.Contacts.contacts_with_static`."""
FLOOR = "floor"
"""Name of the room's floor in :meth:`tablesim.sim.world_contacts.Contacts.contacts_with_static`
(once it is laid)."""

TABLE_HALF = (2.0, 2.0, 0.05)
"""Half extents (m) of the static table box whose top face is z = 0.

A box rather than a ``GEOM_PLANE``: box-box contacts come from Bullet's box-box detector, which
gives a full face manifold (up to 4 points) in one step, and table contacts then take the same
code path as piece-on-piece contacts. Measured against a plane (verdict / display profiles):
resting penetration of a cube 0.0103 vs 0.0106 mm; sliding distance at 0.5 m/s 28.11 vs 28.12 mm
(theory 28.32); four pieces resting on the table 5 s (verdict) drift 0.085 vs 0.048 mm, 10 s
(display) 0.0002 mm both; 28 vs 25 contact points; tilted pieces dropped 5 cm come to rest the
same. No measurable difference, so the box wins on uniformity. 4 m square, 10 cm thick."""
FLOOR_HALF = (ROOM_HALF_M, ROOM_HALF_M, 0.05)
"""Half extents (m) of the floor box, whose top face is ``FLOOR_DEPTH_M`` below the table top."""
FLOOR_TOP = -FLOOR_DEPTH_M
"""Height (m) of the floor's top face."""


class Link:
    """A world's PyBullet module and client id: ``p`` and :attr:`client` (RuntimeError once
    closed); ``owns`` whether :meth:`close` disconnects it (a lent client is left connected)."""

    def __init__(self, p: Any, cid: int, owns: bool) -> None:
        self.p = p
        self._cid: int | None = cid
        self.owns = owns

    @property
    def client(self) -> int:
        """The PyBullet client id (RuntimeError once closed)."""
        if self._cid is None:
            raise RuntimeError("this World is closed")
        return self._cid

    @property
    def closed(self) -> bool:
        """True once :meth:`close` has run."""
        return self._cid is None

    def close(self) -> None:
        """Disconnect the client, unless it was lent (idempotent)."""
        if self._cid is not None:
            try:
                if self.owns:
                    self.p.disconnect(physicsClientId=self._cid)
            finally:
                self._cid = None

    def body_pose(self, b: Body) -> tuple[np.ndarray, tuple[float, float, float, float]]:
        """A body's centre of mass (3,) m and body quaternion (x, y, z, w)."""
        pos, q = self.p.getBasePositionAndOrientation(b.body, physicsClientId=self.client)
        return np.asarray(pos, dtype=float), tuple(q)

    @contextlib.contextmanager
    def breaking_threshold(self, thr: float) -> Iterator[None]:
        """Run the block with contact breaking threshold ``thr``, then put PyBullet's back
        (:meth:`tablesim.sim.world.World._own_breaking_threshold` says why)."""
        p, cid = self.p, self.client
        p.setPhysicsEngineParameter(contactBreakingThreshold=thr, physicsClientId=cid)
        try:
            yield
        finally:
            if thr != PYBULLET_CONTACT_BREAKING_THRESHOLD and self._cid is not None:
                p.setPhysicsEngineParameter(
                    contactBreakingThreshold=PYBULLET_CONTACT_BREAKING_THRESHOLD,
                    physicsClientId=cid,
                )


class BodyBook:
    """Which PyBullet body is which piece: every piece's :class:`Body` in creation order
    (``all``), by piece id and by body id, the dynamic ones (``dynamic``: the row order of every
    array a world returns), the static bodies' names (``static_names``: static pieces, then the
    table, then the floor once laid), and the table's and floor's body ids."""

    def __init__(self, bodies: list[Body], table: int | None) -> None:
        self.all = bodies
        self.by_id = {b.piece_id: b for b in bodies}
        self.by_body = {b.body: b for b in bodies}
        self.dynamic = [b for b in bodies if not b.static]
        self.static_names: dict[int, str] = {b.body: b.piece_id for b in bodies if b.static}
        self.table = table
        if table is not None:
            self.static_names[table] = TABLE
        self.floor: int | None = None
        self._radii_cache: tuple[tuple[int, ...], np.ndarray] | None = None
        """:meth:`radii`: (the dynamic body ids, the radii)."""

    def enter(self, body: Body) -> None:
        """Enter a new dynamic body last."""
        self.all.append(body)
        self.by_id[body.piece_id] = body
        self.by_body[body.body] = body
        self.dynamic.append(body)

    def drop(self, body: Body) -> None:
        """Take a body (already out of :attr:`by_id`) out of the other lists."""
        self.all.remove(body)
        self.dynamic.remove(body)
        del self.by_body[body.body]

    def lay_floor(self, floor: int) -> None:
        """Note the floor's body."""
        self.floor = floor
        self.static_names[floor] = FLOOR

    def piece_id(self, body: int) -> str:
        """Piece id of a PyBullet body (``"table"`` for the table; KeyError if unknown)."""
        if body == self.table:
            return TABLE
        return self.by_body[body].piece_id

    def dynamic_body(self, piece_id: str) -> Body:
        """A dynamic piece's body (KeyError if unknown, ValueError if static)."""
        b = self.by_id[piece_id]
        if b.static:
            raise ValueError(f"piece {piece_id!r} is static")
        return b

    def radii(self) -> np.ndarray:
        """Radius (m) of a sphere about each dynamic piece's centre of mass that holds all its
        collision boxes, shape (n,); rebuilt when pieces were added or removed."""
        key = tuple(b.body for b in self.dynamic)
        cached = self._radii_cache
        if cached is None or cached[0] != key:
            radii = [
                float(
                    (
                        np.linalg.norm(b.box_centres, axis=1) + np.linalg.norm(b.box_halves, axis=1)
                    ).max(initial=0.0)
                )
                for b in self.dynamic
            ]
            cached = self._radii_cache = (key, np.array(radii, dtype=float))
        return cached[1]
