"""Command-layer text to Telegram HTML, and Telegram's length limits.

Why HTML and a small converter: the command layer writes `code` and **bold**, and its texts
carry player names and engine messages that may contain ``<``, ``&`` or stray asterisks.
Telegram's HTML mode needs only ``&<>`` escaped, so everything is escaped and just the two
marker pairs become tags; an unmatched marker stays literal text instead of breaking the
message (MarkdownV2 would reject it).
"""

from __future__ import annotations

import html
import re

TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
_TOKEN = re.compile(r"\*\*(?P<bold>.+?)\*\*|`(?P<code>[^`\n]+)`", re.S)


def to_html(text: str) -> str:
    """Escape ``text`` for parse mode HTML, turning `code` and **bold** into tags."""
    out: list[str] = []
    pos = 0
    for m in _TOKEN.finditer(text):
        out.append(_escape(text[pos : m.start()]))
        if m.group("code") is not None:
            out.append(f"<code>{_escape(m.group('code'))}</code>")
        else:
            out.append(f"<b>{to_html(m.group('bold'))}</b>")
        pos = m.end()
    out.append(_escape(text[pos:]))
    return "".join(out)


def plain(text: str) -> str:
    """The visible text without markers (callback notices and command menus show no markup)."""
    return _TOKEN.sub(lambda m: m.group("code") if m.group("code") is not None else plain(m.group("bold")), text)


def split_text(text: str, limit: int = TEXT_LIMIT - 96) -> list[str]:
    """Cut a long text into messages at line breaks (hard cuts only for a giant line).

    The source is cut before conversion: markers only shrink the visible length, so every
    piece stays within Telegram's limit once converted.
    """
    text = text.strip()
    if not text:
        return []
    pieces: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                pieces.append(current)
                current = ""
            pieces.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            pieces.append(current)
            current = line
        else:
            current = candidate
    if current:
        pieces.append(current)
    return pieces


def caption_split(text: str, limit: int = CAPTION_LIMIT - 24) -> tuple[str, str]:
    """(caption, rest): the caption of a photo within Telegram's 1024 characters, and what
    did not fit (sent as a text message after the photo)."""
    text = text.strip()
    if len(text) <= limit:
        return text, ""
    cut = text.rfind("\n", 0, limit)
    if cut <= 0:
        cut = limit
    return text[:cut].rstrip(), text[cut:].strip()


def _escape(text: str) -> str:
    return html.escape(text, quote=False)
