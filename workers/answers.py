"""Awaiting move answers on an event loop without holding a thread.

Why: the chat adapters run on asyncio, and a move's answer takes a worker round trip (tens of
milliseconds, seconds under load). Waiting for it in a thread pool made every pending move
hold a thread: at 200 tables players waited seconds for a free thread before their command
even started (issue 12). Here the workers push each answer to the client's mailbox (one
Redis list, ``Store.post_answer``) and one coroutine per event loop drains it with a
blocking pop, handing each answer to the future that awaits it: any number of moves wait at
once for the price of one connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from typing import Any

import redis

from workers import redisconn
from workers.store import k_answers

log = logging.getLogger(__name__)

POP_SECONDS = 1  # one blocking pop waits this long for an answer
LINGER_POPS = 10  # empty pops the reader keeps its connection for after the last waiter


class Answers:
    """The mailbox of one client: ``expect`` an answer, send the move, ``wait`` for it.

    Args:
        url: the Redis URL of the store.
        box: the mailbox name (unique per client).
    """

    def __init__(self, url: str, box: str | None = None) -> None:
        self.url = url
        self.box = box or secrets.token_hex(8)
        self._futures: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._reader: asyncio.Task[None] | None = None

    def expect(self, rid: str) -> asyncio.Future[dict[str, Any]]:
        """Register interest in answer ``rid`` before the move is sent (an answer that came
        before its waiter would be dropped)."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a new loop (tests run several): its own reader
            self._loop, self._reader = loop, None
            self._futures = {}
        fut: asyncio.Future[dict[str, Any]] = loop.create_future()
        self._futures[rid] = fut
        if self._reader is None or self._reader.done():
            self._reader = loop.create_task(self._read(), name="agora-answers")
        return fut

    def forget(self, rid: str) -> None:
        """Stop waiting for ``rid`` (answered, timed out, or no move was sent after all)."""
        fut = self._futures.pop(rid, None)
        if fut is not None and not fut.done():
            fut.cancel()

    async def wait(self, rid: str, timeout: float) -> dict[str, Any] | None:
        """The answer ``rid`` (expected before), or None after ``timeout`` seconds."""
        fut = self._futures.get(rid)
        if fut is None:
            return None
        try:
            return await asyncio.wait_for(asyncio.shield(fut), timeout)
        except TimeoutError:
            return None
        finally:
            self.forget(rid)

    async def aclose(self) -> None:
        """Stop the reader (adapters call it when they shut down)."""
        reader, self._reader = self._reader, None
        for fut in self._futures.values():
            fut.cancel()
        self._futures.clear()
        if reader is not None and not reader.done():
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader

    async def _read(self) -> None:
        """Pop answers while anyone waits (and a little longer, to keep the connection for
        the next move); each goes to its future, unknown ones (a timed-out wait, a
        redelivered task's second answer) are dropped."""
        conn = redisconn.connect_async(self.url, socket_timeout=POP_SECONDS + 10)
        idle = 0
        try:
            while self._futures or idle < LINGER_POPS:
                try:
                    item = await conn.blpop([k_answers(self.box)], timeout=POP_SECONDS)  # type: ignore[misc]
                except (redis.ConnectionError, redis.TimeoutError, OSError) as exc:
                    # A restarting server: the waits time out ("queued") if it stays away.
                    log.warning("reading move answers failed (%s); retrying", exc)
                    await asyncio.sleep(0.2)
                    continue
                if item is None:
                    idle = 0 if self._futures else idle + 1
                    continue
                idle = 0
                try:
                    data = json.loads(item[1])
                    fut = self._futures.get(str(data["id"]))
                except (ValueError, KeyError, TypeError):
                    log.warning("dropped a malformed move answer")
                    continue
                if fut is not None and not fut.done():
                    fut.set_result(dict(data["answer"]))
        finally:
            # No await between the loop's last check and this: a waiter registered from now
            # on starts a new reader.
            if self._reader is asyncio.current_task():
                self._reader = None
            await conn.aclose()
