"""Wiring and running the Telegram bot: long polling by default, a webhook as an option.

Configuration (read by ``agora serve``, passed to :func:`run`):

- ``TELEGRAM_TOKEN`` — the bot token from @BotFather.
- ``TELEGRAM_API_BASE`` — another Bot API server, e.g. a self-hosted one or a test fake:
  ``http://127.0.0.1:8081/bot`` (the token is appended; ``/bot`` is added when missing).
- ``TELEGRAM_WEBHOOK_URL`` — the public HTTPS URL Telegram posts updates to; unset means
  long polling. ``TELEGRAM_WEBHOOK_LISTEN`` (``host:port``, default ``127.0.0.1:8443``) is
  where this process listens behind the TLS proxy; ``TELEGRAM_WEBHOOK_SECRET`` is checked on
  every request (a random one is used when unset).
- ``TELEGRAM_CONSUMER`` — this bot's consumer name in the outbox group (default
  ``telegram-1``; give each bot process its own, stable name).

Why a webhook of our own on aiohttp instead of PTB's: PTB's webhook server needs tornado
(an extra dependency), and ours answers Telegram only after the update was handled, so a
crash mid-update makes Telegram send it again (the update id keeps that harmless).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import signal
import socket
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from urllib.parse import urlparse

from aiohttp import web
from telegram import Bot, BotCommand, Update
from telegram.ext import AIORateLimiter, Application, CallbackQueryHandler, MessageHandler, filters

from bots.telegram import format as fmt
from bots.telegram.delivery import Delivery
from bots.telegram.handlers import MOVE_WAIT, Handlers
from bots.telegram.sender import Sender
from workers.client import COMMANDS, Client, load_settings

log = logging.getLogger(__name__)

ALLOWED_UPDATES = ["message", "callback_query"]
_KEY = "agora"


@dataclass
class Webhook:
    """Where Telegram posts updates (``url``) and where this process listens for them."""

    url: str
    listen: str = "127.0.0.1"
    port: int = 8443
    secret: str = field(default_factory=lambda: secrets.token_urlsafe(24))

    @classmethod
    def from_env(cls, url: str) -> Webhook:
        host, _, port = os.environ.get("TELEGRAM_WEBHOOK_LISTEN", "127.0.0.1:8443").rpartition(":")
        secret = os.environ.get("TELEGRAM_WEBHOOK_SECRET", "").strip() or secrets.token_urlsafe(24)
        return cls(url, host or "127.0.0.1", int(port or 8443), secret)


@dataclass
class Agora:
    """What the Application carries besides PTB's own parts (``app.bot_data["agora"]``)."""

    client: Client
    sender: Sender
    handlers: Handlers
    delivery: Delivery
    pool: ThreadPoolExecutor
    stop: asyncio.Event | None = None
    delivery_task: asyncio.Task[None] | None = None
    webhook_runner: web.AppRunner | None = None


def api_urls(api_base: str) -> tuple[str, str]:
    """PTB's ``base_url`` and ``base_file_url`` for a Bot API server address."""
    base = api_base.rstrip("/")
    if "{token}" in base:
        return base, base.replace("/bot{token}", "/file/bot{token}")
    if not base.endswith("/bot"):
        base += "/bot"
    return base, base[: -len("/bot")] + "/file/bot"


def build_application(client: Client, token: str, api_base: str | None = None) -> Application:  # type: ignore[type-arg]
    """The bot: handlers for typed commands and buttons, an error handler, and the parts the
    outbox delivery needs; updates of different chats are handled concurrently."""
    cfg = load_settings()
    overall, overall_period = cfg.rate("telegram_overall_rate")
    group, group_period = cfg.rate("telegram_group_rate")
    # Flood limits are kept before Telegram has to answer 429; a 429 that still comes (limits
    # shared with another bot process) is raised to the sender, which waits it out exactly.
    limiter = AIORateLimiter(
        overall_max_rate=overall,
        overall_time_period=overall_period,
        group_max_rate=group,
        group_time_period=group_period,
        max_retries=0,
    )
    builder = Application.builder().token(token).concurrent_updates(True).rate_limiter(limiter)
    if api_base:
        base, files = api_urls(api_base)
        builder = builder.base_url(base).base_file_url(files)
    app = builder.build()
    pool = ThreadPoolExecutor(max_workers=32, thread_name_prefix="agora-telegram")
    sender = Sender(app.bot, client, pool)
    handlers = Handlers(client, sender)
    # Unique per host without configuration; TELEGRAM_CONSUMER pins it (a StatefulSet's pod name).
    consumer = os.environ.get("TELEGRAM_CONSUMER", "").strip() or f"telegram-{socket.gethostname()}"
    app.bot_data[_KEY] = Agora(client, sender, handlers, Delivery(client, sender, consumer=consumer), pool)
    app.add_handler(MessageHandler(filters.UpdateType.MESSAGE & filters.TEXT, handlers.on_message))
    app.add_handler(CallbackQueryHandler(handlers.on_callback))
    app.add_error_handler(handlers.on_error)
    return app


