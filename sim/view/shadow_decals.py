"""The tiny backend's faked shadows as decals (:class:`FakeShadows`, one per
:class:`~tablesim.sim.view.renderer.Renderer`).

Each shadow-receiving plane (the table, level boards) gets one translucent black decal whose
alpha map :func:`tablesim.sim.view.shadows.shadow_mask` computes from the casters' triangles
("baked"); casters that move on their own (a ghost following the pointer) get small decals of
their own on the same grid ("the moving layer"), so a still table is not shaded again each
frame. The gl backend uses a real shadow map instead (:mod:`tablesim.sim.view.lights`).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from tablesim.sim.view.panda_nodes import _bounds_of, _geom_node
from tablesim.sim.view.shadows import SHADOW_BLUR, SHADOW_TEXEL, grid_mask, shadow_mask

if TYPE_CHECKING:
    from tablesim.sim.view.renderer import Renderer

MOVING_SHADOW_COARSE = 4
"""Texel size factor of the tiny backend's faked shadows in a frame whose poses changed."""


LAYER_MAX_TEXELS = 512
"""Largest side (texels) of a moving item's own shadow decal; past it the moving items go into
the baked decals, coarse."""


DECAL_TILE = 64
"""Side (texels) of the tiles a shadow decal is cut into; tiles without shadow are not drawn."""


@lru_cache(maxsize=1)
def _over_baked() -> np.ndarray:
    """(256, 256) uint8: [baked alpha s, moving alpha g] -> the alpha that, blended over the
    baked decal, makes the two as dark as the darker one: ``1 - (1 - max(s, g)) / (1 - s)``
    (the faked shadows' alpha never reaches 255)."""
    s = np.arange(256, dtype=float)[:, None] / 255.0
    g = np.arange(256, dtype=float)[None, :] / 255.0
    out = 1.0 - (1.0 - np.maximum(s, g)) / np.maximum(1.0 - s, 1.0 / 255.0)
    return np.clip(np.rint(out * 255), 0, 255).astype(np.uint8)


