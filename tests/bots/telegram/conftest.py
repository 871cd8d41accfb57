"""Fixtures for the Telegram adapter: the fake Bot API, a worker, and the running bot.

Why the whole stack: the bot runs python-telegram-bot's real polling loop and the outbox
delivery loop in the test's event loop, against the fake Bot API on 127.0.0.1, a real
Redis/Valkey and a real Celery worker subprocess (stopped by its PID).
"""

from __future__ import annotations

import importlib
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.bots.telegram.fake_api import TOKEN, FakeBotApi, FakeUser, Msg
from tests.conftest import Worker

PLUGINS = "tests.support.toy,tests.support.steps,tests.bots.telegram.toy_render"

ALICE = FakeUser(1001, "Alice")
BOB = FakeUser(1002, "Bob")
CAROL = FakeUser(1003, "Carol")


@pytest.fixture
def tg_worker(redis_url: str, store: Any) -> Iterator[Worker]:
    """A solo Celery worker that also loads the toy game's test renderer."""
    w = Worker(redis_url, name="tg")
    w.env["AGORA_PLUGINS"] = PLUGINS
    w.start()
    try:
        yield w
    finally:
        w.stop()


@pytest.fixture
async def fake() -> AsyncIterator[FakeBotApi]:
    api = await FakeBotApi().start()
    try:
        yield api
    finally:
        await api.stop()


@dataclass
class Table:
    """The running bot plus helpers to talk to it as users would."""

    fake: FakeBotApi
    redis_url: str
    app: Any = None
    client: Any = None
    clients: list[Any] = field(default_factory=list)

    async def start(self, *, webhook: Any = None) -> Table:
        import tests.bots.telegram.toy_render  # noqa: F401 - the toy's board image in this process
        importlib.import_module("tests.support.steps")  # the multi-step test game, in this process
        from bots.telegram.app import build_application, start
        from workers.client import Client

        self.client = Client(self.redis_url, move_timeout=30)
        self.clients.append(self.client)
        self.app = build_application(self.client, TOKEN, self.fake.base_url)
        await start(self.app, poll_timeout=1, webhook=webhook)
        return self

    async def stop(self, *, timeout: float = 10.0) -> None:
        """Stop the bot; the delivery gets ``timeout`` seconds before it is cancelled."""
        from bots.telegram.app import stop

        if self.app is not None:
            await stop(self.app, timeout=timeout)
            self.app = None

    def close(self) -> None:
        for c in self.clients:
            c.close()

    # ------------------------------------------------------------ talking
    def say(self, user: FakeUser, text: str, *, private: bool = False) -> int:
        return self.fake.push_message(user, text, private=private)

    async def handled(self, update_id: int, timeout: float = 30.0) -> None:
        """Wait until the bot marked ``update_id`` as handled (its reply is out)."""
        await self.fake.wait(lambda: self.client.kv_get("tg-update", str(update_id)), timeout, f"update {update_id}")

    async def ask(self, user: FakeUser, text: str, *, private: bool = False, timeout: float = 30.0) -> list[Msg]:
        """Type ``text`` and return the messages the bot sent in reply to it."""
        since = time.perf_counter()
        uid = self.say(user, text, private=private)
        await self.handled(uid, timeout)
        return [m for m in self.fake.sent(since=since) if m.reply_to is not None or m.chat == user.id]

    async def turn_photo(self, *, after: float, timeout: float = 30.0) -> Msg:
        """The next board photo posted to the group after ``after``."""
        msgs = await self.fake.wait(lambda: [m for m in self.fake.group(since=after) if m.photo], timeout, "photo")
        return msgs[0]

    def version(self, gid: str) -> int:
        return int(self.client.store.meta(gid).get("version", 0))

    def gid(self) -> str:
        gid = self.client.chat_game("telegram", str(self.fake.group_id))
        assert gid, "no game in the group"
        return str(gid)


@pytest.fixture
async def table(fake: FakeBotApi, redis_url: str, store: Any, tg_worker: Worker) -> AsyncIterator[Table]:
    t = Table(fake, redis_url)
    await t.start()
    try:
        yield t
    finally:
        await t.stop()
        t.close()
