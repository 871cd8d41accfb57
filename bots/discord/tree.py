"""The ``/agora`` command group: every subcommand with a description and described options.

Why one group: one entry in Discord's command picker, and the subcommands mirror the command
layer's words one to one (``/agora move text:rondel templum`` runs ``move rondel templum``),
so help texts and hints stay the same on every platform. Autocomplete: ``move`` offers my
legal moves filtered by what I typed; ``new`` offers the chosen game's options.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from workers.client import list_games

GROUP = "agora"
EXTRA_NEW_OPTIONS = {
    "hours": "hours per turn before the automatic player moves (default 48; 0 = no limit)",
    "thread": "yes: play in a thread of this channel, so a busy channel stays readable",
}


def _game_choices() -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=g["name"][:100], value=g["id"]) for g in list_games()][:25]


def option_choices(game: str, typed: str) -> list[tuple[str, str]]:
    """Completions of the last ``key=value`` word of ``new``'s options for ``game``."""
    found = next((g for g in list_games() if game in (g["id"], *g["aliases"])), None)
    known = {**(found["options"] if found else {}), **EXTRA_NEW_OPTIONS}
    head, _, last = typed.rpartition(" ")
    prefix = f"{head} " if head else ""
    key, sep, _ = last.partition("=")
    out = []
    if sep and key in known:
        return [(f"{typed} — {known[key]}"[:100], typed[:100])]
    for k, text in known.items():
        if k.startswith(key.lower()):
            out.append((f"{prefix}{k}= — {text}"[:100], f"{prefix}{k}="[:100]))
    return out[:25]


def build_group(handlers: Any) -> app_commands.Group:
    """The group, bound to ``handlers`` (:class:`bots.discord.handlers.Handlers`)."""
    group = app_commands.Group(name=GROUP, description="Play strategy board games in this channel")

    async def run(i: discord.Interaction[Any], word: str, *args: str | int | None) -> None:
        line = " ".join([word, *(str(a) for a in args if a is not None and str(a) != "")])
        await handlers.command(i, word, line)

    @group.command(name="new", description="Open a table for a game in this channel")
    @app_commands.describe(
        game="Which game to play (see /agora games)",
        options="Game options as key=value words, e.g. map=greece-persia hours=24 thread=yes",
    )
    @app_commands.choices(game=_game_choices())
    async def new(i: discord.Interaction[Any], game: str, options: str | None = None) -> None:
        await run(i, "new", game, options)

    @new.autocomplete("options")
    async def new_options(i: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        game = str(getattr(i.namespace, "game", "") or "")
        return [app_commands.Choice(name=n, value=v) for n, v in option_choices(game, current)]

    @group.command(name="join", description="Take a seat at the table here, or at any table by its join code")
    @app_commands.describe(code="The join code a table showed (e.g. g1f); empty: the table in this channel")
    async def join(i: discord.Interaction[Any], code: str | None = None) -> None:
        await run(i, "join", code)

    @group.command(name="leave", description="Leave the table before the game begins")
    async def leave(i: discord.Interaction[Any]) -> None:
        await run(i, "leave")

    @group.command(name="begin", description="Start the game; automatic players can fill empty seats")
    @app_commands.describe(bots="How many automatic players to add (0–8)", options="order=bots-first or seed=N")
    async def begin(i: discord.Interaction[Any], bots: app_commands.Range[int, 0, 8] | None = None,
                    options: str | None = None) -> None:
        await run(i, "begin", f"bots={bots}" if bots else None, options)

    @group.command(name="move", description="Make a move (start typing: your legal moves are offered)")
    @app_commands.describe(text="Your move in the game's notation, e.g. rondel templum")
    async def move(i: discord.Interaction[Any], text: str) -> None:
        await run(i, "move", text)

    @move.autocomplete("text")
    async def move_text(i: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        pairs = await handlers.move_choices(i, current)
        return [app_commands.Choice(name=n, value=v) for n, v in pairs]

    @group.command(name="moves", description="Your legal moves, grouped, with buttons (only you see them)")
    @app_commands.describe(all="yes: list every move as text instead of buttons")
    async def moves(i: discord.Interaction[Any], all: bool = False) -> None:
        await run(i, "moves", "all" if all else None)

    @group.command(name="board", description="The current board image")
    async def board(i: discord.Interaction[Any]) -> None:
        await run(i, "board")

    @group.command(name="status", description="Whose turn it is, what is awaited, the scores")
    async def status(i: discord.Interaction[Any]) -> None:
        await run(i, "status")

    @group.command(name="hand", description="Your private information (only you see it)")
    async def hand(i: discord.Interaction[Any]) -> None:
        await run(i, "hand")

    @group.command(name="log", description="The last things that happened")
    @app_commands.describe(n="How many lines (default 10)")
    async def log_(i: discord.Interaction[Any], n: app_commands.Range[int, 1, 50] | None = None) -> None:
        await run(i, "log", n)

    @group.command(name="undo", description="Take back your last move (only before anyone else moved)")
    async def undo(i: discord.Interaction[Any]) -> None:
        await run(i, "undo")

    @group.command(name="resign", description="Leave a running game")
    async def resign(i: discord.Interaction[Any]) -> None:
        await run(i, "resign")

    @group.command(name="help", description="How to play; with a game, its rules summary and notation")
    @app_commands.describe(game="A game to explain")
    @app_commands.choices(game=_game_choices())
    async def help_(i: discord.Interaction[Any], game: str | None = None) -> None:
        await run(i, "help", game)

    @group.command(name="games", description="The games you can start")
    async def games(i: discord.Interaction[Any]) -> None:
        await run(i, "games")

    @group.command(name="mygames", description="Your games on every platform, and where it is your turn")
    async def mygames(i: discord.Interaction[Any]) -> None:
        await run(i, "mygames")

    @group.command(name="settings", description="Your time zone and quiet hours for reminders")
    @app_commands.describe(values="e.g. tz=+2 quiet=22-8; empty shows your settings")
    async def settings(i: discord.Interaction[Any], values: str | None = None) -> None:
        await run(i, "settings", values)

    @group.command(name="link", description="Make your Discord and Telegram accounts one player")
    @app_commands.describe(code="The code `link` gave you on Telegram; empty: get a code to type there")
    async def link(i: discord.Interaction[Any], code: str | None = None) -> None:
        await run(i, "link", code)

    return group