def _decal_rows(
    alpha: np.ndarray,
    texel: float,
    lo: np.ndarray,
    z: float,
    hidden: Sequence[tuple[np.ndarray, np.ndarray]] = (),
) -> np.ndarray:
    """Vertex rows (position, normal, uv) of a decal at height ``z`` covering only the tiles
    of ``alpha`` (rows bottom-up) that carry some shadow and can be seen.

    A full-area decal is alpha-blended over every pixel of its rectangle, mostly where its
    alpha is 0 or where a board lying on the table hides it (p3tinydisplay pays per pixel: the
    table's decal was 5 ms of a 12 ms frame at 960x540). Tiles of :data:`DECAL_TILE` texels
    with no shadow in them or in a neighbouring tile (the texture filter reads across tile
    borders) are left out, and so are those wholly inside a rectangle of ``hidden`` (x, y
    lo..hi: what boards resting on the plane cover). The uv of a tile's corners are those of
    the whole quad at that place, so the picture is the same."""
    h, w = alpha.shape
    t = DECAL_TILE
    ny, nx = -(-h // t), -(-w // t)
    padded = np.zeros((ny * t, nx * t), dtype=bool)
    padded[:h, :w] = alpha > 0
    lit = np.asarray(padded.reshape(ny, t, nx, t).any(axis=(1, 3)), dtype=bool)
    # and the neighbours of a shadowed tile: the filter reads across tile borders
    keep = lit.copy()
    keep[1:] |= lit[:-1]
    keep[:-1] |= lit[1:]
    keep[:, 1:] |= keep[:, :-1].copy()
    keep[:, :-1] |= keep[:, 1:].copy()
    x0 = lo[0] + np.arange(nx) * t * texel
    y0 = lo[1] + np.arange(ny) * t * texel
    for hlo, hhi in hidden:
        inside_x = (x0 >= hlo[0]) & (x0 + t * texel <= hhi[0])
        inside_y = (y0 >= hlo[1]) & (y0 + t * texel <= hhi[1])
        keep &= ~(inside_y[:, None] & inside_x[None, :])
    # one quad per run of kept tiles in a column: p3tinydisplay draws the pixels of a shared
    # edge running across the picture twice (a dark line where two blended tiles of a column
    # met), not those of the edges between columns; runs of a column never touch
    quads: list[tuple[int, int, int]] = []
    for c in np.nonzero(keep.any(axis=0))[0]:
        col = np.concatenate([[False], keep[:, c], [False]]).astype(np.int8)
        starts = np.nonzero(np.diff(col) == 1)[0]
        ends = np.nonzero(np.diff(col) == -1)[0]
        quads.extend((int(c), int(s0), int(e0)) for s0, e0 in zip(starts, ends, strict=True))
    q: np.ndarray = np.array(quads, dtype=np.int64).reshape(-1, 3)
    cx = np.minimum(np.stack([q[:, 0], q[:, 0] + 1], axis=1) * t, w)  # (n, 2) texel columns
    cy = np.minimum(q[:, 1:3] * t, h)
    corner = ((0, 0), (1, 0), (1, 1), (0, 0), (1, 1), (0, 1))
    out = np.zeros((len(q), 6, 8), dtype=np.float32)
    for k, (ci, cj) in enumerate(corner):
        out[:, k, 0] = lo[0] + cx[:, ci] * texel
        out[:, k, 1] = lo[1] + cy[:, cj] * texel
        out[:, k, 6] = cx[:, ci] / w
        out[:, k, 7] = cy[:, cj] / h
    out[:, :, 2] = z
    out[:, :, 5] = 1.0
    return out.reshape(-1, 8)


def _decal(
    name: str,
    alpha: np.ndarray,
    texel: float,
    lo: np.ndarray,
    z: float,
    hidden: Sequence[tuple[np.ndarray, np.ndarray]] = (),
) -> Any:
    """A translucent black decal at height ``z`` from ``lo`` carrying a shadow ``alpha`` map
    (rows bottom-up, as :func:`tablesim.sim.view.shadows.shadow_mask` returns it), drawn only over the
    tiles that hold some shadow and are not ``hidden`` (:func:`_decal_rows`); None when none
    does."""
    from panda3d.core import NodePath, SamplerState, Texture, TransparencyAttrib

    rows = _decal_rows(alpha, texel, lo, z, hidden)
    if len(rows) == 0:
        return None
    h, w = alpha.shape
    # an alpha-only texture, uploaded as is (rows already bottom-up): converting RGBA to
    # Panda3D's BGRA order cost 26 ms per 1024^2 decal, more than the shadow itself
    tex = Texture(name)
    tex.setup_2d_texture(w, h, Texture.T_unsigned_byte, Texture.F_alpha)
    tex.set_ram_image(np.ascontiguousarray(alpha).tobytes())
    tex.set_wrap_u(SamplerState.WM_clamp)
    tex.set_wrap_v(SamplerState.WM_clamp)
    tex.set_minfilter(SamplerState.FT_linear_mipmap_linear)
    tex.set_magfilter(SamplerState.FT_linear)
    np_ = NodePath(_geom_node(name, rows))
    np_.set_texture(tex)
    np_.set_transparency(TransparencyAttrib.M_alpha)
    np_.set_color(0, 0, 0, 1)
    np_.set_light_off()
    np_.set_depth_test(False)
    np_.set_depth_write(False)
    return np_


class FakeShadows:
    """The faked shadows of one renderer ``r``: the baked decals of the receivers and the
    moving layer, rebuilt from the renderer's items, receivers and light direction."""

    def __init__(self, r: Renderer) -> None:
        self.r: Renderer = weakref.proxy(r)  # no cycle: a closed renderer is freed at once
        self._decals: list[Any] = []
        self._layer: list[Any] = []
        self._static_maps: dict[str, tuple[np.ndarray, float, np.ndarray, float]] = {}
        self._baked: dict[str, tuple[Any, ...]] = {}
        self._layer_key: frozenset[Any] = frozenset()

    def _caster_keys(self) -> dict[str, tuple[Any, ...]]:
        """id -> (shape token, position, quat) of every item that casts a shadow."""
        return {i: (self.r._shape.get(i), it.position, it.quat)
                for i, it in self.r._items.items() if it.casts_shadow}  # fmt: skip

    @staticmethod
    def _drop_decals(decals: list[Any]) -> None:
        for d in decals:
            # free the texture's copy in the renderer and its RAM image: otherwise every old
            # decal stays alive (measured: 8 MB a frame in a film)
            tex = d.get_texture()
            d.remove_node()
            if tex is not None:
                tex.release_all()
                tex.clear_ram_image()
        decals.clear()

    def update_shadows(self, coarse: int = 1, exclude: frozenset[str] = frozenset()) -> None:
        """Faked shadows (tiny backend): one decal per receiving plane; ``coarse`` texels
        (:data:`MOVING_SHADOW_COARSE` while pieces move, full detail once they stop). The
        casters in ``exclude`` are left to the moving layer (:meth:`update_layer`)."""
        self._drop_decals(self._decals)
        self._drop_decals(self._layer)
        self._layer_key = frozenset()
        self._static_maps = {}
        keys = self._caster_keys()
        casters = {i: it for i, it in self.r._items.items() if it.casts_shadow and i not in exclude}
        tris = {i: it.world_triangles() for i, it in casters.items()}
        light = self.r._light
        for rid, order in self.r._receivers:
            item = self.r._items[rid]
            others = [t for i, t in tris.items() if i != rid]
            if not others:
                continue
            tri = np.concatenate(others)
            if rid == "__table__":
                # the table's shadow area is fixed with the table (sim.view.table_extent): a
                # piece carried far away neither stretches the decal (coarse, blocky texels)
                # nor moves its grid
                z = 0.0
                ext = self.r.extent
                assert ext is not None  # show() set it before any shadow
                lo, hi = np.asarray(ext.shadow_lo, float), np.asarray(ext.shadow_hi, float)
            else:
                v = item.world_vertices()
                z = float(v[:, 2].max())
                lo, hi = v[:, :2].min(axis=0), v[:, :2].max(axis=0)
            made = shadow_mask(tri, light, z, lo, hi, coarse)
            if made is None:
                continue
            self._static_maps[rid] = (made[0], made[1], np.asarray(lo, float), z)
            decal = _decal(f"shadow-{rid}", made[0], made[1], lo, z, self._hidden_on(rid))
            if decal is None:
                continue
            decal.reparent_to(self.r._root)
            decal.set_bin("background", order)
            self._decals.append(decal)
        self._baked = {i: k for i, k in keys.items() if i not in exclude}
        self.r._shadows_dirty = False
        self.r._whole = True

    def update_layer(self) -> None:
        """The moving layer of the faked shadows: the casters that are not baked into the
        receivers' decals (a ghost following the pointer) get small decals of their own, on
        the grid of the baked map, whose alpha makes the two together as dark as the darker of
        the two (``1 - (1 - max(s, g)) / (1 - s)``): no doubled darkness where shadows meet.
        A baked caster that moved or left has the baked decals drawn again without the
        casters that changed."""
        keys = self._caster_keys()
        stale = {i for i, k in self._baked.items() if keys.get(i) != k}
        if stale:
            self.update_shadows(
                1, exclude=frozenset((stale | (set(keys) - set(self._baked))) & set(keys))
            )
        moving = {i: k for i, k in keys.items() if i not in self._baked}
        key = frozenset(moving.items())
        if key == self._layer_key:
            return
        self.r._damage.extend(_bounds_of(d) for d in self._layer)
        self._drop_decals(self._layer)
        self._layer_key = key
        if not moving:
            return
        light = self.r._light
        tris = {i: self.r._items[i].world_triangles() for i in moving}
        for rid, order in self.r._receivers:
            others = [t for i, t in tris.items() if i != rid]
            if others:
                self._layer_decal(rid, order, np.concatenate(others), light)

    def _hidden_on(self, rid: str) -> list[tuple[np.ndarray, np.ndarray]]:
        """The x, y rectangles of the table that boards resting on it hide (none for a
        board's own top)."""
        if rid != "__table__":
            return []
        out = []
        for other, _ in self.r._receivers:
            if other == rid:
                continue
            v = self.r._items[other].world_vertices()
            if float(v[:, 2].min()) <= 1e-6:
                out.append((v[:, :2].min(axis=0), v[:, :2].max(axis=0)))
        return out

    def _covers(self, rid: str, lo: np.ndarray, hi: np.ndarray) -> bool:
        """True when receiver ``rid`` (a level board) covers the table's rectangle lo..hi."""
        v = self.r._items[rid].world_vertices()
        return bool((v[:, :2].min(axis=0) <= lo).all() and (v[:, :2].max(axis=0) >= hi).all())

    def _layer_decal(self, rid: str, order: int, tri: np.ndarray, light: np.ndarray) -> None:
        """One receiver's decal of the moving layer (see :meth:`update_layer`)."""
        item = self.r._items[rid]
        if rid == "__table__":
            z, area = 0.0, None
        else:
            v = item.world_vertices()
            z = float(v[:, 2].max())
            area = (v[:, :2].min(axis=0), v[:, :2].max(axis=0))
        tri = tri[(tri[..., 2] >= z - 1e-6).all(axis=1)]
        if len(tri) == 0:
            return
        pts = tri.reshape(-1, 3)
        flat = pts[:, :2] + ((pts[:, 2] - z) / -light[2])[:, None] * light[:2]
        margin = 4 * SHADOW_BLUR
        lo, hi = flat.min(axis=0) - margin, flat.max(axis=0) + margin
        if area is not None:
            lo, hi = np.maximum(lo, area[0]), np.minimum(hi, area[1])
            if (hi <= lo).any():
                return
        else:
            ext = self.r.extent
            if ext is not None:  # the table's shadows stay inside its fixed shadow area
                lo = np.maximum(lo, np.asarray(ext.shadow_lo, float))
                hi = np.minimum(hi, np.asarray(ext.shadow_hi, float))
                if (hi <= lo).any():
                    return
            for other, _ in self.r._receivers:
                # a board lying on the table hides the table's shadow under it: not drawn
                if other != rid and self._covers(other, lo, hi):
                    return
        static = self._static_maps.get(rid)
        if static is not None:
            texel, origin = static[1], static[2]
        else:
            texel = SHADOW_TEXEL
            origin = area[0] if area is not None else np.zeros(2)
        # the layer's texels are 2 x 2 baked texels (the shadow is blurred over 1.6 mm, far
        # wider than both): a quarter of the work, on the baked grid (even texel indices)
        i0 = 2 * np.floor((lo - origin) / texel / 2).astype(int)
        n = np.ceil((hi - origin) / texel / 2).astype(int) - i0 // 2
        w, h = (1 << max(1, math.ceil(math.log2(max(int(k), 2)))) for k in n)
        if max(w, h) > LAYER_MAX_TEXELS:
            # a long shadow (a piece held high): draw the moving items into the baked decals
            self.update_shadows(MOVING_SHADOW_COARSE)
            return
        sub_lo = origin + i0 * texel
        coarse = 2 * texel
        g = grid_mask(tri, light, z, sub_lo, coarse, (w, h))
        if g is None:
            return
        s = np.zeros((h, w), dtype=np.uint8)
        if static is not None:
            # the darkest baked texel of each 2 x 2 block
            sa = static[0]
            fine = np.zeros((2 * h, 2 * w), dtype=np.uint8)
            y0, x0 = max(0, i0[1]), max(0, i0[0])
            y1, x1 = min(sa.shape[0], i0[1] + 2 * h), min(sa.shape[1], i0[0] + 2 * w)
            if y1 > y0 and x1 > x0:
                fine[y0 - i0[1] : y1 - i0[1], x0 - i0[0] : x1 - i0[0]] = sa[y0:y1, x0:x1]
                s = np.maximum(np.maximum(fine[0::2, 0::2], fine[0::2, 1::2]),
                               np.maximum(fine[1::2, 0::2], fine[1::2, 1::2]))  # fmt: skip
        if area is not None:
            # nothing past the receiver's top face
            cx = sub_lo[0] + (np.arange(w) + 0.5) * coarse
            cy = sub_lo[1] + (np.arange(h) + 0.5) * coarse
            g[(cy < area[0][1]) | (cy > area[1][1]), :] = 0
            g[:, (cx < area[0][0]) | (cx > area[1][0])] = 0
        alpha = _over_baked()[s, g]
        if not alpha.any():
            return
        decal = _decal(f"shadow-moving-{rid}", alpha, coarse, sub_lo, z, self._hidden_on(rid))
        if decal is None:
            return
        decal.reparent_to(self.r._root)
        decal.set_bin("background", order + 1)
        self._layer.append(decal)
        self.r._damage.append(_bounds_of(decal))
