"""The Discord outbox consumer: boards, prompts and private notes, in order, exactly once.

Why this shape (as on Telegram): the commit already put every message into the ``discord``
stream, so a bot that was down loses nothing; this loop sends each entry once and in order.
The consumer group re-reads our unacknowledged entries first after a restart (the consumer
name is stable), a ``sent`` marker written right after a successful send stops a re-read
entry from being sent twice, and every post carries a nonce derived from the entry's key with
``enforce_nonce``, so a post whose answer was lost (a timeout) but that did reach Discord is
not posted a second time when it is retried.

Order: a batch is split into lanes by destination; a lane is sent in stream order and stops
at its first failure (the rest stays pending), while different channels proceed side by
side. 429 answers are waited out inside discord.py's HTTP client (per rate-limit bucket), so
a lane simply takes longer; a refusal for good (4xx) is logged and dropped.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bots.discord.sender import PLATFORM, Sender
from bots.outbox_loop import deliver_until
from workers.client import Client, Envelope, Part

log = logging.getLogger(__name__)
CHANNEL_TYPES = frozenset({"turn", "notice"})  # posted in a game's channel; everything else goes to a user


class Delivery:
    """Consumes the outbox of the ``discord`` platform.

    Args:
        consumer: this bot's name in the stream's consumer group; keep it stable across
            restarts so the entries it fetched but did not acknowledge are re-read.
        block_ms: how long one fetch waits for new entries.
    """

    def __init__(self, client: Client, sender: Sender, *, consumer: str = "discord-1", block_ms: int = 500) -> None:
        self.client = client
        self.sender = sender
        self.consumer = consumer
        self.block_ms = block_ms
        self.delivered = 0
        self._sent: set[str] = set()  # keys of the current batch found sent already

    async def run(self, stop: asyncio.Event, *, max_backoff: float = 30.0) -> None:
        """Deliver until ``stop`` is set; failures back off exponentially, never end the loop."""
        await deliver_until(stop, self.step, what="Discord", max_backoff=max_backoff)

    async def step(self) -> bool:
        """Fetch one batch and deliver it; False when something has to be retried later."""
        envelopes = await self.sender.io(self.client.fetch, PLATFORM, self.consumer, block_ms=self.block_ms)
        if not envelopes:
            return True
        self._sent = await self.sender.io(self.client.sent_keys, envelopes)  # one round trip per batch
        lanes: dict[str, list[Envelope]] = {}
        for env in envelopes:
            m = env.message
            lane = f"c:{m['chat']}" if m.get("type") in CHANNEL_TYPES else f"u:{m.get('user', '')}"
            lanes.setdefault(lane, []).append(env)
        # Every lane finishes before the batch ends, even when one raised (the store restarting):
        # a lane left running into the next batch, which re-reads the same pending entries, sent
        # a message a second time (found by the fault suite, tests/faults).
        results = await asyncio.gather(*(self._lane(items) for items in lanes.values()), return_exceptions=True)
        failed = [r for r in results if isinstance(r, BaseException)]
        if failed:
            raise failed[0]
        return all(results)

    async def _lane(self, items: list[Envelope]) -> bool:
        for env in items:
            if not await self._deliver(env):
                return False
        return True

    async def _deliver(self, env: Envelope) -> bool:
        if env.key in self._sent:
            await self.sender.io(self.client.ack, PLATFORM, env)
            return True
        try:
            part = await self.sender.io(self.client.render, env)
        except Exception:
            return False  # logged by render (the store restarting, say): it stays pending, retried
        try:
            if part is not None:
                await self._send(env, part)
        except discord.Forbidden as exc:
            log.error("Discord refused outbox message %s (%s); dropping it", env.key, exc)
        except discord.NotFound as exc:
            log.error("the channel of outbox message %s is gone (%s); dropping it", env.key, exc)
        except discord.HTTPException as exc:
            if exc.status is not None and 400 <= exc.status < 500 and exc.status != 429:
                log.error("Discord refused outbox message %s for good (%s); dropping it", env.key, exc)
            else:
                log.warning("outbox message %s not delivered yet (%s); it stays pending", env.key, exc)
                return False
        except (TimeoutError, OSError) as exc:
            log.warning("outbox message %s not delivered yet (%s); it stays pending", env.key, exc)
            return False
        await self.sender.io(self.client.mark_sent, env, ack=PLATFORM)  # and acknowledged, one round trip
        self.delivered += 1
        return True

    async def _send(self, env: Envelope, part: Part) -> None:
        m = env.message
        if m.get("type") in CHANNEL_TYPES:
            if part.private:
                log.error("refusing to post private outbox message %s into a channel", env.key)
                return
            if m.get("type") == "notice":  # a timeout or autopilot note for the table
                await self.sender.send_part(str(m["chat"]), part, key=env.key)
                return
            gid = str(m.get("game", ""))
            mentions = await self.sender.io(self._mentions, gid, int(m.get("version", -1)))
            await self.sender.send_part(str(m["chat"]), part, key=env.key, extra=mentions, live=True)
            return
        user = str(m.get("user", ""))
        platform, _, uid = user.partition(":")
        if platform != PLATFORM or not uid.isdigit():
            log.error("outbox message %s names no Discord user (%r); dropping it", env.key, user)
            return
        await self.sender.to_user(uid, part, key=env.key, gid=str(m.get("game", "")) or None)

    def _mentions(self, gid: str, version: int) -> str:
        """Blocking: "your turn" mentions of the Discord players the game awaits, when the
        posted turn is still the current one (an overtaken turn mentions nobody)."""
        waiting = [u.partition(":")[2] for u in self.client.awaited_users(gid, version)
                   if u.startswith(f"{PLATFORM}:")]
        return " ".join(f"<@{u}>" for u in waiting) + (" — your turn." if waiting else "")
