"""The contact reads of a :class:`tablesim.sim.world.World`: which pieces touch which static bodies (the
topple rule's clause 1), touching pairs, penetrations, and the bounds that let most pairs go
unasked.

:class:`Contacts` is composed by :class:`tablesim.sim.world.World` (``world.contacts``; the world
re-exports the constants and :class:`ContactCheck`); it reads the world's book-keeping
(:class:`tablesim.sim.world_bodies.BodyBook`) and PyBullet client and changes no solver state.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from tablesim.sim.model import quat_to_matrix
from tablesim.sim.world_bodies import (
    FLOOR,
    FLOOR_HALF,
    FLOOR_TOP,
    TABLE,
    TABLE_HALF,
    BodyBook,
    Link,
)
from tablesim.sim.world_layout import Body

if TYPE_CHECKING:
    from tablesim.sim.world_reads import BodyStates, PoseReads

_DISTANCE = operator.itemgetter(8)  # of a getContactPoints tuple: the contact distance (m)
CULL_SLACK = 1e-3
"""Extra distance (m) under which :meth:`Contacts.check_contacts` still asks PyBullet for closest
points although the bounds say the pair is apart: the bounds hold the exact boxes, so this only
covers rounding (1e-15 m) and GJK's convergence (1e-9 m) many times over."""
NEAR_MARGIN = 1e-3
"""How far (m) the centres of mass may move before :meth:`Contacts.check_contacts` recomputes which
piece-static pairs may be close (:meth:`Contacts._near_pairs`): pairs within ``NEAR_MARGIN`` more
are kept and asked about, a few closest-point queries more against a dozen array operations per
check."""
CONTACT_TOLERANCE = 0.05e-3
"""Default distance (m) under which two bodies count as touching: well below the 0.2 mm clearance,
so grid neighbours across the gap do not count, and well above resting penetration (0.01 mm)."""
BOX_MARGIN = 1e-3
"""PyBullet's collision margin of a ``GEOM_BOX`` (m), whatever its size (measured: a cube of half
edge 5.1 to 50 mm standing on its edge at 45 degrees is reported (sqrt 2 - 1) mm from the table).
The margin lies inside the box, so the solver's box-box detector sees the exact box, but the
closest-point query (GJK) sees the box with its edges and corners **rounded** to this radius. An
edge of a box resting on a face tilted by theta is therefore reported r (sin theta + cos theta - 1)
away (0.276 mm at 19.5 degrees, a corner up to (sqrt 3 - 1) r = 0.73 mm) although it touches:
why :meth:`Contacts.contacts_with_static` also reads the solver's contact points."""


@dataclass(frozen=True)
class ContactCheck:
    """What :meth:`Contacts.check_contacts` read: ``new`` (dynamic id, static id) pairs touching
    now and not in the caller's known set; ``max_penetration`` as :meth:`Contacts.max_penetration`."""

    new: set[tuple[str, str]]
    max_penetration: float


