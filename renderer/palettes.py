"""The 64 colours a board is written with: chosen once per kind of board from reference
positions, then every board of the kind is only mapped to them.

Why once per kind: choosing a palette per board was 3.4 ms of every Duellum board, and a
palette chosen from whichever board a process drew first made one view's PNG differ between
processes."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from PIL import Image, ImageDraw

from renderer.caches import LayerCache
from renderer.colours import HIGHLIGHT, INK, MUTED, PANEL, PANEL_EDGE, PAPER, RGB, WHITE
from renderer.typefaces import fonts_signature

BOARD_COLOURS: Final[int] = 64
PALETTE_STRIDE: Final[int] = 3


def quantized(image: Image.Image, colours: int = BOARD_COLOURS) -> Image.Image:
    """``image`` as a palette image of at most ``colours`` colours (no dither).

    The palette is chosen (fast octree) from every third pixel of every third row — exact
    pixels, not averages — and the whole image is then mapped to it: a quarter of the time
    of choosing it from all pixels, with the same error (a mean of ~0.6 levels per channel
    measured on a finished Duellum board: flat art has few colours, all of them frequent).
    """
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    palette = _sample(rgb).quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return rgb.quantize(palette=palette, dither=Image.Dither.NONE)


# ----------------------------------------------------------------------------- palettes per kind


@dataclass(frozen=True, slots=True)
class PaletteKind:
    """A kind of image that shares one palette: e.g. every Duellum board of two given nation
    colours. ``key`` names what sets the kind's colours (the game, the image, the player
    colours); ``colours`` are colours a later image of the kind may show although the first
    one did not (the last turn's highlight on a first turn's board, a winner's frame).
    """

    key: Hashable
    colours: tuple[RGB, ...] = ()
    reference: Callable[[], Sequence[Image.Image]] | None = field(default=None, compare=False, hash=False)
    """Draws the images the kind's palette is chosen from: canonical positions of real games,
    the same in every process. None (tests' own kinds): the kind's first image."""


PALETTES: LayerCache[Image.Image] = LayerCache(maxsize=32)
"""Palettes per :class:`PaletteKind` (each a 1 x 1 "P" image carrying its 64 colours: tiny)."""

SWATCH_SHARE: Final[float] = 0.004  # of the sample's pixels, per colour of PaletteKind.colours
_CORE_COLOURS: Final[tuple[RGB, ...]] = (INK, WHITE, PAPER, PANEL, PANEL_EDGE, MUTED, HIGHLIGHT)


def kind_palette(kind: PaletteKind, first: Image.Image) -> Image.Image:
    """The palette of ``kind``: chosen once per process (fast octree, as :func:`quantized`)
    from the kind's reference images (``kind.reference``; else its first image ``first``)
    sampled 1 in 9, plus a block of every colour in ``kind.colours`` and the shared text and
    panel colours, each large enough to win its own palette entry.

    Why once: choosing a palette was 3.4 ms of every Duellum board (sampling 0.5, octree
    2.9), and the boards of one kind show the same flat colours (the map, the nations, the
    panels) and the same anti-aliased edges between them. The error of mapping later boards
    to a shared palette was measured equal to choosing per board (a mean of 0.8-1.0 levels
    per channel against 0.87, bench/RESULTS.md).

    Why references: a palette chosen from whichever board a process drew first made the same
    board's PNG bytes differ between processes (a board drawn by the render worker and the
    one a test or a bot drew from the same view). Decision: the game renderers give each kind
    a reference drawn from canonical positions of seeded games, so a board is the same bytes
    wherever it is drawn.
    """
    key = (kind.key, kind.colours, fonts_signature())

    def choose() -> Image.Image:
        if kind.reference is not None:
            known = _REFERENCE_PALETTES.get(key)
            if known is None:
                images = list(kind.reference())
                if images:
                    known = _REFERENCE_PALETTES.setdefault(key, _choose_palette(images, kind.colours))
            if known is not None:
                return known
        return _choose_palette([first], kind.colours)

    return PALETTES.get(key, choose)


def reference_view(
    game_id: str, seed: int, players: int, moves: int, seat: int | None, options: Mapping[str, Any] | None = None
) -> Mapping[str, Any]:
    """A canonical position for a :class:`PaletteKind` reference: a seeded game of the
    automatic players ``moves`` moves in (or at its end), as ``seat`` sees it. The same in
    every process: the engine is deterministic."""
    from engine import find_game

    game = find_game(game_id)
    state = game.new_game(seed, players, options)
    for step in range(moves):
        if game.outcome(state) is not None:
            break
        mover = min(game.to_move(state))
        state = game.apply(state, mover, game.auto_action(state, mover, step)).state
    view: Mapping[str, Any] = game.view(state, seat)
    return view


_REFERENCE_PALETTES: dict[Hashable, Image.Image] = {}
"""Palettes chosen from reference positions, never dropped: the same whenever they are chosen
(drawing the references again after :data:`PALETTES` was cleared, e.g. between tests, cost a
second each time)."""


def _sample(image: Image.Image) -> Image.Image:
    """Every third pixel of every third row of ``image`` (exact pixels, not averages), in RGB:
    what a palette is chosen from."""
    width, height = image.size
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    if width >= 4 * PALETTE_STRIDE and height >= 4 * PALETTE_STRIDE:
        return rgb.resize((width // PALETTE_STRIDE, height // PALETTE_STRIDE), Image.Resampling.NEAREST)
    return rgb


def _choose_palette(images: Sequence[Image.Image], colours: Sequence[RGB]) -> Image.Image:
    samples = [_sample(image) for image in images]
    width = max(sample.width for sample in samples)
    height = sum(sample.height for sample in samples)
    wanted = tuple(dict.fromkeys((*_CORE_COLOURS, *colours)))
    block = max(1, math.ceil(width * height * SWATCH_SHARE / width))  # rows per colour
    reference = Image.new("RGB", (width, height + block * len(wanted)), PAPER)
    top = 0
    for sample in samples:
        reference.paste(sample, (0, top))
        top += sample.height
    draw = ImageDraw.Draw(reference)
    for i, colour in enumerate(wanted):
        row = height + i * block
        draw.rectangle((0, row, width - 1, row + block - 1), fill=colour)
    chosen = reference.quantize(BOARD_COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    palette = Image.new("P", (1, 1))  # keep the colours, not the quantized reference (0.3 MB)
    palette.putpalette(chosen.getpalette() or [0, 0, 0])
    return palette
