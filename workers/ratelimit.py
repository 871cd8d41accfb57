"""Per-user and per-chat limits on commands, so one runaway client or script cannot flood a
table, the workers or the chat platform.

Why the ``limits`` library with Redis storage: every bot process and replica counts against
the same windows (a user talking to two replicas is still one user), and a moving window
treats a burst at a window's edge correctly. The local console is never limited.

Limits are strings in the library's notation, several separated by ``;``: the defaults allow
a person far more than they can type or tap (``20/10 seconds;120/minute`` per user,
``300/minute`` per chat); ``off`` disables one of them.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass

from limits import RateLimitItem, parse_many
from limits.storage import storage_from_string
from limits.strategies import MovingWindowRateLimiter

log = logging.getLogger(__name__)

EXEMPT_PLATFORMS = frozenset({"console"})


@dataclass(frozen=True, slots=True)
class Verdict:
    """``allowed``, or how long to wait and which limit was hit (for the reply)."""

    allowed: bool
    retry_after: int = 0
    scope: str = ""


def parse(spec: str) -> list[RateLimitItem]:
    """``"20/10 seconds;120/minute"`` → limit items; ``off`` or empty → none.

    Raises:
        ValueError: the spec is not in the library's notation.
    """
    spec = spec.strip()
    if not spec or spec.lower() == "off":
        return []
    return list(parse_many(spec))


class CommandLimiter:
    """Checks and counts one command of a user in a chat."""

    def __init__(self, redis_url: str, *, user: str, chat: str) -> None:
        self.user_limits = parse(user)
        self.chat_limits = parse(chat)
        self.enabled = bool(self.user_limits or self.chat_limits)
        self.limiter = (
            MovingWindowRateLimiter(storage_from_string(_storage_url(redis_url), key_prefix="agora:rate"))
            if self.enabled
            else None
        )

    def check(self, platform: str, chat: str, user: str) -> Verdict:
        """Count the command and say whether it may run; never raises (a store error lets the
        command through: limits protect the service, they must not take it down)."""
        if self.limiter is None or platform in EXEMPT_PLATFORMS:
            return Verdict(True)
        try:
            for scope, items, ident in (
                ("user", self.user_limits, f"{platform}:{user}"),
                ("chat", self.chat_limits, f"{platform}:{chat}"),
            ):
                for item in items:
                    if not self.limiter.hit(item, scope, ident):
                        reset = self.limiter.get_window_stats(item, scope, ident).reset_time
                        return Verdict(False, max(1, math.ceil(reset - time.time())), scope)
        except Exception:
            log.warning("rate limiting is unavailable; letting the command through", exc_info=True)
        return Verdict(True)


def slow_down_text(verdict: Verdict) -> str:
    """The friendly refusal: what happened and when to try again."""
    seconds = verdict.retry_after
    wait = f"{seconds} second{'s' if seconds != 1 else ''}"
    if verdict.scope == "chat":
        return f"🐢 This chat is sending commands faster than I can keep up with. Please try again in {wait}."
    return f"🐢 Slow down a little: you sent a lot of commands in a short time. Please try again in {wait}."


def _storage_url(redis_url: str) -> str:
    """The ``limits`` storage scheme for a store URL: ``redis://``, ``rediss://``, ``unix://``,
    ``redis+cluster://`` and ``redis+sentinel://`` as is (``limits`` speaks all of them), a plain
    URL with ``REDIS_CLUSTER=1`` as ``redis+cluster://``."""
    from workers import redisconn

    if redisconn.is_cluster(redis_url) and redis_url.startswith(("redis://", "rediss://")):
        scheme, _, rest = redis_url.partition("://")
        return f"{scheme}+cluster://{rest.split('/', 1)[0]}"
    if redis_url.startswith(("redis://", "rediss://", "unix://", "redis+", "rediss+")):
        return redis_url
    return "redis://" + redis_url
