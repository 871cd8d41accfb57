"""The Telegram outbox consumer: boards, prompts and private notes, in order, exactly once.

Why this shape: the commit already put every message into the ``telegram`` stream, so a bot
that was down loses nothing; this loop only has to send each entry once and in order. The
stream's consumer group re-reads our unacknowledged entries first after a restart (the
consumer name is stable for that reason), and a ``sent`` marker written right after a
successful send stops a re-read entry from being sent twice.

Order: one batch is split into lanes by destination chat; a lane is sent in stream order and
stops at its first failure (the rest stays pending and comes back with the next fetch), while
different chats proceed side by side, so one chat's flood control does not hold up a turn in
another. A message the game has overtaken (``render`` returns None) is dropped; one that could not be
built (``render`` raised: the store restarting, say) stays pending and is retried; a message
Telegram refuses for good (``BadRequest``) is logged and dropped, anything transient is
retried with backoff.
"""

from __future__ import annotations

import asyncio
import logging
import time

from telegram.error import BadRequest, Forbidden, TelegramError

from bots.outbox_loop import deliver_until
from bots.telegram.sender import PLATFORM, Sender
from workers.client import Client, Envelope, Part, count_delivered

log = logging.getLogger(__name__)

STEP_GRACE = 2.0
"""Seconds a prompt for the next step of a turn waits for the press that may show it in place."""

Route = tuple[str, bool] | None  # (chat, private) or None: the user's private chat is not open


class Delivery:
    """Consumes the outbox of the ``telegram`` platform.

    Args:
        consumer: the consumer name in the stream's group; keep it stable across restarts so
            the entries this bot had fetched but not acknowledged are re-read.
        block_ms: how long one fetch waits for new entries.
    """

    def __init__(
        self,
        client: Client,
        sender: Sender,
        *,
        consumer: str = "telegram-1",
        block_ms: int = 500,
        step_grace: float = STEP_GRACE,
    ) -> None:
        self.client = client
        self.step_grace = step_grace
        self.sender = sender
        self.consumer = consumer
        self.block_ms = block_ms
        self.delivered = 0
        self._sent: set[str] = set()  # keys of the current batch found sent already

    async def run(self, stop: asyncio.Event, *, max_backoff: float = 30.0) -> None:
        """Deliver until ``stop`` is set; failures back off exponentially, never end the loop."""
        await deliver_until(stop, self.step, what="Telegram", max_backoff=max_backoff)

    async def step(self) -> bool:
        """Fetch one batch and deliver it; False when something has to be retried later."""
        envelopes = await self.sender.io(self.client.fetch, PLATFORM, self.consumer, block_ms=self.block_ms)
        if not envelopes:
            return True
        # What the batch needs from the store before sending - which entries went out already
        # (a restart re-reads them), and where the private ones go - in two round trips for
        # the whole batch instead of two per message (issue 12: the consumer's cost per move).
        sent = await self.sender.io(self.client.sent_keys, envelopes)
        routes = await self.sender.io(self.client.destinations, envelopes)
        lanes: dict[str, list[tuple[Envelope, Route]]] = {}
        for env, route in zip(envelopes, routes, strict=True):
            lane = route[0] if route else f"home:{env.message.get('game', '')}"
            lanes.setdefault(lane, []).append((env, route))
        self._sent = sent
        # Every lane finishes before the batch ends, even when one raised (the store restarting):
        # a lane left running into the next batch, which re-reads the same pending entries, sent
        # a message a second time (found by the fault suite, tests/faults).
        results = await asyncio.gather(*(self._lane(items) for items in lanes.values()), return_exceptions=True)
        failed = [r for r in results if isinstance(r, BaseException)]
        if failed:
            raise failed[0]
        return all(results)

    async def _lane(self, items: list[tuple[Envelope, Route]]) -> bool:
        for env, route in items:
            if not await self._deliver(env, route):
                return False
        return True

    async def _deliver(self, env: Envelope, route: Route) -> bool:
        if env.key in self._sent:
            await self.sender.io(self.client.ack, PLATFORM, env)
            return True
        step_at = env.message.get("at") if env.message.get("step") else None
        if isinstance(step_at, (int, float)) and await self.sender.io(self.client.press_in_flight, env):
            # The next step of a turn while the player's press is being handled: its reply puts
            # the buttons in place of the pressed ones if it gets there first; give it that
            # moment. Typed moves never wait (the wait held up the whole batch, boards too).
            until = min(float(step_at) + self.step_grace, time.time() + self.step_grace)
            while time.time() < until and await self.sender.io(self.client.press_in_flight, env):
                await asyncio.sleep(0.05)
        try:
            part = await self.sender.io(self.client.render, env)
        except Exception:
            return False  # logged by render; the message stays pending and is retried
        if part is not None and not await self.sender.io(self.client.claim, env, "delivery"):
            # Shown another way: the next step's buttons were put in place of the pressed ones.
            part = None
        try:
            if part is not None:
                await self._send(env, part, route)
        except BadRequest as exc:
            log.error("Telegram refused outbox message %s for good (%s); dropping it", env.key, exc)
        except Forbidden as exc:
            log.error("the bot may not write to the chat of outbox message %s (%s); dropping it", env.key, exc)
        except TelegramError as exc:
            log.warning("outbox message %s not delivered yet (%s); it stays pending", env.key, exc)
            return False
        await self._record_sent(env)
        self.delivered += 1
        count_delivered(PLATFORM)
        return True

    async def _record_sent(self, env: Envelope, *, patience: float = 30.0) -> None:
        """Write the sent marker and acknowledge the entry (one round trip), retrying through a
        short store outage.

        Why: the message is already in the chat; if the marker is lost the entry is sent a
        second time after the store comes back. A restart of the store takes about a second,
        so a few retries turn that duplicate into a delay."""
        delay, waited = 0.1, 0.0
        while True:
            try:
                await self.sender.io(self.client.mark_sent, env, ack=PLATFORM)
                return
            except Exception:
                if waited >= patience:
                    raise
                log.warning("could not record outbox message %s as sent yet; retrying", env.key)
                await asyncio.sleep(delay)
                waited += delay
                delay = min(delay * 2, 2.0)

    async def _send(self, env: Envelope, part: Part, route: Route) -> None:
        if route is None:
            await self._invite(env)
            return
        chat, private = route
        if part.private and not private:
            log.error("refusing to post private outbox message %s into chat %s", env.key, chat)
            return
        if private:
            try:
                await self.sender.send_part(chat, part)
            except Forbidden:
                log.info("private chat %s is closed (blocked or deleted); inviting in the game's chat", chat)
                await self._invite(env, reason="closed")
            return
        await self.sender.send_part(chat, part, turn=env.message.get("type") == "turn")

    async def _invite(self, env: Envelope, *, reason: str = "never-opened") -> None:
        """The user's private chat is not open: invite them in the game's chat, once per game
        and reason (a prompt every turn would bury the board), never with the private content."""
        user = str(env.message.get("user", ""))
        gid = str(env.message.get("game", ""))
        chat = await self.sender.io(self.client.home_chat, PLATFORM, gid) if gid else None
        if user and chat is not None:
            await self.sender.invite(chat, user, gid, once=True, reason=reason)