def telegram_client(redis_url: str) -> Client:
    """The client as the bot uses it: a move is awaited only as long as a button press can
    still be answered, so a busy or dead worker never leaves a press unanswered."""
    return Client(redis_url, move_timeout=MOVE_WAIT)


def agora(app: Application) -> Agora:  # type: ignore[type-arg]
    """The adapter's parts of an Application built by :func:`build_application`."""
    parts: Agora = app.bot_data[_KEY]
    return parts


def bot_commands() -> list[BotCommand]:
    """The command menu: every command of the shared layer with its arguments and purpose."""
    out = []
    for name, text in COMMANDS.items():
        usage, _, purpose = fmt.plain(text).partition(" — ")
        args = usage[len(name) :].strip()
        description = f"{args} — {purpose}" if args else purpose
        out.append(BotCommand(name, description[:256]))
    return out


async def register_commands(bot: Bot) -> None:
    """``setMyCommands``, so Telegram clients offer the commands with descriptions."""
    await bot.set_my_commands(bot_commands())


async def start(app: Application, *, poll_timeout: int = 10, webhook: Webhook | None = None) -> None:  # type: ignore[type-arg]
    """Start the bot and its outbox delivery inside the running event loop."""
    parts = agora(app)
    await app.initialize()
    await register_commands(app.bot)
    await app.start()
    if webhook is None:
        assert app.updater is not None
        await app.updater.start_polling(timeout=poll_timeout, allowed_updates=ALLOWED_UPDATES)
    else:
        parts.webhook_runner = await _start_webhook(app, webhook)
    parts.stop = asyncio.Event()
    parts.delivery_task = asyncio.create_task(parts.delivery.run(parts.stop), name="agora-telegram-delivery")
    log.info("Telegram bot @%s running (%s)", app.bot.username, "webhook" if webhook else "long polling")


async def stop(app: Application, *, timeout: float = 10.0) -> None:  # type: ignore[type-arg]
    """Stop polling (or the webhook), let the delivery finish its batch, shut down."""
    parts = agora(app)
    if app.updater is not None and app.updater.running:
        await app.updater.stop()
    if parts.webhook_runner is not None:
        await parts.webhook_runner.cleanup()
        parts.webhook_runner = None
    if app.running:
        await app.stop()  # lets the updates in hand finish
    if parts.stop is not None:
        parts.stop.set()
    if parts.delivery_task is not None:
        try:
            await asyncio.wait_for(parts.delivery_task, timeout)
        except (TimeoutError, asyncio.CancelledError):
            log.warning("outbox delivery did not stop in %.0f s; cancelled (unsent entries stay pending)", timeout)
        parts.delivery_task = None
    await app.shutdown()
    await parts.client.answers.aclose()  # the reader of move answers
    parts.pool.shutdown(wait=False, cancel_futures=True)


async def _start_webhook(app: Application, hook: Webhook) -> web.AppRunner:  # type: ignore[type-arg]
    """Listen for Telegram's POSTs and register the URL with Telegram."""

    async def receive(request: web.Request) -> web.Response:
        if not secrets.compare_digest(request.headers.get("X-Telegram-Bot-Api-Secret-Token", ""), hook.secret):
            return web.Response(status=403, text="wrong secret")
        try:
            update = Update.de_json(await request.json(), app.bot)
        except Exception:
            return web.Response(status=400, text="not an update")
        await app.process_update(update)  # answered after handling: Telegram re-sends on failure
        return web.Response(text="ok")

    server = web.Application()
    server.router.add_post(urlparse(hook.url).path or "/", receive)
    runner = web.AppRunner(server, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, hook.listen, hook.port).start()
    await app.bot.set_webhook(hook.url, secret_token=hook.secret, allowed_updates=ALLOWED_UPDATES)
    return runner


def run(redis_url: str, token: str, api_base: str | None = None, webhook: str | Webhook | None = None) -> None:
    """Run the Telegram bot until SIGINT/SIGTERM (``agora serve`` calls this).

    Args:
        redis_url: the store and Celery broker.
        token: the bot token.
        api_base: another Bot API server (see module docstring).
        webhook: a public URL (listen address from the environment) or a :class:`Webhook`;
            None means long polling.
    """
    hook = Webhook.from_env(webhook) if isinstance(webhook, str) else webhook
    client = telegram_client(redis_url)
    try:
        app = build_application(client, token, api_base)
        asyncio.run(_serve(app, hook))
    finally:
        client.close()


async def _serve(app: Application, hook: Webhook | None) -> None:  # type: ignore[type-arg]
    done = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, done.set)
    await start(app, webhook=hook)
    try:
        await done.wait()
    finally:
        await stop(app)
