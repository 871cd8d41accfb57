"""Shapes for the Clash of Cultures board that Pillow draws slowly on a large image.

Why: ``ImageDraw.polygon`` with an outline wider than one pixel builds a mask as large as the
whole image to keep the outline inside the shape; on the 1600 x 1800 board that is a
3-megapixel mask for every ship hull, changed-hex outline and wonder mark (0.16-0.2 ms each,
measured, against 0.06 ms on a crop; a board has a few of them). Drawing the polygon on a crop
just around it and pasting the crop back gives the same pixels (the offset is whole pixels).
"""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from renderer.base import RGB


def outlined_polygon(
    image: Image.Image,
    points: Sequence[tuple[float, float]],
    outline: RGB,
    width: int,
    fill: RGB | None = None,
) -> None:
    """``ImageDraw.Draw(image).polygon(points, fill, outline, width)``, drawn on a crop."""
    pad = width + 2
    left = max(0, int(min(x for x, _ in points)) - pad)
    top = max(0, int(min(y for _, y in points)) - pad)
    right = min(image.width, int(max(x for x, _ in points)) + pad + 1)
    bottom = min(image.height, int(max(y for _, y in points)) + pad + 1)
    if left >= right or top >= bottom:
        return
    piece = image.crop((left, top, right, bottom))
    shifted = [(x - left, y - top) for x, y in points]
    ImageDraw.Draw(piece).polygon(shifted, fill=fill, outline=outline, width=width)
    image.paste(piece, (left, top))
