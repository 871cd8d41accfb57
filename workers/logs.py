"""Logging for every process: text or one JSON object per line, with the game, seat and
platform on each line, and secrets scrubbed before anything is written.

Why a filter rather than care at each call site: a bot token reaches the logs through
libraries (the HTTP client logs every Bot API URL, and Telegram puts the token in the URL),
and a Redis URL with its password through connection errors. Scrubbing at the handler catches
all of them. The game context comes from context variables set where a move or a command is
handled, so a line logged deep in the pipeline still says which game it was about.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import re
from collections.abc import Iterable, Iterator
from typing import Any
from urllib.parse import urlsplit

from pythonjsonlogger.json import JsonFormatter

from workers.settings import Settings

_GAME: contextvars.ContextVar[str] = contextvars.ContextVar("agora_game", default="")
_SEAT: contextvars.ContextVar[str] = contextvars.ContextVar("agora_seat", default="")
_PLATFORM: contextvars.ContextVar[str] = contextvars.ContextVar("agora_platform", default="")

# Telegram bot tokens look like 123456789:AA…; Discord tokens are three dot-separated parts.
_TOKEN_SHAPES = (
    re.compile(r"\b\d{6,12}:[A-Za-z0-9_-]{30,}\b"),
    re.compile(r"\b[A-Za-z0-9_-]{23,28}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,}\b"),
)
_URL_PASSWORD = re.compile(r"(\b[a-z+]+://[^:/@\s]*:)[^@\s]+@")

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s%(where)s: %(message)s"


@contextlib.contextmanager
def log_context(*, game: str = "", seat: int | str | None = None, platform: str = "") -> Iterator[None]:
    """Tag every line logged inside the block with the game, seat and platform given."""
    tokens = []
    if game:
        tokens.append((_GAME, _GAME.set(game)))
    if seat is not None and seat != "":
        tokens.append((_SEAT, _SEAT.set(str(seat))))
    if platform:
        tokens.append((_PLATFORM, _PLATFORM.set(platform)))
    try:
        yield
    finally:
        for var, token in reversed(tokens):
            var.reset(token)


class ContextFilter(logging.Filter):
    """Adds ``game``, ``seat``, ``platform`` (and ``where`` for the text format) to a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.game = getattr(record, "game", "") or _GAME.get()
        record.seat = getattr(record, "seat", "") or _SEAT.get()
        record.platform = getattr(record, "platform", "") or _PLATFORM.get()
        fields = (("game", record.game), ("seat", record.seat), ("platform", record.platform))
        tags = [f"{k}={v}" for k, v in fields if v]
        record.where = f" [{' '.join(tags)}]" if tags else ""
        return True


class TaskPrivacy(logging.Filter):
    """Keeps task arguments and results out of Celery's log lines.

    Why: a move task's argument is the move's text (a secret pick in 7 Wonders) and its result
    holds the events only its seat may see (a hand); Celery logs both at INFO ("Task …
    succeeded in 0.03s: {…}") and hands them to formatters as the ``data`` extra, which the
    JSON format would print. Lines keep the task's name, id and runtime."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith("celery"):
            return True
        if hasattr(record, "data"):
            del record.data
        if isinstance(record.msg, str) and "%(return_value)s" in record.msg:
            record.msg = record.msg.split(":", 1)[0].rstrip()
        if isinstance(record.msg, str) and ("%(args)s" in record.msg or "%(kwargs)s" in record.msg):
            record.msg = record.msg.replace("%(args)s", "…").replace("%(kwargs)s", "…")
        return True


class Redactor(logging.Filter):
    """Replaces secrets in the message, its arguments and the exception text with ``***``."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = sorted({s for s in secrets if s and len(s) >= 6}, key=len, reverse=True)

    def scrub(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "***")
        for shape in _TOKEN_SHAPES:
            text = shape.sub("***", text)
        return _URL_PASSWORD.sub(r"\1***@", text)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        record.msg, record.args = self.scrub(message), None
        if record.exc_text:
            record.exc_text = self.scrub(record.exc_text)
        if record.stack_info:
            record.stack_info = self.scrub(record.stack_info)
        return True


def secrets_of(settings: Settings) -> list[str]:
    """The values that must never be logged."""
    values = [settings.secret(name) for name in ("telegram_token", "telegram_webhook_secret", "discord_token")]
    password = urlsplit(settings.secret("redis_url")).password
    if password:
        values.append(password)
    return [v for v in values if v]


def formatter(kind: str) -> logging.Formatter:
    """The text format, or JSON with the context fields as their own keys."""
    if kind == "json":
        return JsonFormatter(
            "%(asctime)s %(levelname)s %(name)s %(message)s %(game)s %(seat)s %(platform)s",
            rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
        )
    return logging.Formatter(TEXT_FORMAT)


# Libraries that log whole request bodies at DEBUG: message texts, which include private hands
# and secret choices. Decision: they never log below INFO, whatever AGORA_LOG_LEVEL says; our
# own modules still log at DEBUG when asked.
PAYLOAD_LOGGERS = ("telegram", "httpx", "httpcore", "discord.http", "discord.gateway", "discord.client", "aiohttp")


def setup(settings: Settings, *, stream: Any = None) -> logging.Handler:
    """Configure the root logger of this process from ``settings``; returns its handler."""
    handler = logging.StreamHandler(stream)
    handler.addFilter(ContextFilter())
    handler.addFilter(TaskPrivacy())
    handler.addFilter(Redactor(secrets_of(settings)))
    handler.setFormatter(formatter(settings.agora_log_format))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(settings.agora_log_level)
    for name in PAYLOAD_LOGGERS:
        lib = logging.getLogger(name)
        lib.setLevel(max(logging.INFO, logging.getLevelName(settings.agora_log_level)))
    return handler
