"""The only surface the chat adapters use: commands, button presses, and the outbox.

Why one narrow entry: adapters stay thin and interchangeable (Telegram, Discord, console), and
the import-layer check can forbid them everything else in ``workers``. Moves are sent to the
Celery workers and awaited; read-only commands read Redis directly.

Adapter bookkeeping (which update ids were handled, which message carries the live keyboard
of a chat) goes through :meth:`Client.kv_get` / :meth:`Client.kv_set`, a namespaced string
store at ``agora:kv:{namespace}:{key}`` (always with a TTL), so adapters never import Redis.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import celery.exceptions

from engine import EngineError
from workers import outbox, pipeline, ratelimit, settings
from workers.answers import Answers
from workers.celery_app import load_plugins
from workers.commands import ALIASES, COMMANDS, Commands, Context
from workers.commands.accounts import account_of
from workers.commands.base import OUTBOXED, MoveDeferred, deferring_moves
from workers.outbox import Envelope
from workers.pipeline import BOT, MoveResult
from workers.replies import Button, Part, Reply, error
from workers.store import Store, k_callback

load_plugins()
__all__ = ["ALIASES", "COMMANDS", "OUTBOXED", "Button", "Client", "Context", "EngineError", "Envelope", "Part", "Reply"]
log = logging.getLogger(__name__)
# How an adapter runs a blocking call off its event loop (its sender's ``io``).
Runner = Callable[..., Awaitable[Any]]


class Client:
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
                    tasks.move.apply_async(args=args, kwargs=reply_to, ignore_result=True)
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

    def user_key(self, platform: str, user: str) -> str:
        """The key a platform user plays as (their linked account, or ``platform:user``)."""
        return account_of(self.store, f"{platform}:{user}")

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

    def _submit_move(self, gid: str, user: str, text: str, idem: str) -> MoveResult:
        from workers import tasks

        key = idem or "c" + secrets.token_hex(8)
        res = tasks.move.apply_async(args=[gid, user, text, key])
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

    # -------------------------------------------------------------- outbox
    def fetch(self, platform: str, consumer: str, *, block_ms: int = 1000, count: int = 20) -> list[Envelope]:
        """Next outbox messages for ``platform`` (our unacknowledged ones first)."""
        return outbox.fetch(self.store, platform, consumer, count=count, block_ms=block_ms)

    def ack(self, platform: str, envelope: Envelope) -> None:
        outbox.ack(self.store, platform, envelope)

    def already_sent(self, envelope: Envelope) -> bool:
        return outbox.already_sent(self.store, envelope.key)

    def claim(self, envelope: Envelope, who: str) -> bool:
        """Claim the showing of a prompt (see ``outbox.claim``); other messages are always ours."""
        if envelope.message.get("type") != "prompt":
            return True
        return outbox.claim(self.store, envelope.key, who)

    def press_in_flight(self, envelope: Envelope) -> bool:
        """Whether a button press of the seat a prompt is for is being handled right now (its
        reply may show the prompt's buttons in place of the pressed ones)."""
        m = envelope.message
        return bool(self.store.r.exists(f"agora:pressing:{m.get('game', '')}:{m.get('seat', '')}"))

    def mark_sent(self, envelope: Envelope) -> None:
        outbox.delivered(self.store, envelope)

    def render(self, envelope: Envelope) -> Part | None:
        """Turn an outbox message into what to send; None only when it is truly out of date
        (the game moved on) or of a kind this version does not know.

        Raises whatever building it raised (a reset connection, a server still loading its
        data): the caller keeps the message pending and tries again later. Taking a failure
        for "out of date" would mark a board as sent that nobody ever saw."""
        try:
            with self.commands.buttons_batched():
                return self._build(envelope)
        except Exception:
            log.warning("could not build outbox message %s yet; it stays pending", envelope.key, exc_info=True)
            raise

    def _build(self, envelope: Envelope) -> Part | None:
        m = envelope.message
        kind = m.get("type")
        if kind == "turn":
            return self.commands.turn_part(m)
        if kind == "prompt":
            return self.commands.prompt_part(m)
        if kind == "reminder":
            return self.commands.reminder_part(m)
        if kind in ("private", "text"):
            return Part(text=str(m.get("text", "")), private=kind == "private")
        if kind == "notice":  # a table notice (a timeout, autopilot, a substitute): public
            return Part(text=str(m.get("text", "")))
        log.warning("unknown outbox message type %r", kind)
        return None

    def destination(self, envelope: Envelope) -> tuple[str, bool] | None:
        """(chat id, private) for a message: the game's chat, or the user's private chat."""
        m = envelope.message
        if m.get("type") in ("turn", "notice"):
            return str(m["chat"]), False
        user = str(m.get("user", ""))
        dm = self.store.user(user).get("dm")
        if dm:
            return dm, True
        if m.get("type") == "reminder" and m.get("chat"):
            return str(m["chat"]), False  # no private chat: a mention in the game's chat
        return None

    def awaits(self, gid: str, platform: str, user: str) -> bool:
        """Whether game ``gid`` is waiting for a move of this user (or is over: False)."""
        meta = self.store.meta(gid)
        if meta.get("status") != "active":
            return False
        return self.commands._awaits(gid, self.user_key(platform, user))

    def game_status(self, gid: str) -> str:
        """``lobby``, ``active``, ``over`` or ``""`` when there is no such game."""
        return self.store.meta(gid).get("status", "")

    def user_dm(self, platform: str, user: str) -> str | None:
        return self.store.user(f"{platform}:{user}").get("dm")

    def user_name(self, user_key: str) -> str:
        """Display name of a user key (``telegram:42``), or the bare id when unknown."""
        return self.store.user(user_key).get("name") or user_key.partition(":")[2]

    def chat_game(self, platform: str, chat: str) -> str | None:
        """The game id played in a chat, if any (adapters use it to name the game in links)."""
        return self.store.chat_game(platform, chat)

    def home_chat(self, platform: str, gid: str) -> str | None:
        """The chat a game lives in on ``platform`` — its home, or a table that joined by the
        join code — for notices that must be posted there ("open the private chat with me")."""
        meta = self.store.meta(gid)
        # The home chat first, then the tables that joined by the join code.
        for place in [meta.get("home", ""), *meta.get("tables", "").split()]:
            plat, _, chat = place.partition(":")
            if plat == platform and chat:
                return chat
        return None

    def game_summary(self, gid: str) -> dict[str, Any] | None:
        """What a local front end needs to show or resume a game, or None when there is none.

        Keys: ``game`` (id), ``title``, ``status``, ``version`` (moves so far), ``posted``
        (the last version posted as a turn), ``home`` (``platform:chat``), ``users`` (seat ->
        user key, automatic players omitted), ``seat_names`` (the game's names of the seats
        once it began) and ``resumable`` (False when this Agora can no longer load the saved
        state, e.g. it was saved by an older engine).
        """
        meta = self.store.meta(gid)
        if not meta:
            return None
        seats = {s: u for s, u in self.store.seats(gid).items() if u != BOT}
        resumable, names = True, []
        if meta.get("status") in ("active", "over"):
            try:
                loaded = pipeline.load(self.store, gid)
                names = loaded.game.seat_names(loaded.state)
            except Exception:
                resumable = False
        return {
            "game": meta.get("game", ""),
            "title": meta.get("title", ""),
            "status": meta.get("status", ""),
            "version": int(meta.get("version", 0) or 0),
            "posted": int(meta.get("posted_v", 0) or 0),
            "home": meta.get("home", ""),
            "users": seats,
            "resumable": resumable,
            "seat_names": names,
        }

    def user_game_ids(self, platform: str, user: str) -> list[str]:
        """Every game id this user has a seat in, newest first."""
        ids = self.store.user_games(self.user_key(platform, user))
        return sorted(ids, key=lambda g: int(g[1:], 36) if g[1:].isalnum() else 0, reverse=True)

    def awaited_moves(self, gid: str, platform: str, user: str, *, variants: bool = False) -> list[str]:
        """The notations of the legal moves the game awaits from this user now (empty when it
        awaits nobody of theirs), for a short "your turn" hint. With ``variants`` also the
        other forms of a move (another way to pay), listed after the main forms — Discord's
        move autocomplete offers them once the typed text narrows down to them."""
        try:
            loaded = pipeline.load(self.store, gid)
        except Exception:
            return []
        game, state = loaded.game, loaded.state
        for seat in loaded.seats_of(self.user_key(platform, user)):
            if seat in game.to_move(state):
                actions = game.legal_actions(state, seat)
                main = [game.notation(state, seat, a) for a in actions if not game.action_variant(state, seat, a)]
                if not variants:
                    return main
                return main + [game.notation(state, seat, a) for a in actions if game.action_variant(state, seat, a)]
        return []

    # ------------------------------------------------- adapter bookkeeping
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

    def awaited_users(self, gid: str, version: int | None = None) -> list[str]:
        """User keys the game awaits now (automatic players left out), from one load; empty
        when the game is over or has moved past ``version``. For "your turn" mentions."""
        try:
            loaded = pipeline.load(self.store, gid)
        except Exception:
            return []
        if loaded.meta.get("status") != "active" or (version is not None and loaded.version != version):
            return []
        waiting = loaded.game.to_move(loaded.state)
        return sorted({u for s, u in loaded.seats.items() if s in waiting and u != BOT})

    def button_info(self, tokens: list[str]) -> dict[str, dict[str, Any] | None]:
        """What each button token stands for (``g`` game, ``v`` version, ``s`` seat, ``k``
        kind), or None for an expired one: Discord puts game, version and seat into its
        component ids so a press can be answered without another lookup."""
        if not tokens:
            return {}
        raws = self.store.mget([k_callback(t) for t in tokens])
        return {t: (json.loads(raw) if raw else None) for t, raw in zip(tokens, raws, strict=True)}

    def seat_label(self, gid: str, seat: int) -> str:
        """``Romans (alice)``: the name a seat is called by in the game's messages."""
        try:
            return pipeline.display_names(self.store, pipeline.load(self.store, gid))[seat]
        except Exception:
            return "another player"

    def refuse(self, text: str) -> Reply:
        return error(text)

    def close(self) -> None:
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


# ------------------------------------------------------------------ no-server helpers
def list_games() -> list[dict[str, Any]]:
    """Every available game: id, name, player counts, summary, options."""
    from engine import list_games as _list

    return [
        {
            "id": g.id,
            "name": g.info.name,
            "min_players": g.info.min_players,
            "max_players": g.info.max_players,
            "summary": g.info.summary,
            "options": dict(g.info.options_help),
            "aliases": list(g.aliases),
        }
        for g in _list()
    ]


def replay_record(game: str, seed: int, players: int, options: dict[str, Any], lines: list[str]) -> dict[str, Any]:
    """Replay a record (``seat: notation`` lines) and return the final spectator view and
    outcome. Errors name the line that failed.

    Seats are numbered from 1 as players say them ("player 1"); a record that uses seat 0
    anywhere is read as the engine's 0-based seats (``agora`` logs and the engine both use
    those), so either convention replays.
    """
    from engine import find_game

    g = find_game(game)
    state = g.new_game(seed, players, options)
    parsed: list[tuple[int, int, str, str]] = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        seat_text, sep, text = line.partition(":")
        if not sep or not seat_text.strip().isascii() or not seat_text.strip().isdigit():
            raise ValueError(f"line {number}: expected `seat: move`, e.g. `1: rondel templum`; got {line!r}")
        parsed.append((number, int(seat_text), text, line))
    base = 0 if any(seat == 0 for _, seat, _, _ in parsed) else 1
    for number, seat_no, text, line in parsed:
        seat = seat_no - base
        try:
            state = g.apply(state, seat, g.parse(state, seat, text.strip())).state
        except EngineError as exc:
            raise ValueError(f"line {number} ({line!r}): {exc.user_message}") from exc
    outcome = g.outcome(state)
    return {
        "game": g.id,
        "view": g.view(state, None),
        "status": g.status(state, None),
        "outcome": outcome.to_json() if outcome else None,
    }


def game_players(game: str) -> tuple[int, int]:
    """(min, max) players of a game, by name or alias."""
    from engine import find_game

    info = find_game(game).info
    return info.min_players, info.max_players


def local_services(data_dir: Any, **kwargs: Any) -> Any:
    """Start the embedded server (if REDIS_URL is unset) and a worker; see workers.local."""
    from workers.local import local_services as _local

    return _local(data_dir, **kwargs)


# ---------------------------------------------------------------- process set-up for adapters
# Adapters reach the rest of ``workers`` only through this module (the import-layer rule);
# these are the pieces of process set-up they need: settings, logging, metrics.
Settings = settings.Settings
SettingsError = settings.SettingsError
mask_url = settings.mask_url


def load_settings() -> settings.Settings:
    """The validated settings (raises :class:`SettingsError` naming every wrong variable)."""
    return settings.load()


def require_settings(cfg: settings.Settings, *variables: str, why: str) -> None:
    """Raise :class:`SettingsError` when a variable the command needs is not set."""
    settings.require(cfg, *variables, why=why)


def setup_logging(cfg: settings.Settings) -> None:
    """Text or JSON logs with game context and secrets scrubbed (see :mod:`workers.logs`)."""
    from workers import logs

    logs.setup(cfg)


def start_metrics(redis_url: str, *, offset: int = 0) -> Any:
    """This process's /metrics, /healthz and /readyz when ``AGORA_METRICS_PORT`` is set."""
    from workers import metrics

    return metrics.start_from_settings(redis_url, offset=offset)


def count_delivered(platform: str) -> None:
    """One outbox message delivered on ``platform`` (a metric)."""
    from workers import metrics

    metrics.OUTBOX_SENT.labels(platform).inc()


def rebuild_deadline_index(redis_url: str) -> int:
    """Rebuild the deadline index from the game records (``agora deadlines rebuild``);
    returns how many games are scheduled."""
    from workers import deadlines

    return int(deadlines.rebuild_index(Store.from_url(redis_url)))
