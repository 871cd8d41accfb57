"""Text on boards: drawing it from cached glyph masks, wrapping and fitting it, and the
watches tests use to see what a board says and what it had to cut.

Why cached masks: rasterising glyphs is most of the cost of a turn's image, and most strings
(numbers, captions, names) repeat every turn. Why the clip watch: a board must never drop
information silently; layouts grow instead of cutting, and tests assert nothing was cut."""

from __future__ import annotations

import contextlib
import functools
import math
import re
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from renderer.colours import INK, RGB, WHITE
from renderer.typefaces import Font, font, safe_text

# ----------------------------------------------------------------------------- clipped-text watch

_CLIPPED: ContextVar[list[str] | None] = ContextVar("agora_renderer_clipped", default=None)
_DRAWN: ContextVar[list[str] | None] = ContextVar("agora_renderer_drawn", default=None)


@contextlib.contextmanager
def _collecting(into: ContextVar[list[str] | None]) -> Iterator[list[str]]:
    """A fresh list in ``into`` for the duration of the block (the watches below)."""
    found: list[str] = []
    token = into.set(found)
    try:
        yield found
    finally:
        into.reset(token)


def text_watch() -> contextlib.AbstractContextManager[list[str]]:
    """Collect every string :func:`draw_text` draws (tests: what a board says, in words)."""
    return _collecting(_DRAWN)


def clip_watch() -> contextlib.AbstractContextManager[list[str]]:
    """Collect every text the helpers below had to cut (with "…") or could not fit its box.

    Why: a board must never silently drop information (a cut "Wonder stage 2: trade from…"
    hid a price from a player). Layouts grow instead of cutting; tests render many random
    views inside this context and assert the list stays empty.
    """
    return _collecting(_CLIPPED)


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


def clear_masks() -> None:
    """Forget every cached glyph mask (the fonts changed: see ``base.clear_font_cache``)."""
    _sprite.cache_clear()
    _long_sprite.cache_clear()
