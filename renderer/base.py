"""Shared rendering base: fonts, palette, text helpers, PNG encoding and the static-layer cache.

Why one small base: every game renderer needs the same four things — fonts that exist on any
host (DejaVu where installed, Pillow's own scalable font otherwise, never a crash), one
palette so a "brown" player looks the same in every image, text that stays readable on a
phone (stroked labels, word wrapping), and a cache so static art (a map's regions, borders
and names) is drawn once per process instead of once per turn. Piece icons live in
:mod:`renderer.icons` to keep this module short.
"""

from __future__ import annotations

import contextlib
import functools
import math
import os
import re
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Generic, TypeVar

import deflate
from PIL import Image, ImageChops, ImageDraw, ImageFont

RGB = tuple[int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
T = TypeVar("T")

# ----------------------------------------------------------------------------- palette

WHITE: Final[RGB] = (255, 255, 255)
BLACK: Final[RGB] = (0, 0, 0)
INK: Final[RGB] = (28, 24, 20)  # near-black for text and outlines: high contrast on every fill
MUTED: Final[RGB] = (105, 98, 90)
PAPER: Final[RGB] = (247, 242, 230)  # page background
PANEL: Final[RGB] = (255, 252, 244)
PANEL_EDGE: Final[RGB] = (120, 108, 92)
HIGHLIGHT: Final[RGB] = (255, 200, 0)  # last-turn glow: bright yellow, paired with a black rim

# Player colours of the physical games. Each has an ink colour for text drawn on it. BROWN and
# BEIGE differ strongly in lightness, so they stay apart under every colour-vision deficiency;
# pieces additionally carry the owner's letter.
PLAYER_FILL: Final[Mapping[str, RGB]] = {
    "BROWN": (110, 62, 28),
    "BEIGE": (240, 222, 176),
    "RED": (196, 40, 40),
    "BLUE": (36, 84, 180),
    "GREEN": (40, 130, 60),
    "YELLOW": (240, 200, 40),
    "BLACK": (40, 40, 40),
    "WHITE": (245, 245, 245),
}
PLAYER_INK: Final[Mapping[str, RGB]] = {
    "BROWN": WHITE,
    "BEIGE": INK,
    "RED": WHITE,
    "BLUE": WHITE,
    "GREEN": WHITE,
    "YELLOW": INK,
    "BLACK": WHITE,
    "WHITE": INK,
}
# For seats whose colour name is unknown: hues unlike the named colours above.
FALLBACK_PLAYER_FILLS: Final[Sequence[RGB]] = ((128, 64, 160), (40, 150, 150), (220, 120, 30), (120, 120, 120))

# Region kinds (the data file's suggestion: LAND tan, MIXED green, SEA light blue).
KIND_FILL: Final[Mapping[str, RGB]] = {
    "LAND": (226, 200, 150),
    "MIXED": (164, 204, 140),
    "SEA": (172, 208, 238),
}
SEA_INK: Final[RGB] = (20, 60, 120)

# Border types: legions cross RED, galleys BLUE, both REDBLUE (purple, drawn thicker).
BORDER_COLOUR: Final[Mapping[str, RGB]] = {
    "RED": (200, 40, 40),
    "BLUE": (40, 100, 210),
    "REDBLUE": (128, 48, 160),
}

# Resources: marble white, iron blue, gold golden (the chips of the physical game); coins brass.
RESOURCE_FILL: Final[Mapping[str, RGB]] = {
    "marble": (238, 238, 234),
    "iron": (84, 112, 150),
    "gold": (232, 178, 24),
    "coins": (200, 160, 60),
}
RESOURCE_INK: Final[Mapping[str, RGB]] = {"marble": INK, "iron": WHITE, "gold": INK, "coins": INK}
RESOURCE_LETTER: Final[Mapping[str, str]] = {"marble": "M", "iron": "I", "gold": "G", "coins": "$"}


def player_fill(colour: str, seat: int = 0) -> RGB:
    """Fill colour of a player colour name; unknown names get a stable per-seat colour."""
    fill = PLAYER_FILL.get(colour.upper())
    return fill if fill is not None else FALLBACK_PLAYER_FILLS[seat % len(FALLBACK_PLAYER_FILLS)]


def ink_on(fill: RGB) -> RGB:
    """Black or white, whichever reads better on ``fill`` (relative luminance threshold)."""
    r, g, b = fill
    return INK if (0.299 * r + 0.587 * g + 0.114 * b) > 140 else WHITE


def tint(colour: RGB, amount: float) -> RGB:
    """``colour`` mixed towards white by ``amount`` (0 = unchanged, 1 = white)."""
    return (
        round(colour[0] + (255 - colour[0]) * amount),
        round(colour[1] + (255 - colour[1]) * amount),
        round(colour[2] + (255 - colour[2]) * amount),
    )


# ----------------------------------------------------------------------------- fonts

# File names tried for each style, best first. DejaVu is the reference (wide glyph coverage,
# including the dashes and arrows chat text uses); Liberation and Noto are common elsewhere.
_FONT_FILES: Final[Mapping[str, tuple[str, ...]]] = {
    "regular": ("DejaVuSans.ttf", "LiberationSans-Regular.ttf", "NotoSans-Regular.ttf", "Arial.ttf", "arial.ttf"),
    "bold": ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf", "NotoSans-Bold.ttf", "Arial Bold.ttf", "arialbd.ttf"),
    "italic": (
        "DejaVuSans-Oblique.ttf",
        "LiberationSans-Italic.ttf",
        "NotoSans-Italic.ttf",
        "Arial Italic.ttf",
        "ariali.ttf",
    ),
}


def font_search_dirs() -> list[Path]:
    """Directories searched for TTF files, in order (no fontconfig needed).

    ``AGORA_FONT_DIR`` (os.pathsep-separated) comes first, then ``renderer/fonts`` (for a
    vendored font), then the usual system locations of Linux, macOS and Windows. Sub-folders
    one level down are searched too (e.g. ``/usr/share/fonts/truetype/dejavu``).
    """
    dirs = [Path(p) for p in os.environ.get("AGORA_FONT_DIR", "").split(os.pathsep) if p]
    home = Path.home()
    dirs += [
        Path(__file__).with_name("fonts"),
        Path("/usr/share/fonts/truetype/dejavu"),
        Path("/usr/share/fonts/dejavu"),
        Path("/usr/share/fonts/TTF"),
        Path("/usr/share/fonts/truetype"),
        Path("/usr/share/fonts"),
        Path("/usr/local/share/fonts"),
        home / ".local/share/fonts",
        home / ".fonts",
        Path("/Library/Fonts"),
        Path("/System/Library/Fonts/Supplemental"),
        Path(os.environ.get("WINDIR", "C:/Windows")) / "Fonts",
    ]
    return dirs


@functools.cache
def font_path(style: str) -> Path | None:
    """The TTF file for ``style`` ("regular", "bold", "italic"), or None if none is installed."""
    names = _FONT_FILES.get(style, _FONT_FILES["regular"])
    dirs = font_search_dirs()
    for name in names:
        for d in dirs:
            candidate = d / name
            if candidate.is_file():
                return candidate
        for d in dirs:
            try:
                subdirs = sorted(p for p in d.iterdir() if p.is_dir()) if d.is_dir() else []
            except OSError:
                continue
            for sub in subdirs:
                candidate = sub / name
                if candidate.is_file():
                    return candidate
    return None


@functools.cache
def font(size: int, style: str = "regular") -> Font:
    """A font of ``size`` pixels: the installed TTF, else Pillow's built-in scalable font.

    Never raises: a missing or unreadable file falls back (bold → regular → built-in).
    """
    for candidate_style in (style, "regular"):
        path = font_path(candidate_style)
        if path is not None:
            try:
                return ImageFont.truetype(str(path), size)
            except OSError:
                continue
    return ImageFont.load_default(size=size)


@functools.cache
def fonts_signature() -> tuple[str, ...]:
    """Which font files are in use; part of static-layer and sprite cache keys (fonts change
    the art). Cached: every sprite lookup asks (cleared with the fonts)."""
    return tuple(str(font_path(s)) for s in ("regular", "bold", "italic"))


def using_fallback_font() -> bool:
    """True when no TTF was found and Pillow's built-in font (no "—" glyph) is in use."""
    return font_path("regular") is None


def clear_font_cache() -> None:
    """Forget found fonts (tests that change the search path; a font installed at runtime)."""
    font_path.cache_clear()
    font.cache_clear()
    fonts_signature.cache_clear()
    text_width.cache_clear()
    _sprite.cache_clear()
    _long_sprite.cache_clear()
    SPRITES.clear()
    PIECES.clear()


# Characters the built-in fallback font lacks, and a safe spelling for each.
_FALLBACK_REPLACEMENTS: Final[Mapping[str, str]] = {
    "—": "-",
    "–": "-",
    "…": "...",
    "×": "x",
    "→": "->",
    "←": "<-",
    "▶": ">",
    "•": "*",
    "·": "-",
    "’": "'",
    "“": '"',
    "”": '"',
    "✓": "+",
    "◀": "<",
    "★": "*",
    "■": "#",
}


def safe_text(text: str) -> str:
    """``text`` with glyphs the fallback font lacks replaced (unchanged with a real TTF)."""
    if not using_fallback_font():
        return text
    for bad, good in _FALLBACK_REPLACEMENTS.items():
        text = text.replace(bad, good)
    # Anything beyond Latin Extended-B is likely missing too: a "?" reads better than a box.
    return "".join(ch if ord(ch) <= 0x24F else "?" for ch in text)


# ----------------------------------------------------------------------------- clipped-text watch

_CLIPPED: ContextVar[list[str] | None] = ContextVar("agora_renderer_clipped", default=None)
_DRAWN: ContextVar[list[str] | None] = ContextVar("agora_renderer_drawn", default=None)


@contextlib.contextmanager
def text_watch() -> Iterator[list[str]]:
    """Collect every string :func:`draw_text` draws (tests: what a board says, in words)."""
    drawn: list[str] = []
    token = _DRAWN.set(drawn)
    try:
        yield drawn
    finally:
        _DRAWN.reset(token)


@contextlib.contextmanager
def clip_watch() -> Iterator[list[str]]:
    """Collect every text the helpers below had to cut (with "…") or could not fit its box.

    Why: a board must never silently drop information (a cut "Wonder stage 2: trade from…"
    hid a price from a player). Layouts grow instead of cutting; tests render many random
    views inside this context and assert the list stays empty.
    """
    clipped: list[str] = []
    token = _CLIPPED.set(clipped)
    try:
        yield clipped
    finally:
        _CLIPPED.reset(token)


def report_clip(text: str) -> None:
    """Record that ``text`` did not fit where it was drawn (no-op outside :func:`clip_watch`)."""
    clipped = _CLIPPED.get()
    if clipped is not None:
        clipped.append(text)


# ----------------------------------------------------------------------------- text helpers


@functools.lru_cache(maxsize=4096)
def text_width(text: str, fnt: Font) -> float:
    """Advance width of ``text`` in pixels (cached: panels measure the same strings every turn)."""
    if isinstance(fnt, ImageFont.FreeTypeFont):
        return fnt.getlength(text)
    left, _, right, _ = fnt.getbbox(text)
    return float(right - left)


_SPRITE_MAX_CHARS: Final[int] = 48  # longer strings (log lines, status sentences) rarely repeat

# Text of this size and larger is drawn without anti-aliasing (FreeType's monochrome
# rendering, which is hinted for it). Why: the grey edge pixels of anti-aliased glyphs are
# most of what a board's PNG spends its bytes on (about a quarter of the file measured on a
# finished Duellum board), while glyphs this large stay smooth to the eye, and a phone that
# shows the board 400 px wide averages the edges anyway. Smaller text keeps its grey edges,
# which it needs to stay legible.
ALIASED_FROM: Final[int] = 20


def _font_size(fnt: ImageFont.FreeTypeFont) -> int:
    return int(getattr(fnt, "size", 0))


@dataclass(frozen=True, slots=True)
class TextMasks:
    """The coverage masks of one string and where each goes relative to the anchor point."""

    fill_at: tuple[int, int]
    fill: Image.Image
    stroke_at: tuple[int, int]
    stroke: Image.Image | None


def _render_masks(text: str, fnt: ImageFont.FreeTypeFont, anchor: str, stroke: int) -> TextMasks:
    """Masks of ``text`` as ``ImageDraw.text`` would draw them at a whole-pixel anchor point.

    Upright fonts take FreeType's mask as it comes (``getmask2``, with its offset): one
    layout and one raster per mask. Slanted fonts are drawn into a box measured with
    ``getbbox``, as before: an oblique glyph can reach a pixel past that box, which this
    path cuts, and boards keep their pixels (tests/renderer/test_base.py compares both).
    """
    mode = "1" if _font_size(fnt) >= ALIASED_FROM else "L"
    if not _slanted(fnt):
        core, fill_at = fnt.getmask2(text, mode, anchor=anchor, start=(0.0, 0.0))
        fill = Image.Image()._new(core)
        if not stroke:
            return TextMasks(fill_at, fill, fill_at, None)
        stroke_core, stroke_at = fnt.getmask2(
            text, mode, stroke_width=stroke, anchor=anchor, start=(0.0, 0.0), stroke_filled=True
        )
        return TextMasks(fill_at, fill, stroke_at, Image.Image()._new(stroke_core))
    box = fnt.getbbox(text, anchor=anchor, stroke_width=stroke)
    left, top, right, bottom = math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3])
    size = (max(1, right - left), max(1, bottom - top))
    fill_mask = Image.new("L", size, 0)
    pen = ImageDraw.Draw(fill_mask)
    pen.fontmode = mode
    pen.text((-left, -top), text, fill=255, font=fnt, anchor=anchor)
    stroke_mask = None
    if stroke:
        stroke_mask = Image.new("L", size, 0)
        pen = ImageDraw.Draw(stroke_mask)
        pen.fontmode = mode
        pen.text((-left, -top), text, fill=255, font=fnt, anchor=anchor, stroke_width=stroke)
    return TextMasks((left, top), fill_mask, (left, top), stroke_mask)


