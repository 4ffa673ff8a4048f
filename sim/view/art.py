"""Pictures painted on things: wood grain, cube grooves, dice pips, tile faces, boards, the pad.

Every function returns an (H, W, 3) uint8 array with row 0 at the **top** of the picture (the
renderer flips rows for Panda3D, whose textures are stored bottom row first). Drawing uses numpy
and Pillow (its bundled FreeType font, so text looks the same on every machine). Nothing here
imports Panda3D.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

__all__ = [
    "GRAIN_MEAN",
    "dice_face",
    "font",
    "grain_texture",
    "groove_texture",
    "hex_rgb",
    "rgb255",
    "wood_color",
    "wood_surface",
]

GRAIN_MEAN = 0.88
"""Mean of the wood grain texture (< 1 leaves room for the light streaks); colours of wooden
surfaces are divided by it so the texture keeps their mean."""

RGB = tuple[int, int, int]


def hex_rgb(color: str) -> tuple[float, float, float]:
    """``#rgb`` or ``#rrggbb`` as floats in [0, 1] (ValueError otherwise)."""
    text = color.lstrip("#") if isinstance(color, str) else ""
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    try:
        if len(text) != 6:
            raise ValueError
        return tuple(int(text[i : i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]
    except ValueError:
        raise ValueError(f"colour {color!r} must be '#rgb' or '#rrggbb'") from None


def rgb255(color: str | Sequence[float]) -> RGB:
    """A colour as 0-255 ints: from ``#rrggbb`` or from floats in [0, 1]."""
    if isinstance(color, str):
        color = hex_rgb(color)
    return tuple(int(round(255 * float(c))) for c in color)  # type: ignore[return-value]


def wood_color(rgb: Sequence[float]) -> tuple[float, float, float]:
    """Node colour for a grain-textured surface of mean colour ``rgb`` (0-1, or 0-255 ints)."""
    scale = 255.0 if max(rgb) > 1 else 1.0
    return tuple(min(1.0, c / scale / GRAIN_MEAN) for c in rgb)  # type: ignore[return-value]


@lru_cache(maxsize=16)
def font(size: int):  # noqa: ANN201 - PIL.ImageFont.FreeTypeFont
    """Pillow's bundled scalable font at ``size`` pixels."""
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


# ---------------------------------------------------------------------------------------
# Procedural materials
# ---------------------------------------------------------------------------------------
def _smooth_noise(rng: np.random.Generator, n: int, width: float) -> np.ndarray:
    """Periodic 1-D noise of length ``n``, zero mean, unit standard deviation, blurred by
    a Gaussian of ``width`` samples (circular convolution, so it tiles)."""
    raw = rng.standard_normal(n)
    k = np.fft.rfftfreq(n)
    out = np.fft.irfft(np.fft.rfft(raw) * np.exp(-0.5 * (2 * np.pi * k * width) ** 2), n)
    return out / out.std()


@lru_cache(maxsize=4)
def grain_texture(size: int = 512, planks: int = 5, seed: int = 7) -> np.ndarray:
    """A tileable plank grain (size, size, 3) uint8 around :data:`GRAIN_MEAN` (grain along u).

    Multiplied with a wood colour (the table, plain blocks): irregular streaks across each plank
    that wander slowly along it, a slight tone difference per plank and a dark joint between
    planks. Seeded, so every picture gets the same table.
    """
    rng = np.random.default_rng(seed)
    uu, vv = np.meshgrid(np.arange(size) / size, np.arange(size) / size)
    plank = np.minimum((vv * planks).astype(int), planks - 1)
    n = 4096
    streaks = _smooth_noise(rng, n, 12.0) + 0.6 * _smooth_noise(rng, n, 36.0)
    warp = np.zeros(size)
    for k in range(1, 4):  # integer frequencies along u: the texture tiles
        warp += rng.uniform(5, 25) / k * np.sin(2 * np.pi * (k * uu[0] + rng.uniform()))
    offsets = rng.integers(0, n, planks)[plank]
    idx = (vv * n * 0.5 + warp[None, :] + offsets).astype(int) % n
    shade = 1 + 0.035 * streaks[idx] + rng.uniform(-0.05, 0.05, planks)[plank]
    gap = np.abs(vv * planks - np.round(vv * planks)) * size / planks  # texels to a joint
    shade *= 1 - 0.3 * np.exp(-((gap / 1.0) ** 2))
    val = np.clip(GRAIN_MEAN * shade, 0, 1) * 255
    return np.repeat(val.astype(np.uint8)[..., None], 3, axis=2)


@lru_cache(maxsize=2)
def groove_texture(size: int = 64) -> np.ndarray:
    """Light-grey (size, size, 3) uint8 cell face: white centre, soft dark seam at the border."""
    t = (np.arange(size) + 0.5) / size
    d = np.minimum(t, 1 - t)
    dist = np.minimum(d[:, None], d[None, :])
    val = 1 - 0.28 * np.exp(-((dist / 0.025) ** 2)) - 0.05 * np.exp(-((dist / 0.1) ** 2))
    return np.repeat((np.clip(val, 0, 1) * 255).astype(np.uint8)[..., None], 3, axis=2)


def wood_surface(color: str | Sequence[float], size: int = 512, planks: int = 2) -> np.ndarray:
    """A printed-on face base: the grain at ``planks`` planks per face times a wood colour,
    (size, size, 3) uint8 whose mean is about ``color``."""
    rgb = np.asarray(rgb255(color), dtype=float) / GRAIN_MEAN
    grain = grain_texture(size, planks).astype(float) / 255
    return np.clip(grain * rgb, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------------------------------
# Dice
# ---------------------------------------------------------------------------------------
_PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.27, 0.23), (0.27, 0.5), (0.27, 0.77), (0.73, 0.23), (0.73, 0.5), (0.73, 0.77)),
}


def dice_face(
    n: int, size: int = 128, body: RGB = (246, 244, 236), pip: RGB = (25, 25, 30)
) -> np.ndarray:
    """A die face showing ``n`` (1..6) pips, (size, size, 3) uint8 (ValueError otherwise)."""
    from PIL import Image, ImageDraw

    if n not in _PIPS:
        raise ValueError(f"a die face shows 1 to 6 pips, got {n!r}")
    img = Image.new("RGB", (size, size), body)
    draw = ImageDraw.Draw(img)
    r = size * 0.09
    for x, y in _PIPS[n]:
        draw.ellipse((x * size - r, y * size - r, x * size + r, y * size + r), fill=pip)
    _border(draw, size, size, (200, 196, 186), max(1, size // 40))
    return np.asarray(img)


def _border(draw, w: int, h: int, color: RGB, width: int) -> None:  # noqa: ANN001
    """A frame ``width`` pixels wide along the picture's edge (a bevel seen from above)."""
    draw.rectangle((0, 0, w - 1, h - 1), outline=color, width=width)


def polygon_points(kind: str, cx: float, cy: float, r: float) -> list[tuple[float, float]] | None:
    """Corner points of a ``square`` or an upward ``triangle`` of circumradius-ish ``r`` around
    (cx, cy) in picture coordinates (y down); None for ``round`` (drawn as an ellipse)."""
    if kind == "square":
        s = r * 0.86
        return [(cx - s, cy - s), (cx + s, cy - s), (cx + s, cy + s), (cx - s, cy + s)]
    if kind == "triangle":
        return [
            (cx + r * math.cos(math.radians(a)), cy - r * math.sin(math.radians(a)) + r * 0.18)
            for a in (90, 210, 330)
        ]
    return None
