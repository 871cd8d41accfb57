"""The renderers' shared toolbox, in one import: colours, fonts, text, PNG encoding, palettes
and the caches of drawn art.

Why one import over several modules: every game renderer needs the same things (fonts that
exist on any host, one palette so a "brown" player looks the same in every image, text that
stays readable on a phone, compact PNGs, and caches so static art is drawn once per process),
and a renderer reads better importing them from one place. Each topic lives in its own module,
named after what it holds: :mod:`renderer.colours`, :mod:`renderer.typefaces`,
:mod:`renderer.text`, :mod:`renderer.png`, :mod:`renderer.palettes` and
:mod:`renderer.caches`. Piece icons are in :mod:`renderer.icons`.

A test that replaces a helper (``monkeypatch.setattr``) patches the topic module, where the
code that calls it looks it up.
"""

from __future__ import annotations

from PIL import Image

from renderer import caches, text, typefaces
from renderer.caches import (
    PIECES,
    SPRITES,
    STATIC_LAYERS,
    Box4,
    CacheInfo,
    LayerCache,
    Sprite,
    SpriteCache,
    cached_art,
    drawing_fresh,
    fresh_art,
    masked_art,
)
from renderer.colours import (
    BLACK,
    BORDER_COLOUR,
    FALLBACK_PLAYER_FILLS,
    HIGHLIGHT,
    INK,
    KIND_FILL,
    MUTED,
    PANEL,
    PANEL_EDGE,
    PAPER,
    PLAYER_FILL,
    PLAYER_INK,
    RESOURCE_FILL,
    RESOURCE_INK,
    RESOURCE_LETTER,
    RGB,
    SEA_INK,
    WHITE,
    ink_on,
    player_fill,
    tint,
)
from renderer.palettes import (
    BOARD_COLOURS,
    PALETTES,
    PaletteKind,
    kind_palette,
    quantized,
    reference_view,
)
from renderer.png import (
    BOARD_BUDGET,
    BOARD_FALLBACK_LEVELS,
    BOARD_ZLIB_LEVEL,
    PNG_ZLIB_LEVEL,
    encode_board,
    encode_png,
)
from renderer.text import (
    ALIASED_FROM,
    TextMasks,
    clip_watch,
    draw_lines,
    draw_pieces,
    draw_text,
    fit_font,
    fit_text,
    line_height_of,
    line_pieces,
    report_clip,
    text_watch,
    text_width,
    wrap,
)
from renderer.typefaces import (
    Font,
    font,
    font_path,
    font_search_dirs,
    fonts_signature,
    safe_text,
    using_fallback_font,
)

__all__ = [
    "ALIASED_FROM",
    "BLACK",
    "BOARD_BUDGET",
    "BOARD_COLOURS",
    "BOARD_FALLBACK_LEVELS",
    "BOARD_ZLIB_LEVEL",
    "BORDER_COLOUR",
    "FALLBACK_PLAYER_FILLS",
    "HIGHLIGHT",
    "INK",
    "KIND_FILL",
    "MUTED",
    "PALETTES",
    "PANEL",
    "PANEL_EDGE",
    "PAPER",
    "PIECES",
    "PLAYER_FILL",
    "PLAYER_INK",
    "PNG_ZLIB_LEVEL",
    "RESOURCE_FILL",
    "RESOURCE_INK",
    "RESOURCE_LETTER",
    "RGB",
    "SEA_INK",
    "SPRITES",
    "STATIC_LAYERS",
    "WHITE",
    "Box4",
    "CacheInfo",
    "Font",
    "LayerCache",
    "PaletteKind",
    "Sprite",
    "SpriteCache",
    "TextMasks",
    "cached_art",
    "clear_font_cache",
    "clip_watch",
    "draw_lines",
    "draw_pieces",
    "draw_text",
    "drawing_fresh",
    "encode_board",
    "encode_png",
    "fit_font",
    "fit_text",
    "font",
    "font_path",
    "font_search_dirs",
    "fonts_signature",
    "fresh_art",
    "ink_on",
    "kind_palette",
    "line_height_of",
    "line_pieces",
    "masked_art",
    "new_canvas",
    "player_fill",
    "quantized",
    "reference_view",
    "report_clip",
    "safe_text",
    "text_watch",
    "text_width",
    "tint",
    "using_fallback_font",
    "wrap",
]


def new_canvas(size: tuple[int, int], colour: RGB = PAPER) -> Image.Image:
    """A fresh RGB canvas (RGB, not RGBA: a third less data to encode, and chat apps flatten alpha)."""
    return Image.new("RGB", size, colour)


def clear_font_cache() -> None:
    """Forget found fonts and everything drawn with them (tests that change the search path;
    a font installed at runtime).

    Why here and not in :mod:`renderer.typefaces`: it reaches every module that keeps what
    fonts drew (measured widths, glyph masks, sprites), which all depend on the fonts."""
    typefaces.font_path.cache_clear()
    typefaces.font.cache_clear()
    typefaces.fonts_signature.cache_clear()
    text.text_width.cache_clear()
    text.clear_masks()
    caches.SPRITES.clear()
    caches.PIECES.clear()