def _slanted(fnt: ImageFont.FreeTypeFont) -> bool:
    style = str(getattr(fnt.font, "style", "")).lower()
    return "italic" in style or "oblique" in style


@functools.lru_cache(maxsize=2048)
def _sprite(text: str, fnt: ImageFont.FreeTypeFont, anchor: str, stroke: int) -> TextMasks:
    """Cached :func:`_render_masks`.

    Why: rasterising glyphs is most of the cost of a turn's image, and most strings (numbers,
    captions, names) repeat every turn; a cached mask is blitted with ``ImageDraw.bitmap``.
    """
    return _render_masks(text, fnt, anchor, stroke)


@functools.lru_cache(maxsize=256)
def _long_sprite(text: str, fnt: ImageFont.FreeTypeFont, anchor: str, stroke: int) -> TextMasks:
    """Cached masks of long strings (sentences): fewer of them are kept, as each is larger;
    event-card texts, footers and the bank line repeat from one turn's board to the next."""
    return _render_masks(text, fnt, anchor, stroke)


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fnt: Font,
    fill: RGB = INK,
    *,
    anchor: str = "la",
    stroke: int = 0,
    stroke_fill: RGB = WHITE,
) -> None:
    """Draw ``text`` at ``xy`` with a Pillow ``anchor``; a ``stroke`` halo keeps it readable on lines.

    TrueType text is drawn from cached masks (positions rounded to whole pixels); long
    sentences have a cache of their own, smaller in entries, so neither grows large.
    Bitmap fallback fonts (no anchor support) are placed by hand.
    """
    text = safe_text(text)
    if not text:
        return
    drawn = _DRAWN.get()
    if drawn is not None:
        drawn.append(text)
    if isinstance(fnt, ImageFont.FreeTypeFont):
        masks = _sprite if len(text) <= _SPRITE_MAX_CHARS else _long_sprite
        drawn_masks = masks(text, fnt, anchor, stroke)
        px, py = round(xy[0]), round(xy[1])
        if drawn_masks.stroke is not None:
            sx, sy = drawn_masks.stroke_at
            draw.bitmap((px + sx, py + sy), drawn_masks.stroke, fill=stroke_fill)
        fx, fy = drawn_masks.fill_at
        draw.bitmap((px + fx, py + fy), drawn_masks.fill, fill=fill)
        return
    left, top, right, bottom = fnt.getbbox(text)
    w, h = right - left, bottom - top
    x, y = xy
    x -= {"l": 0, "m": w / 2, "r": w}.get(anchor[0], 0)
    y -= {"a": 0, "t": 0, "m": h / 2, "s": h, "b": h, "d": h}.get(anchor[1], 0)
    draw.text((x, y), text, fill=fill, font=fnt)


