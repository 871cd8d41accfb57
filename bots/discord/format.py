"""Discord text: the command layer's Markdown is Discord's own, so only two things change —
command hints name the slash command (`/agora moves`), and long text is split at Discord's
2000-character message limit on line boundaries."""

from __future__ import annotations

import re

from workers.client import ALIASES, COMMANDS

MESSAGE_LIMIT = 2000
_HINT = re.compile(r"`([a-z?]+)((?: [^`\n]*)?)`")


def slash_hints(text: str) -> str:
    """``\\`moves\\``` -> ``\\`/agora moves\\```: the command layer writes commands as typed
    words; on Discord they are subcommands of ``/agora``."""

    def repl(m: re.Match[str]) -> str:
        word = m.group(1)
        if word in COMMANDS or word in ALIASES or word == "link":
            return f"`/agora {ALIASES.get(word, word)}{m.group(2)}`"
        return m.group(0)

    return _HINT.sub(repl, text)


def split_text(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Chunks of at most ``limit`` characters, cut at line ends where possible."""
    text = text.strip()
    if not text:
        return []
    out: list[str] = []
    while len(text) > limit:
        cut = text.rfind("\n", 0, limit)
        if cut <= 0:
            cut = limit
        out.append(text[:cut].rstrip())
        text = text[cut:].lstrip("\n")
    if text:
        out.append(text)
    return out
