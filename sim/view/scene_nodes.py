"""The nodes of the items on the table (:class:`NodeBuilder`): triangles cached by shape (a ghost
drawn again elsewhere builds nothing), materials and textures by finish (plank grain, cube
grooves, printed faces), and moving or recolouring a node in place.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import numpy as np

from tablesim.sim.view.art import grain_texture, groove_texture, wood_color
from tablesim.sim.view.layout import Item
from tablesim.sim.view.panda_nodes import _geom, _item_box, _material, _split_to, _texture
from tablesim.sim.view.shadows import face_rows

if TYPE_CHECKING:
    from tablesim.sim.view.renderer import Renderer

GEOM_CACHE = 512
"""Meshes (shape, finish, faces) whose triangles a renderer keeps for items drawn again."""


TABLE_SPLITS = 4
"""Times the table top's triangles are split in four before drawing (4: 512 triangles).
p3tinydisplay interpolates texture coordinates across a triangle in fixed point: across the
one quad of a 1-2 m table top seen at a slant they drift by several texels (the plank joints
bent), and the drift depends on where the triangle was clipped, so a rectangle drawn on its
own (:meth:`~tablesim.sim.view.frame_draw.FrameDrawer.draw_rects`) showed seams. Small
triangles keep both right."""


MAX_TEXTURED_EDGE = 0.03
"""Longest triangle edge (m) of the other wooden or printed surfaces (boards, pads, tiles),
for the same reason as :data:`TABLE_SPLITS`; cube faces with grooves are small already."""


class NodeBuilder:
    """Builds and restyles the item nodes of one renderer ``r`` (its nodes, parts and shape
    tokens by item id)."""

    def __init__(self, r: Renderer) -> None:
        self.r: Renderer = weakref.proxy(r)  # no cycle: a closed renderer is freed at once
        self._geom_cache: OrderedDict[tuple[Any, ...], tuple[int, tuple[tuple[str, Any], ...]]]
        self._geom_cache = OrderedDict()
        self._geom_tokens = 0
        self._wood_tex = _texture("wood", grain_texture(), repeat=True)
        self._groove_tex = _texture("groove", groove_texture(), repeat=False)

    def geoms(self, item: Item) -> tuple[int, tuple[tuple[str, Any], ...]]:
        """(shape token, ((face key, Geom), ...)) of ``item``: cached by the mesh's content,
        finish, cube edge and printed faces, so a ghost drawn again at another place or in
        another colour builds nothing (the table's own planks are scaled apart)."""
        v = np.ascontiguousarray(item.mesh.vertices, dtype=float)
        f = np.ascontiguousarray(item.mesh.faces)
        key = (item.id == "__table__", v.tobytes(), f.tobytes(), item.finish, item.edge,
               tuple(item.faces))  # fmt: skip
        hit = self._geom_cache.get(key)
        if hit is not None:
            self._geom_cache.move_to_end(key)
            return hit
        if item.id == "__table__" and TABLE_SPLITS > 0:
            mesh = item.mesh
            for _ in range(TABLE_SPLITS):  # the top only: the sides are thin, the bottom unseen
                mesh = mesh.subdivide(np.nonzero(mesh.face_normals[:, 2] > 0.999)[0])
            v, f = np.asarray(mesh.vertices, dtype=float), np.asarray(mesh.faces)
        elif item.finish != "groove" and len(f):
            v, f = _split_to(v, f, MAX_TEXTURED_EDGE)
        groups = face_rows(v, f, finish=item.finish, edge=item.edge, printed=tuple(item.faces))
        if item.id == "__table__":  # wider planks on the table than on blocks
            groups[""][:, 6:8] *= 0.3 / 0.45
        self._geom_tokens += 1
        made = (
            self._geom_tokens,
            tuple((k, _geom(k or "body", rows)) for k, rows in groups.items()),
        )
        self._geom_cache[key] = made
        while len(self._geom_cache) > GEOM_CACHE:
            self._geom_cache.popitem(last=False)
        return made

    def surface(self, key: str, item: Item) -> tuple[Any, Any]:
        """(material, texture) of one part of ``item``: a printed face (key), else its finish."""
        if key:
            return _material((1.0, 1.0, 1.0)), _texture(
                f"{item.id}{key}", item.faces[key], repeat=False
            )
        if item.finish == "groove":
            return _material(item.color, item.alpha), self._groove_tex
        if item.finish == "wood":
            return _material(wood_color(item.color), item.alpha), self._wood_tex
        return _material(item.color, item.alpha), None

    def attach(self, item: Item, parent: Any, picture_bin: int | None = None) -> Any:
        """Build the node of ``item`` under ``parent`` (posed, its parts coloured); pictures
        of a shadow receiver go to ``picture_bin`` of the background bin."""
        from panda3d.core import GeomNode, LQuaternionf, TransparencyAttrib

        token, geoms = self.geoms(item)
        node = parent.attach_new_node(item.id)
        node.set_pos(*item.position)
        x, y, z, qw = item.quat
        node.set_quat(LQuaternionf(qw, x, y, z))
        parts = []
        for key, geom in geoms:
            gn = GeomNode(f"{item.id}{key}")
            gn.add_geom(geom)  # shared with every item of the same shape
            child = node.attach_new_node(gn)
            mat, tex = self.surface(key, item)
            child.set_material(mat)
            if tex is not None:
                child.set_texture(tex)
            if key and picture_bin is not None:
                child.set_bin("background", picture_bin)
            if item.alpha < 1.0:  # blended over the opaque scene, drawn after it
                child.set_transparency(TransparencyAttrib.M_alpha)
            parts.append((key, child))
        self.r._nodes[item.id] = node
        self.r._parts[item.id] = parts
        self.r._shape[item.id] = token
        return node

    def restyle(self, old: Item, new: Item) -> None:
        """Move and recolour the node of ``old`` to show ``new`` (same shape and finish)."""
        from panda3d.core import LQuaternionf, TransparencyAttrib

        node = self.r._nodes[new.id]
        if new.position != old.position or new.quat != old.quat or new.color != old.color:
            self.r._damage.extend((_item_box(old), _item_box(new)))
        if new.position != old.position:
            node.set_pos(*new.position)
        if new.quat != old.quat:
            x, y, z, qw = new.quat
            node.set_quat(LQuaternionf(qw, x, y, z))
        if new.color != old.color or new.alpha != old.alpha:
            if new.alpha != old.alpha:
                self.r._damage.extend((_item_box(old), _item_box(new)))
            for key, child in self.r._parts[new.id]:
                if not key:
                    child.set_material(self.surface(key, new)[0])
                if new.alpha != old.alpha:
                    if new.alpha < 1.0:
                        child.set_transparency(TransparencyAttrib.M_alpha)
                    else:
                        child.clear_transparency()