def wrap(text: str, fnt: Font, max_width: float, max_lines: int | None = None) -> list[str]:
    """Greedy word wrap to ``max_width`` pixels; over-long words are cut; the last kept line ends in "…"."""
    text = safe_text(text)
    ellipsis = safe_text("…")
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        current = ""
        for word in paragraph.split():
            trial = f"{current} {word}" if current else word
            if text_width(trial, fnt) <= max_width:
                current = trial
                continue
            if current:
                lines.append(current)
            if text_width(word, fnt) > max_width and len(word) > 1:
                report_clip(word)
            while text_width(word, fnt) > max_width and len(word) > 1:
                cut = len(word) - 1
                while cut > 1 and text_width(word[:cut], fnt) > max_width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            current = word
        lines.append(current)
    if max_lines is not None and len(lines) > max_lines:
        report_clip(text)
        lines = lines[:max_lines]
        last = lines[-1]
        while last and text_width(last + ellipsis, fnt) > max_width:
            last = last[:-1]
        lines[-1] = last.rstrip() + ellipsis
    return lines


def fit_text(text: str, fnt: Font, max_width: float) -> str:
    """``text`` cut with "…" so it fits ``max_width`` on one line (a cut is reported to
    :func:`clip_watch`: use it only as a last resort after the layout tried to make room)."""
    return wrap(text.replace("\n", " "), fnt, max_width, max_lines=1)[0] if text else ""