class Contacts:
    """Contact queries over a world's bodies (:attr:`tablesim.sim.world.World.contacts`): they
    read the book-keeping and the client and change no solver state.

    Keeps the static bodies' bounding boxes (they never move; :meth:`statics_changed` when one
    is added) and the near pairs of :meth:`check_contacts`."""

    def __init__(self, link: Link, book: BodyBook, reads: PoseReads) -> None:
        self._link = link
        self._book = book
        self._reads = reads
        self._near_cache: tuple[float, list[Body], np.ndarray, list[tuple[int, int]]] | None = None
        """:meth:`_near_pairs`: (``within``, the dynamic bodies, their centres of mass, pairs)."""
        self._aabbs = self._static_bounds()

    def statics_changed(self) -> None:
        """A static body was added (the floor): rebuild the bounds and forget the near pairs
        (their static indices are the old ones)."""
        self._aabbs = self._static_bounds()
        self._near_cache = None

    def _static_bounds(self) -> tuple[list[int], list[str], np.ndarray, np.ndarray]:
        """World-axis bounding boxes of the static bodies (they never move): body ids, names
        (as in :meth:`contacts_with_static`), lower and upper corners, shapes (s, 3)."""
        bodies, names, lo, hi = [], [], [], []
        for body, name, halves, top in (
            (self._book.table, TABLE, TABLE_HALF, 0.0),
            (self._book.floor, FLOOR, FLOOR_HALF, FLOOR_TOP),
        ):
            if body is None:
                continue
            half = np.asarray(halves)
            centre = np.array([0.0, 0.0, top - halves[2]])
            bodies.append(body)
            names.append(name)
            lo.append(centre - half)
            hi.append(centre + half)
        for b in self._book.all:
            if not b.static:
                continue
            com, q = self._link.body_pose(b)
            rot = quat_to_matrix(q)
            centres = com + b.box_centres @ rot.T
            ext = b.box_halves @ np.abs(rot @ b.axes.T).T
            bodies.append(b.body)
            names.append(b.piece_id)
            lo.append((centres - ext).min(axis=0))
            hi.append((centres + ext).max(axis=0))
        shape = (len(bodies), 3)
        return bodies, names, np.reshape(lo, shape), np.reshape(hi, shape)

    def penetration(self, piece_id: str, tolerance: float = 0.0) -> float:
        """Deepest penetration (m, >= 0) of a piece into any other body or the table."""
        return self.deepest_penetration(piece_id, tolerance)[0]

    def deepest_penetration(
        self, piece_id: str, tolerance: float = 0.0
    ) -> tuple[float, np.ndarray]:
        """:meth:`penetration` and the contact normal at the deepest point, pointing from the
        other body into the piece (the way out; zeros when nothing penetrates)."""
        p, cid = self._link.p, self._link.client
        me = self._book.by_id[piece_id].body
        others = [b.body for b in self._book.all if b.body != me]
        if self._book.table is not None:
            others.append(self._book.table)
        worst, deepest = 0.0, None
        for other in others:
            for pt in p.getClosestPoints(me, other, tolerance, physicsClientId=cid):
                if -pt[8] > worst:
                    worst, deepest = -pt[8], pt
        return worst, np.zeros(3) if deepest is None else np.asarray(deepest[7], float)

    @property
    def static_bodies(self) -> list[int]:
        """Body ids of the static bodies (the table, a floor once laid, the static pieces): the
        columns of :meth:`static_distance_bounds`, the table first (a copy)."""
        return list(self._aabbs[0])

    def static_distance_bounds(self, states: BodyStates | None = None) -> np.ndarray:
        """Lower bounds (m) of the distance between each dynamic piece and each static body,
        shape (n, s), statics in the order of :attr:`static_bodies` (the table first): the gap
        between the sphere about the piece's centre of mass that holds its boxes
        (:meth:`tablesim.sim.world_bodies.BodyBook.radii`) and the static body's bounding box. Negative where they overlap."""
        slo, shi = self._aabbs[2:]
        com = (self._reads.states() if states is None else states).com
        gap = np.maximum(0.0, np.maximum(slo[None] - com[:, None], com[:, None] - shi[None]))
        return np.sqrt((gap * gap).sum(axis=2)) - self._book.radii()[:, None]

    def check_contacts(
        self,
        known: set[tuple[str, str]] | frozenset[tuple[str, str]] = frozenset(),
        states: BodyStates | None = None,
        tolerance: float = CONTACT_TOLERANCE,
    ) -> ContactCheck:
        """The topple rule's contact read at one instant: ``contacts_with_static(tolerance) -
        known`` and :meth:`max_penetration`, exactly, from one read of the solver's manifold.

        Closest-point queries are made only for pairs outside ``known`` (the caller subtracts
        them anyway) that may be close: a dynamic piece lies inside a sphere about its centre of
        mass (:meth:`tablesim.sim.world_bodies.BodyBook.radii`) and a static body inside its box (built once), and a pair whose
        sphere and box are more than ``tolerance + CULL_SLACK`` apart cannot be within
        ``tolerance`` (the closest-point distance never undercuts the exact one), so skipping it
        changes no answer. Like :meth:`contacts_with_static` it changes no solver state."""
        p, cid = self._link.p, self._link.client
        new: set[tuple[str, str]] = set()
        pen = 0.0
        pts = p.getContactPoints(physicsClientId=cid)
        statics = self._book.static_names
        if pts:
            pen = -min(map(_DISTANCE, pts))  # = max(-d): negation is exact
            by_body = self._book.by_body
            touching = {  # body pairs, once each (a face on the table gives 4 points)
                (pt[1], pt[2])
                for pt in pts
                if pt[8] <= tolerance and (pt[1] in statics or pt[2] in statics)
            }
            for a, b in touching:
                for dyn, other in ((a, b), (b, a)):
                    if other in statics and dyn in by_body and not by_body[dyn].static:
                        pair = (by_body[dyn].piece_id, statics[other])
                        if pair not in known:
                            new.add(pair)
        sbodies, snames = self._aabbs[:2]
        if self._book.dynamic and sbodies:
            for i, j in self._near_pairs(states, tolerance + CULL_SLACK):
                b, sname = self._book.dynamic[i], snames[j]
                pair = (b.piece_id, sname)
                if pair in known or pair in new:
                    continue
                hits = p.getClosestPoints(b.body, sbodies[j], tolerance, physicsClientId=cid)
                if hits and any(pt[8] <= tolerance for pt in hits):
                    new.add(pair)
        return ContactCheck(new, pen)

    def _near_pairs(self, states: BodyStates | None, within: float) -> list[tuple[int, int]]:
        """(dynamic index, static index) pairs, among them every pair whose distance bound
        (:meth:`static_distance_bounds`) is ``within`` or less now.

        The bounds are computed with :data:`NEAR_MARGIN` more and kept with the centres of
        mass they were computed at; while no centre of mass has moved more than the margin
        since, the kept pairs still hold every near one (a bound shrinks at most as fast as
        the centre moves: the sphere turns with the piece), so a check costs one array
        operation instead of a dozen. Pieces added or removed, or another ``within``, rebuild
        them."""
        st = self._reads.states() if states is None else states
        dyn, cached = self._book.dynamic, self._near_cache
        if (
            cached is not None
            and cached[0] == within
            and len(cached[1]) == len(dyn)
            and all(map(operator.is_, cached[1], dyn))
        ):
            moved = float(np.abs(st.com - cached[2]).max())  # NaN: not <=, rebuilt below
            if moved * math.sqrt(3.0) <= NEAR_MARGIN:
                return cached[3]
        near = self.static_distance_bounds(st) <= within + NEAR_MARGIN
        pairs = [(int(i), int(j)) for i, j in zip(*np.nonzero(near), strict=True)]
        self._near_cache = (within, list(dyn), st.com.copy(), pairs)
        return pairs

    def contacts_with_static(self, tolerance: float = CONTACT_TOLERANCE) -> set[tuple[str, str]]:
        """Pairs (dynamic piece id, static piece id or ``"table"``) closer than ``tolerance`` (m).

        A pair touches when either of two measures says so:

        * a fresh closest-point query (``getClosestPoints``) finds a distance <= ``tolerance``.
          It sees boxes with edges rounded by :data:`BOX_MARGIN`, so it is exact for faces on
          faces but misses an edge or a corner resting on a face (a bar lying at 19.5 degrees
          with its end on the table is reported 0.27 mm away);
        * the solver's contact manifold of the last step (``getContactPoints``) holds a point at
          distance <= ``tolerance``. Those points come from Bullet's box-box detector on the exact
          boxes, which creates a point only where the boxes overlap or touch (measured: none at
          a gap of 1 nm), so an edge resting on a face is found; it keeps a point while the
          bodies stay within the contact breaking threshold, hence the distance filter.

        Either measure alone only ever reports pieces that really touch (the closest-point
        distance is never smaller than the exact one; a manifold point is made on contact), so
        their union is the exact contact set. Before the first step the manifold is the one of the
        world's silent setup step at the built poses, so the set is valid then too. Neither query
        changes the solver's state, so calling this does not disturb determinism.
        """
        p, cid = self._link.p, self._link.client
        out: set[tuple[str, str]] = set()
        for pt in p.getContactPoints(physicsClientId=cid):
            if pt[8] > tolerance:
                continue
            for dyn, other in ((pt[1], pt[2]), (pt[2], pt[1])):
                if other in self._book.static_names and dyn in self._book.by_body:
                    b = self._book.by_body[dyn]
                    if not b.static:
                        out.add((b.piece_id, self._book.static_names[other]))
        for b in self._book.dynamic:
            for sbody, sname in self._book.static_names.items():
                if (b.piece_id, sname) in out:
                    continue
                pts = p.getClosestPoints(b.body, sbody, tolerance, physicsClientId=cid)
                if pts and any(pt[8] <= tolerance for pt in pts):
                    out.add((b.piece_id, sname))
        return out

    def contact_pairs(self) -> set[tuple[str, str]]:
        """All touching pairs in the solver's last step, as sorted id pairs (penetrating or within
        :data:`CONTACT_TOLERANCE`)."""
        out: set[tuple[str, str]] = set()
        for pt in self._link.p.getContactPoints(physicsClientId=self._link.client):
            if pt[8] <= CONTACT_TOLERANCE:
                a, b = sorted((self._book.piece_id(pt[1]), self._book.piece_id(pt[2])))
                out.add((a, b))
        return out

    def max_penetration(self) -> float:
        """Deepest penetration (m, >= 0) over all contact points of the last step."""
        pts = self._link.p.getContactPoints(physicsClientId=self._link.client)
        return max((-pt[8] for pt in pts), default=0.0) if pts else 0.0
