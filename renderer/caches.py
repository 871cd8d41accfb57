"""What the renderers keep between turns: static layers (a map's base), drawn art (panels,
cards) and small pieces (unit chips, city tokens), each in a bounded, thread-safe LRU.

Why: the map base is the most expensive part of a board and never changes during a game, and
panels that repeat from one turn's board to the next cost more to draw than to paste. Every
cached drawing gives the pixels drawing it in place gives, byte for byte (tests compare
both ways with :func:`fresh_art`)."""

from __future__ import annotations

import contextlib
import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from PIL import Image, ImageChops, ImageDraw

from renderer.colours import BLACK, RGB, WHITE
from renderer.text import _CLIPPED, _DRAWN
from renderer.typefaces import fonts_signature

T = TypeVar("T")

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


def _tile(box: Box4, margin: int) -> tuple[int, int, tuple[int, int], Box4]:
    """Where the tile of art in ``box`` (grown by ``margin``) goes: its corner on even pixel
    coordinates (see :func:`cached_art`), its size, and ``box`` relative to the tile."""
    left = math.floor(box[0]) - margin
    top = math.floor(box[1]) - margin
    left -= left % 2
    top -= top % 2
    size = (math.ceil(box[2]) + margin + 1 - left, math.ceil(box[3]) + margin + 1 - top)
    return left, top, size, (box[0] - left, box[1] - top, box[2] - left, box[3] - top)


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
    left, top, size, local = _tile(box, margin)

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
    left, top, size, local = _tile(box, margin)

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