def fit_font(text: str, size: int, max_width: float, style: str = "regular", min_size: int = 12) -> Font:
    """The largest font of ``style`` from ``size`` down to ``min_size`` in which ``text`` fits
    ``max_width`` on one line; reported as clipped when even ``min_size`` is too wide."""
    for s in range(size, min_size - 1, -1):
        fnt = font(s, style)
        if text_width(safe_text(text), fnt) <= max_width:
            return fnt
    report_clip(text)
    return font(min_size, style)


def draw_lines(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    lines: Iterable[str],
    fnt: Font,
    fill: RGB = INK,
    line_height: float | None = None,
) -> float:
    """Draw lines top-down from ``xy``; returns the y below the last line."""
    x, y = xy
    step = line_height if line_height is not None else line_height_of(fnt)
    for line in lines:
        draw_text(draw, (x, y), line, fnt, fill)
        y += step
    return y


_PIECE: Final[re.Pattern[str]] = re.compile(r".+?(?:[,;:·—] |$)")


def line_pieces(text: str) -> list[str]:
    """``text`` cut after each separator (comma, semicolon, colon, middle dot, dash) and its
    space: the pieces :func:`draw_pieces` draws."""
    return _PIECE.findall(text)


def draw_pieces(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, fnt: Font, fill: RGB) -> None:
    """Draw one line of text as its pieces (``"Bank: "``, ``"fish 9, "``, ``"tax 12."``).

    Why pieces: a whole sentence (a bank's stock, a title with the round) is new on nearly
    every board, and rasterising it costs about 10 µs a letter, while its pieces recur and
    come from the text cache. Each piece starts where it starts in the whole line (advances
    add up: the fonts have no kerning across a space), rounded to a whole pixel: a piece can
    sit one pixel left or right of where drawing the line whole puts it.
    """
    x, y = xy
    for piece in line_pieces(text):
        draw_text(draw, (x, y), piece.rstrip(" "), fnt, fill)
        x += text_width(piece, fnt)


