"""The outbox as an adapter's delivery loop sees it: fetch, build, address, record, acknowledge.

Why a module of its own: delivery is the other half of an adapter (beside answering
commands), with its own rules - a message is marked sent only when it was sent or is truly
out of date, a failure to build it keeps it pending - and it needs only the store and the
command layer's builders of turn posts and prompts.
"""

from __future__ import annotations

import logging
from typing import Any

from workers import metrics, outbox
from workers.commands import Commands
from workers.outbox import Envelope
from workers.replies import Part
from workers.store import Store, k_user

log = logging.getLogger("workers.client")  # its lines are the client's, as before the split


class ClientOutbox:
    """:class:`workers.client.Client`'s outbox methods."""

    store: Store
    commands: Commands
    merge_after: float | None = outbox.MERGE_AFTER
    """Seconds after which a turn post the game has overtaken goes out merged into the next
    one (``outbox.MERGE_AFTER``); None: every post on its own (the console prints them all)."""

    @property
    def _merged(self) -> set[str]:
        """Keys of turn posts this process merged into a later one and has not marked yet."""
        merged: set[str] = self.__dict__.setdefault("_merged_keys", set())
        return merged

    def fetch(self, platform: str, consumer: str, *, block_ms: int = 1000, count: int = 20) -> list[Envelope]:
        """Next outbox messages for ``platform`` (our unacknowledged ones first)."""
        return outbox.fetch(self.store, platform, consumer, count=count, block_ms=block_ms)

    def ack(self, platform: str, envelope: Envelope) -> None:
        outbox.ack(self.store, platform, envelope)

    def already_sent(self, envelope: Envelope) -> bool:
        return outbox.already_sent(self.store, envelope.key)

    def sent_keys(self, envelopes: list[Envelope]) -> set[str]:
        """Which of a fetched batch were sent already (one round trip for the batch)."""
        return outbox.sent_keys(self.store, envelopes)

    def claim(self, envelope: Envelope, who: str) -> bool:
        """Claim the showing of a prompt (see ``outbox.claim``); other messages are always ours."""
        if envelope.message.get("type") != "prompt":
            return True
        return outbox.claim(self.store, envelope.key, who)

    def press_in_flight(self, envelope: Envelope) -> bool:
        """Whether a button press of the seat a prompt is for is being handled right now (its
        reply may show the prompt's buttons in place of the pressed ones)."""
        m = envelope.message
        return bool(self.store.r.exists(f"agora:pressing:{m.get('game', '')}:{m.get('seat', '')}"))

    def merged(self, envelope: Envelope) -> bool:
        """Whether :meth:`render` found this turn post overtaken and merged it into the next
        (until it is marked sent)."""
        return envelope.key in self._merged

    def mark_sent(self, envelope: Envelope, *, ack: str | None = None) -> None:
        """Record ``envelope`` as delivered (a turn post merged into a later one as not shown);
        ``ack``: the platform whose stream entry to acknowledge in the same round trip."""
        merged = envelope.key in self._merged
        outbox.delivered(self.store, envelope, shown=not merged, ack_platform=ack)
        self._merged.discard(envelope.key)

    def render(self, envelope: Envelope) -> Part | None:
        """Turn an outbox message into what to send; None only when it is truly out of date
        (the game moved on) or of a kind this version does not know.

        Raises whatever building it raised (a reset connection, a server still loading its
        data): the caller keeps the message pending and tries again later. Taking a failure
        for "out of date" would mark a board as sent that nobody ever saw."""
        try:
            with self.commands.buttons_batched():
                return self._build(envelope)
        except Exception:
            log.warning("could not build outbox message %s yet; it stays pending", envelope.key, exc_info=True)
            raise

    def _build(self, envelope: Envelope) -> Part | None:
        m = envelope.message
        kind = m.get("type")
        if kind == "turn":
            return self._turn(envelope)
        if kind == "prompt":
            return self.commands.prompt_part(m)
        if kind == "reminder":
            return self.commands.reminder_part(m)
        if kind in ("private", "text"):
            return Part(text=str(m.get("text", "")), private=kind == "private")
        if kind == "notice":  # a table notice (a timeout, autopilot, a substitute): public
            return Part(text=str(m.get("text", "")))
        log.warning("unknown outbox message type %r", kind)
        return None

    def _turn(self, envelope: Envelope) -> Part | None:
        """A turn post, or None when it goes out merged into the next one.

        Merged: it waited over ``merge_after`` seconds and the game has posted a newer turn, so
        it is marked sent without a message and the newer post carries its lines (and draws
        only its own board). A post's lines start after the last post its table saw (the
        ``told`` record), so nothing that happened is skipped by a merge."""
        m = envelope.message
        posted, told = outbox.turn_news(self.store, m)
        version = int(m.get("version", 0))
        if self.merge_after is not None and posted > version and outbox.age(envelope) > self.merge_after:
            self._merged.add(envelope.key)
            metrics.TURNS_MERGED.inc()
            return None
        message: dict[str, Any] = m
        since = int(m.get("since", 0) or 0)
        if told is not None and told + 1 < since:
            message = {**m, "since": told + 1}  # the lines of the posts merged into this one too
        return self.commands.turn_part(message)

    def destinations(self, envelopes: list[Envelope]) -> list[tuple[str, bool] | None]:
        """:meth:`destination` of each of a fetched batch, with one round trip for all the
        private chats it needs."""
        users = [str(e.message.get("user", "")) for e in envelopes if e.message.get("type") not in ("turn", "notice")]
        dms: dict[str, str] = {}
        if users:
            pipe = self.store.r.pipeline(transaction=False)
            for user in users:
                pipe.hget(k_user(user), "dm")
            dms = {u: dm.decode() for u, dm in zip(users, pipe.execute(), strict=True) if dm}
        return [self._route(e, dms.get(str(e.message.get("user", "")))) for e in envelopes]

    def destination(self, envelope: Envelope) -> tuple[str, bool] | None:
        """(chat id, private) for a message: the game's chat, or the user's private chat."""
        m = envelope.message
        if m.get("type") in ("turn", "notice"):
            return str(m["chat"]), False
        return self._route(envelope, self.store.user(str(m.get("user", ""))).get("dm"))

    @staticmethod
    def _route(envelope: Envelope, dm: str | None) -> tuple[str, bool] | None:
        m = envelope.message
        if m.get("type") in ("turn", "notice"):
            return str(m["chat"]), False
        if dm:
            return dm, True
        if m.get("type") == "reminder" and m.get("chat"):
            return str(m["chat"]), False  # no private chat: a mention in the game's chat
        return None
