"""Buttons and select menus from the command layer's move buttons, persistent across restarts.

Why ``DynamicItem``: a component's ``custom_id`` carries everything a press needs — game,
version, seat and the command layer's button token (which holds the move in Redis, as a move
may not fit in 100 characters) — so a press is handled from the id alone, by a class
registered at start, even for a message posted before the bot restarted. The press is then
re-validated like typed text by the command layer.

Layout: up to ten moves become buttons (five to a row); more become select menus of 25
options each, up to five menus per message (the command layer pages beyond that with its
"more …" button). Decision: ten, because three rows of buttons already push the board image
off a phone screen, while a select menu stays one line tall.
"""

from __future__ import annotations

from typing import Any

import discord

MAX_BUTTON_ITEMS = 10
ROW_WIDTH = 5
SELECT_OPTIONS = 25
MAX_ROWS = 5
BUTTON_ID = r"ag:b:(?P<gid>[0-9a-z]+):(?P<v>\d+):(?P<seat>\d+):(?P<token>[A-Za-z0-9_-]+)"
SELECT_ID = r"ag:s:(?P<gid>[0-9a-z]+):(?P<v>\d+):(?P<seat>\d+):(?P<n>\d+)"


def _where(info: dict[str, Any] | None) -> tuple[str, int, int]:
    """(game, version, seat) of a button token's payload; ``x/0/0`` for an expired one."""
    if not info:
        return "x", 0, 0
    return str(info.get("g", "x")), int(info.get("v", 0)), int(info.get("s", 0))


async def _handle(interaction: discord.Interaction[Any], gid: str, seat: int, token: str) -> None:
    parts = getattr(interaction.client, "agora", None)
    if parts is None:  # not our client (cannot happen once registered); answer anyway
        await interaction.response.send_message("This button is not available.", ephemeral=True)
        return
    await parts.handlers.on_component(interaction, gid, seat, token)


class MoveButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_ID):
    """One move (or a move group, or "more …") as a button."""

    def __init__(self, gid: str, version: int, seat: int, token: str, label: str = "move") -> None:
        style = discord.ButtonStyle.secondary if label.startswith("more") else discord.ButtonStyle.primary
        super().__init__(
            discord.ui.Button(label=label[:80] or "move", style=style, custom_id=f"ag:b:{gid}:{version}:{seat}:{token}")
        )
        self.gid, self.version, self.seat, self.token = gid, version, seat, token

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> MoveButton:
        label = getattr(item, "label", None) or "move"
        return cls(match["gid"], int(match["v"]), int(match["seat"]), match["token"], label)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _handle(interaction, self.gid, self.seat, self.token)


class MoveSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_ID):
    """Up to 25 moves in one select menu; each option's value is a button token."""

    def __init__(
        self, gid: str, version: int, seat: int, n: int, options: list[discord.SelectOption] | None = None,
        placeholder: str = "Choose a move",
    ) -> None:
        opts = options or [discord.SelectOption(label="…", value="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"ag:s:{gid}:{version}:{seat}:{n}", options=opts, placeholder=placeholder[:150],
                min_values=1, max_values=1,
            )
        )
        self.gid, self.version, self.seat = gid, version, seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: Any, /
    ) -> MoveSelect:
        return cls(match["gid"], int(match["v"]), int(match["seat"]), int(match["n"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data: Any = interaction.data or {}
        values = data.get("values") or []
        await _handle(interaction, self.gid, self.seat, str(values[0]) if values else "")


def build_view(rows: list[list[Any]], infos: dict[str, dict[str, Any] | None]) -> discord.ui.View | None:
    """A view for the command layer's button rows (``Button(label, token)``); ``infos`` maps
    tokens to their payloads (from ``Client.button_info``). None for no buttons."""
    flat = [b for row in rows for b in row]
    if not flat:
        return None
    view = discord.ui.View(timeout=None)
    if len(flat) <= MAX_BUTTON_ITEMS:
        for i, b in enumerate(flat):
            gid, v, seat = _where(infos.get(b.token))
            button = MoveButton(gid, v, seat, b.token, b.label)
            button.row = i // ROW_WIDTH
            view.add_item(button)
        return view
    chunks = [flat[i : i + SELECT_OPTIONS] for i in range(0, len(flat), SELECT_OPTIONS)][:MAX_ROWS]
    for n, chunk in enumerate(chunks):
        gid, v, seat = _where(infos.get(chunk[0].token))
        options = [discord.SelectOption(label=b.label[:100] or "move", value=b.token) for b in chunk]
        first, last = n * SELECT_OPTIONS + 1, n * SELECT_OPTIONS + len(chunk)
        placeholder = f"Choose a move ({first}–{last} of {len(flat)})" if len(chunks) > 1 else "Choose a move"
        item = MoveSelect(gid, v, seat, n, options, placeholder)
        item.row = n
        view.add_item(item)
    return view