def line_height_of(fnt: Font) -> float:
    """A comfortable line step for ``fnt`` (ascent + descent + a little air)."""
    if isinstance(fnt, ImageFont.FreeTypeFont):
        ascent, descent = fnt.getmetrics()
        return float(ascent + descent + 2)
    _, top, _, bottom = fnt.getbbox("Ag")
    return float(bottom - top + 4)


# ----------------------------------------------------------------------------- images


def new_canvas(size: tuple[int, int], colour: RGB = PAPER) -> Image.Image:
    """A fresh RGB canvas (RGB, not RGBA: a third less data to encode, and chat apps flatten alpha)."""
    return Image.new("RGB", size, colour)


# PNG encoding. Pillow's PNG encoder picks a filter per row by trying several (adaptive
# filtering); on a 1600 x 1800 board that alone took ~60 ms here even at compress_level=1,
# more than drawing the whole turn. Flat-colour art compresses as well without row filters, so
# this writer emits filter type 0 rows and deflates them itself. The output is a standard
# 8-bit PNG that any decoder reads, and deterministic for the same pixels and deflate library.
#
# Boards are written as palette images (``colours``): the art is flat colours plus the
# anti-aliased edges of text, so 64 colours chosen for the image (fast octree, no dithering)
# look the same at full size and when a chat app scales the image, and a palette PNG is a
# third of the raw data. The rows are deflated with libdeflate (the ``deflate`` package), not
# zlib: on a 1200 x 2500 Duellum board its level 4 takes 8.9 ms for 123 KiB where zlib took
# 19 ms at level 5 for 120 KiB and 11.6 ms at level 1 for 177 KiB (measured with
# bench/bench_render_size.py). A board still over 150 KiB (a turn of five conquests, an
# 8-city table at the end) is deflated again at level 6 (about 12% smaller, 1.4 times the
# time), then 9 (~100 ms on a 1200 x 4200 table); never libdeflate's 10-12, whose
# optimal parsing took 2.5 s on that table. A higher first level everywhere would cost more
# CPU on every board for bytes only the rare full board needs.
PNG_ZLIB_LEVEL: Final[int] = 3
BOARD_COLOURS: Final[int] = 64
BOARD_ZLIB_LEVEL: Final[int] = 4
BOARD_FALLBACK_LEVELS: Final[tuple[int, ...]] = (6, 9)
_PNG_SIGNATURE: Final[bytes] = b"\x89PNG\r\n\x1a\n"
_PNG_COLOUR_TYPE: Final[Mapping[str, tuple[int, int]]] = {"L": (0, 1), "RGB": (2, 3), "RGBA": (6, 4), "P": (3, 1)}


def _png_chunk(kind: bytes, data: bytes | bytearray) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


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


def _scanlines(image: Image.Image) -> bytes | bytearray:
    """The image's rows, each preceded by filter type 0, as one buffer.

    Why this way for one-byte pixels (boards are palette images): the buffer is made zeroed,
    an image of one more column is laid over it (Pillow shares the memory), and the pixels are
    pasted one column to the right: one copy in C, and the buffer then holds the PNG scanlines
    with their zero filter bytes (joining 2,500 rows in Python, or pasting then reading the
    image back, cost two to three times as much). Multi-byte pixels (RGB, RGBA: only the
    lossless writer uses them) are joined.
    """
    width, height = image.size
    if image.mode in ("L", "P"):
        buffer = bytearray((width + 1) * height)
        padded = Image.frombuffer(image.mode, (width + 1, height), buffer, "raw", image.mode, 0, 1)
        padded.im.paste(image.im, (1, 0, width + 1, height))  # the core: shared memory, no copy-on-write
        return buffer
    stride = width * _PNG_COLOUR_TYPE[image.mode][1]
    raw = memoryview(image.tobytes())
    zero = b"\x00"
    return b"".join([part for y in range(height) for part in (zero, raw[y * stride : (y + 1) * stride])])


def _png(image: Image.Image, levels: Sequence[int], palette: bytes = b"", budget: int | None = None) -> bytes:
    """PNG bytes of ``image`` deflated at ``levels[0]``; each further level is tried only
    while the file is over ``budget`` bytes (a rare, very full board pays for a slower,
    tighter compression; every other board stays fast)."""
    colour_type, _ = _PNG_COLOUR_TYPE[image.mode]
    width, height = image.size
    data = _scanlines(image)
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    chunks = _png_chunk(b"IHDR", header)
    if palette:
        chunks += _png_chunk(b"PLTE", palette)
    out = b""
    for level in levels:
        idat = deflate.zlib_compress(data, level)
        out = _PNG_SIGNATURE + chunks + _png_chunk(b"IDAT", idat) + _png_chunk(b"IEND", b"")
        if budget is None or len(out) <= budget:
            break
    return out


def encode_png(image: Image.Image, level: int = PNG_ZLIB_LEVEL, colours: int | None = None) -> bytes:
    """PNG bytes of ``image`` (RGB, RGBA or L, lossless; other modes are converted to RGB).

    With ``colours`` the image is first reduced to a palette of that many colours and written
    as an indexed PNG (what the boards use: see the comment above).
    """
    if colours is not None:
        image = quantized(image, colours)
        return _png(image, (level,), _palette_bytes(image))
    if image.mode not in _PNG_COLOUR_TYPE or image.mode == "P":
        image = image.convert("RGB")
    return _png(image, (level,))


