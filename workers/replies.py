"""Platform-neutral replies: text, an optional image, buttons, and who may see them.

Why neutral: every adapter (Telegram, Discord, console) shows the same reply its own way —
``private`` parts go to the user's private chat (Telegram), an ephemeral message (Discord) or
the terminal (console), and never to a group.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Button:
    """A button: ``label`` to show, ``token`` to send back through ``client.press``."""

    label: str
    token: str


@dataclass(slots=True)
class Part:
    """One message of a reply."""

    text: str = ""
    image: bytes | None = None
    image_name: str = "board.png"
    pages: list[bytes] = field(default_factory=list)
    """Further public images after ``image`` (one per city in The Capitals): Telegram posts
    them as an album after the board photo, Discord as more files; empty for most games."""
    private: bool = False
    buttons: list[list[Button]] = field(default_factory=list)
    ok: bool = True
    code: str = "ok"
    # A person named in the text (their user key and the name as written) whom the platform
    # should notify: a Telegram text mention, a Discord <@id> (group reminders, for example).
    mention: str = ""
    mention_name: str = ""
    invite: bool = True
    """For a private part whose private chat is not open: invite the user to open it (a hand,
    a secret choice). False for a detail whose gist was already said in public (a refusal's
    exact reason), where an invitation would only be noise."""
    game: str = ""
    """The game the part belongs to (prompts, move lists), so an adapter keeps one live
    keyboard per game and chat: a prompt of one game never takes the buttons of another's."""


Reply = list[Part]


def say(text: str, *, private: bool = False, ok: bool = True, code: str = "ok") -> Reply:
    """A reply of one text part."""
    return [Part(text=text, private=private, ok=ok, code=code)]


def error(text: str, code: str = "error", *, private: bool = False) -> Reply:
    """A refusal: says what was wrong and what would be accepted."""
    return [Part(text=text, private=private, ok=False, code=code)]
