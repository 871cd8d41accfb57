"""Which games exist and how names (case-insensitive, aliases) find them.

Why lazy imports: a game package is loaded only when asked for, so a broken or half-built
game never stops the others (or the CLI) from starting, and start-up stays fast.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from engine.core.api import AnyGame
from engine.core.errors import UnknownGame


@dataclass(frozen=True, slots=True)
class _Entry:
    id: str
    name: str
    module: str
    cls: str
    aliases: tuple[str, ...]


_ENTRIES: tuple[_Entry, ...] = (
    _Entry("duellum", "Antike Duellum", "engine.duellum", "DuellumGame", ("antike-duellum", "antike", "ad")),
    _Entry(
        "seven-wonders",
        "7 Wonders",
        "engine.seven_wonders",
        "SevenWondersGame",
        ("7w", "7wonders", "7-wonders", "seven_wonders", "sevenwonders", "sw"),
    ),
    _Entry("clash", "Clash of Cultures", "engine.clash", "ClashGame", ("clash-of-cultures", "coc")),
    _Entry("mare-nostrum", "Mare Nostrum", "engine.mare_nostrum", "MareNostrumGame", ("mare_nostrum", "mn")),
    _Entry("capitals", "The Capitals", "engine.capitals", "CapitalsGame", ("the-capitals", "tc")),
)

_CACHE: dict[str, AnyGame] = {}


def _key(name: str) -> str:
    return name.strip().lower().replace(" ", "-")


def _entry(name: str) -> _Entry | None:
    key = _key(name)
    for e in _ENTRIES:
        if key == e.id or key in e.aliases or key == _key(e.name):
            return e
    return None


def _load(entry: _Entry) -> AnyGame | None:
    if entry.id not in _CACHE:
        if not entry.module:
            return None
        try:
            module = importlib.import_module(entry.module)
        except ModuleNotFoundError as exc:
            if exc.name is not None and entry.module.startswith(exc.name):
                return None
            raise
        cls = getattr(module, entry.cls, None)
        if cls is None:  # a package still being written: not available yet
            return None
        _CACHE[entry.id] = cls()
    return _CACHE[entry.id]


def find_game(name: str) -> AnyGame:
    """The game called ``name`` (its id, display name or an alias; any case).

    Raises:
        UnknownGame: no such game, or the game is not available in this version.
    """
    entry = _entry(name)
    if entry is None:
        known = ", ".join(g.id for g in list_games())
        raise UnknownGame(f"There is no game called `{name.strip()}`. Games you can play: {known}.")
    game = _load(entry)
    if game is None:
        known = ", ".join(g.id for g in list_games())
        raise UnknownGame(f"{entry.name} is not available yet. Games you can play: {known}.")
    return game


def register(game: AnyGame) -> None:
    """Make an extra game findable by its id and aliases (tests and plug-in games)."""
    _CACHE[game.id] = game
    if _entry(game.id) is None:
        global _ENTRIES
        _ENTRIES = (*_ENTRIES, _Entry(game.id, game.info.name, "", "", tuple(game.aliases)))


def list_games() -> list[AnyGame]:
    """Every game available in this installation, in a fixed order."""
    out = []
    for e in _ENTRIES:
        game = _load(e)
        if game is not None:
            out.append(game)
    return out