def _palette_bytes(image: Image.Image) -> bytes:
    """The PLTE data of a :func:`quantized` image: its whole palette as Pillow keeps it.

    Why whole, not cut after the highest index used: finding that index took a pass over
    every pixel (2 ms on a board), and the palette is at most ``colours`` entries (64 on a
    board: 192 bytes) — and every index the mapping can produce has its entry."""
    return bytes(image.getpalette() or [0, 0, 0])


BOARD_BUDGET: Final[int] = 150 * 1024  # bytes: a board over this is deflated harder (BOARD_FALLBACK_LEVELS)


def encode_board(image: Image.Image, kind: PaletteKind | None = None) -> bytes:
    """A board or hand image as a compact palette PNG (see :data:`BOARD_COLOURS`), at most
    :data:`BOARD_BUDGET` bytes for every board the tests and benchmarks produce.

    With a ``kind`` the colours are those of the kind's palette (chosen once per process, see
    :func:`kind_palette`) instead of being chosen for this image: half the quantizer's time.
    """
    if kind is None:
        palette_image = quantized(image, BOARD_COLOURS)
    else:
        rgb = image if image.mode == "RGB" else image.convert("RGB")
        palette_image = rgb.quantize(palette=kind_palette(kind, rgb), dither=Image.Dither.NONE)
    levels = (BOARD_ZLIB_LEVEL, *BOARD_FALLBACK_LEVELS)
    return _png(palette_image, levels, _palette_bytes(palette_image), BOARD_BUDGET)


# ----------------------------------------------------------------------------- static-layer cache


@dataclass(frozen=True, slots=True)
class CacheInfo:
    """Counters of a :class:`LayerCache`: ``builds`` is how often a static layer was drawn."""

    hits: int
    builds: int
    size: int
    maxsize: int


V = TypeVar("V")


class _CountedLRU(Generic[V]):
    """What :class:`LayerCache` and :class:`SpriteCache` share: an ordered map under a lock,
    hit and build counters, and the ``info()``/``clear()`` that read and reset them.

    Why a base: both caches are asserted on by tests through the same :class:`CacheInfo`, and
    a counter added to one (or a reset forgotten in ``clear``) must not drift from the other.
    Subclasses say what ``size`` and ``maxsize`` mean (:meth:`_limit`) and reset their own
    extra state (:meth:`_reset`).
    """

    def __init__(self) -> None:
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.builds = 0

    def _limit(self) -> int:
        """The bound reported as ``CacheInfo.maxsize`` (entries or pixels)."""
        raise NotImplementedError

    def _reset(self) -> None:
        """Reset subclass state with the items (called under the lock)."""

    def info(self) -> CacheInfo:
        """Hit/build counters, size in entries and the bound (tests assert that art is not redrawn)."""
        with self._lock:
            return CacheInfo(self.hits, self.builds, len(self._items), self._limit())

    def clear(self) -> None:
        """Drop every cached item and reset the counters."""
        with self._lock:
            self._items.clear()
            self.hits = 0
            self.builds = 0
            self._reset()


