"""Wiring and running the Discord bot, and registering its commands.

Configuration (read by ``agora serve`` / ``agora bot discord``, passed to :func:`run`):

- ``DISCORD_TOKEN`` — the bot token.
- ``DISCORD_API_BASE`` — another REST base, e.g. a test fake ``http://127.0.0.1:PORT/api/v10``
  (sets ``discord.http.Route.BASE``).
- ``DISCORD_GATEWAY_URL`` — another gateway websocket URL (sets discord.py's default gateway).
- ``DISCORD_SHARDS`` — unset: one connection; ``auto``: ``AutoShardedClient`` with Discord's
  recommended shard count; a number: that many shards.
- ``DISCORD_CONSUMER`` — this bot's consumer name in the outbox group (default ``discord-<host name>``).

Intents: only ``guilds`` (not privileged). Everything is slash commands and components, which
Discord delivers without the message-content intent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import discord
import yarl
from discord import app_commands

from bots.discord.components import MoveButton, MoveSelect
from bots.discord.delivery import Delivery
from bots.discord.handlers import Handlers
from bots.discord.sender import Sender
from bots.discord.tree import GROUP, build_group
from workers.client import Client, load_settings

log = logging.getLogger(__name__)


@dataclass
class Agora:
    """What the bot carries besides discord.py's own parts (``bot.agora``)."""

    client: Client
    sender: Sender
    handlers: Handlers
    delivery: Delivery
    pool: ThreadPoolExecutor
    stop: asyncio.Event | None = None
    delivery_task: asyncio.Task[None] | None = None
    connection: asyncio.Task[None] | None = None


def configure_endpoints(api_base: str | None = None, gateway_url: str | None = None) -> None:
    """Point discord.py at another REST base and gateway (self-hosted proxies, test fakes)."""
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def make_bot(shards: str | None = None, *, fast_ready: bool = False) -> discord.Client:
    """A discord.py client with the ``guilds`` intent only, sharded when asked."""
    intents = discord.Intents.none()
    intents.guilds = True
    kwargs: dict[str, Any] = {"intents": intents}
    if fast_ready:
        kwargs["guild_ready_timeout"] = 0.05  # a fake READY lists no guilds; do not wait 2 s
    shards = (shards or "").strip().lower()
    if shards == "auto":
        return discord.AutoShardedClient(**kwargs)
    if shards.isdigit() and int(shards) > 1:
        return discord.AutoShardedClient(shard_count=int(shards), **kwargs)
    return discord.Client(**kwargs)


def build_bot(client: Client, *, shards: str | None = None, fast_ready: bool = False,
              consumer: str | None = None) -> discord.Client:
    """The bot: the ``/agora`` tree, the persistent components and the outbox delivery."""
    bot = make_bot(shards, fast_ready=fast_ready)
    pool = ThreadPoolExecutor(max_workers=32, thread_name_prefix="agora-discord")
    sender = Sender(bot, client, pool)
    handlers = Handlers(client, sender)
    name = consumer or load_settings().discord_consumer.strip() or f"discord-{socket.gethostname()}"
    parts = Agora(client, sender, handlers, Delivery(client, sender, consumer=name), pool)
    bot.agora = parts  # type: ignore[attr-defined]
    tree = app_commands.CommandTree(bot)
    tree.add_command(build_group(handlers))
    tree.on_error = _tree_error  # type: ignore[method-assign]
    bot.tree = tree  # type: ignore[attr-defined]
    bot.add_dynamic_items(MoveButton, MoveSelect)

    async def on_interaction(interaction: discord.Interaction[Any]) -> None:
        await handlers.on_unknown_component(interaction)

    bot.event(on_interaction)
    return bot


async def _tree_error(interaction: discord.Interaction[Any], error: app_commands.AppCommandError) -> None:
    """A failure inside the tree (a bad option value, a bug): answer politely, never silently."""
    log.error("application command failed", exc_info=error)
    text = "Something went wrong on our side; nothing was changed. Please try again."
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not report the failure of interaction %s", interaction.id)


def agora(bot: discord.Client) -> Agora:
    parts: Agora = bot.agora  # type: ignore[attr-defined]
    return parts


async def start(bot: discord.Client, token: str, *, ready_timeout: float = 60.0) -> None:
    """Log in, connect to the gateway and start the outbox delivery; returns once ready."""
    parts = agora(bot)
    await bot.login(token)
    parts.connection = asyncio.create_task(bot.connect(), name="agora-discord-gateway")
    ready = asyncio.create_task(bot.wait_until_ready())
    done, _ = await asyncio.wait({ready, parts.connection}, timeout=ready_timeout,
                                 return_when=asyncio.FIRST_COMPLETED)
    if ready not in done:
        ready.cancel()
        if parts.connection in done:
            parts.connection.result()  # raises the gateway's error
        raise TimeoutError("the Discord gateway did not become ready")
    parts.stop = asyncio.Event()
    parts.delivery_task = asyncio.create_task(parts.delivery.run(parts.stop), name="agora-discord-delivery")
    log.info("Discord bot %s running", bot.user)


