"""PNG bytes of a board or a hand: unfiltered rows deflated with libdeflate, palette images
for boards, a harder deflate only for the rare board over budget.

Why not Pillow's PNG writer: its adaptive row filters cost more than drawing the whole turn
(the comment below has the figures)."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Mapping, Sequence
from typing import Final

import deflate
from PIL import Image

from renderer.palettes import BOARD_COLOURS, PaletteKind, kind_palette, quantized

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
BOARD_ZLIB_LEVEL: Final[int] = 4
BOARD_FALLBACK_LEVELS: Final[tuple[int, ...]] = (6, 9)
_PNG_SIGNATURE: Final[bytes] = b"\x89PNG\r\n\x1a\n"
_PNG_COLOUR_TYPE: Final[Mapping[str, tuple[int, int]]] = {"L": (0, 1), "RGB": (2, 3), "RGBA": (6, 4), "P": (3, 1)}


def _png_chunk(kind: bytes, data: bytes | bytearray) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


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