class LayerCache(_CountedLRU[T]):
    """A small thread-safe LRU of static layers, keyed by e.g. (game, map side, size).

    Why: the map base (regions, borders, names) is the most expensive part of a board and
    never changes during a game; drawing it once per process and copying it per turn keeps
    a turn's render cheap. The cached value must be treated as read-only (callers copy it).
    """

    def __init__(self, maxsize: int = 8) -> None:
        super().__init__()
        self.maxsize = maxsize

    def _limit(self) -> int:
        return self.maxsize

    def get(self, key: Hashable, build: Callable[[], T]) -> T:
        """The cached value for ``key``, building it with ``build()`` on a miss."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                self.hits += 1
                return self._items[key]
            value = build()
            self.builds += 1
            self._items[key] = value
            while len(self._items) > self.maxsize:
                self._items.popitem(last=False)
            return value


STATIC_LAYERS: LayerCache[Any] = LayerCache(maxsize=4)  # a 1600 x 1790 base is ~8.6 MB
"""The process-wide cache of static layers shared by all game renderers."""


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


# ----------------------------------------------------------------------------- cached art (sprites)

Box4 = tuple[float, float, float, float]
Band = tuple[Image.Image, tuple[int, int], Image.Image | None]
"""Rows of a masked sprite: their pixels, where they go in the tile, their "1" mask (None: all)."""


@dataclass(frozen=True, slots=True)
class Sprite:
    """Art drawn once: its pixels, and the texts drawing it showed and had to cut (replayed to
    :func:`text_watch` and :func:`clip_watch` on every use, as if it had been drawn again)."""

    image: Image.Image
    texts: tuple[str, ...]
    clipped: tuple[str, ...]
    bands: tuple[Band, ...] = ()  # what is pasted of a masked sprite (see masked_art)

    @property
    def pixels(self) -> int:
        """Pixels held (what :class:`SpriteCache` bounds)."""
        return self.image.width * self.image.height + sum(b.width * b.height for b, _, _ in self.bands)


class SpriteCache(_CountedLRU[Sprite]):
    """A thread-safe LRU of :class:`Sprite` bounded by the pixels it holds, not by entries.

    Why pixels: sprites range from a 60 px badge to a 600 x 500 nation panel, and what must
    stay bounded is memory (an RGB pixel is 4 bytes in Pillow). A sprite is built outside
    the lock (two threads may both build a missing one; both results are equal), so a slow
    build never holds up threads that only read.
    """

    def __init__(self, max_pixels: int) -> None:
        super().__init__()
        self.max_pixels = max_pixels
        self.pixels = 0

    def _limit(self) -> int:
        return self.max_pixels  # ``CacheInfo.size`` stays in entries

    def _reset(self) -> None:
        self.pixels = 0

    def get(self, key: Hashable, build: Callable[[], Sprite]) -> Sprite:
        """The sprite for ``key``, built with ``build()`` on a miss."""
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
                self.hits += 1
                return found
        sprite = build()
        size = sprite.pixels
        with self._lock:
            self.builds += 1
            if size > self.max_pixels or key in self._items:
                return sprite
            self._items[key] = sprite
            self.pixels += size
            while self.pixels > self.max_pixels:
                _, old = self._items.popitem(last=False)
                self.pixels -= old.pixels
        return sprite


SPRITES: Final[SpriteCache] = SpriteCache(max_pixels=8_000_000)  # ~32 MB of RGB pixels
"""The process-wide cache of drawn panels and cards (see :func:`cached_art`)."""

PIECES: Final[SpriteCache] = SpriteCache(max_pixels=2_000_000)  # ~8 MB: ~900 chips and city tokens
"""Small art that recurs on many boards (a map's unit chips and city tokens, see :func:`masked_art`):
kept apart so that a turn's large new panels do not push it out of :data:`SPRITES`."""

_FRESH: ContextVar[bool] = ContextVar("agora_renderer_fresh_art", default=False)
_NO_TILE: Final[Image.Image] = Image.new("RGB", (1, 1))  # the image of a masked sprite: only its bands are kept


@contextlib.contextmanager
def fresh_art() -> Iterator[None]:
    """Draw everything directly, bypassing :data:`SPRITES` (tests compare both ways)."""
    token = _FRESH.set(True)
    try:
        yield
    finally:
        _FRESH.reset(token)


def drawing_fresh() -> bool:
    """True inside :func:`fresh_art` (art composed from several sprites draws itself whole)."""
    return _FRESH.get()


def cached_art(
    image: Image.Image,
    box: Box4,
    key: Hashable,
    draw_art: Callable[[ImageDraw.ImageDraw, Box4], None],
    *,
    background: RGB,
    margin: int = 0,
) -> None:
    """Draw ``draw_art(draw, box)`` on ``image`` through :data:`SPRITES`: the art is drawn once
    on a tile of ``background`` and pasted on later calls with an equal ``key``.

    Why: panels and cards that repeat from one turn's board to the next (an event card's whole
    text, a nation's title bar) cost more to draw than to paste. The pasted pixels are those
    drawing them in place gives, byte for byte, under three conditions the callers keep:
    ``key`` names everything ``draw_art`` reads besides the box (the box itself, relative to
    the tile, and the fonts are added here); the art stays within ``box`` grown by ``margin``;
    and the canvas there is plain ``background`` when it is drawn. The tile's corner is put on
    even pixel coordinates, so positions rounded half-to-even (text) and truncated or rounded
    half-up (Pillow's shapes) land on the same pixels in the tile as on the board. Art whose
    points come from trigonometry with exact ties (a gear's tooth at sin(pi), ~1e-16 off zero)
    can round the other way at another origin: such art is not drawn through here (the test
    tests/renderer/test_cached_art.py compares whole boards both ways).
    """
    if _FRESH.get():
        draw_art(ImageDraw.Draw(image), box)
        return
    left = math.floor(box[0]) - margin
    top = math.floor(box[1]) - margin
    left -= left % 2
    top -= top % 2
    size = (math.ceil(box[2]) + margin + 1 - left, math.ceil(box[3]) + margin + 1 - top)
    local = (box[0] - left, box[1] - top, box[2] - left, box[3] - top)

    def build() -> Sprite:
        tile = Image.new("RGB", size, background)
        texts: list[str] = []
        clipped: list[str] = []
        drawn_token, clipped_token = _DRAWN.set(texts), _CLIPPED.set(clipped)
        try:
            draw_art(ImageDraw.Draw(tile), local)
        finally:
            _DRAWN.reset(drawn_token)
            _CLIPPED.reset(clipped_token)
        return Sprite(tile, tuple(texts), tuple(clipped))

    sprite = SPRITES.get((key, local, size, background, fonts_signature()), build)
    image.paste(sprite.image, (left, top))
    if (drawn := _DRAWN.get()) is not None:
        drawn.extend(sprite.texts)
    if (cut := _CLIPPED.get()) is not None:
        cut.extend(sprite.clipped)


def masked_art(
    image: Image.Image,
    box: Box4,
    key: Hashable,
    draw_art: Callable[[ImageDraw.ImageDraw, Box4], None],
    *,
    margin: int = 0,
    cache: SpriteCache | None = None,
) -> None:
    """:func:`cached_art` for art over a background that is not plain (a province box over a
    map's links): the sprite is pasted through a 1-bit mask of the pixels the art covers.

    The mask is found when the sprite is built, by drawing the art twice, on black and on
    white: a pixel the art covers has the same colour on both tiles, every other pixel differs.
    That is exact for art drawn only with opaque, aliased strokes (Pillow's shapes, text from
    :data:`ALIASED_FROM` px up); an anti-aliased edge would be left out of the mask, which the
    boards compared byte for byte against :func:`fresh_art` would show. The same conditions
    on ``key``, ``box`` and ``margin`` as for :func:`cached_art` apply. Pasting through a mask
    costs several times a plain copy, so the sprite is kept as bands of rows (see
    :func:`_bands`): the solid middle of a box is copied, only its rounded edges are masked.
    ``cache`` keeps small, frequent art (a map's pieces) apart from :data:`SPRITES`, where
    large panels would push it out.
    """
    if _FRESH.get():
        draw_art(ImageDraw.Draw(image), box)
        return
    left = math.floor(box[0]) - margin
    top = math.floor(box[1]) - margin
    left -= left % 2
    top -= top % 2
    size = (math.ceil(box[2]) + margin + 1 - left, math.ceil(box[3]) + margin + 1 - top)
    local = (box[0] - left, box[1] - top, box[2] - left, box[3] - top)

    def build() -> Sprite:
        tiles = [Image.new("RGB", size, BLACK), Image.new("RGB", size, WHITE)]
        texts: list[str] = []
        clipped: list[str] = []
        drawn_token, clipped_token = _DRAWN.set(texts), _CLIPPED.set(clipped)
        try:
            draw_art(ImageDraw.Draw(tiles[0]), local)
            _DRAWN.set([])
            _CLIPPED.set([])
            draw_art(ImageDraw.Draw(tiles[1]), local)
        finally:
            _DRAWN.reset(drawn_token)
            _CLIPPED.reset(clipped_token)
        uncovered = ImageChops.difference(tiles[0], tiles[1]).convert("L")
        # Only the bands are pasted: the tile itself is not kept (half the pixels held).
        return Sprite(_NO_TILE, tuple(texts), tuple(clipped), _bands(tiles[0], uncovered))

    sprite = (cache or SPRITES).get(("masked", key, local, size, fonts_signature()), build)
    canvas = image.im  # the core: Image.paste's checks cost more than these small copies
    for band, (x, y), band_mask in sprite.bands:
        area = (left + x, top + y, left + x + band.width, top + y + band.height)
        if band_mask is None:
            canvas.paste(band.im, area)
        else:
            canvas.paste(band.im, area, band_mask.im)
    if (drawn := _DRAWN.get()) is not None:
        drawn.extend(sprite.texts)
    if (cut := _CLIPPED.get()) is not None:
        cut.extend(sprite.clipped)


def _bands(tile: Image.Image, uncovered: Image.Image) -> tuple[Band, ...]:
    """``tile`` cut into runs of rows for pasting, from the "L" image ``uncovered`` (0 where
    the art covers a pixel): a run of at least :data:`SOLID_RUN` rows that the art covers over
    one same span is copied without a mask; the rows around it (rounded corners, a badge) go
    through their mask, cropped to the columns covered; rows the art leaves alone are skipped.
    Why runs: each paste has a fixed cost, so a box is three bands, not one per corner row."""
    width, height = tile.size
    data = uncovered.tobytes()
    rows: list[tuple[int, int, int, bool]] = []  # row, left, right, solid
    previous, found = b"", (-1, 0, False)
    for y in range(height):
        row = data[y * width : (y + 1) * width]
        if row != previous:
            x0 = row.find(0)
            x1 = row.rfind(0) + 1
            found, previous = (x0, x1, x0 >= 0 and row.find(255, x0, x1) < 0), row
        if found[0] >= 0:
            rows.append((y, *found))
    runs: list[list[Any]] = []  # [first row, end row, left, right, solid]
    for y, x0, x1, solid in rows:
        last = runs[-1] if runs else None
        if last is not None and last[1] == y and last[4] == solid and (not solid or last[2:4] == [x0, x1]):
            last[1:4] = [y + 1, min(last[2], x0), max(last[3], x1)]
        else:
            runs.append([y, y + 1, x0, x1, solid])
    merged: list[list[Any]] = []
    for run in runs:
        if run[4] and run[1] - run[0] < SOLID_RUN:
            run[4] = False
        last = merged[-1] if merged else None
        if last is not None and not last[4] and not run[4] and last[1] == run[0]:
            last[1:4] = [run[1], min(last[2], run[2]), max(last[3], run[3])]
        else:
            merged.append(run)
    bands: list[Band] = []
    for y0, y1, x0, x1, solid in merged:
        area = (x0, y0, x1, y1)
        bands.append((tile.crop(area), (x0, y0), None if solid else uncovered.crop(area).point(_COVERED, "1")))
    return tuple(bands)


SOLID_RUN: Final[int] = 4
_COVERED: Final[list[int]] = [255] + [0] * 255  # "uncovered" levels to a mask of the covered pixels
