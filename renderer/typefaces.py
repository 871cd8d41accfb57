"""Fonts that exist on any host: DejaVu where installed, Liberation, Noto or Arial
elsewhere, Pillow's own scalable font as the last resort (never a crash), and a safe
spelling of the glyphs that last font lacks.

Why no fontconfig: the service runs in slim containers and on developers' laptops alike; a
board must render on both, with the same look wherever DejaVu is installed."""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from PIL import ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


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