async def stop(bot: discord.Client, *, timeout: float = 10.0) -> None:
    """Close the gateway, let the delivery finish its batch, release the pool."""
    parts = agora(bot)
    if parts.stop is not None:
        parts.stop.set()
    if parts.delivery_task is not None:
        try:
            await asyncio.wait_for(parts.delivery_task, timeout)
        except (TimeoutError, asyncio.CancelledError):
            log.warning("Discord outbox delivery did not stop in %.0f s; cancelled (unsent entries stay pending)",
                        timeout)
        parts.delivery_task = None
    await bot.close()
    if parts.connection is not None:
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(parts.connection, timeout)
        parts.connection = None
    await parts.client.answers.aclose()  # the reader of move answers
    parts.pool.shutdown(wait=False, cancel_futures=True)


def env_config() -> dict[str, Any]:
    """The Discord settings (see the module docstring), from the validated settings: so the
    token may also come from ``DISCORD_TOKEN_FILE`` or the secrets folder."""
    cfg = load_settings()
    return {
        "token": cfg.secret("discord_token"),
        "api_base": cfg.discord_api_base or None,
        "gateway_url": cfg.discord_gateway_url or None,
        "shards": cfg.discord_shards,
    }


async def serve(client: Client, config: dict[str, Any], done: asyncio.Event) -> None:
    """Run the bot until ``done`` is set (``agora serve`` runs this beside Telegram)."""
    configure_endpoints(config.get("api_base"), config.get("gateway_url"))
    bot = build_bot(client, shards=config.get("shards"), fast_ready=bool(config.get("gateway_url")))
    await start(bot, config["token"])
    try:
        await done.wait()
    finally:
        await stop(bot)


def run(redis_url: str, config: dict[str, Any] | None = None) -> None:
    """Run the Discord bot alone until SIGINT/SIGTERM (``agora bot discord``)."""
    cfg = config or env_config()
    client = Client(redis_url)
    try:
        asyncio.run(_serve_until_signal(client, cfg))
    finally:
        client.close()


async def _serve_until_signal(client: Client, cfg: dict[str, Any]) -> None:
    done = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, done.set)
    await serve(client, cfg, done)


# ------------------------------------------------------------------ command registration
def _describe(cmd: dict[str, Any]) -> dict[str, Any]:
    """What of a command payload matters for "did it change" (ids and versions do not)."""
    keep = ("name", "description", "options", "type")

    def clean(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: clean(v) for k, v in sorted(x.items()) if k not in ("id", "application_id", "version",
                                                                              "guild_id", "dm_permission")}
        if isinstance(x, list):
            return [clean(v) for v in x]
        return x

    return {k: clean(cmd.get(k)) for k in keep}


async def sync_commands(token: str, guild: int | None = None, config: dict[str, Any] | None = None) -> list[str]:
    """Register ``/agora`` globally (or for one guild, which takes effect at once) and say
    what changed, one line per subcommand: added, changed, removed or unchanged."""
    cfg = config or env_config()
    configure_endpoints(cfg.get("api_base"), cfg.get("gateway_url"))
    bot = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(bot)
    tree.add_command(build_group(None))
    target = discord.Object(guild) if guild else None
    lines: list[str] = []
    try:
        await bot.login(token)
        before: dict[str, Any] = {c.name: c.to_dict() for c in await tree.fetch_commands(guild=target)}
        if target is not None:
            tree.copy_global_to(guild=target)
        after: dict[str, Any] = {c.name: c.to_dict() for c in await tree.sync(guild=target)}
    finally:
        await bot.close()
    old = {o["name"]: o for o in (before.get(GROUP) or {}).get("options", []) if isinstance(o, dict)}
    new = {o["name"]: o for o in (after.get(GROUP) or {}).get("options", []) if isinstance(o, dict)}
    scope = f"guild {guild}" if guild else "globally"
    for name in sorted(set(old) | set(new)):
        if name not in old:
            lines.append(f"added    /{GROUP} {name}")
        elif name not in new:
            lines.append(f"removed  /{GROUP} {name}")
        elif _describe(old[name]) != _describe(new[name]):
            lines.append(f"changed  /{GROUP} {name}")
        else:
            lines.append(f"same     /{GROUP} {name}")
    for name in sorted(set(before) - set(after)):
        lines.append(f"removed  /{name}")
    changed = sum(1 for x in lines if not x.startswith("same"))
    lines.append(f"{len(new)} subcommands of /{GROUP} registered {scope}; {changed} changed.")
    return lines
