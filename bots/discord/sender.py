"""Sending to Discord: messages with board images and components, DMs, and their fallbacks.

Why one sender for replies and outbox delivery alike: the rules are the same for every
message — private parts never land in a channel; a DM the user refuses (error 50007) becomes
a mention in the game's channel that says "use /agora hand" and nothing private; a channel
has one live set of move components (the previous turn's are removed instead of answering
"the game has moved on"); text is cut at Discord's limits. Rate limits (429 with
``retry_after``) are waited out by discord.py's own HTTP client, per bucket.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import discord

from bots.discord import format as fmt
from bots.discord.components import build_view
from workers.client import Client, Part

log = logging.getLogger(__name__)
T = TypeVar("T")

PLATFORM = "discord"
LIVE_NS = "dc-live"  # channel -> id of the message carrying the channel's live move components
LIVE_TTL = 30 * 86400
NOTICE_NS = "dc-notice"  # user:gid:reason -> sent: the "use /agora hand" notice once per game
NOTICE_TTL = 14 * 86400
DM_REFUSED = 50007
FILES_MAX = 10  # Discord: at most 10 attachments on one message
MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True, replied_user=False)


def nonce_for(key: str, index: int = 0) -> str:
    """A stable nonce (at most 25 characters, Discord's limit) for outbox message ``key``:
    with ``enforce_nonce`` a post that timed out but went through is not posted again."""
    digest = hashlib.sha1(f"{key}#{index}".encode()).hexdigest()
    return digest[:25]


class Sender:
    """Sends parts through ``bot``; blocking client calls run in ``pool``."""

    def __init__(self, bot: discord.Client, client: Client, pool: ThreadPoolExecutor) -> None:
        self.bot = bot
        self.client = client
        self.pool = pool

    async def io(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a blocking client call (Redis, a Celery round trip) off the event loop."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, lambda: fn(*args, **kwargs))

    async def view_for(self, part: Part) -> discord.ui.View | None:
        tokens = [b.token for row in part.buttons for b in row]
        if not tokens:
            return None
        infos = await self.io(self.client.button_info, tokens)
        return build_view(part.buttons, infos)

    @staticmethod
    def file_for(part: Part) -> discord.File | None:
        return discord.File(io.BytesIO(part.image), filename=part.image_name) if part.image else None

    @staticmethod
    def files_for(part: Part) -> list[list[discord.File]]:
        """The board then its pages (one image per city), as files in batches of at most ten:
        the first batch goes on the first message, any further one on a message of its own."""
        files = [discord.File(io.BytesIO(part.image), filename=part.image_name)] if part.image else []
        files += [discord.File(io.BytesIO(png), filename=f"page{i}.png") for i, png in enumerate(part.pages, 1)]
        return [files[i : i + FILES_MAX] for i in range(0, len(files), FILES_MAX)]

    # ------------------------------------------------------------ channels
    async def send_part(
        self, channel: str, part: Part, *, key: str = "", extra: str = "", live: bool = False
    ) -> discord.Message | None:
        """Post ``part`` (plus an ``extra`` line, e.g. mentions) in ``channel``: the image and
        its pages on the first message (more than ten files: the rest on messages after the
        text), components on the last. With ``key`` (an outbox key) every message
        carries a nonce Discord enforces. With ``live`` the message becomes the channel's live
        move message and the previous one loses its components."""
        text = mention_text(fmt.slash_hints(part.text), part)
        if extra:
            text = f"{text}\n{extra}" if text else extra
        chunks = fmt.split_text(text) or [""]
        view = await self.view_for(part)
        target = self.bot.get_partial_messageable(int(channel))
        last: discord.Message | None = None
        batches = self.files_for(part)
        for i, chunk in enumerate(chunks):
            kwargs: dict[str, Any] = {"allowed_mentions": MENTIONS}
            if i == 0 and batches:
                kwargs["files"] = batches[0]
            if i == len(chunks) - 1 and view is not None:
                kwargs["view"] = view
            if key:
                kwargs["nonce"] = nonce_for(key, i)
            last = await target.send(chunk or None, **kwargs)
        for j, batch in enumerate(batches[1:], 1):  # Decision: files past ten follow, no text
            extra_kwargs: dict[str, Any] = {"files": batch}
            if key:
                extra_kwargs["nonce"] = nonce_for(key, 1000 + j)
            await target.send(None, **extra_kwargs)
        if live and last is not None:
            await self._replace_live(channel, last.id if view is not None else None)
        return last

    async def _replace_live(self, channel: str, message_id: int | None) -> None:
        old = await self.io(self.client.kv_get, LIVE_NS, channel)
        if message_id is not None:
            await self.io(self.client.kv_set, LIVE_NS, channel, str(message_id), ttl=LIVE_TTL)
        else:
            await self.io(self.client.kv_delete, LIVE_NS, channel)
        if old and old != str(message_id):
            await self.strip(channel, int(old))

    async def strip(self, channel: str, message_id: int) -> None:
        """Remove a message's components (a message already without them, or gone, is fine)."""
        try:
            await self.bot.get_partial_messageable(int(channel)).get_partial_message(message_id).edit(view=None)
        except discord.HTTPException as exc:
            log.debug("could not remove the components of %s/%s: %s", channel, message_id, exc)

    # ----------------------------------------------------------------- DMs
    async def dm_channel(self, user: str) -> str:
        """The DM channel with ``user`` (opened through the API and remembered)."""
        known = await self.io(self.client.user_dm, PLATFORM, user)
        if known:
            return known
        dm = await self.bot.create_dm(discord.Object(int(user)))
        name = await self.io(self.client.user_name, f"{PLATFORM}:{user}")
        await self.io(self.client.set_user_dm, PLATFORM, user, name, str(dm.id))
        return str(dm.id)

    async def to_user(self, user: str, part: Part, *, key: str = "", gid: str | None = None) -> bool:
        """Send ``part`` as a DM. When the user refuses DMs (50007), the game's channel gets a
        mention saying ``/agora hand`` shows it — once per game — and nothing private."""
        try:
            channel = await self.dm_channel(user)
            await self.send_part(channel, part, key=key)
            return True
        except discord.Forbidden as exc:
            if exc.code != DM_REFUSED:
                raise
            log.info("user %s does not accept DMs; noting it in the game's channel", user)
        if gid:
            await self.dm_refused(user, gid)
        return False

    async def dm_refused(self, user: str, gid: str) -> None:
        home = await self.io(self.client.home_chat, PLATFORM, gid)
        fresh = await self.io(
            self.client.kv_set, NOTICE_NS, f"{user}:{gid}:dm", "1", ttl=NOTICE_TTL, only_new=True
        )
        if not home or not fresh:
            return
        text = (
            f"<@{user}>, I can't send you direct messages, so your private information (hand, "
            "secret choices, your turn) waits for you: use `/agora hand` or `/agora moves` here — "
            "only you will see the answer."
        )
        await self.send_part(home, Part(text=text), key=f"dm-refused:{user}:{gid}")


def mention_text(text: str, part: Part) -> str:
    """The first time the text names the person a part mentions, a Discord mention, so they
    are notified (a reminder in the channel for a player who does not accept DMs). A person of
    another platform stays a plain name."""
    platform, _, uid = part.mention.partition(":")
    if platform != PLATFORM or not uid.isdigit() or not part.mention_name:
        return text
    return text.replace(part.mention_name, f"<@{uid}>", 1)
