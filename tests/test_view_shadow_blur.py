"""The tiny backend's faked shadows blur only the box the shadows lie in
(:func:`tablesim.sim.view.shadows.grid_mask`): the map must be bit for bit the one of blurring
the whole map, for seeded random casters anywhere on the grid (in the middle, at the map's
edges and corners, several far apart, a single sliver), at fine and coarse texels."""

from __future__ import annotations

import numpy as np
import pytest

from tablesim.sim.view.shadows import SHADOW_ALPHA, SHADOW_BLUR, grid_mask


def whole_map_blur(triangles: np.ndarray, light: np.ndarray, z: float, lo: np.ndarray,
                   texel: float, shape: tuple[int, int]) -> np.ndarray:  # fmt: skip
    """The reference: every caster rasterised, then the whole map blurred (as before)."""
    from PIL import Image, ImageDraw, ImageFilter

    w, h = shape
    t = (triangles[..., 2] - z) / -light[2]
    pix = (triangles[..., :2] + t[..., None] * light[:2] - lo) / texel
    e1, e2 = pix[:, 1] - pix[:, 0], pix[:, 2] - pix[:, 0]
    area = np.abs(e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0])
    inside = (pix.max(axis=1) >= 0).all(axis=1) & (pix.min(axis=1) <= (w, h)).all(axis=1)
    img = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(img)
    for tri in pix[(area > 1e-3) & inside].tolist():
        draw.polygon([tuple(p) for p in tri], fill=255)
    img = img.filter(ImageFilter.GaussianBlur(SHADOW_BLUR / texel))
    return (np.asarray(img, dtype=np.float32) * SHADOW_ALPHA).astype(np.uint8)


def casters(rng: np.random.Generator, centres: np.ndarray, size: float) -> np.ndarray:
    """Small random triangles (m) around each of ``centres`` (x, y), 1-30 mm above z = 0."""
    out = []
    for c in centres:
        for _ in range(int(rng.integers(1, 6))):
            base = np.array([c[0], c[1], rng.uniform(0.001, 0.03)])
            out.append(base + rng.uniform(-size, size, (3, 3)) * (1, 1, 0.1))
    tri = np.asarray(out)
    tri[..., 2] = np.maximum(tri[..., 2], 0.0005)
    return tri


@pytest.mark.parametrize("texel", [0.25e-3, 1.0e-3])
@pytest.mark.parametrize("seed", range(6))
def test_the_boxed_blur_is_the_whole_map_blur_bit_for_bit(seed: int, texel: float) -> None:
    rng = np.random.default_rng(seed)
    shape = (256, 128)
    lo = np.array([-0.02, 0.01])
    span = np.array(shape) * texel
    light = np.array([0.3, -0.4, -0.8])
    light /= np.linalg.norm(light)
    picks = {  # in the middle, at the edges and corners, far apart
        0: [[0.5, 0.5]],
        1: [[0.0, 0.0], [1.0, 1.0]],
        2: [[0.02, 0.6], [0.98, 0.4], [0.5, 0.02]],
        3: rng.uniform(0, 1, (8, 2)).tolist(),
        4: [[0.5, 0.98]],
        5: [[-0.05, 0.5], [0.3, 0.3]],
    }[seed]
    centres = lo + np.asarray(picks) * span
    tri = casters(rng, centres, 6 * texel)
    got = grid_mask(tri, light, 0.0, lo, texel, shape)
    want = whole_map_blur(tri, light, 0.0, lo, texel, shape)
    if got is None:  # nothing on the grid
        assert want.max() == 0
        return
    assert got.shape == want.shape
    assert want.max() > 0  # a shadow was cast: the comparison sees one
    assert np.array_equal(got, want)
