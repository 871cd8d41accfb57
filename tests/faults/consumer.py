"""The Telegram delivery loop (``bots.telegram.delivery.Delivery``) with a recording sender,
run as its own process by the fault scenarios: ``python -m tests.faults.consumer URL FILE``.

Each send (and each message dropped as out of date) appends one JSON line (outbox key, kind,
whether a turn had its image, this PID) to FILE with ``O_APPEND`` and ``fsync`` before the loop
records the message as sent, so the file is what the chats would have shown even when this
process is SIGKILLed a moment later.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import os
import signal
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from bots.telegram.delivery import Delivery, Route
from workers.client import Client, Envelope, Part

SENDING: contextvars.ContextVar[Envelope | None] = contextvars.ContextVar("sending", default=None)


class RecordingSender:
    """Stands in for the Telegram sender: ``io`` as the real one, sends are written down."""

    def __init__(self, client: Client, path: str) -> None:
        self.client = client
        self.pool = ThreadPoolExecutor(8)
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    async def io(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.pool, lambda: fn(*args, **kwargs))

    def _write(self, what: str, chat: str, part: Part | None, env: Envelope | None = None) -> None:
        env = env or SENDING.get()
        line = {"key": env.key if env else "", "type": env.message.get("type") if env else "", "what": what,
                "chat": chat, "image": bool(part and part.image), "pid": os.getpid()}  # fmt: skip
        os.write(self.fd, (json.dumps(line) + "\n").encode())
        os.fsync(self.fd)

    async def send_part(self, chat: str, part: Part, **_: Any) -> None:
        self._write("send", chat, part)

    async def invite(self, chat: str, user: str, gid: str | None, **_: Any) -> None:
        self._write("invite", chat, None)


class RecordingClient(Client):
    """Writes down the messages the loop drops as out of date (``render`` gives None)."""

    recorder: RecordingSender | None = None

    def render(self, envelope: Envelope) -> Part | None:
        part = super().render(envelope)
        if part is None and self.recorder is not None:
            self.recorder._write("merge" if self.merged(envelope) else "drop", "", None, envelope)
        return part


class RecordingDelivery(Delivery):
    async def _send(self, env: Envelope, part: Part, route: Route) -> None:
        SENDING.set(env)  # this lane's task only (asyncio copies the context per task)
        await super()._send(env, part, route)


async def main(url: str, path: str) -> None:
    client = RecordingClient(url, move_timeout=10)
    sender = RecordingSender(client, path)
    client.recorder = sender
    delivery = RecordingDelivery(client, sender, consumer="telegram-1", block_ms=200, step_grace=0.2)  # type: ignore[arg-type]
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await delivery.run(stop, max_backoff=1.0)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
