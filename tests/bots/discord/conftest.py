"""Fixtures for the Discord adapter: the fake Discord, a worker, and the running bot.

Why the whole stack: the bot runs discord.py's real gateway loop, HTTP client, command tree
and view store plus the outbox delivery loop in the test's event loop, against the fake
Discord on 127.0.0.1, a real Redis/Valkey and a real Celery worker subprocess (stopped by its
PID).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.bots.discord.fake_discord import CHANNEL, TOKEN, FakeDiscord, FakeUser, Interaction, Msg
from tests.conftest import Worker

PLUGINS = "tests.support.toy,tests.bots.telegram.toy_render"

ALICE = FakeUser("1200000000000000001", "Alice")
BOB = FakeUser("1200000000000000002", "Bob")
CAROL = FakeUser("1200000000000000003", "Carol")
DAVE = FakeUser("1200000000000000004", "Dave")


@pytest.fixture
def dc_worker(redis_url: str, store: Any) -> Iterator[Worker]:
    """A solo Celery worker that also loads the toy game's test renderer."""
    w = Worker(redis_url, name="dc")
    w.env["AGORA_PLUGINS"] = PLUGINS
    w.start()
    try:
        yield w
    finally:
        w.stop()


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    import discord
    import yarl

    api = await FakeDiscord().start()
    # The clean way to point discord.py at the fake (restored after the test).
    monkeypatch.setattr(discord.http.Route, "BASE", api.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(api.gateway_url))
    try:
        yield api
    finally:
        await api.stop()


@dataclass
class Table:
    """The running bot plus helpers to act as users would."""

    fake: FakeDiscord
    redis_url: str
    bot: Any = None
    client: Any = None
    clients: list[Any] = field(default_factory=list)

    async def start(self, *, shards: str | None = None, move_timeout: float = 30) -> Table:
        import tests.bots.telegram.toy_render  # noqa: F401 - the toy's board image in this process
        from bots.discord.app import build_bot, start
        from workers.client import Client

        self.client = Client(self.redis_url, move_timeout=move_timeout)
        self.clients.append(self.client)
        self.bot = build_bot(self.client, shards=shards, fast_ready=True)
        await start(self.bot, TOKEN)
        return self

    async def stop(self, *, timeout: float = 10.0) -> None:
        from bots.discord.app import stop

        if self.bot is not None:
            await stop(self.bot, timeout=timeout)
            self.bot = None

    def close(self) -> None:
        for c in self.clients:
            c.close()

    # ------------------------------------------------------------ acting
    async def cmd(self, user: FakeUser, sub: str, channel: str = CHANNEL, timeout: float = 30.0,
                  **options: Any) -> Interaction:
        inter = await self.fake.slash(user, sub, channel, **options)
        return await self.fake.done(inter, timeout)

    async def press(self, user: FakeUser, msg: Msg, custom_id: str, values: list[str] | None = None,
                    timeout: float = 30.0, *, followup: bool = True) -> Interaction:
        """Press and wait for the answer: a follow-up (a move, a notice), or with
        ``followup=False`` the pressed message edited in place (a page of moves)."""
        inter = await self.fake.press(user, msg, custom_id, values)
        return await self.fake.done(inter, timeout, followup=followup)

    def version(self, gid: str) -> int:
        return int(self.client.store.meta(gid).get("version", 0))

    def gid(self, channel: str = CHANNEL) -> str:
        gid = self.client.chat_game("discord", channel)
        assert gid, "no game in the channel"
        return str(gid)


@pytest.fixture
async def table(fake: FakeDiscord, redis_url: str, store: Any, dc_worker: Worker) -> AsyncIterator[Table]:
    t = Table(fake, redis_url)
    await t.start()
    try:
        yield t
    finally:
        await t.stop()
        t.close()
