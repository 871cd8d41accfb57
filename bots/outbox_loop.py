"""The delivery loop every chat adapter runs: one outbox batch after another, backing off
exponentially while batches fail, and never ending on an error (only on ``stop``).

Why shared: Telegram and Discord deliver differently (lanes, routes, formats) but must keep the
same promise about failures; one loop keeps that promise in one place.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


async def deliver_until(
    stop: asyncio.Event, step: Callable[[], Awaitable[bool]], *, what: str, max_backoff: float = 30.0
) -> None:
    """Run ``step`` (True: the batch went out) until ``stop`` is set; a failed or raising step
    is retried after 0.25 s, doubling up to ``max_backoff``."""
    backoff = 0.25
    while not stop.is_set():
        try:
            ok = await step()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("%s outbox delivery failed; retrying", what)
            ok = False
        if ok:
            backoff = 0.25
            continue
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), backoff)
        backoff = min(backoff * 2, max_backoff)
