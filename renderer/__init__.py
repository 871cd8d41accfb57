"""Board images for chat: engine view dict in, PNG bytes out.

Public API:

- :func:`render` — the public board image of a game (the same for every viewer);
- :func:`render_private` — one seat's private image (e.g. a hand of cards), or None;
- :func:`render_pages` — the further public images of a turn post after the board (one per
  city in The Capitals, one per player in Clash of Cultures), an empty list for games whose
  board is one image.

Why a dispatch table with a fallback: the platform posts an image after every turn of every
game, so a game without its own renderer yet still gets a plain status card
(:mod:`renderer.fallback`) instead of an error. An unknown game id is a programming error
and raises ``ValueError``.

Layering: this package imports only Pillow and (views/data of) ``engine`` — never Redis,
Celery or chat libraries — and only ever sees views, never full game states.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from renderer import capitals, clash, clash_cards, duellum, mare_nostrum, seven_wonders
from renderer.fallback import render_fallback

__all__ = ["GAMES", "has_pages", "render", "render_pages", "render_private"]


@dataclass(frozen=True, slots=True)
class _Renderer:
    title: str
    public: Callable[[Mapping[str, Any]], bytes] | None  # None: FALLBACK status card only
    private: Callable[[Mapping[str, Any]], bytes | None] | None


GAMES: Mapping[str, _Renderer] = {
    "duellum": _Renderer("Antike Duellum", duellum.render, duellum.render_private),
    "seven-wonders": _Renderer("7 Wonders", seven_wonders.render, seven_wonders.render_private),
    "clash": _Renderer("Clash of Cultures", clash.render, clash_cards.render_private),
    "capitals": _Renderer("The Capitals", capitals.render, capitals.render_private),
    "mare-nostrum": _Renderer("Mare Nostrum", mare_nostrum.render, mare_nostrum.render_private),
}

# Further public images posted after the board (an album in Telegram), by game; a game not
# listed posts its board alone.
PAGES: Mapping[str, Callable[[Mapping[str, Any]], list[bytes]]] = {
    "capitals": capitals.render_pages,
    "clash": clash.render_pages,
}


def _plugin_game(game_id: str) -> Any:
    """The engine's game of that id when it is one registered at run time, else None."""
    from engine import EngineError, find_game

    try:
        game = find_game(game_id)
    except EngineError:
        return None
    return game if game.id not in GAMES else None


def _entry(game_id: str) -> tuple[str, _Renderer]:
    key = game_id.strip().lower().replace("_", "-")
    entry = GAMES.get(key)
    if entry is None:
        plugin = _plugin_game(game_id)
        if plugin is not None:  # a game registered at run time (engine.register): FALLBACK card
            return plugin.id, _Renderer(plugin.info.name, None, None)
        known = ", ".join(GAMES)
        raise ValueError(f"No renderer for game {game_id!r}; known games: {known}.")
    return key, entry


def render(game_id: str, view: Mapping[str, Any]) -> bytes:
    """PNG bytes of the public board of ``game_id`` drawn from ``view``.

    Never contains private information, whichever seat's view is passed.

    Raises:
        ValueError: ``game_id`` is not a game Agora knows.
    """
    key, entry = _entry(game_id)
    if entry.public is None:
        return render_fallback(key, entry.title, view)
    return entry.public(view)


def render_private(game_id: str, view: Mapping[str, Any]) -> bytes | None:
    """PNG bytes of the viewer's private image (their hand), or None if there is nothing private.

    Raises:
        ValueError: ``game_id`` is not a game Agora knows.
    """
    _, entry = _entry(game_id)
    if entry.private is None:
        return None
    return entry.private(view)


def has_pages(game_id: str) -> bool:
    """Whether a turn post of ``game_id`` has pages after its board (:func:`render_pages`).

    Why: the callers skip the view and the cache lookups of pages for the games without any."""
    return game_id.strip().lower().replace("_", "-") in PAGES


def render_pages(game_id: str, view: Mapping[str, Any]) -> list[bytes]:
    """PNG bytes of the public images that follow the board in a turn post, in order (empty
    for a game whose board is a single image).

    Why separate images: a chat shows a photo at most about 2560 px on its long side, so a
    board too big for one legible photo (five cities of The Capitals) is posted as the board
    plus pages. Public like :func:`render`: never depends on whose view is passed.

    Raises:
        ValueError: ``game_id`` is not a game Agora knows.
    """
    key, _ = _entry(game_id)
    pages = PAGES.get(key)
    return pages(view) if pages is not None else []
