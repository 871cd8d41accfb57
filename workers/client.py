"""The only surface the chat adapters use: commands, button presses, and the outbox.

Why one narrow entry: adapters stay thin and interchangeable (Telegram, Discord, console), and
the import-layer check can forbid them everything else in ``workers``. Moves are sent to the
Celery workers and awaited; read-only commands read Redis directly.

Adapter bookkeeping (which update ids were handled, which message carries the live keyboard
of a chat) goes through :meth:`Client.kv_get` / :meth:`Client.kv_set`, a namespaced string
store at ``agora:kv:{namespace}:{key}`` (always with a TTL), so adapters never import Redis.

Why this module is small: what the client does besides commands lives in modules named after
it - the outbox as a delivery loop sees it (:mod:`workers.client_outbox`), the reads adapters
make between commands (:mod:`workers.client_reads`), the helpers that need no server
(:mod:`workers.offline`) and process set-up (:mod:`workers.adapter_setup`). Everything an
adapter uses is re-exported here, the one module of ``workers`` adapters may import.
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import celery.exceptions

from engine import EngineError
from workers import ratelimit, settings
from workers.adapter_setup import (
    Settings,
    SettingsError,
    count_delivered,
    load_settings,
    mask_url,
    rebuild_deadline_index,
    require_settings,
    setup_logging,
    start_metrics,
)
from workers.answers import Answers
from workers.celery_app import load_plugins
from workers.client_outbox import ClientOutbox
from workers.client_reads import ClientReads
from workers.commands import ALIASES, COMMANDS, Commands, Context
from workers.commands.accounts import account_of
from workers.commands.base import HIDDEN_REFUSAL, OUTBOXED, MoveDeferred, deferring_moves
from workers.offline import game_players, list_games, local_services, replay_record
from workers.outbox import Envelope
from workers.pipeline import MoveResult
from workers.publisher import Publisher
from workers.replies import Button, Part, Reply, error
from workers.store import Store

load_plugins()
__all__ = [
    "ALIASES", "COMMANDS", "HIDDEN_REFUSAL", "OUTBOXED", "Button", "Client", "Context", "EngineError", "Envelope",
    "Part", "Reply",
    "Settings", "SettingsError", "count_delivered", "game_players", "list_games", "load_settings", "local_services",
    "mask_url", "rebuild_deadline_index", "replay_record", "require_settings", "setup_logging", "start_metrics",
]  # fmt: skip
log = logging.getLogger(__name__)
# How an adapter runs a blocking call off its event loop (its sender's ``io``).
Runner = Callable[..., Awaitable[Any]]


class Client(ClientOutbox, ClientReads):
    """Connects an adapter to Redis and the Celery workers.

    Args:
        redis_url: the store and broker (``REDIS_URL``).
        move_timeout: seconds to wait for a worker to apply a move before answering "queued"
            (adapters keep it below their platform's window for answering a button press).
    """

    def __init__(self, redis_url: str, *, move_timeout: float = 10.0) -> None:
        from workers import redisconn
        from workers.celery_app import app

        redisconn.configure_celery(app, redis_url)
        self.publisher = Publisher(app, app.conf.broker_url)
        self.store = Store.from_url(redis_url)
        self.move_timeout = move_timeout
        self.commands = Commands(self.store, self._submit_move, self._kick)
        cfg = settings.load()
        self.limiter = ratelimit.CommandLimiter(redis_url, user=cfg.agora_rate_user, chat=cfg.agora_rate_chat)
        self.answers = Answers(redis_url)

    # ------------------------------------------------------------ commands
    def command(self, ctx: Context, text: str) -> Reply:
        """Run one typed command (``/move rondel templum`` or ``move ...``)."""
        refused = self._limited(ctx)
        if refused is not None:
            return refused
        with self.commands.buttons_batched():
            return self.commands.handle(self._linked(ctx), text)

    def press(self, ctx: Context, token: str) -> Reply:
        """Run a pressed button (its token)."""
        refused = self._limited(ctx)
        if refused is not None:
            return refused
        with self.commands.buttons_batched():
            return self.commands.press(self._linked(ctx), token)

    # ------------------------------------------- the same, awaited without a thread
    async def command_async(self, ctx: Context, text: str, run: Runner) -> Reply:
        """:meth:`command` for an event loop: the parts before and after a move run through
        ``run`` (the adapter's pool, short Redis reads), the wait for the move's answer holds
        no thread (see :mod:`workers.answers`)."""
        return await self._deferred(run, self.command, ctx, text)

    async def press_async(self, ctx: Context, token: str, run: Runner) -> Reply:
        """:meth:`press` for an event loop (see :meth:`command_async`)."""
        return await self._deferred(run, self.press, ctx, token)

    async def _deferred(self, run: Runner, fn: Callable[[Context, str], Reply], ctx: Context, arg: str) -> Reply:
        rid = secrets.token_hex(8)
        self.answers.expect(rid)
        try:
            outcome = await run(self._until_move, rid, fn, ctx, arg)
            if not isinstance(outcome, MoveDeferred):
                return list(outcome)
            data = await self.answers.wait(rid, self.move_timeout)
            answer = MoveResult.from_json(data) if data is not None else _queued()
            return list(await run(self._finish, outcome, answer))
        finally:
            self.answers.forget(rid)

    def _finish(self, deferred: MoveDeferred, answer: MoveResult) -> Reply:
        with self.commands.buttons_batched():
            return self.commands.finish(deferred, answer)

    def _until_move(
        self, rid: str, fn: Callable[[Context, str], Reply], ctx: Context, arg: str
    ) -> Reply | MoveDeferred:
        """Run a command up to its move (if any), send the move with ``rid`` as its answer's
        name, and hand back the rest of the command (blocking; runs in the adapter's pool)."""
        from workers import tasks

        with deferring_moves():
            try:
                return fn(ctx, arg)
            except MoveDeferred as deferred:
                key = deferred.idem or "c" + secrets.token_hex(8)
                args = [deferred.gid, deferred.user, deferred.text, key]
                try:
                    reply_to = {"reply_to": self.answers.box, "rid": rid}
                    if deferred.typed:
                        reply_to["typed"] = deferred.typed
                    shown = tasks.reprs(args, reply_to)
                    self.publisher.send(tasks.move, args=args, kwargs=reply_to, ignore_result=True, **shown)
                except Exception:
                    log.exception("could not send a move of %s", deferred.gid)
                    return self.commands.finish(deferred, _failed())
                return deferred

    def _limited(self, ctx: Context) -> Reply | None:
        """None when the command may run; else the "slow down" reply.

        Decision: a flood gets one answer per window, not one per message (later commands in
        the same window get an empty reply), so the refusal cannot itself flood the chat."""
        verdict = self.limiter.check(ctx.platform, ctx.chat, ctx.user)
        if verdict.allowed:
            return None
        scope_id = ctx.user_key if verdict.scope == "user" else f"{ctx.platform}:{ctx.chat}"
        if not self.kv_set("rate-warned", scope_id, "1", ttl=verdict.retry_after, only_new=True):
            return []
        return error(ratelimit.slow_down_text(verdict), "rate/limited")

    def _linked(self, ctx: Context) -> Context:
        """``ctx`` playing as its linked account (``link``), if it has one."""
        try:
            account = account_of(self.store, ctx.own_key)
        except Exception:
            log.exception("could not read the linked account of %s", ctx.own_key)
            return ctx
        return dataclasses.replace(ctx, account=account) if account != ctx.own_key else ctx

    def connect(self, ctx: Context, payload: str) -> Reply:
        """A user opened the private chat through a deep link (``payload`` names a game):
        remember the chat and return what was waiting for them there. Never raises."""
        try:
            return self.commands.connect(self._linked(ctx), payload)
        except Exception:
            log.exception("connect failed for %s", ctx.user_key)
            return error("Something went wrong on our side; type `hand` to get your private information.")

    def _kick(self, gid: str) -> None:
        from workers import tasks

        tasks.kick.delay(gid)

    def _submit_move(self, gid: str, user: str, text: str, idem: str, typed: str = "") -> MoveResult:
        from workers import tasks

        key = idem or "c" + secrets.token_hex(8)
        res = self.publisher.send(tasks.move, args=[gid, user, text, key], kwargs={"typed": typed} if typed else None)
        try:
            data: dict[str, Any] = res.get(timeout=self.move_timeout, interval=0.005)
        except celery.exceptions.TimeoutError:
            # Stop waiting for this result now: left pending, the result consumer keeps it
            # until garbage collection, which may run when the store is gone (a shutdown) and
            # then fails inside ``__del__``.
            try:
                res.backend.remove_pending_result(res)
            except Exception:
                log.debug("could not drop the pending result of a queued move", exc_info=True)
            return _queued()
        except Exception:
            log.exception("move task failed for %s", gid)
            return _failed()
        return MoveResult.from_json(data)

    def kv_get(self, namespace: str, key: str) -> str | None:
        raw = self.store.r.get(_k_kv(namespace, key))
        return raw.decode() if raw is not None else None

    def kv_set(self, namespace: str, key: str, value: str, *, ttl: int, only_new: bool = False) -> bool:
        """Store ``value`` for ``ttl`` seconds; with ``only_new``, only if absent (returns
        whether it was written), which makes it a once-only marker."""
        return bool(self.store.r.set(_k_kv(namespace, key), value, ex=ttl, nx=only_new))

    def kv_delete(self, namespace: str, key: str) -> None:
        self.store.r.delete(_k_kv(namespace, key))

    def set_user_dm(self, platform: str, user: str, name: str, chat: str) -> None:
        """Remember the private chat of a user (Telegram: after they open it with /start)."""
        self.store.touch_user(f"{platform}:{user}", name, chat)

    def refuse(self, text: str) -> Reply:
        return error(text)

    def close(self) -> None:
        self.publisher.close()
        self.store.r.close()


def _queued() -> MoveResult:
    """The answer to a move not applied within the client's wait (it still will be)."""
    return MoveResult(
        False, "pipeline/queued", "Your move is queued; the server is busy. The board is posted once it is applied."
    )


def _failed() -> MoveResult:
    """The answer when waiting for a move's answer failed. Not "was not applied": the task
    may have committed before the wait failed (the store restarting); the fault suite saw 3 of
    29 such answers for applied moves."""
    return MoveResult(
        False,
        "internal",
        "Something went wrong on our side while your move was handled; it may have been applied. "
        "`status` shows the game.",
    )


def _k_kv(namespace: str, key: str) -> str:
    return f"agora:kv:{namespace}:{key}"
